// Convolutions, direct and transposed, any number of spatial dimensions, with stride, padding, dilation
// and groups. MACs = N * C_out * prod(out) * (C_in / groups) * prod(kernel); FLOPs = 2*MACs + bias.
#include <cmath>

#include "analyzer/flops/args.h"
#include "analyzer/flops/registry.h"

namespace flopscope {
namespace {
using flops::numel;
using flops::Shape;

struct ConvParams {
  std::vector<std::int64_t> stride, padding, dilation, output_padding;
  bool transposed = false;
  bool padding_same = false;
  std::int64_t groups = 1;
  std::size_t bias_index = 2;  // where the optional bias sits in this overload; 0 = no bias argument
  bool assumed = false;        // some argument was missing and a default was used
};

FlopsResult conv_core(std::span<const OpArg> args, const ConvParams& p) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  const Shape& x = args[0].shape;
  const Shape& w = args[1].shape;
  if (w.size() < 3) return {};
  std::size_t spatial = w.size() - 2;
  // Unbatched input has one dimension fewer than the weight.
  bool batched = x.size() == w.size();
  if (!batched && x.size() + 1 != w.size()) return {};
  std::int64_t n = batched ? x[0] : 1;
  std::int64_t c_in = x[batched ? 1 : 0];
  std::int64_t groups = std::max<std::int64_t>(1, p.groups);
  std::int64_t c_out = p.transposed ? w[1] * groups : w[0];
  double kernel = numel(std::span(w).subspan(2));
  Shape in_sp(x.end() - static_cast<std::ptrdiff_t>(spatial), x.end());
  Shape out_sp(spatial);
  for (std::size_t i = 0; i < spatial; ++i) {
    std::int64_t k = w[2 + i];
    std::int64_t s = flops::per_dim(p.stride, i, 1), pad = flops::per_dim(p.padding, i, 0),
                 d = flops::per_dim(p.dilation, i, 1);
    if (p.padding_same) {
      out_sp[i] = in_sp[i];
    } else if (p.transposed) {
      out_sp[i] = (in_sp[i] - 1) * s - 2 * pad + d * (k - 1) + flops::per_dim(p.output_padding, i, 0) + 1;
    } else {
      out_sp[i] = (in_sp[i] + 2 * pad - d * (k - 1) - 1) / s + 1;
    }
    if (out_sp[i] <= 0) return {};
  }
  FlopsResult r;
  r.known = true;
  double out_elems = static_cast<double>(n) * static_cast<double>(c_out) * numel(out_sp);
  if (p.transposed) {
    r.macs = static_cast<double>(n) * static_cast<double>(c_in) * numel(in_sp) *
             (static_cast<double>(c_out) / static_cast<double>(groups)) * kernel;
  } else {
    r.macs = out_elems * (static_cast<double>(c_in) / static_cast<double>(groups)) * kernel;
  }
  bool has_bias = p.bias_index != 0 && flops::is_tensor(args, p.bias_index);
  r.flops = 2 * r.macs + (has_bias ? out_elems : 0);
  r.bytes_read = flops::tensor_bytes(args[0]) + flops::tensor_bytes(args[1]) +
                 (has_bias ? flops::tensor_bytes(args[p.bias_index]) : 0);
  r.bytes_written = out_elems * flops::element_size(args[0]);
  r.estimate = p.assumed;
  r.note = p.transposed ? "conv_transpose: 2*N*C_in*prod(in)*(C_out/g)*prod(k) + bias"
                        : "conv: 2*N*C_out*prod(out)*(C_in/g)*prod(k) + bias";
  if (p.assumed) r.note = "conv: some arguments unknown, defaults assumed (stride 1, no padding)";
  return r;
}

std::vector<std::int64_t> int_list_at(std::span<const OpArg> args, std::size_t i, ConvParams& p) {
  if (i >= args.size()) {
    p.assumed = true;
    return {};
  }
  auto v = flops::parse_int_list(args[i].value);
  if (!v) {
    std::string_view mode = args[i].value;
    if (mode.find("same") != std::string_view::npos)
      p.padding_same = true;
    else if (mode.find("valid") == std::string_view::npos)
      p.assumed = true;
    return {};
  }
  return *v;
}

std::int64_t int_at(std::span<const OpArg> args, std::size_t i, std::int64_t fallback, ConvParams& p) {
  if (i >= args.size()) return fallback;
  auto v = flops::parse_int(args[i].value);
  if (!v) {
    p.assumed = true;
    return fallback;
  }
  return *v;
}

// aten::convolution / aten::_convolution:
//   (input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, ...)
FlopsResult convolution(std::span<const OpArg> args) {
  ConvParams p;
  p.stride = int_list_at(args, 3, p);
  p.padding = int_list_at(args, 4, p);
  p.dilation = int_list_at(args, 5, p);
  p.transposed = args.size() > 6 && flops::parse_bool(args[6].value).value_or(false);
  p.output_padding = int_list_at(args, 7, p);
  p.groups = int_at(args, 8, 1, p);
  return conv_core(args, p);
}

// aten::conv{1,2,3}d: (input, weight, bias, stride, padding, dilation, groups)
FlopsResult conv_nd(std::span<const OpArg> args) {
  ConvParams p;
  p.stride = int_list_at(args, 3, p);
  p.padding = int_list_at(args, 4, p);
  p.dilation = int_list_at(args, 5, p);
  p.groups = int_at(args, 6, 1, p);
  return conv_core(args, p);
}

// aten::conv_transpose{1,2,3}d: (input, weight, bias, stride, padding, output_padding, groups, dilation)
FlopsResult conv_transpose_nd(std::span<const OpArg> args) {
  ConvParams p;
  p.transposed = true;
  p.stride = int_list_at(args, 3, p);
  p.padding = int_list_at(args, 4, p);
  p.output_padding = int_list_at(args, 5, p);
  p.groups = int_at(args, 6, 1, p);
  p.dilation = int_list_at(args, 7, p);
  return conv_core(args, p);
}

// Backend entry points that the dispatcher calls under aten::convolution. They run nested inside it, so
// their counts only matter when a capture sees them alone; their argument orders differ.

// mkldnn_convolution / miopen_convolution / _nnpack_spatial_convolution:
//   (self, weight, bias, padding, stride, dilation, groups, ...)
FlopsResult conv_padding_first(std::span<const OpArg> args) {
  ConvParams p;
  p.padding = int_list_at(args, 3, p);
  p.stride = int_list_at(args, 4, p);
  if (args.size() > 5 && !args[5].is_tensor) p.dilation = int_list_at(args, 5, p);
  if (args.size() > 6 && !args[6].is_tensor) p.groups = int_at(args, 6, 1, p);
  return conv_core(args, p);
}

// cudnn_convolution: (self, weight, padding, stride, dilation, groups, benchmark, deterministic, tf32)
FlopsResult cudnn_convolution(std::span<const OpArg> args) {
  ConvParams p;
  p.bias_index = 0;
  p.padding = int_list_at(args, 2, p);
  p.stride = int_list_at(args, 3, p);
  p.dilation = int_list_at(args, 4, p);
  p.groups = int_at(args, 5, 1, p);
  return conv_core(args, p);
}

// cudnn_convolution_transpose: (self, weight, padding, output_padding, stride, dilation, groups, ...)
FlopsResult cudnn_convolution_transpose(std::span<const OpArg> args) {
  ConvParams p;
  p.bias_index = 0;
  p.transposed = true;
  p.padding = int_list_at(args, 2, p);
  p.output_padding = int_list_at(args, 3, p);
  p.stride = int_list_at(args, 4, p);
  p.dilation = int_list_at(args, 5, p);
  p.groups = int_at(args, 6, 1, p);
  return conv_core(args, p);
}

// thnn_conv2d / _slow_conv2d_forward / slow_conv3d / slow_conv_dilated2d / _conv_depthwise2d:
//   (self, weight, kernel_size, bias, stride, padding[, dilation])
FlopsResult conv_kernel_size_first(std::span<const OpArg> args) {
  ConvParams p;
  p.bias_index = 3;
  p.stride = int_list_at(args, 4, p);
  p.padding = int_list_at(args, 5, p);
  if (args.size() > 6 && !args[6].is_tensor) p.dilation = int_list_at(args, 6, p);
  // Depthwise kernels take grouped weights [C_out, 1, k...] with groups = C_in implied.
  if (flops::is_tensor(args, 0) && flops::is_tensor(args, 1) && args[1].shape.size() >= 2 &&
      args[0].shape.size() == args[1].shape.size() && args[1].shape[1] != args[0].shape[1] &&
      args[1].shape[1] > 0 && args[0].shape[1] % args[1].shape[1] == 0) {
    p.groups = args[0].shape[1] / args[1].shape[1];
  }
  return conv_core(args, p);
}

// slow_conv_transpose2d/3d: (self, weight, kernel_size, bias, stride, padding, output_padding, dilation)
FlopsResult slow_conv_transpose(std::span<const OpArg> args) {
  ConvParams p;
  p.transposed = true;
  p.bias_index = 3;
  p.stride = int_list_at(args, 4, p);
  p.padding = int_list_at(args, 5, p);
  p.output_padding = int_list_at(args, 6, p);
  p.dilation = int_list_at(args, 7, p);
  return conv_core(args, p);
}

// _convolution_mode: (input, weight, bias, stride, padding: str, dilation, groups)
FlopsResult convolution_mode(std::span<const OpArg> args) {
  return conv_nd(args);
}

}  // namespace

void register_conv_family(FlopsRegistry& r) {
  r.add("aten::convolution", convolution);
  r.add("aten::_convolution", convolution);
  r.add("aten::convolution_overrideable", convolution);
  r.add("aten::_convolution_mode", convolution_mode);
  for (const char* name : {"aten::conv1d", "aten::conv2d", "aten::conv3d"}) r.add(name, conv_nd);
  for (const char* name : {"aten::conv_transpose1d", "aten::conv_transpose2d", "aten::conv_transpose3d"}) {
    r.add(name, conv_transpose_nd);
  }
  for (const char* name : {"aten::mkldnn_convolution", "aten::miopen_convolution",
                           "aten::miopen_depthwise_convolution", "aten::_nnpack_spatial_convolution"}) {
    r.add(name, conv_padding_first);
  }
  r.add("aten::cudnn_convolution", cudnn_convolution);
  r.add("aten::cudnn_convolution_transpose", cudnn_convolution_transpose);
  for (const char* name :
       {"aten::thnn_conv2d", "aten::_slow_conv2d_forward", "aten::slow_conv3d", "aten::slow_conv3d_forward",
        "aten::slow_conv_dilated2d", "aten::slow_conv_dilated3d", "aten::_conv_depthwise2d",
        "aten::conv_depthwise3d"}) {
    r.add(name, conv_kernel_size_first);
  }
  for (const char* name : {"aten::slow_conv_transpose2d", "aten::slow_conv_transpose3d"}) {
    r.add(name, slow_conv_transpose);
  }
}

}  // namespace flopscope
