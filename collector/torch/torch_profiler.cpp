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
#include "db/model/dtype.h"
#include "db/model/input_file.h"
#include "db/model/module_path.h"
#include "db/model/sha256.h"

namespace flopscope {
namespace {

// The first line with text: TorchScript compile errors start with a newline.
std::string first_line(const std::string& s) {
  std::size_t start = 0;
  while (start < s.size()) {
    auto nl = s.find('\n', start);
    std::string line = s.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return "";
}

// Why a TorchScript file saved by a newer torch does not load here, in one line.
std::string load_failure(const std::string& path, const std::string& message) {
  std::string line = first_line(message);
  if (line.empty()) line = "LibTorch gave no reason";
  std::string out = path + ": cannot load as TorchScript: " + line;
  if (line.find("Unknown") != std::string::npos || line.find("version") != std::string::npos) {
    out += " (the file uses something this flopscope's LibTorch " + std::to_string(TORCH_VERSION_MAJOR) +
           "." + std::to_string(TORCH_VERSION_MINOR) +
           " does not know: it was probably saved by a newer torch; run the eager program under `flopscope "
           "trace -- python3 ...` instead)";
  }
  return out;
}

// The interpreter's own cause: TorchScript wraps it as "The following operation failed in the TorchScript
// interpreter. Traceback ... RuntimeError: <cause>"; the cause is the last non-empty line.
std::string failure_cause(const std::string& s) {
  if (s.find("The following operation failed") == std::string::npos) return first_line(s);
  std::size_t end = s.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return first_line(s);
  std::size_t start = s.rfind('\n', end);
  std::string last = s.substr(start == std::string::npos ? 0 : start + 1,
                              end + 1 - (start == std::string::npos ? 0 : start + 1));
  return last.empty() ? first_line(s) : last;
}

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

StatusOr<torch::jit::Module> load_module(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return NotFound(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) return InvalidArgument(path + ": is a directory, not a model");
  if (Status s = check_input_file(path); !s.ok()) return s;
  try {
    torch::jit::Module m = torch::jit::load(path, torch::kCPU);
    m.eval();
    return m;
  } catch (const c10::Error& e) {
    return InvalidArgument(path +
                           ": not a TorchScript archive (expected a file written by torch.jit.save): " +
                           first_line(e.what_without_backtrace()));
  } catch (const std::exception& e) {
    return InvalidArgument(load_failure(path, e.what()));
  }
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

at::ScalarType scalar_type(const std::string& dtype) {
  if (dtype == "float64") return at::kDouble;
  if (dtype == "float16") return at::kHalf;
  if (dtype == "bfloat16") return at::kBFloat16;
  if (dtype == "int64") return at::kLong;
  if (dtype == "int32") return at::kInt;
  if (dtype == "int16") return at::kShort;
  if (dtype == "int8") return at::kChar;
  if (dtype == "uint8") return at::kByte;
  if (dtype == "bool") return at::kBool;
  return at::kFloat;
}

std::vector<c10::IValue> make_inputs(const std::vector<InputSpec>& specs, std::uint64_t seed) {
  torch::manual_seed(seed);
  std::vector<c10::IValue> inputs;
  for (const auto& s : specs) {
    at::ScalarType type = scalar_type(s.dtype);
    if (at::isFloatingType(type)) {
      inputs.emplace_back(torch::randn(s.shape, torch::TensorOptions().dtype(torch::kFloat)).to(type));
    } else {
      inputs.emplace_back(
          torch::randint(s.low, s.high, s.shape, torch::TensorOptions().dtype(torch::kLong)).to(type));
    }
  }
  return inputs;
}

at::Tensor tensor_from_array(const InputArray& f) {
  at::Tensor t = torch::from_blob(const_cast<char*>(f.data.data()), f.shape,
                                  torch::TensorOptions().dtype(scalar_type(f.dtype)));
  return t.clone();  // own the memory
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

// Every tensor of a returned value with its path: "0" for a bare tensor, tuple and list indices, dict keys,
// joined with "." when nested ("1.logits"). Other leaves (None, numbers, strings) hold no tensor.
void collect_output_tensors(const c10::IValue& v, const std::string& path,
                            std::vector<std::pair<std::string, at::Tensor>>& out) {
  auto child = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (v.isTensor()) {
    if (v.toTensor().defined()) out.emplace_back(path.empty() ? "0" : path, v.toTensor());
  } else if (v.isTuple()) {
    const auto& elements = v.toTupleRef().elements();
    for (std::size_t i = 0; i < elements.size(); ++i)
      collect_output_tensors(elements[i], child(std::to_string(i)), out);
  } else if (v.isList()) {
    const auto list = v.toListRef();
    for (std::size_t i = 0; i < list.size(); ++i)
      collect_output_tensors(list[i], child(std::to_string(i)), out);
  } else if (v.isGenericDict()) {
    for (const auto& e : v.toGenericDict()) {
      const c10::IValue& k = e.key();
      std::ostringstream key;
      if (k.isString())
        key << k.toStringRef();
      else
        key << k;
      collect_output_tensors(e.value(), child(key.str()), out);
    }
  }
}

// One returned tensor: hash of its own bytes, every element as double while the run's value budget lasts
// (`budget_left` shrinks), statistics either way.
OutputTensor output_tensor(const std::string& name, const at::Tensor& tensor, std::int64_t& budget_left) {
  OutputTensor t;
  t.name = name;
  at::Tensor c = tensor.detach().cpu().contiguous();
  t.dtype = normalize_dtype(c10::toString(c.scalar_type()));
  t.shape.assign(c.sizes().begin(), c.sizes().end());
  t.sha256 = sha256_hex(std::string_view(static_cast<const char*>(c.data_ptr()), c.nbytes()));
  if (c.is_complex()) c = at::view_as_real(c);  // real and imaginary parts as elements
  at::Tensor d = c.to(at::kDouble).contiguous();
  const double* x = d.data_ptr<double>();
  t.values.assign(x, x + d.numel());
  fill_output_statistics(t);
  const auto bytes = static_cast<std::int64_t>(c.nbytes());
  if (bytes > budget_left) {
    budget_left = -1;  // later tensors are summarized too, as summarize_outputs_over_budget does
    t.values.clear();
    t.values.shrink_to_fit();
    t.summarized = true;
  } else {
    budget_left -= bytes;
  }
  return t;
}

// sha256 over every input's dtype, shape and bytes (other values by their printed form), in argument order:
// two runs fed the same request file or the same seeded --input agree on it.
std::string input_hash(const std::vector<c10::IValue>& inputs) {
  std::string key;
  for (const auto& v : inputs) {
    if (v.isTensor()) {
      at::Tensor c = v.toTensor().detach().cpu().contiguous();
      key += "tensor " + normalize_dtype(c10::toString(c.scalar_type())) + " [";
      for (auto s : c.sizes()) key += std::to_string(s) + ",";
      key += "] ";
      key += sha256_hex(std::string_view(static_cast<const char*>(c.data_ptr()), c.nbytes()));
    } else {
      std::ostringstream text;
      text << v;
      key += "value " + text.str();
    }
    key += "\n";
  }
  return sha256_hex(key);
}

// "tokens, mask": forward()'s arguments after self, for messages.
std::string argument_names(const c10::FunctionSchema& schema) {
  std::string names;
  for (std::size_t i = 1; i < schema.arguments().size(); ++i)
    names += (i > 1 ? ", " : "") + schema.arguments()[i].name();
  return names;
}

// The forward() arguments of one request: in file order, or by argument name when the .npz arrays were
// saved by keyword (every name must be an argument of forward()).
StatusOr<std::vector<c10::IValue>> request_inputs(const InputFile& f, const c10::FunctionSchema& schema) {
  std::vector<c10::IValue> inputs;
  if (!f.named()) {
    for (const auto& a : f.arrays) inputs.emplace_back(tensor_from_array(a));
    return inputs;
  }
  std::vector<const InputArray*> by_argument;
  std::size_t matched = 0;
  for (std::size_t i = 1; i < schema.arguments().size(); ++i) {
    const InputArray* found = nullptr;
    for (const auto& a : f.arrays) found = a.name == schema.arguments()[i].name() ? &a : found;
    matched += found != nullptr;
    by_argument.push_back(found);
  }
  if (matched != f.arrays.size()) {
    return InvalidArgument(f.path + ": the .npz arrays are named, but not all after forward()'s arguments (" +
                           argument_names(schema) + ")");
  }
  // Arguments up to the last one given; a gap before it takes the argument's default.
  while (!by_argument.empty() && by_argument.back() == nullptr) by_argument.pop_back();
  for (std::size_t i = 0; i < by_argument.size(); ++i) {
    if (by_argument[i] != nullptr) {
      inputs.emplace_back(tensor_from_array(*by_argument[i]));
    } else if (const auto& d = schema.arguments()[i + 1].default_value()) {
      inputs.push_back(*d);
    } else {
      return InvalidArgument(f.path + ": no array for forward()'s argument '" +
                             schema.arguments()[i + 1].name() + "'");
    }
  }
  return inputs;
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
  FS_ASSIGN_OR_RETURN(torch::jit::Module m, load_module(model_path));
  RunData run;
  run.info.source_kind = SourceKind::kTorchCpu;
  run.info.source_path = model_path;
  run.modules = module_records(m);
  ModuleTree tree(run.modules);
  run.params = param_records(m, tree);
  return run;
}

StatusOr<TorchProfile> profile_torchscript(const TorchProfileOptions& o,
                                           std::shared_ptr<torch::jit::Module>* loaded) {
  if (o.iterations < 1) return InvalidArgument("--iters must be at least 1");
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
  const bool by_instance = o.attribution == "instances";
  FS_ASSIGN_OR_RETURN(torch::jit::Module m, load_module(o.model_path));
  auto forward = m.find_method("forward");
  if (!forward) return InvalidArgument(o.model_path + ": the model has no forward() method");
  const auto& schema = forward->function().getSchema();
  std::size_t expected = schema.arguments().empty() ? 0 : schema.arguments().size() - 1;  // minus self
  std::size_t required = 0;
  for (std::size_t i = 1; i < schema.arguments().size(); ++i) {
    if (!schema.arguments()[i].default_value()) ++required;
  }
  std::size_t given = o.inputs.size();
  for (const auto& r : o.requests) {
    given = r.arrays.size();
    if (given < required || given > expected) break;
  }
  if (given < required || given > expected) {
    return InvalidArgument(
        o.model_path + ": forward(" + argument_names(schema) + ") takes " + std::to_string(required) +
        (required == expected ? "" : "-" + std::to_string(expected)) + " input(s), but " +
        std::to_string(given) +
        (o.requests.empty() ? " --input spec(s) were given" : " array(s) were given in a request file"));
  }
  // LibTorch's OpenMP default can be 1 thread; use every core unless told otherwise.
  at::set_num_threads(o.threads > 0 ? o.threads
                                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));

  TorchProfile result;
  RunData& run = result.run;
  run.info.source_kind = SourceKind::kTorchCpu;
  run.info.source_path = o.model_path;
  FS_ASSIGN_OR_RETURN(run.info.source_sha256, sha256_file(o.model_path));
  run.info.device = cpu_model();
  run.info.host = host_name();
  for (const auto& s : o.inputs)
    run.info.input_spec += (run.info.input_spec.empty() ? "" : "; ") + s.to_string();
  if (!o.requests.empty()) {
    run.info.input_spec = std::to_string(o.requests.size()) + " request file(s)";
  }
  run.info.iterations = o.iterations;
  run.info.warmup = o.warmup;
  run.info.threads = at::get_num_threads();
  run.info.tool_version = o.tool_version;
  run.info.command_line = o.command_line;
  run.info.created_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
  run.modules = module_records(m);
  ModuleTree tree(run.modules);
  run.params = param_records(m, tree);
  ModuleInstances instances;
  for (const auto& nm : m.named_modules()) {
    // A module object reachable under two names (shared submodule) keeps its first name.
    instances.emplace(static_cast<const void*>(nm.value._ivalue().get()), tree.find(nm.name));
  }
  UnoptimizedExecution as_written(by_instance);

  // One request = the inputs of one forward call, with its input-set tag.
  struct Request {
    std::vector<c10::IValue> inputs;
    std::string tag;
    std::string what;  // for error messages
  };
  std::vector<Request> requests;
  if (o.requests.empty()) {
    std::string specs;
    for (const auto& s : o.inputs) specs += (specs.empty() ? "--input " : " --input ") + s.text;
    requests.push_back({make_inputs(o.inputs, o.seed), "", specs});
  } else {
    for (const auto& f : o.requests) {
      FS_ASSIGN_OR_RETURN(std::vector<c10::IValue> inputs, request_inputs(f, schema));
      requests.push_back({std::move(inputs), f.tag, f.path});
    }
  }
  const int measured = o.iterations * static_cast<int>(requests.size());
  // What forward() returned on the first pass over the requests (already computed: no extra call).
  std::int64_t output_budget = kOutputValueBudgetBytes;
  std::string summarized_outputs;
  int summarized_count = 0;
  auto record_output = [&](const Request& r, int iteration, const c10::IValue& output) {
    OutputRecord rec;
    rec.call = iteration;
    rec.input_hash = input_hash(r.inputs);
    rec.input_tag = r.tag;
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    collect_output_tensors(output, "", tensors);
    for (const auto& [name, t] : tensors) {
      rec.tensors.push_back(output_tensor(name, t, output_budget));
      if (rec.tensors.back().summarized) {
        ++summarized_count;
        summarized_outputs +=
            (summarized_outputs.empty() ? "" : "\n") + ("call " + std::to_string(iteration) + ": " + name);
      }
    }
    run.outputs.push_back(std::move(rec));
  };
  torch::NoGradGuard no_grad;
  const int total = o.warmup + measured;
  const Request* current = &requests.front();
  try {
    for (int i = 0; i < o.warmup; ++i) {
      m.forward(requests.front().inputs);
      if (o.on_iteration) o.on_iteration(i + 1, total);
    }
    std::unique_ptr<OpObserver> observer;
    if (o.observe)
      observer = std::make_unique<OpObserver>(tree, o.activations, by_instance ? &instances : nullptr);
    if (observer && o.activations) {
      // Dead compute names an all-zero factor by its parameter or buffer.
      std::unordered_map<const void*, std::string> names;
      for (const auto& np : m.named_parameters(/*recurse=*/true))
        names.emplace(static_cast<const void*>(np.value.unsafeGetTensorImpl()), np.name);
      for (const auto& nb : m.named_buffers(/*recurse=*/true))
        names.emplace(static_cast<const void*>(nb.value.unsafeGetTensorImpl()), nb.name);
      observer->set_model_tensors(std::move(names));
    }
    if (observer) observer->set_shape_reuse(!mutates_module_state(m));
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
        if (pass == 0) record_output(r, iteration, output);
        result.iteration_wall_ns.push_back(
            static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
        ++iteration;
        if (o.on_iteration) o.on_iteration(o.warmup + iteration, total);
      }
    }
    if (observer) {
      run.ops = observer->finish();
      run.activations = observer->take_activations();
      run.discarded = observer->take_discarded();
      result.activation_cost_ns = observer->activation_cost_ns();
      result.reused_calls = observer->reused_calls();
      if (observer->ambiguous_ops() > 0) {
        std::string paths;
        for (Id id : observer->ambiguous_modules()) {
          for (const auto& mr : run.modules)
            if (mr.id == id) paths += (paths.empty() ? "" : "\n") + mr.path;
        }
        run.quality.emplace_back(QualityCode::ambiguous_module_attribution, observer->ambiguous_ops(), paths);
      }
    }
    run.info.iterations = measured;
    if (summarized_count > 0)
      run.quality.emplace_back(QualityCode::outputs_summarized, summarized_count, summarized_outputs);
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
