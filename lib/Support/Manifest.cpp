//===- Manifest.cpp - the manifest and its JSON form ----------------------===//
#include "aot/Manifest.h"

#include "Support/JsonDepth.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace aot {

std::string ValueSig::str() const {
  std::string elem(abi::dtypeName(dtype));
  if (isScalar())
    return elem;
  std::string s = "tensor<";
  for (std::int64_t d : shape)
    s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return s + elem + ">";
}

const FunctionSig *Manifest::find(std::string_view name) const {
  for (const FunctionSig &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

static llvm::json::Value valueToJson(const ValueSig &v) {
  llvm::json::Array shape;
  for (std::int64_t d : v.shape)
    shape.push_back(d);
  return llvm::json::Object{{"kind", v.isScalar() ? "scalar" : "tensor"},
                            {"dtype", std::string(abi::dtypeName(v.dtype))},
                            {"shape", std::move(shape)}};
}

std::string Manifest::toJson(bool pretty) const {
  llvm::json::Array fns;
  for (const FunctionSig &f : functions) {
    llvm::json::Array args, results;
    for (const ValueSig &v : f.args)
      args.push_back(valueToJson(v));
    for (const ValueSig &v : f.results)
      results.push_back(valueToJson(v));
    llvm::json::Object fn{{"name", f.name},
                          {"symbol", f.symbol},
                          {"args", std::move(args)},
                          {"results", std::move(results)}};
    if (!f.deviceSymbol.empty())
      fn["entry_points"] = llvm::json::Array{
          llvm::json::Object{{"symbol", f.symbol}, {"memory", "host"}},
          llvm::json::Object{{"symbol", f.deviceSymbol},
                             {"memory", "device"},
                             {"extra_args", llvm::json::Array{"CUstream"}}}};
    fns.push_back(std::move(fn));
  }
  llvm::json::Array linkLibs;
  for (const std::string &l : link)
    linkLibs.push_back(l);
  llvm::json::Object rootObject{{"abi_version", AOT_ABI_VERSION},
                                {"module", module},
                                {"target", target},
                                {"functions", std::move(fns)},
                                {"link", std::move(linkLibs)}};
  if (!weights.empty()) {
    llvm::json::Array tensors;
    for (const WeightSig &w : weights.tensors) {
      llvm::json::Array shape;
      for (std::int64_t d : w.shape)
        shape.push_back(d);
      tensors.push_back(
          llvm::json::Object{{"name", w.name},
                             {"dtype", std::string(abi::dtypeName(w.dtype))},
                             {"shape", std::move(shape)},
                             {"bytes", static_cast<std::int64_t>(w.bytes)},
                             {"xxh3", w.xxh3}});
    }
    rootObject["weights"] = llvm::json::Object{{"file", weights.file},
                                               {"load", weights.load},
                                               {"tensors", std::move(tensors)}};
  }
  llvm::json::Value root(std::move(rootObject));
  std::string out;
  llvm::raw_string_ostream os(out);
  if (pretty)
    os << llvm::formatv("{0:2}", root) << "\n";
  else
    os << root;
  return out;
}

namespace {
/// Reads JSON with errors that name the path of the offending field.
struct Reader {
  std::string error;

  bool fail(const std::string &where, const std::string &what) {
    if (error.empty())
      error = "manifest: " + where + ": " + what;
    return false;
  }

  bool readValue(const llvm::json::Value *v, const std::string &where,
                 ValueSig &out) {
    const llvm::json::Object *o = v ? v->getAsObject() : nullptr;
    if (!o)
      return fail(where, "expected an object");
    auto kind = o->getString("kind");
    if (!kind || (*kind != "tensor" && *kind != "scalar"))
      return fail(where + ".kind", "expected \"tensor\" or \"scalar\"");
    out.kind =
        *kind == "scalar" ? ValueSig::Kind::Scalar : ValueSig::Kind::Tensor;
    auto dtype = o->getString("dtype");
    auto parsed =
        dtype ? abi::parseDType(std::string_view(*dtype)) : std::nullopt;
    if (!parsed)
      return fail(where + ".dtype", "expected a dtype name like \"f32\"");
    out.dtype = *parsed;
    const llvm::json::Array *shape = o->getArray("shape");
    if (!shape)
      return fail(where + ".shape", "expected a list");
    for (const llvm::json::Value &d : *shape) {
      auto dim = d.getAsInteger();
      if (!dim || *dim < -1)
        return fail(where + ".shape", "dims must be integers >= -1");
      out.shape.push_back(*dim);
    }
    return true;
  }

  bool readValues(const llvm::json::Object &f, llvm::StringRef key,
                  const std::string &where, std::vector<ValueSig> &out) {
    const llvm::json::Array *list = f.getArray(key);
    if (!list)
      return fail(where + "." + key.str(), "expected a list");
    for (size_t i = 0; i < list->size(); ++i) {
      ValueSig v;
      if (!readValue(&(*list)[i],
                     where + "." + key.str() + "[" + std::to_string(i) + "]",
                     v))
        return false;
      out.push_back(std::move(v));
    }
    return true;
  }

  bool readWeights(const llvm::json::Object &o, ExternalWeights &out) {
    auto file = o.getString("file");
    auto load = o.getString("load");
    const llvm::json::Array *tensors = o.getArray("tensors");
    if (!file || !load || !tensors)
      return fail("weights", "needs \"file\" and \"load\" strings and a "
                             "\"tensors\" list");
    out.file = file->str();
    out.load = load->str();
    for (size_t i = 0; i < tensors->size(); ++i) {
      std::string where = "weights.tensors[" + std::to_string(i) + "]";
      const llvm::json::Object *t = (*tensors)[i].getAsObject();
      if (!t)
        return fail(where, "expected an object");
      WeightSig w;
      auto name = t->getString("name");
      auto dtype = t->getString("dtype");
      auto parsed =
          dtype ? abi::parseDType(std::string_view(*dtype)) : std::nullopt;
      auto bytes = t->getInteger("bytes");
      auto hash = t->getString("xxh3");
      const llvm::json::Array *shape = t->getArray("shape");
      if (!name || !parsed || !bytes || *bytes < 0 || !hash || !shape)
        return fail(where, "needs name, dtype, shape, bytes and xxh3");
      w.name = name->str();
      w.dtype = *parsed;
      w.bytes = static_cast<std::uint64_t>(*bytes);
      w.xxh3 = hash->str();
      for (const llvm::json::Value &d : *shape) {
        auto dim = d.getAsInteger();
        if (!dim || *dim < 0)
          return fail(where + ".shape", "dims must be integers >= 0");
        w.shape.push_back(*dim);
      }
      out.tensors.push_back(std::move(w));
    }
    return true;
  }
};
} // namespace

/// A manifest describes compiled code of one ABI revision: read under
/// another, its signatures would be taken at their word and the calls made
/// with the wrong layout.
static Status checkAbiVersion(const llvm::json::Object &root) {
  const std::string supported =
      "this build reads ABI v" + std::to_string(AOT_ABI_VERSION);
  const llvm::json::Value *version = root.get("abi_version");
  if (!version)
    return Error::message("manifest: abi_version is missing (" + supported +
                          ")");
  std::optional<std::int64_t> number = version->getAsInteger();
  if (!number)
    return Error::message("manifest: abi_version must be an integer (" +
                          supported + ")");
  if (*number != AOT_ABI_VERSION)
    return Error::message("manifest: abi_version " + std::to_string(*number) +
                          " is not supported by this build (ABI v" +
                          std::to_string(AOT_ABI_VERSION) + ")");
  return Status::ok();
}

Expected<Manifest> Manifest::fromJson(std::string_view json) {
  if (std::optional<size_t> at = jsonTooDeep(json))
    return Error::message("manifest: not valid: nested deeper than " +
                          std::to_string(kMaxJsonDepth) + " levels (at byte " +
                          std::to_string(*at) + ")");
  auto parsed = llvm::json::parse(llvm::StringRef(json.data(), json.size()));
  if (!parsed)
    return Error::message("manifest: not valid JSON: " +
                          llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return Error::message("manifest: expected a JSON object at the top");
  if (Status s = checkAbiVersion(*root); !s)
    return s.error();
  Manifest m;
  Reader r;
  if (auto s = root->getString("module"))
    m.module = s->str();
  if (auto s = root->getString("target"))
    m.target = s->str();
  if (const llvm::json::Array *link = root->getArray("link"))
    for (const llvm::json::Value &l : *link)
      if (auto s = l.getAsString())
        m.link.push_back(s->str());
  const llvm::json::Array *fns = root->getArray("functions");
  if (!fns)
    return Error::message("manifest: functions: expected a list");
  for (size_t i = 0; i < fns->size(); ++i) {
    std::string where = "functions[" + std::to_string(i) + "]";
    const llvm::json::Object *f = (*fns)[i].getAsObject();
    if (!f)
      return Error::message("manifest: " + where + ": expected an object");
    FunctionSig sig;
    auto name = f->getString("name");
    auto symbol = f->getString("symbol");
    if (!name || !symbol)
      return Error::message("manifest: " + where +
                            ": needs \"name\" and \"symbol\" strings");
    sig.name = name->str();
    sig.symbol = symbol->str();
    if (const llvm::json::Array *entries = f->getArray("entry_points"))
      for (const llvm::json::Value &e : *entries) {
        const llvm::json::Object *o = e.getAsObject();
        auto memory = o ? o->getString("memory") : std::nullopt;
        auto entry = o ? o->getString("symbol") : std::nullopt;
        if (!memory || !entry)
          return Error::message("manifest: " + where +
                                ".entry_points: each needs \"symbol\" and "
                                "\"memory\" strings");
        if (*memory == "device")
          sig.deviceSymbol = entry->str();
      }
    if (!r.readValues(*f, "args", where, sig.args) ||
        !r.readValues(*f, "results", where, sig.results))
      return Error::message(r.error);
    m.functions.push_back(std::move(sig));
  }
  if (const llvm::json::Object *weights = root->getObject("weights"))
    if (!r.readWeights(*weights, m.weights))
      return Error::message(r.error);
  return m;
}

} // namespace aot
