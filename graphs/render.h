// Layout and rendering in process through Graphviz (cgraph + gvc); no `dot` subprocess. Graphviz types
// stay inside graphviz_render.cpp.
#pragma once

#include <string>

#include "db/model/status.h"
#include "graphs/output_format.h"

namespace flopscope::graphs {

struct RenderOptions {
  double png_dpi = 96;  // PNG only; vector formats keep Graphviz's 72 points per inch
  // Graphviz layout engine: "dot" for graphs; "nop2" keeps the positions the DOT text gives (heatmap).
  const char* engine = "dot";
};

// Lays out DOT text with options.engine and renders it to bytes in `format`. A kDot request returns the
// text unchanged. Graphviz errors (syntax, layout, missing plugin) come back as a Status.
StatusOr<std::string> render_dot(const std::string& dot, GraphFormat format,
                                 const RenderOptions& options = {});

// True when this build links Graphviz; without it only .dot output is possible.
bool graphviz_rendering_available();

}  // namespace flopscope::graphs
