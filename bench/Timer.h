//===- Timer.h - wall-clock timing and medians for aot-bench -------------===//
//---------------===//
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace aot::bench {

/// A wall-clock stopwatch on the monotonic clock, started when constructed.
class Timer {
public:
  Timer() : start_(Clock::now()) {}

  /// Starts again from now.
  void restart() { start_ = Clock::now(); }

  /// Seconds since construction or the last restart().
  double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

/// The median of `samples` (the mean of the middle two for an even count);
/// 0 for no samples.
inline double median(std::vector<double> samples) {
  if (samples.empty())
    return 0;
  std::sort(samples.begin(), samples.end());
  std::size_t mid = samples.size() / 2;
  if (samples.size() % 2)
    return samples[mid];
  return (samples[mid - 1] + samples[mid]) / 2;
}

/// Runs `fn` `reps` times and returns each run's wall-clock time in seconds.
template <typename Fn> std::vector<double> timeRepeated(int reps, Fn &&fn) {
  std::vector<double> samples;
  samples.reserve(reps);
  for (int i = 0; i < reps; ++i) {
    Timer t;
    fn();
    samples.push_back(t.seconds());
  }
  return samples;
}

/// How long one call takes: the median over `reps` timed runs.
struct Measurement {
  double seconds = 0;
  int reps = 0;
};

/// Warms `fn` up with two runs, then times enough runs to fill about
/// `budget` seconds (at least `minReps`, at most `maxReps`) and returns
/// their median.
template <typename Fn>
Measurement measure(Fn &&fn, double budget, int minReps, int maxReps) {
  fn();
  Timer warm;
  fn();
  double once = std::max(warm.seconds(), 1e-9);
  int reps = int(std::clamp(budget / once, double(minReps), double(maxReps)));
  return {median(timeRepeated(reps, fn)), reps};
}

} // namespace aot::bench
