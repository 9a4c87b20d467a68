//===- test_Ownership.cpp - which result buffers are freed, and how often -===//
//
// A counting release function shows each buffer is released exactly once
// and caller memory and globals never; the cases that use the default
// std::free are also run under valgrind by ctest (abi.valgrind) when it is
// installed.
//
//===----------------------------------------------------------------------===//
#include "aot/abi/Ownership.h"

#include "TestSupport.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

using namespace aot::abi;
using aot::abi::test::countingRelease;
using aot::abi::test::releases;

namespace {


bool sameOwner(const std::shared_ptr<void> &a, const std::shared_ptr<void> &b) {
  return !a.owner_before(b) && !b.owner_before(a);
}

} // namespace

TEST_SUITE_BEGIN("Ownership");

TEST_CASE("distinct malloc'ed results each get their own owner") {
  releases().clear();
  void *r0 = std::malloc(16), *r1 = std::malloc(16);
  {
    auto owners = adoptResultBuffers({r0, r1}, {}, countingRelease);
    REQUIRE(owners.size() == 2);
    CHECK(owners[0].get() == r0);
    CHECK(owners[1].get() == r1);
    CHECK(!sameOwner(owners[0], owners[1]));
    CHECK(releases().empty());
  }
  CHECK(releases() == std::map<void *, int>{{r0, 1}, {r1, 1}});
}

TEST_CASE("two results sharing a buffer share one owner, released once") {
  releases().clear();
  void *shared = std::malloc(32), *other = std::malloc(8);
  std::shared_ptr<void> keep;
  {
    auto owners =
        adoptResultBuffers({shared, other, shared}, {}, countingRelease);
    CHECK(sameOwner(owners[0], owners[2]));
    CHECK(owners[0].use_count() == 2);
    keep = owners[2]; // outlives the others
  }
  CHECK(releases() == std::map<void *, int>{{other, 1}});
  keep.reset();
  CHECK(releases() == std::map<void *, int>{{other, 1}, {shared, 1}});
}

TEST_CASE("a result that is the caller's own buffer is never released") {
  releases().clear();
  void *callerBuffer = std::malloc(64);
  void *fresh = std::malloc(64);
  {
    // The function returned its argument, and a new buffer.
    auto owners = adoptResultBuffers({callerBuffer, fresh},
                                     {nullptr, callerBuffer}, countingRelease);
    CHECK(!owners[0]);
    CHECK(owners[1].get() == fresh);
  }
  CHECK(releases() == std::map<void *, int>{{fresh, 1}});
  std::free(callerBuffer); // still ours: freeing it here must be valid
}

TEST_CASE("results in a constant global or null are never released") {
  releases().clear();
  {
    auto owners = adoptResultBuffers(
        {kGlobalSentinel, nullptr, kGlobalSentinel}, {}, countingRelease);
    for (const auto &o : owners)
      CHECK(!o);
  }
  CHECK(releases().empty());
}

TEST_CASE("default release frees with std::free, once per buffer") {
  // Checked for invalid and double frees and leaks under valgrind.
  int callerBuffer[4] = {};
  void *a = std::malloc(100), *b = std::malloc(200);
  auto owners = adoptResultBuffers({a, b, a, callerBuffer, kGlobalSentinel},
                                   {callerBuffer});
  CHECK(sameOwner(owners[0], owners[2]));
  CHECK(!owners[3]);
  CHECK(!owners[4]);
  owners.clear();
}

TEST_SUITE_END();
