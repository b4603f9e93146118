// Nsight Systems SQLite export (`nsys export --type sqlite`): CUPTI kernels, memcpy and memset, runtime
// launches joined by correlationId (one row per launch: backtrace duplicates are filtered by eventClass),
// NVTX push/pop ranges on the launching thread as module scopes (PyTorch emit_nvtx ranges "aten::..." as
// ops), StringIds for names and TARGET_INFO_GPU for the device. Columns are checked with PRAGMA
// table_info, so exports of different nsys versions load as far as they carry the data.
#include <algorithm>
#include <memory>
#include <set>
#include <unordered_set>

#include "analyzer/importers/importer.h"
#include "analyzer/importers/importer_util.h"
#include "analyzer/importers/trace_builder.h"
#include "db/sqlite_query.h"

namespace flopscope {
namespace {

// end - start, or -1 (an impossible duration the builder counts and drops) when the export's values would
// overflow.
std::int64_t span_ns(std::int64_t start, std::int64_t end) {
  std::int64_t d = 0;
  return __builtin_sub_overflow(end, start, &d) ? -1 : d;
}

constexpr std::string_view kSqliteMagic = "SQLite format 3";

std::int64_t pid_of(std::int64_t global) {
  return (global >> 24) & 0xFFFFFF;
}
std::int64_t tid_of(std::int64_t global) {
  return global & 0xFFFFFF;
}

bool has(const std::vector<std::string>& cols, std::string_view c) {
  return std::find(cols.begin(), cols.end(), c) != cols.end();
}

// "expr" when the table has column c, else the fallback literal.
std::string col(const std::vector<std::string>& cols, std::string_view c, std::string_view fallback = "0") {
  return has(cols, c) ? std::string(c) : std::string(fallback);
}

class NsysImporter final : public Importer {
 public:
  std::string_view name() const override { return "nsys"; }

  int sniff(std::string_view head, const std::string& path) const override {
    if (!head.starts_with(kSqliteMagic)) return 0;
    // A flopscope run database is also SQLite: load_run opens those itself; here any SQLite file is ours
    // to check for the export's tables.
    (void)path;
    return 50;
  }

  Status import(const std::string& path, RunSink& sink, const ImportOptions& options) const override {
    FS_ASSIGN_OR_RETURN(SqliteReadOnly db, SqliteReadOnly::open(path));
    FS_ASSIGN_OR_RETURN(auto kernel_cols, db.columns("CUPTI_ACTIVITY_KIND_KERNEL"));
    FS_ASSIGN_OR_RETURN(auto runtime_cols, db.columns("CUPTI_ACTIVITY_KIND_RUNTIME"));
    FS_ASSIGN_OR_RETURN(auto nvtx_cols, db.columns("NVTX_EVENTS"));
    FS_ASSIGN_OR_RETURN(auto string_cols, db.columns("StringIds"));
    if ((kernel_cols.empty() && runtime_cols.empty() && nvtx_cols.empty()) || string_cols.empty()) {
      return InvalidArgument(path +
                             ": SQLite, but not an Nsight Systems export (no StringIds and no "
                             "CUPTI_ACTIVITY_KIND_KERNEL / _RUNTIME / NVTX_EVENTS tables)");
    }
    auto hash = hash_file_async(path);
    TraceBuilder::Options builder_options;
    builder_options.single_top_scope_is_root = false;
    TraceBuilder builder(make_run_info(path, SourceKind::kNsys, options), builder_options);
    if (!options.iteration_marker.empty())
      FS_RETURN_IF_ERROR(builder.set_iteration_marker(options.iteration_marker));

    FS_RETURN_IF_ERROR(read_gpu_info(db, builder));
    if (!kernel_cols.empty()) FS_RETURN_IF_ERROR(read_kernels(db, kernel_cols, builder));
    for (auto [table, kind] : {std::pair{"CUPTI_ACTIVITY_KIND_MEMCPY", KernelKind::kMemcpy},
                               std::pair{"CUPTI_ACTIVITY_KIND_MEMSET", KernelKind::kMemset}}) {
      FS_ASSIGN_OR_RETURN(auto cols, db.columns(table));
      if (!cols.empty()) FS_RETURN_IF_ERROR(read_copies(db, table, cols, kind, builder));
    }
    if (!runtime_cols.empty()) FS_RETURN_IF_ERROR(read_launches(db, runtime_cols, builder));
    if (!nvtx_cols.empty()) FS_RETURN_IF_ERROR(read_nvtx(db, nvtx_cols, builder));
    store_hash(hash, builder.info());
    return builder.finish(sink);
  }

 private:
  static Status read_gpu_info(SqliteReadOnly& db, TraceBuilder& builder) {
    FS_ASSIGN_OR_RETURN(auto cols, db.columns("TARGET_INFO_GPU"));
    if (!has(cols, "name")) return {};
    FS_ASSIGN_OR_RETURN(auto rows, db.query("SELECT DISTINCT name FROM TARGET_INFO_GPU"));
    std::string device;
    for (;;) {
      FS_ASSIGN_OR_RETURN(bool row, rows.next());
      if (!row) break;
      device += (device.empty() ? "" : "; ") + std::string(rows.text(0));
    }
    builder.info().device = device;
    return {};
  }

  // Why a device row cannot be kept as it is (nullptr: it can).
  static const char* bad_fields(std::int64_t device, std::string_view name) {
    if (!device_id_ok(device)) return "device id out of range";
    if (has_nul(name)) return "name holds a NUL character";
    return nullptr;
  }

  static Status read_kernels(SqliteReadOnly& db, const std::vector<std::string>& c, TraceBuilder& builder) {
    std::string name_col = has(c, "demangledName") ? "demangledName" : has(c, "shortName") ? "shortName" : "";
    if (name_col.empty() || !has(c, "start") || !has(c, "end")) {
      builder.issue(QualityCode::kernel_table_incomplete);
      return {};
    }
    std::string sql = "SELECT k.start, k.end, " + col(c, "deviceId") + ", " + col(c, "streamId") + ", " +
                      col(c, "correlationId", "NULL") + ", " + col(c, "globalPid", "NULL") + ", s.value, " +
                      col(c, "gridX") + ", " + col(c, "gridY") + ", " + col(c, "gridZ") + ", " +
                      col(c, "blockX") + ", " + col(c, "blockY") + ", " + col(c, "blockZ") + ", " +
                      col(c, "graphNodeId") +
                      " FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = k." + name_col;
    FS_ASSIGN_OR_RETURN(auto rows, db.query(sql));
    for (;;) {
      FS_ASSIGN_OR_RETURN(bool row, rows.next());
      if (!row) break;
      // A NULL start read as 0 made a kernel span from the epoch to its end (373 ms of device time became
      // 2.49 s): such a row is skipped and counted.
      if (rows.is_null(0) || rows.is_null(1)) {
        builder.issue(QualityCode::kernel_without_timestamp, "CUPTI_ACTIVITY_KIND_KERNEL: NULL start or end");
        continue;
      }
      if (const char* why = bad_fields(rows.int64(2), rows.is_null(6) ? "" : rows.text(6))) {
        builder.issue(QualityCode::malformed_trace_events, std::string("CUPTI_ACTIVITY_KIND_KERNEL: ") + why);
        continue;
      }
      TraceBuilder::Activity a;
      a.start_ns = rows.int64(0);
      a.duration_ns = span_ns(rows.int64(0), rows.int64(1));
      a.device = static_cast<int>(rows.int64(2));
      a.stream = rows.int64(3);
      a.correlation = rows.is_null(4) ? TraceBuilder::kNone : rows.int64(4);
      a.process = rows.is_null(5) ? TraceBuilder::kNone : pid_of(rows.int64(5));
      if (rows.is_null(6)) builder.issue(QualityCode::kernel_names_missing);
      a.name = builder.intern(rows.is_null(6) ? std::string_view("<unknown kernel>") : rows.text(6));
      for (int i = 0; i < 3; ++i) {
        a.grid[static_cast<std::size_t>(i)] = static_cast<int>(rows.int64(7 + i));
        a.block[static_cast<std::size_t>(i)] = static_cast<int>(rows.int64(10 + i));
      }
      a.graph_node_id = rows.int64(13);
      if (a.duration_ns < 0) {
        builder.issue(QualityCode::kernels_end_before_start);
        continue;
      }
      builder.add_activity(a);
    }
    return {};
  }

  // CUpti_ActivityMemcpyKind as Kineto names copies: H host, D device, A array, P peer (another device).
  static std::string_view memcpy_name(std::int64_t copy_kind) {
    switch (copy_kind) {
      case 1:
        return "Memcpy HtoD";
      case 2:
        return "Memcpy DtoH";
      case 3:
        return "Memcpy HtoA";
      case 4:
        return "Memcpy AtoH";
      case 5:
        return "Memcpy AtoA";
      case 6:
        return "Memcpy AtoD";
      case 7:
        return "Memcpy DtoA";
      case 8:
        return "Memcpy DtoD";
      case 9:
        return "Memcpy HtoH";
      case 10:
        return "Memcpy PtoP";
      default:
        return "Memcpy";
    }
  }

  static Status read_copies(SqliteReadOnly& db, const char* table, const std::vector<std::string>& c,
                            KernelKind kind, TraceBuilder& builder) {
    if (!has(c, "start") || !has(c, "end")) return {};
    std::string sql = "SELECT start, end, " + col(c, "deviceId") + ", " + col(c, "streamId") + ", " +
                      col(c, "correlationId", "NULL") + ", " + col(c, "globalPid", "NULL") + ", " +
                      col(c, "bytes") + ", " + col(c, "graphNodeId") + ", " + col(c, "copyKind", "NULL") +
                      " FROM " + table;
    FS_ASSIGN_OR_RETURN(auto rows, db.query(sql));
    const auto plain = builder.intern(kind == KernelKind::kMemcpy ? "Memcpy" : "Memset");
    for (;;) {
      FS_ASSIGN_OR_RETURN(bool row, rows.next());
      if (!row) break;
      if (rows.is_null(0) || rows.is_null(1)) {
        builder.issue(QualityCode::kernel_without_timestamp, std::string(table) + ": NULL start or end");
        continue;
      }
      if (const char* why = bad_fields(rows.int64(2), "")) {
        builder.issue(QualityCode::malformed_trace_events, std::string(table) + ": " + why);
        continue;
      }
      TraceBuilder::Activity a;
      a.kind = kind;
      a.name = kind == KernelKind::kMemcpy && !rows.is_null(8) ? builder.intern(memcpy_name(rows.int64(8)))
                                                               : plain;
      a.start_ns = rows.int64(0);
      a.duration_ns = std::max<std::int64_t>(0, span_ns(rows.int64(0), rows.int64(1)));
      a.device = static_cast<int>(rows.int64(2));
      a.stream = rows.int64(3);
      a.correlation = rows.is_null(4) ? TraceBuilder::kNone : rows.int64(4);
      a.process = rows.is_null(5) ? TraceBuilder::kNone : pid_of(rows.int64(5));
      a.bytes = rows.real(6);
      a.graph_node_id = rows.int64(7);
      builder.add_activity(a);
    }
    return {};
  }

  static Status read_launches(SqliteReadOnly& db, const std::vector<std::string>& c, TraceBuilder& builder) {
    if (!has(c, "start") || !has(c, "end") || !has(c, "globalTid") || !has(c, "correlationId")) {
      builder.issue(QualityCode::runtime_table_incomplete);
      return {};
    }
    // eventClass 67 rows repeat a launch with its backtrace; keep the API call rows.
    std::string sql = "SELECT start, end, globalTid, correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME";
    if (has(c, "eventClass")) sql += " WHERE eventClass <> 67 ORDER BY eventClass";
    FS_ASSIGN_OR_RETURN(auto rows, db.query(sql));
    std::unordered_set<std::uint64_t> seen;
    for (;;) {
      FS_ASSIGN_OR_RETURN(bool row, rows.next());
      if (!row) break;
      std::int64_t global = rows.int64(2);
      std::int64_t pid = pid_of(global);
      std::int64_t corr = rows.int64(3);
      if (!seen.insert((static_cast<std::uint64_t>(pid) << 40) ^ static_cast<std::uint64_t>(corr)).second) {
        builder.issue(QualityCode::duplicate_runtime_rows);
        continue;
      }
      builder.add_launch({builder.thread(pid, tid_of(global)), rows.int64(0),
                          span_ns(rows.int64(0), rows.int64(1)), corr, TraceBuilder::kNone, pid});
    }
    return {};
  }

  static Status read_nvtx(SqliteReadOnly& db, const std::vector<std::string>& c, TraceBuilder& builder) {
    if (!has(c, "start") || !has(c, "end") || !has(c, "globalTid")) return {};
    std::string text = has(c, "textId") ? "COALESCE(n.text, s.value)" : col(c, "text", "NULL");
    std::string join = has(c, "textId") ? " LEFT JOIN StringIds s ON s.id = n.textId" : "";
    std::string type_filter = has(c, "eventType") ? " AND n.eventType IN (59, 60)" : "";
    std::string sql = "SELECT n.start, n.end, n.globalTid, " + text + " FROM NVTX_EVENTS n" + join +
                      " WHERE n.end IS NOT NULL AND n.start IS NOT NULL" + type_filter;
    FS_ASSIGN_OR_RETURN(auto rows, db.query(sql));
    for (;;) {
      FS_ASSIGN_OR_RETURN(bool row, rows.next());
      if (!row) break;
      std::int64_t global = rows.int64(2);
      auto thread = builder.thread(pid_of(global), tid_of(global));
      std::int64_t start = rows.int64(0), dur = span_ns(rows.int64(0), rows.int64(1));
      std::string_view label = rows.is_null(3) ? std::string_view("<unnamed range>") : rows.text(3);
      if (has_nul(label)) {
        builder.issue(QualityCode::malformed_trace_events, "NVTX_EVENTS: name holds a NUL character");
        continue;
      }
      if (label.starts_with("aten::")) {
        // torch.autograd.profiler.emit_nvtx: "aten::addmm, seq = 12, op_id = 34, sizes = [...]"
        TraceBuilder::HostOp op;
        op.thread = thread;
        op.start_ns = start;
        op.duration_ns = dur;
        op.name = builder.intern(label.substr(0, label.find(',')));
        builder.add_op(op);
        continue;
      }
      auto id = builder.intern(label);
      builder.add_scope({thread, start, dur, id, id});
    }
    return {};
  }
};

}  // namespace

std::unique_ptr<Importer> make_nsys_importer() {
  return std::make_unique<NsysImporter>();
}

}  // namespace flopscope
