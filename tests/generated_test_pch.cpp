// The target whose precompiled headers (doctest, aot/testing/Reference.h)
// the tests add_aot_target generates reuse: tests/CMakeLists.txt. Its main()
// is MlirAot::testmain's; it has no test case of its own.
