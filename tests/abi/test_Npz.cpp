//===- test_Npz.cpp - .npz archives, round trips with numpy, bad input ----===//
//
// Three suites: "Npz" needs nothing but the C++ side; "Npz.numpy-read" reads
// files numpy wrote (directory in $AOT_ABI_NUMPY_FIXTURES, written by
// make_npz_fixtures.py); "Npz.numpy-write" writes files for check_npz.py
// (directory in $AOT_ABI_CPP_NPZ_OUT). ctest runs them in that order; run
// by hand without the variables, the numpy suites are skipped.
//
//===----------------------------------------------------------------------===//
#include "aot/abi/Npz.h"

#include "NpzReference.h"
#include "TestSupport.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>

using namespace aot::abi;
using aot::abi::test::checkMatchesReference;
using aot::abi::test::env;
using aot::abi::test::npzReference;
using aot::abi::test::TempDir;

namespace {

/// An archive with exactly these members (name, bytes), made with libzip
/// directly so that any content can be put in.
void writeRawZip(
    const std::string &path,
    const std::vector<std::pair<std::string, std::string>> &members,
    bool compress = false) {
  int code = 0;
  zip_t *z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  REQUIRE(z);
  for (const auto &[name, bytes] : members) {
    zip_source_t *src = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
    REQUIRE(src);
    zip_int64_t i = zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8);
    REQUIRE(i >= 0);
    zip_set_file_compression(z, zip_uint64_t(i),
                             compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
  }
  REQUIRE(zip_close(z) == 0);
}

/// The compression method of every member of the archive at `path`.
std::vector<int> compressionMethods(const std::string &path) {
  zip_t *z = zip_open(path.c_str(), ZIP_RDONLY, nullptr);
  REQUIRE(z);
  std::vector<int> methods;
  for (zip_int64_t i = 0; i < zip_get_num_entries(z, 0); ++i) {
    zip_stat_t st;
    zip_stat_index(z, zip_uint64_t(i), 0, &st);
    methods.push_back(st.comp_method);
  }
  zip_discard(z);
  return methods;
}

/// Offset of the first member's data in a zip archive (after its local
/// header).
std::size_t firstMemberData(const std::string &zip) {
  auto u16 = [&](std::size_t at) {
    return std::size_t(static_cast<unsigned char>(zip[at])) |
           std::size_t(static_cast<unsigned char>(zip[at + 1])) << 8;
  };
  REQUIRE(zip.compare(0, 4, "PK\x03\x04") == 0);
  return 30 + u16(26) + u16(28);
}

Tensor iota(std::int64_t n) {
  Tensor t = Tensor::zeros(DType::I32, {n});
  for (std::int64_t i = 0; i < n; ++i)
    t.data<std::int32_t>()[i] = std::int32_t(i);
  return t;
}

bool noNumpyFixtures() { return env("AOT_ABI_NUMPY_FIXTURES").empty(); }
bool noCppOutputDir() { return env("AOT_ABI_CPP_NPZ_OUT").empty(); }

} // namespace

TEST_SUITE_BEGIN("Npz");

TEST_CASE("stored and compressed archives round-trip every dtype") {
  TempDir dir;
  for (bool compress : {false, true}) {
    std::string path = dir.file(compress ? "c.npz" : "s.npz");
    writeNpz(path, npzReference(), compress);
    checkMatchesReference(readNpz(path), path);
    for (int method : compressionMethods(path))
      CHECK(method == (compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE));
  }
}

TEST_CASE("compression shrinks compressible data") {
  TempDir dir;
  std::map<std::string, Tensor> big{
      {"zeros", Tensor::zeros(DType::F64, {4096})}};
  writeNpz(dir.file("s.npz"), big, false);
  writeNpz(dir.file("c.npz"), big, true);
  auto size = [](const std::string &p) {
    return detail::readFileBytes(p).size();
  };
  CHECK(size(dir.file("s.npz")) > 8 * 4096);
  CHECK(size(dir.file("c.npz")) < 1024);
  CHECK(readNpz(dir.file("c.npz")).at("zeros").numElements() == 4096);
}

TEST_CASE("NpzFile reads members one at a time") {
  TempDir dir;
  std::string path = dir.file("m.npz");
  writeNpz(path, {{"a/b/c", iota(3)}, {"x", iota(5)}});
  NpzFile npz(path);
  CHECK(npz.name() == path);
  CHECK(npz.keys() == std::vector<std::string>{"a/b/c", "x"});
  CHECK(npz.contains("a/b/c"));
  CHECK(!npz.contains("a/b/c.npy"));
  CHECK(npz.read("x").data<std::int32_t>()[4] == 4);
  CHECK_ERROR_CONTAINS(npz.read("y"), path, "no member 'y'");
  NpzFile moved = std::move(npz);
  CHECK(moved.read("a/b/c").numElements() == 3);
  std::string bytes = detail::readFileBytes(path);
  NpzFile other = NpzFile::fromBytes(bytes, "first");
  other = NpzFile::fromBytes(bytes, "second");
  CHECK(other.name() == "second");
  CHECK(other.read("x").numElements() == 5);
  other = std::move(moved);
  CHECK(other.name() == path);
  CHECK(other.keys().size() == 2);
}

TEST_CASE("archives in memory") {
  TempDir dir;
  std::string path = dir.file("m.npz");
  writeNpz(path, {{"v", iota(4)}}, true);
  auto tensors = parseNpz(detail::readFileBytes(path), "in-memory");
  CHECK(tensors.at("v").data<std::int32_t>()[3] == 3);
  CHECK_ERROR_CONTAINS(parseNpz("garbage", "in-memory"), "in-memory",
                       "cannot open as an .npz (zip) archive");
}

TEST_CASE("non-contiguous tensors are written in C order") {
  TempDir dir;
  std::vector<std::int32_t> data(12);
  for (int i = 0; i < 12; ++i)
    data[std::size_t(i)] = i;
  Tensor transposed = Tensor::view(DType::I32, data.data(), {4, 3}, {1, 4});
  writeNpz(dir.file("t.npz"), {{"t", transposed}});
  Tensor back = readNpz(dir.file("t.npz")).at("t");
  CHECK(back.shape() == std::vector<std::int64_t>{4, 3});
  CHECK(compare(back, transposed).ok);
}

TEST_CASE("an empty map is an empty archive") {
  TempDir dir;
  std::string path = dir.file("none.npz");
  writeNpz(path, {{"old", iota(2)}});
  writeNpz(path, {});
  CHECK(detail::readFileBytes(path).size() == 22);
  CHECK(readNpz(path).empty());
}

TEST_CASE("writing replaces the file") {
  TempDir dir;
  std::string path = dir.file("r.npz");
  writeNpz(path, {{"first", iota(2)}});
  writeNpz(path, {{"second", iota(3)}}, true);
  auto tensors = readNpz(path);
  CHECK(tensors.size() == 1);
  CHECK(tensors.count("second") == 1);
  detail::writeFileBytes(path, "not a zip at all");
  writeNpz(path, {{"third", iota(1)}});
  CHECK(readNpz(path).count("third") == 1);
}

TEST_CASE("write errors name the path and key") {
  TempDir dir;
  CHECK_ERROR_CONTAINS(writeNpz(dir.file("k.npz"), {{"", iota(1)}}), "k.npz",
                       "invalid member key ''");
  CHECK_ERROR_CONTAINS(
      writeNpz(dir.file("k.npz"), {{std::string("a\0b", 3), iota(1)}}),
      "invalid member key");
  CHECK_ERROR_CONTAINS(writeNpz(dir.file("no/dir/x.npz"), {{"a", iota(1)}}),
                       "no/dir/x.npz");
  CHECK_ERROR_CONTAINS(writeNpz(dir.file("no/dir/e.npz"), {}), "no/dir/e.npz",
                       "cannot write", "No such file");
  CHECK_ERROR_CONTAINS(writeNpz(dir.file(""), {{"a", iota(1)}}), "cannot write",
                       "Is a directory");
}

TEST_CASE("a failed write leaves the old archive and no temporary file") {
  TempDir dir;
  std::string path = dir.file("keep.npz");
  writeNpz(path, {{"old", iota(3)}});
  std::string before = detail::readFileBytes(path);
  // A member that cannot be serialized fails the write part way.
  CHECK_THROWS_AS(writeNpz(path, {{"a", iota(2)}, {"", iota(2)}}), Error);
  CHECK(detail::readFileBytes(path) == before);
  CHECK(std::distance(std::filesystem::directory_iterator(dir.file("")),
                      std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("a missing file or one that is not a zip archive") {
  TempDir dir;
  std::string missing = dir.file("missing.npz");
  CHECK_ERROR_CONTAINS(readNpz(missing), missing, "No such file");
  std::string text = dir.file("text.npz");
  detail::writeFileBytes(text, "this is not a zip archive, just some text\n");
  CHECK_ERROR_CONTAINS(readNpz(text), text, "Not a zip archive");
  std::string empty = dir.file("empty.npz");
  detail::writeFileBytes(empty, "");
  CHECK_THROWS_AS(readNpz(empty), Error);
  CHECK_ERROR_CONTAINS(readNpz(dir.file("")), "cannot read",
                       "it is a directory, not a regular file");
}

TEST_CASE("devices and FIFOs are refused before anything is read") {
  TempDir dir;
  CHECK_ERROR_CONTAINS(readNpz("/dev/zero"), "/dev/zero",
                       "it is a character device, not a regular file");
  std::string fifo = dir.file("fifo.npz");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Nobody writes it: an open that waited would never return.
  CHECK_ERROR_CONTAINS(readNpz(fifo), fifo,
                       "it is a pipe or FIFO, not a regular file");
}

TEST_CASE("a member is inflated no further than its header says") {
  TempDir dir;
  // 4 floats by the header, then 64 MiB of zeros, deflated to 64 KiB.
  std::string bomb = serializeNpy(iota(4)) + std::string(64 << 20, '\0');
  std::string path = dir.file("bomb.npz");
  writeRawZip(path, {{"x.npy", bomb}}, true);
  CHECK(detail::readFileBytes(path).size() < (1 << 20));
  CHECK_ERROR_CONTAINS(readNpz(path), path, "member 'x'",
                       "inflates to more than the 144 bytes its .npy header "
                       "says (i32 of shape [4])");
}

TEST_CASE("two members of one name are named") {
  TempDir dir;
  std::string path = dir.file("dup.npz");
  // libzip writes no such archive: b/d.npy is renamed b/c.npy in the bytes
  // (local header and central directory), which no checksum covers.
  writeRawZip(path, {{"a.npy", serializeNpy(iota(1))},
                     {"b/c.npy", serializeNpy(iota(2))},
                     {"b/d.npy", serializeNpy(iota(3))}});
  std::string bytes = detail::readFileBytes(path);
  for (std::size_t at; (at = bytes.find("b/d.npy")) != std::string::npos;)
    bytes[at + 2] = 'c';
  detail::writeFileBytes(path, bytes);
  CHECK_ERROR_CONTAINS(readNpz(path), path,
                       "it holds two members named 'b/c.npy'");
  CHECK_ERROR_CONTAINS(parseNpz(detail::readFileBytes(path), "mem"), "mem",
                       "it holds two members named 'b/c.npy'");
}

TEST_CASE("truncated archives") {
  TempDir dir;
  std::string path = dir.file("full.npz");
  writeNpz(path, {{"a", iota(40)}, {"b/c", iota(3)}}, true);
  std::string bytes = detail::readFileBytes(path);
  std::string cut = dir.file("cut.npz");
  detail::writeFileBytes(cut, bytes.substr(0, bytes.size() / 2));
  CHECK_ERROR_CONTAINS(readNpz(cut), cut);
  // Every prefix fails cleanly.
  for (std::size_t n = 0; n < bytes.size(); ++n)
    CHECK_THROWS_AS(parseNpz(bytes.substr(0, n), "prefix"), Error);
}

TEST_CASE("members that are not valid .npy arrays name the key") {
  TempDir dir;
  std::string complexDescr = serializeNpy(iota(2));
  complexDescr.replace(complexDescr.find("<i4"), 3, "<c8");
  std::string path = dir.file("dtype.npz");
  writeRawZip(path, {{"good.npy", serializeNpy(iota(2))},
                     {"weights/w.npy", complexDescr}});
  CHECK_ERROR_CONTAINS(readNpz(path), path, "member 'weights/w'",
                       "unsupported dtype '<c8'");
  // The good member can still be read on its own.
  CHECK(NpzFile(path).read("good").numElements() == 2);

  path = dir.file("header.npz");
  writeRawZip(path, {{"h.npy", serializeNpy(iota(2)).substr(0, 30)}}, true);
  CHECK_ERROR_CONTAINS(readNpz(path), path, "member 'h'", "truncated header");

  path = dir.file("data.npz");
  std::string shortData = serializeNpy(iota(4));
  writeRawZip(path, {{"d.npy", shortData.substr(0, shortData.size() - 2)}});
  CHECK_ERROR_CONTAINS(readNpz(path), path, "member 'd'", "data is truncated");

  path = dir.file("name.npz");
  writeRawZip(path, {{"readme.txt", "hello"}});
  CHECK_ERROR_CONTAINS(readNpz(path), path, "member 'readme.txt'",
                       "is not a .npy array");
}

TEST_CASE("corrupt member data is detected") {
  TempDir dir;
  for (bool compress : {false, true}) {
    std::string path = dir.file("crc.npz");
    writeNpz(path, {{"arr", iota(64)}}, compress);
    std::string bytes = detail::readFileBytes(path);
    std::size_t at = firstMemberData(bytes) + (compress ? 20 : 200);
    bytes[at] = char(bytes[at] ^ 0x55);
    detail::writeFileBytes(path, bytes);
    INFO("compressed: " << compress);
    CHECK_ERROR_CONTAINS(readNpz(path), path, "member 'arr'");
  }
}

TEST_CASE("no byte corruption crashes the reader") {
  TempDir dir;
  std::mt19937 rng(99);
  for (bool compress : {false, true}) {
    std::string path = dir.file("f.npz");
    writeNpz(path, {{"x", iota(16)}, {"y/z", Tensor::zeros(DType::F16, {3})}},
             compress);
    std::string good = detail::readFileBytes(path);
    for (int round = 0; round < 3000; ++round) {
      std::string bad = good;
      int flips = 1 + int(rng() % 3);
      for (int f = 0; f < flips; ++f)
        bad[rng() % bad.size()] = char(rng() % 256);
      try {
        parseNpz(bad, "fuzz");
      } catch (const Error &) {
      }
    }
  }
}

TEST_SUITE_END();

TEST_SUITE_BEGIN("Npz.numpy-read" * doctest::skip(noNumpyFixtures()));

TEST_CASE("np.savez and np.savez_compressed files are read exactly") {
  std::string dir = env("AOT_ABI_NUMPY_FIXTURES");
  REQUIRE_MESSAGE(!dir.empty(), "set AOT_ABI_NUMPY_FIXTURES");
  for (const char *name : {"numpy_stored.npz", "numpy_compressed.npz"}) {
    std::string path = dir + "/" + name;
    checkMatchesReference(readNpz(path), path);
  }
  CHECK(compressionMethods(dir + "/numpy_stored.npz")[0] == ZIP_CM_STORE);
  CHECK(compressionMethods(dir + "/numpy_compressed.npz")[0] == ZIP_CM_DEFLATE);
  CHECK(readNpz(dir + "/numpy_no_arrays.npz").empty());
}

TEST_CASE("np.save files are read, and written back byte for byte") {
  std::string dir = env("AOT_ABI_NUMPY_FIXTURES");
  REQUIRE_MESSAGE(!dir.empty(), "set AOT_ABI_NUMPY_FIXTURES");
  std::string path = dir + "/numpy_float32.npy";
  Tensor t = readNpy(path);
  CHECK(compare(t, npzReference().at("float32"), {0, 0, -1}).ok);
  CHECK(serializeNpy(t) == detail::readFileBytes(path));

  Tensor v2 = readNpy(dir + "/numpy_v2.npy");
  CHECK(detail::readFileBytes(dir + "/numpy_v2.npy")[6] == 2);
  CHECK(compare(v2, npzReference().at("int16")).ok);

  std::string fortran = dir + "/numpy_fortran.npy";
  CHECK_ERROR_CONTAINS(readNpy(fortran), fortran, "fortran_order=True");
}

TEST_SUITE_END();

TEST_SUITE_BEGIN("Npz.numpy-write" * doctest::skip(noCppOutputDir()));

TEST_CASE("write archives for check_npz.py") {
  std::string dir = env("AOT_ABI_CPP_NPZ_OUT");
  REQUIRE_MESSAGE(!dir.empty(), "set AOT_ABI_CPP_NPZ_OUT");
  std::filesystem::create_directories(dir);
  auto tensors = npzReference();
  // Non-contiguous here; check_npz.py expects arange(12).reshape(3, 4).T.
  static std::int32_t data[12];
  for (int i = 0; i < 12; ++i)
    data[i] = i;
  tensors["transposed"] = Tensor::view(DType::I32, data, {4, 3}, {1, 4});
  writeNpz(dir + "/cpp_stored.npz", tensors, false);
  writeNpz(dir + "/cpp_compressed.npz", tensors, true);
  writeNpz(dir + "/cpp_no_arrays.npz", {});
}

TEST_SUITE_END();
