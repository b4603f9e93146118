// Element types by name. Every capture path normalises to these names (float32, bfloat16, int64, ...).
#pragma once

#include <string>
#include <string_view>

namespace flopscope {

// Bytes per element, 0 when the name is unknown.
int dtype_size(std::string_view dtype);

// Maps names from PyTorch, Kineto and safetensors ("float", "c10::BFloat16", "F32", "long int",
// "torch.float16") to flopscope's names; unknown names come back unchanged.
std::string normalize_dtype(std::string_view name);

bool is_floating_dtype(std::string_view dtype);

}  // namespace flopscope
