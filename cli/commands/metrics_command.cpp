// `flopscope metrics [--chip GH100] [--metrics LIST] [--all]`: the counter set `exec` would collect, checked
// against the chip with CUPTI's Profiler Host API (works offline, without a GPU), with its pass count.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/command.h"
#include "collector/cupti/gpu_probe.h"
#include "collector/cupti/metric_plan.h"

namespace flopscope::cli {
namespace {

class MetricsCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("--chip", chip_, "GPU chip, e.g. GH100 (H100/H200); default: the chip of GPU 0");
    app.add_option("--metrics", metrics_, "Metric set to check: default, hardware, or a comma-separated list")
        ->default_val("default");
    app.add_flag("--all", all_, "List every base metric the chip has instead");
    app.add_flag("--json", json_, "Print JSON");
  }

  int run() override {
    gpu::CuptiApi& api = gpu::real_cupti();
    if (chip_.empty()) {
      auto gpus = gpu::probe_gpus();
      if (!gpus.ok())
        return report_error(InvalidArgument(gpus.status().message() + "; pass --chip (e.g. --chip GH100)"));
      if (CUptiResult r = api.chip_name(0, &chip_); r != CUPTI_SUCCESS) {
        return report_error(gpu::cupti_status(api, r, "reading the GPU's chip name"));
      }
    }
    if (all_) {
      auto names = gpu::chip_base_metrics(api, chip_);
      if (!names.ok()) return report_error(names.status());
      for (const auto& n : *names) std::printf("%s\n", n.c_str());
      return kExitOk;
    }
    auto plan = gpu::plan_metrics(api, chip_, gpu::parse_metrics_option(metrics_, chip_), "", 0);
    if (!plan.ok()) return report_error(plan.status());
    if (json_) {
      nlohmann::json j;
      j["chip"] = plan->chip;
      j["set"] = metrics_;
      j["passes"] = plan->passes;
      j["metrics"] = nlohmann::json::array();
      for (const auto& m : plan->info) {
        j["metrics"].push_back({{"name", m.name},
                                {"role", gpu::to_string(m.role)},
                                {"unit", m.dim_unit},
                                {"hw_unit", m.hw_unit},
                                {"description", m.description}});
      }
      std::printf("%s\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
      return kExitOk;
    }
    std::printf("chip %s, metric set '%s': %zu metrics, %zu pass%s per kernel\n", plan->chip.c_str(),
                metrics_.c_str(), plan->metrics.size(), plan->passes, plan->passes == 1 ? "" : "es");
    for (const auto& m : plan->info) {
      std::printf("  %-55s %-22s %s\n", m.name.c_str(), gpu::to_string(m.role), m.description.c_str());
    }
    if (plan->passes > 1) {
      std::printf(
          "SASS-patched counters (smsp__sass_*) always take a pass of their own; "
          "--metrics hardware drops them for a one-pass set.\n");
    }
    return kExitOk;
  }

 private:
  std::string chip_;
  std::string metrics_ = "default";
  bool all_ = false;
  bool json_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(MetricsCommand, "metrics",
                           "List and check GPU counter sets for a chip (offline, no GPU needed)", 61);

}  // namespace flopscope::cli
