#include <algorithm>

#include "analyzer/clock.h"
#include "cli/printers/report.h"

namespace flopscope::cli {

std::vector<int> module_order(const RunSummary& s, const ReportOptions& o) {
  auto key = [&](int i) {
    const auto& m = s.modules[static_cast<std::size_t>(i)];
    switch (o.sort) {
      case SortKey::kFlops:
        return m.inclusive.flops;
      case SortKey::kTime:
        return inclusive_time(m, run_clock(s)).p50;
      case SortKey::kBytes:
        return m.inclusive.bytes();
      case SortKey::kModel:
        break;
    }
    return 0.0;
  };
  std::vector<int> out;
  if (s.modules.empty()) return out;
  std::vector<int> stack{0};
  while (!stack.empty()) {
    int i = stack.back();
    stack.pop_back();
    const auto& m = s.modules[static_cast<std::size_t>(i)];
    if (o.depth >= 0 && m.depth > o.depth) continue;
    out.push_back(i);
    std::vector<int> kids = m.children;
    if (o.sort != SortKey::kModel) {
      std::stable_sort(kids.begin(), kids.end(), [&](int a, int b) { return key(a) > key(b); });
    }
    for (auto k = kids.rbegin(); k != kids.rend(); ++k) stack.push_back(*k);
  }
  return out;
}

}  // namespace flopscope::cli
