//===- ActionTracer.cpp - one compile's MLIR action handler ---------------===//
#include "Debug/ActionTracer.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>

namespace aot {

static std::optional<std::int64_t> parseInt(llvm::StringRef text) {
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.begin(), text.end(), v);
  if (text.empty() || ec != std::errc() || ptr != text.end())
    return std::nullopt;
  return v;
}

Expected<LocationFilter> parseLocationFilter(const std::string &spec) {
  auto bad = [&] {
    return Error::message("--log-actions-filter '" + spec +
                          "' is not FILE:LINE or FILE:LINE:COL");
  };
  llvm::StringRef rest(spec);
  auto [head, last] = rest.rsplit(':');
  if (last.empty() || head.empty() || head == rest)
    return bad();
  std::optional<std::int64_t> lastNumber = parseInt(last);
  if (!lastNumber || *lastNumber <= 0)
    return bad();
  LocationFilter f;
  auto [file, middle] = head.rsplit(':');
  std::optional<std::int64_t> middleNumber =
      file != head ? parseInt(middle) : std::nullopt;
  if (middleNumber && *middleNumber > 0 && !file.empty()) {
    f.file = file.str();
    f.line = unsigned(*middleNumber);
    f.column = unsigned(*lastNumber);
  } else {
    f.file = head.str();
    f.line = unsigned(*lastNumber);
  }
  return f;
}

Expected<SkipCounter> parseSkipCounter(const std::string &spec) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  llvm::StringRef(spec).split(parts, ':');
  std::optional<std::int64_t> skip, count;
  if (parts.size() == 3) {
    skip = parseInt(parts[1]);
    count = parseInt(parts[2]);
  }
  if (parts.size() != 3 || parts[0].empty() || !skip || !count || *skip < 0 ||
      *count < -1)
    return Error::message("--skip-actions '" + spec +
                          "' is not TAG:SKIP:COUNT (SKIP >= 0, COUNT >= -1, "
                          "e.g. apply-pattern:10:1)");
  SkipCounter c;
  c.tag = parts[0].str();
  c.skip = *skip;
  c.count = *count;
  return c;
}

ActionTracer::ActionTracer(bool log, bool profile,
                           std::vector<LocationFilter> filters,
                           std::vector<SkipCounter> counters)
    : logEnabled_(log), profileEnabled_(profile), filters_(std::move(filters)),
      counters_(std::move(counters)), start_(std::chrono::steady_clock::now()) {
}

void ActionTracer::install(mlir::MLIRContext &context) {
  context.registerActionHandler([this](llvm::function_ref<void()> transform,
                                       const mlir::tracing::Action &action) {
    handle(transform, action);
  });
}

double ActionTracer::nowMicros() const {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - start_)
      .count();
}

bool ActionTracer::skippedByCounters(llvm::StringRef tag) {
  bool skip = false;
  for (SkipCounter &c : counters_) {
    if (c.tag != tag)
      continue;
    std::int64_t n = ++c.seen;
    if (n <= c.skip || (c.count >= 0 && n > c.skip + c.count))
      skip = true;
  }
  return skip;
}

/// The operation an IR unit belongs to.
static mlir::Operation *operationOf(const mlir::IRUnit &unit) {
  if (auto *op = llvm::dyn_cast_if_present<mlir::Operation *>(unit))
    return op;
  if (auto *region = llvm::dyn_cast_if_present<mlir::Region *>(unit))
    return region->getParentOp();
  if (auto *block = llvm::dyn_cast_if_present<mlir::Block *>(unit))
    return block->getParentOp();
  return nullptr;
}

/// The first file location inside `loc` (through names, fusions, calls).
static std::optional<mlir::FileLineColRange> fileLocation(mlir::Location loc) {
  std::optional<mlir::FileLineColRange> found;
  loc->walk([&](mlir::Location l) {
    if (auto f = llvm::dyn_cast<mlir::FileLineColRange>(l)) {
      found = f;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return found;
}

static std::string fileLineColumn(mlir::Location loc) {
  auto f = fileLocation(loc);
  if (!f)
    return "";
  return f->getFilename().str() + ":" + std::to_string(f->getStartLine()) +
         ":" + std::to_string(f->getStartColumn());
}

/// Whether the file named in a location is the filter's file: the same
/// path, or one ending in "/" + the filter's path.
static bool sameFile(llvm::StringRef located, llvm::StringRef wanted) {
  return located == wanted ||
         (located.ends_with(wanted) &&
          located[located.size() - wanted.size() - 1] == '/');
}

static bool matches(const LocationFilter &filter, mlir::Location loc) {
  bool hit = false;
  loc->walk([&](mlir::Location l) {
    auto f = llvm::dyn_cast<mlir::FileLineColRange>(l);
    if (f && f.getStartLine() == filter.line &&
        (!filter.column || f.getStartColumn() == *filter.column) &&
        sameFile(f.getFilename().getValue(), filter.file)) {
      hit = true;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return hit;
}

void ActionTracer::handle(llvm::function_ref<void()> transform,
                          const mlir::tracing::Action &action) {
  std::int64_t index = ++index_;
  bool skip = skippedByCounters(action.getTag());

  mlir::Operation *op = nullptr;
  for (const mlir::IRUnit &unit : action.getContextIRUnits())
    if ((op = operationOf(unit)))
      break;
  bool wanted = filters_.empty();
  for (const LocationFilter &f : filters_)
    wanted |= op && matches(f, op->getLoc());

  std::string description;
  if (logEnabled_ || profileEnabled_ || control_) {
    llvm::raw_string_ostream os(description);
    action.print(os);
  }
  std::string opName = op ? op->getName().getStringRef().str() : "";
  std::string loc = op ? fileLineColumn(op->getLoc()) : "";

  if (control_) {
    ActionInfo info;
    info.index = index;
    info.tag = action.getTag().str();
    info.description = description;
    info.op = opName;
    info.location = loc;
    if (!passes_.empty()) {
      info.passExecution = passes_.back().index;
      info.ordinalInPass = passes_.back().ordinals[info.tag]++;
    }
    if (control_(info))
      skip = true;
  }
  const bool isPass = action.getTag() == "pass-execution";
  if (isPass)
    passes_.push_back({index, {}});

  if (logEnabled_ && wanted) {
    llvm::raw_string_ostream os(log_);
    os << "[" << index << "] " << std::string(2 * depth_, ' ') << description;
    // Pass executions name their op already.
    if (op && !isPass)
      os << " on '" << opName << "'";
    if (!loc.empty())
      os << " at " << loc;
    if (skip)
      os << " (skipped)";
    os << "\n";
  }
  auto event = [&](const char *phase) {
    llvm::json::Object e{{"name", description},
                         {"cat", action.getTag().str()},
                         {"ph", phase},
                         {"ts", nowMicros()},
                         {"pid", 1},
                         {"tid", 1}};
    if (phase[0] == 'B') {
      llvm::json::Object args{{"index", index}, {"skipped", skip}};
      if (op)
        args["op"] = opName;
      if (!loc.empty())
        args["loc"] = loc;
      e["args"] = std::move(args);
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::json::Value(std::move(e));
    events_.push_back(std::move(text));
  };
  if (profileEnabled_)
    event("B");
  ++depth_;
  if (!skip)
    transform();
  --depth_;
  if (isPass)
    passes_.pop_back();
  if (profileEnabled_)
    event("E");
}

std::string ActionTracer::chromeTrace() const {
  std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  for (size_t i = 0; i < events_.size(); ++i)
    out += events_[i] + (i + 1 < events_.size() ? ",\n" : "\n");
  return out + "]}\n";
}

} // namespace aot
