// softmax / log_softmax along one dimension: per element a max, a subtract, an exp, a sum and a divide
// (log_softmax: a subtract instead of the divide, plus one log per row): 5 FLOPs per element. A masked
// softmax adds one select per element.
#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;

double rows(const flops::Shape& shape, std::string_view dim_text) {
  auto dim = flops::parse_int(dim_text);
  if (!dim || shape.empty()) return 0;
  auto d = flops::norm_dim(*dim, shape.size());
  if (!d || shape[*d] == 0) return 0;
  return flops::numel(shape) / static_cast<double>(shape[*d]);
}

// (self, dim, dtype | half_to_float): a dtype argument or half_to_float = True changes the output type.
template <bool kLog>
FlopsResult softmax(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  const OpArg& x = args[0];
  double n = flops::numel(x.shape);
  int out_size = flops::element_size(x);
  std::string_view third = flops::value_at(args, 2);
  if (third == "True" || third == "true")
    out_size = 4;
  else if (auto t = flops::parse_scalar_type(third);
           !t.empty() && args.size() > 2 && !args[2].is_tensor && third != "0" && third != "1") {
    out_size = dtype_size(t);
  }
  double flops_count = 5 * n + (kLog ? rows(x.shape, flops::value_at(args, 1)) : 0);
  return flops::result(flops_count, 0, flops::tensor_bytes(x), n * out_size,
                       kLog ? "log_softmax: 5 per element + 1 log per row" : "softmax: 5 per element");
}

// _masked_softmax(self, mask, dim, mask_type)
FlopsResult masked_softmax(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double n = flops::numel(args[0].shape);
  return flops::result(6 * n, 0, flops::bytes_in(args, 0, 2), n * flops::element_size(args[0]),
                       "masked softmax: 6 per element (softmax + select)");
}

}  // namespace

void register_softmax_family(FlopsRegistry& r) {
  for (const char* name : {"aten::softmax", "aten::_softmax", "aten::special_softmax"})
    r.add(name, softmax<false>);
  for (const char* name : {"aten::log_softmax", "aten::_log_softmax", "aten::special_log_softmax"}) {
    r.add(name, softmax<true>);
  }
  r.add("aten::_masked_softmax", masked_softmax);
}

}  // namespace flopscope
