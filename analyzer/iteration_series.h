// Per-iteration values of one quantity (a module's time per iteration), stored sparsely: a module that
// ran in a few of many iterations keeps a few entries. Dense modules x iterations tables took 82 MB each
// for a trace of 3,200 modules x 3,200 iterations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace flopscope {

class IterationSeries {
 public:
  using Entry = std::pair<std::uint32_t, double>;  // (iteration index, value); absent iterations are 0

  IterationSeries() = default;
  explicit IterationSeries(std::size_t iterations) : size_(iterations) {}
  static IterationSeries from_dense(std::span<const double> values);

  // Adds v to an iteration. Cheap when iterations arrive in order; call normalise() before reading.
  void add(std::size_t iteration, double v);
  // Room for n entries: rows that know how many iterations they will see allocate once.
  void reserve(std::size_t n) { entries_.reserve(n); }
  // Adds every entry of another series of the same length.
  void add(const IterationSeries& other);
  // Sorts by iteration, sums repeated iterations and drops zeros.
  void normalise();

  std::size_t size() const { return size_; }  // the number of iterations, zeros included
  bool empty() const { return size_ == 0; }
  const std::vector<Entry>& entries() const { return entries_; }
  double at(std::size_t iteration) const;
  double sum() const;
  std::vector<double> dense() const;

 private:
  std::size_t size_ = 0;
  std::vector<Entry> entries_;
  bool sorted_ = true;
};

}  // namespace flopscope
