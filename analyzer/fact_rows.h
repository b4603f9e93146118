// The part of a run's op and kernel rows that summary_facts() reads, kept compact: an op in 88 bytes with
// its name and note interned, a kernel in 56 bytes with its category decided on arrival (no name) and its
// measured counters apart. A sink that derives the facts while a run is written (SummaryFactsSink) holds
// these instead of whole records: a third of the memory on an import.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/timeline.h"
#include "db/model/measured_counters.h"
#include "db/model/records.h"
#include "db/model/summary_facts.h"

namespace flopscope {

struct RunData;

struct FactOp {
  Id id = kNoId;
  Id parent_op_id = kNoId;
  Id module_id = kNoId;
  std::int64_t sequence = 0;
  std::int64_t duration_ns = 0;
  double flops = 0, macs = 0, bytes_read = 0, bytes_written = 0;
  int iteration = 0;
  std::uint32_t name = 0;  // FactRows::text()
  std::uint32_t note = 0;  // the FLOPs note of an op without a FLOPs source (0: none)
  FlopsSource flops_source = FlopsSource::kNone;
};

struct FactKernel {
  std::int64_t stream = 0;
  std::int64_t start_ns = 0;
  std::int64_t duration_ns = 0;
  Id op_id = kNoId;
  Id module_id = kNoId;
  int device = 0;
  int iteration = 0;
  std::int32_t counters = -1;  // FactRows::counters() index; -1: none measured
  KernelCategory category = KernelCategory::kCompute;
};

class FactRows {
 public:
  FactRows() = default;
  explicit FactRows(const RunData& run);  // every row of a run held in memory
  // Moves keep the interned texts in place; a copy would leave its keys pointing into the original.
  FactRows(FactRows&&) = default;
  FactRows& operator=(FactRows&&) = default;
  FactRows(const FactRows&) = delete;
  FactRows& operator=(const FactRows&) = delete;

  void set_info(const RunInfo& info) { info_ = info; }
  void add_modules(std::span<const ModuleRecord> modules);
  void add_ops(std::span<const OpRecord> ops);
  void add_kernels(std::span<const KernelRecord> kernels);
  // Iteration numbers a run read without its rows knows of (its aggregates): they count as present.
  void add_iteration(int iteration);

  const RunInfo& info() const { return info_; }
  const std::vector<ModuleRecord>& modules() const { return modules_; }
  const std::vector<FactOp>& ops() const { return ops_; }
  const std::vector<FactKernel>& kernels() const { return kernels_; }
  const std::vector<MeasuredCounters>& counters() const { return counters_; }
  const std::vector<int>& iterations() const { return iterations_; }  // present, unsorted, may repeat
  const std::string& text(std::uint32_t id) const { return texts_[id]; }

 private:
  std::uint32_t intern(const std::string& s);

  RunInfo info_;
  std::vector<ModuleRecord> modules_;
  std::vector<FactOp> ops_;
  std::vector<FactKernel> kernels_;
  std::vector<MeasuredCounters> counters_;
  std::vector<int> iterations_;
  KernelCategories categories_;                   // each kernel name tested once
  std::deque<std::string> texts_{std::string()};  // 0: the empty string; a deque keeps the keys below valid
  std::unordered_map<std::string_view, std::uint32_t> text_ids_;
};

// summary_facts() of the rows: the one derivation, for a run in memory and for one being written.
SummaryFacts summary_facts(const FactRows& rows);

}  // namespace flopscope
