//===- Npy.h - reading and writing numpy .npy arrays ----------------------===//
//
// The .npy format (numpy.lib.format, versions 1.0, 2.0 and 3.0): a magic
// string, a version, a little-endian header length, a Python-dict header and
// the raw C-order data. Only little-endian, C-order arrays of the dtypes in
// DType are supported; anything else is an Error, never a crash.
//
// bfloat16 has no standard numpy dtype. A BF16 tensor is written as '<u2'
// holding the raw bits (numpy: `a.view(np.uint16)`; back in numpy, shift
// them left by 16 into float32 bits), so it reads back as U16, and
// `reinterpret(t, DType::BF16)` turns it into BF16 again without a copy. The
// same applies in .npz files, to the 8-bit floats, written as '|u1' bytes,
// and to i4, written as '|i1' (its values, sign-extended). The dtype is not recorded in the file: the reader must know (from
// the manifest) which arrays are bf16 or f8 (asDType below).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Tensor.h"
#include "aot/abi/detail/File.h"
#include "aot/abi/detail/NpyHeader.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <string_view>

AOT_ABI_BEGIN_NAMESPACE

static_assert(std::endian::native == std::endian::little,
              ".npy I/O assumes a little-endian host");

/// The numpy dtype descriptor written for `t`: '|b1', '<i4', '<f2', ...
/// BF16 is written as '<u2' (see the file comment).
constexpr std::string_view npyDescr(DType t) {
  switch (t) {
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors)           \
  case DType::id:                                                              \
    return npy;
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
  }
  return "?";
}

/// The DType of a numpy descriptor, or nullopt when it is not supported
/// (big-endian, complex, strings, objects, structured...). Accepts the byte
/// order marks '<', '|' and '=' (native, which is little-endian here).
inline std::optional<DType> parseNpyDescr(std::string_view descr) {
  if (descr.size() < 3 ||
      (descr[0] != '<' && descr[0] != '|' && descr[0] != '='))
    return std::nullopt;
  std::string_view kind = descr.substr(1);
  static constexpr std::pair<std::string_view, DType> table[] = {
      {"b1", DType::I1},  {"i1", DType::I8},  {"i2", DType::I16},
      {"i4", DType::I32}, {"i8", DType::I64}, {"u1", DType::U8},
      {"u2", DType::U16}, {"u4", DType::U32}, {"u8", DType::U64},
      {"f2", DType::F16}, {"f4", DType::F32}, {"f8", DType::F64}};
  for (const auto &[name, dtype] : table)
    if (kind == name)
      return dtype;
  return std::nullopt;
}

/// The same memory seen as another dtype of the same element size (U16 bits
/// as BF16, I32 as U32, ...). Shares `t`'s owner, or borrows when `t` does.
/// Reinterpreting as I1 checks that every byte is 0 or 1. Throws Error when
/// the element sizes differ.
inline Tensor reinterpret(const Tensor &t, DType to) {
  if (dtypeSize(t.dtype()) != dtypeSize(to))
    throw Error("cannot reinterpret " + std::string(dtypeName(t.dtype())) +
                " as " + std::string(dtypeName(to)) + ": elements are " +
                std::to_string(dtypeSize(t.dtype())) + " and " +
                std::to_string(dtypeSize(to)) + " bytes");
  if (to == DType::I1 && t.dtype() != DType::I1)
    for (std::int64_t i = 0, n = t.numElements(); i < n; ++i) {
      unsigned char b = *static_cast<const unsigned char *>(t.elementAt(i));
      if (b > 1)
        throw Error("cannot reinterpret " + std::string(dtypeName(t.dtype())) +
                    " as i1: element " + std::to_string(i) + " is " +
                    std::to_string(b) + ", not 0 or 1");
    }
  if (to == DType::I4 && t.dtype() != DType::I4)
    for (std::int64_t i = 0, n = t.numElements(); i < n; ++i) {
      auto v = *static_cast<const std::int8_t *>(t.elementAt(i));
      if (v < -8 || v > 7)
        throw Error("cannot reinterpret " + std::string(dtypeName(t.dtype())) +
                    " as i4: element " + std::to_string(i) + " is " +
                    std::to_string(v) + ", outside -8..7");
    }
  return Tensor::view(to, t.rawData(), t.shape(), t.strides(), t.owner());
}

/// `t` as read from a .npy file, seen as `dtype` when numpy stores that
/// dtype as another: bf16 from uint16 bits, the 8-bit floats from uint8
/// bits, i4 from int8 values (checked to be -8..7); a view, no copy. Any
/// other tensor is returned as it is, for the caller to check.
inline Tensor asDType(const Tensor &t, DType dtype) {
  if ((dtype == DType::BF16 && t.dtype() == DType::U16) ||
      (isFloat8(dtype) && t.dtype() == DType::U8) ||
      (dtype == DType::I4 && t.dtype() == DType::I8))
    return reinterpret(t, dtype);
  return t;
}

namespace detail {

/// The longest header this reader takes. numpy writes a few hundred bytes
/// (its own reader refuses more than 10000 by default); a length of
/// gigabytes is damage, and is refused before it is read.
inline constexpr std::uint64_t kMaxNpyHeaderBytes = 1 << 20;

/// What a .npy header says: the array's dtype and shape, and where its data
/// starts and ends in the file.
struct NpyLayout {
  DType dtype;
  std::vector<std::int64_t> shape;
  std::uint64_t dataStart = 0;
  std::uint64_t dataBytes = 0;
  std::uint64_t fileBytes() const { return dataStart + dataBytes; }
};

/// The layout of the .npy file whose first bytes are `bytes`. With `whole`,
/// `bytes` is the whole file and a short header is an Error; otherwise a
/// prefix too short to hold the whole header gives nullopt and sets
/// `needBytes` to the length of prefix that can tell more. Throws Error
/// prefixed with `what` on any malformed or unsupported header.
inline std::optional<NpyLayout> npyLayout(std::string_view bytes,
                                          const std::string &what, bool whole,
                                          std::uint64_t *needBytes = nullptr) {
  auto more = [&](std::uint64_t n) {
    if (needBytes)
      *needBytes = n;
    return std::nullopt;
  };
  auto fail = [&](const std::string &problem) {
    return Error(what + ": " + problem);
  };
  constexpr std::string_view magic("\x93NUMPY", 6);
  if (bytes.size() < 10) {
    if (whole)
      throw fail("truncated header: " + std::to_string(bytes.size()) +
                 " bytes, a .npy file has at least 10");
    // What is there already tells a stream that is no .npy.
    if (bytes.substr(0, 6) !=
        magic.substr(0, std::min<std::size_t>(bytes.size(), 6)))
      throw fail("bad magic: not a .npy file");
    return more(10);
  }
  if (bytes.substr(0, 6) != magic)
    throw fail("bad magic: not a .npy file");
  auto major = static_cast<unsigned char>(bytes[6]);
  auto minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    throw fail("unsupported .npy format version " + std::to_string(major) +
               "." + std::to_string(minor));
  std::size_t lengthBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lengthBytes) {
    if (!whole)
      return more(8 + lengthBytes);
    throw fail("truncated header: no room for the header length");
  }
  std::uint64_t headerLength = 0;
  for (std::size_t i = 0; i < lengthBytes; ++i)
    headerLength |= std::uint64_t(static_cast<unsigned char>(bytes[8 + i]))
                    << (8 * i);
  if (headerLength > kMaxNpyHeaderBytes)
    throw fail("header of " + std::to_string(headerLength) +
               " bytes; this reader takes headers of at most " +
               std::to_string(kMaxNpyHeaderBytes) + " bytes");
  std::size_t dataStart = 8 + lengthBytes;
  if (headerLength > bytes.size() - dataStart) {
    if (!whole)
      return more(dataStart + headerLength);
    throw fail("truncated header: it should have " +
               std::to_string(headerLength) + " bytes, the input has " +
               std::to_string(bytes.size() - dataStart));
  }
  std::string_view headerText = bytes.substr(dataStart, headerLength);
  dataStart += headerLength;

  NpyHeader header = NpyHeaderParser(headerText, what).parse();
  if (header.fortranOrder)
    throw fail("fortran_order=True is not supported; save a C-order array "
               "(numpy.ascontiguousarray)");
  std::optional<DType> dtype = parseNpyDescr(header.descr);
  if (!dtype)
    throw fail("unsupported dtype '" + header.descr +
               "' (supported: little-endian bool, int8-64, uint8-64, "
               "float16/32/64)");
  std::size_t elementSize = dtypeSize(*dtype);
  auto count =
      std::uint64_t(checkedNumElements(header.shape, elementSize, what));
  return NpyLayout{*dtype, std::move(header.shape), dataStart,
                   count * elementSize};
}

/// The error for bytes found after the data a header describes: `extra`
/// of them, or an unknown number (a stream) when `extra` is 0.
inline Error npyTrailingBytes(const std::string &what, const NpyLayout &l,
                              std::uint64_t extra) {
  return Error(what + ": " + (extra ? std::to_string(extra) + " " : "") +
               "unexpected bytes after the data of shape " +
               shapeString(l.shape) +
               (extra ? ""
                      : " (the header says the file ends at byte " +
                            std::to_string(l.fileBytes()) + ")"));
}

} // namespace detail

/// Parses the bytes of a whole .npy file into a new contiguous tensor that
/// owns its memory. `what` names the source (a path, "archive.npz: member
/// 'x'") in error messages. Throws Error on any malformed or unsupported
/// input; checks every size before reading.
inline Tensor parseNpy(std::string_view bytes, const std::string &what) {
  detail::NpyLayout layout = *detail::npyLayout(bytes, what, /*whole=*/true);
  std::uint64_t need = layout.dataBytes;
  std::uint64_t have = bytes.size() - layout.dataStart;
  if (have < need)
    throw Error(
        what + ": data is truncated: shape " + shapeString(layout.shape) +
        " of " + std::string(dtypeName(layout.dtype)) + " needs " +
        std::to_string(need) + " bytes, the input has " + std::to_string(have));
  if (have > need)
    throw detail::npyTrailingBytes(what, layout, have - need);

  Tensor t = Tensor::zeros(layout.dtype, layout.shape);
  if (need)
    std::memcpy(t.rawData(), bytes.data() + layout.dataStart, need);
  if (layout.dtype == DType::I1) { // Any non-zero byte is true; keep 0/1.
    auto *p = static_cast<unsigned char *>(t.rawData());
    for (std::uint64_t i = 0; i < need; ++i)
      p[i] = p[i] != 0;
  }
  return t;
}

/// The bytes of a .npy file holding `t` in C order (a non-contiguous tensor
/// is written contiguously). Version 1.0 unless the header needs 2.0; the
/// header is padded to 64 bytes exactly as numpy pads it.
inline std::string serializeNpy(const Tensor &t) {
  detail::NpyHeader h{std::string(npyDescr(t.dtype())), false, t.shape()};
  std::string dict = detail::renderNpyHeader(h);
  // numpy: the header plus its '\n' is padded with spaces so the data starts
  // at a multiple of 64 (a whole extra 64 when already aligned).
  auto wrap = [&](std::size_t lengthBytes) {
    std::size_t unpadded = dict.size() + 1;
    std::size_t pad = 64 - (8 + lengthBytes + unpadded) % 64;
    return unpadded + pad;
  };
  std::size_t lengthBytes = wrap(2) < 65536 ? 2 : 4;
  std::size_t headerLength = wrap(lengthBytes);
  if (headerLength > 0xffffffffu)
    throw Error("tensor of shape " + shapeString(t.shape()) +
                ": .npy header too long");

  std::int64_t count =
      checkedNumElements(t.shape(), t.elementSize(), "serializeNpy");
  std::size_t dataBytes = std::size_t(count) * t.elementSize();
  std::string out;
  out.reserve(8 + lengthBytes + headerLength + dataBytes);
  out.append("\x93NUMPY", 6);
  out.push_back(char(lengthBytes == 2 ? 1 : 2));
  out.push_back(0);
  for (std::size_t i = 0; i < lengthBytes; ++i)
    out.push_back(char((headerLength >> (8 * i)) & 0xff));
  out += dict;
  out.append(headerLength - dict.size() - 1, ' ');
  out.push_back('\n');
  if (dataBytes == 0)
    return out;
  if (t.isContiguous()) {
    out.append(static_cast<const char *>(t.rawData()), dataBytes);
  } else {
    std::size_t es = t.elementSize();
    for (std::int64_t i = 0; i < count; ++i)
      out.append(static_cast<const char *>(t.elementAt(i)), es);
  }
  return out;
}

/// Reads the .npy file at `path`: a regular file, a pipe or a FIFO, never
/// more bytes than its header says it holds. Throws Error naming `path`
/// when the file cannot be read or is malformed.
inline Tensor readNpy(const std::string &path) {
  detail::InputFile file(path);
  std::string bytes;
  // The header, as far as each piece tells how long it is; then the data
  // and one byte more, which must not be there.
  std::optional<detail::NpyLayout> layout;
  std::uint64_t need = 10;
  while (!(layout = detail::npyLayout(bytes, path, /*whole=*/false, &need)))
    if (file.read(bytes, need - bytes.size()) == 0 || bytes.size() < need)
      return parseNpy(bytes, path); // throws: the header is cut short
  std::uint64_t end = layout->fileBytes();
  if (end >= bytes.size())
    file.read(bytes, end + 1 - bytes.size());
  if (bytes.size() > end)
    throw detail::npyTrailingBytes(path, *layout,
                                   file.isRegular() ? file.size() - end : 0);
  return parseNpy(bytes, path);
}

/// Writes `t` to the .npy file at `path`, replacing it. Throws Error naming
/// `path` when the file cannot be written.
inline void writeNpy(const std::string &path, const Tensor &t) {
  detail::writeFileBytes(path, serializeNpy(t));
}

AOT_ABI_END_NAMESPACE
