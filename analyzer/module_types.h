// What a module's class says about it, where an analysis needs to know (the diff's alignment, the
// elimination candidates).
#pragma once

#include <string>

namespace flopscope {

// Holders of submodules that compute nothing themselves: ModuleList, Sequential, ModuleDict.
bool is_container_type(const std::string& type);

}  // namespace flopscope
