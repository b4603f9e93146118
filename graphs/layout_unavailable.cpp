// Built instead of graph_layout.cpp when libgvc/libcgraph are not found.
#include "graphs/graph_layout.h"

namespace flopscope::graphs {

StatusOr<GraphLayout> layout_view(const ViewGraph&, const DotOptions&) {
  return Unsupported(
      "this flopscope was built without Graphviz, so it cannot lay out graphs; `flopscope graph RUN -o "
      "x.dot` "
      "writes the DOT text for `dot`");
}

}  // namespace flopscope::graphs
