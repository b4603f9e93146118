// Matrix products: linear, mm, bmm, matmul (with broadcasting and the 1-D cases), addmm.
// MACs = M*N*K per product; FLOPs = 2*MACs; a fused bias add costs one FLOP per output element.
#include <algorithm>

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

FlopsResult addmm(std::span<const OpArg> args) {
  // addmm(bias, m1[M,K], m2[K,N], beta, alpha): the bias add is M*N; alpha/beta scaling is not counted.
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  if (args[1].shape.size() != 2 || args[2].shape.size() != 2) return {};
  auto p = matmul_shape(args[1].shape, args[2].shape);
  if (!p) return {};
  return product_result(*p, args.first(3), flops::element_size(args[1]), numel(p->out),
                        "addmm: 2*M*N*K + M*N (bias)");
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
  r.add("aten::addmm", addmm);
  r.add("aten::mm", mm);
  r.add("aten::bmm", bmm);
}

}  // namespace flopscope
