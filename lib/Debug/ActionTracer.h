//===- ActionTracer.h - one compile's MLIR action handler -----------------===//
//
// Handles every MLIR action of one context: numbers it, decides through the
// debug counters whether it runs, and records it in the log and the Chrome
// trace. Installed per context, so concurrent compiles stay apart.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Debug.h"
#include "aot/Diagnostics.h"

#include "mlir/IR/Action.h"
#include "mlir/IR/MLIRContext.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aot {

/// FILE:LINE[:COL] of --log-actions-filter.
struct LocationFilter {
  std::string file;
  unsigned line = 0;
  std::optional<unsigned> column;
};

/// TAG:SKIP:COUNT of --skip-actions.
struct SkipCounter {
  std::string tag;
  std::int64_t skip = 0;
  std::int64_t count = -1;
  std::int64_t seen = 0;
};

Expected<LocationFilter> parseLocationFilter(const std::string &spec);
Expected<SkipCounter> parseSkipCounter(const std::string &spec);

/// The action handler. Construct, then install() on the context; the
/// context must not outlive it.
class ActionTracer {
public:
  ActionTracer(bool log, bool profile, std::vector<LocationFilter> filters,
               std::vector<SkipCounter> counters);

  /// See DebugOptions::actionControl.
  void setControl(std::function<bool(const ActionInfo &)> control) {
    control_ = std::move(control);
  }
  void install(mlir::MLIRContext &context);

  /// The log text so far.
  const std::string &log() const { return log_; }
  /// The Chrome trace JSON of everything so far (complete document).
  std::string chromeTrace() const;
  /// How many actions ran or were skipped.
  std::int64_t actionCount() const { return index_; }

private:
  void handle(llvm::function_ref<void()> transform,
              const mlir::tracing::Action &action);
  bool skippedByCounters(llvm::StringRef tag);
  double nowMicros() const;

  bool logEnabled_, profileEnabled_;
  std::vector<LocationFilter> filters_;
  std::vector<SkipCounter> counters_;
  std::function<bool(const ActionInfo &)> control_;
  /// Innermost last: the index of each running pass-execution action and
  /// how many actions of each tag ran inside it so far.
  struct PassFrame {
    std::int64_t index;
    std::map<std::string, std::int64_t, std::less<>> ordinals;
  };
  std::vector<PassFrame> passes_;
  std::int64_t index_ = 0;
  int depth_ = 0;
  std::string log_;
  std::vector<std::string> events_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace aot
