// `flopscope weights FILE [FILE2]`: per-tensor statistics and state of a weights file, or the comparison
// of two (tensors joined by name: CHANGED / UNCHANGED / NEW / REMOVED, MOVED when the other file holds the
// content under another name, and each tensor's state in B).
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "analyzer/diff/align.h"
#include "analyzer/weights/weights.h"
#include "cli/command.h"
#include "cli/path_map_options.h"
#include "cli/printers/diff_format.h"
#include "db/model/atomic_file.h"

namespace flopscope::cli {
namespace {

nlohmann::json number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json tensor_json(const TensorInfo& t) {
  return {{"name", t.name},
          {"dtype", t.dtype},
          {"shape", t.shape},
          {"numel", t.numel},
          {"bytes", t.bytes},
          {"l2", number(t.l2)},
          {"max_abs", number(t.max_abs)},
          {"nonzero_fraction", t.nonzero_fraction},
          {"decoded", t.decoded},
          {"sum", number(t.sum)},
          {"sha256", t.sha256},
          {"state", to_string(t.state)},
          {"note", t.note}};
}

std::string state_counts(const WeightsReport& r) {
  std::map<std::string, int> n;
  for (const auto& t : r.tensors) ++n[to_string(t.state)];
  std::string out;
  for (const char* s : {"ACTIVE", "ZEROED", "ERASED"}) {
    if (n[s] > 0) out += (out.empty() ? "" : ", ") + std::to_string(n[s]) + " " + s;
  }
  return out.empty() ? "no tensors" : out;
}

class WeightsCommand : public Command {
 public:
  void setup(CLI::App& sub) override {
    // Two positionals, so the usage line reads "weights [OPTIONS] file [file_b]" (not "files(1x)").
    sub.add_option("file", file_a_,
                   "A weights file (.safetensors, model.safetensors.index.json, torch.save "
                   ".bin/.pth, TorchScript .pt)")
        ->required();
    sub.add_option("file_b", file_b_, "A second weights file: compare FILE (A) with it (B)");
    sub.add_option("--atol", options_.atol, "Values with |x| <= ATOL count as zero (default 0)")
        ->check(CLI::NonNegativeNumber);
    sub.add_option("--format", format_, "Output format")->check(CLI::IsMember({"table", "md", "json"}));
    sub.add_option("-o,--output", output_, "Write to FILE instead of standard output");
    sub.add_flag("-f,--force", force_, "Overwrite --output if it exists");
    sub.add_flag("--no-hash", no_hash_, "Skip sha256 (faster; comparison then uses the statistics)");
    path_maps_.add_to(sub, "tensor names (module paths within them)");
  }

  int run() override {
    files_ = {file_a_};
    if (!file_b_.empty()) files_.push_back(file_b_);
    if (!output_.empty()) {
      if (Status st = check_distinct_paths({output_}, files_); !st.ok()) return report_error(st);
      if (Status st = check_output_path(output_, force_); !st.ok()) return report_error(st);
    }
    options_.hash = !no_hash_;
    if (Status st = path_maps_.fill(diff_options_); !st.ok()) return report_error(st);
    std::vector<WeightsReport> reports;
    for (const auto& f : files_) {
      auto r = read_weights(f, options_);
      if (!r.ok()) return report_error(r.status());
      reports.push_back(std::move(r).value());
    }
    std::string text = reports.size() == 1 ? single(reports[0]) : pair(reports[0], reports[1]);
    if (output_.empty()) {
      const std::string shown = terminal_safe(text);  // tensor names come from the file
      std::fwrite(shown.data(), 1, shown.size(), stdout);
      return kExitOk;
    }
    if (Status st = write_file_atomically(output_, text, force_); !st.ok()) return report_error(st);
    return kExitOk;
  }

 private:
  std::string single(const WeightsReport& r) const {
    if (format_ == "json") {
      nlohmann::json j = {{"schema", "flopscope.weights"}, {"version", 1}, {"atol", options_.atol}};
      nlohmann::json tensors = nlohmann::json::array();
      for (const auto& t : r.tensors) tensors.push_back(tensor_json(t));
      j["files"] = {{{"path", r.path},
                     {"format", r.format},
                     {"total_bytes", r.total_bytes},
                     {"tensors", tensors},
                     {"warnings", r.warnings}}};
      return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    TextTable t;
    t.header = {"tensor", "dtype", "shape", "numel", "bytes", "L2", "max|x|", "nonzero", "state", "sha256"};
    t.right_align = {false, false, false, true, true, true, true, true, false, false};
    for (const auto& x : r.tensors) {
      bool real = x.state != TensorState::kErased;
      t.rows.push_back(
          {x.name, x.dtype, format_shape(x.shape), format_count(static_cast<double>(x.numel)),
           bytes_text(static_cast<double>(x.bytes)), real && x.decoded ? format_general(x.l2) : "-",
           real && x.decoded ? format_general(x.max_abs) : "-", real ? percent_text(x.nonzero_fraction) : "-",
           to_string(x.state), x.sha256.substr(0, 12)});
    }
    std::string head = r.path + " (" + r.format + "): " + std::to_string(r.tensors.size()) + " tensors, " +
                       bytes_text(static_cast<double>(r.total_bytes)) + "; " + state_counts(r) + "\n";
    std::string out =
        format_ == "md" ? "**" + markdown_escape(head.substr(0, head.size() - 1)) + "**\n\n" + t.to_markdown()
                        : head + "\n" + t.to_text();
    for (const auto& w : r.warnings) out += "warning: " + w + "\n";
    return out;
  }

  std::string pair(const WeightsReport& a, const WeightsReport& b) const {
    // Joined by the mapped names, B's container children aligned to A's by structure and contents (the
    // same alignment as `diff`), so removing blocks.1 does not shift blame onto every later block.
    DiffPaths paths = weights_diff_paths(to_param_records(a), to_param_records(b), diff_options_);
    auto rows = compare_weights(a, b, paths.a, paths.b);
    for (auto& row : rows) {
      if (row.a && row.b && row.b->name != row.name && row.change != TensorChange::kMoved) {
        row.what = "B: " + row.b->name + (row.what.empty() ? "" : "; " + row.what);
      }
    }
    if (format_ == "json") {
      nlohmann::json j = {{"schema", "flopscope.weights"}, {"version", 1}, {"atol", options_.atol}};
      j["files"] = nlohmann::json::array();
      for (const auto* r : {&a, &b}) {
        j["files"].push_back({{"path", r->path},
                              {"format", r->format},
                              {"total_bytes", r->total_bytes},
                              {"warnings", r->warnings}});
      }
      nlohmann::json cmp = nlohmann::json::array();
      for (const auto& row : rows) {
        cmp.push_back({{"name", row.name},
                       {"change", to_string(row.change)},
                       {"state_a", row.a ? to_string(row.a->state) : "ERASED"},
                       {"state_b", to_string(row.state_b)},
                       {"what", row.what},
                       {"moved", row.change == TensorChange::kMoved
                                     ? nlohmann::json{{"relation", to_string(row.relation)},
                                                      {"similarity", number(row.similarity)}}
                                     : nlohmann::json(nullptr)},
                       {"a", row.a ? tensor_json(*row.a) : nlohmann::json(nullptr)},
                       {"b", row.b ? tensor_json(*row.b) : nlohmann::json(nullptr)}});
      }
      j["comparison"] = cmp;
      j["maps"] = paths.recorded;
      return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    TextTable t;
    t.header = {"tensor", "dtype", "shape", "A", "B", "change", "L2 A", "L2 B", "what"};
    t.right_align = {false, false, false, false, false, false, true, true, false};
    std::map<std::string, int> counts;
    for (const auto& row : rows) {
      const TensorInfo* any = row.a ? row.a : row.b;
      ++counts[to_string(row.change)];
      auto l2 = [](const TensorInfo* x) {
        return x && x->state != TensorState::kErased && x->decoded ? format_general(x->l2) : std::string("-");
      };
      t.rows.push_back({row.name, any->dtype, format_shape(any->shape),
                        row.a ? to_string(row.a->state) : "ERASED", to_string(row.state_b),
                        to_string(row.change), l2(row.a), l2(row.b), row.what});
    }
    std::string summary;
    for (const auto& [k, n] : counts) summary += (summary.empty() ? "" : ", ") + std::to_string(n) + " " + k;
    std::string head = "A: " + a.path + " (" + a.format + ", " + state_counts(a) + ")\nB: " + b.path + " (" +
                       b.format + ", " + state_counts(b) + ")\n" + summary + "\n";
    for (const auto& m : paths.recorded) head += "map " + m + "\n";
    std::string out =
        format_ == "md" ? markdown_escape(head) + "\n" + t.to_markdown() : head + "\n" + t.to_text();
    for (const auto* r : {&a, &b}) {
      for (const auto& w : r->warnings) out += "warning: " + r->path + ": " + w + "\n";
    }
    return out;
  }

  std::string file_a_, file_b_;
  std::vector<std::string> files_;
  WeightsOptions options_;
  PathMapOptions path_maps_;
  DiffOptions diff_options_;
  std::string format_ = "table";
  std::string output_;
  bool force_ = false;
  bool no_hash_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(
    WeightsCommand, "weights",
    "Per-tensor statistics and state (ACTIVE/ZEROED/ERASED) of weights files, or compare two", 60);

}  // namespace flopscope::cli
