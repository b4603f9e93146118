// Pooling and resampling over the trailing 1-3 spatial dimensions.
//   max pooling: 1 comparison per window element per output; avg pooling: 1 add per window element + 1
//   divide per output; adaptive pooling uses its exact window sizes.
//   upsample nearest: 0 FLOPs (a gather); linear interpolation costs 3 per lerp (subtract, multiply,
//   add) and needs 1, 3 or 7 lerps per output element in 1, 2 or 3 dimensions (linear 3, bilinear 9,
//   trilinear 21); bicubic: 5 four-tap weighted sums of 7 FLOPs = 35. Weight computation is not counted.
#include <cmath>

#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;
using flops::Shape;

std::vector<std::int64_t> list_at(Args args, std::size_t i) {
  auto v = flops::parse_int_list(flops::value_at(args, i));
  return v ? *v : std::vector<std::int64_t>{};
}

// max_poolNd / max_poolNd_with_indices: (self, kernel_size, stride, padding, dilation, ceil_mode)
// avg_poolNd: (self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
template <int kDims, bool kMax, bool kIndices>
FlopsResult pool(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const Shape& x = args[0].shape;
  if (x.size() < static_cast<std::size_t>(kDims)) return {};
  auto kernel = list_at(args, 1);
  if (kernel.empty()) return {};
  auto stride = list_at(args, 2);
  if (stride.empty()) stride = kernel;
  auto padding = list_at(args, 3);
  auto dilation = kMax ? list_at(args, 4) : std::vector<std::int64_t>{};
  bool ceil_mode = flops::parse_bool(flops::value_at(args, kMax ? 5 : 4)).value_or(false);
  Shape out(x.begin(), x.end() - kDims);
  double window = 1;
  for (std::size_t i = 0; i < static_cast<std::size_t>(kDims); ++i) {
    std::int64_t in = x[x.size() - kDims + i];
    std::int64_t k = flops::per_dim(kernel, i, 1),
                 s = std::max<std::int64_t>(1, flops::per_dim(stride, i, k));
    std::int64_t p = flops::per_dim(padding, i, 0), d = flops::per_dim(dilation, i, 1);
    std::int64_t span = in + 2 * p - d * (k - 1) - 1;
    if (span < 0) return {};
    std::int64_t o = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    if (ceil_mode && (o - 1) * s >= in + p) --o;  // the last window must start inside the input
    out.push_back(o);
    window *= static_cast<double>(k);
  }
  double n_out = flops::numel(out);
  double flops_count = n_out * window + (kMax ? 0 : n_out);
  double written = n_out * flops::element_size(args[0]) + (kIndices ? n_out * 8 : 0);
  return flops::result(
      flops_count, 0, flops::tensor_bytes(args[0]), written,
      kMax ? "max pool: 1 comparison per window element" : "avg pool: window adds + 1 divide");
}

// Sum over output positions of the adaptive window length in one dimension.
double adaptive_window_sum(std::int64_t in, std::int64_t out) {
  double total = 0;
  for (std::int64_t i = 0; i < out; ++i) {
    std::int64_t start = (i * in) / out;
    std::int64_t end = ((i + 1) * in + out - 1) / out;
    total += static_cast<double>(end - start);
  }
  return total;
}

// adaptive_{avg,max}_poolNd(self, output_size)
template <int kDims, bool kMax>
FlopsResult adaptive_pool(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const Shape& x = args[0].shape;
  if (x.size() < static_cast<std::size_t>(kDims)) return {};
  auto size = list_at(args, 1);
  if (size.empty()) return {};
  double lead = flops::numel(std::span(x).first(x.size() - kDims));
  double work = lead, n_out = lead;
  for (std::size_t i = 0; i < static_cast<std::size_t>(kDims); ++i) {
    std::int64_t in = x[x.size() - kDims + i];
    std::int64_t o = flops::per_dim(size, i, in);
    if (o <= 0) o = in;  // None keeps the input size
    work *= adaptive_window_sum(in, o);
    n_out *= static_cast<double>(o);
  }
  double written = n_out * flops::element_size(args[0]) + (kMax ? n_out * 8 : 0);
  return flops::result(work + (kMax ? 0 : n_out), 0, flops::tensor_bytes(args[0]), written,
                       kMax ? "adaptive max pool: 1 comparison per window element"
                            : "adaptive avg pool: window adds + 1 divide");
}

// upsample_*: (input, output_size, [align_corners,] scale_factors) in the .vec form, or
// (self, output_size, [align_corners,] scales...) per dimension.
template <int kDims, int kPerOutput>
FlopsResult upsample(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const Shape& x = args[0].shape;
  if (x.size() < static_cast<std::size_t>(kDims)) return {};
  Shape out(x.begin(), x.end() - kDims);
  auto size = flops::parse_int_list(flops::value_at(args, 1));
  bool estimate = false;
  if (size && size->size() == static_cast<std::size_t>(kDims)) {
    out.insert(out.end(), size->begin(), size->end());
  } else {
    // Scale factors: the last list argument of doubles.
    std::optional<std::vector<double>> scales;
    for (std::size_t i = args.size(); i-- > 2;) {
      if (args[i].is_tensor) continue;
      auto s = flops::parse_double_list(args[i].value);
      if (s && s->size() == static_cast<std::size_t>(kDims) && args[i].value.find('[') != std::string::npos) {
        scales = s;
        break;
      }
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(kDims); ++i) {
      std::int64_t in = x[x.size() - kDims + i];
      double scale = scales ? (*scales)[i] : 1;
      if (!scales) estimate = true;
      out.push_back(static_cast<std::int64_t>(std::floor(static_cast<double>(in) * scale)));
    }
  }
  double n_out = flops::numel(out);
  return flops::result(kPerOutput * n_out, 0, flops::tensor_bytes(args[0]),
                       n_out * flops::element_size(args[0]),
                       estimate ? "upsample: output size not recorded, input size assumed"
                                : "upsample: interpolation FLOPs per output element (docs/flops.md)",
                       estimate);
}

}  // namespace

void register_pooling_family(FlopsRegistry& r) {
  r.add("aten::max_pool1d", pool<1, true, false>);
  r.add("aten::max_pool2d", pool<2, true, false>);
  r.add("aten::max_pool3d", pool<3, true, false>);
  r.add("aten::mkldnn_max_pool2d", pool<2, true, false>);
  r.add("aten::quantized_max_pool2d", pool<2, true, false>);
  r.add("aten::max_pool1d_with_indices", pool<1, true, true>);
  r.add("aten::max_pool2d_with_indices", pool<2, true, true>);
  r.add("aten::max_pool3d_with_indices", pool<3, true, true>);
  r.add("aten::avg_pool1d", pool<1, false, false>);
  r.add("aten::avg_pool2d", pool<2, false, false>);
  r.add("aten::avg_pool3d", pool<3, false, false>);
  r.add("aten::adaptive_avg_pool1d", adaptive_pool<1, false>);
  r.add("aten::adaptive_avg_pool2d", adaptive_pool<2, false>);
  r.add("aten::_adaptive_avg_pool2d", adaptive_pool<2, false>);
  r.add("aten::mkldnn_adaptive_avg_pool2d", adaptive_pool<2, false>);
  r.add("aten::adaptive_avg_pool3d", adaptive_pool<3, false>);
  r.add("aten::_adaptive_avg_pool3d", adaptive_pool<3, false>);
  r.add("aten::adaptive_max_pool1d", adaptive_pool<1, true>);
  r.add("aten::adaptive_max_pool2d", adaptive_pool<2, true>);
  r.add("aten::adaptive_max_pool3d", adaptive_pool<3, true>);
  r.add("aten::upsample_nearest1d", upsample<1, 0>);
  r.add("aten::upsample_nearest2d", upsample<2, 0>);
  r.add("aten::upsample_nearest3d", upsample<3, 0>);
  r.add("aten::_upsample_nearest_exact1d", upsample<1, 0>);
  r.add("aten::_upsample_nearest_exact2d", upsample<2, 0>);
  r.add("aten::_upsample_nearest_exact3d", upsample<3, 0>);
  r.add("aten::upsample_linear1d", upsample<1, 3>);
  r.add("aten::upsample_bilinear2d", upsample<2, 9>);
  r.add("aten::_upsample_bilinear2d_aa", upsample<2, 9>);
  r.add("aten::upsample_trilinear3d", upsample<3, 21>);
  r.add("aten::upsample_bicubic2d", upsample<2, 35>);
  r.add("aten::_upsample_bicubic2d_aa", upsample<2, 35>);
}

}  // namespace flopscope
