// Attention. The two products Q K^T and P V cost Nq*Nkv*(d + d_v) MACs per (batch, query head), that is
// 4*B*H*Nq*Nkv*d FLOPs when d_v == d: the convention of FlashAttention's papers, torch.utils.flop_counter
// and TraceLens. Softmax, scaling and mask adds are not counted (docs/flops.md). Heads are the query's
// (GQA/MQA: shared K/V heads do not change the products). Causal and sliding-window masks count only the
// visible (query, key) pairs, row by row: torch's SDPA entry points align a non-square causal mask to the
// top left, flash-style kernels (FlashAttention 2.1+, serving kernels) to the bottom right. Variable-length
// batches (cu_seqlens) are exact when every sequence has the maximum length, otherwise an upper bound.
// _native_multi_head_attention and _transformer_encoder_layer_fwd are decomposed into their projections,
// attention, normalizations, activations and residual adds.
#include "analyzer/flops/attention.h"

#include <algorithm>

#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;
using flops::numel;

constexpr double kSoftmaxPerScore = 5;
constexpr std::int64_t kNoWindow = -1;

enum class Align { kTopLeft, kBottomRight };

struct Mask {
  bool causal = false;
  Align align = Align::kBottomRight;
  std::int64_t left = kNoWindow;   // keys visible before the diagonal, -1 = all
  std::int64_t right = kNoWindow;  // keys visible after it, -1 = all (causal forces 0)
};

}  // namespace

// (query, key) pairs one head computes: per query row i, the keys j with
// diag(i) - left <= j <= diag(i) + right, where diag(i) = i (top left) or i + Nkv - Nq (bottom right).
double attention_visible_pairs(std::int64_t nq, std::int64_t nkv, bool causal, bool bottom_right,
                               std::int64_t window_left, std::int64_t window_right) {
  if (nq <= 0 || nkv <= 0) return 0;
  const std::int64_t right = causal ? 0 : window_right;
  if (window_left < 0 && right < 0) return static_cast<double>(nq) * static_cast<double>(nkv);
  const std::int64_t offset = bottom_right ? nkv - nq : 0;
  if (window_left < 0) {
    // Row i sees clamp(i + offset + right + 1, 0, Nkv) keys: none before i0, a growing run up to i1, then
    // all.
    const std::int64_t shift = offset + right + 1;
    const std::int64_t i0 = std::clamp<std::int64_t>(1 - shift, 0, nq);
    const std::int64_t i1 = std::clamp<std::int64_t>(nkv - shift, i0, nq);
    const double n = static_cast<double>(i1 - i0);
    const double first = static_cast<double>(i0 + shift), last = static_cast<double>(i1 - 1 + shift);
    return n * (first + last) / 2 + static_cast<double>(nq - i1) * static_cast<double>(nkv);
  }
  if (nq > (std::int64_t{1} << 24)) return -1;  // a window over this many rows: not counted row by row
  double pairs = 0;
  for (std::int64_t i = 0; i < nq; ++i) {
    std::int64_t diag = i + offset;
    std::int64_t lo = std::max<std::int64_t>(0, diag - window_left);
    std::int64_t hi = right < 0 ? nkv - 1 : std::min(nkv - 1, diag + right);
    if (hi >= lo) pairs += static_cast<double>(hi - lo + 1);
  }
  return pairs;
}

namespace {

struct AttentionShape {
  double batch_heads = 0, d = 0, dv = 0;
  std::int64_t nq = 0, nkv = 0;
};

// The two products over the visible pairs.
FlopsResult attention_core(const AttentionShape& s, const Mask& m) {
  double pairs =
      attention_visible_pairs(s.nq, s.nkv, m.causal, m.align == Align::kBottomRight, m.left, m.right);
  FlopsResult r;
  if (pairs < 0) return r;
  r.known = true;
  r.macs = s.batch_heads * pairs * (s.d + s.dv);
  r.flops = 2 * r.macs;
  return r;
}

std::string_view mask_note(const Mask& m, bool attn_mask) {
  if (m.left >= 0 || (!m.causal && m.right >= 0)) {
    return "attention: two products over the visible pairs of a sliding window (4*d per pair and head)";
  }
  if (m.causal) {
    return m.align == Align::kTopLeft ? "attention: two products, causal (top-left aligned): visible pairs "
                                        "only, N(N+1)/2 when square"
                                      : "attention: two products, causal (bottom-right aligned): visible "
                                        "pairs only, N(N+1)/2 when square";
  }
  return attn_mask ? "attention: two products 4*B*H*Nq*Nkv*d; attn_mask given: full score matrix counted"
                   : "attention: two products 4*B*H*Nq*Nkv*d (no mask)";
}

std::int64_t int_at(Args args, int i, std::int64_t fallback) {
  if (i < 0) return fallback;
  return flops::parse_int(flops::value_at(args, static_cast<std::size_t>(i))).value_or(fallback);
}

bool bool_at(Args args, int i) {
  return i >= 0 && flops::parse_bool(flops::value_at(args, static_cast<std::size_t>(i))).value_or(false);
}

// torch's SDPA entry points: (query[..., Nq, d], key[..., Nkv, d], value[..., Nkv, dv], ...), is_causal at
// kCausal, attn_mask at kMask; a non-square causal mask is top-left aligned (torch.nn.attention.bias).
template <int kCausal, int kMask>
FlopsResult sdpa(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  const auto& q = args[0].shape;
  const auto& k = args[1].shape;
  const auto& v = args[2].shape;
  if (q.size() < 2 || k.size() < 2 || v.size() < 2) return {};
  AttentionShape s;
  s.batch_heads = numel(std::span(q).first(q.size() - 2));
  s.nq = q[q.size() - 2];
  s.d = static_cast<double>(q.back());
  s.nkv = k[k.size() - 2];
  s.dv = static_cast<double>(v.back());
  bool mask = kMask >= 0 && flops::is_tensor(args, kMask);
  Mask m;
  m.causal = bool_at(args, kCausal);
  m.align = Align::kTopLeft;
  FlopsResult r = attention_core(s, m);
  if (!r.known) return r;
  r.bytes_read = flops::bytes_in(args, 0, 3) + (mask ? flops::tensor_bytes(args[kMask]) : 0);
  r.bytes_written = s.batch_heads * static_cast<double>(s.nq) * s.dv * flops::element_size(args[0]);
  r.note = mask_note(m, mask);
  return r;
}

// Where a flash-style kernel keeps its arguments; -1 = not an argument of this op.
struct KernelArgs {
  int cu_seqlens_q = -1;  // tensor [n + 1]: a packed variable-length batch when present
  int max_q = -1, max_k = -1;
  int causal = -1;
  int mask_type = -1;  // xformers custom_mask_type: 0 none, 1 causal top left, 2 causal bottom right
  int window_left = -1, window_right = -1;
  bool paged_kv = false;  // k/v are a cache pool: their first dimension is not the key count
};

// Flash / memory-efficient / serving kernels: q [B, Nq, Hq, d] and k, v [B, Nkv, Hkv, d], or packed
// q [total_q, Hq, d] with cu_seqlens and max lengths.
template <KernelArgs kA>
FlopsResult attention_kernel(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1) || !flops::is_tensor(args, 2)) return {};
  const auto& q = args[0].shape;
  const auto& k = args[1].shape;
  const auto& v = args[2].shape;
  if (q.size() != k.size() || q.size() != v.size() || (q.size() != 4 && q.size() != 3)) return {};
  Mask m;
  m.causal = bool_at(args, kA.causal);
  if (kA.mask_type >= 0) {
    auto type = int_at(args, kA.mask_type, 0);
    m.causal = type == 1 || type == 2;
    m.align = type == 1 ? Align::kTopLeft : Align::kBottomRight;
  }
  m.left = int_at(args, kA.window_left, kNoWindow);
  m.right = int_at(args, kA.window_right, kNoWindow);
  AttentionShape s;
  s.d = static_cast<double>(q.back());
  s.dv = static_cast<double>(v.back());
  const double heads = static_cast<double>(q[q.size() - 2]);
  const int elem = flops::element_size(args[0]);
  FlopsResult r;
  if (q.size() == 4) {
    s.batch_heads = static_cast<double>(q[0]) * heads;
    s.nq = q[1];
    s.nkv = k[1];
    r = attention_core(s, m);
    if (!r.known) return r;
    r.note = mask_note(m, false);
  } else {
    // Packed batch: n sequences from cu_seqlens [n + 1]; lengths from max_seqlen_q/k. Every sequence has
    // max_seqlen_q queries when total_q == n * max_q; keys then number max_k when k is packed with
    // total_k == n * max_k, or (paged cache, causal) when max_k == max_q, since a sequence's keys include
    // its own queries. Otherwise n * (max_q, max_k) sequences bound the work from above.
    if (kA.cu_seqlens_q < 0 || !flops::is_tensor(args, static_cast<std::size_t>(kA.cu_seqlens_q))) return {};
    const auto& cu = args[static_cast<std::size_t>(kA.cu_seqlens_q)].shape;
    if (cu.size() != 1 || cu[0] < 2) return {};
    const std::int64_t n = cu[0] - 1;
    const std::int64_t total_q = q[0];
    std::int64_t max_q = int_at(args, kA.max_q, -1), max_k = int_at(args, kA.max_k, -1);
    if (max_q <= 0 || max_k <= 0) return {};
    bool q_exact = total_q == n * max_q;
    bool k_exact = kA.paged_kv ? (q_exact && m.causal && m.right <= 0 && max_k == max_q) : k[0] == n * max_k;
    s.batch_heads = static_cast<double>(n) * heads;
    s.nq = max_q;
    s.nkv = max_k;
    r = attention_core(s, m);
    if (!r.known) return r;
    if (q_exact && k_exact) {
      r.note = mask_note(m, false);
    } else {
      r.estimate = true;
      r.note = "attention, packed variable-length batch: every sequence counted at max_seqlen (upper bound)";
    }
  }
  r.bytes_read = flops::bytes_in(args, 0, 1) + (kA.paged_kv ? 0 : flops::bytes_in(args, 1, 3));
  if (kA.paged_kv) {
    // Only the keys and values in use are read: max_seqlen_k of each sequence, not the whole pool.
    double kv_heads = static_cast<double>(k[k.size() - 2]);
    double n = q.size() == 3
                   ? static_cast<double>(args[static_cast<std::size_t>(kA.cu_seqlens_q)].shape[0] - 1)
                   : static_cast<double>(q[0]);
    r.bytes_read += n * static_cast<double>(s.nkv) * kv_heads * (s.d + s.dv) * flops::element_size(args[1]);
  }
  r.bytes_written = numel(std::span(q).first(q.size() - 1)) * s.dv * elem;
  return r;
}

// Multi-head attention with in- and out-projections: B, Nq, Nkv, E, H.
FlopsResult mha_cost(double b, double nq, double nkv, double e, double heads, bool mask) {
  double d = heads > 0 ? e / heads : e;
  FlopsResult r;
  r.known = true;
  r.macs = b * heads * nq * nkv * 2 * d;
  double proj_macs = b * (nq + 2 * nkv) * e * e + b * nq * e * e;  // q, k, v in; out
  double bias = b * (nq + 2 * nkv) * e + b * nq * e;
  double q_scale = b * nq * e;  // q is scaled before the product
  r.macs += proj_macs;
  r.flops = 2 * r.macs + bias + q_scale + b * heads * nq * nkv * (kSoftmaxPerScore + (mask ? 1 : 0));
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
  // (query, key, value, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, return_debug_mask, scale,
  //  window_size_left, window_size_right, ...)
  r.add("aten::_flash_attention_forward",
        attention_kernel<KernelArgs{
            .cu_seqlens_q = 3, .max_q = 5, .max_k = 6, .causal = 8, .window_left = 11, .window_right = 12}>);
  // (query, key, value, bias, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p,
  //  custom_mask_type, ...)
  r.add("aten::_efficient_attention_forward",
        attention_kernel<KernelArgs{.cu_seqlens_q = 4, .max_q = 6, .max_k = 7, .mask_type = 9}>);
  // flash_attn 2.x custom ops: (q, k, v, dropout_p, softmax_scale, causal, window_size_left,
  //  window_size_right, ...) and the varlen form (q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
  //  max_seqlen_k, dropout_p, softmax_scale, causal, window_size_left, window_size_right, ...).
  r.add("flash_attn::_flash_attn_forward",
        attention_kernel<KernelArgs{.causal = 5, .window_left = 6, .window_right = 7}>);
  r.add("flash_attn::_flash_attn_varlen_forward",
        attention_kernel<KernelArgs{
            .cu_seqlens_q = 3, .max_q = 5, .max_k = 6, .causal = 9, .window_left = 10, .window_right = 11}>);
  // aiter (ROCm) paged prefill: (q, k_cache, v_cache, cu_seqlens_q, kv_indptr, kv_page_indices, max_seqlen_q,
  //  max_seqlen_k, dropout_p, softmax_scale, logits_soft_cap, zero_tensors, is_causal, window_size_left,
  //  window_size_right, ...)
  r.add("aiter::mha_batch_prefill", attention_kernel<KernelArgs{.cu_seqlens_q = 3,
                                                                .max_q = 6,
                                                                .max_k = 7,
                                                                .causal = 12,
                                                                .window_left = 13,
                                                                .window_right = 14,
                                                                .paged_kv = true}>);
  r.add("aten::_native_multi_head_attention", native_mha);
  r.add("aten::_transformer_encoder_layer_fwd", encoder_layer);
  r.add("aten::_transform_bias_rescale_qkv", transform_bias_rescale_qkv);
}

}  // namespace flopscope
