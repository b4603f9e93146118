// Import throughput of one trace file: parse + attribute (+ store into a run database unless --no-store).
// Prints one line of key=value figures; run_import_bench.py drives it next to Python's json.load.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "analyzer/importers/importer.h"
#include "analyzer/summary_facts_sink.h"
#include "db/model/progress.h"
#include "db/model/run_sink.h"
#include "db/run_database.h"

namespace {

// Counts records and drops them: parse + attribute cost alone.
class NullSink final : public flopscope::RunSink {
 public:
  flopscope::Status begin(const flopscope::RunInfo&) override { return {}; }
  flopscope::Status add_modules(std::span<const flopscope::ModuleRecord> m) override {
    return count(m.size());
  }
  flopscope::Status add_ops(std::span<const flopscope::OpRecord> o) override { return count(o.size()); }
  flopscope::Status add_kernels(std::span<const flopscope::KernelRecord> k) override {
    kernels += k.size();
    return count(k.size());
  }
  flopscope::Status add_params(std::span<const flopscope::ParamRecord> p) override { return count(p.size()); }
  flopscope::Status add_graph(std::span<const flopscope::GraphNode> n,
                              std::span<const flopscope::GraphEdge>) override {
    return count(n.size());
  }
  flopscope::Status add_quality(std::span<const flopscope::QualityIssue> q) override {
    return count(q.size());
  }
  flopscope::Status finish() override { return {}; }
  std::size_t records = 0, kernels = 0;

 private:
  flopscope::Status count(std::size_t n) {
    records += n;
    return {};
  }
};

// Forwards to the database, counting kernels.
class CountingSink final : public flopscope::RunSink {
 public:
  explicit CountingSink(flopscope::RunSink& to) : to_(to) {}
  flopscope::Status begin(const flopscope::RunInfo& i) override { return to_.begin(i); }
  flopscope::Status add_modules(std::span<const flopscope::ModuleRecord> m) override {
    return to_.add_modules(m);
  }
  flopscope::Status add_ops(std::span<const flopscope::OpRecord> o) override { return to_.add_ops(o); }
  flopscope::Status add_kernels(std::span<const flopscope::KernelRecord> k) override {
    kernels += k.size();
    return to_.add_kernels(k);
  }
  flopscope::Status add_params(std::span<const flopscope::ParamRecord> p) override {
    return to_.add_params(p);
  }
  flopscope::Status add_graph(std::span<const flopscope::GraphNode> n,
                              std::span<const flopscope::GraphEdge> e) override {
    return to_.add_graph(n, e);
  }
  flopscope::Status add_quality(std::span<const flopscope::QualityIssue> q) override {
    return to_.add_quality(q);
  }
  flopscope::Status finish() override { return to_.finish(); }
  std::size_t kernels = 0;

 private:
  flopscope::RunSink& to_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: import_bench TRACE [OUT.db | --no-store]\n");
    return 2;
  }
  std::string path = argv[1];
  std::string out = argc > 2 ? argv[2] : "--no-store";
  flopscope::Progress::set_globally_enabled(false);
  flopscope::ImportOptions options;
  options.progress = false;
  auto t0 = std::chrono::steady_clock::now();
  std::size_t kernels = 0;
  flopscope::Status s;
  if (out == "--no-store") {
    NullSink sink;
    s = flopscope::import_trace(path, sink, options);
    kernels = sink.kernels;
  } else {
    auto db = flopscope::create_run_database(out, true);
    if (!db.ok()) {
      std::fprintf(stderr, "%s\n", db.status().message().c_str());
      return 2;
    }
    flopscope::SummaryFactsSink facts(**db);  // what `flopscope import` writes: rows and summary facts
    CountingSink sink(facts);
    s = flopscope::import_trace(path, sink, options);
    kernels = sink.kernels;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 2;
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  std::printf("seconds=%.3f mb=%.1f mb_per_s=%.1f kernels=%zu kernels_per_s=%.0f peak_rss_mb=%.1f\n", seconds,
              mb, mb / seconds, kernels, static_cast<double>(kernels) / seconds,
              static_cast<double>(ru.ru_maxrss) / 1024.0);
  return 0;
}
