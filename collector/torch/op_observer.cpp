// LibTorch TU: the RecordFunction callback. Kept apart from the model-loading TU so each compiles alone.
#include "collector/torch/op_observer.h"

#include <ATen/Functions.h>
#include <ATen/core/function_schema.h>
#include <ATen/record_function.h>
#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "collector/torch/arg_interning.h"
#include "collector/torch/discard_flow.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace flopscope {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Op timestamps: the CPU's time-stamp counter where the kernel keeps its clock on it (so it runs at a
// constant rate on every core; a read costs half of steady_clock's here), converted to ns at finish() by the
// rate measured against steady_clock over the run; steady_clock's ns elsewhere.
bool tsc_is_clock() {
#if defined(__x86_64__)
  std::ifstream f("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string source;
  return f >> source && source == "tsc";
#else
  return false;
#endif
}

std::int64_t ticks(bool tsc) {
#if defined(__x86_64__)
  if (tsc) return static_cast<std::int64_t>(__rdtsc());
#endif
  return now_ns();
}

// A module call still open on a thread (activation statistics): its input, and the latest output of its ops.
struct OpenCall {
  Id module = kNoId;
  int iteration = 0;
  at::Tensor x;
  at::Tensor y;
};

// An op as the callbacks record it: its name and argument list are ids into its thread's tables, expanded
// into an OpRecord by finish(), outside the model's forward calls.
struct HotOp {
  std::int64_t sequence = 0;
  std::int64_t start_ns = 0;
  std::int64_t duration_ns = 0;
  Id module_id = kNoId;
  std::int32_t parent = -1;  // index in the thread's ops, -1 for none
  std::int32_t name = 0;     // index into ThreadBuffer::names
  std::int32_t args = 0;     // id in ThreadBuffer::arg_lists
  int iteration = 0;
  int depth = 0;
};

// Boxed calls (the TorchScript interpreter's) hand RecordFunction the whole interpreter stack, for inputs
// and outputs alike; an op's own arguments and results are the last N entries, N from its schema.
struct ArgCounts {
  std::size_t inputs = SIZE_MAX;
  std::size_t outputs = SIZE_MAX;
};

struct OpName {
  std::string text;
  ArgCounts counts;
  bool reads_data = false;  // see reads_data_into_values
};

// Ops whose results' shapes, or the values the interpreter branches on, come from tensor data: a request
// whose recorded call ran one is not reused (its data may differ the next time: randomness, model state).
// Not resize_ (out= kernels size their fresh outputs with it): a resized input changes the request's key,
// and a resized attribute is a state change (mutates_module_state).
bool reads_data_into_values(std::string_view op) {
  for (std::string_view name :
       {"aten::_local_scalar_dense", "aten::item", "aten::nonzero", "aten::nonzero_numpy", "aten::argwhere",
        "aten::masked_select", "aten::unique", "aten::_unique", "aten::_unique2", "aten::unique_dim",
        "aten::unique_consecutive", "aten::unique_dim_consecutive", "aten::equal", "aten::is_nonzero",
        "aten::allclose", "aten::bincount", "aten::repeat_interleave", "aten::tolist"}) {
    if (op == name) return true;
  }
  return false;
}

// Allocates zeroed memory, so that its pages are mapped when it is allocated: OpObserver::request_begins
// reserves each thread's ops for the next call between calls, and the ops written during the call neither
// fault pages in nor move the vector (a large free or malloc inside a call also makes glibc consolidate the
// small chunks LibTorch frees, which the model then pays for).
template <typename T>
struct PrefaultAllocator {
  using value_type = T;
  PrefaultAllocator() = default;
  template <typename U>
  PrefaultAllocator(const PrefaultAllocator<U>&) {}
  T* allocate(std::size_t n) {
    T* p = std::allocator<T>().allocate(n);
    std::memset(static_cast<void*>(p), 0, n * sizeof(T));
    return p;
  }
  void deallocate(T* p, std::size_t n) { std::allocator<T>().deallocate(p, n); }
  bool operator==(const PrefaultAllocator&) const { return true; }
  bool operator!=(const PrefaultAllocator&) const { return false; }
};

// One per thread that ran an op.
struct ThreadBuffer {
  std::vector<HotOp, PrefaultAllocator<HotOp>> ops;
  std::vector<std::int32_t> open;  // stack of indices of ops still running
  std::int64_t thread = 0;
  std::vector<OpenCall> calls;  // open module calls, root-most first
  std::unordered_map<Id, int> call_counts;
  int call_count_iteration = -1;
  std::vector<Id> modules;  // module instances whose methods are running (instance attribution)
  std::vector<OpName> names;
  // By the pointer RecordFunction::name() returns: an operator's schema name, which lives as long as the
  // operator; the text is compared too, since a name built at run time may reuse a freed address.
  std::unordered_map<const char*, std::int32_t> name_ids;
  struct NameSlot {
    const char* ptr = nullptr;
    std::int32_t id = 0;
  };
  std::array<NameSlot, 256> name_cache;  // direct-mapped in front of name_ids
  ArgListTable arg_lists;
  // Shape reuse: the request (State::request) this thread last ran an op of, where its ops begin in `ops`,
  // and how many of the recorded ops it has matched.
  std::int64_t request = -1;
  std::size_t request_begin = 0;
  std::size_t cursor = 0;

  std::int32_t intern_name(const at::RecordFunction& fn);
  // The exact path: a fresh entry per op, as every op was recorded before interning.
  std::int32_t add_name(const at::RecordFunction& fn);
  // The results of `op` (RecordFunction's outputs, needsOutputs only).
  c10::ArrayRef<const c10::IValue> own_outputs(const at::RecordFunction& fn, const HotOp& op) const;
};

// What the callbacks keep per thread, in one thread-local (each one costs a TLS lookup in a shared library):
// `busy` is set while the observer itself runs aten ops (activation statistics), so those are not recorded;
// the buffer of the current observer (by generation); freed op contexts, reused by the next ops.
struct ThreadSlot {
  bool busy = false;
  std::uint64_t generation = 0;
  ThreadBuffer* buffer = nullptr;
  std::vector<void*> free_contexts;
  ~ThreadSlot() {
    for (void* p : free_contexts) ::operator delete(p);
  }
};
thread_local ThreadSlot t_slot;

at::Tensor first_tensor(c10::ArrayRef<const c10::IValue> values) {
  for (const auto& v : values) {
    if (v.isTensor() && v.toTensor().defined()) return v.toTensor();
  }
  return {};
}

// Each observer gets a fresh generation, so a thread never reuses a buffer of an earlier observer.
std::atomic<std::uint64_t> g_generation{0};

// What an outermost op's start saw of the data flow (dead compute, with activations only).
struct FlowStart {
  std::vector<Id> producers;
  std::vector<bool> discarded;
  bool constant =
      true;            // every tensor input is a parameter, a buffer, a constant, or computed from them alone
  std::string source;  // the name of the first named parameter or buffer it reads
  bool zeroing = false;
  std::string zero_factor;
};

// One per op (and TorchScript call): recycled through its thread's free list rather than malloc and free.
// It names its thread's slot and buffer, so that neither the end callback nor its deletion looks up a
// thread-local (each lookup is a call into the dynamic linker from a shared library).
struct Context final : at::ObserverContext {
  Context(ThreadSlot* s, ThreadBuffer* b, std::int32_t i) : slot(s), buffer(b), index(i) {}
  ThreadSlot* slot;
  ThreadBuffer* buffer;
  std::int32_t index;
  std::unique_ptr<FlowStart> flow;

  static std::unique_ptr<Context> make(ThreadSlot& slot, ThreadBuffer& buffer, std::int32_t index) {
    auto& pool = slot.free_contexts;
    void* p;
    if (pool.empty()) {
      p = ::operator new(sizeof(Context));
    } else {
      p = pool.back();
      pool.pop_back();
    }
    return std::unique_ptr<Context>(::new (p) Context(&slot, &buffer, index));
  }
  // RecordFunction deletes a context on the thread that made it (the ops and calls it observes are
  // synchronous), so the slot is still that thread's.
  static void operator delete(Context* c, std::destroying_delete_t) {
    ThreadSlot* slot = c->slot;
    c->~Context();
    if (slot->free_contexts.size() < 4096) {
      slot->free_contexts.push_back(c);
    } else {
      ::operator delete(static_cast<void*>(c));
    }
  }
};

// Calls `fn` on every defined tensor of a value (tensors, lists, tuples, dicts), a few levels deep.
template <typename Fn>
void for_each_tensor(const c10::IValue& v, Fn&& fn, int depth = 0) {
  if (v.isTensor()) {
    if (v.toTensor().defined()) fn(v.toTensor());
  } else if (v.isTensorList()) {
    for (const at::Tensor& t : v.toTensorList().vec())
      if (t.defined()) fn(t);
  } else if (depth < 4 && v.isList()) {
    for (const c10::IValue& e : v.toListRef()) for_each_tensor(e, fn, depth + 1);
  } else if (depth < 4 && v.isTuple()) {
    for (const c10::IValue& e : v.toTupleRef().elements()) for_each_tensor(e, fn, depth + 1);
  } else if (depth < 4 && v.isGenericDict()) {
    for (const auto& e : v.toGenericDict()) for_each_tensor(e.value(), fn, depth + 1);
  }
}

// Multiplications whose result does not depend on one factor when the other is all zero: the argument
// positions of the two factors (the rest, such as addmm's bias, is kept).
std::optional<std::pair<std::size_t, std::size_t>> factors_of(std::string_view op) {
  for (std::string_view name :
       {"aten::mul", "aten::mul_", "aten::matmul", "aten::mm", "aten::bmm", "aten::mv", "aten::linear"}) {
    if (op == name) return std::pair<std::size_t, std::size_t>{0, 1};
  }
  for (std::string_view name :
       {"aten::addmm", "aten::addmm_", "aten::baddbmm", "aten::addmv", "aten::addbmm"}) {
    if (op == name) return std::pair<std::size_t, std::size_t>{1, 2};
  }
  return std::nullopt;
}

// The argument and result counts of an op by its schema (cached per overload, per thread).
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

std::int32_t ThreadBuffer::intern_name(const at::RecordFunction& fn) {
  const char* name = fn.name();
  NameSlot& cached = name_cache[(reinterpret_cast<std::uintptr_t>(name) >> 4) & (name_cache.size() - 1)];
  if (cached.ptr == name && names[static_cast<std::size_t>(cached.id)].text == name) return cached.id;
  auto it = name_ids.find(name);
  std::int32_t id;
  if (it != name_ids.end() && names[static_cast<std::size_t>(it->second)].text == name) {
    id = it->second;
  } else {
    id = add_name(fn);
    name_ids[name] = id;
  }
  cached = {name, id};
  return id;
}

std::int32_t ThreadBuffer::add_name(const at::RecordFunction& fn) {
  names.push_back({fn.name(), arg_counts(fn), reads_data_into_values(fn.name())});
  return static_cast<std::int32_t>(names.size() - 1);
}

c10::ArrayRef<const c10::IValue> ThreadBuffer::own_outputs(const at::RecordFunction& fn,
                                                           const HotOp& op) const {
  const auto& outs = fn.outputs();
  return last(c10::ArrayRef<const c10::IValue>(outs.data(), outs.size()),
              names[static_cast<std::size_t>(op.name)].counts.outputs);
}

}  // namespace

struct OpObserver::State {
  const ModuleTree* tree = nullptr;
  const ModuleInstances* instances = nullptr;
  bool activations = false;
  bool exact = false;  // no interning (reference path for tests)
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

  // Shape reuse (OpObserver::set_shape_reuse). `replay_handle` is the op callback without inputs, enabled
  // instead of `handle` while a recorded request runs again.
  struct RecordedOp {
    std::int32_t name = 0;
    std::int32_t args = 0;
  };
  struct Recorded {
    const ThreadBuffer* buffer = nullptr;  // the one thread its ops ran on
    std::vector<RecordedOp> ops;
  };
  bool reuse = false;
  at::CallbackHandle replay_handle = 0;
  std::atomic<bool> replaying{false};
  const Recorded* replay = nullptr;             // while replaying
  std::atomic<std::int64_t> request{0};         // serial of the current request
  std::atomic<int> request_threads{0};          // threads that ran ops in it
  std::atomic<bool> request_reads_data{false};  // it ran an op of reads_data_into_values
  std::atomic<bool> diverged{false};            // a replayed op did not match the record
  bool keyed = false;                           // the current request has a key (below)
  std::vector<std::uint64_t> key;
  std::map<std::vector<std::uint64_t>, Recorded> recorded;
  std::set<std::vector<std::uint64_t>> unusable;  // recorded on every call
  std::int64_t reused = 0;
  std::int64_t repeated = 0;

  void switch_callbacks(bool to_replay) {
    if (to_replay) {
      replaying.store(true, std::memory_order_release);
      at::reenableCallback(replay_handle);
      at::disableCallback(handle);
    } else {
      at::reenableCallback(handle);
      at::disableCallback(replay_handle);
      replaying.store(false, std::memory_order_release);
    }
  }
  const bool tsc = tsc_is_clock();
  std::int64_t origin_ns = now_ns();
  std::int64_t origin = ticks(tsc);  // op times are ticks from here until finish()
  std::atomic<std::int64_t> sequence{0};
  std::atomic<int> iteration{0};
  std::atomic<std::int64_t> next_thread{0};
  std::uint64_t generation = ++g_generation;
  std::mutex mu;
  std::vector<std::unique_ptr<ThreadBuffer>> buffers;

  // Dead compute (activations only). Tensors of the current request by TensorImpl: the op that wrote each
  // last (kNoId: a request input). `kept` holds a weak reference to each, so that no address is reused by
  // another tensor before the request ends.
  struct Produced {
    Id op = kNoId;
    bool constant = false;
    std::string source;
  };
  std::mutex flow_mu;
  std::unordered_map<const c10::TensorImpl*, Produced> produced;
  std::vector<c10::weak_intrusive_ptr<c10::TensorImpl>> kept;
  std::unordered_map<const void*, std::string> model_tensors;
  std::unordered_map<const c10::TensorImpl*, std::pair<std::uint32_t, bool>> zero_cache;  // by version
  DiscardFlow flow;
  std::vector<DiscardedOpRecord> discarded;  // op ids are sequence numbers until finish()

  // True when `t` is all zero (not empty). Parameters and buffers are cached by their version counter.
  bool all_zero(const at::Tensor& t, bool cache) {
    if (t.numel() == 0) return false;
    const c10::TensorImpl* impl = t.unsafeGetTensorImpl();
    std::uint32_t version = t._version();
    if (cache) {
      auto it = zero_cache.find(impl);
      if (it != zero_cache.end() && it->second.first == version) return it->second.second;
    }
    bool zero = at::count_nonzero(t).item<std::int64_t>() == 0;
    if (cache) zero_cache[impl] = {version, zero};
    return zero;
  }

  // Whether a tensor read by an op is model-only data (and the name of its parameter or buffer), and the op
  // that produced it in this request. Caller holds flow_mu.
  Produced lookup(const at::Tensor& t) const {
    auto it = produced.find(t.unsafeGetTensorImpl());
    if (it != produced.end()) return it->second;
    Produced p;
    p.constant = true;  // neither produced in this request nor one of its inputs
    auto named = model_tensors.find(static_cast<const void*>(t.unsafeGetTensorImpl()));
    if (named != model_tensors.end()) p.source = named->second;
    return p;
  }

  // At an outermost op's start: the producers of its inputs and whether it multiplies by an all-zero
  // model-only factor (then the other factor is discarded).
  std::unique_ptr<FlowStart> flow_start(std::string_view name, c10::ArrayRef<const c10::IValue> inputs) {
    auto f = std::make_unique<FlowStart>();
    std::lock_guard lock(flow_mu);
    std::optional<std::size_t> discarded_arg;
    if (auto factors = factors_of(name); factors && factors->second < inputs.size()) {
      auto zero = [&](const c10::IValue& v, std::string* what) {
        if (v.isInt() || v.isDouble()) {
          *what = "scalar 0";
          return v.isInt() ? v.toInt() == 0 : v.toDouble() == 0.0;
        }
        if (!v.isTensor() || !v.toTensor().defined()) return false;
        Produced p = lookup(v.toTensor());
        if (!p.constant) return false;
        bool named = p.op == kNoId && !p.source.empty();
        if (!all_zero(v.toTensor(), named)) return false;
        *what = p.source.empty() ? "constant" : p.source;
        return true;
      };
      std::string what;
      if (zero(inputs[factors->first], &what)) {
        discarded_arg = factors->second;
      } else if (zero(inputs[factors->second], &what)) {
        discarded_arg = factors->first;
      }
      if (discarded_arg) {
        f->zeroing = true;
        f->zero_factor = what;
      }
    }
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      for_each_tensor(inputs[k], [&](const at::Tensor& t) {
        Produced p = lookup(t);
        f->constant = f->constant && p.constant;
        if (f->source.empty()) f->source = p.source;
        if (p.op == kNoId) return;
        f->producers.push_back(p.op);
        f->discarded.push_back(discarded_arg && *discarded_arg == k);
      });
    }
    return f;
  }

  // At its end: its outputs are now produced by it; the flow records it.
  void flow_end(Id op, FlowStart& f, c10::ArrayRef<const c10::IValue> outputs) {
    if (f.zeroing) {
      // 0 * inf is NaN: a factor that is not finite is not discarded.
      for (const auto& v : outputs) {
        for_each_tensor(v, [&](const at::Tensor& t) {
          if (f.zeroing && at::isFloatingType(t.scalar_type()) && !at::isfinite(t).all().item<bool>())
            f.zeroing = false;
        });
      }
      if (!f.zeroing) std::fill(f.discarded.begin(), f.discarded.end(), false);
    }
    std::lock_guard lock(flow_mu);
    for (const auto& v : outputs) {
      for_each_tensor(v, [&](const at::Tensor& t) {
        produced[t.unsafeGetTensorImpl()] = {op, f.constant, f.source};
        kept.emplace_back(t.getIntrusivePtr());
      });
    }
    flow.add({op, std::move(f.producers), std::move(f.discarded), f.zeroing, std::move(f.zero_factor)});
  }

  ThreadBuffer& buffer(ThreadSlot& slot = t_slot) {
    if (slot.generation != generation) {
      auto b = std::make_unique<ThreadBuffer>();
      b->thread = next_thread++;
      slot.buffer = b.get();
      slot.generation = generation;
      std::lock_guard lock(mu);
      buffers.push_back(std::move(b));
    }
    return *slot.buffer;
  }

  // Closes open calls deeper than `keep`, deepest first, recording statistics of their outputs.
  void close_calls(ThreadBuffer& b, std::size_t keep) {
    while (b.calls.size() > keep) {
      OpenCall c = std::move(b.calls.back());
      b.calls.pop_back();
      if (!c.y.defined() || c.y.numel() == 0) continue;
      std::int64_t t0 = now_ns();
      t_slot.busy = true;
      ActivationRecord record;
      bool ok = true;
      try {
        record = statistics(c, b);
      } catch (const std::exception&) {
        // A tensor the statistics cannot handle (e.g. a quantized one) is skipped, not fatal.
        ok = false;
      }
      t_slot.busy = false;
      std::lock_guard lock(activations_mu);
      if (ok)
        activation_records.push_back(std::move(record));
      else
        ++activation_failures;
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

  // At the end of a keyed request (shape reuse): a replayed call is kept when each recorded op ran again, in
  // order, on the recorded thread, and nothing else ran; otherwise its ops are dropped and the request is
  // recorded from now on. A recorded call becomes the request's record when it ran on one thread and read
  // no data into values.
  bool settle_request() {
    std::lock_guard lock(mu);
    const std::int64_t current = request.load();
    if (replaying.load()) {
      switch_callbacks(false);
      const ThreadBuffer* b = replay->buffer;
      const bool same = !diverged.load() && request_threads.load() == 1 && b->request == current &&
                        b->cursor == replay->ops.size();
      replay = nullptr;
      if (same) {
        ++reused;
        return true;
      }
      ++repeated;
      recorded.erase(key);
      unusable.insert(key);
      for (auto& t : buffers) {
        if (t->request != current) continue;
        t->ops.resize(t->request_begin);
        t->open.clear();
        t->request = -1;
      }
      return false;
    }
    if (recorded.count(key) != 0 || unusable.count(key) != 0) return true;
    if (request_threads.load() != 1 || request_reads_data.load()) {
      unusable.insert(key);
      return true;
    }
    for (auto& t : buffers) {
      if (t->request != current) continue;
      Recorded r;
      r.buffer = t.get();
      r.ops.reserve(t->ops.size() - t->request_begin);
      for (std::size_t i = t->request_begin; i < t->ops.size(); ++i)
        r.ops.push_back({t->ops[i].name, t->ops[i].args});
      recorded.emplace(key, std::move(r));
    }
    return true;
  }

  void close_all_calls() {
    std::lock_guard lock(mu);
    for (auto& b : buffers) close_calls(*b, 0);
  }
};

namespace {
// RecordFunction callbacks are plain function pointers; the active observer is global (one at a time).
std::atomic<OpObserver::State*> g_active{nullptr};
using State = OpObserver::State;

// The op callback's start: `replay` for the callback without inputs (shape reuse), which gives each op the
// argument list recorded at its position.
std::unique_ptr<at::ObserverContext> start_op(const at::RecordFunction& fn, bool replay) {
  State* s = g_active.load(std::memory_order_acquire);
  ThreadSlot& slot = t_slot;
  if (s == nullptr || slot.busy) return nullptr;
  // Both op callbacks are registered; the disabled one can still run for an op started while they switch.
  if (s->replaying.load(std::memory_order_acquire) != replay) return nullptr;
  ThreadBuffer& b = s->buffer(slot);
  const std::int64_t request = s->request.load(std::memory_order_relaxed);
  if (b.request != request) {
    b.request = request;
    b.request_begin = b.ops.size();
    b.cursor = 0;
    s->request_threads.fetch_add(1, std::memory_order_relaxed);
  }
  HotOp op;
  op.name = s->exact ? b.add_name(fn) : b.intern_name(fn);
  op.sequence = s->sequence.fetch_add(1, std::memory_order_relaxed);
  op.iteration = s->iteration.load(std::memory_order_relaxed);
  op.depth = static_cast<int>(b.open.size());
  if (!b.open.empty()) {
    op.parent = b.open.back();
    op.module_id = b.ops[static_cast<std::size_t>(op.parent)].module_id;
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
        if (std::find(s->ambiguous_modules.begin(), s->ambiguous_modules.end(), c) ==
            s->ambiguous_modules.end())
          s->ambiguous_modules.push_back(c);
      }
    }
  }
  c10::ArrayRef<const c10::IValue> inputs;  // none while replaying (never with activations)
  if (replay) {
    const State::Recorded& r = *s->replay;
    if (&b == r.buffer && b.cursor < r.ops.size() && r.ops[b.cursor].name == op.name) {
      op.args = r.ops[b.cursor++].args;
    } else {
      op.args = -1;  // request_ends drops this call's ops
      s->diverged.store(true, std::memory_order_relaxed);
    }
  } else {
    const OpName& name = b.names[static_cast<std::size_t>(op.name)];
    inputs = last(fn.inputs(), name.counts.inputs);
    op.args = s->exact ? b.arg_lists.add(inputs) : b.arg_lists.intern(inputs);
    if (name.reads_data) s->request_reads_data.store(true, std::memory_order_relaxed);
  }
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
      t_slot.busy = true;
      if (x.defined()) x = x.detach().clone();
      t_slot.busy = false;
      {
        std::lock_guard lock(s->activations_mu);
        s->activation_ns += now_ns() - t0;
      }
      for (std::size_t k = common; k < chain.size(); ++k) b.calls.push_back({chain[k], op.iteration, x, {}});
    }
  }
  std::unique_ptr<FlowStart> flow;
  if (s->activations && op.depth == 0) {
    std::int64_t t0 = now_ns();
    t_slot.busy = true;
    try {
      flow = s->flow_start(b.names[static_cast<std::size_t>(op.name)].text, inputs);
    } catch (const std::exception&) {
      flow = nullptr;  // an input the checks cannot handle: the op stays out of the flow
    }
    t_slot.busy = false;
    std::lock_guard lock(s->activations_mu);
    s->activation_ns += now_ns() - t0;
  }
  op.start_ns = ticks(s->tsc) - s->origin;
  auto index = static_cast<std::int32_t>(b.ops.size());
  b.ops.push_back(op);
  b.open.push_back(index);
  auto context = Context::make(slot, b, index);
  context->flow = std::move(flow);
  return context;
}
}  // namespace

OpObserver::OpObserver(const ModuleTree& tree, bool activations, const ModuleInstances* instances, bool exact)
    : state_(std::make_unique<State>()) {
  state_->exact = exact;
  state_->tree = &tree;
  state_->activations = activations;
  state_->instances = instances;
  g_active = state_.get();
  auto end = [](const at::RecordFunction& fn, at::ObserverContext* ctx) {
    State* s = g_active.load(std::memory_order_acquire);
    // A context comes from an op started while the observer ran no op of its own (busy), so none ends while
    // it does: no thread-local to read here.
    if (s == nullptr || ctx == nullptr) return;
    std::int64_t t = ticks(s->tsc) - s->origin;
    ThreadBuffer& b = *static_cast<Context*>(ctx)->buffer;
    auto index = static_cast<Context*>(ctx)->index;
    if (static_cast<std::size_t>(index) >= b.ops.size()) return;
    b.ops[static_cast<std::size_t>(index)].duration_ns = t - b.ops[static_cast<std::size_t>(index)].start_ns;
    auto it = std::find(b.open.rbegin(), b.open.rend(), index);
    if (it != b.open.rend()) b.open.erase(std::next(it).base());
    if (s->activations && b.open.empty() && !b.calls.empty()) {
      at::Tensor y = first_tensor(b.own_outputs(fn, b.ops[static_cast<std::size_t>(index)]));
      if (y.defined()) {
        for (auto& c : b.calls) c.y = y;
      }
    }
    if (auto* flow = static_cast<Context*>(ctx)->flow.get()) {
      std::int64_t t0 = now_ns();
      t_slot.busy = true;
      try {
        const HotOp& op = b.ops[static_cast<std::size_t>(index)];
        s->flow_end(op.sequence, *flow, b.own_outputs(fn, op));
      } catch (const std::exception&) {
      }
      t_slot.busy = false;
      std::lock_guard lock(s->activations_mu);
      s->activation_ns += now_ns() - t0;
    }
  };
  if (instances != nullptr) {
    // TorchScript method calls: inputs()[0] is `self`, the module object whose method runs.
    auto enter = [](const at::RecordFunction& fn) -> std::unique_ptr<at::ObserverContext> {
      State* s = g_active.load(std::memory_order_acquire);
      ThreadSlot& slot = t_slot;
      if (s == nullptr || slot.busy) return nullptr;
      auto inputs = fn.inputs();
      if (inputs.empty() || !inputs[0].isObject()) return nullptr;
      auto it = s->instances->find(static_cast<const void*>(&inputs[0].toObjectRef()));
      if (it == s->instances->end()) return nullptr;
      ThreadBuffer& b = s->buffer(slot);
      b.modules.push_back(it->second);
      return Context::make(slot, b, -1);
    };
    auto leave = [](const at::RecordFunction&, at::ObserverContext* ctx) {
      State* s = g_active.load(std::memory_order_acquire);
      if (s == nullptr || ctx == nullptr) return;
      ThreadBuffer& b = *static_cast<Context*>(ctx)->buffer;
      if (!b.modules.empty()) b.modules.pop_back();
    };
    state_->script_handle = at::addGlobalCallback(at::RecordFunctionCallback(enter, leave)
                                                      .needsInputs(true)
                                                      .scopes({at::RecordScope::TORCHSCRIPT_FUNCTION}));
  }
  // The callback without inputs first, disabled before the one with inputs exists (start_op ignores it
  // meanwhile); set_shape_reuse's requests switch between them.
  auto replay_start = [](const at::RecordFunction& fn) { return start_op(fn, true); };
  state_->replay_handle = at::addGlobalCallback(
      at::RecordFunctionCallback(replay_start, end).scopes({at::RecordScope::FUNCTION}));
  at::disableCallback(state_->replay_handle);
  auto record_start = [](const at::RecordFunction& fn) { return start_op(fn, false); };
  state_->handle = at::addGlobalCallback(at::RecordFunctionCallback(record_start, end)
                                             .needsInputs(true)
                                             .needsOutputs(activations)
                                             .scopes({at::RecordScope::FUNCTION}));
}

OpObserver::~OpObserver() {
  if (state_ && state_->script_handle != 0) at::removeCallback(state_->script_handle);
  if (state_ && state_->replay_handle != 0) at::removeCallback(state_->replay_handle);
  if (state_ && state_->handle != 0) {
    at::removeCallback(state_->handle);
    g_active = nullptr;
  }
}

std::int64_t OpObserver::ambiguous_ops() const {
  return state_->ambiguous.load();
}

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

void OpObserver::set_model_tensors(std::unordered_map<const void*, std::string> names) {
  std::lock_guard lock(state_->flow_mu);
  state_->model_tensors = std::move(names);
}

void OpObserver::set_shape_reuse(bool on) {
  state_->reuse = on && !state_->activations && !state_->exact;
}

std::int64_t OpObserver::reused_calls() const {
  return state_->reused;
}
std::int64_t OpObserver::repeated_calls() const {
  return state_->repeated;
}

namespace {
// A request's key for shape reuse: its arguments as an op's are keyed, and each tensor's identity and
// version (the same data: profile runs each request's tensors again). False for nested values (tuples,
// dicts), whose requests are recorded on every call.
bool request_key(const std::vector<c10::IValue>& inputs, std::vector<std::uint64_t>& key) {
  key.clear();
  for (const auto& v : inputs) {
    if (!(v.isTensor() || v.isTensorList() || v.isInt() || v.isDouble() || v.isBool() || v.isNone() ||
          v.isIntList() || v.isDoubleList() || v.isString()))
      return false;
  }
  if (!encode_args(c10::ArrayRef<const c10::IValue>(inputs.data(), inputs.size()), key)) return false;
  for (const auto& v : inputs) {
    for_each_tensor(v, [&](const at::Tensor& t) {
      key.push_back(reinterpret_cast<std::uintptr_t>(t.unsafeGetTensorImpl()));
      key.push_back(t._version());
    });
  }
  return true;
}
}  // namespace

void OpObserver::request_begins(const std::vector<c10::IValue>& inputs) {
  State& s = *state_;
  if (s.replaying) request_ends(c10::IValue());  // the previous call's end was not reported
  {
    // Room for as many ops as each thread ran in the previous call, with a margin, grown geometrically.
    std::lock_guard lock(s.mu);
    const std::int64_t previous = s.request.load();
    for (auto& b : s.buffers) {
      const std::size_t last = b->request == previous ? b->ops.size() - b->request_begin : 0;
      const std::size_t need = b->ops.size() + last + last / 4 + 64;
      if (last > 0 && b->ops.capacity() < need) b->ops.reserve(std::max(need, 2 * b->ops.capacity()));
    }
  }
  s.request.fetch_add(1);
  s.request_threads = 0;
  s.request_reads_data = false;
  s.diverged = false;
  s.keyed = s.reuse && request_key(inputs, s.key);
  if (s.keyed && s.unusable.count(s.key) == 0) {
    auto it = s.recorded.find(s.key);
    if (it != s.recorded.end()) {
      s.replay = &it->second;
      s.switch_callbacks(true);
    }
  }
  if (!state_->activations) return;
  std::lock_guard lock(state_->flow_mu);
  for (const auto& v : inputs) {
    for_each_tensor(v, [&](const at::Tensor& t) { state_->produced[t.unsafeGetTensorImpl()] = {}; });
  }
}

bool OpObserver::request_ends(const c10::IValue& output) {
  State& s = *state_;
  if (!s.activations) return s.keyed ? s.settle_request() : true;
  std::int64_t t0 = now_ns();
  std::lock_guard lock(s.flow_mu);
  for_each_tensor(output, [&](const at::Tensor& t) {
    auto it = s.produced.find(t.unsafeGetTensorImpl());
    if (it != s.produced.end() && it->second.op != kNoId) s.flow.output(it->second.op);
  });
  auto records = s.flow.finish_request();
  s.discarded.insert(s.discarded.end(), records.begin(), records.end());
  s.produced.clear();
  s.kept.clear();
  std::lock_guard timing(s.activations_mu);
  s.activation_ns += now_ns() - t0;
  return true;
}

std::vector<DiscardedOpRecord> OpObserver::take_discarded() {
  std::lock_guard lock(state_->flow_mu);
  return std::move(state_->discarded);
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
  if (state_->replaying) request_ends(c10::IValue());  // a replayed call whose end was not reported
  if (state_->replay_handle != 0) at::removeCallback(state_->replay_handle);
  state_->replay_handle = 0;
  if (state_->script_handle != 0) at::removeCallback(state_->script_handle);
  state_->script_handle = 0;
  at::removeCallback(state_->handle);
  state_->handle = 0;
  g_active = nullptr;
  // Ticks to ns: the counter's rate over the run, against steady_clock.
  const double ns_per_tick =
      state_->tsc ? static_cast<double>(now_ns() - state_->origin_ns) /
                        static_cast<double>(std::max<std::int64_t>(1, ticks(true) - state_->origin))
                  : 1.0;
  auto to_ns = [&](std::int64_t t) {
    return static_cast<std::int64_t>(std::llround(static_cast<double>(t) * ns_per_tick));
  };
  std::vector<OpRecord> all;
  std::lock_guard lock(state_->mu);
  for (auto& b : state_->buffers) {
    auto offset = static_cast<Id>(all.size());
    for (const HotOp& h : b->ops) {
      OpRecord op;
      op.iteration = h.iteration;
      op.sequence = h.sequence;
      op.name = b->names[static_cast<std::size_t>(h.name)].text;
      op.thread = b->thread;
      op.start_ns = to_ns(h.start_ns);
      op.duration_ns = to_ns(h.duration_ns);
      op.module_id = h.module_id;
      op.parent_op_id = h.parent < 0 ? kNoId : h.parent + offset;
      op.depth = h.depth;
      op.args = b->arg_lists.list(h.args);
      all.push_back(std::move(op));
    }
    b->ops.clear();
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
  // Dead-compute records name ops by sequence number until now.
  std::unordered_map<std::int64_t, Id> by_sequence;
  for (const OpRecord& op : sorted) by_sequence.emplace(op.sequence, op.id);
  std::lock_guard flow_lock(state_->flow_mu);
  std::vector<DiscardedOpRecord> kept;
  for (DiscardedOpRecord d : state_->discarded) {
    auto op = by_sequence.find(d.op_id);
    auto zeroing = by_sequence.find(d.zeroing_op_id);
    if (op == by_sequence.end() || zeroing == by_sequence.end()) continue;
    d.op_id = op->second;
    d.zeroing_op_id = zeroing->second;
    kept.push_back(std::move(d));
  }
  state_->discarded = std::move(kept);
  return sorted;
}

}  // namespace flopscope
