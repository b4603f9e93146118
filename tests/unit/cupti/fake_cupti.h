// A CuptiApi for tests: records what the tracer asks for, fails on request, hands out graph node ids
// from a table and plays back counter ranges. Activity buffers are still iterated by the real
// cuptiActivityGetNextRecord, which works without a driver.
#pragma once

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "collector/cupti/cupti_api.h"

namespace flopscope::gpu::testing {

class FakeCupti final : public CuptiApi {
 public:
  CUptiResult subscribe_result = CUPTI_SUCCESS;
  std::string other_subscriber;
  CUptiResult counter_availability_result = CUPTI_SUCCESS;
  std::string chip = "GH100";
  std::map<CUgraphNode, std::uint64_t> node_ids;
  // Values per decoded range; each decode reports as many ranges as launches happened since the start.
  std::vector<std::vector<double>> range_values;
  std::vector<CUpti_ActivityKind> enabled_kinds;
  std::vector<std::uint64_t> external_pushed;
  int starts = 0, decodes = 0, disables = 0;
  std::size_t launches_in_session = 0;  // set by the test before stop (the fake cannot see kernels run)

  CUptiResult subscribe(CUpti_SubscriberHandle* h, CUpti_CallbackFunc, void*, std::string* holder) override {
    if (subscribe_result != CUPTI_SUCCESS) {
      if (holder != nullptr) *holder = other_subscriber;
      return subscribe_result;
    }
    *h = reinterpret_cast<CUpti_SubscriberHandle>(this);
    return CUPTI_SUCCESS;
  }
  CUptiResult unsubscribe(CUpti_SubscriberHandle) override { return CUPTI_SUCCESS; }
  CUptiResult enable_callback(bool, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId) override {
    return CUPTI_SUCCESS;
  }
  CUptiResult enable_domain(bool, CUpti_SubscriberHandle, CUpti_CallbackDomain) override {
    return CUPTI_SUCCESS;
  }
  CUptiResult register_buffer_callbacks(CUpti_BuffersCallbackRequestFunc,
                                        CUpti_BuffersCallbackCompleteFunc) override {
    return CUPTI_SUCCESS;
  }
  CUptiResult activity_enable(CUpti_ActivityKind k) override {
    enabled_kinds.push_back(k);
    return CUPTI_SUCCESS;
  }
  CUptiResult activity_disable(CUpti_ActivityKind) override { return CUPTI_SUCCESS; }
  CUptiResult activity_flush_all(bool) override { return CUPTI_SUCCESS; }
  CUptiResult next_record(uint8_t* b, size_t n, CUpti_Activity** r) override {
    return cuptiActivityGetNextRecord(b, n, r);
  }
  CUptiResult dropped_records(CUcontext, uint32_t, size_t* d) override {
    *d = 0;
    return CUPTI_SUCCESS;
  }
  CUptiResult push_external_correlation(uint64_t id) override {
    external_pushed.push_back(id);
    return CUPTI_SUCCESS;
  }
  CUptiResult pop_external_correlation(uint64_t*) override { return CUPTI_SUCCESS; }
  CUptiResult graph_node_id(CUgraphNode node, uint64_t* id) override {
    auto it = node_ids.find(node);
    if (it == node_ids.end()) return CUPTI_ERROR_INVALID_PARAMETER;
    *id = it->second;
    return CUPTI_SUCCESS;
  }
  CUptiResult graph_id(CUgraph, uint32_t* id) override {
    *id = 1;
    return CUPTI_SUCCESS;
  }
  CUptiResult device_id(CUcontext, uint32_t* id) override {
    *id = 0;
    return CUPTI_SUCCESS;
  }
  CUptiResult context_id(CUcontext ctx, uint32_t* id) override {
    *id = static_cast<uint32_t>(reinterpret_cast<std::uintptr_t>(ctx));
    return CUPTI_SUCCESS;
  }
  CUptiResult finalize() override { return CUPTI_SUCCESS; }
  std::string result_string(CUptiResult r) override { return real_cupti().result_string(r); }

  CUptiResult profiler_initialize() override { return CUPTI_SUCCESS; }
  CUptiResult profiler_deinitialize() override { return CUPTI_SUCCESS; }
  CUptiResult chip_name(size_t, std::string* c) override {
    *c = chip;
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_availability(CUcontext, std::string* image) override {
    image->clear();
    return counter_availability_result;
  }
  CUptiResult range_profiler_enable(CUpti_RangeProfiler_Enable_Params* p) override {
    p->pRangeProfilerObject = reinterpret_cast<CUpti_RangeProfiler_Object*>(this);
    return CUPTI_SUCCESS;
  }
  CUptiResult range_profiler_disable(CUpti_RangeProfiler_Disable_Params*) override {
    ++disables;
    return CUPTI_SUCCESS;
  }
  CUptiResult range_profiler_set_config(CUpti_RangeProfiler_SetConfig_Params* p) override {
    last_range = p->range;
    last_replay = p->replayMode;
    return CUPTI_SUCCESS;
  }
  CUptiResult range_profiler_start(CUpti_RangeProfiler_Start_Params*) override {
    ++starts;
    return CUPTI_SUCCESS;
  }
  CUptiResult range_profiler_stop(CUpti_RangeProfiler_Stop_Params*) override { return CUPTI_SUCCESS; }
  CUptiResult range_profiler_decode(CUpti_RangeProfiler_DecodeData_Params* p) override {
    ++decodes;
    p->numOfRangeDropped = 0;
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_data_size(CUpti_RangeProfiler_GetCounterDataSize_Params* p) override {
    p->counterDataSize = 64;
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_data_initialize(CUpti_RangeProfiler_CounterDataImage_Initialize_Params*) override {
    return CUPTI_SUCCESS;
  }
  CUptiResult counter_data_info(CUpti_RangeProfiler_GetCounterDataInfo_Params* p) override {
    p->numTotalRanges = launches_in_session;
    return CUPTI_SUCCESS;
  }
  CUptiResult host_evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) override {
    std::size_t index = next_range_++;
    for (std::size_t m = 0; m < p->numMetrics; ++m) {
      p->pMetricValues[m] =
          index < range_values.size() && m < range_values[index].size() ? range_values[index][m] : 0;
    }
    return CUPTI_SUCCESS;
  }
  // The host API is real: it works offline and validates the metric names the tests use.
  CUptiResult host_initialize(CUpti_Profiler_Host_Initialize_Params* p) override {
    return real_cupti().host_initialize(p);
  }
  CUptiResult host_deinitialize(CUpti_Profiler_Host_Deinitialize_Params* p) override {
    return real_cupti().host_deinitialize(p);
  }
  CUptiResult host_metric_properties(CUpti_Profiler_Host_GetMetricProperties_Params* p) override {
    return real_cupti().host_metric_properties(p);
  }
  CUptiResult host_config_add_metrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* p) override {
    return real_cupti().host_config_add_metrics(p);
  }
  CUptiResult host_config_image_size(CUpti_Profiler_Host_GetConfigImageSize_Params* p) override {
    return real_cupti().host_config_image_size(p);
  }
  CUptiResult host_config_image(CUpti_Profiler_Host_GetConfigImage_Params* p) override {
    return real_cupti().host_config_image(p);
  }
  CUptiResult host_num_passes(CUpti_Profiler_Host_GetNumOfPasses_Params* p) override {
    return real_cupti().host_num_passes(p);
  }
  CUptiResult host_base_metrics(CUpti_Profiler_Host_GetBaseMetrics_Params* p) override {
    return real_cupti().host_base_metrics(p);
  }
  CUptiResult host_supported_chips(CUpti_Profiler_Host_GetSupportedChips_Params* p) override {
    return real_cupti().host_supported_chips(p);
  }

  CUpti_ProfilerRange last_range = CUPTI_Range_INVALID;
  CUpti_ProfilerReplayMode last_replay = CUPTI_Replay_INVALID;

 private:
  std::size_t next_range_ = 0;
};

}  // namespace flopscope::gpu::testing
