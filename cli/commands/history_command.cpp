// flopscope history --from postgresql://... --module GLOB --metric p99: a metric of modules over stored runs.
#include "analyzer/diff/gates.h"
#include "analyzer/fleet/trend.h"
#include "cli/command.h"
#include "cli/printers/fleet_history.h"
#include "cli/run_input.h"
#include "db/fleet/pg_store.h"

namespace flopscope::cli {
namespace {

class HistoryCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("--from", url_, "Fleet store: postgresql://...[?branch=B&machine=M&model=SHA-PREFIX]")
        ->required();
    app.add_option("--module", glob_,
                   "Modules to show: a glob over module paths (default: the whole model, '')");
    app.add_option("--metric", metric_, "p50, p90, p99 (time per iteration), flops or bytes (default p50)")
        ->check(CLI::IsMember({"p50", "p90", "p99", "flops", "bytes"}));
    app.add_option("--clock", clock_, "Time metrics: host (op time, default) or device (kernel time)")
        ->check(CLI::IsMember({"host", "device"}));
    app.add_option("--last", last_, "Only the newest N matching runs")->check(CLI::PositiveNumber);
    app.add_option("--format", format_, "table (default), json, csv")
        ->check(CLI::IsMember({"table", "json", "csv"}));
    app.add_option("-o,--output", output_, "Write to a file instead of stdout");
    app.add_flag("-f,--force", force_, "Overwrite the output file");
  }

  int run() override {
    StatusOr<TrendMetric> metric = parse_trend_metric(metric_);
    if (!metric.ok()) return report_error(metric.status());
    StatusOr<StoreUrl> url = parse_store_url(url_);
    if (!url.ok()) return report_error(url.status());
    StatusOr<std::unique_ptr<FleetStore>> store = FleetStore::connect(*url);
    if (!store.ok()) return report_error(store.status());
    StatusOr<std::vector<StoredRunHeader>> runs =
        (*store)->runs({url->branch, url->machine, url->model, last_});
    if (!runs.ok()) return report_error(runs.status());
    std::vector<std::int64_t> ids;
    for (const auto& r : *runs) ids.push_back(r.id);
    auto keep = [this](const std::string& path) {
      return glob_.empty() ? path.empty() : glob_match(glob_, path);
    };
    StatusOr<std::vector<ModulePoint>> points = (*store)->modules(ids, keep);
    if (!points.ok()) return report_error(points.status());
    Trend trend = build_trend(std::move(runs).value(), *points, *metric,
                              clock_ == "device" ? TrendClock::kDevice : TrendClock::kHost);
    std::string text = format_ == "json"  ? render_trend_json(trend, glob_)
                       : format_ == "csv" ? render_trend_csv(trend)
                                          : render_trend_table(trend, glob_);
    Status st = emit_output(output_, text, force_);
    return st.ok() ? kExitOk : report_error(st);
  }

 private:
  std::string url_, glob_, metric_ = "p50", clock_ = "host", format_ = "table", output_;
  int last_ = 0;
  bool force_ = false;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(HistoryCommand, "history", "A metric of modules over the runs in a fleet store",
                           81);

}  // namespace flopscope::cli
