//===- WriteIf.h - when an output file that exists is replaced -----------===//
#pragma once

namespace aot {

/// What to do with an output file that already holds exactly the new bytes.
enum class WriteIf {
  Always,  ///< replace it all the same (it gets a new time stamp)
  Changed, ///< leave it untouched, time stamp included, so that build tools
           ///< (Ninja's restat) skip what depends on it
};

} // namespace aot
