#include "analyzer/module_types.h"

namespace flopscope {

bool is_container_type(const std::string& type) {
  return type == "ModuleList" || type == "Sequential" || type == "ModuleDict";
}

}  // namespace flopscope
