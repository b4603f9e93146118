#include "analyzer/fleet/ranks.h"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <numeric>
#include <regex>
#include <unordered_map>

#include "analyzer/format.h"

namespace flopscope {
namespace {

// A rank number: digits that fit an int, else an error naming the file (not std::stoi's "stoi").
StatusOr<int> rank_number(const std::string& digits, const std::string& path, const char* where) {
  int value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    return InvalidArgument(path + ": rank " + (digits.size() > 24 ? digits.substr(0, 24) + "..." : digits) +
                           " in " + where + " is out of range (0 to " +
                           std::to_string(std::numeric_limits<int>::max()) + ")");
  }
  return value;
}

// distributedInfo sits near the start of a Kineto trace; reading a bounded head keeps this cheap.
std::optional<std::string> rank_in_trace_head(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return std::nullopt;
  std::string head(1 << 16, '\0');
  int n = gzread(f, head.data(), static_cast<unsigned>(head.size()));
  gzclose(f);
  if (n <= 0) return std::nullopt;
  head.resize(static_cast<std::size_t>(n));
  auto at = head.find("\"distributedInfo\"");
  if (at == std::string::npos) return std::nullopt;
  static const std::regex rank(R"re("rank"\s*:\s*(\d+))re");
  std::smatch m;
  std::string tail = head.substr(at, 400);
  if (!std::regex_search(tail, m, rank)) return std::nullopt;
  return m[1].str();
}

RankSpread spread(const std::vector<std::pair<int, double>>& values) {
  RankSpread s;
  if (values.empty()) return s;
  std::vector<double> v;
  v.reserve(values.size());
  for (const auto& [rank, x] : values) v.push_back(x);
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  s.imbalance = mean > 0 ? s.max / mean - 1 : 0;
  for (const auto& [rank, x] : values) {
    if (x == s.max) {
      s.straggler = rank;
      break;
    }
  }
  return s;
}

}  // namespace

bool is_comm_kernel(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find("nccl") != std::string::npos || lower.find("rccl") != std::string::npos;
}

StatusOr<int> rank_of_file(const std::string& path) {
  if (auto r = rank_in_trace_head(path)) return rank_number(*r, path, "its distributedInfo");
  static const std::regex in_name(R"(rank[-_.]?(\d+))", std::regex::icase);
  std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  std::smatch m;
  if (std::regex_search(base, m, in_name)) return rank_number(m[1].str(), path, "its name");
  return InvalidArgument(
      path + ": cannot tell its rank (no distributedInfo in the trace, no 'rank<N>' in the name)");
}

StatusOr<RankReport> analyze_ranks(const std::vector<RankInput>& inputs) {
  RankReport r;
  std::vector<const RankInput*> sorted;
  sorted.reserve(inputs.size());
  for (const auto& p : inputs) sorted.push_back(&p);
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->rank < b->rank; });
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i]->rank == sorted[i - 1]->rank) {
      return InvalidArgument(sorted[i]->path + ": rank " + std::to_string(sorted[i]->rank) +
                             " given twice (also " + sorted[i - 1]->path + ")");
    }
  }
  r.device_clock = !sorted.empty();
  for (const auto* p : sorted) r.device_clock = r.device_clock && p->summary->has_kernels;
  if (!r.device_clock &&
      std::any_of(sorted.begin(), sorted.end(), [](const auto* p) { return p->summary->has_kernels; })) {
    r.warnings.push_back("only some ranks have GPU kernels: times compare host op time");
  }
  const std::size_t n = sorted.size();
  std::vector<std::pair<int, double>> iteration, comm;
  std::unordered_map<std::string, std::size_t> row_of;
  for (std::size_t i = 0; i < n; ++i) {
    const RunSummary& s = *sorted[i]->summary;
    RankTotals t;
    t.rank = sorted[i]->rank;
    t.path = sorted[i]->path;
    t.iterations = s.iterations;
    t.time_p50 = r.device_clock ? s.iteration_gpu_time.p50 : s.iteration_time.p50;
    t.flops = s.total.flops;
    if (r.device_clock) {
      double comm_total = 0, other = 0;
      for (const auto& k : sorted[i]->run->kernels) {
        if (k.kind == KernelKind::kKernel && is_comm_kernel(k.name)) {
          comm_total += static_cast<double>(k.duration_ns);
          ++t.comm_kernels;
        } else {
          other += static_cast<double>(k.duration_ns);
        }
      }
      double per = 1.0 / std::max(1, s.iterations);
      t.comm_ns = comm_total * per;
      t.compute_ns = other * per;
      comm.emplace_back(t.rank, *t.comm_ns);
    }
    iteration.emplace_back(t.rank, t.time_p50);
    r.ranks.push_back(std::move(t));
    for (const auto& m : s.modules) {
      auto [it, added] = row_of.try_emplace(m.path, r.modules.size());
      if (added) {
        RankModuleRow row;
        row.path = m.path;
        row.type = m.type;
        row.depth = m.depth;
        row.time_p50.assign(n, std::nullopt);
        row.flops.assign(n, 0);
        r.modules.push_back(std::move(row));
      }
      RankModuleRow& row = r.modules[it->second];
      row.time_p50[i] = r.device_clock ? m.gpu_time.p50 : m.inclusive_time.p50;
      row.flops[i] = m.inclusive.flops;
    }
  }
  r.iteration = spread(iteration);
  int missing = 0;
  if (r.device_clock) r.comm = spread(comm);
  for (auto& row : r.modules) {
    std::vector<std::pair<int, double>> v;
    for (std::size_t i = 0; i < n; ++i) {
      if (row.time_p50[i]) v.emplace_back(r.ranks[i].rank, *row.time_p50[i]);
    }
    row.time = spread(v);
    if (v.size() != n) ++missing;
  }
  if (missing > 0) {
    r.warnings.push_back(std::to_string(missing) + " modules are missing on some ranks (shown as absent)");
  }
  return r;
}

std::string rank_clock_name(const RankReport& r) {
  return r.device_clock ? "device (kernel) time per iteration" : "host op time per iteration";
}

std::string straggler_line(const RankReport& r) {
  return "straggler: rank " + std::to_string(r.iteration.straggler) + " (iteration time P50 " +
         time_text(r.iteration.max) + "; median " + time_text(r.iteration.median) + ", fastest " +
         time_text(r.iteration.min) + "); load imbalance " + signed_percent_text(r.iteration.imbalance) +
         " (max / mean - 1)";
}

std::string communication_line(const RankReport& r) {
  if (!r.comm) return "communication: unknown (no GPU kernels on every rank)";
  return "communication: NCCL kernel time per iteration min " + time_text(r.comm->min) + " / median " +
         time_text(r.comm->median) + " / max " + time_text(r.comm->max) + " (rank " +
         std::to_string(r.comm->straggler) + ")";
}

}  // namespace flopscope
