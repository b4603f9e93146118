#include "collector/cupti/tracer.h"

#include <nvtx3/nvToolsExt.h>
// CUPTI's NVTX callback parameter structs; needs the NVTX types above.
#include <generated_nvtx_meta.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

#include "collector/cupti/kernel_name.h"
#include "collector/cupti/launch_cbids.h"

namespace flopscope::gpu {
namespace {

// CUPTI's buffer callbacks carry no user pointer: they reach the one started Tracer through this.
std::atomic<Tracer*> g_active{nullptr};

constexpr std::size_t kBufferBytes = 8 << 20;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext ctx, std::uint32_t stream, std::uint8_t* buffer,
                               std::size_t /*size*/, std::size_t valid) {
  if (Tracer* t = g_active.load()) {
    t->handle_buffer(buffer, valid);
    std::size_t dropped = 0;
    if (real_cupti().dropped_records(ctx, stream, &dropped) == CUPTI_SUCCESS) t->count_dropped(dropped);
  }
  std::free(buffer);
}

void CUPTIAPI callback_trampoline(void* user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                  const void* data) {
  static_cast<Tracer*>(user)->handle_callback(domain, cbid, data);
}

std::string nvtx_message(const nvtxEventAttributes_t* attr) {
  if (attr == nullptr || attr->messageType != NVTX_MESSAGE_TYPE_ASCII || attr->message.ascii == nullptr)
    return "";
  return attr->message.ascii;
}

std::int64_t now_unix_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Tracer::Tracer(CuptiApi& api, TracerOptions options) : api_(api), options_(std::move(options)) {
  if (!options_.metrics.empty()) {
    counters_ = std::make_unique<CounterCollector>(api_, options_.metrics, options_.max_passes,
                                                   options_.ranges_per_session);
  }
}

Tracer::~Tracer() {
  stop();
}

Status Tracer::start() {
  if (started_) return {};
  Tracer* expected = nullptr;
  if (!g_active.compare_exchange_strong(expected, this)) {
    return Unavailable("a flopscope GPU session is already active in this process");
  }
  std::string holder;
  CUptiResult r = api_.subscribe(&subscriber_, &callback_trampoline, this, &holder);
  if (r != CUPTI_SUCCESS) {
    g_active = nullptr;
    subscriber_ = nullptr;
    Status s = cupti_status(api_, r, "subscribing to CUPTI callbacks");
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED && !holder.empty()) {
      return Unavailable(s.message() + "; active subscriber: " + holder);
    }
    return s;
  }
  auto fail = [&](const Status& s) {
    (void)api_.unsubscribe(subscriber_);
    subscriber_ = nullptr;
    g_active = nullptr;
    return s;
  };
  // The whole runtime domain: launches, plus memcpy/memset calls for attributing copies.
  if (CUptiResult e = api_.enable_domain(true, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API);
      e != CUPTI_SUCCESS) {
    return fail(cupti_status(api_, e, "enabling runtime API callbacks"));
  }
  for (CUpti_CallbackId id : kDriverLaunchCbids) {
    if (CUptiResult e = api_.enable_callback(true, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id);
        e != CUPTI_SUCCESS) {
      return fail(cupti_status(api_, e, "enabling driver launch callbacks"));
    }
  }
  for (CUpti_CallbackId id : {CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
                              CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING}) {
    if (CUptiResult e = api_.enable_callback(true, subscriber_, CUPTI_CB_DOMAIN_RESOURCE, id);
        e != CUPTI_SUCCESS) {
      return fail(cupti_status(api_, e, "enabling resource callbacks"));
    }
  }
  if (CUptiResult e = api_.enable_domain(true, subscriber_, CUPTI_CB_DOMAIN_NVTX); e != CUPTI_SUCCESS) {
    return fail(cupti_status(api_, e, "enabling NVTX callbacks"));
  }
  if (CUptiResult e = api_.register_buffer_callbacks(&buffer_requested, &buffer_completed);
      e != CUPTI_SUCCESS) {
    return fail(cupti_status(api_, e, "registering activity buffers"));
  }
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION}) {
    if (CUptiResult e = api_.activity_enable(kind); e != CUPTI_SUCCESS) {
      return fail(cupti_status(api_, e, "enabling CUPTI activity tracing"));
    }
  }
  start_unix_ns_ = now_unix_ns();
  started_ = true;
  return {};
}

Status Tracer::flush() {
  if (!started_) return {};
  FS_CUPTI_CHECK(api_, api_.activity_flush_all(true), "flushing CUPTI activity buffers");
  return {};
}

void Tracer::stop() {
  if (!started_) return;
  if (counters_) counters_->finish();
  (void)api_.activity_flush_all(true);
  for (CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION}) {
    (void)api_.activity_disable(kind);
  }
  (void)api_.unsubscribe(subscriber_);
  subscriber_ = nullptr;
  started_ = false;
  g_active = nullptr;
}

Tracer::ThreadState& Tracer::thread_state() {
  return threads_[std::this_thread::get_id()];
}

void Tracer::push_scope(std::string_view module_path) {
  int scope = 0;
  {
    std::lock_guard lock(mu_);
    scope = scopes_.intern(module_path);
    ThreadState& t = thread_state();
    t.scopes.push_back(scope);
    t.scope_external.push_back(true);
    external_scope_[static_cast<std::uint64_t>(scope) + 1] = scope;
  }
  if (started_) (void)api_.push_external_correlation(static_cast<std::uint64_t>(scope) + 1);
}

void Tracer::pop_scope() {
  {
    std::lock_guard lock(mu_);
    ThreadState& t = thread_state();
    if (t.scopes.empty() || !t.scope_external.back()) {
      ++unbalanced_pops_;
      return;
    }
    t.scopes.pop_back();
    t.scope_external.pop_back();
  }
  std::uint64_t last = 0;
  if (started_) (void)api_.pop_external_correlation(&last);
}

void Tracer::handle_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  switch (domain) {
    case CUPTI_CB_DOMAIN_RUNTIME_API:
    case CUPTI_CB_DOMAIN_DRIVER_API: {
      const auto* cb = static_cast<const CUpti_CallbackData*>(data);
      LaunchKind kind =
          domain == CUPTI_CB_DOMAIN_RUNTIME_API ? runtime_launch_kind(cbid) : driver_launch_kind(cbid);
      if (kind != LaunchKind::kNone) {
        if (cb->callbackSite == CUPTI_API_ENTER) {
          on_launch(*cb, kind == LaunchKind::kGraph);
        } else {
          std::lock_guard lock(mu_);
          ThreadState& t = thread_state();
          if (t.launch_depth > 0 && --t.launch_depth == 0) t.counted_launch = -1;
        }
      } else if (cb->callbackSite == CUPTI_API_ENTER && cb->functionName != nullptr &&
                 (std::strncmp(cb->functionName, "cudaMemcpy", 10) == 0 ||
                  std::strncmp(cb->functionName, "cudaMemset", 10) == 0)) {
        std::lock_guard lock(mu_);
        correlation_scope_[cb->correlationId] = current_scope(thread_state());
      }
      break;
    }
    case CUPTI_CB_DOMAIN_NVTX:
      on_nvtx(cbid, data);
      break;
    case CUPTI_CB_DOMAIN_RESOURCE:
      on_resource(cbid, data);
      break;
    default:
      break;
  }
}

void Tracer::on_launch(const CUpti_CallbackData& cb, bool graph_launch) {
  std::lock_guard lock(mu_);
  ThreadState& t = thread_state();
  correlation_scope_[cb.correlationId] = current_scope(t);
  if (t.launch_depth++ > 0) {
    // A driver launch inside a runtime launch: the same kernel, another correlation id.
    if (t.counted_launch >= 0)
      counted_[static_cast<std::size_t>(t.counted_launch)].correlations.push_back(cb.correlationId);
    return;
  }
  if (!counters_) return;
  if (graph_launch) {
    // Auto-range counters are per kernel launch call; a graph launch runs many kernels in one call.
    ++graph_launches_with_counters_;
    return;
  }
  if (auto ordinal = counters_->on_launch(cb.context, cb.contextUid)) {
    CountedLaunch launch;
    launch.context = cb.contextUid;
    launch.ordinal = *ordinal;
    launch.symbol = cb.symbolName != nullptr ? cb.symbolName : "";
    launch.correlations.push_back(cb.correlationId);
    t.counted_launch = static_cast<long>(counted_.size());
    counted_.push_back(std::move(launch));
  }
}

void Tracer::on_nvtx(CUpti_CallbackId cbid, const void* data) {
  const auto* nvtx = static_cast<const CUpti_NvtxData*>(data);
  std::string name;
  bool push = false;
  switch (cbid) {
    case CUPTI_CBID_NVTX_nvtxRangePushA: {
      const auto* p = static_cast<const nvtxRangePushA_params*>(nvtx->functionParams);
      name = p->message != nullptr ? p->message : "";
      push = true;
      break;
    }
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
      name = nvtx_message(static_cast<const nvtxRangePushEx_params*>(nvtx->functionParams)->eventAttrib);
      push = true;
      break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx:
      name = nvtx_message(
          static_cast<const nvtxDomainRangePushEx_params*>(nvtx->functionParams)->core.eventAttrib);
      push = true;
      break;
    case CUPTI_CBID_NVTX_nvtxRangePop:
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
      break;
    default:
      return;
  }
  std::lock_guard lock(mu_);
  ThreadState& t = thread_state();
  if (push) {
    t.scopes.push_back(scopes_.nvtx_child(current_scope(t), name));
    t.scope_external.push_back(false);
  } else if (!t.scopes.empty() && !t.scope_external.back()) {
    t.scopes.pop_back();
    t.scope_external.pop_back();
  } else {
    ++unbalanced_pops_;
  }
}

void Tracer::on_resource(CUpti_CallbackId cbid, const void* data) {
  const auto* res = static_cast<const CUpti_ResourceData*>(data);
  if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
    std::uint32_t uid = 0;
    if (counters_ && res->context != nullptr) {
      // The context id CUPTI assigns is the contextUid the launch callbacks report.
      if (api_.context_id(res->context, &uid) == CUPTI_SUCCESS) counters_->on_context_destroy(uid);
    }
    return;
  }
  const auto* graph = static_cast<const CUpti_GraphData*>(res->resourceDescriptor);
  if (graph == nullptr) return;
  std::uint64_t node = 0;
  if (api_.graph_node_id(graph->node, &node) != CUPTI_SUCCESS) return;
  std::lock_guard lock(mu_);
  if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED) {
    node_scope_[node] = current_scope(thread_state());
  } else if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) {
    std::uint64_t original = 0;
    if (api_.graph_node_id(graph->originalNode, &original) != CUPTI_SUCCESS) return;
    auto it = node_scope_.find(original);
    if (it != node_scope_.end()) node_scope_[node] = it->second;
  }
}

void Tracer::handle_buffer(std::uint8_t* buffer, std::size_t valid_bytes) {
  std::lock_guard lock(mu_);
  if (!read_activity_buffer(api_, buffer, valid_bytes, batch_).ok()) ++unreadable_buffers_;
}

void Tracer::count_dropped(std::size_t n) {
  std::lock_guard lock(mu_);
  dropped_records_ += static_cast<std::int64_t>(n);
}

Status Tracer::counter_error() const {
  return counters_ ? counters_->error() : Status{};
}

namespace {

// Times count from the session start (CUPTI's clock is CLOCK_REALTIME by default), or from the first
// record when CUPTI's clock is earlier (a replaced timestamp source). `device` is sorted by start.
std::int64_t clock_origin(const std::vector<DeviceActivity>& device, std::int64_t session_start_ns) {
  for (const auto& a : device) {
    if (a.start != 0) return std::min(session_start_ns, static_cast<std::int64_t>(a.start));
  }
  return session_start_ns;
}

// Device records take_run could place only in part; each count becomes a quality issue.
struct Unplaced {
  std::int64_t no_timestamp = 0, unattributed = 0, graph_unmapped = 0;
};

KernelRecord kernel_record(const DeviceActivity& a, std::int64_t origin, Unplaced& unplaced) {
  KernelRecord k;
  k.kind = a.kind;
  k.name = a.name;
  k.device = static_cast<int>(a.device);
  k.stream = a.stream;
  if (a.start == 0 || a.end < a.start) {
    ++unplaced.no_timestamp;
  } else {
    k.start_ns = static_cast<std::int64_t>(a.start) - origin;
    k.duration_ns = static_cast<std::int64_t>(a.end - a.start);
  }
  k.grid = a.grid;
  k.block = a.block;
  k.correlation = a.correlation;
  k.graph_id = a.graph_id;
  k.graph_node_id = static_cast<std::int64_t>(a.graph_node_id);
  k.bytes = static_cast<double>(a.bytes);
  return k;
}

// What the callbacks learnt about where each launch came from.
struct LaunchScopes {
  const std::unordered_map<std::uint64_t, int>& by_graph_node;
  const std::unordered_map<std::uint32_t, int>& by_correlation;
  const std::unordered_map<std::uint32_t, int>& by_external_correlation;
};

// A graph kernel takes its node's scope at capture; others (and graph kernels of an unknown node) that of
// their launch, their runtime call, or their external correlation; the root (0) when none is known.
int scope_of(const DeviceActivity& a, const LaunchScopes& scopes, Unplaced& unplaced) {
  if (a.graph_id != 0) {
    if (auto n = scopes.by_graph_node.find(a.graph_node_id); n != scopes.by_graph_node.end())
      return n->second;
    ++unplaced.graph_unmapped;
  }
  if (auto c = scopes.by_correlation.find(a.correlation); c != scopes.by_correlation.end()) return c->second;
  if (auto r = scopes.by_correlation.find(a.runtime_correlation);
      a.runtime_correlation != 0 && r != scopes.by_correlation.end())
    return r->second;
  if (auto e = scopes.by_external_correlation.find(a.correlation); e != scopes.by_external_correlation.end())
    return e->second;
  ++unplaced.unattributed;
  return 0;
}

// Modules: every scope used and its ancestors; root first. Each kernel gets its id and module.
void add_modules(RunData& run, const ScopeTable& scopes, const std::vector<int>& kernel_scope) {
  std::map<std::string, Id> module_ids;
  auto add_module = [&](const std::string& path, auto& self) -> Id {
    if (auto it = module_ids.find(path); it != module_ids.end()) return it->second;
    Id parent = kNoId;
    if (!path.empty()) {
      std::size_t dot = path.rfind('.');
      parent = self(dot == std::string::npos ? std::string() : path.substr(0, dot), self);
    }
    ModuleRecord m;
    m.id = static_cast<Id>(run.modules.size());
    m.parent_id = parent;
    m.path = path;
    run.modules.push_back(m);
    module_ids[path] = m.id;
    return m.id;
  };
  add_module("", add_module);
  for (std::size_t i = 0; i < run.kernels.size(); ++i) {
    run.kernels[i].id = static_cast<Id>(i);
    run.kernels[i].module_id = add_module(scopes.path(kernel_scope[i]), add_module);
  }
}

void add_issue(RunData& run, std::int64_t n, QualityCode code, const char* detail) {
  if (n > 0) run.quality.emplace_back(code, n, detail);
}

}  // namespace

RunData Tracer::take_run(const RunInfo& info) {
  std::lock_guard lock(mu_);
  RunData run;
  run.info = info;
  run.info.source_kind = SourceKind::kCupti;

  std::unordered_map<std::uint32_t, int> external_corr_scope;
  for (const auto& e : batch_.external) {
    auto it = external_scope_.find(e.external_id);
    if (it != external_scope_.end()) external_corr_scope[e.correlation] = it->second;
  }
  const LaunchScopes launch_scopes{node_scope_, correlation_scope_, external_corr_scope};

  Unplaced unplaced;
  std::vector<int> kernel_scope;
  std::vector<DeviceActivity> device = std::move(batch_.device);
  batch_ = {};
  std::stable_sort(device.begin(), device.end(),
                   [](const auto& a, const auto& b) { return a.start < b.start; });
  const std::int64_t origin = clock_origin(device, start_unix_ns_);
  for (const auto& a : device) {
    run.kernels.push_back(kernel_record(a, origin, unplaced));
    kernel_scope.push_back(scope_of(a, launch_scopes, unplaced));
  }

  CounterJoinResult join;
  if (counters_) {
    join = join_counters(counters_->metrics(), counted_, counters_->take_ranges(), run.kernels);
    counted_.clear();
  }

  // Names are compared mangled (as the launch callbacks report them), then shown demangled.
  for (auto& k : run.kernels) k.name = demangle(k.name);
  add_modules(run, scopes_, kernel_scope);

  add_issue(
      run, unplaced.unattributed, QualityCode::kernel_without_launch_scope,
      "no launch callback or external correlation matched the kernel's correlation id; attributed to the "
      "root");
  add_issue(
      run, unplaced.graph_unmapped, QualityCode::graph_kernel_without_node_scope,
      "the CUDA graph node was created before flopscope attached; attributed by the graph launch instead");
  add_issue(run, unplaced.no_timestamp, QualityCode::kernel_without_timestamp,
            "CUPTI recorded no start/end time");
  add_issue(run, dropped_records_, QualityCode::activity_records_dropped,
            "CUPTI ran out of activity buffer space");
  add_issue(run, unreadable_buffers_, QualityCode::unreadable_activity_buffer,
            "CUPTI could not iterate an activity buffer; the rest of that buffer is lost");
  add_issue(run, unbalanced_pops_, QualityCode::unbalanced_scope_pop, "a range pop without a matching push");
  add_issue(
      run, graph_launches_with_counters_, QualityCode::graph_launch_without_counters,
      "auto-range counters are collected per kernel launch call; kernels run by CUDA graph launches have "
      "none");
  if (counters_) {
    for (auto& q : join.issues()) run.quality.push_back(std::move(q));
    add_issue(run, counters_->dropped_ranges(), QualityCode::counter_ranges_dropped,
              "the range profiler dropped ranges (counter data image full)");
    if (Status s = counters_->error(); !s.ok()) {
      run.quality.emplace_back(QualityCode::counters_not_collected, 1, s.message());
    }
  }
  return run;
}

}  // namespace flopscope::gpu
