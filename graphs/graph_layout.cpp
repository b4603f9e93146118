#include "graphs/graph_layout.h"

#include <cstdlib>
#include <string>

#include "graphs/graphviz_handles.h"

namespace flopscope::graphs {
namespace {

// An attribute as Graphviz holds it after parsing (the node/edge/graph default when the object sets none),
// or `fallback` (Graphviz's own default) when it is unset or empty. Graphviz takes non-const names it does
// not modify.
std::string attr(void* object, const char* name, const char* fallback = "") {
  std::string key = name;
  const char* value = agget(object, key.data());
  return value && *value ? value : fallback;
}

double number_attr(void* object, const char* name, double fallback) {
  std::string text = attr(object, name);
  if (text.empty()) return fallback;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);  // the guard keeps LC_NUMERIC at "C"
  return end == text.c_str() ? fallback : value;
}

// Label text as Graphviz draws it: the DOT writer's escapes ("\n" and a backslash before '"' or '\')
// resolved, lines separated by '\n'. The quotes' own escapes are already gone after parsing.
std::string label_text(const char* raw) {
  std::string out;
  if (!raw) return out;
  for (const char* c = raw; *c; ++c) {
    if (*c != '\\' || c[1] == '\0') {
      out += *c;
      continue;
    }
    ++c;
    out += (*c == 'n' || *c == 'l' || *c == 'r') ? '\n' : *c;
  }
  return out;
}

// Graphviz coordinates (points, y up, origin at the bounding box's lower left corner or elsewhere) to the
// layout's (y down from the drawing's top-left).
struct Flip {
  boxf bb;
  LayoutPoint point(pointf p) const { return {p.x - bb.LL.x, bb.UR.y - p.y}; }
  LayoutBox centered(pointf center, double width, double height) const {
    LayoutPoint c = point(center);
    return {c.x - width / 2, c.y - height / 2, width, height};
  }
  LayoutBox box(boxf b) const {
    return {b.LL.x - bb.LL.x, bb.UR.y - b.UR.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y};
  }
};

// "n12" -> 12: the DOT writer names op and module nodes by their ViewGraph index; the legend is "legend".
int view_index(Agnode_t* node) {
  const char* name = agnameof(node);
  if (!name || name[0] != 'n' || name[1] == '\0') return -1;
  char* end = nullptr;
  long index = std::strtol(name + 1, &end, 10);
  return *end == '\0' && index >= 0 ? static_cast<int>(index) : -1;
}

void read_clusters(Agraph_t* g, const Flip& flip, int depth, std::vector<LaidOutCluster>& out) {
  for (int i = 1; i <= GD_n_cluster(g); ++i) {
    Agraph_t* sub = GD_clust(g)[i];
    LaidOutCluster c;
    c.module_path = attr(sub, "tooltip");
    c.box = flip.box(GD_bb(sub));
    c.depth = depth;
    c.style = attr(sub, "style");
    c.fill = attr(sub, "fillcolor");
    c.border = attr(sub, "color", "#000000");
    if (textlabel_t* label = GD_label(sub)) {
      c.label = label_text(label->text);
      c.label_box = flip.centered(label->pos, label->dimen.x, label->dimen.y);
      c.font_size = label->fontsize;
    }
    out.push_back(std::move(c));
    read_clusters(sub, flip, depth + 1, out);
  }
}

}  // namespace

StatusOr<GraphLayout> layout_view(const ViewGraph& view, const DotOptions& options) {
  const std::string dot = write_dot(view, options);
  graphviz::ParsedGraph parsed(dot);
  FS_RETURN_IF_ERROR(parsed.status());
  const graphviz::ErrorCapture& errors = parsed.session.errors;
  const graphviz::Context& gvc = parsed.gvc;
  const graphviz::Graph& graph = parsed.graph;
  graphviz::Layout layout(gvc.get(), graph.get(), "dot");
  if (!layout.ok()) return errors.error("layout");

  Agraph_t* g = graph.get();
  const Flip flip{GD_bb(g)};
  GraphLayout out;
  out.width = GD_bb(g).UR.x - GD_bb(g).LL.x;
  out.height = GD_bb(g).UR.y - GD_bb(g).LL.y;
  if (textlabel_t* label = GD_label(g)) {
    out.title = label_text(label->text);
    out.title_box = flip.centered(label->pos, label->dimen.x, label->dimen.y);
    out.title_font_size = label->fontsize;
  }

  out.nodes.resize(view.nodes.size());
  std::vector<bool> seen(view.nodes.size(), false);
  for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
    int index = view_index(n);
    if (index < 0) {
      out.legend_box = flip.centered(ND_coord(n), ND_width(n) * 72.0, ND_height(n) * 72.0);
      out.legend_html = attr(n, "label");  // an HTML-like label is stored without its outer < >
      continue;
    }
    if (static_cast<std::size_t>(index) >= view.nodes.size())
      return Internal("Graphviz layout: unknown node " + attr(n, "label"));
    LaidOutNode& node = out.nodes[static_cast<std::size_t>(index)];
    node.view_node = index;
    node.box = flip.centered(ND_coord(n), ND_width(n) * 72.0, ND_height(n) * 72.0);
    node.label = label_text(ND_label(n) ? ND_label(n)->text : nullptr);
    node.font_size = ND_label(n) ? ND_label(n)->fontsize : 10;
    node.shape = attr(n, "shape");
    node.style = attr(n, "style");
    node.fill = attr(n, "fillcolor");
    node.border = attr(n, "color", "#000000");
    node.font_color = attr(n, "fontcolor", "#000000");
    node.pen_width = number_attr(n, "penwidth", 1);
    seen[static_cast<std::size_t>(index)] = true;

    for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
      LaidOutEdge edge;
      edge.src = index;
      edge.dst = view_index(aghead(e));
      if (edge.dst < 0) continue;
      edge.color = attr(e, "color", "#000000");
      edge.style = attr(e, "style");
      edge.pen_width = number_attr(e, "penwidth", 1);
      edge.arrow_size = number_attr(e, "arrowsize", 1);
      if (const splines* spl = ED_spl(e)) {
        for (int b = 0; b < spl->size; ++b) {
          const bezier& bz = spl->list[b];
          for (int p = 0; p < bz.size; ++p) edge.points.push_back(flip.point(bz.list[p]));
          if (bz.sflag) edge.arrow_start = flip.point(bz.sp);
          if (bz.eflag) edge.arrow_tip = flip.point(bz.ep);
        }
      }
      out.edges.push_back(std::move(edge));
    }
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (!seen[i]) return Internal("Graphviz layout: node n" + std::to_string(i) + " was not laid out");
  }
  read_clusters(g, flip, 1, out.clusters);
  return out;
}

}  // namespace flopscope::graphs
