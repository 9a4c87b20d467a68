//===- test_Npy.cpp - .npy parsing, writing and malformed input -----------===//
#include "aot/abi/Npy.h"

#include "TestSupport.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace aot::abi;
using aot::abi::test::TempDir;

namespace {

/// A .npy file with the given version and header text (padded like numpy)
/// followed by `data`.
std::string npyBytes(const std::string &dict, const std::string &data,
                     int major = 1) {
  std::size_t lengthBytes = major == 1 ? 2 : 4;
  std::string header = dict;
  while ((8 + lengthBytes + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string out("\x93NUMPY", 6);
  out += char(major);
  out += char(0);
  for (std::size_t i = 0; i < lengthBytes; ++i)
    out += char((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

template <typename T> std::string rawBytes(const std::vector<T> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

/// A contiguous tensor of shape {2, 3} whose element i has bits derived from
/// i, so every byte of every element is checked.
Tensor patterned(DType dtype) {
  Tensor t = Tensor::zeros(dtype, {2, 3});
  auto *p = static_cast<unsigned char *>(t.rawData());
  for (std::size_t i = 0; i < 6 * t.elementSize(); ++i)
    p[i] =
        dtype == DType::I1 ? (i % 2) : static_cast<unsigned char>(i * 37 + 1);
  return t;
}

bool sameBytes(const Tensor &a, const Tensor &b) {
  std::size_t n = std::size_t(a.numElements()) * a.elementSize();
  return a.shape() == b.shape() &&
         n == std::size_t(b.numElements()) * b.elementSize() &&
         std::memcmp(a.contiguous().rawData(), b.contiguous().rawData(), n) ==
             0;
}

} // namespace

TEST_SUITE_BEGIN("Npy");

TEST_CASE("every dtype round-trips through serializeNpy and parseNpy") {
  for (int i = 0; i <= int(DType::F64); ++i) {
    auto dtype = DType(i);
    INFO("dtype " << dtypeName(dtype));
    Tensor t = patterned(dtype);
    Tensor back = parseNpy(serializeNpy(t), "mem");
    // bf16 travels as its bits, '<u2'.
    CHECK(back.dtype() == (dtype == DType::BF16 ? DType::U16 : dtype));
    CHECK(back.ownsMemory());
    CHECK(back.isContiguous());
    CHECK(sameBytes(back, t));
  }
}

TEST_CASE("the header is numpy's, padded to 64 bytes") {
  Tensor t = Tensor::zeros(DType::F32, {2, 3});
  std::string bytes = serializeNpy(t);
  std::string dict = "{'descr': '<f4', 'fortran_order': False, "
                     "'shape': (2, 3), }";
  CHECK(bytes == npyBytes(dict, std::string(24, '\0')));
  CHECK(bytes.size() == 128 + 24); // numpy's header for it is 128 bytes
  CHECK(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));

  std::string scalar = serializeNpy(Tensor::zeros(DType::I64, {}));
  CHECK(scalar.find("'shape': (), }") != std::string::npos);
  CHECK(scalar.find("'descr': '<i8'") != std::string::npos);
  std::string vec = serializeNpy(Tensor::zeros(DType::I1, {5}));
  CHECK(vec.find("'shape': (5,), }") != std::string::npos);
  CHECK(vec.find("'descr': '|b1'") != std::string::npos);
  CHECK(serializeNpy(Tensor::zeros(DType::BF16, {1})).find("'<u2'") !=
        std::string::npos);
  for (const std::string &s : {bytes, scalar, vec}) {
    std::size_t dataStart = s.size() - (s == bytes ? 24 : s == scalar ? 8 : 5);
    CHECK(dataStart % 64 == 0);
    CHECK(s[dataStart - 1] == '\n');
  }
}

TEST_CASE("a header too long for version 1.0 is written as 2.0") {
  std::vector<std::int64_t> shape(25000, 1);
  shape[7] = 2;
  Tensor t = Tensor::zeros(DType::U8, shape);
  t.data<std::uint8_t>()[1] = 9;
  std::string bytes = serializeNpy(t);
  CHECK(bytes[6] == 2);
  std::uint32_t length;
  std::memcpy(&length, bytes.data() + 8, 4);
  CHECK((12 + length) % 64 == 0);
  Tensor back = parseNpy(bytes, "long");
  CHECK(back.shape() == shape);
  CHECK(back.data<std::uint8_t>()[1] == 9);
}

TEST_CASE("versions 2.0 and 3.0 and Python-literal variations are read") {
  std::string data = rawBytes<std::int32_t>({1, -2, 3});
  for (int major : {1, 2, 3}) {
    Tensor t = parseNpy(
        npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }",
                 data, major),
        "v");
    CHECK(t.dtype() == DType::I32);
    CHECK(t.data<std::int32_t>()[1] == -2);
  }
  // Double quotes, other key order, no trailing comma, Python 2 longs, '='.
  Tensor t = parseNpy(
      npyBytes(
          "{\"shape\": (1L, 3L), \"descr\": \"=i4\",\"fortran_order\":False}",
          data),
      "v");
  CHECK(t.shape() == std::vector<std::int64_t>{1, 3});
  CHECK(t.data<std::int32_t>()[2] == 3);
}

TEST_CASE("bools are read as 0/1 whatever the byte") {
  Tensor t = parseNpy(
      npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
               std::string("\x00\x02\x01", 3)),
      "b");
  CHECK(t.dtype() == DType::I1);
  auto *p = static_cast<unsigned char *>(t.rawData());
  CHECK(p[0] == 0);
  CHECK(p[1] == 1);
  CHECK(p[2] == 1);
}

TEST_CASE("non-contiguous tensors are written in C order") {
  std::vector<std::int16_t> data = {0, 1, 2, 3, 4, 5};
  Tensor transposed = Tensor::view(DType::I16, data.data(), {3, 2}, {1, 3});
  Tensor back = parseNpy(serializeNpy(transposed), "t");
  CHECK(back.shape() == std::vector<std::int64_t>{3, 2});
  const std::int16_t want[] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i)
    CHECK(back.data<std::int16_t>()[i] == want[i]);
  // A borrowed contiguous tensor is written as is.
  Tensor borrowed = Tensor::borrow(data.data(), {6});
  CHECK(parseNpy(serializeNpy(borrowed), "b").data<std::int16_t>()[5] == 5);
}

TEST_CASE("empty arrays") {
  Tensor t = Tensor::zeros(DType::F64, {0, 4});
  std::string bytes = serializeNpy(t);
  CHECK(bytes.size() % 64 == 0);
  Tensor back = parseNpy(bytes, "e");
  CHECK(back.shape() == std::vector<std::int64_t>{0, 4});
  CHECK(back.numElements() == 0);
}

TEST_CASE("bf16 is stored as u2 bits and reinterpreted back") {
  Tensor t = Tensor::zeros(DType::BF16, {3});
  t.data<bf16>()[0] = bf16(1.5f);
  t.data<bf16>()[1] = bf16(-2.0f);
  t.data<bf16>()[2] = bf16(3e38f);
  Tensor bits = parseNpy(serializeNpy(t), "bf");
  CHECK(bits.dtype() == DType::U16);
  CHECK(bits.data<std::uint16_t>()[0] == 0x3fc0);
  Tensor back = reinterpret(bits, DType::BF16);
  CHECK(back.owner() == bits.owner());
  CHECK(back.rawData() == bits.rawData());
  CHECK(float(back.data<bf16>()[0]) == 1.5f);
  CHECK(float(back.data<bf16>()[1]) == -2.0f);
  CHECK(back.data<bf16>()[2].bits == t.data<bf16>()[2].bits);
}

TEST_CASE("reinterpret checks element sizes and bool values") {
  Tensor t = Tensor::zeros(DType::I32, {2});
  t.data<std::int32_t>()[0] = -1;
  CHECK(reinterpret(t, DType::U32).data<std::uint32_t>()[0] == 0xffffffffu);
  CHECK(reinterpret(t, DType::F32).dtype() == DType::F32);
  CHECK_ERROR_CONTAINS(reinterpret(t, DType::F64),
                       "cannot reinterpret i32 as f64");
  Tensor bytes = Tensor::zeros(DType::U8, {3});
  bytes.data<std::uint8_t>()[2] = 1;
  CHECK(reinterpret(bytes, DType::I1).dtype() == DType::I1);
  bytes.data<std::uint8_t>()[1] = 2;
  CHECK_ERROR_CONTAINS(reinterpret(bytes, DType::I1), "element 1 is 2");
  // Borrowed stays borrowed, strides are kept.
  std::uint16_t raw[4] = {0x3f80, 0, 0x4000, 0};
  Tensor strided = Tensor::view(DType::U16, raw, {2}, {2});
  Tensor as = reinterpret(strided, DType::BF16);
  CHECK(!as.ownsMemory());
  CHECK(float(*static_cast<bf16 *>(as.elementAt(1))) == 2.0f);
}

TEST_CASE("descriptor table") {
  CHECK(npyDescr(DType::I8) == "|i1");
  CHECK(npyDescr(DType::F16) == "<f2");
  CHECK(parseNpyDescr("<u8") == DType::U64);
  CHECK(parseNpyDescr("|u1") == DType::U8);
  CHECK(!parseNpyDescr(">i4"));
  CHECK(!parseNpyDescr("<c8"));
  CHECK(!parseNpyDescr("<U3"));
  CHECK(!parseNpyDescr("<i"));
  CHECK(!parseNpyDescr("O"));
}

TEST_CASE("malformed input is an Error naming the source") {
  const std::string ok =
      npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
               std::string(8, '\0'));
  auto header = [](const std::string &dict, std::size_t dataBytes = 0) {
    return npyBytes(dict, std::string(dataBytes, '\0'));
  };
  CHECK_ERROR_CONTAINS(parseNpy("", "a.npy"), "a.npy", "truncated header");
  CHECK_ERROR_CONTAINS(parseNpy(ok.substr(0, 9), "a.npy"), "truncated header");
  CHECK_ERROR_CONTAINS(parseNpy(ok.substr(0, 40), "a.npy"), "a.npy",
                       "truncated header", "should have 118 bytes");
  CHECK_ERROR_CONTAINS(parseNpy("PK\x03\x04 this is a zip", "z.npy"), "z.npy",
                       "bad magic");
  std::string v4 = ok;
  v4[6] = 4;
  CHECK_ERROR_CONTAINS(parseNpy(v4, "a.npy"),
                       "unsupported .npy format version 4.0");
  std::string v2short = ok.substr(0, 11);
  v2short[6] = 2;
  CHECK_ERROR_CONTAINS(parseNpy(v2short, "a.npy"),
                       "no room for the header length");

  CHECK_ERROR_CONTAINS(
      parseNpy(header("{'descr': '<f4', 'fortran_order': True, "
                      "'shape': (2, 2), }",
                      16),
               "f.npy"),
      "f.npy", "fortran_order=True is not supported");
  CHECK_ERROR_CONTAINS(
      parseNpy(
          header("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                 8),
          "c.npy"),
      "c.npy", "unsupported dtype '<c8'");
  CHECK_ERROR_CONTAINS(
      parseNpy(
          header("{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }",
                 4),
          "c.npy"),
      "unsupported dtype '>i4'");
  CHECK_ERROR_CONTAINS(
      parseNpy(header("{'descr': [('a', '<i4')], 'fortran_order': False, "
                      "'shape': (1,), }",
                      4),
               "s.npy"),
      "s.npy", "structured dtypes");
  CHECK_ERROR_CONTAINS(parseNpy(ok.substr(0, ok.size() - 1), "t.npy"), "t.npy",
                       "data is truncated", "needs 8 bytes, the input has 7");
  CHECK_ERROR_CONTAINS(parseNpy(ok + "xyz", "t.npy"), "3 unexpected bytes");
  CHECK_ERROR_CONTAINS(
      parseNpy(header("{'descr': '<f8', 'fortran_order': False, "
                      "'shape': (4294967296, 4294967296), }"),
               "o.npy"),
      "o.npy", "too many elements");
  CHECK_ERROR_CONTAINS(
      parseNpy(header("{'descr': '<f8', 'fortran_order': False, "
                      "'shape': (1152921504606846976,), }"),
               "o.npy"),
      "too large in bytes");
  CHECK_ERROR_CONTAINS(
      parseNpy(header("{'descr': '<f8', 'fortran_order': False, "
                      "'shape': (99999999999999999999,), }"),
               "o.npy"),
      "does not fit in 64 bits");
  CHECK_ERROR_CONTAINS(
      parseNpy(
          header("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }"),
          "n.npy"),
      "n.npy", "non-negative integer");
}

TEST_CASE("malformed header dicts") {
  auto parse = [](const std::string &dict) {
    return parseNpy(npyBytes(dict, ""), "h.npy");
  };
  CHECK_ERROR_CONTAINS(parse("{'descr': '<f4', 'fortran_order': False}"),
                       "h.npy", "lacks the key 'shape'");
  CHECK_ERROR_CONTAINS(parse("{}"), "lacks the key 'descr'");
  CHECK_ERROR_CONTAINS(parse("{'descr': '<f4', 'descr': '<f4'}"),
                       "duplicate key 'descr'");
  CHECK_ERROR_CONTAINS(
      parse("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}"),
      "unexpected key 'x'");
  CHECK_ERROR_CONTAINS(parse("not a dict"), "expected '{'");
  CHECK_ERROR_CONTAINS(parse("{'descr: '<f4'"), "expected ':'");
  CHECK_ERROR_CONTAINS(parse("{'descr': '<f4"), "unterminated string");
  CHECK_ERROR_CONTAINS(parse("{'descr': '<f4', 'fortran_order': Maybe}"),
                       "expected True or False");
  CHECK_ERROR_CONTAINS(parse("{'descr': '<f4', 'shape': (1, 2"),
                       "expected ')'");
  CHECK_ERROR_CONTAINS(
      parse("{'descr': '<f4', 'fortran_order': False, 'shape': ()} junk"),
      "unexpected text after the header dict");
  CHECK_ERROR_CONTAINS(parse("{'de\\x': 1}"), "escape sequences");
  // Control bytes in the header are shown escaped.
  CHECK_ERROR_CONTAINS(parse(std::string("{\x01}", 3)), "\\x01");
}

TEST_CASE("no truncation or byte corruption crashes the parser") {
  Tensor t = Tensor::zeros(DType::I16, {3, 2});
  std::string good = serializeNpy(t);
  for (std::size_t n = 0; n < good.size(); ++n)
    CHECK_THROWS_AS(parseNpy(good.substr(0, n), "cut"), Error);
  std::mt19937 rng(1234);
  int parsed = 0;
  for (int round = 0; round < 5000; ++round) {
    std::string bad = good;
    int flips = 1 + int(rng() % 4);
    for (int f = 0; f < flips; ++f)
      bad[rng() % bad.size()] = char(rng() % 256);
    try {
      Tensor r = parseNpy(bad, "fuzz");
      ++parsed;
      CHECK(std::size_t(r.numElements()) * r.elementSize() <= bad.size());
    } catch (const Error &) {
    }
  }
  CHECK(parsed > 0); // padding bytes and data can change harmlessly
}

TEST_CASE("readNpy and writeNpy") {
  TempDir dir;
  std::string path = dir.file("x.npy");
  Tensor t = patterned(DType::F64);
  writeNpy(path, t);
  Tensor back = readNpy(path);
  CHECK(back.dtype() == DType::F64);
  CHECK(sameBytes(back, t));
  CHECK(detail::readFileBytes(path) == serializeNpy(t));

  CHECK_ERROR_CONTAINS(readNpy(dir.file("missing.npy")), "missing.npy",
                       "cannot open for reading", "No such file");
  CHECK_ERROR_CONTAINS(readNpy(dir.file("")), "cannot read", "directory");
  CHECK_ERROR_CONTAINS(writeNpy(dir.file("no/such/dir.npy"), t), "dir.npy",
                       "cannot write");
  detail::writeFileBytes(dir.file("junk.npy"), "hello");
  CHECK_ERROR_CONTAINS(readNpy(dir.file("junk.npy")), "junk.npy",
                       "truncated header");
}

TEST_CASE("readNpy reads no more than the header says") {
  TempDir dir;
  Tensor t = patterned(DType::F32);
  std::string bytes = serializeNpy(t);
  std::string path = dir.file("long.npy");
  detail::writeFileBytes(path, bytes + "0123456789");
  CHECK_ERROR_CONTAINS(readNpy(path), path,
                       "10 unexpected bytes after the data of shape");
  CHECK_ERROR_CONTAINS(readNpy("/dev/zero"), "/dev/zero",
                       "it is a character device, not a regular file");
  // A header length of 3 GiB, refused before it is read.
  path = dir.file("header.npy");
  detail::writeFileBytes(path,
                         std::string("\x93NUMPY\x02\x00\x00\x00\x00\xc0{", 13));
  CHECK_ERROR_CONTAINS(readNpy(path), path, "header of 3221225472 bytes");

  // A FIFO nobody writes reads as empty, without waiting for a writer.
  std::string fifo = dir.file("fifo.npy");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_ERROR_CONTAINS(readNpy(fifo), fifo, "truncated header: 0 bytes");
  // A pipe: read as a stream, up to what the header says and one byte.
  auto throughPipe = [](const std::string &data) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    REQUIRE(::write(fds[1], data.data(), data.size()) == ssize_t(data.size()));
    ::close(fds[1]);
    return fds[0];
  };
  int longer = throughPipe(bytes + "x");
  std::string longerPath = "/dev/fd/" + std::to_string(longer);
  CHECK_ERROR_CONTAINS(readNpy(longerPath), longerPath,
                       "unexpected bytes after the data",
                       "the header says the file ends at byte");
  ::close(longer);
  int exact = throughPipe(bytes);
  Tensor back = readNpy("/dev/fd/" + std::to_string(exact));
  ::close(exact);
  CHECK(sameBytes(back, t));
}

TEST_SUITE_END();
