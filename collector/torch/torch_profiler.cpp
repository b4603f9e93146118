// LibTorch TU: loads a TorchScript archive, builds inputs from specs, runs warmup and measured iterations
// under the op observer, and reads the module tree and parameter statistics.
#include "collector/torch/torch_profiler.h"

#include <ATen/Parallel.h>
#include <torch/csrc/jit/python/update_graph_executor_opt.h>
#include <torch/cuda.h>
#include <torch/script.h>
#include <torch/version.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "analyzer/weights/tensor_similarity.h"
#include "collector/torch/op_observer.h"
#include "collector/torch/torch_model_io.h"
#include "db/model/dtype.h"
#include "db/model/input_file.h"
#include "db/model/module_path.h"
#include "db/model/sha256.h"

namespace flopscope {
namespace {

// Runs the model's methods as written for the lifetime of the guard (see TorchProfileOptions::attribution).
class UnoptimizedExecution {
 public:
  explicit UnoptimizedExecution(bool active)
      : active_(active), saved_(torch::jit::getGraphExecutorOptimize()) {
    if (active_) torch::jit::setGraphExecutorOptimize(false);
  }
  ~UnoptimizedExecution() {
    if (active_) torch::jit::setGraphExecutorOptimize(saved_);
  }
  UnoptimizedExecution(const UnoptimizedExecution&) = delete;
  UnoptimizedExecution& operator=(const UnoptimizedExecution&) = delete;

 private:
  bool active_;
  bool saved_;
};

std::string host_name() {
  char buf[256] = {0};
  if (::gethostname(buf, sizeof(buf) - 1) != 0) return "";
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return "cpu: " + line.substr(colon + 2);
    }
  }
  return "cpu";
}

std::vector<ModuleRecord> module_records(const torch::jit::Module& m) {
  std::vector<ModuleRecord> out;
  std::unordered_map<std::string, Id> ids;
  for (const auto& nm : m.named_modules()) {
    ModuleRecord r;
    r.id = static_cast<Id>(out.size());
    r.path = nm.name;
    r.type = short_type_name(nm.value.type()->name() ? nm.value.type()->name()->qualifiedName() : "Module");
    if (!r.path.empty()) {
      auto dot = r.path.rfind('.');
      std::string parent = dot == std::string::npos ? "" : r.path.substr(0, dot);
      auto it = ids.find(parent);
      r.parent_id = it == ids.end() ? 0 : it->second;
    }
    ids[r.path] = r.id;
    out.push_back(std::move(r));
  }
  return out;
}

// Statistics, content hash and content sketch of one parameter or buffer (values as float64, row-major).
ParamRecord tensor_record(const std::string& name, const at::Tensor& t, const ModuleTree& tree, Id id) {
  ParamRecord p;
  p.id = id;
  p.name = name;
  auto dot = p.name.rfind('.');
  p.module_id = tree.find(dot == std::string::npos ? "" : p.name.substr(0, dot));
  if (p.module_id == kNoId) p.module_id = 0;
  p.dtype = normalize_dtype(c10::toString(t.scalar_type()));
  p.shape.assign(t.sizes().begin(), t.sizes().end());
  p.numel = t.numel();
  p.bytes = static_cast<std::int64_t>(t.nbytes());
  if (p.numel > 0) {
    at::Tensor d = t.detach().to(torch::kDouble).contiguous();
    p.l2 = d.norm().item<double>();
    p.max_abs = d.abs().max().item<double>();
    p.nonzero_fraction =
        static_cast<double>(d.count_nonzero().item<std::int64_t>()) / static_cast<double>(p.numel);
    SketchBuilder sketch;
    const double* x = d.data_ptr<double>();
    for (std::int64_t i = 0; i < p.numel; ++i) sketch.add(x[i]);
    p.sketch = std::move(sketch.buckets);
    p.sum = sketch.sum;
    at::Tensor c = t.detach().contiguous();
    p.sha256 = sha256_hex(std::string_view(static_cast<const char*>(c.data_ptr()), c.nbytes()));
  } else {
    p.sha256 = sha256_hex("");
  }
  return p;
}

// Every name of every parameter and buffer: a tied tensor (lm_head.weight = embed.weight) is listed under
// each of its names, as TorchScript's module slots hold it and the eager companion records it.
std::vector<ParamRecord> param_records(const torch::jit::Module& m, const ModuleTree& tree) {
  std::vector<ParamRecord> out;
  for (const auto& np : m.named_parameters(/*recurse=*/true)) {
    out.push_back(tensor_record(np.name, np.value, tree, static_cast<Id>(out.size())));
  }
  for (const auto& nb : m.named_buffers(/*recurse=*/true)) {
    out.push_back(tensor_record(nb.name, nb.value, tree, static_cast<Id>(out.size())));
  }
  return out;
}

// The tensors a forward() returned (a tensor, or a tuple or list of them), in order, as op arguments.
std::vector<OpArg> output_args(const c10::IValue& v) {
  std::vector<OpArg> out;
  auto add = [&](const at::Tensor& t) {
    if (!t.defined()) return;
    OpArg a;
    a.is_tensor = true;
    a.dtype = normalize_dtype(c10::toString(t.scalar_type()));
    a.shape.assign(t.sizes().begin(), t.sizes().end());
    out.push_back(std::move(a));
  };
  if (v.isTensor()) {
    add(v.toTensor());
  } else if (v.isTuple()) {
    for (const auto& e : v.toTupleRef().elements())
      if (e.isTensor()) add(e.toTensor());
  } else if (v.isTensorList()) {
    for (const at::Tensor& t : v.toTensorList().vec()) add(t);
  }
  return out;
}

// mutates_module_state on one block and the blocks nested in it.
bool mutates_state(const torch::jit::Block* block) {
  for (const torch::jit::Node* n : block->nodes()) {
    if (n->kind() == c10::prim::SetAttr || n->kind() == c10::prim::tolist) return true;
    if (const c10::FunctionSchema* schema = n->maybeSchema()) {
      const auto& args = schema->arguments();
      for (std::size_t i = 0; i < args.size() && i < n->inputs().size(); ++i) {
        const c10::AliasInfo* alias = args[i].alias_info();
        const bool writes = alias != nullptr && alias->isWrite();
        if (writes && n->input(i)->node()->kind() == c10::prim::GetAttr) return true;
      }
    }
    for (const torch::jit::Block* b : n->blocks()) {
      if (mutates_state(b)) return true;
    }
  }
  return false;
}

}  // namespace

bool mutates_module_state(const torch::jit::Module& m) {
  // Every function of the archive's compilation unit: methods of every module class and free functions.
  for (const torch::jit::Function* f : m._ivalue()->compilation_unit()->get_functions()) {
    if (f->isGraphFunction() && mutates_state(torch::jit::toGraphFunction(*f).graph()->block())) return true;
  }
  return false;
}

StatusOr<RunData> inspect_torchscript(const std::string& model_path) {
  FS_ASSIGN_OR_RETURN(torch::jit::Module m, load_torchscript_module(model_path));
  RunData run;
  run.info.source_kind = SourceKind::kTorchCpu;
  run.info.source_path = model_path;
  run.modules = module_records(m);
  ModuleTree tree(run.modules);
  run.params = param_records(m, tree);
  return run;
}

namespace {

Status check_profile_options(const TorchProfileOptions& o) {
  if (o.iterations < 1) return InvalidArgument("--iterations must be at least 1");
  if (o.device != "cpu") {
    if (o.device != "cuda") return InvalidArgument("--device '" + o.device + "': expected cpu or cuda");
    if (!torch::cuda::is_available()) {
      return Unsupported(
          "--device cuda: this flopscope's LibTorch has no CUDA (Debian's libtorch is CPU-only); to "
          "profile on a GPU, run the model under `flopscope exec -o run.db -- python3 your_script.py`");
    }
    return Unsupported(
        "--device cuda: in-process GPU profiling of TorchScript is not built into this flopscope; use "
        "`flopscope exec -o run.db -- CMD` (see docs/gpu.md)");
  }
  if (o.warmup < 0) return InvalidArgument("--warmup must not be negative");
  if (o.attribution != "instances" && o.attribution != "hierarchy") {
    return InvalidArgument("--attribution '" + o.attribution + "': expected instances or hierarchy");
  }
  return {};
}

Status fill_run_info(RunInfo& info, const TorchProfileOptions& o) {
  info.source_kind = SourceKind::kTorchCpu;
  info.source_path = o.model_path;
  FS_ASSIGN_OR_RETURN(info.source_sha256, sha256_file(o.model_path));
  info.device = cpu_model();
  info.host = host_name();
  for (const auto& s : o.inputs) info.input_spec += (info.input_spec.empty() ? "" : "; ") + s.to_string();
  if (!o.requests.empty()) info.input_spec = std::to_string(o.requests.size()) + " request file(s)";
  info.iterations = o.iterations;
  info.warmup = o.warmup;
  info.threads = at::get_num_threads();
  info.tool_version = o.tool_version;
  info.command_line = o.command_line;
  info.created_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  return {};
}

// What forward() returned on the first pass over the requests, recorded once the op observer is gone:
// hashing and converting them runs aten ops that must not enter the profile.
class OutputRecorder {
 public:
  void keep(const ModelRequest* request, int iteration, c10::IValue output) {
    kept_.push_back({request, iteration, std::move(output)});
  }
  void record_into(RunData& run) {
    for (const Kept& k : kept_) record(run, *k.request, k.iteration, k.output);
    kept_.clear();
    if (summarized_count_ > 0)
      run.quality.emplace_back(QualityCode::outputs_summarized, summarized_count_, summarized_);
  }

 private:
  struct Kept {
    const ModelRequest* request;
    int iteration;
    c10::IValue output;
  };
  void record(RunData& run, const ModelRequest& r, int iteration, const c10::IValue& output) {
    OutputRecord rec;
    rec.call = iteration;
    rec.input_hash = input_hash(r.inputs);
    rec.input_tag = r.tag;
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    collect_output_tensors(output, "", tensors);
    for (const auto& [name, t] : tensors) {
      rec.tensors.push_back(output_tensor(name, t, budget_));
      if (rec.tensors.back().summarized) {
        ++summarized_count_;
        summarized_ +=
            (summarized_.empty() ? "" : "\n") + ("call " + std::to_string(iteration) + ": " + name);
      }
    }
    run.outputs.push_back(std::move(rec));
  }
  std::vector<Kept> kept_;
  std::int64_t budget_ = kOutputValueBudgetBytes;
  std::string summarized_;
  int summarized_count_ = 0;
};

std::unique_ptr<OpObserver> make_observer(const TorchProfileOptions& o, torch::jit::Module& m,
                                          const ModuleTree& tree, const ModuleInstances* instances) {
  if (!o.observe) return nullptr;
  auto observer = std::make_unique<OpObserver>(tree, o.activations, instances);
  if (o.activations) {
    // Dead compute names an all-zero factor by its parameter or buffer.
    std::unordered_map<const void*, std::string> names;
    for (const auto& np : m.named_parameters(/*recurse=*/true))
      names.emplace(static_cast<const void*>(np.value.unsafeGetTensorImpl()), np.name);
    for (const auto& nb : m.named_buffers(/*recurse=*/true))
      names.emplace(static_cast<const void*>(nb.value.unsafeGetTensorImpl()), nb.name);
    observer->set_model_tensors(std::move(names));
  }
  observer->set_shape_reuse(!mutates_module_state(m));
  return observer;
}

void take_observed(OpObserver& observer, TorchProfile& result) {
  RunData& run = result.run;
  run.ops = observer.finish();
  run.activations = observer.take_activations();
  run.discarded = observer.take_discarded();
  result.activation_cost_ns = observer.activation_cost_ns();
  result.reused_calls = observer.reused_calls();
  if (observer.ambiguous_ops() > 0) {
    std::string paths;
    for (Id id : observer.ambiguous_modules()) {
      for (const auto& mr : run.modules)
        if (mr.id == id) paths += (paths.empty() ? "" : "\n") + mr.path;
    }
    run.quality.emplace_back(QualityCode::ambiguous_module_attribution, observer.ambiguous_ops(), paths);
  }
}

// The measured passes over the requests under the observer (if any); `current` is the request running,
// for the error message when forward() throws.
void measure(const TorchProfileOptions& o, torch::jit::Module& m, const std::vector<ModelRequest>& requests,
             OpObserver* observer, OutputRecorder& outputs, TorchProfile& result,
             const ModelRequest*& current) {
  const int total = o.warmup + o.iterations * static_cast<int>(requests.size());
  int iteration = 0;
  for (int pass = 0; pass < o.iterations; ++pass) {
    for (const auto& r : requests) {
      current = &r;
      c10::IValue output;
      std::chrono::steady_clock::time_point t0, t1;
      do {  // again when the observer reused a request's shapes and the call ran other ops
        if (observer) {
          observer->set_input_tag(r.tag);
          observer->set_iteration(iteration);
          observer->request_begins(r.inputs);
        }
        t0 = std::chrono::steady_clock::now();
        output = m.forward(r.inputs);
        t1 = std::chrono::steady_clock::now();
      } while (observer && !observer->request_ends(output));
      if (iteration == 0) result.outputs = output_args(output);
      if (pass == 0) outputs.keep(&r, iteration, output);
      result.iteration_wall_ns.push_back(
          static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
      ++iteration;
      if (o.on_iteration) o.on_iteration(o.warmup + iteration, total);
    }
  }
}

}  // namespace

StatusOr<TorchProfile> profile_torchscript(const TorchProfileOptions& o,
                                           std::shared_ptr<torch::jit::Module>* loaded) {
  FS_RETURN_IF_ERROR(check_profile_options(o));
  const bool by_instance = o.attribution == "instances";
  FS_ASSIGN_OR_RETURN(torch::jit::Module m, load_torchscript_module(o.model_path));
  auto forward = m.find_method("forward");
  if (!forward) return InvalidArgument(o.model_path + ": the model has no forward() method");
  FS_ASSIGN_OR_RETURN(
      std::vector<ModelRequest> requests,
      model_requests(o.model_path, forward->function().getSchema(), o.inputs, o.requests, o.seed));
  // LibTorch's OpenMP default can be 1 thread; use every core unless told otherwise.
  at::set_num_threads(o.threads > 0 ? o.threads
                                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));

  TorchProfile result;
  RunData& run = result.run;
  FS_RETURN_IF_ERROR(fill_run_info(run.info, o));
  run.modules = module_records(m);
  ModuleTree tree(run.modules);
  run.params = param_records(m, tree);
  ModuleInstances instances;
  for (const auto& nm : m.named_modules()) {
    // A module object reachable under two names (shared submodule) keeps its first name.
    instances.emplace(static_cast<const void*>(nm.value._ivalue().get()), tree.find(nm.name));
  }
  UnoptimizedExecution as_written(by_instance);
  OutputRecorder outputs;
  torch::NoGradGuard no_grad;
  const int total = o.warmup + o.iterations * static_cast<int>(requests.size());
  const ModelRequest* current = &requests.front();
  try {
    for (int i = 0; i < o.warmup; ++i) {
      m.forward(requests.front().inputs);
      if (o.on_iteration) o.on_iteration(i + 1, total);
    }
    std::unique_ptr<OpObserver> observer = make_observer(o, m, tree, by_instance ? &instances : nullptr);
    measure(o, m, requests, observer.get(), outputs, result, current);
    if (observer) take_observed(*observer, result);
    observer.reset();  // its callbacks are removed: the outputs are hashed and converted unobserved
    outputs.record_into(run);
    run.info.iterations = o.iterations * static_cast<int>(requests.size());
  } catch (const c10::Error& e) {
    std::string specs = current->what;
    return InvalidArgument(o.model_path + ": forward failed with " + specs + ": " +
                           failure_cause(e.what_without_backtrace()));
  } catch (const std::exception& e) {
    return InvalidArgument(o.model_path + ": forward failed: " + failure_cause(e.what()));
  }
  if (loaded) *loaded = std::make_shared<torch::jit::Module>(std::move(m));
  return result;
}

}  // namespace flopscope
