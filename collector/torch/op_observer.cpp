// LibTorch TU: the RecordFunction callback. Kept apart from the model-loading TU so each compiles alone.
#include "collector/torch/op_observer.h"

#include <ATen/Functions.h>
#include <ATen/core/function_schema.h>
#include <ATen/record_function.h>
#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "db/model/dtype.h"

namespace flopscope {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A module call still open on a thread (activation statistics): its input, and the latest output of its ops.
struct OpenCall {
  Id module = kNoId;
  int iteration = 0;
  at::Tensor x;
  at::Tensor y;
};

// One per thread that ran an op; parent links are indices into `ops` until finish().
struct ThreadBuffer {
  std::vector<OpRecord> ops;
  std::vector<std::int32_t> open;  // stack of indices of ops still running
  std::int64_t thread = 0;
  std::vector<OpenCall> calls;  // open module calls, root-most first
  std::unordered_map<Id, int> call_counts;
  int call_count_iteration = -1;
  std::vector<Id> modules;  // module instances whose methods are running (instance attribution)
};

// Set while the observer itself runs aten ops (activation statistics), so that those are not recorded.
thread_local bool t_busy = false;

at::Tensor first_tensor(c10::ArrayRef<const c10::IValue> values) {
  for (const auto& v : values) {
    if (v.isTensor() && v.toTensor().defined()) return v.toTensor();
  }
  return {};
}

// Each observer gets a fresh generation, so a thread never reuses a buffer of an earlier observer.
std::atomic<std::uint64_t> g_generation{0};

struct Context final : at::ObserverContext {
  explicit Context(std::int32_t i) : index(i) {}
  std::int32_t index;
};

std::string scalar_text(const c10::IValue& v) {
  if (v.isInt()) return std::to_string(v.toInt());
  if (v.isBool()) return v.toBool() ? "True" : "False";
  if (v.isDouble()) {
    std::ostringstream s;
    s << v.toDouble();
    return s.str();
  }
  if (v.isIntList()) {
    std::string s = "[";
    bool first = true;
    for (auto x : v.toIntList()) {
      s += (first ? "" : ", ") + std::to_string(static_cast<std::int64_t>(x));
      first = false;
    }
    return s + "]";
  }
  if (v.isDoubleList()) {
    std::ostringstream s;
    s << "[";
    bool first = true;
    for (double x : v.toDoubleVector()) {
      s << (first ? "" : ", ") << x;
      first = false;
    }
    s << "]";
    return s.str();
  }
  if (v.isString()) return std::string(v.toStringRef());
  if (v.isDevice()) return v.toDevice().str();
  return "";
}

OpArg to_arg(const c10::IValue& v) {
  OpArg a;
  if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    if (t.defined()) {
      a.is_tensor = true;
      a.dtype = normalize_dtype(c10::toString(t.scalar_type()));
      a.shape.assign(t.sizes().begin(), t.sizes().end());
    }
    return a;
  }
  if (v.isTensorList()) {
    // Tensor[] (cat, stack, einsum operands): nested shapes and the element type, as Kineto records them.
    a.value = "[";
    bool first = true;
    for (const at::Tensor& t : v.toTensorList().vec()) {
      if (!t.defined()) continue;
      if (a.dtype.empty()) a.dtype = normalize_dtype(c10::toString(t.scalar_type()));
      a.value += first ? "[" : ", [";
      first = false;
      for (std::size_t d = 0; d < static_cast<std::size_t>(t.dim()); ++d) {
        a.value += (d ? ", " : "") + std::to_string(t.size(static_cast<std::int64_t>(d)));
      }
      a.value += "]";
    }
    a.value += "]";
    return a;
  }
  if (v.isScalar()) a.dtype = v.isDouble() ? "Scalar" : v.isBool() ? "bool" : "int";
  a.value = scalar_text(v);
  return a;
}

// Boxed calls (the TorchScript interpreter's) hand RecordFunction the whole interpreter stack, for inputs
// and outputs alike; an op's own arguments and results are the last N entries, N from its schema (cached per
// overload, per thread).
struct ArgCounts {
  std::size_t inputs = SIZE_MAX;
  std::size_t outputs = SIZE_MAX;
};

const ArgCounts& arg_counts(const at::RecordFunction& fn) {
  static const ArgCounts kUnknown;
  auto name = fn.operator_name();
  if (!name) return kUnknown;
  thread_local std::unordered_map<std::string, ArgCounts> cache;
  std::string key = name->name + "." + name->overload_name;
  auto it = cache.find(key);
  if (it == cache.end()) {
    ArgCounts c;
    auto schema = fn.operator_schema();
    if (schema && !schema->is_vararg()) c.inputs = schema->arguments().size();
    if (schema && !schema->is_varret()) c.outputs = schema->returns().size();
    it = cache.emplace(std::move(key), c).first;
  }
  return it->second;
}

c10::ArrayRef<const c10::IValue> last(c10::ArrayRef<const c10::IValue> values, std::size_t n) {
  return n < values.size() ? values.slice(values.size() - n) : values;
}

c10::ArrayRef<const c10::IValue> own_inputs(const at::RecordFunction& fn) {
  return last(fn.inputs(), arg_counts(fn).inputs);
}

c10::ArrayRef<const c10::IValue> own_outputs(const at::RecordFunction& fn) {
  const auto& outs = fn.outputs();
  return last(c10::ArrayRef<const c10::IValue>(outs.data(), outs.size()), arg_counts(fn).outputs);
}

}  // namespace

struct OpObserver::State {
  const ModuleTree* tree = nullptr;
  const ModuleInstances* instances = nullptr;
  bool activations = false;
  std::string input_tag;
  // Module calls close from the op callbacks of whichever thread runs them: the records are shared.
  std::mutex activations_mu;
  std::vector<ActivationRecord> activation_records;
  std::int64_t activation_ns = 0;
  std::int64_t activation_failures = 0;
  std::atomic<std::int64_t> ambiguous{0};
  std::mutex ambiguous_mu;
  std::vector<Id> ambiguous_modules;
  at::CallbackHandle handle = 0;
  at::CallbackHandle script_handle = 0;
  std::int64_t origin = now_ns();
  std::atomic<std::int64_t> sequence{0};
  std::atomic<int> iteration{0};
  std::atomic<std::int64_t> next_thread{0};
  std::uint64_t generation = ++g_generation;
  std::mutex mu;
  std::vector<std::unique_ptr<ThreadBuffer>> buffers;

  ThreadBuffer& buffer() {
    thread_local std::uint64_t tls_generation = 0;
    thread_local ThreadBuffer* tls = nullptr;
    if (tls_generation != generation) {
      auto b = std::make_unique<ThreadBuffer>();
      b->thread = next_thread++;
      tls = b.get();
      tls_generation = generation;
      std::lock_guard lock(mu);
      buffers.push_back(std::move(b));
    }
    return *tls;
  }

  // Closes open calls deeper than `keep`, deepest first, recording statistics of their outputs.
  void close_calls(ThreadBuffer& b, std::size_t keep) {
    while (b.calls.size() > keep) {
      OpenCall c = std::move(b.calls.back());
      b.calls.pop_back();
      if (!c.y.defined() || c.y.numel() == 0) continue;
      std::int64_t t0 = now_ns();
      t_busy = true;
      ActivationRecord record;
      bool ok = true;
      try {
        record = statistics(c, b);
      } catch (const std::exception&) {
        // A tensor the statistics cannot handle (e.g. a quantized one) is skipped, not fatal.
        ok = false;
      }
      t_busy = false;
      std::lock_guard lock(activations_mu);
      if (ok) activation_records.push_back(std::move(record));
      else ++activation_failures;
      activation_ns += now_ns() - t0;
    }
  }

  ActivationRecord statistics(const OpenCall& c, ThreadBuffer& b) {
    ActivationRecord a;
    a.module_id = c.module;
    a.iteration = c.iteration;
    if (b.call_count_iteration != c.iteration) {
      b.call_counts.clear();
      b.call_count_iteration = c.iteration;
    }
    a.call = b.call_counts[c.module]++;
    a.input_tag = input_tag;
    // Single-pass reductions on the tensor as it is (float32/64), so no full copy in double.
    at::Tensor y = c.y.detach();
    if (y.scalar_type() != at::kFloat && y.scalar_type() != at::kDouble) y = y.to(at::kFloat);
    a.numel = y.numel();
    a.out_l2 = at::linalg_vector_norm(y, 2).item<double>();
    a.out_max_abs = at::linalg_vector_norm(y, std::numeric_limits<double>::infinity()).item<double>();
    a.out_zero_fraction =
        1.0 - static_cast<double>(at::count_nonzero(y).item<std::int64_t>()) / static_cast<double>(a.numel);
    if (c.x.defined() && c.x.sizes() == c.y.sizes()) {
      at::Tensor x = c.x.detach().to(y.scalar_type());
      double x_norm = at::linalg_vector_norm(x, 2).item<double>();
      double diff = at::linalg_vector_norm(y.sub(x), 2).item<double>();
      a.has_rel_change = true;
      a.rel_change = x_norm > 0 ? diff / x_norm : (diff > 0 ? std::numeric_limits<double>::infinity() : 0);
    }
    return a;
  }

  void close_all_calls() {
    std::lock_guard lock(mu);
    for (auto& b : buffers) close_calls(*b, 0);
  }
};

namespace {
// RecordFunction callbacks are plain function pointers; the active observer is global (one at a time).
std::atomic<OpObserver::State*> g_active{nullptr};
}  // namespace

OpObserver::OpObserver(const ModuleTree& tree, bool activations, const ModuleInstances* instances)
    : state_(std::make_unique<State>()) {
  state_->tree = &tree;
  state_->activations = activations;
  state_->instances = instances;
  g_active = state_.get();
  auto start = [](const at::RecordFunction& fn) -> std::unique_ptr<at::ObserverContext> {
    State* s = g_active.load(std::memory_order_acquire);
    if (s == nullptr || t_busy) return nullptr;
    ThreadBuffer& b = s->buffer();
    OpRecord op;
    op.name = fn.name();
    op.thread = b.thread;
    op.sequence = s->sequence++;
    op.iteration = s->iteration.load(std::memory_order_relaxed);
    op.depth = static_cast<int>(b.open.size());
    if (!b.open.empty()) {
      const OpRecord& parent = b.ops[static_cast<std::size_t>(b.open.back())];
      op.parent_op_id = b.open.back();
      op.module_id = parent.module_id;
    } else if (s->instances != nullptr) {
      // The module instance whose method runs; the root while none (forward of the model itself).
      op.module_id = b.modules.empty() ? s->tree->modules().front().id : b.modules.back();
    } else {
      // Only outermost ops pay for the interpreter's call stack; nested ops inherit their caller's module.
      std::vector<Id> candidates;
      op.module_id =
          s->tree->resolve(parse_torchscript_hierarchy(torch::jit::currentModuleHierarchy()), &candidates);
      if (!candidates.empty()) {
        ++s->ambiguous;
        std::lock_guard lock(s->ambiguous_mu);
        for (Id c : candidates) {
          if (std::find(s->ambiguous_modules.begin(), s->ambiguous_modules.end(), c) == s->ambiguous_modules.end())
            s->ambiguous_modules.push_back(c);
        }
      }
    }
    auto inputs = own_inputs(fn);
    op.args.reserve(inputs.size());
    for (const auto& v : inputs) op.args.push_back(to_arg(v));
    if (s->activations && op.depth == 0) {
      // Close the calls this op is not part of, open the ones it enters (input: its first tensor).
      std::vector<Id> chain = s->tree->chain(op.module_id);
      std::size_t common = 0;
      while (common < b.calls.size() && common < chain.size() && b.calls[common].module == chain[common])
        ++common;
      s->close_calls(b, common);
      if (common < chain.size()) {
        // The input as it is at entry: in-place ops (ReLU(inplace=True), x += f(x)) overwrite it later.
        at::Tensor x = first_tensor(inputs);
        std::int64_t t0 = now_ns();
        t_busy = true;
        if (x.defined()) x = x.detach().clone();
        t_busy = false;
        {
          std::lock_guard lock(s->activations_mu);
          s->activation_ns += now_ns() - t0;
        }
        for (std::size_t k = common; k < chain.size(); ++k) b.calls.push_back({chain[k], op.iteration, x, {}});
      }
    }
    op.start_ns = now_ns() - s->origin;
    auto index = static_cast<std::int32_t>(b.ops.size());
    b.ops.push_back(std::move(op));
    b.open.push_back(index);
    return std::make_unique<Context>(index);
  };
  auto end = [](const at::RecordFunction& fn, at::ObserverContext* ctx) {
    State* s = g_active.load(std::memory_order_acquire);
    if (s == nullptr || ctx == nullptr || t_busy) return;
    std::int64_t t = now_ns() - s->origin;
    ThreadBuffer& b = s->buffer();
    auto index = static_cast<Context*>(ctx)->index;
    if (static_cast<std::size_t>(index) >= b.ops.size()) return;
    b.ops[static_cast<std::size_t>(index)].duration_ns = t - b.ops[static_cast<std::size_t>(index)].start_ns;
    auto it = std::find(b.open.rbegin(), b.open.rend(), index);
    if (it != b.open.rend()) b.open.erase(std::next(it).base());
    if (s->activations && b.open.empty() && !b.calls.empty()) {
      at::Tensor y = first_tensor(own_outputs(fn));
      if (y.defined()) {
        for (auto& c : b.calls) c.y = y;
      }
    }
  };
  if (instances != nullptr) {
    // TorchScript method calls: inputs()[0] is `self`, the module object whose method runs.
    auto enter = [](const at::RecordFunction& fn) -> std::unique_ptr<at::ObserverContext> {
      State* s = g_active.load(std::memory_order_acquire);
      if (s == nullptr || t_busy) return nullptr;
      auto inputs = fn.inputs();
      if (inputs.empty() || !inputs[0].isObject()) return nullptr;
      auto it = s->instances->find(static_cast<const void*>(&inputs[0].toObjectRef()));
      if (it == s->instances->end()) return nullptr;
      s->buffer().modules.push_back(it->second);
      return std::make_unique<Context>(-1);
    };
    auto leave = [](const at::RecordFunction&, at::ObserverContext* ctx) {
      State* s = g_active.load(std::memory_order_acquire);
      if (s == nullptr || ctx == nullptr) return;
      ThreadBuffer& b = s->buffer();
      if (!b.modules.empty()) b.modules.pop_back();
    };
    state_->script_handle = at::addGlobalCallback(
        at::RecordFunctionCallback(enter, leave).needsInputs(true).scopes({at::RecordScope::TORCHSCRIPT_FUNCTION}));
  }
  state_->handle = at::addGlobalCallback(at::RecordFunctionCallback(start, end)
                                             .needsInputs(true)
                                             .needsOutputs(activations)
                                             .scopes({at::RecordScope::FUNCTION}));
}

OpObserver::~OpObserver() {
  if (state_ && state_->script_handle != 0) at::removeCallback(state_->script_handle);
  if (state_ && state_->handle != 0) {
    at::removeCallback(state_->handle);
    g_active = nullptr;
  }
}

std::int64_t OpObserver::ambiguous_ops() const { return state_->ambiguous.load(); }

std::vector<Id> OpObserver::ambiguous_modules() const {
  std::lock_guard lock(state_->ambiguous_mu);
  return state_->ambiguous_modules;
}

void OpObserver::set_iteration(int iteration) {
  if (state_->activations) state_->close_all_calls();  // a module call never spans two requests
  state_->iteration = iteration;
}

void OpObserver::set_input_tag(const std::string& tag) {
  if (state_->activations) state_->close_all_calls();
  state_->input_tag = tag;
}

std::vector<ActivationRecord> OpObserver::take_activations() {
  std::lock_guard lock(state_->activations_mu);
  return std::move(state_->activation_records);
}

double OpObserver::activation_cost_ns() const {
  std::lock_guard lock(state_->activations_mu);
  return static_cast<double>(state_->activation_ns);
}

std::vector<OpRecord> OpObserver::finish() {
  if (state_->activations) state_->close_all_calls();
  if (state_->script_handle != 0) at::removeCallback(state_->script_handle);
  state_->script_handle = 0;
  at::removeCallback(state_->handle);
  state_->handle = 0;
  g_active = nullptr;
  std::vector<OpRecord> all;
  std::lock_guard lock(state_->mu);
  for (auto& b : state_->buffers) {
    auto offset = static_cast<Id>(all.size());
    for (auto& op : b->ops) {
      if (op.parent_op_id != kNoId) op.parent_op_id += offset;
      all.push_back(std::move(op));
    }
  }
  // Ids by start order, parent links remapped.
  std::vector<Id> order(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) order[i] = static_cast<Id>(i);
  std::sort(order.begin(), order.end(), [&](Id a, Id b) {
    return all[static_cast<std::size_t>(a)].sequence < all[static_cast<std::size_t>(b)].sequence;
  });
  std::vector<Id> new_id(all.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    new_id[static_cast<std::size_t>(order[k])] = static_cast<Id>(k);
  std::vector<OpRecord> sorted(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    OpRecord& op = all[i];
    op.id = new_id[i];
    if (op.parent_op_id != kNoId) op.parent_op_id = new_id[static_cast<std::size_t>(op.parent_op_id)];
    sorted[static_cast<std::size_t>(op.id)] = std::move(op);
  }
  return sorted;
}

}  // namespace flopscope
