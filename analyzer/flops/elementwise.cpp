// Elementwise arithmetic, math functions and comparisons with numpy broadcasting, their in-place (add_)
// and scalar (rsub, add.Scalar, pow.Scalar) forms. One FLOP per output element per arithmetic operation
// or elementary function (exp, log, sqrt, sin, erf, ... each count 1); comparisons count 1 and write
// bool. Constants: docs/flops.md.
#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;

constexpr const char* kBinaryNote = "elementwise: 1 FLOP per output element";

// Binary op on args[0], args[1] (either may be a Python scalar). Later args are alpha, rounding mode or
// an out= tensor, which is the output itself.
template <int kFlops, bool kCompare>
FlopsResult binary(Args args) {
  auto p = flops::broadcast_inputs(args, 2);
  if (!p) return {};
  if (!p->any_tensor) return flops::result(kFlops, 0, 0, 0, "scalar arithmetic");
  return flops::per_element(
      *p, kFlops, kCompare ? "comparison: 1 per output element, bool result" : kBinaryNote, kCompare ? 1 : 0);
}

// add/sub/rsub(self, other, alpha): alpha != 1 costs one more multiply per element.
FlopsResult add_sub(Args args) {
  auto p = flops::broadcast_inputs(args, 2);
  if (!p) return {};
  if (!p->any_tensor) return flops::result(1, 0, 0, 0, "scalar arithmetic");
  auto alpha = flops::parse_double(flops::value_at(args, 2));
  bool scaled = args.size() > 2 && !args[2].is_tensor && alpha && *alpha != 1;
  return flops::per_element(*p, scaled ? 2 : 1,
                            scaled ? "add/sub with alpha: 2 per output element" : kBinaryNote);
}

// Ops over args[0, kInputs) tensors: where(cond, a, b), masked_fill(self, mask, value), addcmul(self, t1,
// t2).
template <int kFlops, std::size_t kInputs>
FlopsResult nary(Args args) {
  auto p = flops::broadcast_inputs(args, kInputs);
  if (!p || !p->any_tensor) return {};
  return flops::per_element(*p, kFlops, "elementwise: constant per output element (docs/flops.md)");
}

// where(cond, self, other): the output takes self's type, not cond's (bool).
FlopsResult where(Args args) {
  auto p = flops::broadcast_inputs(args, 3);
  if (!p || !p->any_tensor) return {};
  int elem = 0;
  for (std::size_t i = 1; i < 3 && i < args.size(); ++i) {
    if (args[i].is_tensor) {
      elem = flops::element_size(args[i]);
      break;
    }
  }
  return flops::per_element(*p, 1, "where: 1 select per output element", elem);
}

// Unary predicates with a bool result.
FlopsResult predicate(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double n = flops::numel(args[0].shape);
  return flops::result(n, 0, flops::tensor_bytes(args[0]), n, "predicate: 1 per element, bool result");
}

// Binary ops with one operation per output element (not bool comparisons: those write one byte each).
constexpr const char* kBinaryOps[] = {"aten::mul",
                                      "aten::mul_",
                                      "aten::multiply",
                                      "aten::multiply_",
                                      "aten::div",
                                      "aten::div_",
                                      "aten::divide",
                                      "aten::divide_",
                                      "aten::true_divide",
                                      "aten::true_divide_",
                                      "aten::floor_divide",
                                      "aten::floor_divide_",
                                      "aten::remainder",
                                      "aten::remainder_",
                                      "aten::fmod",
                                      "aten::fmod_",
                                      "aten::pow",
                                      "aten::pow_",
                                      "aten::float_power",
                                      "aten::maximum",
                                      "aten::minimum",
                                      "aten::fmax",
                                      "aten::fmin",
                                      "aten::atan2",
                                      "aten::atan2_",
                                      "aten::hypot",
                                      "aten::copysign",
                                      "aten::xlogy",
                                      "aten::bitwise_and",
                                      "aten::bitwise_and_",
                                      "aten::bitwise_or",
                                      "aten::bitwise_or_",
                                      "aten::bitwise_xor",
                                      "aten::bitwise_xor_",
                                      "aten::__and__",
                                      "aten::__or__",
                                      "aten::__xor__",
                                      "aten::__iand__",
                                      "aten::__ior__",
                                      "aten::bitwise_left_shift",
                                      "aten::bitwise_right_shift",
                                      "aten::__lshift__",
                                      "aten::__rshift__",
                                      "aten::logical_and",
                                      "aten::logical_and_",
                                      "aten::logical_or",
                                      "aten::logical_or_",
                                      "aten::logical_xor",
                                      "aten::eq_",
                                      "aten::ne_",
                                      "aten::lt_",
                                      "aten::le_",
                                      "aten::gt_",
                                      "aten::ge_",
                                      "aten::heaviside"};

// Unary ops with one operation per element.
constexpr const char* kUnaryOps[] = {
    "aten::abs",         "aten::abs_",         "aten::absolute",    "aten::neg",         "aten::neg_",
    "aten::negative",    "aten::exp",          "aten::exp_",        "aten::exp2",        "aten::expm1",
    "aten::expm1_",      "aten::log",          "aten::log_",        "aten::log2",        "aten::log10",
    "aten::log1p",       "aten::log1p_",       "aten::sqrt",        "aten::sqrt_",       "aten::rsqrt",
    "aten::rsqrt_",      "aten::reciprocal",   "aten::reciprocal_", "aten::square",      "aten::sin",
    "aten::sin_",        "aten::cos",          "aten::cos_",        "aten::tan",         "aten::asin",
    "aten::acos",        "aten::atan",         "aten::sinh",        "aten::cosh",        "aten::asinh",
    "aten::acosh",       "aten::atanh",        "aten::erf",         "aten::erf_",        "aten::erfc",
    "aten::erfinv",      "aten::floor",        "aten::floor_",      "aten::ceil",        "aten::ceil_",
    "aten::round",       "aten::round_",       "aten::trunc",       "aten::trunc_",      "aten::frac",
    "aten::sign",        "aten::sgn",          "aten::signbit",     "aten::logical_not", "aten::logical_not_",
    "aten::bitwise_not", "aten::nan_to_num",   "aten::nan_to_num_", "aten::lgamma",      "aten::digamma",
    "aten::i0",          "aten::sinc",         "aten::deg2rad",     "aten::rad2deg",     "aten::logit",
    "aten::angle",       "aten::conj_physical"};

}  // namespace

void register_elementwise_family(FlopsRegistry& r) {
  for (const char* name : {"aten::add", "aten::add_", "aten::sub", "aten::sub_", "aten::subtract",
                           "aten::subtract_", "aten::rsub"}) {
    r.add(name, add_sub);
  }
  for (const char* name : kBinaryOps) r.add(name, binary<1, false>);
  for (const char* name :
       {"aten::eq", "aten::ne", "aten::lt", "aten::le", "aten::gt", "aten::ge", "aten::greater", "aten::less",
        "aten::greater_equal", "aten::less_equal", "aten::not_equal"}) {
    r.add(name, binary<1, true>);
  }
  // isclose is |a-b| <= atol + rtol*|b|: five operations.
  r.add("aten::isclose", binary<5, true>);
  for (const char* name : kUnaryOps) r.add(name, flops::unary<1>);
  for (const char* name :
       {"aten::isnan", "aten::isinf", "aten::isfinite", "aten::isposinf", "aten::isneginf", "aten::isreal"}) {
    r.add(name, predicate);
  }
  r.add("aten::where", where);
  r.add("aten::_s_where", where);
  for (const char* name : {"aten::masked_fill", "aten::masked_fill_"}) r.add(name, nary<1, 3>);
  // addcmul/addcdiv: self + value * t1 (op) t2; lerp: self + w * (end - self).
  for (const char* name :
       {"aten::addcmul", "aten::addcmul_", "aten::addcdiv", "aten::addcdiv_", "aten::lerp", "aten::lerp_"}) {
    r.add(name, nary<3, 3>);
  }
}

}  // namespace flopscope
