// Every CUPTI call flopscope makes goes through CuptiApi, so that the tracing, attribution and counter
// logic can be driven by a fake on machines without a GPU. RealCuptiApi forwards to libcupti.
#pragma once

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <memory>
#include <string>
#include <string_view>

#include "db/model/status.h"

namespace flopscope::gpu {

class CuptiApi {
 public:
  virtual ~CuptiApi() = default;

  // Callback API. `name` identifies flopscope to other subscribers; `holder` receives the name of the
  // subscriber already active when CUPTI refuses a second one.
  virtual CUptiResult subscribe(CUpti_SubscriberHandle* handle, CUpti_CallbackFunc fn, void* user,
                                std::string* holder) = 0;
  virtual CUptiResult unsubscribe(CUpti_SubscriberHandle handle) = 0;
  virtual CUptiResult enable_callback(bool on, CUpti_SubscriberHandle h, CUpti_CallbackDomain d,
                                      CUpti_CallbackId id) = 0;
  virtual CUptiResult enable_domain(bool on, CUpti_SubscriberHandle h, CUpti_CallbackDomain d) = 0;

  // Activity API.
  virtual CUptiResult register_buffer_callbacks(CUpti_BuffersCallbackRequestFunc requested,
                                                CUpti_BuffersCallbackCompleteFunc completed) = 0;
  virtual CUptiResult activity_enable(CUpti_ActivityKind kind) = 0;
  virtual CUptiResult activity_disable(CUpti_ActivityKind kind) = 0;
  virtual CUptiResult activity_flush_all(bool forced) = 0;
  virtual CUptiResult next_record(uint8_t* buffer, size_t valid_bytes, CUpti_Activity** record) = 0;
  virtual CUptiResult dropped_records(CUcontext ctx, uint32_t stream, size_t* dropped) = 0;
  virtual CUptiResult push_external_correlation(uint64_t id) = 0;
  virtual CUptiResult pop_external_correlation(uint64_t* id) = 0;
  virtual CUptiResult graph_node_id(CUgraphNode node, uint64_t* id) = 0;
  virtual CUptiResult graph_id(CUgraph graph, uint32_t* id) = 0;
  virtual CUptiResult device_id(CUcontext ctx, uint32_t* id) = 0;
  virtual CUptiResult context_id(CUcontext ctx, uint32_t* id) = 0;
  virtual CUptiResult finalize() = 0;
  virtual std::string result_string(CUptiResult r) = 0;

  // Profiler (target side, needs a device).
  virtual CUptiResult profiler_initialize() = 0;
  virtual CUptiResult profiler_deinitialize() = 0;
  virtual CUptiResult chip_name(size_t device_index, std::string* chip) = 0;
  virtual CUptiResult counter_availability(CUcontext ctx, std::string* image) = 0;
  virtual CUptiResult range_profiler_enable(CUpti_RangeProfiler_Enable_Params* p) = 0;
  virtual CUptiResult range_profiler_disable(CUpti_RangeProfiler_Disable_Params* p) = 0;
  virtual CUptiResult range_profiler_set_config(CUpti_RangeProfiler_SetConfig_Params* p) = 0;
  virtual CUptiResult range_profiler_start(CUpti_RangeProfiler_Start_Params* p) = 0;
  virtual CUptiResult range_profiler_stop(CUpti_RangeProfiler_Stop_Params* p) = 0;
  virtual CUptiResult range_profiler_decode(CUpti_RangeProfiler_DecodeData_Params* p) = 0;
  virtual CUptiResult counter_data_size(CUpti_RangeProfiler_GetCounterDataSize_Params* p) = 0;
  virtual CUptiResult counter_data_initialize(CUpti_RangeProfiler_CounterDataImage_Initialize_Params* p) = 0;
  virtual CUptiResult counter_data_info(CUpti_RangeProfiler_GetCounterDataInfo_Params* p) = 0;

  // Profiler Host API (works offline, without a GPU).
  virtual CUptiResult host_initialize(CUpti_Profiler_Host_Initialize_Params* p) = 0;
  virtual CUptiResult host_deinitialize(CUpti_Profiler_Host_Deinitialize_Params* p) = 0;
  virtual CUptiResult host_metric_properties(CUpti_Profiler_Host_GetMetricProperties_Params* p) = 0;
  virtual CUptiResult host_config_add_metrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* p) = 0;
  virtual CUptiResult host_config_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params* p) = 0;
  virtual CUptiResult host_config_image(CUpti_Profiler_Host_GetConfigImage_Params* p) = 0;
  virtual CUptiResult host_num_passes(CUpti_Profiler_Host_GetNumOfPasses_Params* p) = 0;
  virtual CUptiResult host_evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) = 0;
  virtual CUptiResult host_base_metrics(CUpti_Profiler_Host_GetBaseMetrics_Params* p) = 0;
  virtual CUptiResult host_supported_chips(CUpti_Profiler_Host_GetSupportedChips_Params* p) = 0;
};

// The process-wide libcupti.
CuptiApi& real_cupti();

// Turns a failed CUPTI call into a Status carrying CUPTI's own message, plus the fix for the failures a
// user can act on (another profiler attached, counters restricted to admins, counters busy).
Status cupti_status(CuptiApi& api, CUptiResult result, std::string_view what);

}  // namespace flopscope::gpu

// Checked CUPTI call inside a function returning Status or StatusOr.
#define FS_CUPTI_CHECK(api, call, what)                                       \
  do {                                                                        \
    CUptiResult fs_cupti_result_ = (call);                                    \
    if (fs_cupti_result_ != CUPTI_SUCCESS)                                    \
      return ::flopscope::gpu::cupti_status((api), fs_cupti_result_, (what)); \
  } while (false)
