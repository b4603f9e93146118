#include "cli/printers/rank_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/printers/diff_format.h"

namespace flopscope::cli {
namespace {

constexpr std::size_t kMaxRankColumns = 8;  // wider runs show min / median / max only

std::string opt_time(const std::optional<double>& v) {
  return v ? time_text(*v) : "unknown";
}

}  // namespace

std::string render_rank_report_table(const RankReport& r, int depth) {
  std::string out = fmt::format("{} ranks; times are {}\n\n", r.ranks.size(), rank_clock_name(r));
  TextTable ranks;
  ranks.header = {"rank", "file", "iterations", "time P50", "comm (NCCL)", "comm %", "compute", "FLOPs"};
  ranks.right_align = {true, false, true, true, true, true, true, true};
  for (const auto& t : r.ranks) {
    ranks.rows.push_back({std::to_string(t.rank), t.path, std::to_string(t.iterations), time_text(t.time_p50),
                          opt_time(t.comm_ns),
                          t.comm_ns && t.time_p50 > 0 ? percent_text(*t.comm_ns / t.time_p50) : "unknown",
                          opt_time(t.compute_ns), flops_text(t.flops)});
  }
  out += ranks.to_text();
  out += "\n" + straggler_line(r) + "\n" + communication_line(r) + "\n";
  TextTable mods;
  mods.header = {"module", "type"};
  const bool per_rank = r.ranks.size() <= kMaxRankColumns;
  if (per_rank) {
    for (const auto& t : r.ranks) mods.header.push_back("rank " + std::to_string(t.rank));
  }
  for (const char* h : {"min", "median", "max", "straggler", "imbalance"}) mods.header.push_back(h);
  mods.right_align.assign(mods.header.size(), true);
  mods.right_align[0] = mods.right_align[1] = false;
  for (const auto& m : r.modules) {
    if (depth >= 0 && m.depth > depth) continue;
    std::vector<std::string> row = {
        std::string(static_cast<std::size_t>(m.depth) * 2, ' ') + (m.path.empty() ? "(model)" : m.path),
        m.type};
    if (per_rank) {
      for (const auto& v : m.time_p50) row.push_back(v ? time_text(*v) : "absent");
    }
    row.push_back(time_text(m.time.min));
    row.push_back(time_text(m.time.median));
    row.push_back(time_text(m.time.max));
    row.push_back(m.time.straggler >= 0 ? std::to_string(m.time.straggler) : "-");
    row.push_back(format_signed_percent(m.time.imbalance));
    mods.rows.push_back(std::move(row));
  }
  out += "\nper module, time P50 per rank:\n" + mods.to_text();
  for (const auto& w : r.warnings) out += "warning: " + terminal_safe(w, false) + "\n";
  return out;
}

std::string render_rank_report_json(const RankReport& r) {
  using J = nlohmann::ordered_json;
  auto opt = [](const std::optional<double>& v) { return v ? J(*v) : J(nullptr); };
  auto spread = [](const RankSpread& s) {
    return J{{"min_ns", s.min},
             {"median_ns", s.median},
             {"max_ns", s.max},
             {"straggler_rank", s.straggler},
             {"imbalance", s.imbalance}};
  };
  J j;
  j["clock"] = r.device_clock ? "device" : "host";
  for (const auto& t : r.ranks) {
    j["ranks"].push_back({{"rank", t.rank},
                          {"path", t.path},
                          {"iterations", t.iterations},
                          {"time_p50_ns", t.time_p50},
                          {"comm_ns", opt(t.comm_ns)},
                          {"compute_ns", opt(t.compute_ns)},
                          {"comm_kernels", t.comm_kernels},
                          {"flops", t.flops}});
  }
  j["iteration"] = spread(r.iteration);
  j["comm"] = r.comm ? spread(*r.comm) : J(nullptr);
  for (const auto& m : r.modules) {
    J row{{"path", m.path}, {"type", m.type}, {"depth", m.depth}};
    for (const auto& v : m.time_p50) row["time_p50_ns"].push_back(opt(v));
    row["flops"] = m.flops;
    row["time"] = spread(m.time);
    j["modules"].push_back(std::move(row));
  }
  j["warnings"] = r.warnings;
  return j.dump(2) + "\n";
}

}  // namespace flopscope::cli
