//===- test_Reference.cpp - aot/testing/Reference.h -----------------------===//
//
// Every check of the reference reader (missing key, dtype, rank, static dim,
// scalar shape), the private copies handed to compiled code and the check
// that they stayed unchanged, result comparison through strides, and the
// process-wide reference.
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "aot/testing/Reference.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace abi = aot::abi;
using aot::testing::Reference;

namespace {

/// A tensor of `dtype` and `shape` holding `values` (converted from double).
abi::Tensor make(abi::DType dtype, std::vector<std::int64_t> shape,
                 const std::vector<double> &values) {
  abi::Tensor t = abi::Tensor::zeros(dtype, shape);
  REQUIRE(std::int64_t(values.size()) == t.numElements());
  abi::visitDType(dtype, [&](auto tag) {
    using T = decltype(tag);
    for (std::size_t i = 0; i < values.size(); ++i) {
      T v;
      if constexpr (std::is_same_v<T, abi::f16> || std::is_same_v<T, abi::bf16>)
        v = T(float(values[i]));
      else
        v = T(values[i]);
      std::memcpy(static_cast<char *>(t.rawData()) + i * sizeof(T), &v,
                  sizeof(T));
    }
  });
  return t;
}

/// An .npz written once for the whole run, removed at exit.
class Fixture {
public:
  Fixture() {
    dir_ = std::filesystem::temp_directory_path() /
           ("aot-testgen-reference-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "ref.npz").string();
    std::map<std::string, abi::Tensor> arrays;
    arrays["f/arg0"] = make(abi::DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
    arrays["f/result0"] = make(abi::DType::F32, {3, 2}, {1, 4, 2, 5, 3, 6});
    arrays["f/scalar"] = make(abi::DType::I32, {}, {7});
    arrays["f/vector"] = make(abi::DType::I32, {1}, {7});
    arrays["f/flag"] = make(abi::DType::I1, {}, {1});
    arrays["f/mask"] = make(abi::DType::I1, {3}, {1, 0, 1});
    arrays["f/bytes"] = make(abi::DType::I8, {3}, {1, 0, 1});
    // bf16 as numpy stores it: the bit patterns as uint16 (1.0, -2.0).
    arrays["f/bf16"] = make(abi::DType::U16, {2}, {0x3f80, 0xc000});
    arrays["f/zero"] = make(abi::DType::F64, {}, {0.5});
    abi::writeNpz(path_, arrays);
  }
  ~Fixture() { std::filesystem::remove_all(dir_); }
  const std::string &path() const { return path_; }

private:
  std::filesystem::path dir_;
  std::string path_;
};

const Fixture &fixture() {
  static Fixture f;
  return f;
}

Reference open() { return Reference::open(fixture().path()); }

/// The message of the abi::Error that `f` throws (fails if none).
template <typename F> std::string errorOf(F f) {
  try {
    f();
  } catch (const abi::Error &e) {
    return e.what();
  }
  FAIL("no aot::abi::Error was thrown");
  return "";
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST_SUITE_BEGIN("Reference");

TEST_CASE("opening a missing file names it") {
  std::string message =
      errorOf([] { Reference::open("/nonexistent/dir/ref.npz"); });
  CHECK(contains(message, "/nonexistent/dir/ref.npz"));
}

TEST_CASE("keys and has()") {
  Reference ref = open();
  CHECK(ref.path() == fixture().path());
  CHECK(ref.has("f/arg0"));
  CHECK_FALSE(ref.has("f/arg9"));
  CHECK(ref.keys().size() == 9);
}

TEST_CASE("a missing key is named with the file and the keys present") {
  Reference ref = open();
  std::string message = errorOf([&] { ref.input<float, 2>("g/arg0", {2, 3}); });
  CHECK(contains(message, fixture().path() + ": array 'g/arg0' is missing"));
  CHECK(contains(message, "tensor<2x3xf32>"));
  CHECK(contains(message, "f/arg0"));
}

TEST_CASE("a dtype mismatch names the key and both dtypes") {
  Reference ref = open();
  std::string message = errorOf([&] {
    ref.input<double, 2>("f/arg0", {2, 3});
  });
  CHECK(contains(message, "array 'f/arg0' holds f32 data, but the signature "
                          "is tensor<2x3xf64>"));
  message = errorOf([&] { ref.scalar<std::int64_t>("f/scalar"); });
  CHECK(contains(message,
                 "array 'f/scalar' holds i32 data, but the signature is i64"));
}

TEST_CASE("bf16 is read from uint16 bits; other dtypes are not bf16") {
  Reference ref = open();
  auto in = ref.input<abi::bf16, 1>("f/bf16", {2});
  CHECK(float(in.desc().aligned[0]) == 1.0f);
  CHECK(float(in.desc().aligned[1]) == -2.0f);
  std::string message = errorOf([&] {
    ref.input<abi::bf16, 2>("f/arg0", {2, 3});
  });
  CHECK(contains(message, "holds f32"));
  CHECK(contains(message, "(bf16 is stored as numpy uint16 bit patterns)"));
}

TEST_CASE("i1 is read from numpy bool, not from int8") {
  Reference ref = open();
  auto mask = ref.input<bool, 1>("f/mask", {3});
  CHECK(mask.desc().aligned[0]);
  CHECK_FALSE(mask.desc().aligned[1]);
  CHECK(ref.scalar<bool>("f/flag"));
  std::string message = errorOf([&] { ref.input<bool, 1>("f/bytes", {3}); });
  CHECK(contains(message, "holds i8"));
  CHECK(contains(message, "(i1 is stored as numpy bool)"));
}

TEST_CASE("a rank mismatch names the key and both ranks") {
  Reference ref = open();
  std::string message = errorOf([&] {
    ref.input<float, 3>("f/arg0", {2, 3, 1});
  });
  CHECK(contains(message, "array 'f/arg0' has shape [2, 3] (rank 2), but "
                          "tensor<2x3x1xf32> has rank 3"));
}

TEST_CASE("a static dim must match; a dynamic dim takes the stored size") {
  Reference ref = open();
  std::string message = errorOf([&] { ref.input<float, 2>("f/arg0", {2, 4}); });
  CHECK(contains(message, "array 'f/arg0' has shape [2, 3], but "
                          "tensor<2x4xf32> needs dim 1 to be 4"));
  auto in = ref.input<float, 2>("f/arg0", {-1, 3});
  CHECK(in.desc().sizes[0] == 2);
  CHECK(in.desc().sizes[1] == 3);
  message = errorOf([&] {
    ref.expected("f/result0", abi::DType::F32, {2, 2});
  });
  CHECK(contains(message, "array 'f/result0' has shape [3, 2]"));
}

TEST_CASE("a scalar comes from a 0-d array only") {
  Reference ref = open();
  CHECK(ref.scalar<std::int32_t>("f/scalar") == 7);
  CHECK(ref.scalar<double>("f/zero") == 0.5);
  std::string message = errorOf([&] { ref.scalar<std::int32_t>("f/vector"); });
  CHECK(contains(message, "array 'f/vector' has shape [1], but a scalar i32 "
                          "is stored as a 0-d array"));
}

TEST_CASE("an input is a private contiguous copy") {
  Reference ref = open();
  auto in = ref.input<float, 2>("f/arg0", {2, 3});
  abi::MemRef<float, 2> d = in.desc();
  CHECK(in.key() == "f/arg0");
  CHECK(d.aligned != in.original().rawData());
  CHECK(d.allocated == d.aligned);
  CHECK(d.offset == 0);
  CHECK(d.strides[0] == 3);
  CHECK(d.strides[1] == 1);
  CHECK(d[{1, 2}] == 6.0f);
  // Two inputs from one key do not share memory.
  auto again = ref.input<float, 2>("f/arg0", {2, 3});
  CHECK(again.desc().aligned != d.aligned);
}

TEST_CASE("a rank-0 input") {
  Reference ref = open();
  auto in = ref.input<double, 0>("f/zero", {});
  CHECK(in.desc()[{}] == 0.5);
  CHECK(in.unchanged().ok);
}

TEST_CASE("unchanged() catches a write into the argument, naming the key") {
  Reference ref = open();
  auto in = ref.input<float, 2>("f/arg0", {2, 3});
  abi::Comparison kept = in.unchanged();
  CHECK(kept.ok);
  CHECK(contains(kept.message, "f/arg0: "));
  in.desc()[{1, 0}] = 40.0f;
  abi::Comparison changed = in.unchanged();
  CHECK_FALSE(changed.ok);
  CHECK(contains(changed.message, "f/arg0: the call modified its argument"));
  CHECK(contains(changed.message, "first at [1, 0]: actual 40, expected 4"));
}

TEST_CASE("unchanged() compares bits: a zero's sign counts") {
  Reference ref = open();
  auto in = ref.input<double, 0>("f/zero", {});
  in.desc()[{}] = 0.0;
  CHECK_FALSE(in.unchanged().ok);
  auto mask = ref.input<bool, 1>("f/mask", {3});
  mask.desc()[{1}] = true;
  CHECK_FALSE(mask.unchanged().ok);
}

TEST_CASE("check() reads a result through its strides and offset") {
  Reference ref = open();
  // The transpose of f/arg0 as a strided view with an offset: the expected
  // f/result0, element for element.
  float buffer[8] = {-1, -1, 1, 2, 3, 4, 5, 6};
  abi::MemRef<float, 2> view;
  view.allocated = view.aligned = buffer;
  view.offset = 2;
  view.sizes[0] = 3;
  view.sizes[1] = 2;
  view.strides[0] = 1;
  view.strides[1] = 3;
  abi::Owned<float, 2> result(view, nullptr);
  abi::Comparison c = ref.check("f/result0", result, {3, 2}, {});
  CHECK_MESSAGE(c.ok, c.message);
  CHECK(contains(c.message, "f/result0: all 6 elements"));

  buffer[3] = 2.5f; // element [1, 0]
  c = ref.check("f/result0", result, {-1, 2}, {});
  CHECK_FALSE(c.ok);
  CHECK(contains(c.message, "f/result0: 1 of 6 elements of f32 [3, 2] differ"));
  CHECK(contains(c.message, "first at [1, 0]"));
}

TEST_CASE("check() with a wrong result shape says so") {
  Reference ref = open();
  float buffer[6] = {};
  abi::Owned<float, 2> result(abi::MemRef<float, 2>::contiguous(buffer, {2, 3}),
                              nullptr);
  abi::Comparison c = ref.check("f/result0", result, {-1, -1}, {});
  CHECK_FALSE(c.ok);
  CHECK(contains(c.message, "f/result0: shape mismatch: actual [2, 3], "
                            "expected [3, 2]"));
}

TEST_CASE("check() of scalar results against 0-d arrays") {
  Reference ref = open();
  CHECK(ref.check("f/scalar", std::int32_t(7), {}).ok);
  abi::Comparison c = ref.check("f/scalar", std::int32_t(8), {});
  CHECK_FALSE(c.ok);
  CHECK(contains(c.message, "f/scalar: 1 of 1 elements of i32 [] differ"));
  CHECK(ref.check("f/flag", true, {}).ok);
  CHECK_FALSE(ref.check("f/flag", false, {}).ok);
  abi::Tolerance loose{0.1, 0, -1};
  CHECK(ref.check("f/zero", 0.52, loose).ok);
  CHECK_FALSE(ref.check("f/zero", 0.52, {}).ok);
  std::string message = errorOf([&] { ref.check("f/vector", 7, {}); });
  CHECK(contains(message, "array 'f/vector' has shape [1] (rank 1), but "
                          "tensor<i32> has rank 0"));
}

TEST_CASE("compare() of a scalar makes it a 0-d tensor") {
  abi::Tensor expected = make(abi::DType::F32, {}, {1.5});
  CHECK(aot::testing::compare(1.5f, expected, {}).ok);
  CHECK_FALSE(aot::testing::compare(2.5f, expected, {}).ok);
  CHECK_FALSE(aot::testing::compare(1.5, expected, {}).ok); // f64 vs f32
  abi::Tensor nan =
      make(abi::DType::F32, {}, {std::numeric_limits<double>::quiet_NaN()});
  CHECK(aot::testing::compare(std::nanf(""), nan, {}).ok);
}

TEST_CASE("the process-wide reference") {
  std::string message = errorOf([] { aot::testing::currentReference(); });
  CHECK(contains(message, "--reference=FILE.npz"));
  CHECK(contains(message, "AOT_REFERENCE"));

  const Reference &set = aot::testing::setCurrentReference(fixture().path());
  CHECK(&set == &aot::testing::currentReference());
  CHECK(set.path() == fixture().path());

  // A file that cannot be opened leaves the earlier reference in place.
  message =
      errorOf([] { aot::testing::setCurrentReference("/nonexistent.npz"); });
  CHECK(contains(message, "/nonexistent.npz"));
  CHECK(aot::testing::currentReference().path() == fixture().path());
}

TEST_CASE("signatureString") {
  CHECK(aot::testing::signatureString(abi::DType::F32, {-1, 4}) ==
        "tensor<?x4xf32>");
  CHECK(aot::testing::signatureString(abi::DType::BF16, {}) == "tensor<bf16>");
  CHECK(aot::testing::signatureString(abi::DType::I1, {}, true) == "i1");
}

TEST_SUITE_END();
