#include "db/aggregate_tables.h"

#include <cstring>
#include <unordered_map>

#include "db/json_columns.h"
#include "db/model/op_signature.h"
#include "db/table_reader.h"

namespace flopscope {
namespace {

constexpr std::size_t kEntryBytes = 12;  // int32 iteration, int64 nanoseconds, little-endian

std::string encode_times(const IterationTimes& times) {
  std::string out(times.size() * kEntryBytes, '\0');
  char* p = out.data();
  for (const auto& [iteration, ns] : times) {
    const auto it = static_cast<std::uint32_t>(iteration);
    const auto v = static_cast<std::uint64_t>(ns);
    for (int b = 0; b < 4; ++b) *p++ = static_cast<char>((it >> (8 * b)) & 0xff);
    for (int b = 0; b < 8; ++b) *p++ = static_cast<char>((v >> (8 * b)) & 0xff);
  }
  return out;
}

Status decode_times(const sqlite::Database& db, std::string_view table, std::string_view blob,
                    IterationTimes& out) {
  if (blob.size() % kEntryBytes != 0) {
    return Corrupt(db.path() + ": " + std::string(table) + ": a per-iteration time of " +
                   std::to_string(blob.size()) + " bytes (not a multiple of 12)");
  }
  out.resize(blob.size() / kEntryBytes);
  const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
  for (auto& [iteration, ns] : out) {
    std::uint32_t it = 0;
    std::uint64_t v = 0;
    for (int b = 0; b < 4; ++b) it |= std::uint32_t{*p++} << (8 * b);
    for (int b = 0; b < 8; ++b) v |= std::uint64_t{*p++} << (8 * b);
    iteration = static_cast<int>(static_cast<std::int32_t>(it));
    ns = static_cast<std::int64_t>(v);
  }
  return {};
}

std::string row_key(Id module_id, std::string_view name, std::string_view signature) {
  std::string key = std::to_string(module_id);
  key.append(1, '\x1f').append(name).append(1, '\x1f').append(signature);
  return key;
}

// op_aggregate has no column for the FLOPs of nested ops (their work is in the op above them, so no
// total uses them; the diff's op table shows them so that such a row does not read "0"). They are summed
// here from the op rows that have some, which are few: a stored column would need a schema step.
Status add_nested_flops(sqlite::Database& db, RunAggregates& a) {
  std::unordered_map<std::string, std::size_t> row_of;
  row_of.reserve(a.ops.size());
  for (std::size_t i = 0; i < a.ops.size(); ++i)
    row_of.try_emplace(row_key(a.ops[i].module_id, a.ops[i].name, a.ops[i].signature), i);
  std::vector<OpArg> args;
  return for_each_row(db, "op",
                      "SELECT module_id, name, input_dims, input_types, concrete_inputs, flops FROM op "
                      "WHERE flops_source = 'nested' AND flops > 0",
                      [&](sqlite::Statement& s) {
                        args.clear();
                        Status decoded = decode_op_args(s.text(2), s.text(3), s.text(4), args);
                        if (!decoded.ok()) return Corrupt(db.path() + ": op: " + decoded.message());
                        auto it = row_of.find(row_key(s.id(0), s.text(1), signature_of(args)));
                        if (it != row_of.end()) a.ops[it->second].nested_flops += s.real(5);
                        return Status();
                      });
}

}  // namespace

Status write_aggregates(sqlite::Database& db, const RunAggregates& a) {
  FS_ASSIGN_OR_RETURN(sqlite::Statement it,
                      db.prepare("INSERT INTO aggregate_iteration (iteration) VALUES (?)"));
  for (int i : a.iterations) {
    FS_RETURN_IF_ERROR(it.bind(1, i));
    FS_RETURN_IF_ERROR(it.run());
  }
  FS_ASSIGN_OR_RETURN(
      sqlite::Statement m,
      db.prepare(
          "INSERT INTO module_aggregate (module_id, ops, ops_with_formula, flops, macs, bytes_read, "
          "bytes_written, kernels, orphan_kernels, orphan_ns, measured_flops, dram_bytes, dram_bytes_read, "
          "dram_bytes_written, dram_unsplit, tensor_pipe_inst, host_ns, device_ns) "
          "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  for (const ModuleAggregate& r : a.modules) {
    FS_RETURN_IF_ERROR(m.bind_id(1, r.module_id));
    int col = 2;
    for (std::int64_t v : {r.ops, r.ops_with_formula}) FS_RETURN_IF_ERROR(m.bind(col++, v));
    for (double v : {r.flops, r.macs, r.bytes_read, r.bytes_written}) FS_RETURN_IF_ERROR(m.bind(col++, v));
    for (std::int64_t v : {r.kernels, r.orphan_kernels, r.orphan_ns}) FS_RETURN_IF_ERROR(m.bind(col++, v));
    const MeasuredCounters& c = r.measured;
    for (double v : {c.flops, c.dram_bytes, c.dram_read, c.dram_written, c.dram_unsplit, c.tensor_inst}) {
      FS_RETURN_IF_ERROR(m.bind(col++, v));
    }
    FS_RETURN_IF_ERROR(m.bind_blob(col++, encode_times(r.host_ns)));
    FS_RETURN_IF_ERROR(m.bind_blob(col++, encode_times(r.device_ns)));
    FS_RETURN_IF_ERROR(m.run());
  }
  FS_ASSIGN_OR_RETURN(
      sqlite::Statement o,
      db.prepare("INSERT INTO op_aggregate (module_id, name, signature, calls, counted, flops, "
                 "bytes, kernels, host_ns, device_ns) VALUES (?,?,?,?,?,?,?,?,?,?)"));
  for (const OpAggregate& r : a.ops) {
    FS_RETURN_IF_ERROR(o.bind_id(1, r.module_id));
    FS_RETURN_IF_ERROR(o.bind(2, r.name));
    FS_RETURN_IF_ERROR(o.bind(3, r.signature));
    FS_RETURN_IF_ERROR(o.bind(4, r.calls));
    FS_RETURN_IF_ERROR(o.bind(5, r.counted));
    FS_RETURN_IF_ERROR(o.bind(6, r.flops));
    FS_RETURN_IF_ERROR(o.bind(7, r.bytes));
    FS_RETURN_IF_ERROR(o.bind(8, r.kernels));
    FS_RETURN_IF_ERROR(o.bind_blob(9, encode_times(r.host_ns)));
    FS_RETURN_IF_ERROR(o.bind_blob(10, encode_times(r.device_ns)));
    FS_RETURN_IF_ERROR(o.run());
  }
  return {};
}

Status read_aggregates(sqlite::Database& db, RunAggregates& a) {
  a = {};
  a.present = true;
  FS_RETURN_IF_ERROR(for_each_row(db, "aggregate_iteration",
                                  "SELECT iteration FROM aggregate_iteration ORDER BY iteration",
                                  [&](sqlite::Statement& s) {
                                    a.iterations.push_back(s.int32(0));
                                    return Status();
                                  }));
  FS_RETURN_IF_ERROR(for_each_row(db, "module_aggregate",
                                  "SELECT module_id, ops, ops_with_formula, flops, macs, bytes_read, "
                                  "bytes_written, kernels, orphan_kernels, "
                                  "orphan_ns, measured_flops, dram_bytes, dram_bytes_read, "
                                  "dram_bytes_written, dram_unsplit, tensor_pipe_inst, "
                                  "host_ns, device_ns FROM module_aggregate ORDER BY rowid",
                                  [&](sqlite::Statement& s) {
                                    ModuleAggregate& r = a.modules.emplace_back();
                                    r.module_id = s.id(0);
                                    r.ops = s.int64(1);
                                    r.ops_with_formula = s.int64(2);
                                    r.flops = s.real(3);
                                    r.macs = s.real(4);
                                    r.bytes_read = s.real(5);
                                    r.bytes_written = s.real(6);
                                    r.kernels = s.int64(7);
                                    r.orphan_kernels = s.int64(8);
                                    r.orphan_ns = s.int64(9);
                                    r.measured = {.flops = s.real(10),
                                                  .dram_bytes = s.real(11),
                                                  .dram_read = s.real(12),
                                                  .dram_written = s.real(13),
                                                  .dram_unsplit = s.real(14),
                                                  .tensor_inst = s.real(15)};
                                    Status host = decode_times(db, "module_aggregate", s.blob(16), r.host_ns);
                                    return host.ok()
                                               ? decode_times(db, "module_aggregate", s.blob(17), r.device_ns)
                                               : host;
                                  }));
  FS_RETURN_IF_ERROR(for_each_row(
      db, "op_aggregate",
      "SELECT module_id, name, signature, calls, counted, flops, bytes, kernels, host_ns, device_ns "
      "FROM op_aggregate ORDER BY rowid",
      [&](sqlite::Statement& s) {
        OpAggregate& r = a.ops.emplace_back();
        r.module_id = s.id(0);
        r.name = s.str(1);
        r.signature = s.str(2);
        r.calls = s.int64(3);
        r.counted = s.int64(4) != 0;
        r.flops = s.real(5);
        r.bytes = s.real(6);
        r.kernels = s.int64(7);
        Status host = decode_times(db, "op_aggregate", s.blob(8), r.host_ns);
        return host.ok() ? decode_times(db, "op_aggregate", s.blob(9), r.device_ns) : host;
      }));
  return add_nested_flops(db, a);
}

}  // namespace flopscope
