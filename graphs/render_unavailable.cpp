// Built instead of graphviz_render.cpp when libgvc/libcgraph are not found.
#include "graphs/render.h"

namespace flopscope::graphs {

StatusOr<std::string> render_dot(const std::string& dot, GraphFormat format, const RenderOptions&) {
  if (format == GraphFormat::kDot) return dot;
  return Unsupported(std::string("this flopscope was built without Graphviz, so it cannot write .") +
                     graphviz_format_name(format) + "; write .dot and run `dot` on it");
}

bool graphviz_rendering_available() {
  return false;
}

}  // namespace flopscope::graphs
