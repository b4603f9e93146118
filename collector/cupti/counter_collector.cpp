#include "collector/cupti/counter_collector.h"

#include <utility>

namespace flopscope::gpu {

CounterCollector::CounterCollector(CuptiApi& api, std::vector<std::string> metrics, std::size_t max_passes,
                                   std::size_t ranges_per_session)
    : api_(api),
      metrics_(std::move(metrics)),
      max_passes_(max_passes),
      ranges_per_session_(ranges_per_session) {
  for (const auto& m : metrics_) names_.push_back(m.c_str());
}

CounterCollector::~CounterCollector() {
  finish();
}

std::optional<std::uint64_t> CounterCollector::on_launch(CUcontext ctx, std::uint32_t uid) {
  std::lock_guard lock(mu_);
  if (metrics_.empty()) return std::nullopt;
  auto [it, inserted] = contexts_.try_emplace(uid);
  Context& c = it->second;
  if (inserted) {
    c.ctx = ctx;
    c.uid = uid;
    if (Status s = setup(c); !s.ok()) fail(c, s);
  }
  if (c.failed) return std::nullopt;
  if (c.in_session >= ranges_per_session_) {
    if (Status s = decode(c); !s.ok()) {
      fail(c, s);
      return std::nullopt;
    }
    if (Status s = configure_and_start(c); !s.ok()) {
      fail(c, s);
      return std::nullopt;
    }
  }
  ++c.in_session;
  return c.next_ordinal++;
}

Status CounterCollector::setup(Context& c) {
  if (!profiler_initialized_) {
    FS_CUPTI_CHECK(api_, api_.profiler_initialize(), "initializing the CUPTI profiler");
    profiler_initialized_ = true;
  }
  std::uint32_t device = 0;
  FS_CUPTI_CHECK(api_, api_.device_id(c.ctx, &device), "finding the context's device");
  std::string chip;
  FS_CUPTI_CHECK(api_, api_.chip_name(device, &chip), "reading the GPU's chip name");
  std::string availability;
  FS_CUPTI_CHECK(api_, api_.counter_availability(c.ctx, &availability), "reading counter availability");
  FS_ASSIGN_OR_RETURN(c.plan, plan_metrics(api_, chip, metrics_, availability, max_passes_));
  passes_ = c.plan.passes;

  CUpti_RangeProfiler_Enable_Params enable{};
  enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
  enable.ctx = c.ctx;
  FS_CUPTI_CHECK(api_, api_.range_profiler_enable(&enable), "enabling the range profiler");
  c.object = enable.pRangeProfilerObject;

  CUpti_RangeProfiler_GetCounterDataSize_Params size{};
  size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
  size.pRangeProfilerObject = c.object;
  size.pMetricNames = names_.data();
  size.numMetrics = names_.size();
  size.maxNumOfRanges = ranges_per_session_;
  size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(ranges_per_session_);
  FS_CUPTI_CHECK(api_, api_.counter_data_size(&size), "sizing the counter data image");
  c.image.assign(size.counterDataSize, '\0');
  return configure_and_start(c);
}

Status CounterCollector::configure_and_start(Context& c) {
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{};
  init.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
  init.pRangeProfilerObject = c.object;
  init.counterDataSize = c.image.size();
  init.pCounterData = reinterpret_cast<std::uint8_t*>(c.image.data());
  FS_CUPTI_CHECK(api_, api_.counter_data_initialize(&init), "initializing the counter data image");

  CUpti_RangeProfiler_SetConfig_Params config{};
  config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
  config.pRangeProfilerObject = c.object;
  config.configSize = c.plan.config_image.size();
  config.pConfig = reinterpret_cast<const std::uint8_t*>(c.plan.config_image.data());
  config.counterDataImageSize = c.image.size();
  config.pCounterDataImage = reinterpret_cast<std::uint8_t*>(c.image.data());
  config.range = CUPTI_AutoRange;
  config.replayMode = CUPTI_KernelReplay;
  config.maxRangesPerPass = ranges_per_session_;
  config.numNestingLevels = 1;
  config.minNestingLevel = 1;
  config.passIndex = 0;
  config.targetNestingLevel = 1;
  FS_CUPTI_CHECK(api_, api_.range_profiler_set_config(&config), "configuring the range profiler");

  CUpti_RangeProfiler_Start_Params start{};
  start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
  start.pRangeProfilerObject = c.object;
  FS_CUPTI_CHECK(api_, api_.range_profiler_start(&start), "starting the range profiler");
  c.running = true;
  return {};
}

Status CounterCollector::decode(Context& c) {
  if (!c.running) return {};
  c.running = false;
  CUpti_RangeProfiler_Stop_Params stop{};
  stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
  stop.pRangeProfilerObject = c.object;
  FS_CUPTI_CHECK(api_, api_.range_profiler_stop(&stop), "stopping the range profiler");

  CUpti_RangeProfiler_DecodeData_Params dec{};
  dec.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
  dec.pRangeProfilerObject = c.object;
  FS_CUPTI_CHECK(api_, api_.range_profiler_decode(&dec), "decoding counter data");
  dropped_ += static_cast<std::int64_t>(dec.numOfRangeDropped);

  CUpti_RangeProfiler_GetCounterDataInfo_Params info{};
  info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
  info.pCounterDataImage = reinterpret_cast<const std::uint8_t*>(c.image.data());
  info.counterDataImageSize = c.image.size();
  FS_CUPTI_CHECK(api_, api_.counter_data_info(&info), "reading counter data");

  for (std::size_t i = 0; i < info.numTotalRanges; ++i) {
    CounterRange range;
    range.context = c.uid;
    range.ordinal = c.session_base + i;
    range.values.assign(names_.size(), 0.0);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{};
    eval.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
    eval.pHostObject = c.plan.host->get();
    eval.pCounterDataImage = reinterpret_cast<const std::uint8_t*>(c.image.data());
    eval.counterDataImageSize = c.image.size();
    eval.rangeIndex = i;
    eval.ppMetricNames = names_.data();
    eval.numMetrics = names_.size();
    eval.pMetricValues = range.values.data();
    FS_CUPTI_CHECK(api_, api_.host_evaluate(&eval), "evaluating counter values");
    ranges_.push_back(std::move(range));
  }
  c.session_base += c.in_session;
  c.in_session = 0;
  return {};
}

void CounterCollector::teardown(Context& c) {
  if (c.object == nullptr) return;
  CUpti_RangeProfiler_Disable_Params d{};
  d.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
  d.pRangeProfilerObject = c.object;
  (void)api_.range_profiler_disable(&d);
  c.object = nullptr;
}

void CounterCollector::fail(Context& c, const Status& s) {
  c.failed = true;
  if (error_.ok()) error_ = s;
  teardown(c);
}

void CounterCollector::on_context_destroy(std::uint32_t uid) {
  std::lock_guard lock(mu_);
  auto it = contexts_.find(uid);
  if (it == contexts_.end() || it->second.failed) return;
  if (Status s = decode(it->second); !s.ok()) fail(it->second, s);
  teardown(it->second);
}

void CounterCollector::finish() {
  std::lock_guard lock(mu_);
  for (auto& [uid, c] : contexts_) {
    if (c.failed || c.object == nullptr) continue;
    if (Status s = decode(c); !s.ok()) fail(c, s);
    teardown(c);
  }
  if (profiler_initialized_) {
    (void)api_.profiler_deinitialize();
    profiler_initialized_ = false;
  }
}

std::vector<CounterRange> CounterCollector::take_ranges() {
  std::lock_guard lock(mu_);
  return std::exchange(ranges_, {});
}

Status CounterCollector::error() const {
  std::lock_guard lock(mu_);
  return error_;
}

}  // namespace flopscope::gpu
