// The records of a run: what every capture path produces and every analysis consumes. Plain structs with
// value semantics; no SQLite, Torch, CUPTI or Qt types. Times are nanoseconds, sizes bytes.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace flopscope {

using Id = std::int64_t;
inline constexpr Id kNoId = -1;

// How a run was captured.
enum class SourceKind { kTorchCpu, kCupti, kKineto, kNsys, kNcu, kUnknown };

// Where an op's FLOPs came from.
enum class FlopsSource {
  kNone,      // no formula for this op and no counter: unknown, never silently zero
  kFormula,   // analytic formula from shapes (analyzer/flops)
  kMeasured,  // hardware counters
  kNested,    // inside an op whose own count already covers this work; excluded from totals
};

enum class Severity { kInfo, kWarning, kError };

const char* to_string(SourceKind kind);
const char* to_string(FlopsSource source);
const char* to_string(Severity severity);
SourceKind source_kind_from_string(const std::string& s);
FlopsSource flops_source_from_string(const std::string& s);
Severity severity_from_string(const std::string& s);

// One argument of an op call as a profiler sees it, modelled on Kineto's "Input Dims" / "Input type" /
// "Concrete Inputs" so that every capture path feeds the FLOPs registry the same way.
struct OpArg {
  bool is_tensor = false;
  std::string dtype;                // normalised: float32, float16, bfloat16, int64, bool, ... ("" if none)
  std::vector<std::int64_t> shape;  // tensors only
  std::string value;                // scalars and lists as text: "1", "[1, 1]", "False", "" when unknown

  bool operator==(const OpArg&) const = default;
};

struct RunInfo {
  std::string tool_version;
  SourceKind source_kind = SourceKind::kUnknown;
  std::string source_path;    // the model or trace the run came from
  std::string source_sha256;  // hex digest of that file
  std::string device;         // "cpu", "NVIDIA H100 80GB HBM3", ...
  std::string host;
  std::string input_spec;  // e.g. "int64[1,4096]"; several joined by "; "
  int iterations = 0;
  int warmup = 0;
  int threads = 0;
  std::int64_t created_unix_ns = 0;
  std::string command_line;
  // How the iterations of an imported trace were found ("ProfilerStep#", "repeated top-level module calls",
  // "--iteration-marker 'x'", ...); "" when the capture ran them itself (profile, trace) or found none.
  std::string iterations_from;
};

struct ModuleRecord {
  Id id = kNoId;
  Id parent_id = kNoId;  // kNoId for the root
  std::string path;      // dotted, as named_modules() gives it; "" for the root
  std::string type;      // class name, e.g. "Linear"
};

struct OpRecord {
  Id id = kNoId;
  int iteration = 0;
  std::int64_t sequence = 0;  // order of start within the run
  std::string name;           // e.g. "aten::linear"
  std::int64_t thread = 0;
  std::int64_t start_ns = 0;  // from the run's start
  std::int64_t duration_ns = 0;
  Id module_id = kNoId;
  Id parent_op_id = kNoId;  // the op that called this one, if any
  int depth = 0;            // 0 for ops called from the model code itself
  std::vector<OpArg> args;
  double flops = 0;
  double macs = 0;
  double bytes_read = 0;
  double bytes_written = 0;
  FlopsSource flops_source = FlopsSource::kNone;
  std::string flops_note;  // why a count is an estimate, or which formula was used
};

// True for ops whose FLOPs and bytes enter totals: counted once, at the outermost op that has a count.
// The one rule, for every record that carries a FLOPs source (OpRecord, the summary's compact FactOp).
inline bool counts_toward_totals(FlopsSource source) {
  return source == FlopsSource::kFormula || source == FlopsSource::kMeasured;
}
inline bool counts_toward_totals(const OpRecord& op) {
  return counts_toward_totals(op.flops_source);
}

enum class KernelKind { kKernel, kMemcpy, kMemset };
const char* to_string(KernelKind kind);
KernelKind kernel_kind_from_string(const std::string& s);

// The host runtime call that launched a kernel (cudaLaunchKernel, cudaMemcpyAsync, cudaGraphLaunch, ...), on
// the host clock from the run's start; duration_ns -1 when the source recorded none (the call is unknown).
struct RuntimeCall {
  std::string name;
  std::int64_t start_ns = 0;
  std::int64_t duration_ns = -1;
  std::int64_t thread = 0;
  bool known() const { return duration_ns >= 0; }
};

struct KernelRecord {
  Id id = kNoId;
  KernelKind kind = KernelKind::kKernel;
  std::string name;
  int device = 0;
  std::int64_t stream = 0;
  std::int64_t start_ns = 0;
  std::int64_t duration_ns = 0;
  std::array<int, 3> grid{0, 0, 0};
  std::array<int, 3> block{0, 0, 0};
  std::int64_t correlation = 0;
  int iteration = 0;
  Id op_id = kNoId;                // the op that launched it, kNoId when unattributed
  Id module_id = kNoId;            // the module of that op (or of the enclosing NVTX scope)
  std::int64_t graph_id = 0;       // CUDA graph, 0 if none
  std::int64_t graph_node_id = 0;  // CUDA graph node, 0 if none
  // Measured counters; has_counters says whether they were collected for this kernel.
  bool has_counters = false;
  double flops_fp64 = 0;
  double flops_fp32 = 0;
  double flops_fp16 = 0;
  double tensor_ops = 0;        // tensor-core math operations (CUPTI sm__ops_path_tensor_*), as reported
  double tensor_pipe_inst = 0;  // tensor-pipe instructions (sm__inst_executed_pipe_tensor.sum): not FLOPs
  double dram_bytes = 0;        // DRAM bytes, read + written (also when only the total was measured)
  double dram_bytes_read = 0;   // the split, when measured (both 0 when only the total was)
  double dram_bytes_written = 0;
  double l2_bytes = 0;
  double bytes = 0;  // memcpy / memset size
  RuntimeCall launch;
};

// Measured DRAM traffic of a kernel: the total column, or the split for records that only set that.
inline double measured_dram_bytes(const KernelRecord& k) {
  return k.dram_bytes > 0 ? k.dram_bytes : k.dram_bytes_read + k.dram_bytes_written;
}
// Measured DRAM traffic whose read/write split was not measured (only dram__bytes.sum): 0 when the split is
// known or there was no traffic.
inline double unsplit_dram_bytes(const KernelRecord& k) {
  return k.dram_bytes_read + k.dram_bytes_written > 0 ? 0 : measured_dram_bytes(k);
}

struct ParamRecord {
  Id id = kNoId;
  std::string name;  // full dotted name, e.g. "layers.0.attn.q_proj.weight"
  Id module_id = kNoId;
  std::string dtype;
  std::vector<std::int64_t> shape;
  std::int64_t numel = 0;
  std::int64_t bytes = 0;
  double l2 = 0;
  double max_abs = 0;
  double nonzero_fraction = 0;
  std::string sha256;  // of the raw little-endian element bytes
  // Content sketch that survives fine-tuning (analyzer/weights/tensor_similarity.h): the sum of the elements
  // whose row-major flat index i has i % kSketchBuckets == k, per bucket k, and the sum of all elements.
  // Empty when the values were not read (meta tensors, older run files).
  std::vector<double> sketch;
  double sum = 0;
};

// Buckets of ParamRecord::sketch (a prime, so that no power-of-two row width lines up with it).
inline constexpr int kSketchBuckets = 61;

struct GraphNode {
  Id id = kNoId;
  std::string kind;  // op kind, e.g. "aten::linear", or "input" / "output"
  std::string label;
  Id module_id = kNoId;
  std::string module_path;
  std::string output_shapes;  // e.g. "float32[1,64,128]"
};

struct GraphEdge {
  Id src = kNoId;
  Id dst = kNoId;
  std::string label;  // tensor shape on the edge, if known
};

// Statistics of one module call's output (and of its input where the shapes match), recorded with
// `profile --activations`: how the module behaves, not what it costs.
struct ActivationRecord {
  Id module_id = kNoId;
  int iteration = 0;
  int call = 0;            // call index of this module within the iteration
  std::string input_tag;   // the input set the request came from ("" for random inputs)
  std::int64_t numel = 0;  // elements of the output
  double out_l2 = 0;
  double out_max_abs = 0;
  double out_zero_fraction = 0;  // exact zeros
  bool has_rel_change = false;   // the output has the input's shape
  double rel_change = 0;         // ||y - x|| / ||x||
  double out_rms() const {       // out_l2 / sqrt(numel)
    return numel > 0 ? out_l2 / std::sqrt(static_cast<double>(numel)) : 0;
  }
};

// Dead compute, recorded with `profile --activations`: an outermost op whose result flows only into ops that
// multiply it by an all-zero parameter or constant (so the model throws it away), or such a multiplication.
struct DiscardedOpRecord {
  Id op_id = kNoId;          // the discarded op; equal to zeroing_op_id for the multiplication itself
  Id zeroing_op_id = kNoId;  // the op that multiplies by the all-zero factor
  std::string zero_factor;   // what is zero: a parameter or buffer name, "constant" or "scalar 0"

  bool operator==(const DiscardedOpRecord&) const = default;
};

// Which process ran an iteration, for a run that joins several (`trace --repeat N`, `diff --rounds N`):
// the iterations of one process share its memory layout, threads and clock state, so time is compared
// between runs over per-process samples, never over iterations of different processes as if independent.
struct IterationProcess {
  int iteration = 0;  // as OpRecord::iteration
  int process = 0;    // 0, 1, ... in the order the processes ran

  bool operator==(const IterationProcess&) const = default;
};

}  // namespace flopscope
