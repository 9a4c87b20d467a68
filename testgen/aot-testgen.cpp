//===- aot-testgen.cpp - writes a doctest executor for a compiled module --===//
//
// Reads a module's manifest and the key names of its reference .npz, writes
// a test file that calls every function through the typed header and checks
// the results (Generator.h). Exit 0 on success and 1 on any error, with the
// message on stderr; exceptions are caught so nothing ends in an abort.
//
//===----------------------------------------------------------------------===//
#include "Generator.h"
#include "Options.h"
#include "OutputFile.h"

#include "Support/ToolMain.h"
#include "aot/Manifest.h"
#include "aot/abi/Npz.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace {

int fail(const aot::Error &e) {
  std::cerr << e.str() << "\n";
  return 1;
}

/// The most bytes a manifest file may hold: a manifest lists signatures, a
/// few hundred bytes each; a file of more is not one.
constexpr std::uint64_t kMaxManifestBytes = std::uint64_t(64) << 20;

aot::Expected<aot::Manifest> readManifest(const std::string &path) {
  std::string text;
  try {
    text = aot::abi::detail::readFileBytes(path, kMaxManifestBytes,
                                           "too large to be a manifest");
  } catch (const aot::abi::Error &e) {
    return aot::Error::message("cannot read manifest '" + path +
                               "': " + aot::abi::detail::withoutPath(e, path));
  }
  auto manifest = aot::Manifest::fromJson(text);
  if (!manifest) {
    const auto &diagnostics = manifest.error().diagnostics();
    return aot::Error::message(
        path + ": " +
        (diagnostics.empty() ? "invalid manifest" : diagnostics[0].message));
  }
  return manifest;
}

/// The key names of the reference; abi::Error names the file on failure.
aot::Expected<std::vector<std::string>> readKeys(const std::string &path) {
  try {
    return aot::abi::NpzFile(path).keys();
  } catch (const aot::abi::Error &e) {
    return aot::Error::message(std::string("reference: ") + e.what());
  }
}

int run(const std::vector<std::string> &args) {
  auto options = aot::testgen::parseOptions(args);
  if (!options)
    return fail(options.error());
  if (options->help) {
    std::cout << aot::testgen::usage();
    return 0;
  }
  auto manifest = readManifest(options->manifest);
  if (!manifest)
    return fail(manifest.error());
  auto keys = readKeys(options->reference);
  if (!keys)
    return fail(keys.error());

  aot::testgen::TestFileSpec spec;
  spec.manifest = std::move(*manifest);
  spec.referenceKeys = std::move(*keys);
  spec.header = options->header;
  spec.manifestName = options->manifest;
  spec.referenceName = options->reference;
  spec.functions = options->functions;
  spec.tolerance = options->tolerance;
  auto text = aot::testgen::generateTestFile(spec);
  if (!text)
    return fail(text.error());
  if (aot::Status s = aot::testgen::writeIfChanged(options->output, *text); !s)
    return fail(s.error());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return aot::toolMain("aot-testgen", argc, argv, run);
}
