// Attention. The two products Q K^T and P V cost 2*B*H*Nq*Nkv*d MACs (4*B*H*Nq*Nkv*d FLOPs when
// d_v == d). The fused ops also do the softmax (5 FLOPs per score, as aten::softmax), the 1/sqrt(d)
// scaling (1 per score) and an additive mask (1 per score): those enter FLOPs, not MACs. A causal mask is
// not discounted: the full Nq*Nkv score matrix is counted (kernels that skip masked tiles do about half);
// the note says so. _native_multi_head_attention and _transformer_encoder_layer_fwd are decomposed into
// their projections, attention, normalizations, activations and residual adds.
#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;
using flops::numel;

constexpr double kSoftmaxPerScore = 5;
constexpr double kScalePerScore = 1;

struct AttentionShape {
  double batch_heads = 0, nq = 0, nkv = 0, d = 0, dv = 0;
};

// Scores and products for the given shape; mask adds one FLOP per score.
FlopsResult attention_core(const AttentionShape& s, bool mask) {
  double scores = s.batch_heads * s.nq * s.nkv;
  FlopsResult r;
  r.known = true;
  r.macs = scores * (s.d + s.dv);
  r.flops = 2 * r.macs + scores * (kSoftmaxPerScore + kScalePerScore + (mask ? 1 : 0));
  return r;
}

// (query[..., Nq, d], key[..., Nkv, d], value[..., Nkv, dv], attn_mask?, ...) with is_causal at kCausal.
template <int kCausal, int kMask>
FlopsResult sdpa(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  const auto& q = args[0].shape;
  const auto& k = args[1].shape;
  const auto& v = args[2].shape;
  if (q.size() < 2 || k.size() < 2 || v.size() < 2) return {};
  AttentionShape s;
  s.batch_heads = numel(std::span(q).first(q.size() - 2));
  s.nq = static_cast<double>(q[q.size() - 2]);
  s.d = static_cast<double>(q.back());
  s.nkv = static_cast<double>(k[k.size() - 2]);
  s.dv = static_cast<double>(v.back());
  bool mask = kMask >= 0 && flops::is_tensor(args, kMask);
  FlopsResult r = attention_core(s, mask);
  r.bytes_read = flops::bytes_in(args, 0, 3) + (mask ? flops::tensor_bytes(args[kMask]) : 0);
  r.bytes_written = s.batch_heads * s.nq * s.dv * flops::element_size(args[0]);
  bool causal = kCausal >= 0 && flops::parse_bool(flops::value_at(args, kCausal)).value_or(false);
  r.note = causal ? "sdpa: 4*B*H*Nq*Nkv*d + 6 per score (softmax, scale); causal: full scores counted"
                  : "sdpa: 4*B*H*Nq*Nkv*d + 6 per score (softmax, scale) + 1 with a mask";
  return r;
}

// Flash / memory-efficient kernels take [B, N, H, d] (or [total, H, d] for variable lengths).
template <int kCausal>
FlopsResult attention_bnhd(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  const auto& q = args[0].shape;
  const auto& k = args[1].shape;
  const auto& v = args[2].shape;
  if (q.size() != k.size() || q.size() != v.size() || (q.size() != 4 && q.size() != 3)) return {};
  bool varlen = q.size() == 3;
  AttentionShape s;
  double b = varlen ? 1 : static_cast<double>(q[0]);
  s.batch_heads = b * static_cast<double>(q[q.size() - 2]);
  s.nq = static_cast<double>(q[q.size() - 3]);
  s.nkv = static_cast<double>(k[k.size() - 3]);
  s.d = static_cast<double>(q.back());
  s.dv = static_cast<double>(v.back());
  FlopsResult r = attention_core(s, false);
  r.bytes_read = flops::bytes_in(args, 0, 3);
  r.bytes_written = numel(std::span(q).first(q.size() - 1)) * s.dv * flops::element_size(args[0]);
  bool causal = kCausal >= 0 && flops::parse_bool(flops::value_at(args, kCausal)).value_or(false);
  r.note = causal ? "attention kernel: 4*B*H*Nq*Nkv*d + 6 per score; causal: full scores counted"
                  : "attention kernel: 4*B*H*Nq*Nkv*d + 6 per score";
  if (varlen) {
    r.estimate = true;
    r.note = "attention kernel, packed variable-length batch: counted as one sequence (upper bound)";
  }
  return r;
}

// Multi-head attention with in- and out-projections: B, Nq, Nkv, E, H.
FlopsResult mha_cost(double b, double nq, double nkv, double e, double heads, bool mask) {
  AttentionShape s;
  s.batch_heads = b * heads;
  s.nq = nq;
  s.nkv = nkv;
  s.d = s.dv = heads > 0 ? e / heads : e;
  FlopsResult r = attention_core(s, mask);
  double proj_macs = b * (nq + 2 * nkv) * e * e + b * nq * e * e;  // q, k, v in; out
  double bias = b * (nq + 2 * nkv) * e + b * nq * e;
  double q_scale = b * nq * e;  // q is scaled before the product
  r.macs += proj_macs;
  r.flops = 2 * r.macs + bias + q_scale + s.batch_heads * nq * nkv * (kSoftmaxPerScore + (mask ? 1 : 0));
  return r;
}

// _native_multi_head_attention(query, key, value, embed_dim, num_head, qkv_weight, qkv_bias, proj_weight,
//                              proj_bias, mask, need_weights, average_attn_weights, mask_type)
FlopsResult native_mha(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  const auto& q = args[0].shape;
  const auto& k = args[1].shape;
  if (q.size() < 2 || k.size() < 2) return {};
  double e = static_cast<double>(q.back());
  auto heads = flops::parse_int(flops::value_at(args, 4));
  if (!heads || *heads <= 0) return {};
  double b = q.size() >= 3 ? numel(std::span(q).first(q.size() - 2)) : 1;
  double nq = static_cast<double>(q[q.size() - 2]), nkv = static_cast<double>(k[k.size() - 2]);
  bool mask = flops::is_tensor(args, 9);
  FlopsResult r = mha_cost(b, nq, nkv, e, static_cast<double>(*heads), mask);
  r.bytes_read = flops::bytes_in(args, 0, 3) + flops::bytes_in(args, 5, 10);
  int elem = flops::element_size(args[0]);
  r.bytes_written = b * nq * e * elem;
  bool need_weights = flops::parse_bool(flops::value_at(args, 10)).value_or(true);
  if (need_weights) {
    bool average = flops::parse_bool(flops::value_at(args, 11)).value_or(true);
    double weights = b * nq * nkv * (average ? 1 : static_cast<double>(*heads));
    r.bytes_written += weights * elem;
    if (average) r.flops += b * static_cast<double>(*heads) * nq * nkv;
  }
  r.note = "multi-head attention: q/k/v/out projections + attention + softmax, decomposed";
  return r;
}

// _transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias,
//   use_gelu, norm_first, eps, norm_weight_1, norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1,
//   ffn_bias_1, ffn_weight_2, ffn_bias_2, mask, mask_type)
FlopsResult encoder_layer(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 14)) return {};
  const auto& x = args[0].shape;
  if (x.size() < 2 || args[14].shape.size() != 2) return {};
  double e = static_cast<double>(x.back());
  double ffn = static_cast<double>(args[14].shape[0]);
  auto heads = flops::parse_int(flops::value_at(args, 2));
  if (!heads || *heads <= 0) return {};
  double b = x.size() >= 3 ? numel(std::span(x).first(x.size() - 2)) : 1;
  double n = static_cast<double>(x[x.size() - 2]);
  bool mask = flops::is_tensor(args, 18);
  FlopsResult r = mha_cost(b, n, n, e, static_cast<double>(*heads), mask);
  bool gelu = flops::parse_bool(flops::value_at(args, 7)).value_or(false);
  double tokens = b * n;
  double ffn_macs = 2 * tokens * e * ffn;
  r.macs += ffn_macs;
  r.flops += 2 * ffn_macs + tokens * ffn + tokens * e  // FFN products and biases
             + tokens * ffn * (gelu ? 5 : 1)           // activation
             + 2 * 7 * tokens * e                      // two layer norms with weight and bias
             + 2 * tokens * e;                         // two residual adds
  r.bytes_read = flops::bytes_in(args, 0, 1) + flops::bytes_in(args, 3, 7) + flops::bytes_in(args, 10, 19);
  r.bytes_written = tokens * e * flops::element_size(args[0]);
  r.note = "encoder layer: attention + 2 layer norms + FFN + activation + residual adds, decomposed";
  return r;
}

// _transform_bias_rescale_qkv(qkv[B, N, 3E], qkv_bias[3E], num_heads): bias add on all, scale on q.
FlopsResult transform_bias_rescale_qkv(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double n = numel(args[0].shape);
  return flops::result(n + n / 3, 0, flops::bytes_in(args, 0, 2), n * flops::element_size(args[0]),
                       "qkv bias add + q scaling: 1 per element + 1 per q element");
}

}  // namespace

void register_attention_family(FlopsRegistry& r) {
  r.add("aten::scaled_dot_product_attention", sdpa<5, 3>);
  r.add("aten::_scaled_dot_product_attention", sdpa<6, 3>);
  r.add("aten::_scaled_dot_product_attention_math", sdpa<5, 3>);
  r.add("aten::_scaled_dot_product_flash_attention", sdpa<4, -1>);
  r.add("aten::_scaled_dot_product_flash_attention_for_cpu", sdpa<4, 5>);
  r.add("aten::_scaled_dot_product_efficient_attention", sdpa<6, 3>);
  r.add("aten::_scaled_dot_product_cudnn_attention", sdpa<6, 3>);
  r.add("aten::_flash_attention_forward", attention_bnhd<8>);
  r.add("aten::_efficient_attention_forward", attention_bnhd<-1>);
  r.add("aten::_native_multi_head_attention", native_mha);
  r.add("aten::_transformer_encoder_layer_fwd", encoder_layer);
  r.add("aten::_transform_bias_rescale_qkv", transform_bias_rescale_qkv);
}

}  // namespace flopscope
