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
  /// Skips an action when it returns true; sees every action in order with
  /// its index (1-based, per compile).
  using SkipPredicate =
      std::function<bool(std::int64_t index, const mlir::tracing::Action &)>;

  ActionTracer(bool log, bool profile, std::vector<LocationFilter> filters,
               std::vector<SkipCounter> counters);

  void setSkipPredicate(SkipPredicate predicate) {
    skipPredicate_ = std::move(predicate);
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
  SkipPredicate skipPredicate_;
  std::int64_t index_ = 0;
  int depth_ = 0;
  std::string log_;
  std::vector<std::string> events_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace aot
