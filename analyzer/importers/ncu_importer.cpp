// Nsight Compute CSV (`ncu --csv`): the details page (long: one row per kernel x metric) and the raw page
// (wide: one column per metric, a units row under the header). Kernels only, with measured counters;
// ncu serialises and replays kernels, so kernels are laid end to end in ID order on the time axis.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <unordered_map>

#include "analyzer/importers/byte_source.h"
#include "analyzer/importers/counters.h"
#include "analyzer/importers/csv_reader.h"
#include "analyzer/importers/importer.h"
#include "analyzer/importers/importer_util.h"
#include "analyzer/importers/trace_builder.h"
#include "analyzer/importers/units.h"

namespace flopscope {
namespace {

struct NcuKernel {
  std::string name;
  std::string gpu;  // device__attribute_display_name, or "compute capability X.Y" from the raw page's CC
  std::int64_t stream = 0;
  int device = 0;
  const char* malformed = nullptr;  // why the kernel cannot be kept (device id, name), else nullptr
  std::array<int, 3> grid{0, 0, 0};
  std::array<int, 3> block{0, 0, 0};
  CounterSet counters;
  double duration_ns = -1;  // gpu__time_duration.sum or "Duration"
  double cycles = -1, cycles_per_second = -1;
};

// "(256, 1, 1)" -> {256, 1, 1}; "6,400" -> {6400, 1, 1}.
bool parse_dim3(std::string_view text, std::array<int, 3>& out) {
  if (text.empty()) return false;
  if (text.front() == '(') {
    std::array<int, 3> v{1, 1, 1};
    std::size_t i = 0;
    std::string part;
    for (char c : text.substr(1)) {
      if (c == ',' || c == ')') {
        auto n = parse_locale_number(part);
        if (!n || i >= 3) return false;
        v[i++] = static_cast<int>(*n);
        part.clear();
      } else if (c != ' ') {
        part += c;
      }
    }
    out = v;
    return i > 0;
  }
  auto n = parse_locale_number(text);
  if (!n) return false;
  out = {static_cast<int>(*n), 1, 1};
  return true;
}

void take_metric(NcuKernel& k, std::string_view metric, std::string_view unit, std::string_view value,
                 TraceBuilder& builder) {
  if (metric == "Grid Size" || metric == "launch__grid_size") {
    if (k.grid[0] == 0) parse_dim3(value, k.grid);
    return;
  }
  if (metric == "Block Size" || metric == "launch__block_size") {
    if (k.block[0] == 0) parse_dim3(value, k.block);
    return;
  }
  // The GPU decides whether tensor-pipe instructions convert to FLOPs (analyzer/tensor_factor).
  if (metric == "device__attribute_display_name") {
    k.gpu = value;
    return;
  }
  if (metric == "CC") {
    if (k.gpu.empty() && !value.empty()) k.gpu = "compute capability " + std::string(value);
    return;
  }
  auto number = parse_locale_number(value);
  if (!number) return;  // "n/a", text values
  UnitScale scale = unit_scale(unit);
  if (!scale.known) builder.issue(QualityCode::metric_unit_unknown, unit);
  double v = *number * scale.factor;
  if (metric == "gpu__time_duration.sum" || metric == "Duration") {
    if (scale.base == "ns") k.duration_ns = v;
  } else if (metric == "sm__cycles_elapsed.avg" || metric == "Elapsed Cycles") {
    k.cycles = v;
  } else if (metric == "sm__cycles_elapsed.avg.per_second" || metric == "SM Frequency") {
    k.cycles_per_second = v;
  } else {
    k.counters.take(metric, v);
  }
}

class NcuImporter final : public Importer {
 public:
  std::string_view name() const override { return "ncu"; }

  int sniff(std::string_view head, const std::string& path) const override {
    // ncu may print ==PROF== lines before the header; the header starts with "ID".
    if (head.find("\"ID\",\"Process ID\"") != std::string_view::npos ||
        (head.find("\"ID\"") != std::string_view::npos &&
         head.find("\"Kernel Name\"") != std::string_view::npos)) {
      return 95;
    }
    if (head.find("==PROF==") != std::string_view::npos) return 60;
    // Some other CSV: ours to say which columns are missing.
    auto eol = head.find('\n');
    auto first = head.substr(0, eol);
    // A Markdown heading or table with a comma in it is not a CSV header.
    bool csv_like =
        first.find(',') != std::string_view::npos && first.find('{') == std::string_view::npos &&
        !first.starts_with('#') && !first.starts_with('|') &&
        std::all_of(first.begin(), first.end(), [](char c) { return c == '\t' || c == '\r' || c >= 0x20; });
    if (csv_like) return path.ends_with(".csv") ? 30 : 10;
    return 0;
  }

  Status import(const std::string& path, RunSink& sink, const ImportOptions& options) const override {
    FS_ASSIGN_OR_RETURN(ByteSource source, ByteSource::open(path));
    auto hash = hash_file_async(path);
    TraceBuilder builder(make_run_info(path, SourceKind::kNcu, options));
    CsvReader csv(source);
    std::vector<std::string> row;
    // Header: the first row whose first field is "ID" (skipping ==PROF== and application output).
    std::vector<std::string> header;
    for (int scanned = 0; scanned < 10000; ++scanned) {
      FS_ASSIGN_OR_RETURN(bool got, csv.next(row));
      if (!got) break;
      if (!row.empty() && row[0] == "ID") {
        header = row;
        break;
      }
    }
    auto column = [&](std::string_view n) -> int {
      auto it = std::find(header.begin(), header.end(), n);
      return it == header.end() ? -1 : static_cast<int>(it - header.begin());
    };
    const int c_id = column("ID"), c_kernel = column("Kernel Name"), c_metric = column("Metric Name"),
              c_unit = column("Metric Unit"), c_value = column("Metric Value"), c_stream = column("Stream"),
              c_device = column("Device"), c_grid = column("Grid Size"), c_block = column("Block Size");
    if (c_id < 0 || c_kernel < 0) {
      return InvalidArgument(path +
                             ": CSV with unknown columns: not Nsight Compute output (expected a header with "
                             "\"ID\" and \"Kernel Name\", from ncu --csv)");
    }
    const bool long_format = c_metric >= 0 && c_value >= 0;
    std::vector<std::string> units;
    if (!long_format) {
      FS_ASSIGN_OR_RETURN(bool got, csv.next(units));
      if (!got) return InvalidArgument(path + ": Nsight Compute raw CSV without a units row or data");
      units.resize(header.size());
    }

    // Trailing empty columns (rule fields) may be missing from metric rows.
    int needed = std::max({c_id, c_kernel, c_metric, c_unit, c_value, c_stream, c_device, c_grid, c_block});
    std::map<std::int64_t, NcuKernel> kernels;
    std::uint64_t bad_rows = 0;
    for (;;) {
      FS_ASSIGN_OR_RETURN(bool got, csv.next(row));
      if (!got) break;
      if (row.size() == 1 && row[0].empty()) continue;
      if (static_cast<int>(row.size()) <= needed || (!long_format && row.size() < header.size()) ||
          row[0].starts_with("==")) {
        ++bad_rows;
        builder.issue(QualityCode::csv_rows_too_few_fields, "line " + std::to_string(csv.line()));
        continue;
      }
      auto id = parse_locale_number(row[static_cast<std::size_t>(c_id)]);
      if (!id) {
        builder.issue(QualityCode::csv_rows_without_kernel_id, "line " + std::to_string(csv.line()));
        continue;
      }
      auto& k = kernels[static_cast<std::int64_t>(*id)];
      if (k.name.empty()) {
        k.name = row[static_cast<std::size_t>(c_kernel)];
        if (has_nul(k.name)) k.malformed = "name holds a NUL character";
        if (c_stream >= 0) {
          // In range before the conversion, which is undefined outside it.
          if (auto s = parse_locale_number(row[static_cast<std::size_t>(c_stream)]); s && std::abs(*s) < 9e18)
            k.stream = static_cast<std::int64_t>(*s);
        }
        if (c_device >= 0) {
          if (auto d = parse_locale_number(row[static_cast<std::size_t>(c_device)])) {
            if (device_id_ok(*d)) {
              k.device = static_cast<int>(*d);
            } else {
              k.malformed = "device id out of range";
            }
          }
        }
        if (c_grid >= 0) parse_dim3(row[static_cast<std::size_t>(c_grid)], k.grid);
        if (c_block >= 0) parse_dim3(row[static_cast<std::size_t>(c_block)], k.block);
      }
      if (long_format) {
        const auto& metric = row[static_cast<std::size_t>(c_metric)];
        if (metric.empty()) continue;  // rule rows
        take_metric(k, metric, c_unit >= 0 ? row[static_cast<std::size_t>(c_unit)] : std::string(),
                    row[static_cast<std::size_t>(c_value)], builder);
      } else {
        for (std::size_t i = 0; i < header.size(); ++i) {
          if (static_cast<int>(i) == c_grid || static_cast<int>(i) == c_block) continue;
          take_metric(k, header[i], units[i], row[i], builder);
        }
      }
    }
    (void)bad_rows;
    if (kernels.empty()) return InvalidArgument(path + ": Nsight Compute CSV without any kernel rows");

    for (const auto& [id, k] : kernels) {
      if (!k.gpu.empty()) {
        builder.info().device = k.gpu;
        break;
      }
    }
    std::int64_t t = 0;
    std::int64_t no_duration = 0;
    for (auto& [id, k] : kernels) {
      if (k.malformed) {
        builder.issue(QualityCode::malformed_trace_events,
                      "kernel ID " + std::to_string(id) + ": " + k.malformed);
        continue;
      }
      TraceBuilder::Activity a;
      a.name = builder.intern(k.name);
      a.device = k.device;
      a.stream = k.stream;
      a.grid = k.grid;
      a.block = k.block;
      a.correlation = TraceBuilder::kNone;
      double dur = k.duration_ns;
      if (dur < 0 && k.cycles >= 0 && k.cycles_per_second > 0) dur = k.cycles / k.cycles_per_second * 1e9;
      if (dur < 0) {
        ++no_duration;
        dur = 0;
      }
      // NaN or beyond ~73 years: converting would be undefined and the running sum would overflow.
      if (!(dur < 2.3e18)) {
        builder.issue(QualityCode::kernels_impossible_duration, k.name);
        continue;
      }
      if (t > (std::int64_t{1} << 61)) {
        builder.issue(QualityCode::kernels_past_time_range, k.name);
        continue;
      }
      a.start_ns = t;
      a.duration_ns = std::llround(dur);
      t += a.duration_ns;
      if (k.counters.any) a.counters = builder.add_counters(k.counters.counters());
      builder.add_activity(a);
    }
    if (no_duration > 0) {
      for (std::int64_t i = 0; i < no_duration; ++i) {
        builder.issue(QualityCode::kernels_without_duration,
                      "collect gpu__time_duration.sum or sm__cycles_elapsed.avg(.per_second)");
      }
    }
    builder.issue(QualityCode::kernels_end_to_end);
    store_hash(hash, builder.info());
    return builder.finish(sink);
  }
};

}  // namespace

std::unique_ptr<Importer> make_ncu_importer() {
  return std::make_unique<NcuImporter>();
}

}  // namespace flopscope
