#include "analyzer/iteration_series.h"

#include <algorithm>

namespace flopscope {

IterationSeries IterationSeries::from_dense(std::span<const double> values) {
  IterationSeries s(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] != 0) s.entries_.emplace_back(static_cast<std::uint32_t>(i), values[i]);
  return s;
}

void IterationSeries::add(std::size_t iteration, double v) {
  const auto it = static_cast<std::uint32_t>(iteration);
  if (!entries_.empty() && entries_.back().first == it) {
    entries_.back().second += v;
    return;
  }
  if (!entries_.empty() && entries_.back().first > it) sorted_ = false;
  entries_.emplace_back(it, v);
}

void IterationSeries::add(const IterationSeries& other) {
  for (const auto& [it, v] : other.entries_) add(it, v);
}

void IterationSeries::normalise() {
  if (!sorted_) {
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& x, const Entry& y) { return x.first < y.first; });
    sorted_ = true;
  }
  std::size_t out = 0;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (out > 0 && entries_[out - 1].first == entries_[i].first) {
      entries_[out - 1].second += entries_[i].second;
    } else {
      entries_[out++] = entries_[i];
    }
  }
  entries_.resize(out);
  std::erase_if(entries_, [](const Entry& e) { return e.second == 0; });
  entries_.shrink_to_fit();
}

double IterationSeries::at(std::size_t iteration) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), iteration,
                             [](const Entry& e, std::size_t i) { return e.first < i; });
  return it != entries_.end() && it->first == iteration ? it->second : 0.0;
}

double IterationSeries::sum() const {
  double s = 0;
  for (const auto& e : entries_) s += e.second;
  return s;
}

std::vector<double> IterationSeries::dense() const {
  std::vector<double> d(size_, 0.0);
  for (const auto& [it, v] : entries_)
    if (it < size_) d[it] += v;
  return d;
}

}  // namespace flopscope
