#include "graphs/dot_writer.h"

#include <map>
#include <set>
#include <vector>

#include "analyzer/diff/verdict_palette.h"
#include "analyzer/format.h"
#include "analyzer/work_text.h"
#include "db/model/module_path.h"
#include "db/model/text_escape.h"
#include "graphs/heat.h"

namespace flopscope::graphs {

std::string dot_quote(const std::string& text) {
  // Controls and bidi overrides shown as the terminal shows them; '&' as &amp; since Graphviz decodes
  // character entities in every label (a name holding "&lt;" would otherwise render as "<").
  std::string out = "\"";
  for (char c : terminal_safe(text, true)) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '&') {
      out += "&amp;";
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\n':
        out += "<br/>";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

// DORMANT modules' frames and boxes: the palette's DORMANT colour, dotted.
const char* const kDormantBorder = verdict_color(Verdict::kDormant).text;
// Widest node label line from the source (a kernel name) before its middle is cut.
constexpr std::size_t kLabelChars = 48;

struct Writer {
  const ViewGraph& view;
  const DotOptions& options;
  CostMetric metric;
  bool diff_colors;  // nodes and edges coloured by diff state
  bool heat;
  HeatScale scale;
  std::string out;
  std::vector<DiffStatus> state;                          // per node, after judging module cost deltas
  std::map<std::string, std::vector<int>> nodes_in;       // cluster path -> node indices
  std::map<std::string, std::set<std::string>> kids;      // cluster path -> child cluster paths
  std::map<std::string, std::set<DiffStatus>> states_in;  // cluster path -> diff states of nodes below
  int cluster_counter = 0;

  static std::vector<double> values(const ViewGraph& v, CostMetric m) {
    std::vector<double> out;
    for (const auto& n : v.nodes) {
      if (metric_known(n.cost, m)) out.push_back(metric_of(n.cost, m));
    }
    return out;
  }

  Writer(const ViewGraph& v, const DotOptions& o)
      : view(v),
        options(o),
        metric(o.color_by.value_or(CostMetric::kFlops)),
        diff_colors(v.is_diff && o.diff_colors),
        heat(o.color_by.has_value() && v.has_costs && !diff_colors),
        scale(values(v, metric)) {
    for (std::size_t i = 0; i < v.nodes.size(); ++i) {
      const ViewNode& n = v.nodes[i];
      DiffStatus st = n.diff;
      if (v.is_diff && n.is_module && st == DiffStatus::kUnchanged &&
          metric_changed(n.base_cost, n.cost, {metric, o.relative_threshold})) {
        st = DiffStatus::kChanged;
      }
      state.push_back(st);
      nodes_in[n.cluster].push_back(static_cast<int>(i));
      for (std::string p = n.cluster; !p.empty(); p = parent_module(p)) {
        kids[parent_module(p)].insert(p);
        states_in[p].insert(st);
      }
    }
  }

  // The module's class; "Old → New" in a diff where the class changed.
  std::string type_text(const std::string& path) const {
    auto type = view.module_types.find(path);
    std::string text = type == view.module_types.end() ? "" : type->second;
    auto base = view.base_module_types.find(path);
    if (view.is_diff && base != view.base_module_types.end() && !base->second.empty() &&
        base->second != text) {
      text = base->second + " \xE2\x86\x92 " + text;
    }
    return text;
  }

  std::string short_kind(const std::string& kind) const {
    return kind.rfind("aten::", 0) == 0 ? kind.substr(6) : kind;
  }

  std::string cost_line(const NodeCost& c) const {
    if (!c.known) return "";
    std::string line = c.flops_known ? format_metric(c.flops, CostMetric::kFlops) + " \xC2\xB7 " : "";
    line += format_metric(c.time_ns, CostMetric::kTime);
    if (*c.clock != '\0') line += " " + std::string(c.clock);
    if (metric == CostMetric::kBytes) line += " \xC2\xB7 " + format_metric(c.bytes, CostMetric::kBytes);
    return line;
  }

  std::string delta_line(const ViewNode& n, DiffStatus st) const {
    // VANISHED, NEW: the cost line above shows what it cost.
    if (st == DiffStatus::kVanished || st == DiffStatus::kNew) return to_string(st);
    if (st != DiffStatus::kChanged) return "";
    std::string line;
    if (metric_known(n.cost, metric) && metric_known(n.base_cost, metric)) {
      double a = metric_of(n.base_cost, metric);
      double b = metric_of(n.cost, metric);
      if (a != b) {
        line = "\xCE\x94 " + std::string(b > a ? "+" : "") + format_metric(b - a, metric);
        if (a != 0) {
          line += " (" + std::string(b > a ? "+" : "") + si_text(100.0 * (b - a) / a, "%") + ")";
        }
      }
    }
    if (!n.is_module && !n.base_shapes.empty() && n.base_shapes != n.shapes) {
      if (!line.empty()) line += "\n";
      line += "was " + n.base_shapes;
    }
    if (line.empty() && n.is_module) line = "op nodes VANISHED or NEW";
    return line;
  }

  // The op and its label, each said once: a label that already names the op ("linear" on aten::linear, "2
  // more ops" on a "more" node) stands alone. Long labels (kernel names) lose their middle, not their tile
  // sizes.
  std::string op_text(const ViewNode& n) const {
    const std::string kind = short_kind(n.kind);
    if (n.label.empty()) return kind;
    std::string label = elide_middle(n.label, kLabelChars);
    return n.label.find(kind) != std::string::npos ? label : kind + " " + label;
  }

  std::string node_label(const ViewNode& n, DiffStatus st) const {
    std::string label;
    if (n.is_module) {
      std::string name(path_leaf(n.module_path));
      std::string type = type_text(n.module_path);
      label = name + (type.empty() ? "" : " (" + type + ")");
      if (dormant(n.module_path)) label += " DORMANT";
      label += "\n" + op_nodes_text(static_cast<std::size_t>(n.members));
    } else {
      label = op_text(n);
      if (!n.shapes.empty()) label += "\n" + n.shapes;
    }
    std::string cost = cost_line(st == DiffStatus::kVanished ? n.base_cost : n.cost);
    if (!cost.empty()) label += "\n" + cost;
    if (view.is_diff) {
      std::string delta = delta_line(n, st);
      if (!delta.empty()) label += "\n" + delta;
    }
    return label;
  }

  void write_node(int index, const std::string& indent) {
    const ViewNode& n = view.nodes[static_cast<std::size_t>(index)];
    const DiffStatus st = state[static_cast<std::size_t>(index)];
    out += indent + "n" + std::to_string(index) + " [label=" + dot_quote(node_label(n, st));
    out += ", tooltip=" + dot_quote(n.is_module ? n.module_path : n.identity);
    std::string style = n.is_module ? "filled" : "rounded,filled";
    if (n.is_module) out += ", shape=box3d";
    if (n.kind == "input" || n.kind == "output") out += ", shape=oval";
    if (diff_colors) {
      DiffStyle s = diff_style(st);
      out += ", color=\"" + std::string(s.border) + "\", fillcolor=\"" + s.fill + "\"";
      if (st == DiffStatus::kVanished) style += ",dashed";
      if (n.is_module && dormant(n.module_path)) {
        out += ", color=\"" + std::string(kDormantBorder) + "\"";
        style += ",dotted";
      }
      if (st != DiffStatus::kUnchanged || (n.is_module && dormant(n.module_path))) out += ", penwidth=2";
    } else if (heat && metric_known(n.cost, metric)) {
      int b = scale.bucket(metric_of(n.cost, metric));
      out += ", fillcolor=\"" + std::string(HeatScale::fill(b)) + "\", fontcolor=\"" +
             HeatScale::font_color(b) + "\"";
    }
    if (style != "rounded,filled") out += ", style=\"" + style + "\"";
    out += "];\n";
  }

  void write_cluster(const std::string& path, const std::string& indent) {
    int number = ++cluster_counter;
    std::string name(path_leaf(path));
    std::string type = type_text(path);
    std::string title = name + (type.empty() ? "" : " (" + type + ")");
    if (diff_colors && dormant(path)) title += " DORMANT";
    int depth = module_depth(path);
    static constexpr const char* kFill[] = {"#f7f7f7", "#ececec"};
    out += indent + "subgraph cluster_" + std::to_string(number) + " {\n";
    std::string in = indent + "  ";
    out += in + "label=" + dot_quote(title) + "; tooltip=" + dot_quote(path) + ";\n";
    std::string border = "#aaaaaa";
    std::string style = "rounded,filled";
    const auto& states = states_in[path];
    if (diff_colors && states.size() == 1 && *states.begin() == DiffStatus::kVanished) {
      border = diff_style(DiffStatus::kVanished).border;
      style = "rounded,filled,dashed";
    } else if (diff_colors && states.size() == 1 && *states.begin() == DiffStatus::kNew) {
      border = diff_style(DiffStatus::kNew).border;
    } else if (diff_colors && dormant(path)) {
      border = kDormantBorder;
      style = "rounded,filled,dotted";
    }
    out +=
        in + "style=\"" + style + "\"; color=\"" + border + "\"; fillcolor=\"" + kFill[depth % 2] + "\";\n";
    write_contents(path, in);
    out += indent + "}\n";
  }

  void write_contents(const std::string& path, const std::string& indent) {
    auto nodes = nodes_in.find(path);
    if (nodes != nodes_in.end()) {
      for (int i : nodes->second) write_node(i, indent);
    }
    auto children = kids.find(path);
    if (children != kids.end()) {
      for (const auto& child : children->second) write_cluster(child, indent);
    }
  }

  std::string depth_text() const {
    std::size_t ops = 0;
    for (const auto& n : view.nodes) ops += static_cast<std::size_t>(n.members);
    std::size_t boxes = 0;
    for (const auto& n : view.nodes) boxes += n.is_module ? 1 : 0;
    std::string text = view.depth == kOpLevel ? "op level (no collapse)"
                       : view.depth == kChosenModules
                           ? std::to_string(boxes) + " modules collapsed"
                           : "collapsed to module depth " + std::to_string(view.depth);
    text += ": " + std::to_string(view.nodes.size()) + " nodes";
    if (view.depth != kOpLevel) text += " for " + op_nodes_text(ops);
    return text;
  }

  bool dormant(const std::string& path) const { return view.dormant_modules.count(path) > 0; }

  std::string legend() const {
    std::string t = "<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\">";
    auto row = [&](const std::string& fill, const std::string& border, const std::string& text) {
      t += "<tr><td bgcolor=\"" + fill + "\" color=\"" + border +
           "\" width=\"24\"> </td><td align=\"left\" border=\"0\">" + html_escape(text) + "</td></tr>";
    };
    if (diff_colors) {
      t += "<tr><td colspan=\"2\" border=\"0\"><b>diff</b></td></tr>";
      row(diff_style(DiffStatus::kVanished).fill, diff_style(DiffStatus::kVanished).border,
          "VANISHED (red, dashed)");
      row(diff_style(DiffStatus::kNew).fill, diff_style(DiffStatus::kNew).border, "NEW (green)");
      std::string changed = "CHANGED (orange): ";
      changed += view.has_costs ? std::string(metric_name(metric)) + " delta, shapes, or ran in one run only"
                                : "output shapes";
      row(diff_style(DiffStatus::kChanged).fill, diff_style(DiffStatus::kChanged).border, changed);
      row(diff_style(DiffStatus::kUnchanged).fill, diff_style(DiffStatus::kUnchanged).border, "UNCHANGED");
      t += "<tr><td colspan=\"2\" border=\"0\" align=\"left\">dashed box or frame: VANISHED from B</td></tr>";
      t +=
          "<tr><td colspan=\"2\" border=\"0\" align=\"left\">edges: red dashed VANISHED, green NEW</td></tr>";
      // node_label writes B's costs, A's only on VANISHED nodes (which B lacks); Δ is B minus A.
      if (view.has_costs)
        t += "<tr><td colspan=\"2\" border=\"0\" align=\"left\">costs on nodes: run B's (VANISHED: run "
             "A's); \xCE\x94 = B \xE2\x88\x92 A</td></tr>";
      if (!view.dormant_modules.empty())
        t += "<tr><td colspan=\"2\" border=\"0\" align=\"left\"><font color=\"" +
             std::string(kDormantBorder) +
             "\">dotted brown frame: DORMANT (ops run, result unused)</font></td></tr>";
    } else if (heat && !scale.empty()) {
      t += "<tr><td colspan=\"2\" border=\"0\"><b>" + html_escape(std::string(metric_name(metric))) +
           " per iteration</b></td></tr>";
      for (int b = 0; b < HeatScale::kBuckets; ++b) {
        std::string text = b + 1 < HeatScale::kBuckets
                               ? "\xE2\x89\xA5 " + format_metric(scale.lower_bound(b), metric)       // ≥
                               : "\xE2\x89\xA4 " + format_metric(scale.lower_bound(b - 1), metric);  // ≤
        if (b == 0) text += " (max " + format_metric(scale.max(), metric) + ")";
        row(HeatScale::fill(b), "#777777", text);
      }
      row("#ffffff", "#777777",
          metric == CostMetric::kFlops ? "zero, or no FLOPs formula" : "zero or not measured");
    } else {
      t += "<tr><td colspan=\"2\" border=\"0\"><b>no cost data</b></td></tr>";
      t += "<tr><td colspan=\"2\" border=\"0\">profile the model and draw the run database</td></tr>";
      t += "<tr><td colspan=\"2\" border=\"0\">to colour nodes by FLOPs, time or bytes</td></tr>";
    }
    t += "<tr><td colspan=\"2\" border=\"0\">raised box: a collapsed module (its ops in one); grey frames: "
         "modules</td></tr>";
    t += "</table>>";
    return t;
  }

  std::string run() {
    std::string title = view.title + "\n" + depth_text();
    if (!view.note.empty()) title += "\n" + view.note;
    if (diff_colors) {
      title += " \xC2\xB7 diff overlay";
    } else if (heat) {
      title += " \xC2\xB7 colour: " + std::string(metric_name(metric)) + " per iteration";
    }
    out += "digraph flopscope {\n";
    out +=
        "  graph [rankdir=TB, compound=true, newrank=true, fontname=\"Helvetica\", fontsize=14, labelloc=t, "
        "labeljust=l, nodesep=0.25, ranksep=0.3, label=" +
        dot_quote(title) + "];\n";
    out +=
        "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, "
        "fillcolor=\"#ffffff\", "
        "color=\"#777777\", margin=\"0.08,0.03\", height=0.3];\n";
    out += "  edge [color=\"#7f7f7f\", arrowsize=0.6, penwidth=0.8];\n";
    out += "  legend [shape=plaintext, style=\"\", fontsize=10, label=" + legend() + "];\n";
    write_contents("", "  ");
    for (const auto& e : view.edges) {
      out += "  n" + std::to_string(e.src) + " -> n" + std::to_string(e.dst);
      std::string attrs;
      if (!e.label.empty()) attrs += "tooltip=" + dot_quote(e.label);
      if (diff_colors && e.diff != DiffStatus::kUnchanged) {
        if (!attrs.empty()) attrs += ", ";
        attrs += "color=\"" + std::string(diff_style(e.diff).border) + "\"";
        if (e.diff == DiffStatus::kVanished) attrs += ", style=dashed";
      }
      if (!attrs.empty()) out += " [" + attrs + "]";
      out += ";\n";
    }
    out += "}\n";
    return std::move(out);
  }
};

}  // namespace

std::string write_dot(const ViewGraph& view, const DotOptions& options) {
  Writer w(view, options);
  return w.run();
}

}  // namespace flopscope::graphs
