//===- KernelImage.h - the GPU kernels embedded in a compiled object ------===//
//
// A compiled object for a GPU target holds its kernels as one blob: the
// cubin for the target's chip (when ptxas was found at compile time) and
// the PTX, so that a driver for a newer GPU can still JIT-compile them.
// The runtime loads the cubin if the driver takes it, else the PTX.
//
//   "AOTKIMG2"                       8 bytes
//   u32 count, u32 0                 little endian, as every field
//   count x { u32 kind, u32 0, u64 size, size bytes, zeros to 8 bytes }
//
// Every image starts 8 bytes after an 8-byte boundary of the blob, so the
// ELF of a cubin lies aligned wherever the blob does. (Version 1 had a
// 12-byte header and padded by the image's size: a reader walked into the
// padding after the first image whose size was a multiple of 8.)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE

/// What one image of a kernel blob holds.
enum class KernelImageKind : std::uint32_t {
  Cubin = 1, ///< ELF for one chip, from ptxas
  Ptx = 2,   ///< PTX text, NUL-terminated, for the driver's JIT
};

struct KernelImage {
  KernelImageKind kind;
  std::string_view bytes;
};

inline constexpr char kKernelImageMagic[8] = {'A', 'O', 'T', 'K',
                                              'I', 'M', 'G', '2'};

namespace detail {
template <typename T> void appendLe(std::string &out, T value) {
  for (unsigned i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}
template <typename T> T readLe(const unsigned char *p) {
  T value = 0;
  for (unsigned i = 0; i < sizeof(T); ++i)
    value |= static_cast<T>(p[i]) << (8 * i);
  return value;
}
} // namespace detail

/// The blob holding `images`, in order.
inline std::string packKernelImages(const std::vector<KernelImage> &images) {
  std::string out(kKernelImageMagic, sizeof(kKernelImageMagic));
  detail::appendLe<std::uint32_t>(out, std::uint32_t(images.size()));
  detail::appendLe<std::uint32_t>(out, 0);
  for (const KernelImage &image : images) {
    detail::appendLe<std::uint32_t>(out, std::uint32_t(image.kind));
    detail::appendLe<std::uint32_t>(out, 0);
    detail::appendLe<std::uint64_t>(out, image.bytes.size());
    out.append(image.bytes);
    out.append((8 - out.size() % 8) % 8, '\0');
  }
  return out;
}

/// The images of a blob of `size` bytes at `data`; nullopt if it is not one
/// (a wrong magic, a size that runs past the end).
inline std::optional<std::vector<KernelImage>>
unpackKernelImages(const void *data, std::uint64_t size) {
  const auto *p = static_cast<const unsigned char *>(data);
  if (size < 16 || std::memcmp(p, kKernelImageMagic, 8) != 0)
    return std::nullopt;
  std::uint32_t count = detail::readLe<std::uint32_t>(p + 8);
  std::uint64_t at = 16;
  std::vector<KernelImage> images;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (at > size || size - at < 16)
      return std::nullopt;
    auto kind = detail::readLe<std::uint32_t>(p + at);
    std::uint64_t bytes = detail::readLe<std::uint64_t>(p + at + 8);
    at += 16;
    if (bytes > size - at)
      return std::nullopt;
    images.push_back({KernelImageKind(kind),
                      {reinterpret_cast<const char *>(p + at), bytes}});
    at += bytes;
    at += (8 - at % 8) % 8;
  }
  return images;
}

AOT_ABI_END_NAMESPACE
