//===- Options.cpp - parsing aot-compile's command line -------------------===//
#include "Options.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <utility>

namespace aot::cli {

std::string usage() {
  return R"(usage: aot-compile INPUT -o OUTPUT [options]

Compiles an MLIR module (.mlir text or .mlirbc bytecode, told apart by
content) ahead of time. The kind of OUTPUT follows its extension:
  .o object  .a static-lib  .so shared-lib  .ll llvm-ir  .s asm
  .mlir mlir  .mlirbc bytecode  .h header  .json manifest
'-o -' writes text kinds to standard output.

options:
  -o FILE                    output file; repeat -o to write several kinds
                             from one compile (-o m.o -o m.h -o m.json)
  --emit=KIND                object|static-lib|shared-lib|llvm-ir|asm|mlir|
                             bytecode|header|manifest (overrides the extension
                             of a single -o)
  -O0 -O1 -O2 -O3            optimisation level (default -O2)
  --target=SPEC              host (default) or cpu:TRIPLE[,cpu=NAME][,features=LIST]
  --compile-to=STAGE         stop after STAGE
  --compile-from=STAGE       start at STAGE; INPUT is the previous stage's output:
                             MLIR up to llvm-ir, LLVM IR for llvm-ir-opt, asm
                             and object
  --stage-pipeline=STAGE=PASSES
                             replace the passes of an MLIR stage (textual
                             pass pipeline, e.g. linalg=canonicalize,cse)
  --dump-stages=DIR          write every stage's output to DIR (00-input.mlir ...)
  --stage-format=FORMAT      text (default) or bytecode: with --dump-stages, the
                             MLIR stages as .mlirbc (00-input.mlirbc ...)
  --bytecode-version=N       write all MLIR bytecode (stage dumps, .mlirbc
                             output) as version N, 0..6 (default: 6, the newest)
  --log-actions-to=FILE      log every MLIR action (pass, pattern) with the op
                             and location it touched
  --log-actions-filter=FILE:LINE[:COL]
                             log only actions on IR at that location (repeatable)
  --profile-actions-to=FILE  Chrome trace (JSON) of the actions, nested
  --skip-actions=TAG:SKIP:COUNT
                             debug counter: of the actions tagged TAG, skip the
                             first SKIP, run COUNT (-1: all), skip the rest
                             (repeatable)
  --timing=FILE              pass timing per stage; JSON if FILE ends in .json
  --print-ir-after-all=DIR   the IR after every pass, a file per pass in a tree
  --print-ir-after-change    with --print-ir-after-all: only passes that changed it
  --reproducer=FILE          on a pass failure or crash, write a reproducer that
                             mlir-opt --run-reproducer replays
  -g, --debug-info=KIND      DWARF in the object code: full (-g) or line-tables,
                             with lines of the ops' file locations
  --location-snapshot=STAGE  rewrite op locations to their lines in STAGE's
                             output, written next to the first -o file
                             (m.o: m.04-llvm.mlir), for input whose locations
                             are only names
  --bisect-actions           find the first pattern application without which
                             the compiled functions match --reference; prints it
  --reference=FILE.npz       inputs and expected results (keys FUNC/argN,
                             FUNC/resultN) for --bisect-actions
  --rtol=X --atol=Y          tolerance of --bisect-actions (1e-5, 1e-6)
  --write-if-changed         leave an output that already holds the same bytes
                             untouched (time stamp included), for build tools
  --list-stages              list the stages and their default passes
  --version                  print the version
  --help                     print this help

exit status: 0 on success, 1 on an error in the input or the options.
)";
}

static Error bad(const std::string &message) {
  return Error::message(message + " (see aot-compile --help)");
}

Expected<Options> parseOptions(const std::vector<std::string> &args) {
  Options o;
  DebugOptions debug;
  std::vector<std::string> outputs;
  std::optional<EmitKind> emit;
  bool stageFormatGiven = false;
  auto stageValue = [](const std::string &flag,
                       const std::string &v) -> Expected<Stage> {
    if (auto s = parseStage(v))
      return *s;
    return bad("unknown stage '" + v + "' in " + flag +
               "; --list-stages shows the stages");
  };
  // Options whose value is a file or directory: it may not be empty.
  const std::pair<std::string, std::string *> pathOptions[] = {
      {"--log-actions-to", &debug.logActionsTo},
      {"--profile-actions-to", &debug.profileActionsTo},
      {"--timing", &debug.timingTo},
      {"--print-ir-after-all", &debug.printIrAfterAllDir},
      {"--reproducer", &debug.reproducerTo},
      {"--reference", &o.reference}};
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const std::string &prefix) -> std::optional<std::string> {
      if (a.rfind(prefix, 0) == 0)
        return a.substr(prefix.size());
      return std::nullopt;
    };
    auto path = std::find_if(
        std::begin(pathOptions), std::end(pathOptions),
        [&](const auto &option) { return value(option.first + "="); });
    if (path != std::end(pathOptions)) {
      std::string v = *value(path->first + "=");
      if (v.empty())
        return bad(path->first + " needs a path");
      *path->second = std::move(v);
      continue;
    }
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (auto v = value("--log-actions-filter=")) {
      debug.logActionsFilter.push_back(*v);
    } else if (auto v = value("--skip-actions=")) {
      debug.skipActions.push_back(*v);
    } else if (a == "--print-ir-after-change") {
      debug.printIrAfterChange = true;
    } else if (a == "-g") {
      debug.debugInfo = DebugInfo::Full;
    } else if (auto v = value("--debug-info=")) {
      if (*v == "full")
        debug.debugInfo = DebugInfo::Full;
      else if (*v == "line-tables")
        debug.debugInfo = DebugInfo::LineTables;
      else if (*v == "none")
        debug.debugInfo = DebugInfo::None;
      else
        return bad("unknown --debug-info kind '" + *v +
                   "': use line-tables, full or none");
    } else if (auto v = value("--location-snapshot=")) {
      auto s = stageValue("--location-snapshot", *v);
      if (!s)
        return s.error();
      debug.locationSnapshot = *s;
    } else if (auto v = value("--stage-format=")) {
      if (*v != "text" && *v != "bytecode")
        return bad("unknown --stage-format '" + *v + "': use text or bytecode");
      o.stagesAsBytecode = *v == "bytecode";
      stageFormatGiven = true;
    } else if (auto v = value("--bytecode-version=")) {
      if (v->empty() || v->size() > 9 ||
          v->find_first_not_of("0123456789") != std::string::npos)
        return bad("--bytecode-version needs a number, got '" + *v + "'");
      debug.bytecodeVersion = std::stoi(*v);
    } else if (a == "--bisect-actions") {
      o.bisectActions = true;
    } else if (auto v = value("--rtol="); v || (v = value("--atol="))) {
      char *end = nullptr;
      double x = std::strtod(v->c_str(), &end);
      if (v->empty() || *end || !(x >= 0))
        return bad("'" + a + "' needs a non-negative number");
      (a[2] == 'r' ? o.rtol : o.atol) = x;
    } else if (a == "--write-if-changed") {
      o.writeIfChanged = true;
    } else if (a == "--list-stages") {
      o.listStages = true;
    } else if (a == "-o") {
      if (i + 1 >= args.size())
        return bad("-o needs a file name");
      outputs.push_back(args[++i]);
    } else if (a.size() == 3 && a[0] == '-' && a[1] == 'O') {
      if (a[2] < '0' || a[2] > '3')
        return bad("unknown optimisation level '" + a + "': use -O0..-O3");
      o.pipeline.optLevel(a[2] - '0');
    } else if (auto v = value("--emit=")) {
      emit = parseEmitKind(*v);
      if (!emit)
        return bad("unknown --emit kind '" + *v + "'");
    } else if (auto v = value("--target=")) {
      auto t = Target::parse(*v);
      if (!t)
        return t.error();
      o.target = *t;
    } else if (auto v = value("--compile-to=")) {
      auto s = stageValue("--compile-to", *v);
      if (!s)
        return s.error();
      o.pipeline.compileTo(*s);
    } else if (auto v = value("--compile-from=")) {
      auto s = stageValue("--compile-from", *v);
      if (!s)
        return s.error();
      o.pipeline.compileFrom(*s);
    } else if (auto v = value("--stage-pipeline=")) {
      size_t eq = v->find('=');
      if (eq == std::string::npos)
        return bad("--stage-pipeline needs STAGE=PASSES, got '" + *v + "'");
      auto s = stageValue("--stage-pipeline", v->substr(0, eq));
      if (!s)
        return s.error();
      o.pipeline.setStagePasses(*s, v->substr(eq + 1));
    } else if (auto v = value("--dump-stages=")) {
      if (v->empty())
        return bad("--dump-stages needs a directory");
      o.dumpStagesDir = *v;
    } else if (a.size() > 1 && a[0] == '-') {
      return bad("unknown option '" + a + "'");
    } else if (o.input.empty()) {
      o.input = a;
    } else {
      return bad("more than one input file: '" + o.input + "' and '" + a + "'");
    }
  }
  o.pipeline.debug(std::move(debug));
  if (o.help || o.version || o.listStages)
    return o;
  if (o.input.empty())
    return bad("no input file");
  if (o.bisectActions != !o.reference.empty())
    return bad("--bisect-actions and --reference=FILE go together");
  if (outputs.empty() && o.dumpStagesDir.empty() && !o.bisectActions)
    return bad("no output: give -o FILE or --dump-stages=DIR");
  if (outputs.size() > 1 && emit)
    return bad("--emit names the kind of a single -o; with several outputs "
               "each kind follows its file's extension");
  for (const std::string &path : outputs) {
    if (path == "-" && outputs.size() > 1)
      return bad("'-o -' cannot be combined with other outputs");
    std::optional<EmitKind> kind = emit;
    if (!kind && path == "-")
      return bad("'-o -' needs --emit=KIND");
    if (!kind)
      kind = emitKindForPath(path);
    if (!kind)
      return bad("cannot tell the output kind of '" + path +
                 "' from its extension; add --emit=KIND");
    o.outputs.push_back({path, *kind});
  }
  if (stageFormatGiven && o.dumpStagesDir.empty())
    return bad("--stage-format needs --dump-stages=DIR");
  if (std::optional<Stage> stage = o.pipeline.debug().locationSnapshot) {
    auto beside = std::find_if(outputs.begin(), outputs.end(),
                               [](const std::string &p) { return p != "-"; });
    if (beside == outputs.end())
      return bad("--location-snapshot writes its file next to the output: "
                 "give -o FILE");
    // An absolute path, so that the line tables lead a debugger to the file
    // from any working directory.
    std::filesystem::path path = std::filesystem::absolute(*beside);
    path.replace_filename(path.stem().string() + "." + stageFileName(*stage));
    DebugOptions withPath = o.pipeline.debug();
    withPath.locationSnapshotTo = path.lexically_normal().string();
    o.pipeline.debug(std::move(withPath));
  }
  if (Status s = o.pipeline.validate(); !s)
    return s.error();
  return o;
}

} // namespace aot::cli
