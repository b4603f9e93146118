// Scaled dot-product attention: Q K^T and P V, each 2*B*H*Nq*Nkv*d (4*B*H*Nq*Nkv*d when d_v == d).
// Softmax is not included; a causal mask is not discounted (the kernels compute, or skip, tiles in ways a
// shape formula cannot know): both are stated in the note.
#include "analyzer/flops/args.h"
#include "analyzer/flops/registry.h"

namespace flopscope {
namespace {
using flops::numel;

FlopsResult sdpa(std::span<const OpArg> args) {
  // (query[..., Nq, d], key[..., Nkv, d], value[..., Nkv, dv], ...)
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  const auto& q = args[0].shape;
  const auto& k = args[1].shape;
  const auto& v = args[2].shape;
  if (q.size() < 2 || k.size() < 2 || v.size() < 2) return {};
  double batch_heads = numel(std::span(q).first(q.size() - 2));
  double nq = static_cast<double>(q[q.size() - 2]), d = static_cast<double>(q.back());
  double nkv = static_cast<double>(k[k.size() - 2]), dv = static_cast<double>(v.back());
  FlopsResult r;
  r.known = true;
  r.macs = batch_heads * nq * nkv * (d + dv);
  r.flops = 2 * r.macs;
  r.bytes_read = flops::tensor_bytes(args[0]) + flops::tensor_bytes(args[1]) + flops::tensor_bytes(args[2]);
  r.bytes_written = batch_heads * nq * dv * flops::element_size(args[0]);
  r.note = "sdpa: 2*B*H*Nq*Nkv*(d+dv); softmax not included, causal mask not discounted";
  return r;
}

}  // namespace

void register_attention_family(FlopsRegistry& r) {
  for (const char* name :
       {"aten::scaled_dot_product_attention", "aten::_scaled_dot_product_attention",
        "aten::_scaled_dot_product_flash_attention", "aten::_scaled_dot_product_efficient_attention",
        "aten::_scaled_dot_product_cudnn_attention", "aten::_scaled_dot_product_attention_math",
        "aten::_scaled_dot_product_flash_attention_for_cpu"}) {
    r.add(name, sdpa);
  }
}

}  // namespace flopscope
