// Matrix products: linear, mm, bmm, matmul (with broadcasting and the 1-D cases), addmm, addmv, baddbmm,
// addbmm, dot, mv, outer, einsum (contractions of any number of operands, pairwise left to right).
// MACs = M*N*K per product; FLOPs = 2*MACs; a fused bias add costs one FLOP per output element.
#include <algorithm>
#include <array>
#include <string_view>

#include "analyzer/flops/args.h"
#include "analyzer/flops/registry.h"

namespace flopscope {
namespace {
using flops::numel;
using flops::Shape;
using flops::tensor_bytes;

struct Product {
  double macs = 0;
  Shape out;
};

// torch.matmul semantics: 1-D operands are promoted and the added dimension removed afterwards.
std::optional<Product> matmul_shape(const Shape& a, const Shape& b) {
  if (a.empty() || b.empty()) return std::nullopt;
  if (a.size() == 1 && b.size() == 1) {
    if (a[0] != b[0]) return std::nullopt;
    return Product{static_cast<double>(a[0]), {}};
  }
  Shape a2 = a.size() == 1 ? Shape{1, a[0]} : a;
  Shape b2 = b.size() == 1 ? Shape{b[0], 1} : b;
  std::int64_t m = a2[a2.size() - 2], k = a2.back(), k2 = b2[b2.size() - 2], n = b2.back();
  if (k != k2) return std::nullopt;
  auto batch = flops::broadcast(std::span(a2).first(a2.size() - 2), std::span(b2).first(b2.size() - 2));
  if (!batch) return std::nullopt;
  Product p;
  p.macs = numel(*batch) * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  p.out = *batch;
  if (a.size() > 1) p.out.push_back(m);
  if (b.size() > 1) p.out.push_back(n);
  return p;
}

FlopsResult product_result(const Product& p, std::span<const OpArg> inputs, int out_elem_size,
                           double bias_elements, std::string_view note) {
  FlopsResult r;
  r.known = true;
  r.macs = p.macs;
  r.flops = 2 * p.macs + bias_elements;
  for (const auto& a : inputs) r.bytes_read += tensor_bytes(a);
  r.bytes_written = numel(p.out) * out_elem_size;
  r.note = note;
  return r;
}

FlopsResult matmul(std::span<const OpArg> args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  auto p = matmul_shape(args[0].shape, args[1].shape);
  if (!p) return {};
  return product_result(*p, args.first(2), flops::element_size(args[0]), 0, "matmul: 2*M*N*K");
}

FlopsResult linear(std::span<const OpArg> args) {
  // linear(input[..., K], weight[N, K], bias[N]?)
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  const Shape& w = args[1].shape;
  if (w.size() != 2 && w.size() != 1) return {};
  Shape wt = w.size() == 2 ? Shape{w[1], w[0]} : w;
  auto p = matmul_shape(args[0].shape, wt);
  if (!p) return {};
  bool has_bias = flops::is_tensor(args, 2);
  double bias = has_bias ? numel(p->out) : 0;
  return product_result(*p, args.first(has_bias ? 3 : 2), flops::element_size(args[0]), bias,
                        has_bias ? "linear: 2*M*N*K + M*N (bias)" : "linear: 2*M*N*K");
}

// beta == 0 drops the added term (PyTorch does not even read it).
bool adds_self(std::span<const OpArg> args, std::size_t beta_index) {
  auto beta = flops::parse_double(flops::value_at(args, beta_index));
  return !beta || *beta != 0;
}

// addmm / addmv / baddbmm: self + m1 @ m2 with self broadcast to the product's shape. The add costs one
// FLOP per output element; alpha/beta scaling is not counted.
template <std::size_t kRank1, std::size_t kRank2>
FlopsResult add_product(std::span<const OpArg> args, std::string_view note) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  if (args[1].shape.size() != kRank1 || args[2].shape.size() != kRank2) return {};
  auto p = matmul_shape(args[1].shape, args[2].shape);
  if (!p) return {};
  bool bias = adds_self(args, 3);
  FlopsResult r =
      product_result(*p, args.subspan(1, 2), flops::element_size(args[1]), bias ? numel(p->out) : 0, note);
  if (bias) r.bytes_read += flops::tensor_bytes(args[0]);
  return r;
}

FlopsResult addmm(std::span<const OpArg> args) {
  return add_product<2, 2>(args, "addmm: 2*M*N*K + M*N (bias)");
}
// _addmm_activation(self, mat1, mat2, beta, alpha, use_gelu): addmm followed by relu (1 per element) or gelu
// (erf form, 5 per element) in one kernel; the FFN's first product of the encoder layer's fast path.
FlopsResult addmm_activation(std::span<const OpArg> args) {
  FlopsResult r = add_product<2, 2>(args, "");
  if (!r.known) return r;
  bool gelu = flops::parse_bool(flops::value_at(args, 5)).value_or(false);
  double out = r.bytes_written / flops::element_size(args[1]);
  r.flops += (gelu ? 5 : 1) * out;
  r.note = gelu ? "addmm + gelu: 2*M*N*K + M*N (bias) + 5*M*N" : "addmm + relu: 2*M*N*K + M*N (bias) + M*N";
  return r;
}
FlopsResult addmv(std::span<const OpArg> args) {
  return add_product<2, 1>(args, "addmv: 2*M*K + M (bias)");
}
FlopsResult baddbmm(std::span<const OpArg> args) {
  return add_product<3, 3>(args, "baddbmm: 2*B*M*N*K + B*M*N (added term)");
}

// addbmm(self[M,N], b1[B,M,K], b2[B,K,N]): the B products are summed into one [M,N] result.
FlopsResult addbmm(std::span<const OpArg> args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  const Shape& a = args[1].shape;
  const Shape& b = args[2].shape;
  if (a.size() != 3 || b.size() != 3 || a[0] != b[0] || a[2] != b[1]) return {};
  double out = static_cast<double>(a[1]) * static_cast<double>(b[2]);
  double macs = static_cast<double>(a[0]) * out * static_cast<double>(a[2]);
  bool bias = adds_self(args, 3);
  return flops::result(2 * macs + (bias ? out : 0), macs, flops::bytes_in(args, bias ? 0 : 1, 3),
                       out * flops::element_size(args[1]), "addbmm: 2*B*M*N*K + M*N (added term)");
}

FlopsResult dot(std::span<const OpArg> args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  if (args[0].shape.size() != 1 || args[1].shape.size() != 1) return {};
  return matmul(args);
}

FlopsResult mv(std::span<const OpArg> args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  if (args[0].shape.size() != 2 || args[1].shape.size() != 1) return {};
  return matmul(args);
}

// outer(a[M], b[N]): M*N multiplies, no accumulation.
FlopsResult outer(std::span<const OpArg> args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  double out = numel(args[0].shape) * numel(args[1].shape);
  return flops::result(out, 0, flops::bytes_in(args, 0, 2), out * flops::element_size(args[0]),
                       "outer: M*N multiplies");
}

// ---- einsum ----
// Labels: letters keep their character code; the dimensions an ellipsis stands for get codes 128 + k,
// counted from the right so that broadcasting operands line up.
using Labels = std::vector<int>;

struct Operand {
  Labels labels;
  Shape shape;
};

std::optional<Labels> parse_term(std::string_view term, std::size_t rank) {
  Labels out;
  auto dots = term.find("...");
  std::size_t explicit_count = 0;
  for (char c : term) explicit_count += (c != '.' && c != ' ') ? 1 : 0;
  if (dots == std::string_view::npos && explicit_count != rank) return std::nullopt;
  if (dots != std::string_view::npos && explicit_count > rank) return std::nullopt;
  std::size_t ellipsis_dims = rank - explicit_count;
  if (ellipsis_dims > 100) return std::nullopt;  // label codes 128 + k must stay below 256
  for (std::size_t i = 0; i < term.size(); ++i) {
    char c = term[i];
    if (c == ' ') continue;
    if (c == '.') {
      if (i == dots) {
        for (std::size_t k = ellipsis_dims; k > 0; --k) out.push_back(128 + static_cast<int>(k));
      }
      continue;
    }
    out.push_back(static_cast<unsigned char>(c));
  }
  return out;
}

// Sizes by label; a label may appear with size 1 in one operand (broadcast).
struct LabelSizes {
  std::array<std::int64_t, 256> size{};
  void note(int label, std::int64_t s) {
    auto& cur = size[static_cast<std::size_t>(label)];
    cur = std::max(cur, s);
  }
  std::int64_t of(int label) const {
    return std::max<std::int64_t>(1, size[static_cast<std::size_t>(label)]);
  }
};

bool contains(const Labels& l, int x) {
  return std::find(l.begin(), l.end(), x) != l.end();
}

FlopsResult einsum(std::span<const OpArg> args) {
  // einsum(equation, tensors, path)
  if (args.empty() || args[0].is_tensor) return {};
  std::string_view eq = args[0].value;
  while (!eq.empty() && (eq.front() == '\'' || eq.front() == '"' || eq.front() == ' ')) eq.remove_prefix(1);
  while (!eq.empty() && (eq.back() == '\'' || eq.back() == '"' || eq.back() == ' ')) eq.remove_suffix(1);
  auto list = flops::tensor_list(args, 1);
  std::vector<const OpArg*> tensors;
  tensors.reserve(list.size());
  for (const auto& t : list) tensors.push_back(&t);
  if (eq.empty() || tensors.empty()) return {};
  auto arrow = eq.find("->");
  std::string_view lhs = eq.substr(0, arrow);
  std::vector<Operand> ops;
  LabelSizes sizes;
  std::size_t max_ellipsis = 0;
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    auto comma = lhs.find(',');
    std::string_view term = lhs.substr(0, comma);
    auto labels = parse_term(term, tensors[t]->shape.size());
    if (!labels) return {};
    for (std::size_t d = 0; d < labels->size(); ++d) sizes.note((*labels)[d], tensors[t]->shape[d]);
    for (int l : *labels)
      max_ellipsis = std::max<std::size_t>(max_ellipsis, l > 128 ? static_cast<std::size_t>(l - 128) : 0);
    ops.push_back({std::move(*labels), tensors[t]->shape});
    if (comma == std::string_view::npos) {
      if (t + 1 != tensors.size()) return {};
      break;
    }
    lhs.remove_prefix(comma + 1);
  }
  if (ops.size() != tensors.size()) return {};
  Labels output;
  if (arrow != std::string_view::npos) {
    std::string_view rhs = eq.substr(arrow + 2);
    for (std::size_t i = 0; i < rhs.size(); ++i) {
      if (rhs[i] == '.') {
        if (rhs.substr(i, 3) == "...") {
          for (std::size_t k = max_ellipsis; k > 0; --k) output.push_back(128 + static_cast<int>(k));
          i += 2;
        }
      } else if (rhs[i] != ' ') {
        output.push_back(static_cast<unsigned char>(rhs[i]));
      }
    }
  } else {
    // Implicit output: ellipsis dims, then labels that appear exactly once, alphabetically.
    for (std::size_t k = max_ellipsis; k > 0; --k) output.push_back(128 + static_cast<int>(k));
    std::array<int, 128> count{};
    for (const auto& op : ops)
      for (int l : op.labels)
        if (l < 128) ++count[static_cast<std::size_t>(l)];
    for (int c = 0; c < 128; ++c)
      if (count[static_cast<std::size_t>(c)] == 1) output.push_back(c);
  }
  auto labels_numel = [&](const Labels& l) {
    double n = 1;
    for (int x : l) n *= static_cast<double>(sizes.of(x));
    return n;
  };
  // Contract left to right; each step keeps the labels still needed by later operands or the output.
  double macs = 0;
  double flops = 0;
  Labels current = ops[0].labels;
  if (ops.size() == 1) {
    Labels kept;
    for (int l : current)
      if (contains(output, l) && !contains(kept, l)) kept.push_back(l);
    double in = labels_numel(current), out = labels_numel(kept);
    flops = in > out ? in : 0;  // a reduction adds every input element once; a permutation costs nothing
  }
  for (std::size_t i = 1; i < ops.size(); ++i) {
    Labels all = current;
    for (int l : ops[i].labels)
      if (!contains(all, l)) all.push_back(l);
    Labels kept;
    for (int l : all) {
      bool needed = contains(output, l);
      for (std::size_t j = i + 1; j < ops.size() && !needed; ++j) needed = contains(ops[j].labels, l);
      if (needed) kept.push_back(l);
    }
    double step = labels_numel(all);
    macs += step;
    current = std::move(kept);
  }
  flops += 2 * macs;
  double read = 0;
  for (const auto* t : tensors) read += flops::tensor_bytes(*t);
  return flops::result(flops, macs, read, labels_numel(output) * flops::element_size(*tensors[0]),
                       "einsum: 2 * product of all label sizes per pairwise contraction");
}

FlopsResult mm(std::span<const OpArg> args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  if (args[0].shape.size() != 2 || args[1].shape.size() != 2) return {};
  return matmul(args);
}

FlopsResult bmm(std::span<const OpArg> args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  if (args[0].shape.size() != 3 || args[1].shape.size() != 3) return {};
  return matmul(args);
}

}  // namespace

void register_matmul_family(FlopsRegistry& r) {
  r.add("aten::matmul", matmul);
  r.add("aten::linear", linear);
  // ROCm aiter's bf16 GEMM (serving engines): gemm_a16w16(A[M, K], B[N, K], bias[N]?, out_dtype, ...) is
  // A @ B^T (+ bias), the layout of linear.
  r.add("aiter::gemm_a16w16", linear);
  r.add("aten::mm", mm);
  r.add("aten::bmm", bmm);
  // In-place forms (self is the added term and the output) cost the same.
  for (const char* name : {"aten::addmm", "aten::addmm_"}) r.add(name, addmm);
  r.add("aten::_addmm_activation", addmm_activation);
  for (const char* name : {"aten::addmv", "aten::addmv_"}) r.add(name, addmv);
  for (const char* name : {"aten::baddbmm", "aten::baddbmm_"}) r.add(name, baddbmm);
  for (const char* name : {"aten::addbmm", "aten::addbmm_"}) r.add(name, addbmm);
  r.add("aten::dot", dot);
  r.add("aten::vdot", dot);
  r.add("aten::mv", mv);
  r.add("aten::outer", outer);
  r.add("aten::ger", outer);
  r.add("aten::einsum", einsum);
}

}  // namespace flopscope
