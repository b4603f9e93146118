#include "analyzer/op_category.h"

#include <array>
#include <string>
#include <unordered_map>

#include "analyzer/flops/registry.h"
#include "analyzer/timeline.h"

namespace flopscope {
namespace {

constexpr std::string_view kKernelRow = "kernel ";

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const char c = s[i] >= 'A' && s[i] <= 'Z' ? static_cast<char>(s[i] - 'A' + 'a') : s[i];
    if (c != prefix[i]) return false;
  }
  return true;
}

// Op name -> category of the registry family that registers it: each family registered into a registry of
// its own, so the family files stay the one list of which op is which.
const std::unordered_map<std::string, OpCategory>& family_categories() {
  static const auto* table = [] {
    auto* out = new std::unordered_map<std::string, OpCategory>();
    using Register = void (*)(FlopsRegistry&);
    const std::array<std::pair<Register, OpCategory>, 10> families = {{
        {register_matmul_family, OpCategory::kGemm},
        {register_conv_family, OpCategory::kGemm},
        {register_attention_family, OpCategory::kAttention},
        {register_normalization_family, OpCategory::kNorm},
        {register_softmax_family, OpCategory::kElementwise},
        {register_activation_family, OpCategory::kElementwise},
        {register_elementwise_family, OpCategory::kElementwise},
        {register_reduction_family, OpCategory::kElementwise},
        {register_pooling_family, OpCategory::kElementwise},
        {register_data_movement_family, OpCategory::kMemory},
    }};
    for (const auto& [add, category] : families) {
      FlopsRegistry r;
      add(r);
      for (const std::string& name : r.names()) out->emplace(name, category);
    }
    return out;
  }();
  return *table;
}

OpCategory kernel_row_category(std::string_view kernel) {
  if (starts_with_nocase(kernel, "memcpy") || starts_with_nocase(kernel, "memset"))
    return OpCategory::kMemory;
  return is_communication_kernel(kernel) ? OpCategory::kCommunication : OpCategory::kOther;
}

}  // namespace

const char* to_string(OpCategory c) {
  switch (c) {
    case OpCategory::kGemm:
      return "GEMM";
    case OpCategory::kAttention:
      return "attention";
    case OpCategory::kNorm:
      return "norm";
    case OpCategory::kElementwise:
      return "elementwise";
    case OpCategory::kCommunication:
      return "communication";
    case OpCategory::kMemory:
      return "memory";
    case OpCategory::kOther:
      return "other";
  }
  return "?";
}

bool is_orphan_kernel_row(std::string_view op_name) {
  return op_name.starts_with(kKernelRow);
}

OpCategory op_category(std::string_view op_name) {
  if (is_orphan_kernel_row(op_name)) return kernel_row_category(op_name.substr(kKernelRow.size()));
  const auto& families = family_categories();
  if (auto it = families.find(std::string(op_name)); it != families.end()) return it->second;
  // Collectives: torch.distributed's c10d ops and the names the collective libraries give their calls.
  if (op_name.starts_with("c10d::") || op_name.starts_with("_c10d_functional::") ||
      op_name == "record_param_comms" || is_communication_kernel(op_name))
    return OpCategory::kCommunication;
  // Allocations move no data but belong to memory management, not to an unknown kind of work.
  if (op_name.starts_with("aten::empty") || op_name.starts_with("aten::resize_")) return OpCategory::kMemory;
  return OpCategory::kOther;
}

}  // namespace flopscope
