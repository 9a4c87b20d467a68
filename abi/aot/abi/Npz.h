//===- Npz.h - reading and writing numpy .npz archives --------------------===//
//
// An .npz file is a zip archive of .npy members named "<key>.npy", stored
// (numpy.savez) or deflated (numpy.savez_compressed). The zip container is
// handled by libzip; the members by Npy.h. Keys may contain '/'
// ("add/arg0"). BF16 tensors are stored as '<u2' bits, see Npy.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Npy.h"

#include <zip.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE
namespace detail {

inline std::string zipErrorString(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string s = zip_error_strerror(&e);
  zip_error_fini(&e);
  return s;
}

struct ZipDiscard {
  void operator()(zip_t *z) const { zip_discard(z); }
};

struct ZipFileClose {
  void operator()(zip_file_t *f) const { zip_fclose(f); }
};

struct ZipSourceFree {
  void operator()(zip_source_t *s) const { zip_source_free(s); }
};

/// The name that two members of the zip archive `bytes` share, found by
/// walking its central directory (libzip only says that a name repeats);
/// empty when the walk finds none.
inline std::string duplicateMemberName(std::string_view bytes) {
  auto u16 = [&](std::size_t at) {
    return std::size_t(static_cast<unsigned char>(bytes[at])) |
           std::size_t(static_cast<unsigned char>(bytes[at + 1])) << 8;
  };
  auto u32 = [&](std::size_t at) { return u16(at) | u16(at + 2) << 16; };
  std::size_t eocd = bytes.rfind(std::string_view("PK\5\6", 4));
  if (eocd == std::string_view::npos || bytes.size() - eocd < 22)
    return {};
  std::size_t entries = u16(eocd + 10), at = u32(eocd + 16);
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < entries; ++i) {
    if (at > bytes.size() || bytes.size() - at < 46 ||
        bytes.substr(at, 4) != std::string_view("PK\1\2", 4))
      return {};
    std::size_t nameSize = u16(at + 28), extra = u16(at + 30),
                comment = u16(at + 32);
    if (bytes.size() - at - 46 < nameSize)
      return {};
    std::string_view name = bytes.substr(at + 46, nameSize);
    if (std::find(names.begin(), names.end(), name) != names.end())
      return std::string(name);
    names.push_back(name);
    at += 46 + nameSize + extra + comment;
  }
  return {};
}

/// Why libzip could not open an archive (`code`), said for an .npz.
inline std::string zipOpenError(int code, const std::string &path,
                                std::string_view bytes) {
  std::string why = "cannot open as an .npz (zip) archive: ";
  if (code == ZIP_ER_EXISTS) {
    std::string name = duplicateMemberName(bytes);
    return path + ": " + why + "it holds two members named '" +
           (name.empty() ? "?" : name) + "'";
  }
  return path + ": " + why + zipErrorString(code);
}

/// The bytes of a zip archive with no members (what numpy.savez writes for
/// no arrays; libzip would write no file at all).
inline std::string_view emptyZipArchive() {
  static const char eocd[22] = {'P', 'K', 5, 6};
  return {eocd, sizeof eocd};
}

} // namespace detail

/// An .npz archive opened for reading, member by member. Owns the libzip
/// handle (released by the destructor) and, for fromBytes(), a copy of the
/// bytes. Movable, not copyable; one NpzFile must not be used by two threads
/// at once. Tensors it returns own their memory and outlive it.
class NpzFile {
public:
  /// Opens the archive at `path`. Throws Error naming `path` when it is
  /// missing, not a zip archive, truncated or inconsistent, or holds a
  /// member that is not "<key>.npy".
  explicit NpzFile(const std::string &path) : what_(path) {
    // A regular file: libzip seeks, and would read a device for ever.
    detail::InputFile file(path, /*streams=*/false);
    int code = 0;
    zip_t *z = zip_fdopen(file.release(), ZIP_CHECKCONS, &code);
    if (!z) {
      std::string bytes;
      if (code == ZIP_ER_EXISTS)
        bytes = detail::readFileBytes(path);
      throw Error(detail::zipOpenError(code, path, bytes));
    }
    zip_.reset(z);
    index();
  }

  /// Opens an archive held in memory; `what` names it in error messages.
  static NpzFile fromBytes(std::string bytes, const std::string &what) {
    return NpzFile(std::move(bytes), what);
  }

  NpzFile(NpzFile &&) = default;
  NpzFile &operator=(NpzFile &&other) noexcept {
    // Through a temporary, so the old archive is discarded before the bytes
    // it reads from.
    NpzFile old(std::move(other));
    std::swap(what_, old.what_);
    std::swap(bytes_, old.bytes_);
    std::swap(zip_, old.zip_);
    std::swap(keys_, old.keys_);
    std::swap(members_, old.members_);
    return *this;
  }

  /// The path or name given when opening, as used in error messages.
  const std::string &name() const { return what_; }

  /// The keys of all members, in archive order, without ".npy".
  const std::vector<std::string> &keys() const { return keys_; }

  bool contains(const std::string &key) const {
    return members_.count(key) != 0;
  }

  /// Reads and parses one member. Throws Error naming the archive and `key`
  /// when the key is absent or the member is corrupt or not a valid .npy.
  Tensor read(const std::string &key) const {
    auto it = members_.find(key);
    if (it == members_.end())
      throw Error(what_ + ": no member '" + key + "'");
    std::string what = what_ + ": member '" + key + "'";
    return parseNpy(readMember(it->second, what), what);
  }

  /// Every member, by key.
  std::map<std::string, Tensor> readAll() const {
    std::map<std::string, Tensor> out;
    for (const std::string &key : keys_)
      out.emplace(key, read(key));
    return out;
  }

private:
  NpzFile(std::string bytes, const std::string &what)
      : what_(what), bytes_(std::make_unique<std::string>(std::move(bytes))) {
    // libzip takes zero bytes for an archive with no members; numpy does not.
    if (bytes_->empty())
      throw Error(what + ": cannot open as an .npz (zip) archive: no data");
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t *src =
        zip_source_buffer_create(bytes_->data(), bytes_->size(), 0, &error);
    zip_t *z =
        src ? zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &error)
            : nullptr;
    if (!z) {
      int code = zip_error_code_zip(&error);
      zip_error_fini(&error);
      if (src)
        zip_source_free(src);
      throw Error(detail::zipOpenError(code, what, *bytes_));
    }
    zip_error_fini(&error);
    zip_.reset(z);
    index();
  }

  void index() {
    zip_int64_t n = zip_get_num_entries(zip_.get(), 0);
    for (zip_int64_t i = 0; i < n; ++i) {
      const char *raw = zip_get_name(zip_.get(), zip_uint64_t(i), 0);
      if (!raw)
        throw Error(what_ + ": cannot read the name of member " +
                    std::to_string(i) + ": " + zip_strerror(zip_.get()));
      std::string name(raw);
      if (name.size() <= 4 || name.compare(name.size() - 4, 4, ".npy") != 0)
        throw Error(what_ + ": member '" + name +
                    "' is not a .npy array (its name lacks '.npy')");
      std::string key = name.substr(0, name.size() - 4);
      if (!members_.emplace(key, zip_uint64_t(i)).second)
        throw Error(what_ + ": duplicate member '" + key + "'");
      keys_.push_back(std::move(key));
    }
  }

  std::string readMember(zip_uint64_t index, const std::string &what) const {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip_.get(), index, 0, &st) != 0)
      throw Error(what + ": cannot stat: " + zip_strerror(zip_.get()));
    std::unique_ptr<zip_file_t, detail::ZipFileClose> file(
        zip_fopen_index(zip_.get(), index, 0));
    zip_file_t *f = file.get();
    if (!f)
      throw Error(what + ": cannot open: " + zip_strerror(zip_.get()));
    std::string bytes;
    bool sized = st.valid & ZIP_STAT_SIZE;
    // Reserve no more than a bounded amount up front: a corrupt archive
    // may declare any size.
    if (sized)
      bytes.reserve(std::size_t(std::min<zip_uint64_t>(st.size, 1u << 26)));
    // Inflate no more than the member's .npy header says it holds (and one
    // byte to tell that there is more): a small member may inflate to
    // gigabytes.
    std::optional<detail::NpyLayout> layout;
    std::uint64_t limit = detail::kNoLimit;
    char buf[1 << 16];
    zip_int64_t got;
    while (true) {
      std::uint64_t want = sizeof buf;
      if (limit != detail::kNoLimit)
        want = std::min<std::uint64_t>(want, limit + 1 - bytes.size());
      if ((got = zip_fread(f, buf, want)) <= 0)
        break;
      bytes.append(buf, std::size_t(got));
      if (!layout && (layout = detail::npyLayout(bytes, what, false)))
        limit = layout->fileBytes();
      if (bytes.size() > limit)
        throw Error(what + ": inflates to more than the " +
                    std::to_string(limit) + " bytes its .npy header says (" +
                    std::string(dtypeName(layout->dtype)) + " of shape " +
                    shapeString(layout->shape) + ")");
    }
    std::string readError = got < 0 ? zip_file_strerror(f) : "";
    int closeCode = zip_fclose(file.release());
    if (got < 0)
      throw Error(what + ": cannot read: " + readError);
    if (closeCode != 0)
      throw Error(what + ": cannot read: " + detail::zipErrorString(closeCode));
    if (sized && bytes.size() != st.size)
      throw Error(what + ": truncated: " + std::to_string(bytes.size()) +
                  " of " + std::to_string(st.size) + " bytes");
    return bytes;
  }

  std::string what_;
  // Declared before zip_, destroyed after it: libzip reads from it.
  std::unique_ptr<std::string> bytes_;
  std::unique_ptr<zip_t, detail::ZipDiscard> zip_;
  std::vector<std::string> keys_;
  std::map<std::string, zip_uint64_t> members_;
};

/// Every array of the .npz file at `path`, by key (member name without
/// ".npy"). Throws Error naming `path` (and the key, for a bad member).
inline std::map<std::string, Tensor> readNpz(const std::string &path) {
  return NpzFile(path).readAll();
}

/// Like readNpz, for an archive held in memory named `what`.
inline std::map<std::string, Tensor> parseNpz(std::string bytes,
                                              const std::string &what) {
  return NpzFile::fromBytes(std::move(bytes), what).readAll();
}

/// Writes `tensors` to `path` as an .npz archive that numpy.load reads, one
/// member "<key>.npy" per tensor, deflated when `compress` (like
/// numpy.savez_compressed), stored otherwise (like numpy.savez). Replaces
/// the file whole or not at all (see detail/OutputFile.h). Throws Error
/// naming `path` (and the key) on failure.
inline void writeNpz(const std::string &path,
                     const std::map<std::string, Tensor> &tensors,
                     bool compress = false) {
  for (const auto &[key, tensor] : tensors)
    if (key.empty() || key.find('\0') != std::string::npos)
      throw Error(path + ": invalid member key '" + key + "'");
  if (tensors.empty())
    return detail::writeFileBytes(path, detail::emptyZipArchive());

  // The archive is made in memory, then written like every other output:
  // whole or not at all, and never onto a file this process may not write.
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t *target = zip_source_buffer_create(nullptr, 0, 0, &error);
  zip_t *raw =
      target ? zip_open_from_source(target, ZIP_TRUNCATE, &error) : nullptr;
  if (!raw) {
    std::string message = zip_error_strerror(&error);
    zip_error_fini(&error);
    if (target)
      zip_source_free(target);
    throw Error(path + ": cannot create: " + message);
  }
  zip_error_fini(&error);
  // Kept past zip_close, which would otherwise free it with the archive.
  zip_source_keep(target);
  std::unique_ptr<zip_source_t, detail::ZipSourceFree> keep(target);
  std::unique_ptr<zip_t, detail::ZipDiscard> z(raw);
  // libzip reads member data when the archive is closed; a deque keeps each
  // buffer in place until then.
  std::deque<std::string> data;
  for (const auto &[key, tensor] : tensors) {
    const std::string &bytes = data.emplace_back(serializeNpy(tensor));
    zip_source_t *src =
        zip_source_buffer(z.get(), bytes.data(), bytes.size(), 0);
    if (!src)
      throw Error(path + ": member '" + key +
                  "': cannot add: " + zip_strerror(z.get()));
    std::string name = key + ".npy";
    zip_int64_t index = zip_file_add(z.get(), name.c_str(), src,
                                     ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (index < 0) {
      zip_source_free(src);
      throw Error(path + ": member '" + key +
                  "': cannot add: " + zip_strerror(z.get()));
    }
    if (zip_set_file_compression(z.get(), zip_uint64_t(index),
                                 compress ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                 0) != 0)
      throw Error(path + ": member '" + key +
                  "': cannot set compression: " + zip_strerror(z.get()));
  }
  if (zip_close(z.get()) != 0)
    throw Error(path + ": cannot write: " + zip_strerror(z.get()));
  z.release(); // zip_close freed it.
  // Read the finished archive back out of the buffer source.
  zip_stat_t st;
  zip_stat_init(&st);
  std::string archive;
  if (zip_source_stat(target, &st) != 0 || !(st.valid & ZIP_STAT_SIZE) ||
      zip_source_open(target) != 0)
    throw Error(path + ": cannot write: the archive made in memory is lost");
  archive.resize(std::size_t(st.size));
  zip_int64_t got = zip_source_read(target, archive.data(), st.size);
  zip_source_close(target);
  if (got < 0 || zip_uint64_t(got) != st.size)
    throw Error(path + ": cannot write: the archive made in memory is short");
  detail::writeFileBytes(path, archive);
}

AOT_ABI_END_NAMESPACE
