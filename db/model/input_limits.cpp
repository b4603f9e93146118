#include "db/model/input_limits.h"

namespace flopscope {

InputLimits& input_limits() {
  static InputLimits limits;
  return limits;
}

}  // namespace flopscope
