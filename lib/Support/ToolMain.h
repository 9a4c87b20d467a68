//===- ToolMain.h - the main() of the command-line tools ------------------===//
#pragma once

#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace aot {

/// The body of a tool's main(): runs `run` on the arguments after the
/// program's name and returns its status. Whatever escapes it becomes one
/// line on stderr and status 1, so that no tool ends in std::terminate: a
/// std::logic_error is named an internal error of `tool`, any other
/// exception prints its message.
template <typename Run>
int toolMain(std::string_view tool, int argc, char **argv, Run &&run) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::logic_error &e) {
    std::cerr << "error: internal error in " << tool << ": " << e.what()
              << "\n";
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "error: unknown exception in " << tool << "\n";
  }
  return 1;
}

} // namespace aot
