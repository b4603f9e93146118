#include "collector/cupti/session.h"

#include <atomic>

#include "collector/cupti/gpu_probe.h"
#include "collector/cupti/metric_plan.h"
#include "collector/cupti/tracer.h"

namespace flopscope {
namespace {
std::atomic<gpu::Tracer*> g_tracer{nullptr};
}  // namespace

struct Session::Impl {
  std::unique_ptr<gpu::Tracer> tracer;
  bool stopped = false;
};

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Session::~Session() {
  if (!impl_->stopped) {
    g_tracer = nullptr;
    impl_->tracer->stop();
  }
}

StatusOr<std::unique_ptr<Session>> Session::start(const SessionOptions& options) {
  FS_ASSIGN_OR_RETURN(auto gpus, gpu::probe_gpus());
  (void)gpus;
  gpu::CuptiApi& api = gpu::real_cupti();
  gpu::TracerOptions topt;
  topt.max_passes = options.max_passes;
  std::string chip;
  if (options.metrics != "none") {
    if (CUptiResult r = api.chip_name(0, &chip); r != CUPTI_SUCCESS) {
      return gpu::cupti_status(api, r, "reading the GPU's chip name");
    }
    topt.metrics = gpu::parse_metrics_option(options.metrics, chip);
    // Validate names and passes before any kernel runs; the per-context plan repeats this with the
    // context's counter availability.
    FS_ASSIGN_OR_RETURN(auto plan, gpu::plan_metrics(api, chip, topt.metrics, "", options.max_passes));
    (void)plan;
  }
  auto impl = std::make_unique<Impl>();
  impl->tracer = std::make_unique<gpu::Tracer>(api, std::move(topt));
  FS_RETURN_IF_ERROR(impl->tracer->start());
  g_tracer = impl->tracer.get();
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

void Session::push_scope(std::string_view module_path) {
  impl_->tracer->push_scope(module_path);
}
void Session::pop_scope() {
  impl_->tracer->pop_scope();
}

StatusOr<RunData> Session::stop(const RunInfo& info) {
  g_tracer = nullptr;
  impl_->tracer->stop();
  impl_->stopped = true;
  FS_RETURN_IF_ERROR(impl_->tracer->counter_error());
  return impl_->tracer->take_run(info);
}

Status Session::stop_and_write(RunSink& sink, const RunInfo& info) {
  FS_ASSIGN_OR_RETURN(RunData run, stop(info));
  return write_run(sink, run);  // ends with finish()
}

void gpu_scope_push(std::string_view module_path) {
  if (gpu::Tracer* t = g_tracer.load()) t->push_scope(module_path);
}

void gpu_scope_pop() {
  if (gpu::Tracer* t = g_tracer.load()) t->pop_scope();
}

}  // namespace flopscope
