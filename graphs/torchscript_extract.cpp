// The one LibTorch translation unit of graphs/: loads a TorchScript archive and turns forward's inlined
// graph into GraphNode/GraphEdge records.
#include "graphs/torchscript_extract.h"

#include <torch/csrc/jit/passes/common_subexpression_elimination.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/script.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <unordered_map>

#include "db/model/input_file.h"
#include "db/model/module_path.h"

namespace flopscope::graphs {
namespace {

using torch::jit::Node;
using torch::jit::Value;

bool holds_tensor(const c10::TypePtr& type) {
  if (type->kind() == c10::TypeKind::TensorType) return true;
  for (const auto& contained : type->containedTypes()) {
    if (holds_tensor(contained)) return true;
  }
  return false;
}

// Real ops: anything outside prim:: that produces a tensor. Constants, attribute reads, list and tuple
// plumbing and shape arithmetic are folded away; edges pass through them.
bool is_drawn(const Node* node) {
  if (node->kind().is_prim()) return false;
  for (const Value* out : node->outputs()) {
    if (holds_tensor(out->type())) return true;
  }
  return false;
}

std::string first_line(const std::string& text) {
  auto nl = text.find('\n');
  return nl == std::string::npos ? text : text.substr(0, nl);
}

std::vector<ModuleRecord> module_records(const torch::jit::Module& root) {
  std::vector<ModuleRecord> modules;
  std::unordered_map<std::string, Id> by_path;
  for (const auto& named : root.named_modules()) {
    ModuleRecord m;
    m.id = static_cast<Id>(modules.size());
    m.path = named.name;
    m.type = short_type_name(named.value.type()->name() ? named.value.type()->name()->qualifiedName() : "");
    if (!m.path.empty()) {
      auto dot = m.path.rfind('.');
      auto parent = by_path.find(dot == std::string::npos ? "" : m.path.substr(0, dot));
      m.parent_id = parent == by_path.end() ? 0 : parent->second;
    }
    by_path[m.path] = m.id;
    modules.push_back(std::move(m));
  }
  return modules;
}

std::vector<ModuleFrame> frames_of(const Node* node) {
  std::vector<ModuleFrame> frames;
  auto stack = node->callstack();
  if (!stack) return frames;
  for (const auto& entry : (*stack)->vec()) {
    const auto& info = std::get<torch::jit::kModuleInstanceInfo>(entry);
    if (!info) continue;
    const std::string name = info->instance_name();
    if (name.empty() || name == "SELF" || name == "TOP") continue;
    auto type = info->class_type();
    frames.push_back({name, short_type_name(type && type->name() ? type->name()->qualifiedName() : "")});
  }
  return frames;
}

class Extractor {
 public:
  Extractor(const torch::jit::Graph& graph, const ModuleTree& tree, ExtractedGraph& out)
      : graph_(graph), tree_(tree), out_(out) {}

  void run() {
    const auto inputs = graph_.inputs();
    for (std::size_t i = 1; i < inputs.size(); ++i) {  // input 0 is the module itself
      GraphNode n;
      n.kind = "input";
      n.label = inputs[i]->debugNameBase();
      producer_[inputs[i]] = {add(std::move(n))};
    }
    walk(graph_.block());
    GraphNode output;
    output.kind = "output";
    Id id = add(std::move(output));
    int slot = 0;
    for (const Value* v : graph_.outputs()) connect(v, id, slot++);
  }

  std::vector<int> edge_arg;
  std::vector<int> input_count;  // per node: its graph inputs (all kinds)

 private:
  Id add(GraphNode n, int inputs = 0) {
    input_count.push_back(inputs);
    n.id = static_cast<Id>(out_.nodes.size());
    out_.nodes.push_back(std::move(n));
    return out_.nodes.back().id;
  }

  void walk(const torch::jit::Block* block) {
    for (const Node* node : block->nodes()) {
      if (is_drawn(node)) {
        GraphNode n;
        n.kind = node->kind().toQualString();
        Id module = tree_.resolve(frames_of(node));
        if (module != kNoId) {
          n.module_id = module;
          n.module_path = tree_.modules()[static_cast<std::size_t>(module)].path;
        }
        Id id = add(std::move(n), static_cast<int>(node->inputs().size()));
        int slot = 0;
        for (const Value* in : node->inputs()) connect(in, id, slot++);
        for (const Value* out : node->outputs()) producer_[out] = {id};
      }
      for (const torch::jit::Block* sub : live_blocks(node)) walk(sub);
    }
  }

  // An If condition known without running: the module's training flag (profiled models run in eval
  // mode, as the collector sets them), its negation, or a constant.
  static std::optional<bool> known_condition(const Value* cond) {
    const Node* n = cond->node();
    if (n->kind() == c10::prim::GetAttr && n->s(c10::attr::name) == "training") return false;
    if (n->kind() == c10::aten::__not__) {
      if (auto inner = known_condition(n->input(0))) return !*inner;
    }
    if (n->kind() == c10::prim::Constant && cond->type()->kind() == c10::TypeKind::BoolType) {
      return n->i(c10::attr::value) != 0;
    }
    return std::nullopt;
  }

  // The blocks that run: only the taken branch of an If whose condition is known (so training-only code
  // such as BatchNorm's num_batches_tracked update is not drawn), else all of them.
  static std::vector<const torch::jit::Block*> live_blocks(const Node* node) {
    if (node->kind() == c10::prim::If) {
      if (auto taken = known_condition(node->input(0))) return {node->blocks()[*taken ? 0 : 1]};
    }
    return {node->blocks().begin(), node->blocks().end()};
  }

  // Drawn nodes a tensor value comes from, looking through folded nodes and block parameters.
  const std::vector<Id>& producers(const Value* v) {
    auto it = producer_.find(v);
    if (it != producer_.end()) return it->second;
    producer_[v] = {};  // guards against cycles through loop-carried values
    std::set<Id> found;
    const Node* node = v->node();
    std::vector<const Value*> sources;
    if (node->kind() == c10::prim::Param) {
      const Node* owner = node->owningBlock()->owningNode();
      if (owner) sources.assign(owner->inputs().begin(), owner->inputs().end());
    } else if (node->kind() == c10::prim::If || node->kind() == c10::prim::Loop) {
      // An If's or Loop's result is what its blocks return at that position (a loop body returns its
      // continue condition first), or a loop's initial value (inputs: trip count, condition, values).
      const bool loop = node->kind() == c10::prim::Loop;
      const std::size_t index = v->offset();
      for (const torch::jit::Block* b : live_blocks(node)) {
        const std::size_t k = loop ? index + 1 : index;
        if (k < b->outputs().size()) sources.push_back(b->outputs()[k]);
      }
      if (loop && index + 2 < node->inputs().size()) sources.push_back(node->inputs()[index + 2]);
    } else {
      sources.assign(node->inputs().begin(), node->inputs().end());
    }
    for (const Value* s : sources) {
      if (!holds_tensor(s->type())) continue;
      for (Id p : producers(s)) found.insert(p);
    }
    auto& slot = producer_[v];
    slot.assign(found.begin(), found.end());
    return slot;
  }

  void connect(const Value* v, Id dst, int slot) {
    if (!holds_tensor(v->type())) return;
    for (Id src : producers(v)) {
      if (!edges_.insert({src, dst}).second) continue;
      out_.edges.push_back({src, dst, ""});
      edge_arg.push_back(slot);
    }
  }

  const torch::jit::Graph& graph_;
  const ModuleTree& tree_;
  ExtractedGraph& out_;
  std::unordered_map<const Value*, std::vector<Id>> producer_;
  std::set<std::pair<Id, Id>> edges_;
};

}  // namespace

StatusOr<ExtractedGraph> extract_graph_from_file(const std::string& model_path, const RunData* profiled) {
  std::error_code ec;
  if (!std::filesystem::exists(model_path, ec)) return NotFound(model_path + ": no such file");
  if (std::filesystem::is_directory(model_path, ec))
    return InvalidArgument(model_path + ": is a directory, not a TorchScript model");
  if (Status s = check_input_file(model_path); !s.ok()) return s;
  torch::jit::Module module;
  try {
    module = torch::jit::load(model_path, torch::kCPU);
  } catch (const std::exception& e) {
    return InvalidArgument(model_path + ": not a TorchScript model (" + first_line(e.what()) + ")");
  }
  return extract_graph_from_module(module, model_path, profiled);
}

StatusOr<ExtractedGraph> extract_graph_from_module(const torch::jit::Module& loaded,
                                                   const std::string& model_path, const RunData* profiled) {
  // Inline() takes each callee's body from its method's cache of compiled graphs, which a module that has
  // run holds as it ran: un-inlined under the collector's as-written execution, so the graph would stop at
  // the first submodule call. A clone has the same methods and shares the tensors, with empty caches.
  torch::jit::Module module;
  try {
    module = loaded.clone(/*inplace=*/true);
  } catch (const std::exception& e) {
    return Internal(model_path + ": could not copy the module's methods (" + first_line(e.what()) + ")");
  }
  auto forward = module.find_method("forward");
  if (!forward) return InvalidArgument(model_path + ": the TorchScript module has no forward method");

  ExtractedGraph result;
  result.modules = module_records(module);
  ModuleTree tree(result.modules);
  try {
    std::shared_ptr<torch::jit::Graph> graph = forward->graph()->copy();
    torch::jit::Inline(*graph);
    // The graph executor runs these before it executes a forward, so without them the graph would show
    // duplicate ops (e.g. repeated slices of one tensor) that never run, and ordinals would not match the
    // calls a profiled run records.
    torch::jit::EliminateCommonSubexpression(graph);
    torch::jit::EliminateDeadCode(graph);
    Extractor extractor(*graph, tree, result);
    extractor.run();
    if (profiled) {
      apply_profiled_shapes(result.nodes, result.edges, extractor.edge_arg, extractor.input_count, *profiled);
    }
  } catch (const std::exception& e) {
    return Internal(model_path + ": could not read forward's graph (" + first_line(e.what()) + ")");
  }
  return result;
}

}  // namespace flopscope::graphs
