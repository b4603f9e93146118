// The tracing pass and the attribution of every kernel to the CPU scope that launched it.
//
// Kernels, memcpys and memsets come from CUPTI activity records (CONCURRENT_KERNEL, MEMCPY, MEMSET).
// Launch-API callbacks (cudaLaunchKernel*, cuLaunchKernel, cuLaunchKernelEx, cudaGraphLaunch,
// cuGraphLaunch, ...) remember, by correlation id, the scope active on the launching thread; the scope
// comes from NVTX push/pop ranges and from external scopes pushed in-process (the LibTorch observer's
// module path). Kernels launched from a CUDA graph share the graph launch's correlation id, so they are
// attributed by graph node instead: the scope active when the node was created (stream capture or
// explicit construction), followed through node cloning at instantiation.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "collector/cupti/activity_reader.h"
#include "collector/cupti/counter_collector.h"
#include "collector/cupti/cupti_api.h"
#include "collector/cupti/scope_table.h"
#include "db/model/run_data.h"

namespace flopscope::gpu {

struct TracerOptions {
  std::vector<std::string> metrics;  // empty: tracing only
  std::size_t max_passes = 0;        // 0: no limit
  std::size_t ranges_per_session = 256;
};

class Tracer {
 public:
  Tracer(CuptiApi& api, TracerOptions options);
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  // Subscribes and enables tracing. Fails (and leaves CUPTI untouched) without a driver, or when another
  // CUPTI subscriber (profiler) is attached. Only one Tracer may be started per process.
  Status start();
  // Forces CUPTI to hand over every activity buffer, including incomplete ones.
  Status flush();
  // Flushes, decodes counters, unsubscribes. Idempotent.
  void stop();
  bool started() const { return started_; }

  // In-process scopes (module paths) for the calling thread; also pushed as CUPTI external correlation
  // ids (kind CUSTOM2) so other tools reading the trace see them.
  void push_scope(std::string_view module_path);
  void pop_scope();

  // The run so far: modules (the scope paths and their ancestors), kernels with module ids, counters
  // joined, and data-quality rows. Call after stop() or flush().
  RunData take_run(const RunInfo& info);
  // The counter pass's first failure, if any (permissions, unsupported chip...).
  Status counter_error() const;

  // Entry points for CUPTI's callbacks (and for tests, which call them with synthetic data).
  void handle_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
  void handle_buffer(std::uint8_t* buffer, std::size_t valid_bytes);
  void count_dropped(std::size_t n);

 private:
  struct ThreadState {
    std::vector<int> scopes;           // innermost last
    std::vector<bool> scope_external;  // pushed by push_scope (true) or NVTX (false)
    int launch_depth = 0;
    long counted_launch = -1;  // index into counted_ of the outer launch being made
  };
  ThreadState& thread_state();  // mu_ held
  int current_scope(const ThreadState& t) const { return t.scopes.empty() ? 0 : t.scopes.back(); }
  void on_launch(const CUpti_CallbackData& cb, bool graph_launch);
  void on_nvtx(CUpti_CallbackId cbid, const void* data);
  void on_resource(CUpti_CallbackId cbid, const void* data);

  CuptiApi& api_;
  TracerOptions options_;
  std::unique_ptr<CounterCollector> counters_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  bool started_ = false;
  std::int64_t start_unix_ns_ = 0;

  mutable std::mutex mu_;
  ScopeTable scopes_;
  std::unordered_map<std::thread::id, ThreadState> threads_;
  std::unordered_map<std::uint32_t, int> correlation_scope_;
  std::unordered_map<std::uint64_t, int> node_scope_;
  std::unordered_map<std::uint64_t, int> external_scope_;  // external id -> scope
  std::vector<CountedLaunch> counted_;
  ActivityBatch batch_;
  std::int64_t unreadable_buffers_ = 0;
  std::int64_t dropped_records_ = 0;
  std::int64_t unbalanced_pops_ = 0;
  std::int64_t graph_launches_with_counters_ = 0;
};

}  // namespace flopscope::gpu
