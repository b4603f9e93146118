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
  c.tensor_ops = tensor;
  c.dram_bytes_read = dram_read;
  c.dram_bytes_written = dram_write;
  // Only the total was collected: it stands in the read column so that read + written is right.
  if (dram > 0 && dram_read == 0 && dram_write == 0) c.dram_bytes_read = dram;
  c.l2_bytes = l2;
  return c;
}

}  // namespace flopscope
