//===- main.cpp - doctest entry point of the ABI unit tests ---------------===//
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
