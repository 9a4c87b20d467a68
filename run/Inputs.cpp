//===- Inputs.cpp - the arguments aot-run passes --------------------------===//
#include "Inputs.h"

#include "aot/abi/Compare.h"
#include "aot/abi/Npy.h"
#include "aot/abi/Npz.h"
#include "aot/abi/ReferenceKeys.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

namespace aot::run {

namespace {

using abi::DType;
using abi::Tensor;

bool isUnsigned(DType t) {
  return t == DType::U8 || t == DType::U16 || t == DType::U32 ||
         t == DType::U64;
}

/// Stores `v` (already checked to fit) as element `i` of `t`.
template <typename T> void store(Tensor &t, std::int64_t i, T v) {
  std::memcpy(static_cast<char *>(t.rawData()) + i * t.elementSize(), &v,
              sizeof v);
}

/// Stores `v` as element `i` of `t`; false when a finite `v` has no finite
/// value of the tensor's dtype (1e39 as f32), which would silently compute
/// with an infinity (or, for the 8-bit floats without one, a NaN).
bool storeFloat(Tensor &t, std::int64_t i, double v) {
  return abi::visitDType(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T value{};
    if constexpr (std::is_same_v<T, abi::f16> || std::is_same_v<T, abi::bf16>)
      value = T(float(v));
    else if constexpr (abi::isFloat8Type<T> || std::is_floating_point_v<T>)
      value = T(v);
    else
      return false;
    store(t, i, value);
    return !std::isfinite(v) || std::isfinite(abi::detail::toDouble(value));
  });
}

/// Stores an integer of the tensor's dtype; false when out of its range.
bool storeInteger(Tensor &t, std::int64_t i, std::int64_t v, bool negative,
                  std::uint64_t u) {
  auto fits = [&](auto tag) {
    using T = decltype(tag);
    if (negative)
      return std::is_signed_v<T> &&
             v >= std::int64_t(std::numeric_limits<T>::min());
    return u <= std::uint64_t(std::numeric_limits<T>::max());
  };
  return abi::visitDType(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, abi::i4>) {
      std::int64_t value = negative ? v : std::int64_t(u);
      if ((negative && v < -8) || (!negative && u > 7))
        return false;
      store(t, i, abi::i4(int(value)));
      return true;
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (!fits(tag))
        return false;
      store(t, i, negative ? T(v) : T(u));
      return true;
    } else {
      return false;
    }
  });
}

/// One value of inline text into element `i` of `t`.
void parseValue(std::string_view text, Tensor &t, std::int64_t i,
                const std::string &what) {
  auto fail = [&](const std::string &why) {
    throw abi::Error(what + ": '" + std::string(text) + "' " + why);
  };
  DType dtype = t.dtype();
  if (dtype == DType::I1) {
    if (text == "true" || text == "1")
      store(t, i, true);
    else if (text == "false" || text == "0")
      store(t, i, false);
    else
      fail("is not an i1 value (true, false, 1 or 0)");
    return;
  }
  if (abi::isFloat(dtype)) {
    std::string s(text);
    char *end = nullptr;
    errno = 0;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size())
      fail("is not a number");
    // Beyond f64 (1e309) strtod gives an infinity and says so in errno.
    if ((errno == ERANGE && std::isinf(v)) || !storeFloat(t, i, v))
      fail("is out of range of " + std::string(abi::dtypeName(dtype)) +
           " (write inf for an infinity)");
    return;
  }
  bool negative = !text.empty() && text[0] == '-';
  std::int64_t v = 0;
  std::uint64_t u = 0;
  const char *first = text.data(), *last = text.data() + text.size();
  auto [end, ec] = negative ? std::from_chars(first, last, v)
                            : std::from_chars(first, last, u);
  if (ec == std::errc::result_out_of_range)
    fail("is out of range of " + std::string(abi::dtypeName(dtype)));
  if (ec != std::errc() || end != last)
    fail("is not an integer");
  if (!storeInteger(t, i, v, negative, u))
    fail("is out of range of " + std::string(abi::dtypeName(dtype)));
}

/// The scalar argument a 0-d tensor holds, as the call takes it.
Expected<CallArg> scalarOf(const Tensor &t, const std::string &what) {
  const void *p = t.rawData();
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, p, sizeof v);
    return CallArg(v);
  };
  std::optional<CallArg> arg;
  if (!visitScalarCallArg(t.dtype(), [&](auto tag) { arg = load(tag); }))
    return Error::message(what + ": a scalar of dtype " +
                          std::string(abi::dtypeName(t.dtype())) +
                          " cannot be passed");
  return *arg;
}

/// `t` as argument `i` of `fn`: its dtype must be the argument's (bf16 may
/// come as uint16 bits, as numpy stores it); a scalar argument takes a 0-d
/// array. Shapes are the call's to check.
Expected<CallArg> asArgument(Tensor t, const FunctionSig &fn, size_t i,
                             const std::string &what) {
  const ValueSig &sig = fn.args[i];
  t = abi::asDType(t, sig.dtype);
  std::string arg = "argument " + std::to_string(i) + " of '" + fn.name +
                    "' (" + sig.str() + ")";
  if (t.dtype() != sig.dtype)
    return Error::message(what + " holds " +
                          std::string(abi::dtypeName(t.dtype())) +
                          " values, but " + arg + " takes " +
                          std::string(abi::dtypeName(sig.dtype)));
  if (!sig.isScalar())
    return CallArg(std::move(t));
  if (t.rank() != 0)
    return Error::message(what + " has shape " + abi::shapeString(t.shape()) +
                          ", but " + arg +
                          " is a scalar: give a 0-d array "
                          "or DTYPE=VALUE");
  return scalarOf(t, what);
}

bool endsWith(const std::string &s, std::string_view ext) {
  return s.size() >= ext.size() &&
         s.compare(s.size() - ext.size(), ext.size(), ext) == 0;
}

std::string signatureList(const FunctionSig &fn) {
  std::string list;
  for (const ValueSig &a : fn.args)
    list += (list.empty() ? "" : ", ") + a.str();
  return "(" + list + ")";
}

/// Every argument from one .npz, by the reference key scheme.
Expected<std::vector<CallArg>> fromNpz(const Manifest &manifest,
                                       const FunctionSig &fn,
                                       const std::string &path) {
  std::map<std::string, Tensor> arrays = abi::readNpz(path);
  std::vector<std::string> names, keys;
  for (const FunctionSig &f : manifest.functions)
    names.push_back(f.name);
  for (const auto &[key, tensor] : arrays)
    keys.push_back(key);
  abi::ReferenceKeys scheme = abi::ReferenceKeys::choose(names, keys);
  std::vector<CallArg> args;
  for (size_t i = 0; i < fn.args.size(); ++i) {
    std::string key = scheme.argument(fn.name, i);
    auto it = arrays.find(key);
    if (it == arrays.end()) {
      std::string held;
      for (const std::string &k : keys)
        held += (held.empty() ? "'" : ", '") + k + "'";
      return Error::message(path + ": no array '" + key + "' for argument " +
                            std::to_string(i) + " of '" + fn.name + "' (" +
                            fn.args[i].str() + "); it holds " +
                            (held.empty() ? "nothing" : held));
    }
    auto arg = asArgument(it->second, fn, i, path + ": array '" + key + "'");
    if (!arg)
      return arg.error();
    args.push_back(std::move(*arg));
  }
  return args;
}

/// Random values of the argument's signature; dynamic dims from --dim.
Expected<CallArg> randomArgument(const FunctionSig &fn, size_t i,
                                 const Options &options, std::mt19937_64 &rng) {
  const ValueSig &sig = fn.args[i];
  std::vector<std::int64_t> shape = sig.shape;
  for (const DimSize &d : options.dims)
    if (size_t(d.arg) == i) {
      if (d.axis >= sig.rank())
        return Error::message("--dim=" + std::to_string(d.arg) + ":" +
                              std::to_string(d.axis) + "=...: argument " +
                              std::to_string(i) + " (" + sig.str() +
                              ") has rank " + std::to_string(sig.rank()));
      if (sig.shape[d.axis] >= 0)
        return Error::message(
            "--dim=" + std::to_string(d.arg) + ":" + std::to_string(d.axis) +
            "=...: dim " + std::to_string(d.axis) + " of argument " +
            std::to_string(i) + " (" + sig.str() + ") is static");
      shape[d.axis] = d.size;
    }
  for (int axis = 0; axis < sig.rank(); ++axis)
    if (shape[axis] < 0)
      return Error::message("argument " + std::to_string(i) + " of '" +
                            fn.name + "' (" + sig.str() +
                            ") has a dynamic dim " + std::to_string(axis) +
                            ": give its size with --dim=" + std::to_string(i) +
                            ":" + std::to_string(axis) + "=SIZE");
  Tensor t = Tensor::zeros(sig.dtype, shape);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> integer(
      isUnsigned(sig.dtype) ? 0 : -8, sig.dtype == DType::I4 ? 7 : 8);
  for (std::int64_t k = 0, n = t.numElements(); k < n; ++k) {
    if (sig.dtype == DType::I1)
      store(t, k, bool(rng() & 1));
    else if (abi::isFloat(sig.dtype))
      storeFloat(t, k, real(rng));
    else {
      int v = integer(rng);
      storeInteger(t, k, v, v < 0, std::uint64_t(v < 0 ? 0 : v));
    }
  }
  return asArgument(std::move(t), fn, i, "random input " + std::to_string(i));
}

} // namespace

Tensor parseInlineTensor(const std::string &text) {
  std::string what = "input '" + text + "'";
  size_t eq = text.find('=');
  if (eq == std::string::npos)
    throw abi::Error(what + " is not @FILE.npy, @FILE.npz or "
                            "SHAPExDTYPE=VALUES (e.g. 2x2xf32=1,2,3,4)");
  std::string type = text.substr(0, eq);
  std::vector<std::int64_t> shape;
  size_t start = 0;
  for (size_t x; (x = type.find('x', start)) != std::string::npos;
       start = x + 1) {
    std::int64_t d = 0;
    auto [end, ec] = std::from_chars(type.data() + start, type.data() + x, d);
    if (ec != std::errc() || end != type.data() + x || d < 0)
      throw abi::Error(what + ": '" + type.substr(start, x - start) +
                       "' is not a dim size (SHAPExDTYPE, e.g. 2x3xf32)");
    shape.push_back(d);
  }
  std::optional<DType> dtype = abi::parseDType(type.substr(start));
  if (!dtype)
    throw abi::Error(what + ": unknown element type '" + type.substr(start) +
                     "' (i1, i8..i64, u8..u64, f16, bf16, f32, f64)");
  Tensor t = Tensor::zeros(*dtype, shape);
  std::vector<std::string_view> values;
  std::string_view rest = std::string_view(text).substr(eq + 1);
  for (size_t i = 0; i <= rest.size();) {
    size_t j = rest.find_first_of(", ", i);
    if (j == std::string_view::npos)
      j = rest.size();
    if (j > i)
      values.push_back(rest.substr(i, j - i));
    i = j + 1;
  }
  std::int64_t n = t.numElements();
  if (values.size() == 1) {
    for (std::int64_t k = 0; k < n; ++k)
      parseValue(values[0], t, k, what);
  } else if (std::int64_t(values.size()) == n) {
    for (std::int64_t k = 0; k < n; ++k)
      parseValue(values[k], t, k, what);
  } else {
    throw abi::Error(what + ": " + std::to_string(values.size()) +
                     " values for shape " + abi::shapeString(shape) +
                     ", which holds " + std::to_string(n) +
                     " (one value fills it)");
  }
  return t;
}

Expected<std::vector<CallArg>> makeInputs(const Manifest &manifest,
                                          const FunctionSig &fn,
                                          const Options &options) {
  try {
    if (options.randomInputs) {
      std::mt19937_64 rng(options.seed);
      std::vector<CallArg> args;
      for (size_t i = 0; i < fn.args.size(); ++i) {
        auto arg = randomArgument(fn, i, options, rng);
        if (!arg)
          return arg.error();
        args.push_back(std::move(*arg));
      }
      return args;
    }
    const std::vector<std::string> &inputs = options.inputs;
    if (inputs.size() == 1 && inputs[0].size() > 1 && inputs[0][0] == '@' &&
        endsWith(inputs[0], ".npz"))
      return fromNpz(manifest, fn, inputs[0].substr(1));
    if (inputs.size() != fn.args.size())
      return Error::message(
          "'" + fn.name + "' takes " + std::to_string(fn.args.size()) +
          " argument" + (fn.args.size() == 1 ? "" : "s") + " " +
          signatureList(fn) + ", but " + std::to_string(inputs.size()) +
          " input" + (inputs.size() == 1 ? " is" : "s are") +
          " given (or give one @FILE.npz, or --random-inputs)");
    std::vector<CallArg> args;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const std::string &in = inputs[i];
      Tensor t;
      std::string what;
      if (!in.empty() && in[0] == '@') {
        std::string path = in.substr(1);
        if (endsWith(path, ".npz"))
          return Error::message("input " + std::to_string(i) + " ('" + in +
                                "'): an .npz gives every argument and must "
                                "be the only input");
        t = abi::readNpy(path);
        what = "input " + std::to_string(i) + " (" + path + ")";
      } else {
        t = parseInlineTensor(in);
        what = "input " + std::to_string(i) + " ('" + in + "')";
      }
      auto arg = asArgument(std::move(t), fn, i, what);
      if (!arg)
        return arg.error();
      args.push_back(std::move(*arg));
    }
    return args;
  } catch (const abi::Error &e) {
    return Error::message(e.what());
  }
}

} // namespace aot::run
