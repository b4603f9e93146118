// A whole run in memory: what the reader returns and what in-memory sinks collect.
#pragma once

#include <vector>

#include "db/model/memory_records.h"
#include "db/model/output_records.h"
#include "db/model/quality_catalogue.h"
#include "db/model/records.h"
#include "db/model/run_aggregates.h"
#include "db/model/summary_facts.h"

namespace flopscope {

struct RunData {
  RunInfo info;
  std::vector<ModuleRecord> modules;
  std::vector<OpRecord> ops;
  std::vector<KernelRecord> kernels;
  std::vector<ParamRecord> params;
  std::vector<GraphNode> graph_nodes;
  std::vector<GraphEdge> graph_edges;
  std::vector<ActivationRecord> activations;
  std::vector<DiscardedOpRecord> discarded;  // dead compute (profile --activations)
  std::vector<QualityIssue> quality;
  // What forward() returned, per distinct request (profile; trace --save-outputs); empty when not recorded.
  // Stored with the run only by --save-outputs (schema 013).
  std::vector<OutputRecord> outputs;
  // Empty: one process ran every iteration (every run not joined from several).
  std::vector<IterationProcess> iteration_processes;
  // Allocations and frees of a trace recorded with profile_memory (schema 017), in time order; empty when
  // the source recorded none.
  std::vector<MemoryEvent> memory_events;
  // Totals per module and per op signature as stored with the run (schema 007); empty for a run built in
  // memory (an import, a profile), whose analyses use the rows.
  RunAggregates aggregates;
  // false: the run was read without its op and kernel rows (ops and kernels are empty, not absent); the
  // analyses that allow it (summarize's module costs and times, the op diff) use `aggregates`.
  bool raw_rows = true;
  // The op-tree and kernel facts summarize() derives from the rows, as stored with the run (schema 010);
  // present is false when none were stored.
  SummaryFacts summary_facts;
};

}  // namespace flopscope
