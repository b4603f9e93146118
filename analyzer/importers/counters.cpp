#include "analyzer/importers/counters.h"

namespace flopscope {

bool CounterSet::take(std::string_view key, double value) {
  double* slot = nullptr;
  if (key == "dram__bytes.sum") {
    slot = &dram;
  } else if (key == "dram__bytes_read.sum") {
    slot = &dram_read;
  } else if (key == "dram__bytes_write.sum") {
    slot = &dram_write;
  } else if (key == "lts__t_bytes.sum") {
    slot = &l2;
  } else {
    if (key.starts_with("smsp__")) {
      key.remove_prefix(6);
    } else if (key.starts_with("sm__")) {
      key.remove_prefix(4);
    } else {
      return false;
    }
    constexpr std::string_view prefix = "sass_thread_inst_executed_op_";
    constexpr std::string_view suffix = "_pred_on.sum";
    if (key == "inst_executed_pipe_tensor.sum") {
      slot = &tensor;
    } else if (key.starts_with(prefix) && key.ends_with(suffix)) {
      key = key.substr(prefix.size(), key.size() - prefix.size() - suffix.size());
      Ops* o = key.starts_with('d') ? &d : key.starts_with('f') ? &f : key.starts_with('h') ? &h : nullptr;
      if (o == nullptr || key.size() != 4) return false;
      auto op = key.substr(1);
      slot = op == "add" ? &o->add : op == "mul" ? &o->mul : op == "fma" ? &o->fma : nullptr;
    }
  }
  if (slot == nullptr) return false;
  *slot = value;
  any = true;
  return true;
}

TraceBuilder::Counters CounterSet::counters() const {
  TraceBuilder::Counters c;
  c.flops_fp64 = d.flops();
  c.flops_fp32 = f.flops();
  c.flops_fp16 = h.flops();
  // Instructions of the tensor pipe, not operations: how many FLOPs one is depends on the architecture and
  // the instruction shape, so it is kept as a count and never converted (docs/flops.md).
  c.tensor_pipe_inst = tensor;
  c.dram_bytes_read = dram_read;
  c.dram_bytes_written = dram_write;
  // The total as measured; without dram__bytes.sum, the split's sum. A total alone leaves the split at 0.
  c.dram_bytes = dram > 0 ? dram : dram_read + dram_write;
  c.l2_bytes = l2;
  return c;
}

}  // namespace flopscope
