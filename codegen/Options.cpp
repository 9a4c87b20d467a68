//===- Options.cpp - parsing aot-compile's command line -------------------===//
#include "Options.h"

#include "Support/ToolOptions.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <set>
#include <utility>

namespace aot::cli {

std::string usage() {
  return R"(usage: aot-compile INPUT -o OUTPUT [options]

Compiles an MLIR module (.mlir text or .mlirbc bytecode, told apart by
content) or an ONNX model (.onnx, or --input-format=onnx) ahead of time.
The kind of OUTPUT follows its extension:
  .o object  .a static-lib  .so shared-lib  .ll llvm-ir  .s asm
  .mlir mlir  .mlirbc bytecode  .h header  .json manifest
  .ptx ptx  .cubin cubin (the GPU kernels alone, cuda targets)
'-o -' writes text kinds to standard output.

options:
  -o FILE                    output file; repeat -o to write several kinds
                             from one compile (-o m.o -o m.h -o m.json)
  --emit=KIND                object|static-lib|shared-lib|llvm-ir|asm|mlir|
                             bytecode|header|manifest|ptx|cubin (overrides
                             the extension of a single -o)
  -O0 -O1 -O2 -O3            optimisation level (default -O2)
  -jN, --jobs=N              threads for the passes that run per function
                             (default: the CPUs this process may use); the
                             output is the same for any N
  --threads=N                threads the compiled code runs its parallel
                             loops on, through OpenMP (libomp): 0 (default)
                             = the runtime's count when it runs (the CPUs
                             the process may use, or OMP_NUM_THREADS);
                             1 = sequential, no runtime needed
  --input-format=FORMAT      mlir|onnx: how to read INPUT (default: an
                             .onnx file is ONNX, anything else MLIR)
  --module-name=NAME         the module's name (header namespace, manifest);
                             default: the name an earlier stage's compile
                             gave it, else the input file's stem
  --external-weights=FILE    keep constants of 1 KiB or more out of the code,
                             in the safetensors file FILE, which the code
                             maps when it first runs (written when the
                             compile reaches llvm-ir)
  --external-weights-min-bytes=N
                             the smallest constant kept in FILE (default 1024)
  --target=SPEC              host (default), cpu:TRIPLE[,cpu=NAME][,features=LIST]
                             or cuda:CHIP[,ptx=NN][,features=LIST] (NVIDIA
                             GPU kernels with host code for this machine)
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
  --verify-each              verify the IR after every pass (on with
                             --print-ir-after-all and --reproducer), not once
                             per stage
  -g, --debug-info=KIND      DWARF in the object code: full (-g) or line-tables,
                             with lines of the ops' file locations
  --location-snapshot=STAGE  rewrite op locations to their lines in STAGE's
                             output, written next to the first -o file
                             (m.o: m.04-llvm.mlir), for input whose locations
                             are only names
  --dump-kernels=DIR         GPU targets: each kernel as NAME.mlir (gpu.func),
                             NAME.ll, NAME.opt.ll, NAME.ptx, NAME.cubin and
                             NAME.json (source location, grid and block sizes,
                             shared memory, registers)
  --substitute-kernel=NAME=FILE
                             GPU targets: use FILE (.ptx or .cubin) for kernel
                             NAME; it must have the kernel's parameters
                             (repeatable)
  --trace-kernels-to=DIR     GPU targets: the compiled code writes what each
                             kernel launch wrote to DIR/NNNN-KERNEL.npz and a
                             line per launch to DIR/launches.jsonl
  --diff-traces DIR1 DIR2    compare two --trace-kernels-to directories launch
                             by launch and name the first launch whose
                             buffers differ (tolerance: --rtol, --atol)
  --bisect-actions           find the first pattern application without which
                             the compiled functions match --reference; prints it
  --reference=FILE.npz       inputs and expected results (keys FUNC/argN,
                             FUNC/resultN) for --bisect-actions
  --rtol=X --atol=Y          tolerance of --bisect-actions and --diff-traces
                             (1e-5, 1e-6)
  --write-if-changed         leave an output that already holds the same bytes
                             untouched (time stamp included), for build tools
  --cache-dir=DIR            reuse the outputs of an identical earlier compile
                             (same input bytes, options, output kinds and
                             compiler) kept in DIR, and keep this one's there;
                             default: $AOT_CACHE_DIR, else no cache
  --no-cache                 compile even when a cache directory is set
  --cache-report             say on stderr whether the cache had the compile
  --print-manifest           print the manifest embedded in INPUT, a .o, .a
                             or .so that aot-compile wrote, as JSON
  --list-stages              list the stages of the target's back end (of
                             --target, default host) and their default passes
  --version                  print the version
  --help                     print this help

exit status: 0 on success, 1 on an error in the input or the options.
)";
}

namespace {

const options::CommandLine kCommandLine("aot-compile");

Error bad(const std::string &message) { return kCommandLine.bad(message); }

/// What the arguments say, before the checks that need all of them.
struct Parsed {
  Options o;
  DebugOptions debug;
  std::vector<std::string> outputs;
  std::optional<EmitKind> emit;
  bool stageFormatGiven = false;
  bool compileToGiven = false;
};

/// A handled option's outcome; nullopt: the argument is not in the group.
using Handled = std::optional<Status>;

/// `text` as a number when it is 1 to `maxDigits` decimal digits.
std::optional<int> digits(const std::string &text, std::size_t maxDigits) {
  if (text.empty() || text.size() > maxDigits ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoi(text);
}

Expected<Stage> stageValue(const std::string &flag, const std::string &v) {
  if (auto s = parseAnyStage(v))
    return *s;
  return bad("unknown stage '" + v + "' in " + flag +
             "; --list-stages shows the stages");
}

/// Options whose value names a file or a directory; it may not be empty.
Handled parsePathOption(const std::string &a, Parsed &p) {
  struct PathOption {
    const char *flag;
    std::string *slot;
    bool directory;
  };
  const PathOption pathOptions[] = {
      {"--log-actions-to", &p.debug.logActionsTo, false},
      {"--profile-actions-to", &p.debug.profileActionsTo, false},
      {"--timing", &p.debug.timingTo, false},
      {"--print-ir-after-all", &p.debug.printIrAfterAllDir, true},
      {"--reproducer", &p.debug.reproducerTo, false},
      {"--reference", &p.o.reference, false},
      {"--dump-stages", &p.o.dumpStagesDir, true},
      {"--dump-kernels", &p.debug.dumpKernelsDir, true},
      {"--trace-kernels-to", &p.debug.traceKernelsTo, true},
      {"--cache-dir", &p.o.cacheDir, true}};
  for (const PathOption &option : pathOptions) {
    std::optional<std::string> v =
        options::valueAfter(a, std::string(option.flag) + "=");
    if (!v)
      continue;
    Expected<std::string> path = option.directory
                                     ? kCommandLine.directory(option.flag, *v)
                                     : kCommandLine.fileName(option.flag, *v);
    if (!path)
      return Status(path.error());
    *option.slot = std::move(*path);
    return Status::ok();
  }
  return std::nullopt;
}

/// The debugging instruments (--log-actions-filter, -g, ...).
Handled parseDebugOption(const std::string &a, Parsed &p) {
  auto value = [&](std::string_view prefix) {
    return options::valueAfter(a, prefix);
  };
  DebugOptions &debug = p.debug;
  if (auto v = value("--log-actions-filter=")) {
    debug.logActionsFilter.push_back(*v);
  } else if (auto v = value("--skip-actions=")) {
    debug.skipActions.push_back(*v);
  } else if (a == "--print-ir-after-change") {
    debug.printIrAfterChange = true;
  } else if (a == "--verify-each") {
    debug.verifyEachPass = true;
  } else if (auto v = value("--substitute-kernel=")) {
    size_t eq = v->find('=');
    if (eq == 0 || eq == std::string::npos || eq + 1 == v->size())
      return Status(bad("--substitute-kernel needs NAME=FILE.ptx or "
                        "NAME=FILE.cubin, got '" +
                        *v + "'"));
    debug.substituteKernels.emplace_back(v->substr(0, eq), v->substr(eq + 1));
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
      return Status(bad("unknown --debug-info kind '" + *v +
                        "': use line-tables, full or none"));
  } else if (auto v = value("--location-snapshot=")) {
    auto s = stageValue("--location-snapshot", *v);
    if (!s)
      return Status(s.error());
    debug.locationSnapshot = *s;
  } else if (auto v = value("--bytecode-version=")) {
    std::optional<int> n = digits(*v, 9);
    if (!n)
      return Status(bad("--bytecode-version needs a number, got '" + *v + "'"));
    debug.bytecodeVersion = *n;
  } else {
    return std::nullopt;
  }
  return Status::ok();
}

/// What the compile does: -O, --target and the stage options.
Handled parsePipelineOption(const std::string &a, Parsed &p) {
  auto value = [&](std::string_view prefix) {
    return options::valueAfter(a, prefix);
  };
  Options &o = p.o;
  if (a.size() == 3 && a[0] == '-' && a[1] == 'O') {
    if (a[2] < '0' || a[2] > '3')
      return Status(
          bad("unknown optimisation level '" + a + "': use -O0..-O3"));
    o.pipeline.optLevel(a[2] - '0');
  } else if (a.rfind("-j", 0) == 0 || a.rfind("--jobs=", 0) == 0) {
    std::optional<int> n = digits(a.substr(a[1] == 'j' ? 2 : 7), 4);
    if (!n || *n == 0)
      return Status(bad("-j needs a thread count of 1 or more (-j2, "
                        "--jobs=2), got '" +
                        a + "'"));
    o.pipeline.threads(unsigned(*n));
  } else if (auto v = value("--threads=")) {
    std::optional<int> n = digits(*v, 4);
    if (!n)
      return Status(bad("--threads needs a thread count (0 for the OpenMP "
                        "runtime's, 1 for none), got '" +
                        a + "'"));
    o.pipeline.runThreads(unsigned(*n));
  } else if (auto v = value("--module-name=")) {
    o.pipeline.moduleName(*v);
  } else if (auto v = value("--input-format=")) {
    auto format = kCommandLine.inputFormat(*v);
    if (!format)
      return Status(format.error());
    o.inputFormat = *format;
  } else if (auto v = value("--external-weights=")) {
    if (v->empty())
      return Status(bad("--external-weights needs a file name"));
    o.pipeline.externalWeights(*v, o.pipeline.externalWeightsMinBytes());
  } else if (auto v = value("--external-weights-min-bytes=")) {
    std::optional<int> n = digits(*v, 9);
    if (!n || *n == 0)
      return Status(bad("--external-weights-min-bytes needs a size in bytes "
                        "of 1 or more, got '" +
                        *v + "'"));
    o.pipeline.externalWeights(o.pipeline.externalWeightsFile(),
                               std::uint64_t(*n));
  } else if (auto v = value("--target=")) {
    auto t = Target::parse(*v);
    if (!t)
      return Status(t.error());
    o.target = *t;
  } else if (auto v = value("--compile-to=")) {
    auto s = stageValue("--compile-to", *v);
    if (!s)
      return Status(s.error());
    o.pipeline.compileTo(*s);
    p.compileToGiven = true;
  } else if (auto v = value("--compile-from=")) {
    auto s = stageValue("--compile-from", *v);
    if (!s)
      return Status(s.error());
    o.pipeline.compileFrom(*s);
  } else if (auto v = value("--stage-pipeline=")) {
    size_t eq = v->find('=');
    if (eq == std::string::npos)
      return Status(
          bad("--stage-pipeline needs STAGE=PASSES, got '" + *v + "'"));
    auto s = stageValue("--stage-pipeline", v->substr(0, eq));
    if (!s)
      return Status(s.error());
    o.pipeline.setStagePasses(*s, v->substr(eq + 1));
  } else {
    return std::nullopt;
  }
  return Status::ok();
}

/// What is written and how, and the modes other than compiling.
Handled parseOutputOption(const std::string &a, Parsed &p) {
  auto value = [&](std::string_view prefix) {
    return options::valueAfter(a, prefix);
  };
  Options &o = p.o;
  if (a == "--help" || a == "-h") {
    o.help = true;
  } else if (a == "--version") {
    o.version = true;
  } else if (a == "--list-stages") {
    o.listStages = true;
  } else if (a == "--print-manifest") {
    o.printManifest = true;
  } else if (a == "--write-if-changed") {
    o.writeIfChanged = true;
  } else if (a == "--no-cache") {
    o.noCache = true;
  } else if (a == "--cache-report") {
    o.cacheReport = true;
  } else if (auto v = value("--emit=")) {
    p.emit = parseEmitKind(*v);
    if (!p.emit)
      return Status(bad("unknown --emit kind '" + *v + "'"));
  } else if (auto v = value("--stage-format=")) {
    if (*v != "text" && *v != "bytecode")
      return Status(
          bad("unknown --stage-format '" + *v + "': use text or bytecode"));
    o.stagesAsBytecode = *v == "bytecode";
    p.stageFormatGiven = true;
  } else if (a == "--bisect-actions") {
    o.bisectActions = true;
  } else if (auto v = value("--rtol=")) {
    auto x = kCommandLine.tolerance("--rtol", *v);
    if (!x)
      return Status(x.error());
    o.rtol = *x;
  } else if (auto v = value("--atol=")) {
    auto x = kCommandLine.tolerance("--atol", *v);
    if (!x)
      return Status(x.error());
    o.atol = *x;
  } else {
    return std::nullopt;
  }
  return Status::ok();
}

/// Goes through the arguments in order; the first bad one is the error.
Status parseArguments(const std::vector<std::string> &args, Parsed &p) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "-o") {
      if (i + 1 >= args.size())
        return bad("-o needs a file name");
      p.outputs.push_back(args[++i]);
      continue;
    }
    if (a == "--diff-traces") {
      if (i + 2 >= args.size())
        return bad("--diff-traces needs two directories written by "
                   "--trace-kernels-to");
      p.o.diffTraces = {args[i + 1], args[i + 2]};
      i += 2;
      continue;
    }
    Handled handled = parsePathOption(a, p);
    if (!handled)
      handled = parseDebugOption(a, p);
    if (!handled)
      handled = parsePipelineOption(a, p);
    if (!handled)
      handled = parseOutputOption(a, p);
    if (handled) {
      if (!*handled)
        return *handled;
    } else if (a.size() > 1 && a[0] == '-') {
      return bad("unknown option '" + a + "'");
    } else if (p.o.input.empty()) {
      p.o.input = a;
    } else {
      return bad("more than one input file: '" + p.o.input + "' and '" + a +
                 "'");
    }
  }
  return Status::ok();
}

/// The kind of each -o, from --emit or the file's extension.
Status resolveOutputs(Parsed &p) {
  if (p.outputs.size() > 1 && p.emit)
    return bad("--emit names the kind of a single -o; with several outputs "
               "each kind follows its file's extension");
  for (const std::string &path : p.outputs) {
    if (path == "-" && p.outputs.size() > 1)
      return bad("'-o -' cannot be combined with other outputs");
    std::optional<EmitKind> kind = p.emit;
    if (!kind && path == "-")
      return bad("'-o -' needs --emit=KIND");
    if (!kind)
      kind = emitKindForPath(path);
    if (!kind)
      return bad("cannot tell the output kind of '" + path +
                 "' from its extension; add --emit=KIND");
    p.o.outputs.push_back({path, *kind});
  }
  return Status::ok();
}

/// Only kernels asked for (-o k.ptx, -o k.cubin, no stage dumps): the compile
/// stops once they are made, without compiling the host code.
void stopAfterKernels(Parsed &p) {
  if (p.compileToGiven || p.o.outputs.empty() || !p.o.dumpStagesDir.empty() ||
      p.o.target.kind != Target::Kind::Cuda)
    return;
  for (const Options::Output &out : p.o.outputs)
    if (out.kind != EmitKind::Ptx && out.kind != EmitKind::Cubin)
      return;
  p.o.pipeline.compileTo(Stage("cubin"));
}

/// --location-snapshot: the file goes next to the first -o file.
Status resolveLocationSnapshot(Parsed &p) {
  std::optional<Stage> stage = p.o.pipeline.debug().locationSnapshot;
  if (!stage)
    return Status::ok();
  auto beside = std::find_if(p.outputs.begin(), p.outputs.end(),
                             [](const std::string &f) { return f != "-"; });
  if (beside == p.outputs.end())
    return bad("--location-snapshot writes its file next to the output: "
               "give -o FILE");
  // An absolute path, so that the line tables lead a debugger to the file
  // from any working directory.
  std::filesystem::path path = std::filesystem::absolute(*beside);
  path.replace_filename(path.stem().string() + "." +
                        stageFileName(*stage, /*bytecode=*/false, p.o.target));
  DebugOptions withPath = p.o.pipeline.debug();
  withPath.locationSnapshotTo = path.lexically_normal().string();
  p.o.pipeline.debug(std::move(withPath));
  return Status::ok();
}

/// The stage files --dump-stages=DIR may write: an input among them would
/// be overwritten by its own dump.
std::vector<options::NamedFile> stageDumpFiles(const Options &o) {
  std::vector<options::NamedFile> files;
  if (o.dumpStagesDir.empty())
    return files;
  std::set<std::string> names;
  for (const StageInfo &info : stagesOf(o.target))
    for (bool bytecode : {false, true})
      names.insert(stageFileName(info.stage, bytecode, o.target));
  for (const std::string &name : names)
    files.push_back({"--dump-stages",
                     (std::filesystem::path(o.dumpStagesDir) / name).string()});
  return files;
}

/// Whether `name` ends in `suffix`.
bool endsWith(const std::string &name, std::string_view suffix) {
  return name.size() >= suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The directories the compile (and, for a kernel trace, the compiled code)
/// writes files into whose names it chooses as it goes.
std::vector<options::NamedDirectory> writtenDirectories(const Options &o) {
  const DebugOptions &debug = o.pipeline.debug();
  std::vector<options::NamedDirectory> dirs;
  if (!debug.dumpKernelsDir.empty())
    dirs.push_back(
        {"--dump-kernels", debug.dumpKernelsDir, [](const std::string &name) {
           return name.find('/') == std::string::npos &&
                  (endsWith(name, ".ll") || endsWith(name, ".ptx") ||
                   endsWith(name, ".cubin"));
         }});
  if (!debug.traceKernelsTo.empty())
    dirs.push_back({"--trace-kernels-to", debug.traceKernelsTo,
                    [](const std::string &name) {
                      return name == "launches.jsonl" ||
                             (name.find('/') == std::string::npos &&
                              endsWith(name, ".npz"));
                    }});
  if (!debug.printIrAfterAllDir.empty()) {
    // One directory per stage, named after the stage's file.
    std::set<std::string> stems;
    for (const StageInfo &info : stagesOf(o.target)) {
      std::string file = stageFileName(info.stage, false, o.target);
      stems.insert(file.substr(0, file.find('.')));
    }
    dirs.push_back({"--print-ir-after-all", debug.printIrAfterAllDir,
                    [stems](const std::string &name) {
                      return stems.count(name.substr(0, name.find('/'))) != 0;
                    }});
  }
  return dirs;
}

/// No output may be an input, no two outputs one file, and no directory the
/// compile writes may hold an input or an output: checked before anything
/// is compiled or written, so a mistyped -o never costs a source.
Status checkFiles(const Options &o) {
  const DebugOptions &debug = o.pipeline.debug();
  std::vector<options::NamedFile> inputs = {{"the input", o.input}};
  if (!o.reference.empty())
    inputs.push_back({"--reference", o.reference});
  for (const auto &[kernel, file] : debug.substituteKernels)
    inputs.push_back({"--substitute-kernel", file});
  std::vector<options::NamedFile> outputs;
  for (const Options::Output &out : o.outputs)
    outputs.push_back({"-o", out.path});
  const std::pair<const char *, const std::string *> files[] = {
      {"--external-weights", &o.pipeline.externalWeightsFile()},
      {"--location-snapshot", &debug.locationSnapshotTo},
      {"--log-actions-to", &debug.logActionsTo},
      {"--profile-actions-to", &debug.profileActionsTo},
      {"--timing", &debug.timingTo},
      {"--reproducer", &debug.reproducerTo}};
  for (const auto &[flag, path] : files)
    if (!path->empty())
      outputs.push_back({flag, *path});
  // The stage dumps are outputs like the others: an output may be a copy of
  // a stage written into the same directory, but not onto the dump's file.
  for (options::NamedFile &dump : stageDumpFiles(o))
    outputs.push_back(std::move(dump));
  return options::checkOutputFiles(inputs, outputs, writtenDirectories(o));
}

} // namespace

Expected<Options> parseOptions(const std::vector<std::string> &args) {
  Parsed p;
  if (Status s = parseArguments(args, p); !s)
    return s.error();
  Options &o = p.o;
  o.pipeline.debug(std::move(p.debug));
  if (o.help || o.version || o.listStages)
    return o;
  if (!o.diffTraces.empty()) {
    if (!o.input.empty() || !p.outputs.empty())
      return bad("--diff-traces compares two trace directories; it takes no "
                 "input file and no -o");
    return o;
  }
  if (o.input.empty())
    return bad(o.printManifest ? "--print-manifest needs a compiled file (.o, "
                                 ".a or .so) as its input"
                               : "no input file");
  if (o.printManifest) {
    if (!p.outputs.empty())
      return bad("--print-manifest prints to standard output; it takes no -o");
    return o;
  }
  if (o.bisectActions != !o.reference.empty())
    return bad("--bisect-actions and --reference=FILE go together");
  if (p.outputs.empty() && o.dumpStagesDir.empty() && !o.bisectActions)
    return bad("no output: give -o FILE or --dump-stages=DIR");
  if (Status s = resolveOutputs(p); !s)
    return s.error();
  stopAfterKernels(p);
  if (p.stageFormatGiven && o.dumpStagesDir.empty())
    return bad("--stage-format needs --dump-stages=DIR");
  if (Status s = resolveLocationSnapshot(p); !s)
    return s.error();
  if (Status s = o.pipeline.validate(o.target); !s)
    return s.error();
  if (Status s = checkFiles(o); !s)
    return s.error();
  return o;
}

} // namespace aot::cli
