// create_run_database: a RunSink that writes a SQLite file beside the target and renames it into place.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unordered_map>

#include "db/aggregate_tables.h"
#include "db/json_columns.h"
#include "db/migrations.h"
#include "db/model/atomic_file.h"
#include "db/model/progress.h"
#include "db/model/temp_files.h"
#include "db/module_names.h"
#include "db/output_columns.h"
#include "db/run_database.h"
#include "db/run_database_format.h"
#include "db/sketch_column.h"
#include "db/sqlite/sqlite.h"
#include "db/summary_tables.h"

namespace flopscope {
namespace {

using sqlite::Database;
using sqlite::Statement;

// Rows per transaction: large enough that commits cost nothing, small enough to bound the dirty pages.
constexpr std::int64_t kRowsPerTransaction = 50'000;
constexpr std::int64_t kRowsPerProgressUpdate = 65'536;
// Op and kernel rows go in kRowsPerInsert at a time, as one INSERT with that many value lists: SQLite's
// per-statement work (step, reset, halt) is then paid once per group. A bare program inserting 320k
// kernel-shaped rows: 0.60-0.68 s CPU one row per statement, 0.43-0.51 s sixteen or 32 at a time.
constexpr std::size_t kRowsPerInsert = 16;

// The INSERT of `single` (one "VALUES (?,...)" list) with `rows` value lists.
std::string insert_rows(std::string_view single, std::size_t rows) {
  const std::size_t values = single.rfind('(');
  std::string sql(single);
  for (std::size_t r = 1; r < rows; ++r) sql.append(",").append(single.substr(values));
  return sql;
}

constexpr std::string_view kInsertRun =
    "INSERT INTO run (id, tool_version, source_kind, source_path, source_sha256, device, host, input_spec, "
    "iterations, warmup, threads, created_unix_ns, command_line, iterations_from) "
    "VALUES (1,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr std::string_view kInsertModule =
    "INSERT INTO module_node (id, parent_id, name, relative, type) VALUES (?,?,?,?,?)";
constexpr std::string_view kInsertOp =
    "INSERT INTO op (id, iteration, sequence, name, thread, start_ns, duration_ns, module_id, parent_op_id, "
    "depth, "
    "input_dims, input_types, concrete_inputs, flops, macs, bytes_read, bytes_written, flops_source, "
    "flops_note) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr std::string_view kInsertKernel =
    "INSERT INTO kernel (id, kind, name, device, stream, start_ns, duration_ns, grid_x, grid_y, grid_z, "
    "block_x, "
    "block_y, block_z, correlation, iteration, op_id, module_id, graph_id, graph_node_id, has_counters, "
    "flops_fp64, flops_fp32, flops_fp16, tensor_ops, dram_bytes_read, dram_bytes_written, l2_bytes, bytes, "
    "tensor_pipe_inst, dram_bytes, launch_name, launch_start_ns, launch_duration_ns, launch_thread) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr std::string_view kInsertParam =
    "INSERT INTO param (id, name, module_id, dtype, shape, numel, bytes, l2, max_abs, nonzero_fraction, "
    "sha256, sketch, sum) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr std::string_view kInsertGraphNode =
    "INSERT INTO graph_node (id, kind, label, module_id, module_path, output_shapes) VALUES (?,?,?,?,?,?)";
constexpr std::string_view kInsertGraphEdge = "INSERT INTO graph_edge (src, dst, label) VALUES (?,?,?)";
constexpr std::string_view kInsertActivation =
    "INSERT INTO activation (module_id, iteration, call, input_tag, numel, out_l2, out_max_abs, "
    "out_zero_fraction, "
    "rel_change) VALUES (?,?,?,?,?,?,?,?,?)";
constexpr std::string_view kInsertDiscarded =
    "INSERT INTO discarded_op (op_id, zeroing_op_id, zero_factor) VALUES (?,?,?)";
constexpr std::string_view kInsertIterationProcess =
    "INSERT INTO iteration_process (iteration, process) VALUES (?,?)";
constexpr std::string_view kInsertOutput =
    "INSERT INTO output_tensor (call, position, input_hash, input_tag, name, dtype, shape, summarized, "
    "sha256, "
    "max_abs, mean, rms, nan_count, inf_count, argmax, value) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
constexpr std::string_view kInsertHostEvent =
    "INSERT INTO host_event (id, category, name, start_ns, duration_ns, thread, correlation, python_id, "
    "python_parent_id) VALUES (?,?,?,?,?,?,?,?,?)";
constexpr std::string_view kInsertDeviceProperties = "INSERT INTO trace_device_properties (json) VALUES (?)";
constexpr std::string_view kInsertMemoryEvent =
    "INSERT INTO memory_event (id, ts_ns, thread, bytes, total_allocated, total_reserved, addr, device_type, "
    "device_id) VALUES (?,?,?,?,?,?,?,?,?)";
constexpr std::string_view kInsertQuality =
    "INSERT INTO data_quality (code, what, count, severity, detail) VALUES (?,?,?,?,?)";

// Binds values to consecutive parameters by position, straight through SQLite's C API: a bulk load binds
// ~50 values per op + kernel pair, and a Status per bind was measurable. The first failing code is kept and
// turned into a Status once, by run().
class Binder {
 public:
  explicit Binder(Statement& stmt) : stmt_(stmt), raw_(stmt.get()) {}
  Binder& operator()(std::int64_t v) { return keep(sqlite3_bind_int64(raw_, ++index_, v)); }
  Binder& operator()(int v) { return keep(sqlite3_bind_int(raw_, ++index_, v)); }
  Binder& operator()(bool v) { return keep(sqlite3_bind_int(raw_, ++index_, v ? 1 : 0)); }
  Binder& operator()(double v) { return keep(sqlite3_bind_double(raw_, ++index_, v)); }
  // Copied by SQLite (the caller's temporaries die before run()).
  Binder& operator()(std::string_view v) {
    return keep(sqlite3_bind_text(raw_, ++index_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  Binder& operator()(const std::string& v) { return (*this)(std::string_view(v)); }
  Binder& operator()(const char* v) { return (*this)(std::string_view(v)); }
  Binder& blob(std::string_view v) {
    return keep(sqlite3_bind_blob(raw_, ++index_, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  // Text alive until run(): a field of the record being inserted, or a local of the insert's caller.
  Binder& text(std::string_view v) {
    return keep(sqlite3_bind_text(raw_, ++index_, v.data(), static_cast<int>(v.size()), SQLITE_STATIC));
  }
  Binder& null() { return keep(sqlite3_bind_null(raw_, ++index_)); }
  // kNoId is stored as NULL.
  Binder& id(Id v) {
    return keep(v == kNoId ? sqlite3_bind_null(raw_, ++index_) : sqlite3_bind_int64(raw_, ++index_, v));
  }
  // Binds v, or NULL when !present.
  Binder& maybe(double v, bool present) {
    return keep(present ? sqlite3_bind_double(raw_, ++index_, v) : sqlite3_bind_null(raw_, ++index_));
  }
  Status run() {
    if (rc_ != SQLITE_OK) return stmt_.check_bind(rc_);
    return stmt_.run();
  }

 private:
  Binder& keep(int rc) {
    if (rc != SQLITE_OK && rc_ == SQLITE_OK) rc_ = rc;
    return *this;
  }
  Statement& stmt_;
  sqlite3_stmt* raw_;
  int index_ = 0;
  int rc_ = SQLITE_OK;
};

class SqliteRunSink final : public RunSink {
 public:
  SqliteRunSink(std::string path, std::string temp_path, bool overwrite)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), overwrite_(overwrite) {}

  ~SqliteRunSink() override {
    statements_ = {};
    (void)db_.close();
    if (!temp_path_.empty()) {
      ::unlink(temp_path_.c_str());
      unregister_temp_path(temp_path_);
    }
  }

  Status open() {
    FS_ASSIGN_OR_RETURN(Database db, Database::open(temp_path_, SQLITE_OPEN_READWRITE));
    db_ = std::move(db);
    // The temporary file becomes visible only when complete, so it needs no journal and no syncs.
    // 32 KiB pages instead of 4 KiB: fewer page splits and b-tree levels in a bulk load (600k op + kernel
    // rows, six interleaved rounds: 1.45-1.79 s CPU against 1.49-1.95 s); an empty database takes 0.75 MB.
    // A 16 MB page cache while rows go in: appended pages gain nothing from more, and 64 MB of them was a
    // third of a 100k-kernel import's peak (211 MB against 166 MB, CPU time the same).
    FS_RETURN_IF_ERROR(
        with_path(db_.exec("PRAGMA page_size = 32768; PRAGMA journal_mode = OFF; "
                           "PRAGMA synchronous = OFF; "
                           "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -16384; "
                           "PRAGMA application_id = " +
                           std::to_string(kRunDatabaseApplicationId))));
    FS_RETURN_IF_ERROR(with_path(migrate(db_, schema_steps())));
    FS_RETURN_IF_ERROR(defer_indexes());
    const std::string op_rows = insert_rows(kInsertOp, kRowsPerInsert);
    const std::string kernel_rows = insert_rows(kInsertKernel, kRowsPerInsert);
    for (auto [stmt, sql] : {std::pair{&statements_.run, std::string_view(kInsertRun)},
                             {&statements_.op_rows, std::string_view(op_rows)},
                             {&statements_.kernel_rows, std::string_view(kernel_rows)},
                             {&statements_.module, kInsertModule},
                             {&statements_.op, kInsertOp},
                             {&statements_.kernel, kInsertKernel},
                             {&statements_.param, kInsertParam},
                             {&statements_.graph_node, kInsertGraphNode},
                             {&statements_.graph_edge, kInsertGraphEdge},
                             {&statements_.quality, kInsertQuality},
                             {&statements_.activation, kInsertActivation},
                             {&statements_.discarded, kInsertDiscarded},
                             {&statements_.iteration_process, kInsertIterationProcess},
                             {&statements_.output, kInsertOutput},
                             {&statements_.host_event, kInsertHostEvent},
                             {&statements_.device_properties, kInsertDeviceProperties},
                             {&statements_.memory_event, kInsertMemoryEvent}}) {
      FS_ASSIGN_OR_RETURN(Statement s, db_.prepare(sql));
      *stmt = std::make_unique<Statement>(std::move(s));
    }
    return with_path(db_.exec("BEGIN"));
  }

  Status begin(const RunInfo& i) override {
    if (begun_) return Internal(path_ + ": begin() called twice");
    begun_ = true;
    return insert(*statements_.run, [&](Binder& b) {
      b(i.tool_version)(to_string(i.source_kind))(i.source_path)(i.source_sha256)(i.device)(i.host)(
          i.input_spec)(i.iterations)(i.warmup)(i.threads)(i.created_unix_ns)(i.command_line)(
          i.iterations_from);
    });
  }

  // Each path stored as its part under the parent's (db/module_names.h); a parent from an earlier call is
  // not at hand, so its children keep their whole path.
  Status add_modules(std::span<const ModuleRecord> modules) override {
    std::unordered_map<Id, std::size_t> index;
    index.reserve(modules.size());
    for (std::size_t i = 0; i < modules.size(); ++i) index.emplace(modules[i].id, i);
    for (const ModuleRecord& m : modules) {
      auto parent = m.parent_id == kNoId ? index.end() : index.find(m.parent_id);
      const StoredModuleName stored = stored_module_name(
          m.path, parent == index.end() ? std::string_view() : modules[parent->second].path);
      FS_RETURN_IF_ERROR(insert(*statements_.module, [&](Binder& b) {
        b.id(m.id).id(m.parent_id).text(stored.name)(stored.relative ? 1 : 0)(m.type);
      }));
    }
    return {};
  }

  Status add_ops(std::span<const OpRecord> ops) override {
    aggregates_.add_ops(ops);
    return insert_grouped(ops, *statements_.op_rows, *statements_.op,
                          [&](Binder& b, const OpRecord& o, std::size_t slot) {
                            OpArgColumns& args = op_args_[slot];  // alive until the group's statement ran
                            encode_op_args(o.args, args);
                            b.id(o.id)(o.iteration)(o.sequence)
                                .text(o.name)(o.thread)(o.start_ns)(o.duration_ns)
                                .id(o.module_id)
                                .id(o.parent_op_id)(o.depth)
                                .text(args.input_dims)
                                .text(args.input_types)
                                .text(args.concrete_inputs)(o.flops)(o.macs)(o.bytes_read)(o.bytes_written)
                                .text(to_string(o.flops_source))
                                .text(o.flops_note);
                          });
  }

  Status add_kernels(std::span<const KernelRecord> kernels) override {
    aggregates_.add_kernels(kernels);
    return insert_grouped(
        kernels, *statements_.kernel_rows, *statements_.kernel,
        [&](Binder& b, const KernelRecord& k, std::size_t) {
          b.id(k.id)
              .text(to_string(k.kind))
              .text(k.name)(k.device)(k.stream)(k.start_ns)(k.duration_ns)(k.grid[0])(k.grid[1])(k.grid[2])(
                  k.block[0])(k.block[1])(k.block[2])(k.correlation)(k.iteration)
              .id(k.op_id)
              .id(k.module_id)(k.graph_id)(k.graph_node_id)(k.has_counters)(k.flops_fp64)(k.flops_fp32)(
                  k.flops_fp16)(k.tensor_ops)(k.dram_bytes_read)(k.dram_bytes_written)(k.l2_bytes)(k.bytes)(
                  k.tensor_pipe_inst)(k.dram_bytes)
              .text(k.launch.name)(k.launch.start_ns)(k.launch.duration_ns)(k.launch.thread);
        });
  }

  Status add_params(std::span<const ParamRecord> params) override {
    for (const ParamRecord& p : params) {
      FS_RETURN_IF_ERROR(insert(*statements_.param, [&](Binder& b) {
        b.id(p.id)(p.name)
            .id(p.module_id)(p.dtype)(encode_shape(p.shape))(p.numel)(p.bytes)(p.l2)(p.max_abs)(
                p.nonzero_fraction)(p.sha256)
            .blob(encode_sketch(p.sketch))(p.sum);
      }));
    }
    return {};
  }

  Status add_graph(std::span<const GraphNode> nodes, std::span<const GraphEdge> edges) override {
    for (const GraphNode& n : nodes) {
      FS_RETURN_IF_ERROR(insert(*statements_.graph_node, [&](Binder& b) {
        b.id(n.id)(n.kind)(n.label).id(n.module_id)(n.module_path)(n.output_shapes);
      }));
    }
    for (const GraphEdge& e : edges) {
      FS_RETURN_IF_ERROR(insert(*statements_.graph_edge, [&](Binder& b) { b(e.src)(e.dst)(e.label); }));
    }
    return {};
  }

  Status add_quality(std::span<const QualityIssue> issues) override {
    for (const QualityIssue& q : issues) {
      FS_RETURN_IF_ERROR(insert(*statements_.quality, [&](Binder& b) {
        b(std::string(q.id()))(std::string(q.text()))(q.count)(to_string(q.severity))(q.detail);
      }));
    }
    return {};
  }

  Status add_activations(std::span<const ActivationRecord> records) override {
    for (const ActivationRecord& a : records) {
      FS_RETURN_IF_ERROR(insert(*statements_.activation, [&](Binder& b) {
        b.id(a.module_id)(a.iteration)(a.call)(a.input_tag)(a.numel)(a.out_l2)(a.out_max_abs)(
             a.out_zero_fraction)
            .maybe(a.rel_change, a.has_rel_change);
      }));
    }
    return {};
  }

  Status add_discarded(std::span<const DiscardedOpRecord> records) override {
    for (const DiscardedOpRecord& d : records) {
      FS_RETURN_IF_ERROR(insert(*statements_.discarded,
                                [&](Binder& b) { b.id(d.op_id).id(d.zeroing_op_id)(d.zero_factor); }));
    }
    return {};
  }

  Status add_iteration_processes(std::span<const IterationProcess> records) override {
    for (const IterationProcess& p : records) {
      FS_RETURN_IF_ERROR(
          insert(*statements_.iteration_process, [&](Binder& b) { b(p.iteration)(p.process); }));
    }
    return {};
  }

  Status add_trace_extras(const TraceExtras& extras) override {
    std::int64_t id = 0;
    for (const HostEventRecord& e : extras.host_events) {
      FS_RETURN_IF_ERROR(insert(*statements_.host_event, [&](Binder& b) {
        b(id++).text(e.category).text(e.name)(e.start_ns)(e.duration_ns)(e.thread);
        for (std::int64_t v : {e.correlation, e.python_id, e.python_parent_id}) {
          if (v < 0)
            b.null();
          else
            b(v);
        }
      }));
    }
    if (extras.device_properties.empty()) return {};
    return insert(*statements_.device_properties, [&](Binder& b) { b.text(extras.device_properties); });
  }

  Status add_outputs(std::span<const OutputRecord> records) override {
    for (const OutputRecord& r : records) {
      for (std::size_t i = 0; i < r.tensors.size(); ++i) {
        const OutputTensor& t = r.tensors[i];
        const std::string argmax = encode_output_argmax(t.argmax);
        const std::string value = encode_output_values(t);
        FS_RETURN_IF_ERROR(insert(*statements_.output, [&](Binder& b) {
          b(r.call)(static_cast<std::int64_t>(i))
              .text(r.input_hash)
              .text(r.input_tag)
              .text(t.name)
              .text(t.dtype)(encode_shape(t.shape))(t.summarized)
              .text(t.sha256)(t.max_abs)(t.mean)(t.rms)(t.nan_count)(t.inf_count);
          if (t.argmax.empty())
            b.null();
          else
            b.blob(argmax);
          if (t.summarized)
            b.null();
          else
            b.blob(value);
        }));
      }
    }
    return {};
  }

  Status add_memory_events(std::span<const MemoryEvent> records) override {
    for (const MemoryEvent& m : records) {
      FS_RETURN_IF_ERROR(insert(*statements_.memory_event, [&](Binder& b) {
        b(memory_events_++)(m.ts_ns)(m.thread)(m.bytes)(m.total_allocated)(m.total_reserved)(m.addr)(
            m.device_type)(m.device_id);
      }));
    }
    return {};
  }

  Status add_summary_facts(const SummaryFacts& facts) override {
    if (finished_) return Internal(path_ + ": write after finish()");
    facts_ = facts;
    return {};
  }

  Status finish() override {
    if (finished_) return Internal(path_ + ": finish() called twice");
    if (!begun_) return Internal(path_ + ": finish() before begin(): a run database needs its run row");
    if (!failed_.ok()) return failed_;
    finished_ = true;
    progress_.reset();
    FS_RETURN_IF_ERROR(with_path(write_aggregates(db_, aggregates_.finish())));
    FS_RETURN_IF_ERROR(with_path(write_summary_facts(db_, facts_)));
    // A larger page cache for the index builds (their sorts use it); the rows went in with 16 MB.
    FS_RETURN_IF_ERROR(with_path(db_.exec("PRAGMA cache_size = -65536")));
    for (const std::string& sql : deferred_indexes_) FS_RETURN_IF_ERROR(with_path(db_.exec(sql)));
    // The completeness marker goes in last, in the final transaction: readers refuse a file without it.
    const auto now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    FS_RETURN_IF_ERROR(with_path(db_.exec("INSERT INTO run_complete (id, finished_unix_ns) VALUES (1, " +
                                          std::to_string(now_ns) + ")")));
    FS_RETURN_IF_ERROR(with_path(db_.exec("COMMIT")));
    statements_ = {};
    FS_RETURN_IF_ERROR(with_path(db_.close()));
    FS_RETURN_IF_ERROR(publish_file(temp_path_, path_, overwrite_));
    unregister_temp_path(temp_path_);
    temp_path_.clear();
    return {};
  }

 private:
  // Records in groups of kRowsPerInsert through `group` (the multi-row INSERT), the rest one by one through
  // `single`; bind_row(binder, record, slot) binds one record's values, slot < kRowsPerInsert.
  template <typename Record, typename BindRow>
  Status insert_grouped(std::span<const Record> records, Statement& group, Statement& single,
                        BindRow&& bind_row) {
    std::size_t i = 0;
    for (; i + kRowsPerInsert <= records.size(); i += kRowsPerInsert) {
      FS_RETURN_IF_ERROR(insert(
          group,
          [&](Binder& b) {
            for (std::size_t r = 0; r < kRowsPerInsert; ++r) bind_row(b, records[i + r], r);
          },
          kRowsPerInsert));
    }
    for (; i < records.size(); ++i) {
      FS_RETURN_IF_ERROR(insert(single, [&](Binder& b) { bind_row(b, records[i], 0); }));
    }
    return {};
  }

  template <typename BindFn>
  Status insert(Statement& stmt, BindFn&& bind, std::size_t rows = 1) {
    if (finished_) return Internal(path_ + ": write after finish()");
    if (!failed_.ok()) return failed_;
    Binder b(stmt);
    bind(b);
    if (Status s = with_path(b.run()); !s.ok()) {
      failed_ = s;  // a run with a missing row must not be finished into place
      return s;
    }
    const auto n = static_cast<std::int64_t>(rows);
    rows_written_ += n;
    if (rows_written_ / kRowsPerProgressUpdate != (rows_written_ - n) / kRowsPerProgressUpdate) {
      // Only large runs take long enough to show progress; the total is the caller's to know.
      if (progress_ == nullptr) progress_ = std::make_unique<Progress>("writing " + path_, 0);
      progress_->update(static_cast<std::uint64_t>(rows_written_));
    }
    rows_in_transaction_ += n;
    if (rows_in_transaction_ >= kRowsPerTransaction) {
      rows_in_transaction_ = 0;
      FS_RETURN_IF_ERROR(with_path(db_.exec("COMMIT; BEGIN")));
    }
    return {};
  }

  // Bulk loading is faster without indexes: the schema's indexes are dropped now and built at finish(),
  // from their own CREATE INDEX text, so the finished file matches the schema exactly. (Measured again with
  // the rows in id order, where keeping them current might have been cheap: 600k rows took 1.84-2.40 s CPU
  // with the indexes in place against 1.45-1.79 s deferred.)
  Status defer_indexes() {
    FS_ASSIGN_OR_RETURN(
        Statement list,
        db_.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                    "ORDER BY rowid"));
    std::vector<std::string> names;
    while (true) {
      FS_ASSIGN_OR_RETURN(bool row, list.step());
      if (!row) break;
      names.push_back(list.str(0));
      deferred_indexes_.push_back(list.str(1));
    }
    for (const std::string& name : names)
      FS_RETURN_IF_ERROR(with_path(db_.exec("DROP INDEX \"" + name + "\"")));
    return {};
  }

  // SQLite errors name the temporary file; the user knows the target.
  Status with_path(Status s) const {
    if (s.ok() || temp_path_.empty()) return s;
    std::string m = s.message();
    if (m.starts_with(temp_path_)) m = path_ + m.substr(temp_path_.size());
    return {s.code(), std::move(m)};
  }

  struct Statements {
    std::unique_ptr<Statement> run, module, op, kernel, op_rows, kernel_rows, param, graph_node, graph_edge,
        quality, activation, discarded, iteration_process, output, host_event, device_properties,
        memory_event;
  };

  std::string path_;
  std::string temp_path_;
  bool overwrite_;
  Database db_ = Database::closed();
  Statements statements_;           // declared after db_: finalised first
  std::int64_t memory_events_ = 0;  // memory_event ids given so far
  bool begun_ = false;
  bool finished_ = false;
  Status failed_;  // the first failed insert: every later call returns it
  std::int64_t rows_in_transaction_ = 0;
  std::int64_t rows_written_ = 0;
  std::unique_ptr<Progress> progress_;
  std::vector<std::string> deferred_indexes_;
  AggregateBuilder aggregates_;                       // of the rows written so far
  SummaryFacts facts_;                                // given by add_summary_facts, if at all
  std::array<OpArgColumns, kRowsPerInsert> op_args_;  // the op rows being inserted: their encoded arguments
};

}  // namespace

int run_database_schema_version() {
  return static_cast<int>(schema_steps().size());
}

StatusOr<std::unique_ptr<RunSink>> create_run_database(const std::string& path, bool overwrite) {
  FS_RETURN_IF_ERROR(check_output_path(path, overwrite));
  std::string temp;
  FS_ASSIGN_OR_RETURN(int fd, open_temp_beside(path, "tmp", &temp));
  ::close(fd);
  auto sink = std::make_unique<SqliteRunSink>(path, temp, overwrite);  // owns the file from here on
  FS_RETURN_IF_ERROR(sink->open());
  return std::unique_ptr<RunSink>(std::move(sink));
}

}  // namespace flopscope
