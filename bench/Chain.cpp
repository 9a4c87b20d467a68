//===- Chain.cpp - the upstream tools as a chain of processes ------------===//
#include "Chain.h"

#include "aot/Pipeline.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>

namespace aot::bench {

namespace {

/// The MLIR stages whose default pass lists the chain runs, in order.
constexpr Stage kChainStages[] = {Stage::Linalg, Stage::Tiled,
                                  Stage::Bufferized, Stage::Llvm};

/// `s` without leading and trailing blanks.
std::string_view trim(std::string_view s) {
  std::size_t begin = s.find_first_not_of(" \t\n");
  if (begin == std::string_view::npos)
    return {};
  std::size_t end = s.find_last_not_of(" \t\n");
  return s.substr(begin, end - begin + 1);
}

/// The elements of a textual pass pipeline separated by commas at the top
/// level (commas inside `{...}` options or `anchor(...)` stay put).
std::vector<std::string_view> splitTopLevel(std::string_view list) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    char c = list[i];
    if (c == '(' || c == '{')
      ++depth;
    else if (c == ')' || c == '}')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(trim(list.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (std::string_view last = trim(list.substr(start)); !last.empty())
    parts.push_back(last);
  return parts;
}

/// `list` less every pass whose name starts with "aot-", looking inside
/// nested anchors such as `func.func(...)`; an anchor left empty goes too
/// (mlir-opt rejects `func.func()`). The names removed are added to
/// `dropped`.
std::string withoutAotPasses(std::string_view list,
                             std::vector<std::string> &dropped) {
  std::string out;
  for (std::string_view element : splitTopLevel(list)) {
    std::size_t open = element.find_first_of("({");
    std::string_view name = trim(element.substr(0, open));
    std::string kept;
    if (name.rfind("aot-", 0) == 0) {
      dropped.emplace_back(name);
    } else if (open != std::string_view::npos && element[open] == '(' &&
               element.back() == ')') {
      std::string inner = withoutAotPasses(
          element.substr(open + 1, element.size() - open - 2), dropped);
      if (!inner.empty())
        kept = std::string(name) + "(" + inner + ")";
    } else {
      kept = std::string(element);
    }
    if (!kept.empty())
      out += (out.empty() ? "" : ",") + kept;
  }
  return out;
}

/// `s` quoted for /bin/sh.
std::string shellQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The full path of an executable: `name` searched on PATH, then
/// `fallback` (the unversioned name in LLVM 22's own bin directory).
std::optional<std::string> findTool(const std::string &name,
                                    const std::string &fallback) {
  if (const char *path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
      std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
      if (std::filesystem::is_regular_file(candidate) &&
          ::access(candidate.c_str(), X_OK) == 0)
        return candidate;
    }
  }
  if (::access(fallback.c_str(), X_OK) == 0)
    return fallback;
  return std::nullopt;
}

} // namespace

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

int runShell(const std::string &command) {
  std::FILE *pipe = ::popen(command.c_str(), "r");
  if (!pipe)
    return -1;
  char buffer[4096];
  while (std::fread(buffer, 1, sizeof buffer, pipe) > 0) {
  }
  int status = ::pclose(pipe);
  return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const char *const kLoweringPasses =
    "func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,"
    "tosa-to-tensor,convert-elementwise-to-linalg),"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "convert-linalg-to-loops,buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,convert-scf-to-cf,"
    "expand-strided-metadata,lower-affine,finalize-memref-to-llvm,"
    "convert-math-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,"
    "convert-func-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts";

Chain makeChain(const std::string &model, const std::string &dir,
                const std::string &chosen) {
  Chain chain;
  const char *names[] = {"mlir-opt", "mlir-translate", "llc"};
  std::string paths[3];
  for (int i = 0; i < 3; ++i) {
    std::string versioned = std::string(names[i]) + "-22";
    std::optional<std::string> found =
        findTool(versioned, "/usr/lib/llvm-22/bin/" + std::string(names[i]));
    if (!found) {
      chain.skipReason = versioned + " is not on PATH (nor in "
                                     "/usr/lib/llvm-22/bin); install "
                                     "mlir-22-tools and llvm-22";
      return chain;
    }
    paths[i] = *found;
  }

  std::string passes = chosen;
  for (Stage stage : kChainStages) {
    if (!chosen.empty())
      break;
    std::string list =
        withoutAotPasses(Pipeline::defaultStagePasses(stage), chain.dropped);
    if (!list.empty())
      passes += (passes.empty() ? "" : ",") + list;
  }
  chain.objectPath = dir + "/chain.o";
  chain.errorPath = dir + "/chain.err";
  chain.command = "{ " + shellQuote(paths[0]) + " " +
                  shellQuote("--pass-pipeline=builtin.module(" + passes + ")") +
                  " " + shellQuote(model) + " | " + shellQuote(paths[1]) +
                  " --mlir-to-llvmir | " + shellQuote(paths[2]) +
                  " -O3 -filetype=obj -relocation-model=pic -mcpu=native -o " +
                  shellQuote(chain.objectPath) + "; } 2>" +
                  shellQuote(chain.errorPath);
  return chain;
}

std::string checkChainRun(const Chain &chain, int status,
                          const std::string &symbol) {
  std::string errors = readFile(chain.errorPath);
  std::string details = errors.empty() ? "" : "\n" + errors;
  if (status != 0)
    return "the chain exited with status " + std::to_string(status) + details;
  std::string object = readFile(chain.objectPath);
  if (object.empty())
    return "the chain wrote no object file" + details;
  if (object.find(symbol) == std::string::npos)
    return "the chain's object file does not define " + symbol +
           " (does the model carry llvm.emit_c_interface on its "
           "functions?)" +
           details;
  return "";
}

} // namespace aot::bench
