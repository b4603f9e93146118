// Benchmark library (not a test), loaded with ctypes by bench_vs_torch_profiler.py into a python3-torch
// process: both use the system LibTorch, so one loaded model, one input set and one intra-op thread pool
// serve every side. Each run times forward calls with flopscope's op observer on or off; the script turns
// torch.profiler on around an unobserved run, so all sides execute exactly the same forward loop.
// The model runs as `flopscope profile` runs it by default (instance attribution: un-inlined, no graph
// executor optimization); the setting is process-wide, so torch.profiler's side runs the same way.
#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <time.h>
#include <torch/csrc/jit/python/update_graph_executor_opt.h>
#include <torch/script.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "collector/torch/input_spec.h"
#include "collector/torch/op_observer.h"
#include "collector/torch/torch_profiler.h"

namespace {

std::int64_t clock_ns(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

struct Bench {
  torch::jit::Module module;
  std::unique_ptr<flopscope::ModuleTree> tree;
  flopscope::ModuleInstances instances;
  std::vector<c10::IValue> inputs;
};

// With FSB_PERF_CTL naming `perf record --control fifo:...`'s fifo, sampling covers the forward calls only.
void perf_control(const char* command) {
  const char* fifo = std::getenv("FSB_PERF_CTL");
  if (fifo == nullptr) return;
  if (FILE* f = std::fopen(fifo, "w")) {
    std::fputs(command, f);
    std::fclose(f);
  }
}

void set_error(char* err, int len, const std::string& what) {
  if (err != nullptr && len > 0) std::snprintf(err, static_cast<std::size_t>(len), "%s", what.c_str());
}

}  // namespace

extern "C" {

// Loads MODEL with inputs from SPEC ("float32[1,3,224,224]", seed 0) and sets the intra-op threads.
// Null on failure, with the reason in `err`.
__attribute__((visibility("default"))) void* fsb_open(const char* model, const char* spec, int threads,
                                                      char* err, int err_len) {
  using namespace flopscope;
  auto parsed = parse_input_spec(spec);
  if (!parsed.ok()) {
    set_error(err, err_len, parsed.status().message());
    return nullptr;
  }
  // The module tree as `profile` builds it (same module records, same order).
  auto run = inspect_torchscript(model);
  if (!run.ok()) {
    set_error(err, err_len, run.status().message());
    return nullptr;
  }
  auto b = std::make_unique<Bench>();
  try {
    b->module = torch::jit::load(model, torch::kCPU);
    b->module.eval();
  } catch (const std::exception& e) {
    set_error(err, err_len, e.what());
    return nullptr;
  }
  b->tree = std::make_unique<ModuleTree>(run->modules);
  for (const auto& nm : b->module.named_modules())
    b->instances.emplace(static_cast<const void*>(nm.value._ivalue().get()), b->tree->find(nm.name));
  torch::jit::setGraphExecutorOptimize(false);
  at::set_num_threads(threads);
  torch::manual_seed(0);
  const InputSpec& s = *parsed;
  if (s.dtype.rfind("float", 0) == 0) {
    b->inputs.emplace_back(torch::randn(s.shape));
  } else {
    b->inputs.emplace_back(
        torch::randint(s.low, s.high, s.shape, torch::TensorOptions().dtype(torch::kLong)));
  }
  return b.release();
}

// Runs `iters` forward calls and writes each call's process CPU time (all threads, user + sys) and wall time
// in ns. `observe`: 0 nothing, 1 flopscope's op observer as profile runs it (shape reuse where the model
// allows), 5 the same without shape reuse (every call recorded), and the floors of any RecordFunction
// observer in this LibTorch: 2 empty callbacks registered as flopscope's record calls (ops and TorchScript
// calls, with inputs), 3 one empty op callback without inputs, 4 empty callbacks as its reused calls
// register them (ops without inputs, TorchScript calls with inputs). Returns the ops flopscope's observer
// recorded per call (0 for the other modes), -1 when forward fails.
__attribute__((visibility("default"))) long fsb_run(void* handle, int observe, int iters, long long* cpu_ns,
                                                    long long* wall_ns) {
  auto* b = static_cast<Bench*>(handle);
  torch::NoGradGuard no_grad;
  std::unique_ptr<flopscope::OpObserver> observer;
  if (observe == 1 || observe == 5) {
    observer = std::make_unique<flopscope::OpObserver>(*b->tree, false, &b->instances);
    observer->set_shape_reuse(observe == 1 && !flopscope::mutates_module_state(b->module));
  }
  std::vector<at::CallbackHandle> empty;
  auto nothing = [](const at::RecordFunction&) -> std::unique_ptr<at::ObserverContext> { return nullptr; };
  if (observe == 2) {
    for (auto scope : {at::RecordScope::FUNCTION, at::RecordScope::TORCHSCRIPT_FUNCTION})
      empty.push_back(
          at::addGlobalCallback(at::RecordFunctionCallback(nothing).needsInputs(true).scopes({scope})));
  } else if (observe == 3) {
    empty.push_back(
        at::addGlobalCallback(at::RecordFunctionCallback(nothing).scopes({at::RecordScope::FUNCTION})));
  } else if (observe == 4) {
    empty.push_back(
        at::addGlobalCallback(at::RecordFunctionCallback(nothing).scopes({at::RecordScope::FUNCTION})));
    empty.push_back(at::addGlobalCallback(at::RecordFunctionCallback(nothing).needsInputs(true).scopes(
        {at::RecordScope::TORCHSCRIPT_FUNCTION})));
  }
  try {
    perf_control("enable\n");
    for (int i = 0; i < iters; ++i) {
      std::int64_t c0, w0, c1, w1;
      c10::IValue out;
      do {  // what profile_torchscript does around each measured forward
        if (observer) {
          observer->set_input_tag("");
          observer->set_iteration(i);
          observer->request_begins(b->inputs);
        }
        c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        w0 = clock_ns(CLOCK_MONOTONIC);
        out = b->module.forward(b->inputs);
        c1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        w1 = clock_ns(CLOCK_MONOTONIC);
      } while (observer && !observer->request_ends(out));
      cpu_ns[i] = c1 - c0;
      wall_ns[i] = w1 - w0;
    }
    perf_control("disable\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "forward failed: %s\n", e.what());
    return -1;
  }
  for (auto h : empty) at::removeCallback(h);
  if (!observer) return 0;
  return static_cast<long>(observer->finish().size() / static_cast<std::size_t>(iters > 0 ? iters : 1));
}

__attribute__((visibility("default"))) void fsb_close(void* handle) {
  delete static_cast<Bench*>(handle);
}

}  // extern "C"
