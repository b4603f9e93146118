#include <fmt/format.h>

#include "analyzer/kernel_table.h"
#include "cli/printers/report.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {
// A measured split, or an empty field where part of the traffic was measured as a total only.
std::string split_field(double value, double unsplit) {
  return unsplit > 0 ? std::string() : fmt::format("{}", value);
}
}  // namespace

std::string render_report_csv(const RunData&, const RunSummary& s, const ReportOptions& o) {
  std::string out =
      "path,type,depth,calls,flops,self_flops,macs,bytes_read,bytes_written,intensity,measured_flops,dram_"
      "bytes,dram_bytes_read,dram_bytes_written,tensor_pipe_instructions,"
      "time_p50_ns,time_p90_ns,time_p99_ns,time_mean_ns,self_time_p50_ns,gpu_time_p50_ns,share_flops,share_"
      "time,gpu_time_mean_ns,comm_time_ns,flops_complete,device_flops_per_s,device_bytes_per_s,bound,"
      "fraction_of_attainable\n";
  for (int idx : module_order(s, o)) {
    const auto& m = s.modules[static_cast<std::size_t>(idx)];
    // time_* are host op time; gpu_* and device_* device time (empty without kernels); the rates are over
    // the mean device time and the bound needs a peak for the device.
    const bool dev = s.has_kernels && m.gpu_time.mean > 0;
    const bool bound = dev && m.rates.attainable_flops_per_s > 0;
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        csv_field(m.path), csv_field(m.type), m.depth, m.calls, m.inclusive.flops, m.self.flops,
        m.inclusive.macs, m.inclusive.bytes_read, m.inclusive.bytes_written, m.inclusive.intensity(),
        m.inclusive.measured_flops, m.inclusive.dram_bytes,
        split_field(m.inclusive.dram_read, m.inclusive.dram_unsplit),
        split_field(m.inclusive.dram_written, m.inclusive.dram_unsplit), m.inclusive.tensor_inst,
        m.inclusive_time.p50, m.inclusive_time.p90, m.inclusive_time.p99, m.inclusive_time.mean,
        m.self_time.p50, m.gpu_time.p50, m.share_flops, m.share_time,
        s.has_kernels ? fmt::format("{}", m.gpu_time.mean) : "", m.comm_time_ns,
        m.flops_complete ? "true" : "false", dev ? fmt::format("{}", m.rates.achieved_flops_per_s) : "",
        dev ? fmt::format("{}", m.rates.achieved_bytes_per_s) : "",
        bound ? (m.rates.memory_bound ? "memory" : "compute") : "",
        bound ? fmt::format("{}", m.rates.fraction_of_attainable) : "");
  }
  return out;
}

std::string render_kernels_csv(const RunData& run) {
  std::string out =
      "kernel,category,count,device_time_ns,grid,block,flops,bytes,unknown_count,has_counters,measured_flops,"
      "dram_bytes,dram_bytes_read,dram_bytes_written,tensor_pipe_instructions,module\n";
  for (const auto& r : kernel_table(run)) {
    out += fmt::format("{},{},{},{},{}x{}x{},{}x{}x{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.name),
                       r.category, r.count, r.device_time_ns, r.grid[0], r.grid[1], r.grid[2], r.block[0],
                       r.block[1], r.block[2], r.flops, r.bytes, r.unknown_count, r.has_counters ? 1 : 0,
                       r.measured.flops, r.measured.dram_bytes,
                       split_field(r.measured.dram_read, r.measured.dram_unsplit),
                       split_field(r.measured.dram_written, r.measured.dram_unsplit), r.measured.tensor_inst,
                       csv_field(r.module_path));
  }
  return out;
}

}  // namespace flopscope::cli
