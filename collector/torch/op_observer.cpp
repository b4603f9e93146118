// LibTorch TU: the RecordFunction callback. Kept apart from the model-loading TU so each compiles alone.
#include "collector/torch/op_observer.h"

#include <ATen/record_function.h>
#include <torch/csrc/jit/runtime/interpreter.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <sstream>

#include "db/model/dtype.h"

namespace flopscope {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One per thread that ran an op; parent links are indices into `ops` until finish().
struct ThreadBuffer {
  std::vector<OpRecord> ops;
  std::vector<std::int32_t> open;  // stack of indices of ops still running
  std::int64_t thread = 0;
};

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
  if (v.isScalar()) a.dtype = v.isDouble() ? "Scalar" : v.isBool() ? "bool" : "int";
  a.value = scalar_text(v);
  return a;
}

}  // namespace

struct OpObserver::State {
  const ModuleTree* tree = nullptr;
  at::CallbackHandle handle = 0;
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
};

namespace {
// RecordFunction callbacks are plain function pointers; the active observer is global (one at a time).
std::atomic<OpObserver::State*> g_active{nullptr};
}  // namespace

OpObserver::OpObserver(const ModuleTree& tree) : state_(std::make_unique<State>()) {
  state_->tree = &tree;
  g_active = state_.get();
  auto start = [](const at::RecordFunction& fn) -> std::unique_ptr<at::ObserverContext> {
    State* s = g_active.load(std::memory_order_acquire);
    if (s == nullptr) return nullptr;
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
    } else {
      // Only outermost ops pay for the interpreter's call stack; nested ops inherit their caller's module.
      op.module_id = s->tree->resolve(parse_torchscript_hierarchy(torch::jit::currentModuleHierarchy()));
    }
    auto inputs = fn.inputs();
    op.args.reserve(inputs.size());
    for (const auto& v : inputs) op.args.push_back(to_arg(v));
    op.start_ns = now_ns() - s->origin;
    auto index = static_cast<std::int32_t>(b.ops.size());
    b.ops.push_back(std::move(op));
    b.open.push_back(index);
    return std::make_unique<Context>(index);
  };
  auto end = [](const at::RecordFunction&, at::ObserverContext* ctx) {
    State* s = g_active.load(std::memory_order_acquire);
    if (s == nullptr || ctx == nullptr) return;
    std::int64_t t = now_ns() - s->origin;
    ThreadBuffer& b = s->buffer();
    auto index = static_cast<Context*>(ctx)->index;
    if (static_cast<std::size_t>(index) >= b.ops.size()) return;
    b.ops[static_cast<std::size_t>(index)].duration_ns = t - b.ops[static_cast<std::size_t>(index)].start_ns;
    auto it = std::find(b.open.rbegin(), b.open.rend(), index);
    if (it != b.open.rend()) b.open.erase(std::next(it).base());
  };
  state_->handle = at::addGlobalCallback(
      at::RecordFunctionCallback(start, end).needsInputs(true).scopes({at::RecordScope::FUNCTION}));
}

OpObserver::~OpObserver() {
  if (state_ && state_->handle != 0) {
    at::removeCallback(state_->handle);
    g_active = nullptr;
  }
}

void OpObserver::set_iteration(int iteration) { state_->iteration = iteration; }

std::vector<OpRecord> OpObserver::finish() {
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
  for (std::size_t k = 0; k < order.size(); ++k) new_id[static_cast<std::size_t>(order[k])] = static_cast<Id>(k);
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
