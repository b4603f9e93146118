// Reductions, scans and selection. Per input element: sum, prod, amax/amin, max/min, argmax/argmin,
// all/any, count_nonzero: 1; mean: 1 + 1 divide per output; var: 4 (mean add; subtract, multiply, add)
// + 1 per output, std: + 1 more per output (sqrt); norm: 2 (abs or square, add) + 1 root per output
// (3 for a general p); logsumexp: 4 (max, subtract, exp, add) + 2 per output (log, add back);
// cumsum/cumprod: 1. topk and sort count comparisons, n*log2(k) and n*log2(len): estimates, since the
// work depends on the data and the algorithm.
#include <cmath>

#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;
using flops::Shape;

enum OutKind { kSame, kIndex, kBool, kValueAndIndex, kTwoValues };

struct Spec {
  int dim;       // index of the dim argument
  int keep;      // index of keepdim
  int min_args;  // the dim overload has at least this many args; fewer means a full reduction
  int per_in;
  int per_out;
  OutKind out;
};

// The shape left after reducing `dims` (all when empty); nullopt for an out-of-range dim.
std::optional<Shape> reduced_shape(const Shape& in, const std::vector<std::int64_t>& dims, bool keepdim) {
  std::vector<bool> reduce(in.size(), dims.empty());
  for (auto d : dims) {
    auto nd = flops::norm_dim(d, in.size());
    if (!nd) return std::nullopt;
    if (*nd < in.size()) reduce[*nd] = true;
  }
  Shape out;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!reduce[i])
      out.push_back(in[i]);
    else if (keepdim)
      out.push_back(1);
  }
  return out;
}

double out_bytes(double n, const OpArg& x, OutKind kind) {
  switch (kind) {
    case kSame:
      return n * flops::element_size(x);
    case kIndex:
      return n * 8;
    case kBool:
      return n;
    case kValueAndIndex:
      return n * (flops::element_size(x) + 8);
    case kTwoValues:
      return 2 * n * flops::element_size(x);
  }
  return 0;
}

template <Spec kSpec>
FlopsResult reduce(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  std::vector<std::int64_t> dims;
  bool keepdim = false;
  if (static_cast<int>(args.size()) >= kSpec.min_args) {
    std::string_view text = flops::value_at(args, static_cast<std::size_t>(kSpec.dim));
    if (!flops::is_none(text)) {
      auto parsed = flops::parse_int_list(text);
      if (!parsed) return {};
      dims = std::move(*parsed);
    }
    keepdim = flops::parse_bool(flops::value_at(args, static_cast<std::size_t>(kSpec.keep))).value_or(false);
  }
  auto out = reduced_shape(x.shape, dims, keepdim);
  if (!out) return {};
  double n_in = flops::numel(x.shape), n_out = flops::numel(*out);
  return flops::result(kSpec.per_in * n_in + kSpec.per_out * n_out, 0, flops::tensor_bytes(x),
                       out_bytes(n_out, x, kSpec.out),
                       "reduction: constant per input element (docs/flops.md)");
}

// max/min: full (self), along a dim (self, dim, keepdim) -> values and indices, or elementwise (self, other).
FlopsResult max_min(Args args) {
  if (flops::is_tensor(args, 0) && flops::is_tensor(args, 1)) {
    auto p = flops::broadcast_inputs(args, 2);
    if (!p) return {};
    return flops::per_element(*p, 1, "elementwise max/min: 1 per output element");
  }
  if (args.size() >= 3) return reduce<Spec{1, 2, 3, 1, 0, kValueAndIndex}>(args);
  return reduce<Spec{1, 2, 99, 1, 0, kSame}>(args);
}

// norm(self, p, dim, keepdim, dtype) and linalg_vector_norm(self, ord, dim, keepdim, dtype).
FlopsResult norm(Args args) {
  auto p = flops::parse_double(flops::value_at(args, 1));
  bool general = p && *p != 1 && *p != 2 && !std::isinf(*p);
  return general ? reduce<Spec{2, 3, 3, 3, 1, kSame}>(args) : reduce<Spec{2, 3, 3, 2, 1, kSame}>(args);
}

// cumsum(self, dim, dtype) and friends: one operation per element, same shape out.
template <OutKind kOut>
FlopsResult scan(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double n = flops::numel(args[0].shape);
  return flops::result(n, 0, flops::tensor_bytes(args[0]), out_bytes(n, args[0], kOut),
                       "scan: 1 per element");
}

// topk(self, k, dim, largest, sorted) -> values and indices.
FlopsResult topk(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  auto k = flops::parse_int(flops::value_at(args, 1));
  auto dim = flops::parse_int(flops::value_at(args, 2)).value_or(-1);
  if (!k || x.shape.empty()) return {};
  auto d = flops::norm_dim(dim, x.shape.size());
  if (!d || x.shape[*d] == 0) return {};
  double n_in = flops::numel(x.shape);
  double n_out = n_in / static_cast<double>(x.shape[*d]) * static_cast<double>(*k);
  double cmp = n_in * std::max(1.0, std::log2(static_cast<double>(*k) + 1));
  return flops::result(cmp, 0, flops::tensor_bytes(x), out_bytes(n_out, x, kValueAndIndex),
                       "topk: ~n*log2(k) comparisons (estimate)", true);
}

// sort(self, dim, descending) / sort.stable(self, stable, dim, descending) / argsort(self, dim, descending).
template <bool kIndicesOnly>
FlopsResult sort(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  if (x.shape.empty())
    return flops::result(0, 0, flops::tensor_bytes(x),
                         out_bytes(1, x, kIndicesOnly ? kIndex : kValueAndIndex), "sort of a scalar");
  // The dim is the first integer argument that is not a bool flag.
  std::int64_t dim = -1;
  for (std::size_t i = 1; i < args.size() && i < 3; ++i) {
    if (flops::parse_bool(args[i].value)) continue;
    if (auto v = flops::parse_int(args[i].value)) {
      dim = *v;
      break;
    }
  }
  auto d = flops::norm_dim(dim, x.shape.size());
  if (!d) return {};
  double len = static_cast<double>(std::max<std::int64_t>(1, x.shape[*d]));
  double n = flops::numel(x.shape);
  return flops::result(n * std::max(1.0, std::log2(len)), 0, flops::tensor_bytes(x),
                       out_bytes(n, x, kIndicesOnly ? kIndex : kValueAndIndex),
                       "sort: ~n*log2(len) comparisons (estimate)", true);
}

}  // namespace

void register_reduction_family(FlopsRegistry& r) {
  // sum(self, dim, keepdim, dtype) | sum(self, dtype)
  for (const char* name : {"aten::sum", "aten::nansum", "aten::prod"}) {
    r.add(name, reduce<Spec{1, 2, 3, 1, 0, kSame}>);
  }
  r.add("aten::mean", reduce<Spec{1, 2, 3, 1, 1, kSame}>);
  r.add("aten::nanmean", reduce<Spec{1, 2, 3, 1, 1, kSame}>);
  // amax(self, dim=[], keepdim): an empty list reduces everything.
  for (const char* name : {"aten::amax", "aten::amin"}) r.add(name, reduce<Spec{1, 2, 2, 1, 0, kSame}>);
  for (const char* name : {"aten::max", "aten::min"}) r.add(name, max_min);
  for (const char* name : {"aten::argmax", "aten::argmin"}) r.add(name, reduce<Spec{1, 2, 2, 1, 0, kIndex}>);
  for (const char* name : {"aten::all", "aten::any"}) r.add(name, reduce<Spec{1, 2, 2, 1, 0, kBool}>);
  r.add("aten::count_nonzero", reduce<Spec{1, 9, 2, 1, 0, kIndex}>);
  // var(self, unbiased) | var(self, dim, unbiased | correction, keepdim)
  r.add("aten::var", reduce<Spec{1, 3, 4, 4, 1, kSame}>);
  r.add("aten::std", reduce<Spec{1, 3, 4, 4, 2, kSame}>);
  r.add("aten::var_mean", reduce<Spec{1, 3, 4, 4, 1, kTwoValues}>);
  r.add("aten::std_mean", reduce<Spec{1, 3, 4, 4, 2, kTwoValues}>);
  for (const char* name : {"aten::norm", "aten::linalg_vector_norm"}) r.add(name, norm);
  r.add("aten::frobenius_norm", reduce<Spec{1, 2, 2, 2, 1, kSame}>);
  r.add("aten::logsumexp", reduce<Spec{1, 2, 2, 4, 2, kSame}>);
  for (const char* name :
       {"aten::cumsum", "aten::cumsum_", "aten::cumprod", "aten::cumprod_", "aten::logcumsumexp"}) {
    r.add(name, scan<kSame>);
  }
  for (const char* name : {"aten::cummax", "aten::cummin"}) r.add(name, scan<kValueAndIndex>);
  r.add("aten::topk", topk);
  r.add("aten::sort", sort<false>);
  r.add("aten::argsort", sort<true>);
}

}  // namespace flopscope
