// RealCuptiApi: one-line forwards to libcupti, plus the Status conversion shared by every caller.
#include <cstring>
#include <vector>

#include "collector/cupti/cupti_api.h"

namespace flopscope::gpu {
namespace {

class RealCuptiApi final : public CuptiApi {
 public:
  CUptiResult subscribe(CUpti_SubscriberHandle* handle, CUpti_CallbackFunc fn, void* user,
                        std::string* holder) override {
    char old_name[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = {};
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "flopscope";
    params.oldSubscriberName = old_name;
    params.oldSubscriberSize = sizeof(old_name) - 1;
    CUptiResult r = cuptiSubscribe_v2(handle, fn, user, &params);
    if (holder != nullptr) *holder = old_name;
    return r;
  }
  CUptiResult unsubscribe(CUpti_SubscriberHandle h) override { return cuptiUnsubscribe(h); }
  CUptiResult enable_callback(bool on, CUpti_SubscriberHandle h, CUpti_CallbackDomain d,
                              CUpti_CallbackId id) override {
    return cuptiEnableCallback(on ? 1 : 0, h, d, id);
  }
  CUptiResult enable_domain(bool on, CUpti_SubscriberHandle h, CUpti_CallbackDomain d) override {
    return cuptiEnableDomain(on ? 1 : 0, h, d);
  }
  CUptiResult register_buffer_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                        CUpti_BuffersCallbackCompleteFunc completed) override {
    return cuptiActivityRegisterCallbacks(requested, completed);
  }
  CUptiResult activity_enable(CUpti_ActivityKind kind) override { return cuptiActivityEnable(kind); }
  CUptiResult activity_disable(CUpti_ActivityKind kind) override { return cuptiActivityDisable(kind); }
  CUptiResult activity_flush_all(bool forced) override {
    return cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
  }
  CUptiResult next_record(uint8_t* buffer, size_t valid, CUpti_Activity** record) override {
    return cuptiActivityGetNextRecord(buffer, valid, record);
  }
  CUptiResult dropped_records(CUcontext ctx, uint32_t stream, size_t* dropped) override {
    return cuptiActivityGetNumDroppedRecords(ctx, stream, dropped);
  }
  CUptiResult push_external_correlation(uint64_t id) override {
    return cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, id);
  }
  CUptiResult pop_external_correlation(uint64_t* id) override {
    return cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, id);
  }
  CUptiResult graph_node_id(CUgraphNode node, uint64_t* id) override { return cuptiGetGraphNodeId(node, id); }
  CUptiResult graph_id(CUgraph graph, uint32_t* id) override { return cuptiGetGraphId(graph, id); }
  CUptiResult device_id(CUcontext ctx, uint32_t* id) override { return cuptiGetDeviceId(ctx, id); }
  CUptiResult context_id(CUcontext ctx, uint32_t* id) override { return cuptiGetContextId(ctx, id); }
  CUptiResult finalize() override { return cuptiFinalize(); }
  std::string result_string(CUptiResult r) override {
    const char* s = nullptr;
    if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || s == nullptr)
      return "CUPTI error " + std::to_string(r);
    return s;
  }

  CUptiResult profiler_initialize() override {
    CUpti_Profiler_Initialize_Params p{CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
    return cuptiProfilerInitialize(&p);
  }
  CUptiResult profiler_deinitialize() override {
    CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE, nullptr};
    return cuptiProfilerDeInitialize(&p);
  }
  CUptiResult chip_name(size_t device_index, std::string* chip) override {
    CUpti_Device_GetChipName_Params p{};
    p.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    p.deviceIndex = device_index;
    CUptiResult r = cuptiDeviceGetChipName(&p);
    if (r == CUPTI_SUCCESS && p.pChipName != nullptr) *chip = p.pChipName;
    return r;
  }
  CUptiResult counter_availability(CUcontext ctx, std::string* image) override {
    CUpti_Profiler_GetCounterAvailability_Params p{};
    p.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    p.ctx = ctx;
    CUptiResult r = cuptiProfilerGetCounterAvailability(&p);
    if (r != CUPTI_SUCCESS) return r;
    image->assign(p.counterAvailabilityImageSize, '\0');
    p.pCounterAvailabilityImage = reinterpret_cast<uint8_t*>(image->data());
    return cuptiProfilerGetCounterAvailability(&p);
  }
  CUptiResult range_profiler_enable(CUpti_RangeProfiler_Enable_Params* p) override {
    return cuptiRangeProfilerEnable(p);
  }
  CUptiResult range_profiler_disable(CUpti_RangeProfiler_Disable_Params* p) override {
    return cuptiRangeProfilerDisable(p);
  }
  CUptiResult range_profiler_set_config(CUpti_RangeProfiler_SetConfig_Params* p) override {
    return cuptiRangeProfilerSetConfig(p);
  }
  CUptiResult range_profiler_start(CUpti_RangeProfiler_Start_Params* p) override {
    return cuptiRangeProfilerStart(p);
  }
  CUptiResult range_profiler_stop(CUpti_RangeProfiler_Stop_Params* p) override {
    return cuptiRangeProfilerStop(p);
  }
  CUptiResult range_profiler_decode(CUpti_RangeProfiler_DecodeData_Params* p) override {
    return cuptiRangeProfilerDecodeData(p);
  }
  CUptiResult counter_data_size(CUpti_RangeProfiler_GetCounterDataSize_Params* p) override {
    return cuptiRangeProfilerGetCounterDataSize(p);
  }
  CUptiResult counter_data_initialize(CUpti_RangeProfiler_CounterDataImage_Initialize_Params* p) override {
    return cuptiRangeProfilerCounterDataImageInitialize(p);
  }
  CUptiResult counter_data_info(CUpti_RangeProfiler_GetCounterDataInfo_Params* p) override {
    return cuptiRangeProfilerGetCounterDataInfo(p);
  }

  CUptiResult host_initialize(CUpti_Profiler_Host_Initialize_Params* p) override {
    return cuptiProfilerHostInitialize(p);
  }
  CUptiResult host_deinitialize(CUpti_Profiler_Host_Deinitialize_Params* p) override {
    return cuptiProfilerHostDeinitialize(p);
  }
  CUptiResult host_metric_properties(CUpti_Profiler_Host_GetMetricProperties_Params* p) override {
    return cuptiProfilerHostGetMetricProperties(p);
  }
  CUptiResult host_config_add_metrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* p) override {
    return cuptiProfilerHostConfigAddMetrics(p);
  }
  CUptiResult host_config_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params* p) override {
    return cuptiProfilerHostGetConfigImageSize(p);
  }
  CUptiResult host_config_image(CUpti_Profiler_Host_GetConfigImage_Params* p) override {
    return cuptiProfilerHostGetConfigImage(p);
  }
  CUptiResult host_num_passes(CUpti_Profiler_Host_GetNumOfPasses_Params* p) override {
    return cuptiProfilerHostGetNumOfPasses(p);
  }
  CUptiResult host_evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) override {
    return cuptiProfilerHostEvaluateToGpuValues(p);
  }
  CUptiResult host_base_metrics(CUpti_Profiler_Host_GetBaseMetrics_Params* p) override {
    return cuptiProfilerHostGetBaseMetrics(p);
  }
  CUptiResult host_supported_chips(CUpti_Profiler_Host_GetSupportedChips_Params* p) override {
    return cuptiProfilerHostGetSupportedChips(p);
  }
};

}  // namespace

CuptiApi& real_cupti() {
  static RealCuptiApi api;
  return api;
}

Status cupti_status(CuptiApi& api, CUptiResult result, std::string_view what) {
  std::string msg = std::string(what) + ": " + api.result_string(result);
  switch (result) {
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      return Unavailable(msg +
                         " (another CUDA profiler is attached to this process: nsys, ncu, "
                         "compute-sanitizer or torch.profiler; run without it)");
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return Unavailable(msg +
                         " (ERR_NVGPUCTRPERM: GPU performance counters are restricted to admin "
                         "users; run as root, or set the driver option "
                         "NVreg_RestrictProfilingToAdminUsers=0 and reload the driver; or use "
                         "--metrics none for tracing only)");
    case CUPTI_ERROR_HARDWARE_BUSY:
      return Unavailable(msg +
                         " (the performance counters are in use, e.g. by DCGM or dcgm-exporter; "
                         "pause it or use --metrics none)");
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
      return Unsupported(msg +
                         " (this GPU or configuration does not support CUPTI profiling; "
                         "use --metrics none for tracing only)");
    case CUPTI_ERROR_INVALID_METRIC_NAME:
      return InvalidArgument(msg);
    default:
      return Unavailable(msg);
  }
}

}  // namespace flopscope::gpu
