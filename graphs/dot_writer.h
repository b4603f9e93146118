// DOT text for a ViewGraph: nested clusters per module, heat or diff colours, a legend and a title that
// states the collapse depth. Deterministic: the same view and options give the same bytes.
#pragma once

#include <optional>
#include <string>

#include "graphs/collapse.h"
#include "graphs/graph_diff.h"

namespace flopscope::graphs {

struct DotOptions {
  // Heat colouring by this metric when the graph has costs; diff graphs colour by diff state and use it
  // for the deltas in labels.
  std::optional<CostMetric> color_by = CostMetric::kFlops;
  // Diff graphs: a collapsed module whose cost moved by more than this fraction is drawn as changed.
  double relative_threshold = 0.01;
  // Diff graphs: colour nodes and edges by diff state; false colours them as a single run (by color_by, on
  // the new version's costs), keeping the diff text in the labels.
  bool diff_colors = true;
};

std::string write_dot(const ViewGraph& view, const DotOptions& options = {});

// Quoting for DOT strings and HTML-like labels.
std::string dot_quote(const std::string& text);  // adds the surrounding quotes
std::string html_escape(const std::string& text);

}  // namespace flopscope::graphs
