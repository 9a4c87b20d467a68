//===- Generator.h - a doctest test file for a compiled module ------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Manifest.h"
#include "aot/abi/Compare.h"

#include <string>
#include <vector>

namespace aot::testgen {

/// What a generated test file is made from.
struct TestFileSpec {
  Manifest manifest;
  /// The keys of the reference .npz, which tell the naming scheme it
  /// follows. A key the tests read but the reference lacks is not an error
  /// here: the test fails when it runs, naming the key, the way it does
  /// against any other reference it is run with.
  std::vector<std::string> referenceKeys;
  /// Written as `#include "header"`.
  std::string header;
  /// Named in messages and, without directories, in the file's comment
  /// header.
  std::string manifestName, referenceName;
  /// The functions to test, by MLIR name; empty for all.
  std::vector<std::string> functions;
  abi::Tolerance tolerance;
};

/// The test file: one doctest TEST_CASE per selected function, in manifest
/// order. Fails, naming the function, when a selected function is not in
/// the manifest, and when the manifest has no module name or no function.
Expected<std::string> generateTestFile(const TestFileSpec &spec);

} // namespace aot::testgen
