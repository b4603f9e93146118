// Normalization layers. Per element, counting the minimum work with per-channel terms folded:
//   statistics (mean and variance in one pass): 3 (add; multiply-add for the sum of squares)
//   layer_norm: 3 + 2 (x*rstd - mean*rstd) + 2 with weight and bias (* w, + b) = 7; 5 without affine
//   group_norm / instance_norm / batch_norm in training: 3 + 2 (scale and shift folded per channel) = 5
//   batch_norm in inference (running statistics): 2 (one scale and shift per channel)
//   rms_norm: 2 (sum of squares) + 1 (* rstd) + 1 with weight = 4
// Per-row or per-channel terms (rsqrt, folding) are small and not counted.
#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;

double bytes_of_optional(Args args, std::initializer_list<std::size_t> idx) {
  double b = 0;
  for (auto i : idx) b += flops::is_tensor(args, i) ? flops::tensor_bytes(args[i]) : 0;
  return b;
}

// layer_norm(input, normalized_shape, weight, bias, eps, ...) and native_layer_norm (writes mean and rstd
// per row too).
template <bool kNative>
FlopsResult layer_norm(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  double n = flops::numel(x.shape);
  bool weight = flops::is_tensor(args, 2), bias = flops::is_tensor(args, 3);
  double per = 5 + (weight ? 1 : 0) + (bias ? 1 : 0);
  double written = n * flops::element_size(x);
  if (kNative) {
    double norm = 1;
    auto shape = flops::parse_int_list(flops::value_at(args, 1));
    if (shape)
      norm = flops::numel(*shape);
    else if (flops::is_tensor(args, 2))
      norm = flops::numel(args[2].shape);
    double row_count = norm > 0 ? n / norm : 0;
    written += 2 * row_count * flops::element_size(x);
  }
  return flops::result(per * n, 0, flops::tensor_bytes(x) + bytes_of_optional(args, {2, 3}), written,
                       "layer_norm: 7 per element with weight and bias, 5 without");
}

// batch_norm / native_batch_norm / _batch_norm_impl_index / instance_norm:
//   (input, weight, bias, running_mean, running_var, training, momentum, eps, ...)
// _native_batch_norm_legit(input, weight, bias, running_mean, running_var, training, momentum, eps) and
// _native_batch_norm_legit_no_training(input, weight, bias, running_mean, running_var, momentum, eps).
// kTrainingIndex: where the `training` flag is; -1 never training, -2 always.
template <int kTrainingIndex>
FlopsResult batch_norm(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  double n = flops::numel(x.shape);
  bool training = false;
  bool assumed = false;
  if constexpr (kTrainingIndex == -2) {
    training = true;
  } else if constexpr (kTrainingIndex >= 0) {
    auto t = flops::parse_bool(flops::value_at(args, kTrainingIndex));
    training = t.value_or(false);
    assumed = !t;
  }
  double channels = x.shape.size() >= 2 ? static_cast<double>(x.shape[1]) : 1;
  double written = n * flops::element_size(x);
  if (training) written += 2 * channels * flops::element_size(x);  // saved mean and inverse std
  return flops::result((training ? 5 : 2) * n, 0,
                       flops::tensor_bytes(x) + bytes_of_optional(args, {1, 2, 3, 4}), written,
                       training ? "batch_norm (batch statistics): 5 per element"
                                : "batch_norm (running statistics): 2 per element",
                       assumed);
}

// instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, ...): statistics per
// sample and channel.
FlopsResult instance_norm(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  double n = flops::numel(x.shape);
  bool stats = flops::parse_bool(flops::value_at(args, 5)).value_or(true);
  return flops::result((stats ? 5 : 2) * n, 0, flops::tensor_bytes(x) + bytes_of_optional(args, {1, 2, 3, 4}),
                       n * flops::element_size(x), "instance_norm: 5 per element");
}

// group_norm(input, num_groups, weight, bias, eps, cudnn) and
// native_group_norm(input, weight, bias, N, C, HxW, group, eps) (also writes mean and rstd per group).
template <bool kNative>
FlopsResult group_norm(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  double n = flops::numel(x.shape);
  double written = n * flops::element_size(x);
  std::size_t w = kNative ? 1 : 2;
  if (kNative) {
    auto groups = flops::parse_int(flops::value_at(args, 6));
    double batch = x.shape.empty() ? 1 : static_cast<double>(x.shape[0]);
    if (groups) written += 2 * batch * static_cast<double>(*groups) * flops::element_size(x);
  }
  return flops::result(5 * n, 0, flops::tensor_bytes(x) + bytes_of_optional(args, {w, w + 1}), written,
                       "group_norm: 5 per element");
}

// rms_norm(input, normalized_shape, weight, eps) and _fused_rms_norm.
FlopsResult rms_norm(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  double n = flops::numel(x.shape);
  bool weight = flops::is_tensor(args, 2);
  return flops::result((weight ? 4 : 3) * n, 0, flops::tensor_bytes(x) + bytes_of_optional(args, {2}),
                       n * flops::element_size(x), "rms_norm: 4 per element with weight, 3 without");
}

}  // namespace

void register_normalization_family(FlopsRegistry& r) {
  r.add("aten::layer_norm", layer_norm<false>);
  r.add("aten::native_layer_norm", layer_norm<true>);
  for (const char* name :
       {"aten::batch_norm", "aten::native_batch_norm", "aten::_batch_norm_impl_index",
        "aten::_native_batch_norm_legit", "aten::cudnn_batch_norm", "aten::miopen_batch_norm"}) {
    r.add(name, batch_norm<5>);
  }
  r.add("aten::_batch_norm_with_update", batch_norm<-2>);
  r.add("aten::_native_batch_norm_legit_no_training", batch_norm<-1>);
  r.add("aten::_batch_norm_no_update", batch_norm<-1>);
  r.add("aten::instance_norm", instance_norm);
  r.add("aten::group_norm", group_norm<false>);
  r.add("aten::native_group_norm", group_norm<true>);
  r.add("aten::rms_norm", rms_norm);
  r.add("aten::_fused_rms_norm", rms_norm);
}

}  // namespace flopscope
