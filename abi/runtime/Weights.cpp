//===- Weights.cpp - maps and checks a module's external weights ----------===//
//
// The file is safetensors: an 8-byte little-endian header length, a JSON
// header {"NAME": {"dtype": "F32", "shape": [..], "data_offsets": [b, e]},
// "__metadata__": {..}}, then the data. Tensors are found by name, so a
// file rewritten by another tool (other order, other padding) still loads
// when every tensor the code needs is there, the same and in one piece.
//
//===----------------------------------------------------------------------===//

#include "aot/abi/Weights.h"

#include <nlohmann/json.hpp>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

using aot::abi::WeightsTable;

/// A failed load: the message, ready for the caller's buffer.
struct Failure {
  std::string message;
};

Failure fail(const std::string &file, const char *format, ...) {
  char text[768];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  return {"weights file '" + file + "': " + text};
}

/// The compile-time name beside the binary that holds `table`, when such a
/// file exists; else the compile-time path as it was given.
std::string defaultPath(const WeightsTable &table) {
  std::string file = table.file ? table.file : "";
  Dl_info info{};
  if (dladdr(&table, &info) && info.dli_fname && *info.dli_fname) {
    std::string binary = info.dli_fname;
    std::string::size_type slash = binary.rfind('/');
    std::string dir =
        slash == std::string::npos ? "." : binary.substr(0, slash);
    std::string::size_type base = file.rfind('/');
    std::string beside =
        dir + "/" + (base == std::string::npos ? file : file.substr(base + 1));
    if (::access(beside.c_str(), R_OK) == 0)
      return beside;
  }
  return file;
}

struct Mapping {
  void *base = MAP_FAILED;
  std::uint64_t size = 0;
  ~Mapping() {
    if (base != MAP_FAILED)
      ::munmap(base, size);
  }
};

std::string hex64(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx",
                static_cast<unsigned long long>(v));
  return text;
}

/// Maps `path` and fills `slots` (table.count entries); the mapping moves
/// to `out` on success.
bool load(const WeightsTable &table, const std::string &path,
          std::vector<void *> &slots, Mapping &out, Failure &failure) {
  // Non-blocking: a FIFO put in the file's place must not make the open
  // wait for a writer; it is refused below, as is anything not mappable.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    failure = fail(path, "cannot open it: %s", std::strerror(errno));
    return false;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
    ::close(fd);
    failure = fail(path, "is not a regular file (%s)",
                   S_ISDIR(st.st_mode)    ? "a directory"
                   : S_ISFIFO(st.st_mode) ? "a FIFO"
                   : S_ISCHR(st.st_mode)  ? "a character device"
                                          : "not mappable");
    return false;
  }
  if (::fstat(fd, &st) != 0 || st.st_size < 8) {
    ::close(fd);
    failure = fail(path,
                   "is not a safetensors file (%lld bytes, less than "
                   "the 8 of its header's length)",
                   static_cast<long long>(st.st_size));
    return false;
  }
  Mapping mapping;
  mapping.size = static_cast<std::uint64_t>(st.st_size);
  mapping.base = ::mmap(nullptr, mapping.size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (mapping.base == MAP_FAILED) {
    failure = fail(path, "cannot map it: %s", std::strerror(errno));
    return false;
  }
  const auto *bytes = static_cast<const unsigned char *>(mapping.base);
  std::uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i)
    headerSize = headerSize << 8 | bytes[i];
  if (headerSize > mapping.size - 8) {
    failure = fail(path,
                   "is truncated: its header is %llu bytes, the file "
                   "holds %llu after the length",
                   static_cast<unsigned long long>(headerSize),
                   static_cast<unsigned long long>(mapping.size - 8));
    return false;
  }
  const char *headerText = reinterpret_cast<const char *>(bytes + 8);
  nlohmann::json header = nlohmann::json::parse(
      headerText, headerText + headerSize, nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded() || !header.is_object()) {
    failure = fail(path, "its header is not a JSON object");
    return false;
  }
  nlohmann::json expected =
      nlohmann::json::parse(table.tensors ? table.tensors : "", nullptr, false);
  if (expected.is_discarded() || !expected.is_array() ||
      expected.size() != table.count) {
    failure = fail(path, "the module's table of weights is corrupt");
    return false;
  }
  std::uint64_t dataStart = 8 + headerSize;
  std::uint64_t dataSize = mapping.size - dataStart;
  for (std::uint64_t k = 0; k < table.count; ++k) {
    const nlohmann::json &want = expected[k];
    std::string name = want.value("name", "");
    auto found = header.find(name);
    if (found == header.end() || !found->is_object()) {
      failure = fail(path, "has no tensor '%s'", name.c_str());
      return false;
    }
    const nlohmann::json &have = *found;
    std::string dtype = have.value("dtype", "");
    if (dtype != want.value("dtype", "")) {
      failure =
          fail(path, "tensor '%s' has dtype %s, the code needs %s",
               name.c_str(), dtype.c_str(), want.value("dtype", "").c_str());
      return false;
    }
    if (!have.contains("shape") || have["shape"] != want["shape"]) {
      failure = fail(
          path, "tensor '%s' has shape %s, the code needs %s", name.c_str(),
          have.contains("shape") ? have["shape"].dump().c_str() : "none",
          want["shape"].dump().c_str());
      return false;
    }
    const nlohmann::json *offsets =
        have.contains("data_offsets") ? &have["data_offsets"] : nullptr;
    if (!offsets || !offsets->is_array() || offsets->size() != 2 ||
        !(*offsets)[0].is_number_unsigned() ||
        !(*offsets)[1].is_number_unsigned()) {
      failure =
          fail(path, "tensor '%s' has no valid data_offsets", name.c_str());
      return false;
    }
    std::uint64_t begin = (*offsets)[0], end = (*offsets)[1];
    std::uint64_t size = want.value("bytes", std::uint64_t(0));
    if (end < begin || end - begin != size) {
      failure =
          fail(path, "tensor '%s' spans %llu bytes, the code needs %llu",
               name.c_str(),
               static_cast<unsigned long long>(end < begin ? 0 : end - begin),
               static_cast<unsigned long long>(size));
      return false;
    }
    if (end > dataSize) {
      failure = fail(path,
                     "is truncated: tensor '%s' needs bytes [%llu, "
                     "%llu) of the data, the file holds %llu",
                     name.c_str(), static_cast<unsigned long long>(begin),
                     static_cast<unsigned long long>(end),
                     static_cast<unsigned long long>(dataSize));
      return false;
    }
    const unsigned char *data = bytes + dataStart + begin;
    std::string hash = hex64(XXH3_64bits(data, size));
    if (hash != want.value("xxh3", "")) {
      failure =
          fail(path,
               "tensor '%s' is not the one the code was "
               "compiled with (content hash %s, expected %s)",
               name.c_str(), hash.c_str(), want.value("xxh3", "").c_str());
      return false;
    }
    slots[k] = const_cast<unsigned char *>(data);
  }
  out.base = mapping.base;
  out.size = mapping.size;
  mapping.base = MAP_FAILED;
  return true;
}

std::mutex ensureMutex;

} // namespace

extern "C" std::int32_t aot::abi::aotWeightsLoad(WeightsTable *table,
                                                 const char *path, char *error,
                                                 std::uint64_t errorSize) {
  auto report = [&](const std::string &message) {
    if (error && errorSize > 0) {
      std::size_t n = std::min<std::size_t>(message.size(), errorSize - 1);
      std::memcpy(error, message.data(), n);
      error[n] = '\0';
    }
    return 1;
  };
  if (!table || table->version != kWeightsTableVersion)
    return report("the module's table of weights has an unknown version");
  std::string file = path && *path ? std::string(path) : defaultPath(*table);
  std::vector<void *> slots(table->count);
  Mapping mapping;
  Failure failure;
  if (!load(*table, file, slots, mapping, failure))
    return report(failure.message);
  for (std::uint64_t k = 0; k < table->count; ++k)
    table->slots[k] = slots[k];
  if (table->mapping)
    ::munmap(table->mapping, table->mappingSize);
  table->mapping = mapping.base;
  table->mappingSize = mapping.size;
  mapping.base = MAP_FAILED;
  std::atomic_ref<std::uint32_t>(table->state)
      .store(1, std::memory_order_release);
  return 0;
}

extern "C" void aot::abi::aotWeightsEnsure(WeightsTable *table) {
  if (std::atomic_ref<std::uint32_t>(table->state)
          .load(std::memory_order_acquire) == 1)
    return;
  std::lock_guard<std::mutex> lock(ensureMutex);
  if (std::atomic_ref<std::uint32_t>(table->state)
          .load(std::memory_order_acquire) == 1)
    return;
  char error[1024];
  if (aotWeightsLoad(table, nullptr, error, sizeof error) != 0) {
    std::fprintf(stderr, "aot: cannot load the weights of module '%s': %s\n",
                 table->module ? table->module : "?", error);
    std::abort();
  }
}
