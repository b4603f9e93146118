#include <fmt/format.h>

#include "cli/printers/report.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
std::string render_report_csv(const RunData&, const RunSummary& s, const ReportOptions& o) {
  std::string out =
      "path,type,depth,calls,flops,self_flops,macs,bytes_read,bytes_written,intensity,measured_flops,dram_"
      "bytes,"
      "time_p50_ns,time_p90_ns,time_p99_ns,time_mean_ns,self_time_p50_ns,gpu_time_p50_ns,share_flops,share_"
      "time\n";
  for (int idx : module_order(s, o)) {
    const auto& m = s.modules[static_cast<std::size_t>(idx)];
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(m.path),
                       csv_field(m.type), m.depth, m.calls, m.inclusive.flops, m.self.flops, m.inclusive.macs,
                       m.inclusive.bytes_read, m.inclusive.bytes_written, m.inclusive.intensity(),
                       m.inclusive.measured_flops, m.inclusive.dram_bytes, m.inclusive_time.p50,
                       m.inclusive_time.p90, m.inclusive_time.p99, m.inclusive_time.mean, m.self_time.p50,
                       m.gpu_time.p50, m.share_flops, m.share_time);
  }
  return out;
}

}  // namespace flopscope::cli
