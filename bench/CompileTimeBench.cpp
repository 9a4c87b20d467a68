//===- CompileTimeBench.cpp - in-process compile vs separate tools --------===//
//
// Times aot::Compiler::compile of a model to object code next to the chain
// of separate processes
//
//   mlir-opt-22 --pass-pipeline='builtin.module(PASSES)' MODEL
//     | mlir-translate-22 --mlir-to-llvmir
//     | llc-22 -O3 -filetype=obj -relocation-model=pic -mcpu=native -o OBJ
//
// where PASSES are the default pass lists of the stages linalg, tiled,
// bufferized and llvm, less the project's own passes (aot-*), which
// mlir-opt-22 does not know. The model carries llvm.emit_c_interface on its
// functions in place of aot-export-c-interface (and bufferization.writable =
// false on its arguments in place of aot-protect-arguments); nothing replaces
// aot-tile-and-vectorize, so the chain does strictly less work than the
// in-process compile.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "Timer.h"

#include "aot/Compiler.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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

/// Runs `command` with popen (that is, /bin/sh -c) and waits for it.
/// Returns its exit status, or -1 when it could not start or was killed.
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

/// The whole contents of a file ("" if it cannot be read).
std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// The chain of separate tools, as one shell pipeline.
struct Chain {
  std::string command;               ///< what /bin/sh -c runs
  std::string objectPath, errorPath; ///< its output and its stderr
  std::vector<std::string> dropped;  ///< aot-* passes left out
  std::string skipReason;            ///< non-empty: the chain cannot run
};

/// Builds the chain's command for `model`, writing into `dir`.
Chain makeChain(const std::string &model, const std::string &dir) {
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

  std::string passes;
  for (Stage stage : kChainStages) {
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

/// Why the chain's last run is not a valid compile of the model, or "" when
/// it is: it must exit 0 and leave an object file that defines `symbol`
/// (a failed mlir-opt still lets llc write an empty object and exit 0).
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

/// Prints one line of the timing table.
void printTimingRow(const char *way, double first, double med, int reps) {
  std::printf("  %-46s %10.1f %10.1f %5d\n", way, first * 1e3, med * 1e3, reps);
}

} // namespace

bool runCompileTimeBench(const Options &options) {
  const int reps = options.quick ? 1 : 5;
  const std::string &model = options.modelPath;
  std::printf("== compile time: %s -> object code (-O3, host target) ==\n",
              model.c_str());
  if (!std::filesystem::exists(model)) {
    std::printf("error: model '%s' does not exist (pass --model FILE)\n",
                model.c_str());
    return false;
  }

  // In-process: every stage from input to object code.
  Timer constructTimer;
  aot::Compiler compiler;
  double constructSeconds = constructTimer.seconds();
  const Pipeline pipeline = Pipeline().optLevel(3);
  std::optional<Artifact> artifact;
  auto compileOnce = [&]() -> bool {
    Expected<Artifact> result =
        compiler.compile(Source::file(model), pipeline, Target::host());
    if (!result) {
      std::printf("error: compiling %s failed:\n%s\n", model.c_str(),
                  result.error().str().c_str());
      return false;
    }
    artifact = std::move(*result);
    return true;
  };
  // The first compile in the process also initialises LLVM's targets and
  // MLIR's dialects; it is reported apart from the median.
  Timer coldTimer;
  if (!compileOnce())
    return false;
  double coldSeconds = coldTimer.seconds();
  bool compileFailed = false;
  double warmSeconds = median(timeRepeated(
      reps, [&] { compileFailed = !compileOnce() || compileFailed; }));
  if (compileFailed)
    return false;
  if (!artifact->stage(Stage::Object) ||
      artifact->manifest().functions.empty()) {
    std::printf("error: the in-process compile produced no object code or "
                "no exported function\n");
    return false;
  }
  const std::string symbol =
      "_mlir_ciface_" + artifact->manifest().functions.front().name;

  std::printf("  %-46s %10s %10s %5s\n", "", "first ms", "median ms", "reps");
  std::printf("  %-46s %10.2f %10s %5s\n", "aot::Compiler construction",
              constructSeconds * 1e3, "", "");
  printTimingRow("in-process aot::Compiler::compile", coldSeconds, warmSeconds,
                 reps);

  // The chain of separate processes.
  char dirTemplate[] = "/tmp/aot-bench-XXXXXX";
  if (!::mkdtemp(dirTemplate)) {
    std::printf("  chain skipped: cannot create a temporary directory\n");
    return true;
  }
  const std::string dir = dirTemplate;
  Chain chain = makeChain(model, dir);
  double chainFirst = 0, chainMedian = 0;
  if (chain.skipReason.empty()) {
    // The first run is untimed in the median: it checks the chain and
    // brings the tools into the page cache.
    Timer firstTimer;
    int status = runShell(chain.command);
    chainFirst = firstTimer.seconds();
    chain.skipReason = checkChainRun(chain, status, symbol);
    if (chain.skipReason.empty()) {
      std::vector<double> samples;
      for (int i = 0; i < reps && chain.skipReason.empty(); ++i) {
        Timer t;
        status = runShell(chain.command);
        samples.push_back(t.seconds());
        chain.skipReason = checkChainRun(chain, status, symbol);
      }
      chainMedian = median(samples);
    }
  }
  std::filesystem::remove_all(dir);

  if (!chain.skipReason.empty()) {
    std::printf("  chain mlir-opt-22 | mlir-translate-22 | llc-22: skipped: "
                "%s\n",
                chain.skipReason.c_str());
    return true;
  }
  printTimingRow("mlir-opt-22 | mlir-translate-22 | llc-22", chainFirst,
                 chainMedian, reps);
  std::printf("  %-46s %10.2fx %10.2fx\n",
              "chain / in-process (> 1: in-process faster)",
              chainFirst / coldSeconds, chainMedian / warmSeconds);

  std::printf("\nin-process: one aot::Compiler, Source::file, default "
              "pipeline (input .. object), -O3;\n"
              "  it also keeps a text and a bytecode snapshot of every MLIR "
              "stage.\n");
  std::printf("chain: the default pass lists of stages linalg, tiled, "
              "bufferized and llvm, run by\n"
              "  mlir-opt-22, less the project's own passes:\n");
  const std::string modelText = readFile(model);
  for (const std::string &name : chain.dropped) {
    if (name == "aot-export-c-interface" &&
        modelText.find("llvm.emit_c_interface") != std::string::npos)
      std::printf("    - %s: replaced by llvm.emit_c_interface on the "
                  "model's functions\n",
                  name.c_str());
    else if (name == "aot-protect-arguments" &&
             modelText.find("bufferization.writable = false") !=
                 std::string::npos)
      std::printf("    - %s: replaced by bufferization.writable = false on "
                  "the model's arguments\n",
                  name.c_str());
    else
      std::printf("    - %s: dropped, nothing replaces it\n", name.c_str());
  }
  std::printf("  and llc-22 -O3 runs only code generation, not LLVM's -O3 IR "
              "pipeline that the\n"
              "  in-process llvm-ir-opt stage runs: the chain does strictly "
              "less work.\n"
              "  -mcpu=native matches Target::host(). Timed wall-clock "
              "through popen (/bin/sh -c),\n"
              "  the first run apart; each run is checked to define %s.\n",
              symbol.c_str());
  std::printf("  command: %s\n", chain.command.c_str());
  return true;
}

} // namespace aot::bench
