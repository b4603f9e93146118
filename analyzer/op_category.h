// What kind of work an op is, for summaries that compare runs by kind (the cross-device diff's category
// table): GEMM, attention, norm, elementwise, communication, memory, other. One rule, from two the project
// already has: the FLOPs registry's op families (analyzer/flops: which family file registers the op) and the
// kernel categories of analyzer/timeline (communication by name; memcpy and memset kernels are memory).
#pragma once

#include <string_view>

namespace flopscope {

enum class OpCategory { kGemm, kAttention, kNorm, kElementwise, kCommunication, kMemory, kOther };
inline constexpr int kOpCategoryCount = 7;
const char* to_string(OpCategory c);  // "GEMM", "attention", "norm", "elementwise", ...

// By op name (an aggregate row's name: "aten::addmm", or "kernel NAME" for kernels no known op launched):
//   GEMM: the matmul and convolution families (convolutions run as implicit GEMMs);
//   attention: the attention family (scaled dot-product and flash/efficient attention kernels);
//   norm: the normalization family; elementwise: the elementwise, activation, softmax, reduction and
//   pooling families (work per element);
//   communication: collectives (c10d ops, NCCL/RCCL names: is_communication_kernel);
//   memory: the data-movement family (copies, casts, concatenation, views), allocations (aten::empty...),
//   memcpy and memset kernels;
//   other: everything else, and kernels of no op that are none of the above.
OpCategory op_category(std::string_view op_name);

// An op-signature row of kernels no known op launched: db/model/run_aggregates names it "kernel NAME".
bool is_orphan_kernel_row(std::string_view op_name);

}  // namespace flopscope
