// Shared pieces of the per-element families (elementwise, activations, softmax, normalization): the
// broadcast output of an op's tensor inputs and the result of "k FLOPs per output element".
#pragma once

#include "analyzer/flops/args.h"

namespace flopscope::flops {

struct Pointwise {
  Shape out;
  double read = 0;    // bytes of the tensor inputs
  int elem_size = 4;  // of the output: the first floating input's, else the first tensor's
  bool any_tensor = false;
};

// Broadcasts the tensor args among args[0, n); nullopt when they do not broadcast.
std::optional<Pointwise> broadcast_inputs(Args args, std::size_t n);

// k FLOPs per output element; reads p.read and writes the output once.
inline FlopsResult per_element(const Pointwise& p, double k, std::string_view note, int out_elem_size = 0) {
  double n = numel(p.out);
  return result(k * n, 0, p.read, n * (out_elem_size > 0 ? out_elem_size : p.elem_size), note);
}

// A unary op on args[0] costing kFlops per element.
template <int kFlops>
FlopsResult unary(Args args) {
  if (!is_tensor(args, 0)) return {};
  double n = numel(args[0].shape);
  double bytes = n * element_size(args[0]);
  return result(kFlops * n, 0, bytes, bytes,
                kFlops == 1 ? "1 FLOP per element" : "k FLOPs per element (docs/flops.md)");
}

}  // namespace flopscope::flops
