//===- TraceDiff.cpp - comparing two kernel traces ------------------------===//
#include "aot/TraceDiff.h"

#include "Support/JsonDepth.h"
#include "aot/abi/Npz.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <map>
#include <vector>

namespace aot {

namespace {

/// One line of launches.jsonl.
struct Launch {
  int number = 0;
  std::string kernel;
  std::string location;
  std::string file;
};

Expected<std::vector<Launch>> readIndex(const std::string &dir) {
  std::string path = dir + "/launches.jsonl";
  std::string bytes;
  try {
    bytes = abi::detail::readFileBytes(path);
  } catch (const abi::Error &e) {
    return Error::at(path, 0, 0,
                     "cannot read the trace index (a directory written by "
                     "--trace-kernels-to has one): " +
                         abi::detail::withoutPath(e, path));
  }
  std::vector<Launch> launches;
  llvm::StringRef rest = bytes;
  for (int line = 1; !rest.empty(); ++line) {
    auto [text, tail] = rest.split('\n');
    rest = tail;
    if (text.trim().empty())
      continue;
    if (jsonTooDeep(text))
      return Error::at(path, line, 1,
                       "nested deeper than " + std::to_string(kMaxJsonDepth) +
                           " levels");
    auto parsed = llvm::json::parse(text);
    const llvm::json::Object *o = parsed ? parsed->getAsObject() : nullptr;
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    std::optional<int64_t> number = o ? o->getInteger("launch") : std::nullopt;
    auto kernel = o ? o->getString("kernel") : std::nullopt;
    auto file = o ? o->getString("file") : std::nullopt;
    if (!number || !kernel || !file)
      return Error::at(path, line, 1,
                       "expected a JSON object with \"launch\", \"kernel\" "
                       "and \"file\"");
    Launch l{static_cast<int>(*number), kernel->str(), "", file->str()};
    if (auto location = o->getString("location"))
      l.location = location->str();
    launches.push_back(std::move(l));
  }
  return launches;
}

std::string describe(const Launch &l) {
  return "launch " + std::to_string(l.number) + " (" + l.kernel +
         (l.location.empty() ? "" : " from " + l.location) + ")";
}

} // namespace

Expected<TraceDiff> diffKernelTraces(const std::string &dir1,
                                     const std::string &dir2,
                                     const abi::Tolerance &tolerance) {
  auto first = readIndex(dir1);
  if (!first)
    return first.error();
  auto second = readIndex(dir2);
  if (!second)
    return second.error();
  TraceDiff diff;
  const size_t common = std::min(first->size(), second->size());
  auto differ = [&](size_t i, const std::string &what) {
    diff.firstLaunch = static_cast<int>(i + 1);
    diff.report += "first difference at " + what + "\n";
    return diff;
  };
  for (size_t i = 0; i < common; ++i) {
    const Launch &a = (*first)[i];
    const Launch &b = (*second)[i];
    if (a.kernel != b.kernel)
      return differ(i, describe(a) + ": " + dir2 + " launched " + b.kernel +
                           " there (the two compiles made different "
                           "kernels)");
    std::map<std::string, abi::Tensor> ta, tb;
    try {
      ta = abi::readNpz(dir1 + "/" + a.file);
      tb = abi::readNpz(dir2 + "/" + b.file);
    } catch (const std::exception &e) {
      return Error::message(e.what());
    }
    for (const auto &[name, tensor] : ta) {
      auto other = tb.find(name);
      if (other == tb.end())
        return differ(i,
                      describe(a) + ": buffer " + name + " is only in " + dir1);
      abi::Comparison c = abi::compare(other->second, tensor, tolerance);
      if (!c)
        return differ(i, describe(a) + ", buffer " + name + ": " + c.message +
                             " (" + dir2 + " against " + dir1 + ")");
    }
    for (const auto &[name, tensor] : tb)
      if (!ta.count(name))
        return differ(i,
                      describe(b) + ": buffer " + name + " is only in " + dir2);
  }
  if (first->size() != second->size()) {
    bool longer = first->size() > second->size();
    const Launch &extra = (longer ? *first : *second)[common];
    return differ(common, describe(extra) + ": only " + (longer ? dir1 : dir2) +
                              " has it (" + std::to_string(first->size()) +
                              " against " + std::to_string(second->size()) +
                              " launches)");
  }
  diff.same = true;
  diff.report = "the traces agree: " + std::to_string(common) +
                " launches, every buffer within rtol " +
                std::to_string(tolerance.rtol) + ", atol " +
                std::to_string(tolerance.atol) + "\n";
  return diff;
}

} // namespace aot
