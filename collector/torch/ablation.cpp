// LibTorch TU: ablation by rewriting a private copy of forward(). TorchScript shares one graph per method
// among every instance of a class, so editing layers.1.mlp's forward would edit layers.0.mlp's too. Instead
// the root forward graph is copied and every module call inlined into it by hand; each call site knows its
// receiver's instance path through the prim::GetAttr chain from self, and the sites of the ablated instances
// are not inlined: their output is replaced. The copy runs as a GraphFunction with the loaded module as self.
#include "collector/torch/ablation.h"

#include <ATen/Parallel.h>
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/python/update_graph_executor_opt.h>
#include <torch/csrc/jit/runtime/custom_operator.h>
#include <torch/script.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_set>

#include "collector/torch/torch_model_io.h"
#include "db/model/dtype.h"

namespace flopscope {
namespace {

// The first identity site whose input and output differ in shape or dtype, seen while the rewritten graph
// ran. The operator below records it instead of throwing: the interpreter would bury the message in a
// traceback. One ablation runs at a time per thread.
struct IdentityMismatch {
  std::int64_t site = -1;
  std::string output, input;
};
thread_local IdentityMismatch identity_mismatch;

std::string tensor_text(const at::Tensor& t) {
  std::string dims;
  for (auto d : t.sizes()) dims += (dims.empty() ? "" : ",") + std::to_string(d);
  return normalize_dtype(c10::toString(t.scalar_type())) + "[" + dims + "]";
}

// flopscope::ablation_identity(output, input, site): the input in place of the output, when they agree.
at::Tensor identity_replacement(const at::Tensor& output, const at::Tensor& input, std::int64_t site) {
  if (output.sizes() == input.sizes() && output.scalar_type() == input.scalar_type()) return input;
  if (identity_mismatch.site < 0) identity_mismatch = {site, tensor_text(output), tensor_text(input)};
  return output;  // keeps the run going; the caller refuses the result
}

const torch::jit::RegisterOperators kIdentityOperator({torch::jit::Operator(
    "flopscope::ablation_identity(Tensor output, Tensor input, int site) -> Tensor",
    [](torch::jit::Stack& stack) {
      const std::int64_t site = torch::jit::pop(stack).toInt();
      at::Tensor input = torch::jit::pop(stack).toTensor();
      at::Tensor output = torch::jit::pop(stack).toTensor();
      torch::jit::push(stack, identity_replacement(output, input, site));
    },
    c10::AliasAnalysisKind::CONSERVATIVE)});

// Rewrites a copy of the root forward graph in place (see the file comment).
class ForwardRewrite {
 public:
  ForwardRewrite(std::string model_path, torch::jit::Graph& graph, const std::vector<AblatedModule>& modules)
      : model_path_(std::move(model_path)), graph_(graph), self_(graph.inputs().at(0)) {
    for (const auto& m : modules) {
      targets_.emplace(m.path, sites_.size());
      sites_.push_back({m.path, m.mode, 0});
    }
  }

  Status run() {
    // Inlining a call brings the callee's own calls into the graph: again until none is left to inline.
    bool changed = true;
    while (changed) {
      changed = false;
      FS_RETURN_IF_ERROR(rewrite(graph_.block(), changed));
    }
    return Status::Ok();
  }

  std::vector<AblatedSite> sites() const { return sites_; }
  std::vector<std::string> still_running() const { return {inlined_.begin(), inlined_.end()}; }
  int opaque_calls() const { return opaque_calls_; }
  const std::string& site_path(std::int64_t site) const {
    return identity_paths_.at(static_cast<std::size_t>(site));
  }

 private:
  // The instance a module value is, as a path from self; nullopt when it is not reached by attributes alone
  // (an interface call or an indexed container).
  std::optional<std::string> path_of(torch::jit::Value* v) const {
    if (v == self_) return std::string();
    const torch::jit::Node* n = v->node();
    if (n->kind() != c10::prim::GetAttr) return std::nullopt;
    std::optional<std::string> parent = path_of(n->input(0));
    if (!parent) return std::nullopt;
    const std::string& name = n->s(c10::attr::name);
    return parent->empty() ? name : *parent + "." + name;
  }

  Status rewrite(torch::jit::Block* block, bool& changed) {
    for (auto it = block->nodes().begin(); it != block->nodes().end();) {
      torch::jit::Node* call = *it;
      ++it;  // inlining destroys `call`; the next node stays
      for (torch::jit::Block* inner : call->blocks()) FS_RETURN_IF_ERROR(rewrite(inner, changed));
      if (call->kind() != c10::prim::CallMethod || left_.count(call) > 0) continue;
      const std::string method = call->s(c10::attr::name);
      const std::optional<std::string> path = path_of(call->input(0));
      const auto target = path && method == "forward" ? targets_.find(*path) : targets_.end();
      if (target != targets_.end()) {
        FS_RETURN_IF_ERROR(replace_output(call, sites_[target->second]));
        ++sites_[target->second].call_sites;
        left_.insert(call);
        changed = true;
        continue;
      }
      auto cls = call->input(0)->type()->cast<c10::ClassType>();
      torch::jit::Function* callee = cls ? cls->findMethod(method) : nullptr;
      if (callee == nullptr || !callee->isGraphFunction()) {
        left_.insert(call);  // runs as it is: nothing below it can be told apart by instance
        ++opaque_calls_;
        continue;
      }
      if (path && method == "forward") inlined_.insert(*path);
      // The callee's graph as written (its optimized graph has every call below it inlined already).
      torch::jit::GraphFunction& fn = torch::jit::toGraphFunction(*callee);
      torch::jit::inlineCallTo(call, &fn, fn.graph().get());
      changed = true;
    }
    return Status::Ok();
  }

  // The call stays (its shapes are what zeros_like and the identity check need); its uses take the
  // replacement instead.
  Status replace_output(torch::jit::Node* call, const AblatedSite& site) {
    if (call->outputs().size() != 1 || call->output()->type()->kind() != c10::TypeKind::TensorType) {
      return InvalidArgument(
          model_path_ + ": " + site.path + " returns " +
          (call->outputs().size() == 1 ? call->output()->type()->repr_str() : "several values") +
          ", not one tensor: --module ...=" + to_string(site.mode) + " replaces a tensor output only");
    }
    torch::jit::Value* out = call->output();
    torch::jit::WithInsertPoint after(call->next());
    torch::jit::Value* replacement = nullptr;
    if (site.mode == AblationMode::kZero) {
      replacement = graph_.insert(c10::aten::zeros_like, {out});
    } else {
      torch::jit::Value* input = nullptr;
      for (std::size_t i = 1; i < call->inputs().size() && input == nullptr; ++i)
        if (call->input(i)->type()->kind() == c10::TypeKind::TensorType) input = call->input(i);
      if (input == nullptr) {
        return InvalidArgument(model_path_ + ": " + site.path +
                               " takes no tensor input: --module ...=identity has nothing to pass through");
      }
      const auto index = static_cast<std::int64_t>(identity_paths_.size());
      identity_paths_.push_back(site.path);
      replacement = graph_.insert(c10::Symbol::fromQualString("flopscope::ablation_identity"),
                                  {out, input, torch::jit::NamedValue(index)});
    }
    out->replaceAllUsesAfterNodeWith(replacement->node(), replacement);
    return Status::Ok();
  }

  std::string model_path_;
  torch::jit::Graph& graph_;
  torch::jit::Value* self_;
  std::map<std::string, std::size_t> targets_;
  std::vector<AblatedSite> sites_;
  std::vector<std::string> identity_paths_;           // by the identity operator's site index
  std::unordered_set<const torch::jit::Node*> left_;  // calls not to inline
  std::set<std::string> inlined_;
  int opaque_calls_ = 0;
};

// Every tensor forward() returned, whole while `budget_left` lasts (the profile's rule).
std::vector<OutputTensor> output_tensors(const c10::IValue& output, std::int64_t& budget_left) {
  std::vector<std::pair<std::string, at::Tensor>> tensors;
  collect_output_tensors(output, "", tensors);
  std::vector<OutputTensor> out;
  for (const auto& [name, t] : tensors) out.push_back(output_tensor(name, t, budget_left));
  return out;
}

}  // namespace

StatusOr<AblationRun> run_ablation(const AblationOptions& o) {
  if (o.modules.empty()) return InvalidArgument(o.model_path + ": no module to ablate");
  FS_ASSIGN_OR_RETURN(torch::jit::Module m, load_torchscript_module(o.model_path));
  std::set<std::string> instances;
  for (const auto& nm : m.named_modules()) instances.insert(nm.name);
  for (const auto& a : o.modules) {
    if (a.path.empty()) return InvalidArgument(o.model_path + ": the root module cannot be ablated");
    if (instances.count(a.path) == 0) return InvalidArgument(o.model_path + ": no module instance " + a.path);
  }
  auto forward = m.find_method("forward");
  if (!forward) return InvalidArgument(o.model_path + ": the model has no forward() method");
  std::shared_ptr<torch::jit::Graph> graph = forward->graph()->copy();
  ForwardRewrite rewrite(o.model_path, *graph, o.modules);
  FS_RETURN_IF_ERROR(rewrite.run());
  torch::jit::GraphFunction ablated(c10::QualifiedName("flopscope_ablated_forward"), graph, nullptr);

  at::set_num_threads(o.threads > 0 ? o.threads
                                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  FS_ASSIGN_OR_RETURN(
      std::vector<ModelRequest> requests,
      model_requests(o.model_path, forward->function().getSchema(), o.inputs, o.requests, o.seed));
  // As the profile runs it: methods as written, without the executor's optimizing passes.
  const bool optimize = torch::jit::getGraphExecutorOptimize();
  torch::jit::setGraphExecutorOptimize(false);
  torch::NoGradGuard no_grad;
  AblationRun result;
  identity_mismatch = {};
  const ModelRequest* current = nullptr;
  std::int64_t original_budget = kOutputValueBudgetBytes, ablated_budget = kOutputValueBudgetBytes;
  try {
    for (const auto& r : requests) {
      current = &r;
      OutputRecord original{static_cast<int>(result.original.size()), input_hash(r.inputs), r.tag, {}};
      OutputRecord edited = original;
      original.tensors = output_tensors(m.forward(r.inputs), original_budget);
      torch::jit::Stack stack{m._ivalue()};
      stack.insert(stack.end(), r.inputs.begin(), r.inputs.end());
      ablated.run(stack);
      if (identity_mismatch.site >= 0) break;
      edited.tensors = output_tensors(stack.back(), ablated_budget);
      result.original.push_back(std::move(original));
      result.ablated.push_back(std::move(edited));
    }
  } catch (const std::exception& e) {
    if (identity_mismatch.site < 0) {
      torch::jit::setGraphExecutorOptimize(optimize);
      return InvalidArgument(o.model_path + ": forward failed with " + current->what + ": " +
                             failure_cause(e.what()));
    }
  }
  torch::jit::setGraphExecutorOptimize(optimize);
  if (identity_mismatch.site >= 0) {
    return InvalidArgument(o.model_path + ": --module " + rewrite.site_path(identity_mismatch.site) +
                           "=identity: its output is " + identity_mismatch.output + " but its first input " +
                           identity_mismatch.input + "; identity needs equal shapes and dtypes");
  }
  result.sites = rewrite.sites();
  result.still_running = rewrite.still_running();
  result.opaque_calls = rewrite.opaque_calls();
  return result;
}

}  // namespace flopscope
