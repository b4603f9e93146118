#include "analyzer/timeline.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>

#include "analyzer/fact_rows.h"
#include "analyzer/latency.h"

namespace flopscope {

const char* to_string(KernelCategory c) {
  switch (c) {
    case KernelCategory::kCompute:
      return "compute";
    case KernelCategory::kCommunication:
      return "communication";
    case KernelCategory::kMemcpy:
      return "memcpy";
    case KernelCategory::kMemset:
      return "memset";
  }
  return "compute";
}

bool is_communication_kernel(std::string_view name) {
  // Lower-case substrings of the collective libraries' kernel names (ncclDevKernel_AllReduce_Sum_bf16_RING,
  // ncclKernel_AllGather_..., rccl's, vLLM's cross_device_reduce_1stage, torch symmetric memory's
  // one_shot_all_reduce_kernel, multimem_all_reduce_kernel, ...).
  static constexpr std::array<std::string_view, 14> kPatterns = {
      "nccl",      "rccl",           "all_reduce",    "allreduce",          "all_gather",
      "allgather", "reduce_scatter", "reducescatter", "alltoall",           "all_to_all",
      "symm_mem",  "multimem",       "sendrecv",      "cross_device_reduce"};
  // Runs once per kernel name (KernelCategories): one pass over a stack copy folded to ASCII lower case
  // (not the locale's tolower, which a GUI's locale could change); a pattern's whole text is compared only
  // where its first four bytes are, read as one integer.
  static constexpr auto kFirst = [] {
    std::array<bool, 256> first{};
    for (auto p : kPatterns) first[static_cast<unsigned char>(p[0])] = true;
    return first;
  }();
  auto word = [](const char* p) {
    std::uint32_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
  };
  static const auto kPrefix = [&] {
    std::array<std::uint32_t, kPatterns.size()> prefix{};
    for (std::size_t i = 0; i < kPatterns.size(); ++i) prefix[i] = word(kPatterns[i].data());
    return prefix;
  }();
  char lower[512 + sizeof(std::uint32_t)] = {};
  const std::size_t n = std::min<std::size_t>(name.size(), 512);
  for (std::size_t i = 0; i < n; ++i) {
    char c = name[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c;
  }
  for (std::size_t i = 0; i + 4 <= n; ++i) {
    if (!kFirst[static_cast<unsigned char>(lower[i])]) continue;
    const std::uint32_t w = word(lower + i);
    for (std::size_t p = 0; p < kPatterns.size(); ++p) {
      if (w == kPrefix[p] && std::string_view(lower + i, n - i).starts_with(kPatterns[p])) return true;
    }
  }
  return false;
}

KernelCategory kernel_category(const KernelRecord& k) {
  if (k.kind == KernelKind::kMemcpy) return KernelCategory::kMemcpy;
  if (k.kind == KernelKind::kMemset) return KernelCategory::kMemset;
  return is_communication_kernel(k.name) ? KernelCategory::kCommunication : KernelCategory::kCompute;
}

KernelCategory KernelCategories::operator()(const KernelRecord& k) {
  if (k.kind == KernelKind::kMemcpy) return KernelCategory::kMemcpy;
  if (k.kind == KernelKind::kMemset) return KernelCategory::kMemset;
  auto it = communication_.find(std::string_view(k.name));
  if (it == communication_.end()) it = communication_.emplace(k.name, is_communication_kernel(k.name)).first;
  return it->second ? KernelCategory::kCommunication : KernelCategory::kCompute;
}

double union_length(std::vector<std::pair<std::int64_t, std::int64_t>> iv) {
  std::sort(iv.begin(), iv.end());
  double total = 0;
  std::int64_t cur_start = 0, cur_end = 0;
  bool open = false;
  for (auto [s, e] : iv) {
    if (e <= s) continue;
    if (!open || s > cur_end) {
      if (open) total += static_cast<double>(cur_end - cur_start);
      cur_start = s;
      cur_end = e;
      open = true;
    } else {
      cur_end = std::max(cur_end, e);
    }
  }
  if (open) total += static_cast<double>(cur_end - cur_start);
  return total;
}

namespace {

using Interval = std::pair<std::int64_t, std::int64_t>;

TimelineFacts facts_of(int device, std::int64_t stream, const std::vector<const FactKernel*>& ks) {
  TimelineFacts f;
  f.device = device;
  f.stream = stream;
  f.activities = static_cast<std::int64_t>(ks.size());
  if (ks.empty()) return f;
  std::vector<Interval> all, compute, comm;
  std::int64_t first = INT64_MAX, last = INT64_MIN;
  for (const auto* k : ks) {
    Interval iv{k->start_ns, k->start_ns + std::max<std::int64_t>(0, k->duration_ns)};
    all.push_back(iv);
    f.sum_ns += static_cast<double>(iv.second - iv.first);
    first = std::min(first, iv.first);
    last = std::max(last, iv.second);
    if (k->category == KernelCategory::kCommunication) comm.push_back(iv);
    if (k->category == KernelCategory::kCompute) compute.push_back(iv);
  }
  f.span_ns = static_cast<double>(last - first);
  f.busy_ns = union_length(all);
  f.idle_ns = f.span_ns - f.busy_ns;
  f.overlap_ns = f.sum_ns - f.busy_ns;
  f.compute_busy_ns = union_length(compute);
  f.communication_busy_ns = union_length(comm);
  if (!comm.empty() && !compute.empty()) {
    std::vector<Interval> both = compute;
    both.insert(both.end(), comm.begin(), comm.end());
    f.compute_comm_overlap_ns = f.compute_busy_ns + f.communication_busy_ns - union_length(std::move(both));
  }
  // Gaps: idle stretches between the end of the busy front and the next start, in start order.
  std::sort(all.begin(), all.end());
  std::vector<double> gaps;
  std::int64_t front = all.front().second;
  for (std::size_t i = 1; i < all.size(); ++i) {
    if (all[i].first > front) gaps.push_back(static_cast<double>(all[i].first - front));
    front = std::max(front, all[i].second);
  }
  f.gaps = static_cast<std::int64_t>(gaps.size());
  if (!gaps.empty()) {
    std::sort(gaps.begin(), gaps.end());
    f.gap_p50_ns = percentile_sorted(gaps, 50);
    f.gap_max_ns = gaps.back();
  }
  return f;
}

}  // namespace

Timeline timeline_facts(std::span<const FactKernel> kernels) {
  std::map<int, std::vector<const FactKernel*>> by_device;
  std::map<std::pair<int, std::int64_t>, std::vector<const FactKernel*>> by_stream;
  for (const auto& k : kernels) {
    by_device[k.device].push_back(&k);
    by_stream[{k.device, k.stream}].push_back(&k);
  }
  Timeline t;
  for (const auto& [d, ks] : by_device) t.devices.push_back(facts_of(d, -1, ks));
  for (const auto& [key, ks] : by_stream) t.streams.push_back(facts_of(key.first, key.second, ks));
  return t;
}

}  // namespace flopscope
