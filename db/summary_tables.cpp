#include "db/summary_tables.h"

#include <bit>
#include <unordered_set>

#include "db/table_reader.h"

namespace flopscope {
namespace {

constexpr std::size_t kEntryBytes = 12;  // uint32 iteration index, float64 value, little-endian

std::string encode_values(const IterationValues& values) {
  std::string out(values.size() * kEntryBytes, '\0');
  char* p = out.data();
  for (const auto& [index, value] : values) {
    const auto v = std::bit_cast<std::uint64_t>(value);
    for (int b = 0; b < 4; ++b) *p++ = static_cast<char>((index >> (8 * b)) & 0xff);
    for (int b = 0; b < 8; ++b) *p++ = static_cast<char>((v >> (8 * b)) & 0xff);
  }
  return out;
}

Status decode_values(const sqlite::Database& db, std::string_view blob, std::size_t iterations,
                     IterationValues& out) {
  if (blob.size() % kEntryBytes != 0) {
    return Corrupt(db.path() + ": summary_module: a per-iteration value of " + std::to_string(blob.size()) +
                   " bytes (not a multiple of 12)");
  }
  out.resize(blob.size() / kEntryBytes);
  const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
  for (auto& [index, value] : out) {
    std::uint32_t it = 0;
    std::uint64_t v = 0;
    for (int b = 0; b < 4; ++b) it |= std::uint32_t{*p++} << (8 * b);
    for (int b = 0; b < 8; ++b) v |= std::uint64_t{*p++} << (8 * b);
    if (it >= iterations) {
      return Corrupt(db.path() + ": summary_module: iteration index " + std::to_string(it) +
                     " of a run with " + std::to_string(iterations) + " iterations");
    }
    index = it;
    value = std::bit_cast<double>(v);
  }
  return {};
}

// Binds values to consecutive parameters from `col` on.
template <typename... T>
Status bind_all(sqlite::Statement& s, int& col, T... values) {
  Status st;
  ((st = st.ok() ? s.bind(col++, values) : st), ...);
  return st;
}

Status write_timeline(sqlite::Database& db, const Timeline& t) {
  FS_ASSIGN_OR_RETURN(
      sqlite::Statement s,
      db.prepare(
          "INSERT INTO summary_timeline (per_device, device, stream, activities, span_ns, sum_ns, busy_ns, "
          "idle_ns, overlap_ns, compute_busy_ns, communication_busy_ns, compute_comm_overlap_ns, gaps, "
          "gap_p50_ns, gap_max_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  for (const auto* list : {&t.devices, &t.streams}) {
    for (const TimelineFacts& f : *list) {
      int col = 1;
      FS_RETURN_IF_ERROR(bind_all(s, col, list == &t.devices, f.device, f.stream, f.activities, f.span_ns,
                                  f.sum_ns, f.busy_ns, f.idle_ns, f.overlap_ns, f.compute_busy_ns,
                                  f.communication_busy_ns, f.compute_comm_overlap_ns, f.gaps, f.gap_p50_ns,
                                  f.gap_max_ns));
      FS_RETURN_IF_ERROR(s.run());
    }
  }
  return {};
}

}  // namespace

Status write_summary_facts(sqlite::Database& db, const SummaryFacts& f) {
  if (!f.present) return {};
  FS_ASSIGN_OR_RETURN(
      sqlite::Statement r,
      db.prepare(
          "INSERT INTO summary_run (id, has_kernels, ops_total, ops_with_formula, orphan_kernels, orphan_ns, "
          "kernels, kernels_with_op, kernels_with_module, kernel_ns, kernel_attributed_ns, compute_ns, "
          "known_compute_ns, unlinked_compute_ns, outer_host_ns, known_host_ns) "
          "VALUES (1,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  int col = 1;
  FS_RETURN_IF_ERROR(bind_all(r, col, f.has_kernels, f.ops_total, f.ops_with_formula, f.orphan_kernels,
                              f.orphan_ns, f.kernels, f.kernels_with_op, f.kernels_with_module,
                              f.kernel_time_ns, f.kernel_time_attributed_ns, f.compute_ns, f.known_compute_ns,
                              f.unlinked_compute_ns, f.outer_host_ns, f.known_host_ns));
  FS_RETURN_IF_ERROR(r.run());

  FS_ASSIGN_OR_RETURN(
      sqlite::Statement m,
      db.prepare(
          "INSERT INTO summary_module (module_id, ops, flops, macs, bytes_read, bytes_written, kernels, "
          "measured_flops, dram_bytes, dram_bytes_read, dram_bytes_written, dram_unsplit, tensor_pipe_inst, "
          "calls, comm_ns, unknown_device_ns, unknown_host_ns, gap, host_ns, device_ns) "
          "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  for (const ModuleFacts& x : f.modules) {
    FS_RETURN_IF_ERROR(m.bind_id(1, x.module_id));
    col = 2;
    FS_RETURN_IF_ERROR(bind_all(m, col, x.ops, x.flops, x.macs, x.bytes_read, x.bytes_written, x.kernels,
                                x.measured_flops, x.dram_bytes, x.dram_read, x.dram_written, x.dram_unsplit,
                                x.tensor_inst, x.calls, x.comm_ns, x.unknown_device_ns, x.unknown_host_ns,
                                x.gap));
    FS_RETURN_IF_ERROR(m.bind_blob(col++, encode_values(x.host_ns)));
    FS_RETURN_IF_ERROR(m.bind_blob(col++, encode_values(x.device_ns)));
    FS_RETURN_IF_ERROR(m.run());
  }

  FS_ASSIGN_OR_RETURN(sqlite::Statement o,
                      db.prepare("INSERT INTO summary_op (name, module_id, calls, flops, bytes, time_ns, "
                                 "device_time_ns, flops_source) VALUES (?,?,?,?,?,?,?,?)"));
  for (const TopOpFacts& x : f.top_ops) {
    FS_RETURN_IF_ERROR(o.bind(1, x.name));
    FS_RETURN_IF_ERROR(o.bind_id(2, x.module_id));
    col = 3;
    FS_RETURN_IF_ERROR(bind_all(o, col, x.calls, x.flops, x.bytes, x.time_ns, x.device_time_ns));
    FS_RETURN_IF_ERROR(o.bind(col, to_string(x.flops_source)));
    FS_RETURN_IF_ERROR(o.run());
  }

  FS_ASSIGN_OR_RETURN(
      sqlite::Statement g,
      db.prepare("INSERT INTO summary_gap (name, count, time_ns, device_time_ns, note) VALUES (?,?,?,?,?)"));
  for (const GapFacts& x : f.gaps) {
    col = 1;
    FS_RETURN_IF_ERROR(bind_all(g, col, std::string_view(x.name), x.count, x.time_ns, x.device_time_ns,
                                std::string_view(x.note)));
    FS_RETURN_IF_ERROR(g.run());
  }
  return write_timeline(db, f.timeline);
}

Status read_summary_facts(sqlite::Database& db, const std::vector<ModuleRecord>& modules,
                          std::size_t iterations, SummaryFacts& f) {
  f = {};
  FS_RETURN_IF_ERROR(for_each_row(
      db, "summary_run",
      "SELECT has_kernels, ops_total, ops_with_formula, orphan_kernels, orphan_ns, kernels, kernels_with_op, "
      "kernels_with_module, kernel_ns, kernel_attributed_ns, compute_ns, known_compute_ns, "
      "unlinked_compute_ns, "
      "outer_host_ns, known_host_ns FROM summary_run",
      [&](sqlite::Statement& s) {
        f.present = true;
        f.has_kernels = s.int64(0) != 0;
        f.ops_total = s.int64(1);
        f.ops_with_formula = s.int64(2);
        f.orphan_kernels = s.int64(3);
        f.orphan_ns = s.real(4);
        f.kernels = s.int64(5);
        f.kernels_with_op = s.int64(6);
        f.kernels_with_module = s.int64(7);
        f.kernel_time_ns = s.real(8);
        f.kernel_time_attributed_ns = s.real(9);
        f.compute_ns = s.real(10);
        f.known_compute_ns = s.real(11);
        f.unlinked_compute_ns = s.real(12);
        f.outer_host_ns = s.real(13);
        f.known_host_ns = s.real(14);
        return Status();
      }));
  if (!f.present) return {};
  std::unordered_set<Id> ids;
  ids.reserve(modules.size());
  for (const ModuleRecord& m : modules) ids.insert(m.id);
  auto known = [&](const sqlite::Statement& s, int col, std::string_view table) -> Status {
    if (s.is_null(col) || ids.contains(s.id(col))) return {};
    return Corrupt(db.path() + ": " + std::string(table) + ": module " + std::to_string(s.id(col)) +
                   " is not in the run's module table");
  };
  FS_RETURN_IF_ERROR(for_each_row(
      db, "summary_module",
      "SELECT module_id, ops, flops, macs, bytes_read, bytes_written, kernels, measured_flops, dram_bytes, "
      "dram_bytes_read, dram_bytes_written, dram_unsplit, tensor_pipe_inst, calls, comm_ns, "
      "unknown_device_ns, "
      "unknown_host_ns, gap, host_ns, device_ns FROM summary_module ORDER BY rowid",
      [&](sqlite::Statement& s) {
        if (Status st = known(s, 0, "summary_module"); !st.ok()) return st;
        ModuleFacts& x = f.modules.emplace_back();
        x.module_id = s.id(0);
        int col = 1;
        for (double* v : {&x.ops, &x.flops, &x.macs, &x.bytes_read, &x.bytes_written, &x.kernels,
                          &x.measured_flops, &x.dram_bytes, &x.dram_read, &x.dram_written, &x.dram_unsplit,
                          &x.tensor_inst, &x.calls, &x.comm_ns, &x.unknown_device_ns, &x.unknown_host_ns}) {
          *v = s.real(col++);
        }
        x.gap = s.int64(col++) != 0;
        if (Status st = decode_values(db, s.blob(col++), iterations, x.host_ns); !st.ok()) return st;
        return decode_values(db, s.blob(col++), iterations, x.device_ns);
      }));
  FS_RETURN_IF_ERROR(for_each_row(
      db, "summary_op",
      "SELECT name, module_id, calls, flops, bytes, time_ns, device_time_ns, flops_source FROM summary_op "
      "ORDER BY rowid",
      [&](sqlite::Statement& s) {
        if (Status st = known(s, 1, "summary_op"); !st.ok()) return st;
        TopOpFacts& x = f.top_ops.emplace_back();
        x.name = s.str(0);
        x.module_id = s.id(1);
        x.calls = s.real(2);
        x.flops = s.real(3);
        x.bytes = s.real(4);
        x.time_ns = s.real(5);
        x.device_time_ns = s.real(6);
        x.flops_source = flops_source_from_string(s.str(7));
        return Status();
      }));
  FS_RETURN_IF_ERROR(for_each_row(
      db, "summary_gap", "SELECT name, count, time_ns, device_time_ns, note FROM summary_gap ORDER BY rowid",
      [&](sqlite::Statement& s) {
        f.gaps.push_back({s.str(0), s.int64(1), s.real(2), s.real(3), s.str(4)});
        return Status();
      }));
  return for_each_row(
      db, "summary_timeline",
      "SELECT per_device, device, stream, activities, span_ns, sum_ns, busy_ns, idle_ns, overlap_ns, "
      "compute_busy_ns, communication_busy_ns, compute_comm_overlap_ns, gaps, gap_p50_ns, gap_max_ns "
      "FROM summary_timeline ORDER BY rowid",
      [&](sqlite::Statement& s) {
        TimelineFacts& x = (s.int64(0) != 0 ? f.timeline.devices : f.timeline.streams).emplace_back();
        x.device = s.int32(1);
        x.stream = s.int64(2);
        x.activities = s.int64(3);
        int col = 4;
        for (double* v : {&x.span_ns, &x.sum_ns, &x.busy_ns, &x.idle_ns, &x.overlap_ns, &x.compute_busy_ns,
                          &x.communication_busy_ns, &x.compute_comm_overlap_ns}) {
          *v = s.real(col++);
        }
        x.gaps = s.int64(col++);
        x.gap_p50_ns = s.real(col++);
        x.gap_max_ns = s.real(col++);
        return Status();
      });
}

}  // namespace flopscope
