#include "db/model/op_signature.h"

namespace flopscope {

std::string signature_of(const std::vector<OpArg>& args) {
  std::string s;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i) s += ", ";
    const OpArg& a = args[i];
    if (a.is_tensor) {
      s += a.dtype + "[";
      for (std::size_t d = 0; d < a.shape.size(); ++d) s += (d ? "," : "") + std::to_string(a.shape[d]);
      s += "]";
    } else {
      s += a.value.empty() ? "_" : a.value;
    }
  }
  return s;
}

}  // namespace flopscope
