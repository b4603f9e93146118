// `flopscope graph`: draws a model's computation graph (from a TorchScript file or a run database) as
// DOT, SVG, PDF or PNG, coloured by cost or as a diff against another version.
#include <cstdio>
#include <filesystem>
#include <optional>

#include "analyzer/diff/diff.h"
#include "analyzer/totals_summary.h"
#include "cli/command.h"
#include "cli/iteration_marker_option.h"
#include "cli/path_map_options.h"
#include "db/model/atomic_file.h"
#include "db/model/progress.h"
#include "db/model/text_escape.h"
#include "graphs/collapse.h"
#include "graphs/dot_writer.h"
#include "graphs/graph_diff.h"
#include "graphs/open_graph.h"
#include "graphs/paired_diff_graph.h"
#include "graphs/render.h"

namespace flopscope::cli {
namespace {

using namespace flopscope::graphs;

StatusOr<int> parse_depth(const std::string& text) {
  if (text == "auto") return -2;
  if (text == "ops" || text == "op") return kOpLevel;
  int value = 0;
  try {
    std::size_t used = 0;
    value = std::stoi(text, &used);
    if (used != text.size()) throw std::invalid_argument(text);
  } catch (const std::exception&) {
    return InvalidArgument("--depth " + text + ": expected auto, ops or a module depth >= 1");
  }
  if (value < 1) return InvalidArgument("--depth " + text + ": expected auto, ops or a module depth >= 1");
  return value;
}

class GraphCommand : public Command {
 public:
  void setup(CLI::App& sub) override {
    sub.add_option("input", input_, "TorchScript model (.pt) or run database (.db)")->required();
    sub.add_option("--diff", other_, "Overlay the diff against this model or run (INPUT is the base)");
    sub.add_option(
           "--depth", depth_,
           "auto (about --max-nodes nodes or fewer), ops (every op), or N: collapse modules at depth N")
        ->default_val("auto");
    sub.add_option("--max-nodes", max_nodes_,
                   "Node budget for --depth auto, and for the ops drawn from an imported trace")
        ->default_val(kDefaultMaxNodes);
    sub.add_option("--color-by", color_by_, "Heat colour: flops, time or bytes (per iteration; runs only)")
        ->default_val("flops")
        ->check(CLI::IsMember({"flops", "time", "bytes"}));
    add_iteration_marker_option(sub, iteration_marker_);
    sub.add_option("-o,--output", output_, "Output file: .dot, .svg, .pdf or .png")->required();
    sub.add_flag("-f,--force", force_, "Overwrite the output file");
    path_maps_.add_to(sub, "module paths of --diff");
  }

  int run() override {
    auto format = format_from_path(output_);
    if (!format.ok()) return report_error(format.status());
    if (*format != GraphFormat::kDot && !graphviz_rendering_available()) {
      return report_error(render_dot("", *format).status());
    }
    auto depth = parse_depth(depth_);
    if (!depth.ok()) return report_error(depth.status());
    if (Status s = check_distinct_paths({output_}, {input_, other_}); !s.ok()) return report_error(s);
    if (Status s = check_output_path(output_, force_); !s.ok()) return report_error(s);
    CostMetric metric = color_by_ == "time"    ? CostMetric::kTime
                        : color_by_ == "bytes" ? CostMetric::kBytes
                                               : CostMetric::kFlops;

    flopscope::DiffOptions path_options;
    if (Status s = path_maps_.fill(path_options); !s.ok()) return report_error(s);
    Progress progress("graph", 3);
    RunData run, other_run;
    auto graph = open_op_graph(input_, &run, max_nodes_, iteration_marker_);
    if (!graph.ok()) return report_error(graph.status());
    std::vector<std::string> maps;
    int dormant = 0;
    if (!other_.empty()) {
      auto other = open_op_graph(other_, &other_run, max_nodes_, iteration_marker_);
      if (!other.ok()) return report_error(other.status());
      // Two runs: the engine's diff of them (its pairing and its DORMANT verdicts). A model file has no run
      // to judge: its modules are paired by weights and structure only.
      std::optional<RunSummary> sa, sb;
      std::optional<RunDiff> verdicts;
      if (!run.ops.empty() && !other_run.ops.empty()) {
        sa = summarize(run, totals_summary_options());
        sb = summarize(other_run, totals_summary_options());
        verdicts = diff_runs(run, *sa, other_run, *sb, path_options);
        dormant = verdicts->modules_by_verdict[static_cast<int>(Verdict::kDormant)];
      }
      PairedDiffGraph paired = paired_diff_graph(
          std::move(*graph), std::move(*other), {run, sa ? &*sa : nullptr, other_run, sb ? &*sb : nullptr},
          path_options, change_rule(metric), verdicts ? &*verdicts : nullptr);
      graph = std::move(paired.graph);
      maps = std::move(paired.recorded);
    }
    progress.update(1);
    int chosen = *depth == -2 ? choose_depth(*graph, max_nodes_) : *depth;
    ViewGraph view = collapse(*graph, chosen);
    std::string dot = write_dot(view, {metric, changed_threshold(metric)});
    progress.update(2);
    auto bytes = render_dot(dot, *format);
    if (!bytes.ok()) return report_error(bytes.status().WithContext(output_));
    if (Status s = write_file_atomically(output_, *bytes, force_); !s.ok()) return report_error(s);
    progress.finish();

    std::size_t changed = 0;
    for (const auto& n : view.nodes) changed += n.diff != DiffStatus::kUnchanged ? 1 : 0;
    std::printf(
        "flopscope: wrote %s: %zu nodes, %s", output_.c_str(), view.nodes.size(),
        chosen == kOpLevel ? "op level" : ("modules collapsed at depth " + std::to_string(chosen)).c_str());
    if (view.is_diff) std::printf(", %zu nodes differ", changed);
    if (dormant > 0) std::printf(", %d DORMANT module%s", dormant, dormant == 1 ? "" : "s");
    if (!view.is_diff && !view.has_costs) std::printf(", no cost data");
    std::printf("\n");
    for (const auto& m : maps) std::printf("map %s\n", terminal_safe(m).c_str());
    return kExitOk;
  }

 private:
  std::string input_;
  std::string other_;
  std::string depth_ = "auto";
  std::size_t max_nodes_ = kDefaultMaxNodes;
  std::string color_by_ = "flops";
  std::string output_;
  std::string iteration_marker_;
  bool force_ = false;
  PathMapOptions path_maps_;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(
    GraphCommand, "graph",
    "Draw a model's computation graph (.pt or run .db) as DOT/SVG/PDF/PNG, by cost or as a diff", 60);

}  // namespace flopscope::cli
