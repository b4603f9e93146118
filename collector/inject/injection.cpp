// The CUDA injection library. The CUDA driver loads it from CUDA_INJECTION64_PATH during cuInit and calls
// InitializeInjection(); NVTX loads it from NVTX_INJECTION64_PATH and calls InitializeInjectionNvtx2(),
// which hands NVTX over to CUPTI so that ranges reach the tracer's NVTX callbacks.
//
// At exit (normal exit, or SIGINT/SIGTERM) the tracer is flushed and the run is written through
// create_run_database. A fatal problem (another profiler attached, counters not permitted, unsupported
// chip) is written to the status file instead, for `flopscope exec` to report; no database is written.
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "analyzer/summary_facts_sink.h"
#include "collector/cupti/gpu_probe.h"
#include "collector/cupti/inject_env.h"
#include "collector/cupti/metric_plan.h"
#include "collector/cupti/tracer.h"
#include "db/run_database.h"

namespace flopscope::inject {
namespace {

std::mutex g_mu;
bool g_initialized = false;
std::atomic<bool> g_finished{false};
gpu::Tracer* g_tracer = nullptr;  // leaked on purpose: static destructors may run before atexit handlers
std::string g_status_file;
std::string g_output;
bool g_overwrite = false;
std::string g_command_line;
std::int64_t g_start_unix_ns = 0;

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

// Under `flopscope exec` the parent prints the message (once, however many processes fail); loaded by
// hand, the library says it itself.
void fatal(const std::string& message) {
  if (g_status_file.empty()) {
    std::fprintf(stderr, "flopscope: error: %s\n", message.c_str());
  } else {
    report_fatal(g_status_file, message);
  }
}

void finish() {
  if (g_finished.exchange(true) || g_tracer == nullptr) return;
  g_tracer->stop();
  if (Status s = g_tracer->counter_error(); !s.ok()) {
    fatal(s.message());
    return;
  }
  RunInfo info;
  info.tool_version = FLOPSCOPE_VERSION_STRING;
  info.command_line = g_command_line;
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) == 0) info.host = host;
  if (auto gpus = gpu::probe_gpus(); gpus.ok() && !gpus->empty()) info.device = gpus->front().name;
  info.created_unix_ns = g_start_unix_ns;
  RunData run = g_tracer->take_run(info);
  std::string path = output_for_process(g_output, static_cast<int>(::getpid()), std::getenv("RANK"));
  auto sink = create_run_database(path, g_overwrite);
  if (!sink.ok()) {
    fatal(sink.status().message());
    return;
  }
  // With the summary facts (report then reads no rows back); ends with finish(): the file appears whole or
  // not at all.
  Status s = write_run_with_facts(**sink, run);
  if (!s.ok()) fatal(path + ": " + s.message());
}

void on_signal(int sig) {
  // Best effort: write what was traced, then die of the signal as the program would have.
  finish();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

int initialize() {
  std::lock_guard lock(g_mu);
  if (g_initialized) return 1;
  g_initialized = true;
  g_status_file = env_or(kEnvStatusFile, "");
  g_output = env_or(kEnvOutput, "");
  g_overwrite = env_or(kEnvOverwrite, "0") == "1";
  g_command_line = env_or(kEnvCommandLine, "");
  if (g_output.empty()) {
    fatal(std::string(kEnvOutput) + " is not set: run the program through `flopscope exec -o run.db -- ...`");
    return 1;
  }
  gpu::CuptiApi& api = gpu::real_cupti();
  gpu::TracerOptions options;
  options.max_passes =
      static_cast<std::size_t>(std::strtoul(env_or(kEnvMaxPasses, "0").c_str(), nullptr, 10));
  // An explicit metric list, resolved and validated for the chip by `flopscope exec`: the chip cannot be
  // asked for here, inside the driver's initialisation. Each context's plan validates it again.
  options.metrics = gpu::parse_metrics_option(env_or(kEnvMetrics, "none"), "");
  auto* tracer = new gpu::Tracer(api, std::move(options));
  if (Status s = tracer->start(); !s.ok()) {
    delete tracer;
    fatal(s.message());
    return 1;
  }
  g_tracer = tracer;
  g_start_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  std::atexit(finish);
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) std::signal(sig, on_signal);
  }
  return 1;
}

}  // namespace
}  // namespace flopscope::inject

extern "C" {

__attribute__((visibility("default"))) int InitializeInjection(void) {
  return flopscope::inject::initialize();
}

// NVTX's injection entry point, forwarded to the libcupti this library uses so that CUPTI's NVTX
// callbacks fire. The signature is NVTX's: int (*)(NvtxGetExportTableFunc_t).
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(void* get_export_table) {
  using Fn = int (*)(void*);
  // The libcupti this library is linked against (a PyTorch wheel may bring its own copy: same soname).
  Dl_info info{};
  void* lib = nullptr;
  if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) != 0 && info.dli_fname != nullptr) {
    lib = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  }
  if (lib == nullptr) lib = dlopen("libcupti.so.13", RTLD_NOW);
  if (lib == nullptr) return 0;
  auto fn = reinterpret_cast<Fn>(dlsym(lib, "InitializeInjectionNvtx2"));
  return fn != nullptr ? fn(get_export_table) : 0;
}

}  // extern "C"
