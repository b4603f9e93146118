// Activations: FLOPs per element from their definition, each arithmetic operation or elementary function
// (exp, log, tanh, erf) counting 1. Reads the input once, writes the output once (in place: the same).
//   relu, threshold, clamp_min/max: 1 (max)        leaky_relu, prelu, rrelu: 2 (compare, multiply)
//   relu6, hardtanh, clamp: 2 (min, max)           sigmoid: 4 (neg, exp, add, divide)
//   tanh: 1 (elementary)                          silu: 5 (sigmoid, multiply)
//   gelu: 5 erf form (divide, erf, add, 2 multiply); 9 tanh form (cube 2, 3 multiply, 2 add, tanh, half)
//   hardswish: 5 (add, min, max, multiply, divide)  hardsigmoid: 4 (add, min, max, divide)
//   elu: 4 (compare, exp, subtract, multiply)      selu, celu: 5 (elu plus a scale or divide)
//   softplus: 5 (multiply, exp, add, log, divide)  mish: 5 (exp, add, log, tanh, multiply)
//   softsign: 3 (abs, add, divide)                 log_sigmoid: 4; hardshrink, tanhshrink: 2; softshrink: 3
//   glu: 5 per output element (sigmoid of one half times the other).
#include "analyzer/flops/pointwise.h"

namespace flopscope {
namespace {
using flops::Args;

// clamp(self, min, max): one comparison per given bound; tensor bounds broadcast.
FlopsResult clamp(Args args) {
  auto p = flops::broadcast_inputs(args, 3);
  if (!p || !flops::is_tensor(args, 0)) return {};
  int bounds = 0;
  for (std::size_t i = 1; i < 3 && i < args.size(); ++i) {
    bounds += (args[i].is_tensor || !flops::is_none(args[i].value)) ? 1 : 0;
  }
  // Both bounds unknown (not recorded): clamp is called with at least one.
  bool assumed = args.size() < 2;
  if (bounds == 0) bounds = 1;
  return flops::result(bounds * flops::numel(p->out), 0, p->read, flops::numel(p->out) * p->elem_size,
                       "clamp: 1 comparison per given bound per element", assumed);
}

// gelu(self, approximate): "tanh" uses the tanh approximation.
FlopsResult gelu(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  bool tanh_form = flops::value_at(args, 1).find("tanh") != std::string_view::npos;
  double n = flops::numel(args[0].shape);
  double bytes = n * flops::element_size(args[0]);
  return flops::result((tanh_form ? 9 : 5) * n, 0, bytes, bytes,
                       tanh_form ? "gelu (tanh form): 9 per element" : "gelu (erf form): 5 per element");
}

// prelu(self, weight): weight broadcasts over channels.
FlopsResult prelu(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double n = flops::numel(args[0].shape);
  return flops::result(2 * n, 0, flops::bytes_in(args, 0, 2), n * flops::element_size(args[0]),
                       "prelu: 2 per element");
}

// glu(self, dim): halves self along dim.
FlopsResult glu(Args args) {
  if (!flops::is_tensor(args, 0)) return {};
  double out = flops::numel(args[0].shape) / 2;
  return flops::result(5 * out, 0, flops::tensor_bytes(args[0]), out * flops::element_size(args[0]),
                       "glu: 5 per output element");
}

}  // namespace

void register_activation_family(FlopsRegistry& r) {
  for (const char* name :
       {"aten::relu", "aten::relu_", "aten::threshold", "aten::threshold_", "aten::clamp_min",
        "aten::clamp_min_", "aten::clamp_max", "aten::clamp_max_", "aten::tanh", "aten::tanh_"}) {
    r.add(name, flops::unary<1>);
  }
  for (const char* name :
       {"aten::relu6", "aten::relu6_", "aten::hardtanh", "aten::hardtanh_", "aten::leaky_relu",
        "aten::leaky_relu_", "aten::rrelu", "aten::rrelu_", "aten::hardshrink", "aten::tanhshrink"}) {
    r.add(name, flops::unary<2>);
  }
  for (const char* name : {"aten::clamp", "aten::clamp_", "aten::clip", "aten::clip_"}) r.add(name, clamp);
  r.add("aten::gelu", gelu);
  r.add("aten::gelu_", gelu);
  r.add("aten::prelu", prelu);
  r.add("aten::_prelu_kernel", prelu);
  r.add("aten::glu", glu);
  for (const char* name : {"aten::softsign", "aten::softshrink"}) r.add(name, flops::unary<3>);
  for (const char* name : {"aten::sigmoid", "aten::sigmoid_", "aten::hardsigmoid", "aten::hardsigmoid_",
                           "aten::elu", "aten::elu_", "aten::log_sigmoid", "aten::log_sigmoid_forward"}) {
    r.add(name, flops::unary<4>);
  }
  for (const char* name :
       {"aten::silu", "aten::silu_", "aten::hardswish", "aten::hardswish_", "aten::selu", "aten::selu_",
        "aten::celu", "aten::celu_", "aten::softplus", "aten::mish", "aten::mish_"}) {
    r.add(name, flops::unary<5>);
  }
}

}  // namespace flopscope
