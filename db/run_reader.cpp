// read_run_database: a whole run from a run database into RunData, each table in id order.
#include <algorithm>

#include "db/aggregate_tables.h"
#include "db/json_columns.h"
#include "db/module_names.h"
#include "db/output_columns.h"
#include "db/run_database.h"
#include "db/run_database_format.h"
#include "db/sketch_column.h"
#include "db/summary_tables.h"
#include "db/table_reader.h"

namespace flopscope {
namespace {

using sqlite::Database;
using sqlite::Statement;

Status bad_row(const Database& db, std::string_view table, std::int64_t id, const Status& s) {
  return Corrupt(db.path() + ": " + std::string(table) + " " + std::to_string(id) + ": " + s.message());
}

Status read_info(Database& db, RunInfo& info) {
  bool found = false;
  FS_RETURN_IF_ERROR(for_each_row(db, "run",
                                  "SELECT tool_version, source_kind, source_path, source_sha256, device, "
                                  "host, input_spec, iterations, warmup, "
                                  "threads, created_unix_ns, command_line, iterations_from FROM run "
                                  "ORDER BY id LIMIT 1",
                                  [&](Statement& s) {
                                    found = true;
                                    info.tool_version = s.str(0);
                                    info.source_kind = source_kind_from_string(s.str(1));
                                    info.source_path = s.str(2);
                                    info.source_sha256 = s.str(3);
                                    info.device = s.str(4);
                                    info.host = s.str(5);
                                    info.input_spec = s.str(6);
                                    info.iterations = s.int32(7);
                                    info.warmup = s.int32(8);
                                    info.threads = s.int32(9);
                                    info.created_unix_ns = s.int64(10);
                                    info.command_line = s.str(11);
                                    info.iterations_from = s.str(12);
                                    return Status();
                                  }));
  if (!found) return Corrupt(db.path() + ": run database has no run row (an incomplete write?)");
  return {};
}

// Paths are stored as parent + name (schema 9, db/module_names.h): each is built once, after the parents
// and the depth are checked.
Status read_modules(Database& db, std::vector<ModuleRecord>& out) {
  std::vector<StoredModule> rows;
  FS_RETURN_IF_ERROR(read_table(db, "module_node", "id, parent_id, name, relative, type", rows,
                                [](Statement& s, StoredModule& m) {
                                  m.record = {s.id(0), s.id(1), s.str(2), s.str(4)};
                                  m.relative = s.int64(3) != 0;
                                  return Status();
                                }));
  return build_module_paths(db.path(), std::move(rows), out);
}

Status read_ops(Database& db, std::vector<OpRecord>& out) {
  return read_table(
      db, "op",
      "id, iteration, sequence, name, thread, start_ns, duration_ns, module_id, parent_op_id, depth, "
      "input_dims, input_types, concrete_inputs, flops, macs, bytes_read, bytes_written, flops_source, "
      "flops_note",
      out, [&](Statement& s, OpRecord& o) {
        o.id = s.id(0);
        o.iteration = s.int32(1);
        o.sequence = s.int64(2);
        o.name = s.str(3);
        o.thread = s.int64(4);
        o.start_ns = s.int64(5);
        o.duration_ns = s.int64(6);
        o.module_id = s.id(7);
        o.parent_op_id = s.id(8);
        o.depth = s.int32(9);
        Status args = decode_op_args(s.text(10), s.text(11), s.text(12), o.args);
        if (!args.ok()) return bad_row(db, "op", o.id, args);
        o.flops = s.real(13);
        o.macs = s.real(14);
        o.bytes_read = s.real(15);
        o.bytes_written = s.real(16);
        o.flops_source = flops_source_from_string(s.str(17));
        o.flops_note = s.str(18);
        return Status();
      });
}

Status read_kernels(Database& db, std::vector<KernelRecord>& out) {
  return read_table(
      db, "kernel",
      "id, kind, name, device, stream, start_ns, duration_ns, grid_x, grid_y, grid_z, block_x, block_y, "
      "block_z, correlation, iteration, op_id, module_id, graph_id, graph_node_id, has_counters, flops_fp64, "
      "flops_fp32, flops_fp16, tensor_ops, dram_bytes_read, dram_bytes_written, l2_bytes, bytes, "
      "tensor_pipe_inst, dram_bytes, launch_name, launch_start_ns, launch_duration_ns, launch_thread",
      out, [](Statement& s, KernelRecord& k) {
        k.id = s.id(0);
        k.kind = kernel_kind_from_string(s.str(1));
        k.name = s.str(2);
        k.device = s.int32(3);
        k.stream = s.int64(4);
        k.start_ns = s.int64(5);
        k.duration_ns = s.int64(6);
        k.grid = {s.int32(7), s.int32(8), s.int32(9)};
        k.block = {s.int32(10), s.int32(11), s.int32(12)};
        k.correlation = s.int64(13);
        k.iteration = s.int32(14);
        k.op_id = s.id(15);
        k.module_id = s.id(16);
        k.graph_id = s.int64(17);
        k.graph_node_id = s.int64(18);
        k.has_counters = s.int64(19) != 0;
        k.flops_fp64 = s.real(20);
        k.flops_fp32 = s.real(21);
        k.flops_fp16 = s.real(22);
        k.tensor_ops = s.real(23);
        k.dram_bytes_read = s.real(24);
        k.dram_bytes_written = s.real(25);
        k.l2_bytes = s.real(26);
        k.bytes = s.real(27);
        k.tensor_pipe_inst = s.real(28);
        k.dram_bytes = s.real(29);
        k.launch.name = s.str(30);
        k.launch.start_ns = s.int64(31);
        k.launch.duration_ns = s.int64(32);
        k.launch.thread = s.int64(33);
        return Status();
      });
}

Status read_params(Database& db, std::vector<ParamRecord>& out) {
  return read_table(db, "param",
                    "id, name, module_id, dtype, shape, numel, bytes, l2, max_abs, nonzero_fraction, sha256, "
                    "sketch, sum",
                    out, [&](Statement& s, ParamRecord& p) {
                      p.id = s.id(0);
                      p.name = s.str(1);
                      p.module_id = s.id(2);
                      p.dtype = s.str(3);
                      Status shape = decode_shape(s.text(4), p.shape);
                      if (!shape.ok()) return bad_row(db, "param", p.id, shape);
                      p.numel = s.int64(5);
                      p.bytes = s.int64(6);
                      p.l2 = s.real(7);
                      p.max_abs = s.real(8);
                      p.nonzero_fraction = s.real(9);
                      p.sha256 = s.str(10);
                      Status sketch = decode_sketch(s.blob(11), p.sketch);
                      if (!sketch.ok()) return bad_row(db, "param", p.id, sketch);
                      p.sum = s.real(12);
                      return Status();
                    });
}

Status read_graph(Database& db, std::vector<GraphNode>& nodes, std::vector<GraphEdge>& edges) {
  FS_RETURN_IF_ERROR(read_table(db, "graph_node", "id, kind, label, module_id, module_path, output_shapes",
                                nodes, [](Statement& s, GraphNode& n) {
                                  n = {s.id(0), s.str(1), s.str(2), s.id(3), s.str(4), s.str(5)};
                                  return Status();
                                }));
  return for_each_row(db, "graph_edge", "SELECT src, dst, label FROM graph_edge ORDER BY rowid",
                      [&](Statement& s) {
                        edges.push_back({s.int64(0), s.int64(1), s.str(2)});
                        return Status();
                      });
}

// A row keeps the severity it was stored with. A code this build does not know (a 'legacy' row, or a kind
// added after it) reads as legacy with its stored text in front of the detail, so nothing is lost.
Status read_quality(Database& db, std::vector<QualityIssue>& out) {
  return for_each_row(db, "data_quality",
                      "SELECT code, what, count, severity, detail FROM data_quality ORDER BY rowid",
                      [&](Statement& s) {
                        std::optional<QualityCode> code = quality_code_from_id(s.str(0));
                        QualityIssue q(code.value_or(QualityCode::legacy), s.int64(2), s.str(4));
                        q.severity = severity_from_string(s.str(3));
                        if (q.code == QualityCode::legacy)
                          q.detail = s.str(1) + (q.detail.empty() ? "" : ": " + q.detail);
                        out.push_back(std::move(q));
                        return Status();
                      });
}

Status read_activations(Database& db, std::vector<ActivationRecord>& out) {
  return for_each_row(
      db, "activation",
      "SELECT module_id, iteration, call, input_tag, numel, out_l2, out_max_abs, out_zero_fraction, "
      "rel_change FROM activation ORDER BY rowid",
      [&](Statement& s) {
        ActivationRecord a;
        a.module_id = s.int64(0);
        a.iteration = static_cast<int>(s.int64(1));
        a.call = static_cast<int>(s.int64(2));
        a.input_tag = s.str(3);
        a.numel = s.int64(4);
        a.out_l2 = s.real(5);
        a.out_max_abs = s.real(6);
        a.out_zero_fraction = s.real(7);
        a.has_rel_change = !s.is_null(8);
        a.rel_change = a.has_rel_change ? s.real(8) : 0;
        out.push_back(std::move(a));
        return Status();
      });
}

Status read_discarded(Database& db, std::vector<DiscardedOpRecord>& out) {
  return for_each_row(db, "discarded_op",
                      "SELECT op_id, zeroing_op_id, zero_factor FROM discarded_op ORDER BY rowid",
                      [&](Statement& s) {
                        out.push_back({s.id(0), s.id(1), s.str(2)});
                        return Status();
                      });
}

// Before version 11 the table is absent: one process ran every iteration.
Status read_iteration_processes(Database& db, std::vector<IterationProcess>& out) {
  return for_each_row(db, "iteration_process",
                      "SELECT iteration, process FROM iteration_process ORDER BY iteration",
                      [&](Statement& s) {
                        out.push_back({static_cast<int>(s.int64(0)), static_cast<int>(s.int64(1))});
                        return Status();
                      });
}

// Before version 13 the table is absent (a migrated file has it empty): no outputs. Rows of one call are
// consecutive (call, position order) and become one record.
Status read_outputs(Database& db, std::vector<OutputRecord>& out) {
  return for_each_row(db, "output_tensor",
                      "SELECT call, input_hash, input_tag, name, dtype, shape, summarized, sha256, max_abs, "
                      "mean, rms, nan_count, "
                      "inf_count, argmax, value FROM output_tensor ORDER BY call, position",
                      [&](Statement& s) {
                        const int call = static_cast<int>(s.int64(0));
                        if (out.empty() || out.back().call != call) {
                          OutputRecord& r = out.emplace_back();
                          r.call = call;
                          r.input_hash = s.str(1);
                          r.input_tag = s.str(2);
                        }
                        OutputTensor t;
                        t.name = s.str(3);
                        t.dtype = s.str(4);
                        FS_RETURN_IF_ERROR(decode_shape(s.text(5), t.shape));
                        t.summarized = s.int64(6) != 0;
                        t.sha256 = s.str(7);
                        t.max_abs = s.real(8);
                        t.mean = s.real(9);
                        t.rms = s.real(10);
                        t.nan_count = s.int64(11);
                        t.inf_count = s.int64(12);
                        if (!s.is_null(13)) FS_RETURN_IF_ERROR(decode_output_argmax(s.blob(13), t));
                        if (!t.summarized) FS_RETURN_IF_ERROR(decode_output_values(s.blob(14), t));
                        out.back().tensors.push_back(std::move(t));
                        return Status();
                      });
}

// Before version 17 the table is absent (a migrated file has it empty): no memory events.
Status read_memory_events(Database& db, std::vector<MemoryEvent>& out) {
  return for_each_row(db, "memory_event",
                      "SELECT ts_ns, thread, bytes, total_allocated, total_reserved, addr, device_type, "
                      "device_id FROM memory_event ORDER BY id",
                      [&](Statement& s) {
                        MemoryEvent m;
                        m.ts_ns = s.int64(0);
                        m.thread = s.int64(1);
                        m.bytes = s.int64(2);
                        m.total_allocated = s.int64(3);
                        m.total_reserved = s.int64(4);
                        m.addr = s.int64(5);
                        m.device_type = static_cast<int>(s.int64(6));
                        m.device_id = static_cast<int>(s.int64(7));
                        out.push_back(m);
                        return Status();
                      });
}

}  // namespace

StatusOr<RunData> read_run_database(const std::string& path, const RunReadOptions& options) {
  std::int64_t version = 0;
  FS_ASSIGN_OR_RETURN(Database db, open_run_database(path, schema_steps(), &version));
  RunData run;
  FS_RETURN_IF_ERROR(read_info(db, run.info));
  FS_RETURN_IF_ERROR(read_modules(db, run.modules));
  FS_RETURN_IF_ERROR(read_params(db, run.params));
  FS_RETURN_IF_ERROR(read_graph(db, run.graph_nodes, run.graph_edges));
  FS_RETURN_IF_ERROR(read_quality(db, run.quality));
  FS_RETURN_IF_ERROR(read_activations(db, run.activations));
  FS_RETURN_IF_ERROR(read_discarded(db, run.discarded));
  FS_RETURN_IF_ERROR(read_iteration_processes(db, run.iteration_processes));
  FS_RETURN_IF_ERROR(read_outputs(db, run.outputs));
  FS_RETURN_IF_ERROR(read_memory_events(db, run.memory_events));
  const bool stored = version >= kAggregatesSchemaVersion;
  if (stored) FS_RETURN_IF_ERROR(read_aggregates(db, run.aggregates));
  if (version >= kSummaryFactsSchemaVersion) {
    // At least one iteration, as the analyzer's IterationIndex counts them.
    const std::size_t iterations = std::max<std::size_t>(run.aggregates.iterations.size(), 1);
    FS_RETURN_IF_ERROR(read_summary_facts(db, run.modules, iterations, run.summary_facts));
  }
  // Fused ops split over submodules: the stored module aggregates keep the fused op's cost on its module and
  // summarize() moves it from the rows, so such runs are read whole for the aggregates (as are runs with
  // dead-compute records). A reader that needs only summarize() (need_summary_facts) needs the rows exactly
  // when no facts are stored: they hold the moved costs.
  const bool split = std::any_of(run.quality.begin(), run.quality.end(), [](const QualityIssue& q) {
    return q.code == QualityCode::fused_ops_split;
  });
  const bool rows_for_summary = options.need_summary_facts ? !run.summary_facts.present : split;
  run.raw_rows = options.raw_rows || !stored || !run.discarded.empty() || rows_for_summary;
  if (run.raw_rows) {
    FS_RETURN_IF_ERROR(read_ops(db, run.ops));
    FS_RETURN_IF_ERROR(read_kernels(db, run.kernels));
  }
  if (!stored) run.aggregates = aggregate_rows(run.ops, run.kernels);  // the migration's part in C++
  return run;
}

StatusOr<std::vector<KernelRecord>> read_run_kernels(const std::string& path) {
  FS_ASSIGN_OR_RETURN(Database db, open_run_database(path, schema_steps(), nullptr));
  std::vector<KernelRecord> kernels;
  FS_RETURN_IF_ERROR(read_kernels(db, kernels));
  return kernels;
}

}  // namespace flopscope
