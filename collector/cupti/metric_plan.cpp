#include "collector/cupti/metric_plan.h"

#include <algorithm>
#include <utility>

namespace flopscope::gpu {
namespace {

std::vector<std::string> tensor_metrics(std::string_view chip) {
  // Chosen so that each chip's set stays in one hardware pass (measured with the host API; see
  // docs/gpu.md). Chips not listed get no tensor-core metric rather than a guess.
  if (chip == "GH100") {
    return {"sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum", "sm__ops_path_tensor_op_hgmma_src_fp16.sum",
            "sm__ops_path_tensor_op_hgmma_src_tf32_dst_fp32.sum", "sm__ops_path_tensor_src_fp8.sum"};
  }
  return {};
}

}  // namespace

std::vector<std::string> default_metrics(std::string_view chip) {
  std::vector<std::string> m;
  for (const char* p : {"d", "f", "h"}) {
    for (const char* op : {"add", "mul", "fma"}) {
      m.push_back(std::string("smsp__sass_thread_inst_executed_op_") + p + op + "_pred_on.sum");
    }
  }
  for (auto& t : tensor_metrics(chip)) m.push_back(std::move(t));
  m.push_back("dram__bytes_read.sum");
  m.push_back("dram__bytes_write.sum");
  m.push_back("gpu__time_duration.sum");
  return m;
}

std::vector<std::string> hardware_metrics(std::string_view chip) {
  std::vector<std::string> m = tensor_metrics(chip);
  m.push_back("dram__bytes_read.sum");
  m.push_back("dram__bytes_write.sum");
  m.push_back("gpu__time_duration.sum");
  return m;
}

std::vector<std::string> parse_metrics_option(std::string_view spec, std::string_view chip) {
  if (spec == "default") return default_metrics(chip);
  if (spec == "none" || spec.empty()) return {};
  if (spec == "hardware") return hardware_metrics(chip);
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    std::string_view item = spec.substr(start, comma - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == "default") {
      for (auto& d : default_metrics(chip)) out.push_back(std::move(d));
    } else if (!item.empty()) {
      out.emplace_back(item);
    }
    start = comma + 1;
  }
  return out;
}

StatusOr<HostObject> HostObject::create(CuptiApi& api, const std::string& chip,
                                        const std::string& counter_availability) {
  CUpti_Profiler_Host_Initialize_Params p{};
  p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  p.pCounterAvailabilityImage =
      counter_availability.empty() ? nullptr : reinterpret_cast<const uint8_t*>(counter_availability.data());
  CUptiResult r = api.host_initialize(&p);
  if (r != CUPTI_SUCCESS || p.pHostObject == nullptr) {
    std::string known;
    if (auto chips = supported_chips(api); chips.ok()) {
      for (const auto& c : *chips) known += (known.empty() ? "" : ", ") + c;
    }
    return Unsupported("unsupported chip '" + chip + "' for CUPTI counters (" + api.result_string(r) +
                       (known.empty() ? ")" : "; supported: " + known + ")"));
  }
  return HostObject(&api, p.pHostObject);
}

HostObject::HostObject(HostObject&& o) noexcept : api_(o.api_), object_(std::exchange(o.object_, nullptr)) {}

HostObject& HostObject::operator=(HostObject&& o) noexcept {
  if (this != &o) {
    this->~HostObject();
    api_ = o.api_;
    object_ = std::exchange(o.object_, nullptr);
  }
  return *this;
}

HostObject::~HostObject() {
  if (object_ == nullptr) return;
  CUpti_Profiler_Host_Deinitialize_Params p{};
  p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
  p.pHostObject = object_;
  (void)api_->host_deinitialize(&p);
}

StatusOr<MetricPlan> plan_metrics(CuptiApi& api, const std::string& chip,
                                  const std::vector<std::string>& metrics,
                                  const std::string& counter_availability, std::size_t max_passes) {
  MetricPlan plan;
  plan.chip = chip;
  plan.metrics = metrics;
  if (metrics.empty()) return plan;
  FS_ASSIGN_OR_RETURN(HostObject created, HostObject::create(api, chip, counter_availability));
  plan.host = std::make_shared<HostObject>(std::move(created));
  const HostObject& host = *plan.host;

  for (const auto& name : metrics) {
    CUpti_Profiler_Host_GetMetricProperties_Params p{};
    p.structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
    p.pHostObject = host.get();
    p.pMetricName = name.c_str();
    CUptiResult r = api.host_metric_properties(&p);
    if (r != CUPTI_SUCCESS) {
      return InvalidArgument("unknown metric '" + name + "' for chip " + chip +
                             " (flopscope metrics --chip " + chip + " --all lists the valid names)");
    }
    MetricInfo info;
    info.name = name;
    info.description = p.pDescription != nullptr ? p.pDescription : "";
    info.hw_unit = p.pHwUnit != nullptr ? p.pHwUnit : "";
    info.dim_unit = p.pDimUnit != nullptr ? p.pDimUnit : "";
    info.role = metric_role(name);
    plan.info.push_back(std::move(info));
  }

  std::vector<const char*> names;
  for (const auto& m : metrics) names.push_back(m.c_str());
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
  add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
  add.pHostObject = host.get();
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  FS_CUPTI_CHECK(api, api.host_config_add_metrics(&add), "adding metrics to the counter configuration");

  CUpti_Profiler_Host_GetConfigImageSize_Params size{};
  size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
  size.pHostObject = host.get();
  FS_CUPTI_CHECK(api, api.host_config_image_size(&size), "sizing the counter configuration");
  plan.config_image.assign(size.configImageSize, '\0');

  CUpti_Profiler_Host_GetConfigImage_Params image{};
  image.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
  image.pHostObject = host.get();
  image.configImageSize = plan.config_image.size();
  image.pConfigImage = reinterpret_cast<uint8_t*>(plan.config_image.data());
  FS_CUPTI_CHECK(api, api.host_config_image(&image), "building the counter configuration");

  CUpti_Profiler_Host_GetNumOfPasses_Params passes{};
  passes.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
  passes.configImageSize = plan.config_image.size();
  passes.pConfigImage = reinterpret_cast<uint8_t*>(plan.config_image.data());
  FS_CUPTI_CHECK(api, api.host_num_passes(&passes), "counting counter passes");
  plan.passes = passes.numOfPasses;
  if (max_passes != 0 && plan.passes > max_passes) {
    return InvalidArgument("the metric set needs " + std::to_string(plan.passes) + " passes on " + chip +
                           " (limit " + std::to_string(max_passes) + "); each pass replays every kernel");
  }
  return plan;
}

StatusOr<std::vector<std::string>> supported_chips(CuptiApi& api) {
  CUpti_Profiler_Host_GetSupportedChips_Params p{};
  p.structSize = CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE;
  FS_CUPTI_CHECK(api, api.host_supported_chips(&p), "listing supported chips");
  std::vector<std::string> chips;
  for (std::size_t i = 0; i < p.numChips; ++i) chips.emplace_back(p.ppChipNames[i]);
  return chips;
}

}  // namespace flopscope::gpu

namespace flopscope::gpu {

StatusOr<std::vector<std::string>> chip_base_metrics(CuptiApi& api, const std::string& chip) {
  FS_ASSIGN_OR_RETURN(HostObject host, HostObject::create(api, chip, ""));
  std::vector<std::string> names;
  for (CUpti_MetricType type :
       {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
    CUpti_Profiler_Host_GetBaseMetrics_Params p{};
    p.structSize = CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE;
    p.pHostObject = host.get();
    p.metricType = type;
    FS_CUPTI_CHECK(api, api.host_base_metrics(&p), "listing the chip's metrics");
    for (std::size_t i = 0; i < p.numMetrics; ++i) names.emplace_back(p.ppMetricNames[i]);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace flopscope::gpu
