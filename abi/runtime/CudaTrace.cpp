//===- CudaTrace.cpp - what each kernel launch wrote, as .npz files -------===//
//
// Code compiled with --trace-kernels-to calls these after every kernel
// launch: aotCudaTraceLaunch, aotCudaTraceBuffer for each buffer the kernel
// writes, aotCudaTraceEnd. The buffers are copied to the host and written
// as DIR/NNNN-KERNEL.npz (members argI, I the kernel argument), with one
// JSON line per launch in DIR/launches.jsonl. libzip is opened with dlopen
// like the driver: the runtime links nothing, and only a traced run needs
// it. A failure to write is the call's failure (AOT_CUDA_TRACE_FAILED).
//
//===----------------------------------------------------------------------===//
#include "aot/abi/CudaStatus.h"
#include "aot/abi/Npy.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaEntryPoints.h"

#include <zip.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <utility>
#include <vector>

namespace aot::cuda {
namespace {

/// The libzip functions a trace needs, bound with dlopen.
struct Zip {
  decltype(&zip_open) open;
  decltype(&zip_source_buffer) sourceBuffer;
  decltype(&zip_source_free) sourceFree;
  decltype(&zip_file_add) fileAdd;
  decltype(&zip_close) close;
  decltype(&zip_discard) discard;
  decltype(&zip_strerror) strerror;
};

/// libzip, or null with `error` saying why not.
const Zip *zipLibrary(std::string &error) {
  static std::once_flag once;
  static Zip zip;
  static std::string why;
  static bool ok = false;
  std::call_once(once, [] {
    void *lib = nullptr;
    for (const char *name : {"libzip.so.5", "libzip.so.4", "libzip.so"})
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!lib) {
      why = "libzip (libzip.so.4 or .5) could not be loaded; install "
            "libzip4 or libzip5";
      return;
    }
    auto bind = [&](auto &slot, const char *symbol) {
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
          dlsym(lib, symbol));
      if (!slot && why.empty())
        why = std::string("libzip lacks ") + symbol;
    };
    bind(zip.open, "zip_open");
    bind(zip.sourceBuffer, "zip_source_buffer");
    bind(zip.sourceFree, "zip_source_free");
    bind(zip.fileAdd, "zip_file_add");
    bind(zip.close, "zip_close");
    bind(zip.discard, "zip_discard");
    bind(zip.strerror, "zip_strerror");
    ok = why.empty();
  });
  if (!ok)
    error = why;
  return ok ? &zip : nullptr;
}

/// The launch being recorded on this thread.
struct Launch {
  std::string dir;
  std::string kernel;
  std::string location;
  std::vector<std::pair<std::string, abi::Tensor>> buffers;
};
thread_local Launch launch;

std::atomic<unsigned> launchCount{0};

/// `s` as a JSON string.
std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04x", c);
      out += hex;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// Writes `members` (name, bytes) to `path` as a zip archive; "" or why not.
std::string
writeZip(const Zip &z, const std::string &path,
         const std::vector<std::pair<std::string, std::string>> &members) {
  int code = 0;
  zip_t *archive = z.open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!archive)
    return "cannot create " + path + " (libzip error " + std::to_string(code) +
           ")";
  for (const auto &[name, bytes] : members) {
    zip_source_t *src = z.sourceBuffer(archive, bytes.data(), bytes.size(), 0);
    if (!src || z.fileAdd(archive, name.c_str(), src, ZIP_FL_ENC_UTF_8) < 0) {
      std::string why = z.strerror(archive);
      if (src)
        z.sourceFree(src);
      z.discard(archive);
      return "cannot write " + path + ": " + why;
    }
  }
  if (z.close(archive) != 0) {
    std::string why = z.strerror(archive);
    z.discard(archive);
    return "cannot write " + path + ": " + why;
  }
  return "";
}

/// Writes the recorded launch; "" or why not.
std::string writeLaunch(unsigned number) {
  std::string error;
  const Zip *z = zipLibrary(error);
  if (!z)
    return error;
  // The directory and its parents, as `mkdir -p` would.
  for (std::size_t at = launch.dir.find('/', 1);;
       at = launch.dir.find('/', at + 1)) {
    mkdir(launch.dir.substr(0, at).c_str(), 0777);
    if (at == std::string::npos)
      break;
  }
  char prefix[16];
  std::snprintf(prefix, sizeof prefix, "%04u-", number);
  std::string file = prefix + launch.kernel + ".npz";
  std::vector<std::pair<std::string, std::string>> members;
  std::string names;
  for (const auto &[name, tensor] : launch.buffers) {
    members.emplace_back(name + ".npy", abi::serializeNpy(tensor));
    names += (names.empty() ? "" : ", ") + quoted(name);
  }
  if (std::string why = writeZip(*z, launch.dir + "/" + file, members);
      !why.empty())
    return why;
  std::string line = "{\"launch\": " + std::to_string(number) +
                     ", \"kernel\": " + quoted(launch.kernel) +
                     ", \"location\": " + quoted(launch.location) +
                     ", \"file\": " + quoted(file) + ", \"buffers\": [" +
                     names + "]}\n";
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::string index = launch.dir + "/launches.jsonl";
  FILE *out = std::fopen(index.c_str(), "a");
  if (!out)
    return "cannot append to " + index;
  bool written = std::fwrite(line.data(), 1, line.size(), out) == line.size();
  return std::fclose(out) == 0 && written ? "" : "cannot append to " + index;
}

} // namespace
} // namespace aot::cuda

using namespace aot::cuda;

extern "C" {

void aotCudaTraceLaunch(const char *dir, const char *kernel,
                        const char *location) {
  const char *env = std::getenv("AOT_TRACE_KERNELS_TO");
  launch = Launch{env && *env ? env : dir, kernel, location, {}};
}

void aotCudaTraceBuffer(std::int32_t arg, std::int32_t dtype, std::int32_t rank,
                        std::int64_t *, std::int64_t *fields,
                        std::int64_t offset, std::int64_t, std::int64_t) {
  const Driver *d = ready();
  if (!d)
    return;
  // fields: aligned address, offset, sizes, strides (lib/Backend/Cuda/
  // KernelTrace.cpp).
  fields += offset;
  auto type = static_cast<aot::abi::DType>(dtype);
  const std::size_t element = aot::abi::dtypeSize(type);
  std::vector<std::int64_t> shape(fields + 2, fields + 2 + rank);
  std::vector<std::int64_t> strides(fields + 2 + rank, fields + 2 + 2 * rank);
  // The span the view covers is copied at once; the .npy writer reads it
  // through the strides.
  std::int64_t span = aot::abi::numElementsOf(shape) > 0 ? 1 : 0;
  for (std::int32_t i = 0; span && i < rank; ++i)
    span += (shape[i] - 1) * strides[i];
  std::shared_ptr<void> host(std::malloc(span * element + 1), std::free);
  if (!host)
    return fail(AOT_CUDA_TRACE_FAILED, "--trace-kernels-to: out of memory");
  if (span > 0) {
    CUdeviceptr base = static_cast<CUdeviceptr>(fields[0]) +
                       static_cast<CUdeviceptr>(fields[1]) * element;
    CUstream stream = callStream(*d);
    if (!check(*d,
               d->api.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(host.get()),
                                    base, span * element, stream),
               "tracing a kernel's output") ||
        !check(*d, d->api.cuStreamSynchronize(stream),
               "tracing a kernel's output"))
      return;
  }
  auto tensor = aot::abi::Tensor::view(type, host.get(), std::move(shape),
                                       std::move(strides), host);
  launch.buffers.emplace_back("arg" + std::to_string(arg), std::move(tensor));
}

void aotCudaTraceEnd() {
  if (failed() || launch.kernel.empty())
    return;
  unsigned number = ++launchCount;
  std::string why;
  try {
    why = writeLaunch(number);
  } catch (const std::exception &e) { // the .npy writer's errors
    why = e.what();
  }
  if (!why.empty())
    fail(AOT_CUDA_TRACE_FAILED, "--trace-kernels-to: " + why);
  launch = Launch{};
}

} // extern "C"
