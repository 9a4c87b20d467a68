//===- OnnxFold.cpp - shape arithmetic folded to constants ----------------===//
//
// Exporters compute shapes at run time: Shape -> Gather -> Add -> Div ->
// Slice (the three thirds of a fused attention projection), Shape ->
// Concat -> Reshape. ONNX's shape inference leaves the results of such
// chains without a shape where its data propagation stops, and a
// converter would have to emit the arithmetic. Where every shape involved
// is static, the chain is arithmetic on small integer constants: each node
// of it becomes a Constant node holding its value, and shape inference runs
// again with those, until nothing more folds.
//
// Where a dim is dynamic (a batch exported as `dim_param`), the chain is
// followed with that element unknown: a Reshape whose target is known but
// for such elements gets the rank and the static dims that shape inference
// could not give it, and the importer reads the partly known target.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxFold.h"
#include "Frontend/Onnx/OnnxSchemas.h"

#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace aot::onnx_import {

namespace {

/// An unknown element is kUnknownElement, or a named dynamic dim (its
/// dim_param, the batch of an exported model): kFirstSymbol plus its index
/// among the names met by this thread's fold, so that the same dim met in
/// a Reshape's input and in its target cancels out of the -1 there.
thread_local std::vector<std::string> symbolNames;
constexpr std::int64_t kFirstSymbol = kUnknownElement + 1;
constexpr std::int64_t kSymbolLimit = kFirstSymbol + (std::int64_t(1) << 30);

bool isUnknown(std::int64_t v) { return v < kSymbolLimit; }
bool isSymbol(std::int64_t v) { return v >= kFirstSymbol && v < kSymbolLimit; }

std::int64_t symbolFor(const std::string &name) {
  auto it = std::find(symbolNames.begin(), symbolNames.end(), name);
  if (it == symbolNames.end())
    it = symbolNames.insert(symbolNames.end(), name);
  return kFirstSymbol + (it - symbolNames.begin());
}

/// A small integer tensor whose value is known, but for elements that are
/// unknown (dynamic dims).
struct Known {
  std::vector<std::int64_t> dims;
  std::vector<std::int64_t> values;
  bool complete() const {
    return std::none_of(values.begin(), values.end(), isUnknown);
  }
};

/// The most elements a folded value may have: shapes and axes are short.
constexpr std::size_t kMaxFoldedElements = 64;

std::optional<Known> fromTensor(const onnx::TensorProto &t) {
  if (t.data_type() != onnx::TensorProto::INT64 &&
      t.data_type() != onnx::TensorProto::INT32)
    return std::nullopt;
  Known k;
  std::size_t count = 1;
  for (std::int64_t d : t.dims()) {
    if (d < 0 || std::size_t(d) > kMaxFoldedElements)
      return std::nullopt;
    k.dims.push_back(d);
    count *= std::size_t(d);
  }
  if (count > kMaxFoldedElements ||
      t.data_location() == onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  bool wide = t.data_type() == onnx::TensorProto::INT64;
  if (t.has_raw_data()) {
    const std::string &raw = t.raw_data();
    std::size_t size = wide ? 8 : 4;
    if (raw.size() != count * size)
      return std::nullopt;
    for (std::size_t i = 0; i < count; ++i) {
      std::int64_t v = 0;
      if (wide) {
        std::memcpy(&v, raw.data() + i * 8, 8);
      } else {
        std::int32_t n;
        std::memcpy(&n, raw.data() + i * 4, 4);
        v = n;
      }
      k.values.push_back(v);
    }
  } else if (wide) {
    k.values.assign(t.int64_data().begin(), t.int64_data().end());
  } else {
    k.values.assign(t.int32_data().begin(), t.int32_data().end());
  }
  if (k.values.size() != count)
    return std::nullopt;
  // Exporters write "from the far end" as the lowest int64s, which the
  // fold keeps for what it does not know: a value as far out, known.
  for (std::int64_t &v : k.values)
    if (isUnknown(v))
      v = kSymbolLimit;
  return k;
}

onnx::TensorProto toTensor(const Known &k, int dataType) {
  onnx::TensorProto t;
  t.set_data_type(dataType);
  for (std::int64_t d : k.dims)
    t.add_dims(d);
  for (std::int64_t v : k.values) {
    if (dataType == onnx::TensorProto::INT64)
      t.add_int64_data(v);
    else
      t.add_int32_data(std::int32_t(v));
  }
  return t;
}

const onnx::AttributeProto *attribute(const onnx::NodeProto &node,
                                      const std::string &name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

/// The shape of a value from the graph's inputs and value_info, dynamic
/// dims as kUnknownElement; nullopt where its rank is unknown.
std::optional<std::vector<std::int64_t>>
knownShape(const std::map<std::string, const onnx::TypeProto *> &types,
           const std::string &name) {
  auto it = types.find(name);
  if (it == types.end() || !it->second->has_tensor_type() ||
      !it->second->tensor_type().has_shape())
    return std::nullopt;
  std::vector<std::int64_t> dims;
  for (const auto &d : it->second->tensor_type().shape().dim())
    dims.push_back(d.has_dim_value() ? d.dim_value()
                   : d.has_dim_param() && !d.dim_param().empty()
                       ? symbolFor(d.dim_param())
                       : kUnknownElement);
  return dims;
}

/// The dims of values of `shapes` broadcast together (numpy's rule), if
/// they broadcast and hold `count` elements: the folds read each input
/// either whole or as its single element.
std::optional<std::vector<std::int64_t>>
broadcastDims(std::initializer_list<const Known *> shapes, std::size_t count) {
  std::vector<std::int64_t> dims;
  for (const Known *k : shapes) {
    if (k->dims.size() > dims.size())
      dims.insert(dims.begin(), k->dims.size() - dims.size(), 1);
    for (std::size_t i = 0; i < k->dims.size(); ++i) {
      std::int64_t &d = dims[dims.size() - k->dims.size() + i];
      std::int64_t e = k->dims[i];
      if (d != e && d != 1 && e != 1)
        return std::nullopt;
      d = d == 1 ? e : d;
    }
  }
  std::size_t n = 1;
  for (std::int64_t d : dims)
    n *= std::size_t(d);
  if (n != count)
    return std::nullopt;
  return dims;
}

/// Elementwise integer arithmetic of two known values, one of which may be
/// a single element.
std::optional<Known>
arithmetic(const Known &a, const Known &b,
           const std::function<std::int64_t(std::int64_t, std::int64_t)> &op) {
  if (a.values.size() != b.values.size() && a.values.size() != 1 &&
      b.values.size() != 1)
    return std::nullopt;
  Known r = a.values.size() >= b.values.size() ? a : b;
  // A scalar and a one-element vector make a vector.
  auto dims = broadcastDims({&a, &b}, r.values.size());
  if (!dims)
    return std::nullopt;
  r.dims = *dims;
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    std::int64_t x = a.values[a.values.size() == 1 ? 0 : i],
                 y = b.values[b.values.size() == 1 ? 0 : i];
    r.values[i] = isUnknown(x) || isUnknown(y) ? kUnknownElement : op(x, y);
  }
  return r;
}

/// The value of `node`'s (single) output, when its inputs are known.
std::optional<Known>
fold(const onnx::NodeProto &node,
     const std::function<const Known *(int)> &input,
     const std::map<std::string, const onnx::TypeProto *> &types) {
  const std::string &op = node.op_type();
  auto all = [&](int n) {
    for (int i = 0; i < n; ++i)
      if (!input(i))
        return false;
    return true;
  };
  if (op == "Shape") {
    auto shape = knownShape(types, node.input(0));
    if (!shape)
      return std::nullopt;
    std::int64_t rank = std::int64_t(shape->size());
    const onnx::AttributeProto *s = attribute(node, "start");
    const onnx::AttributeProto *e = attribute(node, "end");
    std::int64_t start = s ? s->i() : 0, end = e ? e->i() : rank;
    start = std::clamp<std::int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<std::int64_t>(end < 0 ? end + rank : end, 0, rank);
    Known k;
    k.values.assign(shape->begin() + start,
                    shape->begin() + std::max(start, end));
    k.dims = {std::int64_t(k.values.size())};
    return k;
  }
  if (op == "Identity" && all(1))
    return *input(0);
  if (op == "Cast" && all(1))
    return *input(0);
  if ((op == "Add" || op == "Sub" || op == "Mul" || op == "Div") && all(2)) {
    auto f =
        op == "Add" ? std::function<std::int64_t(std::int64_t, std::int64_t)>(
                          std::plus<>())
        : op == "Sub" ? std::function<std::int64_t(std::int64_t, std::int64_t)>(
                            std::minus<>())
        : op == "Mul"
            ? std::function<std::int64_t(std::int64_t, std::int64_t)>(
                  std::multiplies<>())
            : [](std::int64_t x, std::int64_t y) { return y ? x / y : 0; };
    if (op == "Div" &&
        std::count(input(1)->values.begin(), input(1)->values.end(), 0))
      return std::nullopt;
    return arithmetic(*input(0), *input(1), f);
  }
  if ((op == "Mod" || op == "Max" || op == "Min") && all(2) &&
      node.input_size() == 2) {
    if (op == "Mod" &&
        std::count(input(1)->values.begin(), input(1)->values.end(), 0))
      return std::nullopt;
    const onnx::AttributeProto *fmod = attribute(node, "fmod");
    bool cStyle = fmod && fmod->i();
    if (op == "Max")
      return arithmetic(
          *input(0), *input(1),
          [](std::int64_t x, std::int64_t y) { return std::max(x, y); });
    if (op == "Min")
      return arithmetic(
          *input(0), *input(1),
          [](std::int64_t x, std::int64_t y) { return std::min(x, y); });
    // fmod=0: the divisor's sign (Python's %), what shape code computes.
    return arithmetic(*input(0), *input(1),
                      [cStyle](std::int64_t x, std::int64_t y) {
                        std::int64_t r = y ? x % y : 0;
                        if (!cStyle && r != 0 && ((r < 0) != (y < 0)))
                          r += y;
                        return r;
                      });
  }
  if (op == "Gather" && all(2)) {
    const Known &data = *input(0), &indices = *input(1);
    const onnx::AttributeProto *a = attribute(node, "axis");
    if (data.dims.size() != 1 || (a && a->i() != 0) || !indices.complete())
      return std::nullopt;
    Known k;
    k.dims = indices.dims;
    for (std::int64_t i : indices.values) {
      if (i < 0)
        i += std::int64_t(data.values.size());
      if (i < 0 || i >= std::int64_t(data.values.size()))
        return std::nullopt;
      k.values.push_back(data.values[std::size_t(i)]);
    }
    return k;
  }
  if (op == "Concat" && all(node.input_size())) {
    Known k;
    for (int i = 0; i < node.input_size(); ++i) {
      if (input(i)->dims.size() != 1)
        return std::nullopt;
      k.values.insert(k.values.end(), input(i)->values.begin(),
                      input(i)->values.end());
    }
    k.dims = {std::int64_t(k.values.size())};
    return k;
  }
  if ((op == "Unsqueeze" || op == "Squeeze") && all(1)) {
    // A scalar to one element and back: what shape arithmetic does.
    Known k = *input(0);
    if (op == "Unsqueeze" && k.dims.empty())
      k.dims = {1};
    else if (op == "Squeeze" && k.dims.size() == 1 && k.values.size() == 1)
      k.dims = {};
    else
      return std::nullopt;
    return k;
  }
  if (op == "Reshape" && all(2) && input(1)->complete()) {
    // Of a shape vector: the same values, regrouped.
    Known k = *input(0);
    std::int64_t count = 1, inferred = -1;
    k.dims = input(1)->values;
    for (std::size_t d = 0; d < k.dims.size(); ++d) {
      if (k.dims[d] == -1)
        inferred = std::int64_t(d);
      else if (k.dims[d] <= 0)
        return std::nullopt;
      else
        count *= k.dims[d];
    }
    if (inferred >= 0) {
      if (k.values.size() % std::size_t(count))
        return std::nullopt;
      k.dims[std::size_t(inferred)] = std::int64_t(k.values.size()) / count;
    } else if (std::size_t(count) != k.values.size()) {
      return std::nullopt;
    }
    return k;
  }
  if (op == "ConstantOfShape" && all(1) && input(0)->complete()) {
    const onnx::AttributeProto *v = attribute(node, "value");
    std::optional<Known> fill = v ? fromTensor(v->t()) : std::nullopt;
    if (!fill || fill->values.size() != 1)
      return std::nullopt;
    Known k;
    k.dims = input(0)->values;
    std::size_t count = 1;
    for (std::int64_t d : k.dims) {
      if (d < 0 || std::size_t(d) > kMaxFoldedElements)
        return std::nullopt;
      count *= std::size_t(d);
    }
    if (count > kMaxFoldedElements)
      return std::nullopt;
    k.values.assign(count, fill->values[0]);
    return k;
  }
  if (op == "Equal" && all(2))
    return arithmetic(*input(0), *input(1),
                      [](std::int64_t x, std::int64_t y) { return x == y; });
  if (op == "Where" && all(3)) {
    // Elementwise, with the condition broadcast as the values are.
    const Known &c = *input(0), &x = *input(1), &y = *input(2);
    std::size_t n =
        std::max({c.values.size(), x.values.size(), y.values.size()});
    Known k = c.values.size() == n ? c : x.values.size() == n ? x : y;
    for (const Known *in : {&c, &x, &y})
      if (in->values.size() != n && in->values.size() != 1)
        return std::nullopt;
    auto dims = broadcastDims({&c, &x, &y}, n);
    if (!dims)
      return std::nullopt;
    k.dims = *dims;
    auto at = [&](const Known &in, std::size_t i) {
      return in.values[in.values.size() == 1 ? 0 : i];
    };
    for (std::size_t i = 0; i < n; ++i) {
      std::int64_t cond = at(c, i), a = at(x, i), b = at(y, i);
      k.values[i] = isUnknown(cond) ? (a == b ? a : kUnknownElement)
                    : cond          ? a
                                    : b;
    }
    return k;
  }
  if (op == "Slice" && all(3)) {
    // Along one axis, any step: what F.pad's exported pads go through (a
    // reversal of a [n, 2] matrix).
    const Known &data = *input(0);
    std::int64_t rank = std::int64_t(data.dims.size());
    std::int64_t axis = 0, step = 1;
    bool hasAxes = node.input_size() > 3 && !node.input(3).empty();
    bool hasSteps = node.input_size() > 4 && !node.input(4).empty();
    if (rank < 1 || input(1)->values.size() != 1 ||
        input(2)->values.size() != 1 || !input(1)->complete() ||
        !input(2)->complete() ||
        (hasAxes && (!input(3) || input(3)->values.size() != 1 ||
                     !input(3)->complete())) ||
        (hasSteps &&
         (!input(4) || input(4)->values.size() != 1 || !input(4)->complete())))
      return std::nullopt;
    if (hasAxes)
      axis = input(3)->values[0] < 0 ? input(3)->values[0] + rank
                                     : input(3)->values[0];
    if (hasSteps)
      step = input(4)->values[0];
    if (axis < 0 || axis >= rank || step == 0)
      return std::nullopt;
    std::int64_t n = data.dims[std::size_t(axis)], inner = 1, outer = 1;
    for (std::int64_t d = 0; d < rank; ++d) {
      if (d < axis)
        outer *= data.dims[std::size_t(d)];
      else if (d > axis)
        inner *= data.dims[std::size_t(d)];
    }
    if (outer * n * inner != std::int64_t(data.values.size()))
      return std::nullopt;
    std::int64_t b = input(1)->values[0], e = input(2)->values[0];
    b = b < 0 ? b + n : b;
    e = e < 0 ? e + n : e;
    std::vector<std::int64_t> picked;
    if (step > 0) {
      b = std::clamp<std::int64_t>(b, 0, n);
      e = std::clamp<std::int64_t>(e, 0, n);
      for (std::int64_t i = b; i < e; i += step)
        picked.push_back(i);
    } else {
      b = std::clamp<std::int64_t>(b, 0, n - 1);
      e = std::clamp<std::int64_t>(e, -1, n - 1);
      for (std::int64_t i = b; i > e; i += step)
        picked.push_back(i);
    }
    Known k;
    k.dims = data.dims;
    k.dims[std::size_t(axis)] = std::int64_t(picked.size());
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t i : picked)
        for (std::int64_t j = 0; j < inner; ++j)
          k.values.push_back(data.values[std::size_t((o * n + i) * inner + j)]);
    return k;
  }
  if (op == "Transpose" && all(1)) {
    const Known &data = *input(0);
    std::size_t rank = data.dims.size();
    std::vector<std::int64_t> perm;
    if (const onnx::AttributeProto *p = attribute(node, "perm"))
      perm.assign(p->ints().begin(), p->ints().end());
    else
      for (std::size_t d = rank; d-- > 0;)
        perm.push_back(std::int64_t(d));
    std::vector<bool> seen(rank);
    for (std::int64_t p : perm) {
      if (p < 0 || std::size_t(p) >= rank || seen[std::size_t(p)])
        return std::nullopt;
      seen[std::size_t(p)] = true;
    }
    if (perm.size() != rank)
      return std::nullopt;
    std::vector<std::int64_t> strides(rank, 1);
    for (std::size_t d = rank; d-- > 1;)
      strides[d - 1] = strides[d] * data.dims[d];
    Known k;
    for (std::int64_t p : perm)
      k.dims.push_back(data.dims[std::size_t(p)]);
    std::vector<std::int64_t> at(rank, 0);
    for (std::size_t count = 0; count < data.values.size(); ++count) {
      std::int64_t from = 0;
      for (std::size_t d = 0; d < rank; ++d)
        from += at[d] * strides[std::size_t(perm[d])];
      k.values.push_back(data.values[std::size_t(from)]);
      for (std::size_t d = rank; d-- > 0;) {
        if (++at[d] < k.dims[d])
          break;
        at[d] = 0;
      }
    }
    return k;
  }
  return std::nullopt;
}

/// The type of an Einsum's output from its inputs' shapes: ONNX's shape
/// inference gives it a rank only. Each letter's size is a known one not
/// 1 where there is one (the others broadcast); an ellipsis stands for the
/// inputs' leading unnamed dims, aligned from the right.
std::optional<onnx::TypeProto>
einsumType(const onnx::NodeProto &node,
           const std::map<std::string, const onnx::TypeProto *> &types) {
  const onnx::AttributeProto *a = attribute(node, "equation");
  auto first = types.find(node.input(0));
  if (!a || first == types.end())
    return std::nullopt;
  std::string equation;
  for (char c : a->s())
    if (c != ' ')
      equation += c;
  std::size_t arrow = equation.find("->");
  std::vector<std::string> terms(1);
  for (char c : equation.substr(0, arrow)) {
    if (c == ',')
      terms.emplace_back();
    else
      terms.back() += c;
  }
  if (int(terms.size()) != node.input_size())
    return std::nullopt;
  std::map<char, std::optional<std::int64_t>> sizes;
  std::vector<std::optional<std::int64_t>> ellipsis;
  // A size of 1 broadcasts to any other, known or not.
  auto merge = [](std::optional<std::int64_t> &into, std::int64_t d) {
    if (!into)
      into = d;
    else if (isUnknown(*into)) {
      if ((!isUnknown(d) && d != 1) ||
          (*into == kUnknownElement && isSymbol(d)))
        into = d;
    } else if (*into == 1) {
      into = d;
    }
  };
  for (std::size_t i = 0; i < terms.size(); ++i) {
    auto shape = knownShape(types, node.input(int(i)));
    if (!shape)
      return std::nullopt;
    std::string term = terms[i];
    std::size_t dots = term.find("...");
    std::size_t letters = term.size() - (dots == std::string::npos ? 0 : 3);
    if (dots == std::string::npos ? letters != shape->size()
                                  : letters > shape->size())
      return std::nullopt;
    std::size_t extra = shape->size() - letters;
    std::size_t at = 0;
    for (std::size_t k = 0; k < term.size(); ++k) {
      if (k == dots) {
        if (ellipsis.size() < extra)
          ellipsis.insert(ellipsis.begin(), extra - ellipsis.size(),
                          std::nullopt);
        for (std::size_t e = 0; e < extra; ++e)
          merge(ellipsis[ellipsis.size() - extra + e], (*shape)[at++]);
        k += 2;
        continue;
      }
      merge(sizes[term[k]], (*shape)[at++]);
    }
  }
  std::string result;
  if (arrow != std::string::npos) {
    result = equation.substr(arrow + 2);
  } else {
    result = "...";
    for (auto &[c, size] : sizes) {
      int uses = 0;
      for (const std::string &t : terms)
        uses += int(std::count(t.begin(), t.end(), c));
      if (uses == 1 && c >= 'a' && c <= 'z')
        result += c;
    }
  }
  onnx::TypeProto type;
  onnx::TypeProto::Tensor *t = type.mutable_tensor_type();
  t->set_elem_type(first->second->tensor_type().elem_type());
  onnx::TensorShapeProto *shape = t->mutable_shape();
  auto add = [&](std::optional<std::int64_t> size) {
    onnx::TensorShapeProto::Dimension *dim = shape->add_dim();
    std::int64_t v = size.value_or(kUnknownElement);
    if (!isUnknown(v))
      dim->set_dim_value(v);
    else if (isSymbol(v))
      dim->set_dim_param(symbolNames[std::size_t(v - kFirstSymbol)]);
  };
  for (std::size_t k = 0; k < result.size(); ++k) {
    if (result.compare(k, 3, "...") == 0) {
      for (const std::optional<std::int64_t> &v : ellipsis)
        add(v);
      k += 2;
      continue;
    }
    auto it = sizes.find(result[k]);
    if (it == sizes.end())
      return std::nullopt;
    add(it->second);
  }
  return type;
}

/// The type of a Resize's output from its partly known sizes: the known
/// ones as they are, a named dim as that dim.
std::optional<onnx::TypeProto>
resizedType(const onnx::NodeProto &node, const Known &sizes,
            const std::map<std::string, const onnx::TypeProto *> &types) {
  auto it = types.find(node.input(0));
  auto in = knownShape(types, node.input(0));
  if (it == types.end() || !in || sizes.dims.size() != 1 ||
      sizes.values.size() != in->size())
    return std::nullopt;
  onnx::TypeProto type;
  onnx::TypeProto::Tensor *t = type.mutable_tensor_type();
  t->set_elem_type(it->second->tensor_type().elem_type());
  onnx::TensorShapeProto *s = t->mutable_shape();
  for (std::int64_t v : sizes.values) {
    onnx::TensorShapeProto::Dimension *dim = s->add_dim();
    if (!isUnknown(v))
      dim->set_dim_value(v);
    else if (isSymbol(v))
      dim->set_dim_param(symbolNames[std::size_t(v - kFirstSymbol)]);
  }
  return type;
}

/// The type of a Reshape's output from its input's type and its partly
/// known target `shape`: known dims as they are, 0 the input's dim there,
/// -1 what the element count leaves when all else is static, unknown
/// elements dynamic. Null where the input's type is unknown.
std::optional<onnx::TypeProto>
reshapedType(const onnx::NodeProto &node, const Known &shape,
             const std::map<std::string, const onnx::TypeProto *> &types) {
  auto it = types.find(node.input(0));
  auto in = knownShape(types, node.input(0));
  if (it == types.end() || !in || shape.dims.size() != 1)
    return std::nullopt;
  const onnx::AttributeProto *allowZero = attribute(node, "allowzero");
  std::vector<std::int64_t> dims = shape.values;
  // Element counts as a known product times named dims; nullopt where an
  // anonymous unknown dim takes part.
  struct Count {
    std::int64_t known = 1;
    std::multiset<std::int64_t> symbols;
  };
  auto count = [](llvm::ArrayRef<std::int64_t> of,
                  std::size_t skip) -> std::optional<Count> {
    Count c;
    for (std::size_t d = 0; d < of.size(); ++d) {
      if (d == skip)
        continue;
      if (isSymbol(of[d]))
        c.symbols.insert(of[d]);
      else if (isUnknown(of[d]) || of[d] < 0)
        return std::nullopt;
      else
        c.known *= of[d];
    }
    return c;
  };
  std::size_t inferred = dims.size();
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 0 && !(allowZero && allowZero->i()))
      dims[d] = d < in->size() ? (*in)[d] : kUnknownElement;
    if (dims[d] == -1)
      inferred = d;
    else if (dims[d] < 0 && !isUnknown(dims[d]))
      dims[d] = kUnknownElement;
  }
  if (inferred < dims.size()) {
    auto total = count(*in, in->size()), rest = count(dims, inferred);
    dims[inferred] = total && rest && total->symbols == rest->symbols &&
                             rest->known > 0 && total->known % rest->known == 0
                         ? total->known / rest->known
                         : kUnknownElement;
  }
  onnx::TypeProto type;
  onnx::TypeProto::Tensor *t = type.mutable_tensor_type();
  t->set_elem_type(it->second->tensor_type().elem_type());
  onnx::TensorShapeProto *s = t->mutable_shape();
  for (std::int64_t d : dims) {
    onnx::TensorShapeProto::Dimension *dim = s->add_dim();
    if (isSymbol(d))
      dim->set_dim_param(symbolNames[std::size_t(d - kFirstSymbol)]);
    else if (!isUnknown(d))
      dim->set_dim_value(d);
  }
  return type;
}

/// The type of an Expand's output from its input's type and its partly
/// known target `shape`: the two broadcast against each other, aligned from
/// the right; a dim is dynamic where neither gives its size.
std::optional<onnx::TypeProto>
expandedType(const onnx::NodeProto &node, const Known &shape,
             const std::map<std::string, const onnx::TypeProto *> &types) {
  auto it = types.find(node.input(0));
  auto in = knownShape(types, node.input(0));
  if (it == types.end() || !in || shape.dims.size() != 1)
    return std::nullopt;
  std::size_t rank = std::max(in->size(), shape.values.size());
  onnx::TypeProto type;
  onnx::TypeProto::Tensor *t = type.mutable_tensor_type();
  t->set_elem_type(it->second->tensor_type().elem_type());
  onnx::TensorShapeProto *s = t->mutable_shape();
  for (std::size_t d = 0; d < rank; ++d) {
    std::size_t fromIn = rank - in->size(),
                fromShape = rank - shape.values.size();
    std::int64_t a = d >= fromIn ? (*in)[d - fromIn] : 1;
    std::int64_t b = d >= fromShape ? shape.values[d - fromShape] : 1;
    onnx::TensorShapeProto::Dimension *dim = s->add_dim();
    if (isUnknown(a) || isUnknown(b)) {
      // The known one decides where it is not 1; a named dim against 1 or
      // itself stays that dim.
      std::int64_t known = isUnknown(a) ? b : a;
      if (!isUnknown(known) && known != 1)
        dim->set_dim_value(known);
      else if (isSymbol(a) && (a == b || b == 1))
        dim->set_dim_param(symbolNames[std::size_t(a - kFirstSymbol)]);
      else if (isSymbol(b) && a == 1)
        dim->set_dim_param(symbolNames[std::size_t(b - kFirstSymbol)]);
    } else {
      dim->set_dim_value(std::max(a, b));
    }
  }
  return type;
}

} // namespace

std::map<std::string, std::vector<std::int64_t>>
foldShapeArithmetic(onnx::ModelProto &model,
                    const onnx::ShapeInferenceOptions &options) {
  onnx::GraphProto *graph = model.mutable_graph();
  std::map<std::string, std::vector<std::int64_t>> partial;
  symbolNames.clear();
  // Each round that changes something folds a node or types an output, and
  // each node is folded or typed once: the rounds are bounded by the graph.
  const int rounds = 2 * graph->node_size() + 2;
  for (int round = 0; round < rounds; ++round) {
    onnx::shape_inference::InferShapes(model, importSchemas(), options);
    std::map<std::string, const onnx::TypeProto *> types;
    for (const auto &v : graph->input())
      types[v.name()] = &v.type();
    for (const auto &v : graph->value_info())
      types[v.name()] = &v.type();
    // Initializers have no TypeProto of their own: a class token that an
    // Expand broadcasts is one.
    std::deque<onnx::TypeProto> initializerTypes;
    for (const onnx::TensorProto &t : graph->initializer()) {
      if (types.count(t.name()))
        continue;
      onnx::TypeProto &type = initializerTypes.emplace_back();
      type.mutable_tensor_type()->set_elem_type(t.data_type());
      onnx::TensorShapeProto *shape =
          type.mutable_tensor_type()->mutable_shape();
      for (std::int64_t d : t.dims())
        shape->add_dim()->set_dim_value(d);
      types[t.name()] = &type;
    }
    std::map<std::string, Known> known;
    std::map<std::string, int> dataTypes;
    for (const onnx::TensorProto &t : graph->initializer())
      if (auto k = fromTensor(t)) {
        known[t.name()] = *k;
        dataTypes[t.name()] = t.data_type();
      }
    bool changed = false;
    std::vector<std::pair<std::string, onnx::TypeProto>> reshaped;
    // A type of our own replaces shape inference's only where it says more.
    auto dimsKnown = [](const onnx::TypeProto &p) {
      int n = 0;
      if (p.tensor_type().has_shape())
        for (const auto &d : p.tensor_type().shape().dim())
          n += d.has_dim_value() ? 2 : 1;
      return n;
    };
    for (onnx::NodeProto &node : *graph->mutable_node()) {
      if (node.output_size() != 1 ||
          !(node.domain().empty() || node.domain() == "ai.onnx"))
        continue;
      // A copy: the node is rewritten below.
      const std::string out = node.output(0);
      if (node.op_type() == "Constant") {
        if (const onnx::AttributeProto *a = attribute(node, "value"))
          if (auto k = fromTensor(a->t())) {
            known[out] = *k;
            dataTypes[out] = a->t().data_type();
          }
        continue;
      }
      auto input = [&](int i) -> const Known * {
        if (i >= node.input_size() || node.input(i).empty())
          return nullptr;
        auto it = known.find(node.input(i));
        return it == known.end() ? nullptr : &it->second;
      };
      if (node.op_type() == "Einsum") {
        auto t = types.find(out);
        if (auto type = einsumType(node, types);
            type && (t == types.end() || dimsKnown(*type) > dimsKnown(*t->second)))
          reshaped.emplace_back(out, *type);
        continue;
      }
      // The shape operand: Resize's sizes, the others' input 1.
      int shapeInput = node.op_type() == "Resize" ? 3 : 1;
      if ((node.op_type() == "Reshape" || node.op_type() == "Expand" ||
           node.op_type() == "Resize") &&
          input(shapeInput) && !input(shapeInput)->complete()) {
        auto t = types.find(out);
        const Known &shape = *input(shapeInput);
        auto type =
            node.op_type() == "Reshape"  ? reshapedType(node, shape, types)
            : node.op_type() == "Expand" ? expandedType(node, shape, types)
                                         : resizedType(node, shape, types);
        if (type &&
            (t == types.end() || dimsKnown(*type) > dimsKnown(*t->second)))
          reshaped.emplace_back(out, *type);
        continue;
      }
      std::optional<Known> value = fold(node, input, types);
      if (!value || value->values.size() > kMaxFoldedElements)
        continue;
      int dataType = onnx::TensorProto::INT64;
      const std::string &op = node.op_type();
      // The output's element type: the data input's (the second for
      // Where), the attribute's for Cast and ConstantOfShape, bool for
      // Equal.
      int from = op == "Where" ? 1 : 0;
      if (op != "Shape" && node.input_size() > from &&
          dataTypes.count(node.input(from)))
        dataType = dataTypes[node.input(from)];
      if (op == "Cast")
        if (const onnx::AttributeProto *to = attribute(node, "to"))
          dataType = int(to->i());
      if (op == "ConstantOfShape")
        dataType = attribute(node, "value")->t().data_type();
      if (op == "Equal")
        dataType = onnx::TensorProto::BOOL;
      if (dataType != onnx::TensorProto::INT64 &&
          dataType != onnx::TensorProto::INT32 &&
          dataType != onnx::TensorProto::BOOL)
        continue;
      known[out] = *value;
      dataTypes[out] = dataType;
      if (!value->complete()) {
        // Computed at run time; what is known of it serves later nodes
        // (the importer needs no names).
        std::vector<std::int64_t> values = value->values;
        for (std::int64_t &v : values)
          if (isUnknown(v))
            v = kUnknownElement;
        partial[out] = values;
        continue;
      }
      partial.erase(out);
      // The node becomes a Constant node holding the value.
      std::string name = node.name();
      node.Clear();
      node.set_name(name);
      node.set_op_type("Constant");
      node.add_output(out);
      onnx::AttributeProto *a = node.add_attribute();
      a->set_name("value");
      a->set_type(onnx::AttributeProto::TENSOR);
      *a->mutable_t() = toTensor(*value, dataType);
      changed = true;
    }
    for (auto &[name, type] : reshaped) {
      onnx::ValueInfoProto *info = nullptr;
      for (onnx::ValueInfoProto &v : *graph->mutable_value_info())
        if (v.name() == name)
          info = &v;
      if (!info) {
        info = graph->add_value_info();
        info->set_name(name);
      }
      *info->mutable_type() = type;
      changed = true;
    }
    if (!changed)
      break;
  }
  return partial;
}

} // namespace aot::onnx_import
