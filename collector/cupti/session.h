// In-process GPU profiling for C++ programs (a LibTorch application, a CUDA program): start a Session,
// mark scopes with module paths, stop, write. Torch-free and CUPTI-free, so any collector may include it.
//
//   auto session = flopscope::Session::start({.metrics = "default"});   // StatusOr
//   flopscope::gpu_scope_push("layers.0.attn");  ... launch kernels ...  flopscope::gpu_scope_pop();
//   auto sink = flopscope::create_run_database("run.db", false);
//   (*session)->stop_and_write(**sink, info);
//
// A LibTorch RecordFunction observer calls gpu_scope_push/gpu_scope_pop with the current module path.
// Only one Session may be active per process (CUPTI allows one subscriber).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "db/model/run_data.h"
#include "db/model/run_sink.h"
#include "db/model/status.h"

namespace flopscope {

struct SessionOptions {
  std::string metrics = "none";  // "default", "hardware", "none" or a comma-separated metric list
  std::size_t max_passes = 0;    // 0: no limit
};

class Session {
 public:
  // Fails with a one-line message without a driver or GPU, with another profiler attached, or with an
  // unknown metric name.
  static StatusOr<std::unique_ptr<Session>> start(const SessionOptions& options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Scopes on the calling thread; kernels launched inside get the innermost module path.
  void push_scope(std::string_view module_path);
  void pop_scope();

  // Stops collection and returns the run (kernels, module tree, data quality). Fails when the counter
  // pass was refused (permissions, unsupported chip): the message says how to fix it.
  StatusOr<RunData> stop(const RunInfo& info);
  Status stop_and_write(RunSink& sink, const RunInfo& info);

 private:
  struct Impl;
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Push/pop on the active Session, if any (no-ops otherwise): the hook for RecordFunction observers.
void gpu_scope_push(std::string_view module_path);
void gpu_scope_pop();

}  // namespace flopscope
