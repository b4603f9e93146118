// Ops that move or create data without arithmetic: 0 FLOPs, bytes only.
//   views and metadata (view, reshape, permute, transpose, expand, slice, select, split, detach, ...): 0 B
//   copies and casts (copy_, clone, contiguous, _to_copy, to with a new dtype): read input, write output
//   creation: empty* allocate only (0 B); fills (zeros, ones, full, fill_, arange, rand...) write output
//   concatenation (cat, stack): read every input, write the result
//   gathers (embedding, index_select, gather): read the rows gathered and the indices, write the result
//   dropout in inference (train = False): the identity, 0 B
#include <cmath>

#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;
using flops::Shape;

FlopsResult view(Args) {
  return flops::result(0, 0, 0, 0, "view or metadata: no data moved");
}

// Reads args[0], writes the same number of elements of the same type.
FlopsResult copy_self(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double b = flops::tensor_bytes(args[0]);
  return flops::result(0, 0, b, b, "copy: bytes only");
}

// contiguous(self): a copy when self is not contiguous, otherwise a no-op; strides are not recorded.
FlopsResult contiguous(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double b = flops::tensor_bytes(args[0]);
  return flops::result(0, 0, b, b, "contiguous: counted as a copy (a no-op when already contiguous)", true);
}

// copy_(self, src, non_blocking): reads src, writes self.
FlopsResult copy_into(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double read = flops::is_tensor(args, 1) ? flops::tensor_bytes(args[1]) : 0;
  return flops::result(0, 0, read, flops::tensor_bytes(args[0]), "copy_: read src, write self");
}

// _to_copy(self, dtype, layout, device, pin_memory, non_blocking, memory_format)
FlopsResult to_copy(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  std::string_view dtype = flops::parse_scalar_type(flops::value_at(args, 1));
  int size = dtype.empty() ? flops::element_size(x) : dtype_size(dtype);
  return flops::result(0, 0, flops::tensor_bytes(x), flops::numel(x.shape) * size, "cast/copy: bytes only");
}

// to(self, dtype | device, dtype | other, ..., copy): a no-op returning self unless the type (or device)
// changes or copy = True; then PyTorch runs _to_copy.
FlopsResult to(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  std::string_view target;
  bool copy = false;
  bool device_change = false;
  if (flops::is_tensor(args, 1)) {
    target = args[1].dtype;  // to.other
    copy = flops::parse_bool(flops::value_at(args, 3)).value_or(false);
  } else {
    std::string_view second = flops::value_at(args, 1);
    bool has_device =
        second.find("cpu") != std::string_view::npos || second.find("cuda") != std::string_view::npos;
    target = flops::parse_scalar_type(has_device ? flops::value_at(args, 2) : second);
    copy = flops::parse_bool(flops::value_at(args, has_device ? 4 : 3)).value_or(false);
    device_change = has_device && second.find("cpu") == std::string_view::npos;  // conservative
  }
  if (target.empty() && !copy && !device_change) {
    return flops::result(0, 0, 0, 0, "to: no type change recorded, assumed a no-op", true);
  }
  if (!copy && !device_change && target == x.dtype) return flops::result(0, 0, 0, 0, "to: same type, no-op");
  int size = target.empty() ? flops::element_size(x) : dtype_size(target);
  return flops::result(0, 0, flops::tensor_bytes(x), flops::numel(x.shape) * size,
                       "to: cast copy, bytes only");
}

// Writes a tensor whose shape is in args[0] as a list ("[1, 4, 64, 64]") and dtype in args[1].
FlopsResult fill_new(Args args) {
  auto shape = flops::parse_int_list(flops::value_at(args, 0));
  if (!shape) return flops::result(0, 0, 0, 0, "creation: shape not recorded", true);
  std::string_view dtype = flops::parse_scalar_type(flops::value_at(args, 1));
  int size = dtype.empty() ? 4 : dtype_size(dtype);
  return flops::result(0, 0, 0, flops::numel(*shape) * size, "creation: writes its output");
}

// full(size, fill_value, dtype, ...)
FlopsResult full(Args args) {
  auto shape = flops::parse_int_list(flops::value_at(args, 0));
  if (!shape) return flops::result(0, 0, 0, 0, "creation: shape not recorded", true);
  std::string_view dtype = flops::parse_scalar_type(flops::value_at(args, 2));
  int size = dtype.empty() ? 4 : dtype_size(dtype);
  return flops::result(0, 0, 0, flops::numel(*shape) * size, "creation: writes its output");
}

// randint(high, size, ...) / randint(low, high, size, ...): the size is the first list argument.
FlopsResult fill_new_first_list(Args args) {
  for (std::size_t i = 0; i < args.size() && i < 3; ++i) {
    if (args[i].value.find('[') == std::string::npos) continue;
    auto shape = flops::parse_int_list(args[i].value);
    if (!shape) break;
    std::string_view dtype = flops::parse_scalar_type(flops::value_at(args, i + 1));
    int size = dtype.empty() ? 8 : dtype_size(dtype);
    return flops::result(0, 0, 0, flops::numel(*shape) * size, "creation: writes its output");
  }
  return flops::result(0, 0, 0, 0, "creation: shape not recorded", true);
}

// zeros_like(self, dtype, ...), full_like(self, value, dtype, ...), fill_(self, value), zero_(self),
// uniform_(self, from, to): writes self's shape; kDtype is where a dtype argument sits (-1: none).
template <int kDtype>
FlopsResult fill_like(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  std::string_view dtype;
  if constexpr (kDtype >= 0) dtype = flops::parse_scalar_type(flops::value_at(args, kDtype));
  double n = flops::numel(args[0].shape);
  int size = dtype.empty() ? flops::element_size(args[0]) : dtype_size(dtype);
  return flops::result(0, 0, 0, n * size, "fill: writes its output");
}

// new_zeros(self, size, dtype, ...): shape in args[1].
FlopsResult fill_new_from(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  auto shape = flops::parse_int_list(flops::value_at(args, 1));
  if (!shape) return flops::result(0, 0, 0, 0, "creation: shape not recorded", true);
  return flops::result(0, 0, 0, flops::numel(*shape) * flops::element_size(args[0]),
                       "creation: writes its output");
}

// arange(end, ...) | arange(start, end, ...) | arange(start, end, step, ...): the element count from the
// leading numeric arguments (the overload is told apart by the argument count).
FlopsResult arange(Args args) {
  std::size_t numeric = 0;
  double v[3] = {0, 0, 1};
  // Overloads with the trailing dtype, layout, device, pin_memory: 5, 6 or 7 arguments.
  std::size_t count = args.size() >= 7 ? 3 : args.size() == 6 ? 2 : 1;
  if (flops::is_tensor(args, args.size() - 1)) count = args.size() - 1;  // out variant
  for (std::size_t i = 0; i < count && i < args.size(); ++i) {
    auto d = flops::parse_double(args[i].value);
    if (!d) return flops::result(0, 0, 0, 0, "arange: bounds not recorded", true);
    v[numeric++] = *d;
  }
  double start = numeric >= 2 ? v[0] : 0, end = numeric >= 2 ? v[1] : v[0], step = numeric == 3 ? v[2] : 1;
  if (step == 0) return {};
  double n = std::max(0.0, std::ceil((end - start) / step));
  std::string_view dtype = flops::parse_scalar_type(flops::value_at(args, count));
  int size = dtype.empty() ? 8 : dtype_size(dtype);
  return flops::result(0, 0, 0, n * size, "arange: writes its output");
}

// cat(tensors, dim) / stack(tensors, dim)
FlopsResult concat(Args args) {
  auto list = flops::tensor_list(args, 0);
  if (list.empty()) return flops::result(0, 0, 0, 0, "cat/stack: tensor list shapes not recorded", true);
  double read = 0;
  for (const auto& t : list) read += flops::tensor_bytes(t);
  return flops::result(0, 0, read, read, "cat/stack: read inputs, write the result");
}

// embedding(weight[V, d], indices, ...): gathers numel(indices) rows.
FlopsResult embedding(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 1)) return {};
  const Shape& w = args[0].shape;
  double row = w.size() >= 2 ? flops::numel(std::span(w).subspan(1)) : 1;
  double out = flops::numel(args[1].shape) * row * flops::element_size(args[0]);
  return flops::result(0, 0, out + flops::tensor_bytes(args[1]), out,
                       "embedding: gathered rows + indices read, rows written");
}

// index_select(self, dim, index)
FlopsResult index_select(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 2)) return {};
  const Shape& x = args[0].shape;
  auto dim = flops::parse_int(flops::value_at(args, 1));
  double out_elems;
  if (x.empty()) {
    out_elems = flops::numel(args[2].shape);
  } else {
    auto d = dim ? flops::norm_dim(*dim, x.size()) : std::nullopt;
    if (!d) return {};
    out_elems = x[*d] == 0 ? 0 : flops::numel(x) / static_cast<double>(x[*d]) * flops::numel(args[2].shape);
  }
  double out = out_elems * flops::element_size(args[0]);
  return flops::result(0, 0, out + flops::tensor_bytes(args[2]), out,
                       "index_select: gathered elements + indices read, result written");
}

// gather(self, dim, index): one element per index.
FlopsResult gather(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 2)) return {};
  double out = flops::numel(args[2].shape) * flops::element_size(args[0]);
  return flops::result(0, 0, out + flops::tensor_bytes(args[2]), out, "gather: elements + indices read");
}

// index(self, indices...): advanced indexing; the result is the broadcast index shape times the
// dimensions not indexed (assumes the indices address the leading dimensions).
FlopsResult index(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const Shape& x = args[0].shape;
  auto indices = flops::tensor_list(args, 1);
  auto p = flops::broadcast_inputs(indices, indices.size());
  if (!p || !p->any_tensor) return flops::result(0, 0, 0, 0, "index: indices not recorded", true);
  std::size_t indexed = indices.size();
  // Bool masks index as many dimensions as they have.
  if (indices.front().dtype == "bool") indexed = indices.front().shape.size();
  double rest = indexed < x.size() ? flops::numel(std::span(x).subspan(indexed)) : 1;
  double out = flops::numel(p->out) * rest * flops::element_size(args[0]);
  return flops::result(0, 0, out + p->read, out, "index: gathered elements + indices read (estimate)", true);
}

// Padding: (self, pad, ...): output dims grow by the pad pairs, last dimension first.
FlopsResult pad(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  Shape out = args[0].shape;
  auto pads = flops::parse_int_list(flops::value_at(args, 1));
  if (!pads) return copy_self(args);
  for (std::size_t j = 0; j + 1 < pads->size() && j / 2 < out.size(); j += 2) {
    out[out.size() - 1 - j / 2] += (*pads)[j] + (*pads)[j + 1];
  }
  return flops::result(0, 0, flops::tensor_bytes(args[0]), flops::numel(out) * flops::element_size(args[0]),
                       "pad: read input, write padded output");
}

// repeat(self, repeats) / tile(self, dims): output = shape * repeats (repeats may add leading dims).
FlopsResult repeat(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  auto reps = flops::parse_int_list(flops::value_at(args, 1));
  double factor = reps ? flops::numel(*reps) : 1;
  double in = flops::tensor_bytes(args[0]);
  return flops::result(0, 0, in, in * factor, "repeat: read input, write the repeated output", !reps);
}

// dropout(input, p, train): identity in inference; otherwise a mask draw and a scale per element.
FlopsResult dropout(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  auto train = flops::parse_bool(flops::value_at(args, 2));
  if (train && !*train) return flops::result(0, 0, 0, 0, "dropout in inference: identity");
  double n = flops::numel(args[0].shape);
  double b = flops::tensor_bytes(args[0]);
  return flops::result(2 * n, 0, b, b + n, "dropout (training): 2 per element, writes output and mask",
                       !train);
}

// scatter(self, dim, index, src | value), scatter_add: one element of src per index.
// index_add/index_copy(self, dim, index, source): a whole slice of source per index.
// The untouched part of self is copied through (out of place) or left alone (in place).
template <bool kInPlace, int kReduceFlops, bool kSlices>
FlopsResult scatter(Args args) {
  if (!flops::is_tensor(args, 0) || !flops::is_tensor(args, 2)) return {};
  double moved =
      kSlices && flops::is_tensor(args, 3) ? flops::numel(args[3].shape) : flops::numel(args[2].shape);
  int elem = flops::element_size(args[0]);
  double self_bytes = kInPlace ? 0 : flops::tensor_bytes(args[0]);
  double read = self_bytes + flops::tensor_bytes(args[2]) + moved * elem;
  double written = kInPlace ? moved * elem : flops::tensor_bytes(args[0]);
  return flops::result(kReduceFlops * moved, 0, read, written, "scatter: indices and moved elements read");
}

// index_put_(self, indices..., values, accumulate): the values are the last tensor before accumulate.
FlopsResult index_put(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg* values = nullptr;
  double index_bytes = 0;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (!args[i].is_tensor) continue;
    if (values != nullptr) index_bytes += flops::tensor_bytes(*values);
    values = &args[i];
  }
  if (values == nullptr) return flops::result(0, 0, 0, 0, "index_put: indices not recorded", true);
  double b = flops::tensor_bytes(*values);
  return flops::result(0, 0, b + index_bytes, b,
                       "index_put: values and indices read, values written (estimate)", true);
}

// Ops whose output size depends on the data (nonzero, masked_select, unique): read the input; the
// output is not known from shapes.
FlopsResult data_dependent(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  return flops::result(flops::numel(args[0].shape), 0, flops::bytes_in(args, 0, 2), 0,
                       "output size depends on the data: 1 test per element, output bytes not counted", true);
}

// multinomial(self[..., n], num_samples, ...): a cumulative sum and a search per sample.
FlopsResult multinomial(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const Shape& p = args[0].shape;
  auto samples = flops::parse_int(flops::value_at(args, 1)).value_or(1);
  double rows = p.size() >= 2 ? static_cast<double>(p[0]) : 1;
  double n = p.empty() ? 1 : static_cast<double>(p.back());
  double out = rows * static_cast<double>(samples);
  return flops::result(rows * n + out * std::max(1.0, std::log2(n)), 0, flops::tensor_bytes(args[0]), out * 8,
                       "multinomial: cumulative sum + binary search per sample (estimate)", true);
}

// item / _local_scalar_dense / is_nonzero: read one element.
FlopsResult read_scalar(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  return flops::result(0, 0, flops::element_size(args[0]), 0, "reads one element");
}

// Ops that return a view or metadata, or only allocate: no arithmetic, no traffic.
constexpr const char* kViewOps[] = {"aten::view",
                                    "aten::_unsafe_view",
                                    "aten::reshape",
                                    "aten::_reshape_alias",
                                    "aten::view_as",
                                    "aten::reshape_as",
                                    "aten::permute",
                                    "aten::transpose",
                                    "aten::transpose_",
                                    "aten::t",
                                    "aten::t_",
                                    "aten::numpy_T",
                                    "aten::mT",
                                    "aten::adjoint",
                                    "aten::swapaxes",
                                    "aten::swapdims",
                                    "aten::movedim",
                                    "aten::moveaxis",
                                    "aten::expand",
                                    "aten::expand_as",
                                    "aten::broadcast_to",
                                    "aten::slice",
                                    "aten::select",
                                    "aten::narrow",
                                    "aten::unsqueeze",
                                    "aten::unsqueeze_",
                                    "aten::squeeze",
                                    "aten::squeeze_",
                                    "aten::flatten",
                                    "aten::unflatten",
                                    "aten::as_strided",
                                    "aten::as_strided_",
                                    "aten::detach",
                                    "aten::detach_",
                                    "detach",
                                    "aten::alias",
                                    "aten::lift_fresh",
                                    "aten::split",
                                    "aten::split_with_sizes",
                                    "aten::unsafe_split",
                                    "aten::tensor_split",
                                    "aten::chunk",
                                    "aten::unsafe_chunk",
                                    "aten::unbind",
                                    "aten::unfold",
                                    "aten::diagonal",
                                    "aten::real",
                                    "aten::imag",
                                    "aten::view_as_real",
                                    "aten::view_as_complex",
                                    "aten::resolve_conj",
                                    "aten::resolve_neg",
                                    "aten::_conj",
                                    "aten::conj",
                                    "aten::_neg_view",
                                    "aten::positive",
                                    "aten::empty",
                                    "aten::empty_like",
                                    "aten::empty_strided",
                                    "aten::new_empty",
                                    "aten::new_empty_strided",
                                    "aten::resize_",
                                    "aten::resize_as_",
                                    "aten::set_",
                                    "aten::_has_compatible_shallow_copy_type",
                                    "aten::size",
                                    "aten::stride",
                                    "aten::numel",
                                    "aten::dim",
                                    "aten::is_contiguous",
                                    "aten::_nested_tensor_from_mask_left_aligned",
                                    "aten::requires_grad_",
                                    "aten::retain_grad",
                                    "aten::record_stream",
                                    "aten::_version",
                                    "aten::output_nr",
                                    "aten::is_floating_point"};

void register_views(FlopsRegistry& r) {
  for (const char* name : kViewOps) r.add(name, view);
}

// Ops that copy or rearrange their input's elements.
void register_copies(FlopsRegistry& r) {
  for (const char* name :
       {"aten::clone", "aten::flip", "aten::roll", "aten::pixel_shuffle", "aten::pixel_unshuffle",
        "aten::channel_shuffle", "aten::native_channel_shuffle", "aten::tril", "aten::triu", "aten::tril_",
        "aten::triu_", "aten::rot90", "aten::masked_scatter", "aten::masked_scatter_"}) {
    r.add(name, copy_self);
  }
  r.add("aten::contiguous", contiguous);
  r.add("aten::copy_", copy_into);
  r.add("aten::_copy_from", copy_into);
  r.add("aten::_copy_from_and_resize", copy_into);
  r.add("aten::_to_copy", to_copy);
  r.add("aten::to", to);
  r.add("aten::type_as", copy_self);
}

// Ops that write new tensors: constants, random draws, ranges.
void register_fills(FlopsRegistry& r) {
  for (const char* name : {"aten::zeros", "aten::ones", "aten::rand", "aten::randn", "aten::scalar_tensor"}) {
    r.add(name, fill_new);
  }
  r.add("aten::full", full);
  r.add("aten::randint", fill_new_first_list);
  r.add("aten::randperm", fill_new_first_list);
  for (const char* name : {"aten::zeros_like", "aten::ones_like", "aten::rand_like", "aten::randn_like"}) {
    r.add(name, fill_like<1>);
  }
  r.add("aten::full_like", fill_like<2>);
  r.add("aten::randint_like", fill_like<-1>);
  for (const char* name : {"aten::fill_", "aten::zero_", "aten::uniform_", "aten::normal_",
                           "aten::bernoulli_", "aten::random_", "aten::exponential_", "aten::bernoulli"}) {
    r.add(name, fill_like<-1>);
  }
  for (const char* name : {"aten::new_zeros", "aten::new_ones", "aten::new_full"}) r.add(name, fill_new_from);
  r.add("aten::arange", arange);
}

// Ops that assemble an output from several inputs or from indexed elements; pads, repeats and dropout.
void register_gathers(FlopsRegistry& r) {
  for (const char* name : {"aten::cat", "aten::concat", "aten::concatenate", "aten::_cat", "aten::stack",
                           "aten::hstack", "aten::vstack", "aten::dstack"}) {
    r.add(name, concat);
  }
  r.add("aten::embedding", embedding);
  r.add("aten::index_select", index_select);
  r.add("aten::gather", gather);
  r.add("aten::take_along_dim", gather);
  r.add("aten::index", index);
  for (const char* name : {"aten::constant_pad_nd", "aten::pad", "aten::reflection_pad1d",
                           "aten::reflection_pad2d", "aten::reflection_pad3d", "aten::replication_pad1d",
                           "aten::replication_pad2d", "aten::replication_pad3d", "aten::_pad_enum"}) {
    r.add(name, pad);
  }
  r.add("aten::repeat", repeat);
  r.add("aten::tile", repeat);
  for (const char* name : {"aten::dropout", "aten::dropout_", "aten::native_dropout", "aten::feature_dropout",
                           "aten::feature_dropout_", "aten::alpha_dropout", "aten::feature_alpha_dropout"}) {
    r.add(name, dropout);
  }
}

// Scatters and index writes, data-dependent outputs, scalar reads.
void register_scatters(FlopsRegistry& r) {
  r.add("aten::scatter", scatter<false, 0, false>);
  r.add("aten::scatter_", scatter<true, 0, false>);
  r.add("aten::scatter_add", scatter<false, 1, false>);
  r.add("aten::scatter_add_", scatter<true, 1, false>);
  r.add("aten::index_add", scatter<false, 1, true>);
  r.add("aten::index_add_", scatter<true, 1, true>);
  r.add("aten::index_copy", scatter<false, 0, true>);
  r.add("aten::index_copy_", scatter<true, 0, true>);
  r.add("aten::index_put", index_put);
  r.add("aten::index_put_", index_put);
  r.add("aten::_index_put_impl_", index_put);
  for (const char* name : {"aten::nonzero", "aten::masked_select", "aten::unique", "aten::_unique2",
                           "aten::unique_consecutive", "aten::unique_dim"}) {
    r.add(name, data_dependent);
  }
  r.add("aten::multinomial", multinomial);
  r.add("aten::lift_fresh_copy", copy_self);
  for (const char* name : {"aten::item", "aten::_local_scalar_dense", "aten::is_nonzero"}) {
    r.add(name, read_scalar);
  }
}

}  // namespace

void register_data_movement_family(FlopsRegistry& r) {
  register_views(r);
  register_copies(r);
  register_fills(r);
  register_gathers(r);
  register_scatters(r);
}

}  // namespace flopscope
