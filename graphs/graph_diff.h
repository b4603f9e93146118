// Diff overlay of two versions of a model graph, matched by node identity (module path + op kind +
// ordinal), never by ids or positions.
#pragma once

#include "graphs/graph_model.h"

namespace flopscope::graphs {

// Which cost a diff judges "changed" by, and the heat colouring uses.
enum class CostMetric { kFlops, kTime, kBytes };
double metric_of(const NodeCost& cost, CostMetric metric);
// Whether the cost has a value for the metric (FLOPs can be unknown while time is measured).
bool metric_known(const NodeCost& cost, CostMetric metric);

// When a node in both graphs is CHANGED (the diff engine's options are DiffOptions, analyzer/diff/diff.h).
struct NodeChangeRule {
  CostMetric metric = CostMetric::kFlops;
  // A node whose metric moved by more than this fraction of its base value is "changed".
  double relative_threshold = 0.01;
};

// The "changed" threshold of a metric, for every front end (CLI graph, GUI graph): host time is noisy
// between runs, so only a 10% move counts; FLOPs and bytes are exact, so 1% does.
double changed_threshold(CostMetric metric);
inline NodeChangeRule change_rule(CostMetric metric) {
  return {metric, changed_threshold(metric)};
}

// True when a and b differ by more than `relative` of the larger magnitude.
bool moved_by_more_than(double a, double b, double relative);

// True when both costs are known and the metric moved by more than the threshold.
bool metric_changed(const NodeCost& base, const NodeCost& now, const NodeChangeRule& rule);

// The union of both graphs: every node of `other` (NEW when the base lacks it; CHANGED when its output
// shapes or metric differ), then the base's nodes that VANISHED, and the edges of both.
OpGraph diff_graphs(const OpGraph& base, const OpGraph& other, const NodeChangeRule& rule = {});

}  // namespace flopscope::graphs
