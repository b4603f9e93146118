#include "analyzer/fleet/exposition.h"

#include <cstdio>

#include "analyzer/latency.h"
#include "db/model/text_escape.h"

namespace flopscope {
namespace {

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string module_label(const std::string& path) {
  return path.empty() ? "(model)" : path;
}

class Writer {
 public:
  void family(const char* name, const char* type, const char* help) {
    out_ += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  }
  // labels: alternating name, value.
  void sample(const char* name, std::initializer_list<std::string> labels, double value) {
    out_ += name;
    out_ += '{';
    bool first = true;
    for (auto it = labels.begin(); it != labels.end(); it += 2) {
      if (!first) out_ += ',';
      first = false;
      out_ += *it + "=\"" + prometheus_label_escape(*(it + 1)) + "\"";
    }
    out_ += "} " + number(value) + "\n";
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

const char* const kStates[] = {"ACTIVE", "ZEROED", "ERASED"};
const char* const kQuantiles[][2] = {{"0.5", "p50"}, {"0.9", "p90"}, {"0.99", "p99"}};

void quantile_samples(Writer& w, const char* name, const ExpositionSource& s, const std::string* module,
                      const char* clock, const FleetQuantiles& q) {
  if (!q.known) return;  // unknown clock: no series, never a 0
  const double v[] = {q.p50, q.p90, q.p99};
  const int percentile[] = {50, 90, 99};
  const std::string& source = s.source;
  for (int i = 0; i < 3; ++i) {
    // With too few iterations P90/P99 are the extremes: no series rather than a mislabelled one.
    if (s.iterations < min_samples_for_percentile(percentile[i])) continue;
    if (module)
      w.sample(
          name,
          {"source", source, "module", module_label(*module), "clock", clock, "quantile", kQuantiles[i][0]},
          v[i] * 1e-9);
    else
      w.sample(name, {"source", source, "clock", clock, "quantile", kQuantiles[i][0]}, v[i] * 1e-9);
  }
}

}  // namespace

std::string prometheus_label_escape(const std::string& value) {
  return prometheus_label_value(value);
}

ExpositionSource exposition_source_down(std::string kind, std::string input) {
  ExpositionSource s;
  s.kind = std::move(kind);
  s.source = input;
  s.input = std::move(input);
  s.up = false;
  return s;
}

std::string render_exposition(const std::vector<ExpositionSource>& sources) {
  Writer w;
  w.family("flopscope_source_up", "gauge",
           "1 when the source (run file, weights file, diff or store) was read for this scrape, 0 when it "
           "could not be (its other series are then absent)");
  for (const auto& s : sources) {
    w.sample("flopscope_source_up", {"source", s.input.empty() ? s.source : s.input, "kind", s.kind},
             s.up ? 1 : 0);
  }
  w.family("flopscope_source_info", "gauge", "Sources this exporter read (1 each)");
  for (const auto& s : sources) {
    if (s.up) w.sample("flopscope_source_info", {"source", s.source, "kind", s.kind}, 1);
  }

  w.family("flopscope_module_weight_state", "gauge",
           "1 for the state of the module's parameters (ACTIVE, ZEROED: all zero, ERASED: no storage), 0 "
           "otherwise");
  for (const auto& s : sources) {
    for (const auto& m : s.modules) {
      if (m.weight_state.empty()) continue;
      for (const char* state : kStates) {
        w.sample("flopscope_module_weight_state",
                 {"source", s.source, "module", module_label(m.path), "state", state},
                 m.weight_state == state ? 1 : 0);
      }
    }
  }
  w.family("flopscope_module_flops_per_iteration", "gauge", "Analytic FLOPs per iteration, module inclusive");
  for (const auto& s : sources) {
    if (!s.has_costs) continue;
    for (const auto& m : s.modules) {
      w.sample("flopscope_module_flops_per_iteration", {"source", s.source, "module", module_label(m.path)},
               m.flops);
    }
  }
  w.family("flopscope_module_bytes_per_iteration", "gauge",
           "Analytic bytes read and written per iteration, module inclusive");
  for (const auto& s : sources) {
    if (!s.has_costs) continue;
    for (const auto& m : s.modules) {
      w.sample("flopscope_module_bytes_per_iteration", {"source", s.source, "module", module_label(m.path)},
               m.bytes);
    }
  }
  w.family(
      "flopscope_module_time_seconds", "summary",
      "Time per iteration of the latest run, by clock (host: op time, device: kernel time) and quantile");
  for (const auto& s : sources) {
    if (!s.has_costs) continue;
    for (const auto& m : s.modules) {
      quantile_samples(w, "flopscope_module_time_seconds", s, &m.path, "host", m.host);
      quantile_samples(w, "flopscope_module_time_seconds", s, &m.path, "device", m.device);
    }
  }
  w.family("flopscope_iteration_time_seconds", "summary", "End-to-end time per iteration of the latest run");
  for (const auto& s : sources) {
    if (!s.has_costs) continue;
    quantile_samples(w, "flopscope_iteration_time_seconds", s, nullptr, "host", s.host);
    quantile_samples(w, "flopscope_iteration_time_seconds", s, nullptr, "device", s.device);
  }
  w.family("flopscope_candidate_time_share", "gauge",
           "Elimination candidates (modules that behave as zero or identity, or never run): their share of "
           "iteration time");
  for (const auto& s : sources) {
    for (const auto& c : s.candidates) {
      w.sample("flopscope_candidate_time_share",
               {"source", s.source, "module", module_label(c.module), "behaviour", c.behaviour},
               c.share_time);
    }
  }
  // Diffs: what forward() returned in B against A on the same inputs, next to B's weight states above.
  w.family(
      "flopscope_diff_outputs_compared", "gauge",
      "1 when a diff's outputs were compared on the same inputs, 0 when they could not be (inputs differ, "
      "shapes differ, no stored outputs)");
  for (const auto& s : sources) {
    if (s.is_diff)
      w.sample("flopscope_diff_outputs_compared", {"source", s.source}, s.outputs_compared ? 1 : 0);
  }
  w.family("flopscope_diff_output_max_relative_change", "gauge",
           "Largest |B - A| / max |A| over a diff's outputs (absent when not known)");
  for (const auto& s : sources) {
    if (s.is_diff && s.outputs_compared && s.output_max_rel_change >= 0)
      w.sample("flopscope_diff_output_max_relative_change", {"source", s.source}, s.output_max_rel_change);
  }
  w.family("flopscope_diff_output_top1_agreement", "gauge",
           "Share of positions whose top-1 (argmax of the last dimension) agrees between A and B");
  for (const auto& s : sources) {
    if (s.is_diff && s.outputs_compared && s.top1_total > 0) {
      w.sample("flopscope_diff_output_top1_agreement", {"source", s.source},
               static_cast<double>(s.top1_agree) / static_cast<double>(s.top1_total));
    }
  }
  w.family("flopscope_diff_output_non_finite", "gauge", "1 when an output of A or B holds NaN or Inf");
  for (const auto& s : sources) {
    if (s.is_diff && s.outputs_compared)
      w.sample("flopscope_diff_output_non_finite", {"source", s.source}, s.outputs_non_finite ? 1 : 0);
  }
  return w.take();
}

}  // namespace flopscope
