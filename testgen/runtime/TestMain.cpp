//===- TestMain.cpp - main() of the test executables aot-testgen writes ---===//
//
// Runs the doctest test cases linked into the program against the reference
// .npz named on the command line (--reference=FILE or --reference FILE,
// taken out of argv before doctest sees it) or else by the environment
// variable AOT_REFERENCE. Without a reference, or with one that cannot be
// opened, nothing runs: the program says why and exits with status 1, so a
// test can never pass by checking nothing. Tests of GPU code on a machine
// without a usable GPU exit with status 77 (skipped) and say why. Options
// that only print (--help, --version, --list-test-cases, ...) need no
// reference.
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "aot/testing/Reference.h"

#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

void printUsage(const char *program) {
  std::cout
      << "usage: " << program << " --reference=FILE.npz [doctest options]\n"
      << "  --reference=FILE.npz  the inputs and expected results of the\n"
      << "                        tested functions (default: "
         "$AOT_REFERENCE)\n\n";
}

/// Whether `arg` is a doctest option that prints something and runs no
/// test: those work without a reference.
bool printsOnly(std::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-')
    return false;
  arg.remove_prefix(arg[1] == '-' ? 2 : 1);
  if (arg.substr(0, 3) == "dt-")
    arg.remove_prefix(3);
  arg = arg.substr(0, arg.find('='));
  for (std::string_view flag :
       {"help", "h", "?", "version", "v", "count", "c", "list-test-cases",
        "ltc", "list-test-suites", "lts", "list-reporters", "lr"})
    if (arg == flag)
      return true;
  return false;
}

/// The command line without --reference, and the reference it named.
struct CommandLine {
  std::vector<char *> doctestArgs;
  std::optional<std::string> reference;
  /// An option that prints and runs no test was given (see printsOnly()).
  bool onlyPrints = false;
  bool help = false;
};

/// Throws std::runtime_error for a malformed --reference.
CommandLine parse(int argc, char **argv) {
  CommandLine cl;
  cl.doctestArgs.push_back(argv[0]);
  auto set = [&](std::string value) {
    if (value.empty())
      throw std::runtime_error("--reference needs a file name");
    if (cl.reference)
      throw std::runtime_error("--reference given twice: '" + *cl.reference +
                               "' and '" + value + "'");
    cl.reference = std::move(value);
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.substr(0, 12) == "--reference=") {
      set(std::string(arg.substr(12)));
    } else if (arg == "--reference") {
      if (i + 1 >= argc)
        throw std::runtime_error("--reference needs a file name");
      set(argv[++i]);
    } else {
      cl.onlyPrints |= printsOnly(arg);
      std::string_view name = arg.substr(0, arg.find('='));
      cl.help |= name == "--help" || name == "-h" || name == "-?" ||
                 name == "--dt-help" || name == "-dt-help";
      cl.doctestArgs.push_back(argv[i]);
    }
  }
  if (!cl.reference)
    if (const char *env = std::getenv("AOT_REFERENCE"); env && *env)
      cl.reference = env;
  return cl;
}

int run(int argc, char **argv) {
  CommandLine cl = parse(argc, argv);
  if (cl.help)
    printUsage(argv[0]);
  if (!cl.onlyPrints) {
    if (!cl.reference) {
      std::cerr << "error: no reference .npz: run " << argv[0]
                << " --reference=FILE.npz or set AOT_REFERENCE\n";
      return 1;
    }
    // Opened before any test runs, so an unreadable file is one clear
    // error rather than a failure in every test case.
    aot::testing::setCurrentReference(*cl.reference);
    // Code for a device this machine lacks: skipped with the reason, never
    // passed by running nothing.
    if (const char *why = aot::testing::skipReason()) {
      std::cout << "skipped: " << argv[0] << " cannot run here: " << why
                << "\n";
      return aot::testing::kSkipExitCode;
    }
  }
  doctest::Context context;
  context.applyCommandLine(int(cl.doctestArgs.size()), cl.doctestArgs.data());
  return context.run();
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "error: unknown exception\n";
  }
  return 1;
}
