#include "analyzer/flops/pointwise.h"

namespace flopscope::flops {

std::optional<Pointwise> broadcast_inputs(Args args, std::size_t n) {
  Pointwise p;
  const OpArg* first = nullptr;
  const OpArg* first_float = nullptr;
  for (std::size_t i = 0; i < n && i < args.size(); ++i) {
    const OpArg& a = args[i];
    if (!a.is_tensor) continue;
    if (!p.any_tensor) {
      p.out = a.shape;
      p.any_tensor = true;
    } else {
      auto b = broadcast(p.out, a.shape);
      if (!b) return std::nullopt;
      p.out = std::move(*b);
    }
    p.read += tensor_bytes(a);
    if (first == nullptr) first = &a;
    if (first_float == nullptr && is_floating_dtype(a.dtype)) first_float = &a;
  }
  const OpArg* pick = first_float != nullptr ? first_float : first;
  if (pick != nullptr) p.elem_size = element_size(*pick);
  return p;
}

}  // namespace flopscope::flops
