// Synthetic CUPTI callbacks (launch API enter/exit, NVTX push/pop, graph node resources) for driving
// a Tracer in tests.
#pragma once

#include <nvtx3/nvToolsExt.h>
// CUPTI's NVTX callback parameter structs; needs the NVTX types above.
#include <generated_nvtx_meta.h>

#include <cstdint>

#include "collector/cupti/tracer.h"

namespace flopscope::gpu::testing {

// Synthesises the callbacks CUPTI would deliver.
class Driver {
 public:
  explicit Driver(Tracer& t) : t_(t) {}

  void launch(std::uint32_t correlation, const char* symbol, bool runtime = true, bool leave = true) {
    CUpti_CallbackData cb{};
    cb.callbackSite = CUPTI_API_ENTER;
    cb.correlationId = correlation;
    cb.symbolName = symbol;
    cb.context = reinterpret_cast<CUcontext>(std::uintptr_t{1});
    cb.contextUid = 1;
    auto domain = runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    CUpti_CallbackId id = runtime ? CUpti_CallbackId{CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000}
                                  : CUpti_CallbackId{CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx};
    t_.handle_callback(domain, id, &cb);
    if (leave) exit(correlation, runtime);
  }
  void exit(std::uint32_t correlation, bool runtime = true) {
    CUpti_CallbackData cb{};
    cb.callbackSite = CUPTI_API_EXIT;
    cb.correlationId = correlation;
    auto domain = runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    CUpti_CallbackId id = runtime ? CUpti_CallbackId{CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000}
                                  : CUpti_CallbackId{CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx};
    t_.handle_callback(domain, id, &cb);
  }
  void runtime_call(std::uint32_t correlation, const char* function, CUpti_CallbackId cbid) {
    CUpti_CallbackData cb{};
    cb.callbackSite = CUPTI_API_ENTER;
    cb.correlationId = correlation;
    cb.functionName = function;
    t_.handle_callback(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &cb);
    cb.callbackSite = CUPTI_API_EXIT;
    t_.handle_callback(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &cb);
  }
  void graph_launch(std::uint32_t correlation) {
    CUpti_CallbackData cb{};
    cb.callbackSite = CUPTI_API_ENTER;
    cb.correlationId = correlation;
    t_.handle_callback(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, &cb);
    cb.callbackSite = CUPTI_API_EXIT;
    t_.handle_callback(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, &cb);
  }
  void push(const char* name) {
    nvtxRangePushA_params p{name};
    CUpti_NvtxData d{"nvtxRangePushA", &p, nullptr};
    t_.handle_callback(CUPTI_CB_DOMAIN_NVTX, CUPTI_CBID_NVTX_nvtxRangePushA, &d);
  }
  void push_ex(const char* name) {
    nvtxEventAttributes_t attr{};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = name;
    nvtxDomainRangePushEx_params p{};
    p.core.eventAttrib = &attr;
    CUpti_NvtxData d{"nvtxDomainRangePushEx", &p, nullptr};
    t_.handle_callback(CUPTI_CB_DOMAIN_NVTX, CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &d);
  }
  void pop() {
    nvtxRangePop_params p{};
    CUpti_NvtxData d{"nvtxRangePop", &p, nullptr};
    t_.handle_callback(CUPTI_CB_DOMAIN_NVTX, CUPTI_CBID_NVTX_nvtxRangePop, &d);
  }
  void graph_node(CUpti_CallbackId cbid, CUgraphNode node, CUgraphNode original = nullptr) {
    CUpti_GraphData g{};
    g.node = node;
    g.originalNode = original;
    CUpti_ResourceData r{};
    r.resourceDescriptor = &g;
    t_.handle_callback(CUPTI_CB_DOMAIN_RESOURCE, cbid, &r);
  }

 private:
  Tracer& t_;
};

}  // namespace flopscope::gpu::testing
