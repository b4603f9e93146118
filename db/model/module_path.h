// Recovering the dotted module paths a PyTorch user knows (`layers.0.attn.q_proj`) from what an
// interpreter or profiler reports, which drops containers such as ModuleList and Sequential.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

// One frame of a call stack of module calls: the attribute name under its parent and the class name.
struct ModuleFrame {
  std::string name;  // "0", "attn", "q_proj"
  std::string type;  // "Block", "Linear"
};

// The model's module tree (from named_modules()), with lookups used to resolve frames.
class ModuleTree {
 public:
  // modules[0] must be the root (path ""). Ids are the records' ids.
  explicit ModuleTree(std::vector<ModuleRecord> modules);

  const std::vector<ModuleRecord>& modules() const { return modules_; }
  // Id of a module by dotted path, kNoId when absent.
  Id find(std::string_view path) const;
  // Parent of a module, kNoId for the root or an unknown id.
  Id parent_of(Id id) const;
  // The module and its ancestors below the root, root-most first.
  std::vector<Id> chain(Id id) const;
  // Resolves a chain of frames below the root to a module id. Frames whose names are not children of the
  // current module are looked up one level down through containers that are never called themselves
  // (ModuleList, Sequential, ModuleDict); the frame type breaks ties. Unresolvable frames stop the walk:
  // the deepest module found is returned. When two children match one frame (equal names under different
  // containers, e.g. PEFT's `lora_A.default` and `lora_B.default`), the walk stops there and, when given,
  // `ambiguous` receives the candidates: the op may belong to any of them.
  Id resolve(const std::vector<ModuleFrame>& frames, std::vector<Id>* ambiguous = nullptr) const;

 private:
  std::vector<ModuleRecord> modules_;
  std::unordered_map<std::string, Id> by_path_;
  std::unordered_map<Id, std::vector<Id>> children_;
  std::unordered_map<Id, std::size_t> index_;
};

// Parses TorchScript's module hierarchy entries ("TOP(SonnetMini)::forward", "0(Block)::forward",
// "SELF(Attention)::attend", "::embedding") into module frames: TOP, SELF and free-function frames are
// dropped.
std::vector<ModuleFrame> parse_torchscript_hierarchy(const std::vector<std::string>& entries);

// Dotted module paths ("layers.0.attn"; "" is the root): the one set of helpers every library uses.
int path_depth(std::string_view path);                           // "" 0, "a" 1, "a.b" 2
std::string_view path_parent(std::string_view path);             // "a.b.c" -> "a.b"; "a" -> ""
std::string_view path_leaf(std::string_view path);               // "a.b.c" -> "c"; "a" -> "a"
std::string_view path_prefix(std::string_view path, int depth);  // ("a.b.c", 2) -> "a.b"; depth <= 0 -> ""

// Short class name from a qualified TorchScript name:
// "__torch__.torch.nn.modules.linear.___torch_mangle_0.Linear"
// -> "Linear".
std::string short_type_name(std::string_view qualified);

}  // namespace flopscope
