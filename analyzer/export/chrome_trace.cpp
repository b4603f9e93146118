#include "analyzer/export/chrome_trace.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <zlib.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/peaks.h"
#include "db/model/text_escape.h"

namespace flopscope {
namespace {

// Chrome traces count microseconds; three decimals keep every nanosecond.
std::string us(std::int64_t ns) {
  const bool negative = ns < 0;
  std::uint64_t a = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  return fmt::format("{}{}.{:03d}", negative ? "-" : "", a / 1000, static_cast<int>(a % 1000));
}

void append_shape(std::string& out, const std::vector<std::int64_t>& shape) {
  out += '[';
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? "," : "") + std::to_string(shape[i]);
  out += ']';
}

// Kineto's three parallel argument lists; Tensor[] arguments carry their nested shapes in "Input Dims".
void append_op_args(std::string& out, const std::vector<OpArg>& args) {
  std::string dims = "[", types = "[", concrete = "[";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const OpArg& a = args[i];
    const char* sep = i ? "," : "";
    dims += sep;
    types += sep;
    concrete += sep;
    const bool tensor_list = !a.is_tensor && a.value.starts_with("[[");
    if (a.is_tensor) {
      append_shape(dims, a.shape);
      append_json_string(types, a.dtype);
      concrete += "\"\"";
    } else if (tensor_list) {
      dims += a.value;  // already JSON: nested shapes
      append_json_string(types, a.dtype);
      concrete += "\"\"";
    } else {
      dims += "[]";
      append_json_string(types, a.value.empty() ? "" : "Scalar");
      append_json_string(concrete, a.value);
    }
  }
  out += fmt::format(",\"Input Dims\":{}],\"Input type\":{}],\"Concrete Inputs\":{}]", dims, types, concrete);
}

struct Writer {
  std::string out;
  bool first = true;
  void begin() {
    out += first ? "\n" : ",\n";
    first = false;
  }
};

constexpr int kHostPid = 0;
constexpr int kDevicePidBase = 100;  // device d shows as process 100 + d

// The devices the kernels ran on (device 0 for a GPU run without kernels; none for a CPU run).
std::set<int> device_ids(const RunData& run) {
  std::set<int> ids;
  for (const auto& k : run.kernels) ids.insert(k.device);
  if (ids.empty() && !run.info.device.empty() && run.info.device != "cpu") ids.insert(0);
  return ids;
}

// Kineto's top-level "deviceProperties": the device name the import reads back (so the roofline finds its
// peak again), with the peak rates flopscope's table gives it. A run that joined several names ("A; B") gives
// them to the devices in id order, the last name to any device past them.
void write_device_properties(Writer& w, const RunData& run) {
  std::vector<std::string> names;
  for (std::size_t start = 0; start < run.info.device.size();) {
    std::size_t end = run.info.device.find("; ", start);
    names.push_back(
        run.info.device.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? run.info.device.size() : end + 2;
  }
  const std::set<int> ids = device_ids(run);
  if (names.empty() || ids.empty()) return;
  w.out += "\"deviceProperties\":[";
  std::size_t i = 0;
  for (int id : ids) {
    const std::string& name = names[std::min(i, names.size() - 1)];
    w.out += fmt::format("{}{{\"id\":{},\"name\":", i ? "," : "", id);
    append_json_string(w.out, name);
    if (auto peak = peak_for_device(name)) {
      w.out += fmt::format(",\"flopscope peak FLOP/s (dense 16-bit)\":{},\"flopscope peak bytes/s\":{},",
                           peak->flops_per_s, peak->bytes_per_s);
      w.out += "\"flopscope peak source\":";
      append_json_string(w.out, peak->source);
    }
    w.out += '}';
    ++i;
  }
  w.out += "],";
}

// The source trace's own deviceProperties entries, every field as recorded, each with the peak rates
// flopscope's table gives its device unless an earlier export already added them. False when `json` is not
// an array of objects (then the entries are made from the run's device name).
bool write_kept_device_properties(Writer& w, const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  simdjson::dom::array entries;
  if (parser.parse(json).get(doc) || doc.get_array().get(entries)) return false;
  std::string out = "\"deviceProperties\":[";
  bool first = true;
  for (simdjson::dom::element entry : entries) {
    simdjson::dom::object fields;
    if (entry.get_object().get(fields)) return false;
    std::string text = simdjson::minify(fields);
    std::string_view name;
    std::optional<DevicePeak> peak;
    if (!fields["name"].get_string().get(name)) peak = peak_for_device(std::string(name));
    if (peak && fields["flopscope peak source"].error() == simdjson::NO_SUCH_FIELD) {
      text.pop_back();  // the closing brace
      if (text.size() > 1) text += ',';
      text += fmt::format("\"flopscope peak FLOP/s (dense 16-bit)\":{},\"flopscope peak bytes/s\":{},",
                          peak->flops_per_s, peak->bytes_per_s);
      text += "\"flopscope peak source\":";
      append_json_string(text, peak->source);
      text += '}';
    }
    out += (first ? "" : ",") + text;
    first = false;
  }
  w.out += out + "],";
  return true;
}

void write_header(Writer& w, const RunData& run, const TraceExtras* extras) {
  const RunInfo& info = run.info;
  w.out += "{\"schemaVersion\":1,\"displayTimeUnit\":\"ns\",\"traceName\":";
  append_json_string(w.out, info.source_path);
  w.out += ",\"flopscope\":{\"tool_version\":";
  append_json_string(w.out, info.tool_version);
  w.out += ",\"device\":";
  append_json_string(w.out, info.device);
  w.out += "},";
  if (!extras || extras->device_properties.empty() ||
      !write_kept_device_properties(w, extras->device_properties))
    write_device_properties(w, run);
  w.out += "\"traceEvents\":[";
}

void write_metadata_event(Writer& w, const char* name, int pid, std::int64_t tid, const char* key,
                          const std::string& value_json) {
  w.begin();
  w.out += fmt::format("{{\"ph\":\"M\",\"name\":\"{}\",\"pid\":{},\"tid\":{},\"args\":{{\"{}\":{}}}}}", name,
                       pid, tid, key, value_json);
}

std::string json_string(const std::string& text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

// Process and thread names and their order, as Perfetto and HTA show them: the host first, its threads in
// id order, then each device with its streams in id order.
void write_metadata(Writer& w, const RunData& run, const TraceExtras* extras) {
  std::set<std::int64_t> threads;
  for (const auto& op : run.ops) threads.insert(op.thread);
  if (extras)
    for (const auto& e : extras->host_events) threads.insert(e.thread);
  for (const auto& k : run.kernels)
    if (k.launch.known()) threads.insert(k.launch.thread);
  const std::string host = run.info.host.empty() ? "host" : "host " + run.info.host;
  write_metadata_event(w, "process_name", kHostPid, 0, "name", json_string(host));
  write_metadata_event(w, "process_sort_index", kHostPid, 0, "sort_index", "0");
  int order = 0;
  for (std::int64_t t : threads) {
    write_metadata_event(w, "thread_name", kHostPid, t, "name", json_string(fmt::format("thread {}", t)));
    write_metadata_event(w, "thread_sort_index", kHostPid, t, "sort_index", std::to_string(order++));
  }
  std::map<int, std::set<std::int64_t>> streams;
  for (const auto& k : run.kernels) streams[k.device].insert(k.stream);
  for (const auto& [device, ids] : streams) {
    const int pid = kDevicePidBase + device;
    write_metadata_event(w, "process_name", pid, 0, "name", json_string(fmt::format("GPU {}", device)));
    write_metadata_event(w, "process_sort_index", pid, 0, "sort_index", std::to_string(1 + device));
    for (std::int64_t stream : ids) {
      write_metadata_event(w, "thread_name", pid, stream, "name",
                           json_string(fmt::format("stream {}", stream)));
      write_metadata_event(w, "thread_sort_index", pid, stream, "sort_index", std::to_string(stream));
    }
  }
}

// The outermost ops per (iteration, thread), and each iteration's first start and last end.
struct HostLayout {
  std::map<std::pair<int, std::int64_t>, std::vector<const OpRecord*>> outer;
  std::map<int, std::pair<std::int64_t, std::int64_t>> iteration_span;
};

HostLayout host_layout(const RunData& run) {
  HostLayout h;
  for (const auto& op : run.ops) {
    if (op.depth == 0) h.outer[{op.iteration, op.thread}].push_back(&op);
    auto [it, fresh] = h.iteration_span.try_emplace(op.iteration, op.start_ns, op.start_ns + op.duration_ns);
    if (!fresh) {
      it->second.first = std::min(it->second.first, op.start_ns);
      it->second.second = std::max(it->second.second, op.start_ns + op.duration_ns);
    }
  }
  return h;
}

// The module and its ancestors, outermost first; a parent cycle stops at 4096 links.
std::vector<const ModuleRecord*> module_chain(const std::unordered_map<Id, const ModuleRecord*>& module_by_id,
                                              Id module_id) {
  std::vector<const ModuleRecord*> chain;
  for (Id id = module_id; id != kNoId && chain.size() < 4096;) {
    auto it = module_by_id.find(id);
    if (it == module_by_id.end()) break;
    chain.push_back(it->second);
    id = it->second->parent_id;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

void write_module_range(Writer& w, const ModuleRecord* m, std::int64_t thread, std::int64_t start,
                        std::int64_t end) {
  w.begin();
  w.out += fmt::format(
      "{{\"ph\":\"X\",\"cat\":\"user_annotation\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":",
      kHostPid, thread, us(start), us(std::max<std::int64_t>(0, end - start)));
  append_json_string(
      w.out, "flopscope.module " + (m->type.empty() ? std::string("Module") : m->type) + " " + m->path);
  w.out += '}';
}

// Module call ranges: per (iteration, thread), walk the outermost ops in start order and keep a stack of
// open modules, closing those the next op is not inside and opening its missing ancestors.
void write_module_ranges(Writer& w, const RunData& run, HostLayout& host, ChromeTraceStats& st) {
  std::unordered_map<Id, const ModuleRecord*> module_by_id;
  for (const auto& m : run.modules) module_by_id[m.id] = &m;
  struct Open {
    const ModuleRecord* module;
    std::int64_t start;
  };
  for (auto& [key, ops] : host.outer) {
    const std::int64_t thread = key.second;  // clang 14 cannot capture a structured binding in a lambda
    std::sort(ops.begin(), ops.end(),
              [](const OpRecord* a, const OpRecord* b) { return a->sequence < b->sequence; });
    std::vector<Open> open;
    std::int64_t last_end = 0;
    auto close_to = [&](std::size_t depth) {
      while (open.size() > depth) {
        write_module_range(w, open.back().module, thread, open.back().start, last_end);
        ++st.module_ranges;
        open.pop_back();
      }
    };
    for (const OpRecord* op : ops) {
      auto chain = module_chain(module_by_id, op->module_id);
      std::size_t common = 0;
      while (common < open.size() && common < chain.size() && open[common].module == chain[common]) ++common;
      close_to(common);
      for (std::size_t i = common; i < chain.size(); ++i) open.push_back({chain[i], op->start_ns});
      last_end = std::max(last_end, op->start_ns + op->duration_ns);
    }
    close_to(0);
  }
}

void write_iterations(Writer& w, const HostLayout& host, ChromeTraceStats& st) {
  for (const auto& [iteration, span] : host.iteration_span) {
    w.begin();
    w.out += fmt::format(
        "{{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#{}\",\"pid\":{},\"tid\":{},"
        "\"ts\":{},"
        "\"dur\":{}}}",
        iteration, kHostPid, host.outer.empty() ? 0 : host.outer.begin()->first.second, us(span.first),
        us(span.second - span.first));
    ++st.iterations;
  }
}

void write_ops(Writer& w, const RunData& run, ChromeTraceStats& st) {
  for (const auto& op : run.ops) {
    w.begin();
    w.out += fmt::format(
        "{{\"ph\":\"X\",\"cat\":\"cpu_op\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":", kHostPid,
        op.thread, us(op.start_ns), us(op.duration_ns));
    append_json_string(w.out, op.name);
    w.out +=
        fmt::format(",\"args\":{{\"External id\":{},\"flopscope FLOPs\":{},\"flopscope FLOPs source\":\"{}\"",
                    op.id, op.flops, to_string(op.flops_source));
    append_op_args(w.out, op.args);
    w.out += "}}";
    ++st.ops;
  }
}

void write_kernel_event(Writer& w, const KernelRecord& k) {
  const char* cat = k.kind == KernelKind::kMemcpy   ? "gpu_memcpy"
                    : k.kind == KernelKind::kMemset ? "gpu_memset"
                                                    : "kernel";
  w.begin();
  w.out +=
      fmt::format("{{\"ph\":\"X\",\"cat\":\"{}\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":", cat,
                  kDevicePidBase + k.device, k.stream, us(k.start_ns), us(k.duration_ns));
  append_json_string(w.out, k.name);
  w.out += fmt::format(
      ",\"args\":{{\"device\":{},\"stream\":{},\"correlation\":{},\"grid\":[{},{},{}],\"block\":[{},{},{}]",
      k.device, k.stream, k.correlation, k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1], k.block[2]);
  if (k.graph_id != 0)
    w.out += fmt::format(",\"graph id\":{},\"graph node id\":{}", k.graph_id, k.graph_node_id);
  if (k.kind != KernelKind::kKernel) w.out += fmt::format(",\"bytes\":{}", k.bytes);
  w.out += "}}";
}

void write_kernel_counters(Writer& w, const KernelRecord& k) {
  w.begin();
  w.out += fmt::format(
      "{{\"ph\":\"C\",\"name\":\"measured\",\"pid\":{},\"ts\":{},\"args\":{{\"FLOPs fp32\":{},\"FLOPs "
      "fp16\":{},"
      "\"FLOPs fp64\":{},\"DRAM bytes\":{},\"DRAM bytes read\":{},\"DRAM bytes written\":{},"
      "\"tensor-pipe instructions\":{}}}}}",
      kDevicePidBase + k.device, us(k.start_ns), k.flops_fp32, k.flops_fp16, k.flops_fp64,
      measured_dram_bytes(k), k.dram_bytes_read, k.dram_bytes_written, k.tensor_pipe_inst);
}

// The runtime call of a kernel as the source recorded it; for a run that recorded none (a run database
// from before schema 14, a CUPTI collection without the call), a zero-length call in the middle of the op
// that issued the kernel, where the importer links it back to that op. nullopt when neither is known.
struct LaunchCall {
  std::string_view name;
  std::int64_t start_ns = 0, duration_ns = 0, thread = 0;
  Id op_id = kNoId;
};

std::optional<LaunchCall> launch_call(const KernelRecord& k,
                                      const std::unordered_map<Id, const OpRecord*>& ops) {
  if (k.correlation == 0) return std::nullopt;
  const char* by_kind = k.kind == KernelKind::kKernel   ? "cudaLaunchKernel"
                        : k.kind == KernelKind::kMemcpy ? "cudaMemcpyAsync"
                                                        : "cudaMemsetAsync";
  auto op = ops.find(k.op_id);
  const Id op_id = op == ops.end() ? kNoId : op->second->id;
  if (k.launch.known()) {
    const std::string_view name = k.launch.name.empty() ? std::string_view(by_kind) : k.launch.name;
    return LaunchCall{name, k.launch.start_ns, k.launch.duration_ns, k.launch.thread, op_id};
  }
  if (op == ops.end()) return std::nullopt;
  const OpRecord& o = *op->second;
  return LaunchCall{by_kind, o.start_ns + o.duration_ns / 2, 0, o.thread, o.id};
}

// Kineto's category of a launching call, from CUDA's naming: driver API calls are "cu" and a capital
// (cuLaunchKernel, from Triton and torch.compile), runtime API calls "cuda..." (and HIP's "hip...").
const char* launch_category(std::string_view name) {
  const bool driver = name.size() > 2 && name.starts_with("cu") && name[2] >= 'A' && name[2] <= 'Z';
  return driver ? "cuda_driver" : "cuda_runtime";
}

// The runtime call (once per correlation: a graph launch replays many kernels) and a flow arrow from it to
// the kernel, which HTA and Perfetto pair by the correlation id.
void write_kernel_launch(Writer& w, const KernelRecord& k, const LaunchCall& call,
                         bool first_of_correlation) {
  if (first_of_correlation) {
    w.begin();
    w.out += fmt::format("{{\"ph\":\"X\",\"cat\":\"{}\",\"name\":", launch_category(call.name));
    append_json_string(w.out, std::string(call.name));
    w.out += fmt::format(",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"args\":{{\"correlation\":{}",
                         kHostPid, call.thread, us(call.start_ns), us(call.duration_ns), k.correlation);
    if (call.op_id != kNoId) w.out += fmt::format(",\"External id\":{}", call.op_id);
    w.out += "}}";
  }
  w.begin();
  w.out += fmt::format(
      "{{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":{},\"pid\":{},\"tid\":{},\"ts\":{}}}",
      k.correlation, kHostPid, call.thread, us(call.start_ns));
  w.begin();
  w.out += fmt::format(
      "{{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":{},\"pid\":{},\"tid\":{},"
      "\"ts\":{}}}",
      k.correlation, kDevicePidBase + k.device, k.stream, us(k.start_ns));
}

// Kernels on their device and stream, each with its runtime call and a flow arrow.
void write_kernels(Writer& w, const RunData& run, ChromeTraceStats& st) {
  std::unordered_map<Id, const OpRecord*> op_by_id;
  for (const auto& op : run.ops) op_by_id[op.id] = &op;
  std::unordered_set<std::int64_t> calls_written;
  for (const auto& k : run.kernels) {
    write_kernel_event(w, k);
    ++st.kernels;
    if (k.has_counters) write_kernel_counters(w, k);
    const std::optional<LaunchCall> call = launch_call(k, op_by_id);
    if (!call) continue;
    const bool first = calls_written.insert(k.correlation).second;
    if (first) ++st.runtime_calls;
    write_kernel_launch(w, k, *call, first);
  }
}

// The host events the source recorded besides ops and launches: Python frames with their ids, runtime calls
// that launched nothing, each with its recorded start, duration and thread.
void write_host_events(Writer& w, const TraceExtras& extras, ChromeTraceStats& st) {
  for (const HostEventRecord& e : extras.host_events) {
    const bool python = e.category == "python_function";
    w.begin();
    w.out += "{\"ph\":\"X\",\"cat\":";
    append_json_string(w.out, e.category.empty() ? std::string("cuda_runtime") : e.category);
    w.out += ",\"name\":";
    append_json_string(w.out, e.name);
    w.out += fmt::format(",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"args\":{{", kHostPid, e.thread,
                         us(e.start_ns), us(e.duration_ns));
    if (python) {
      const auto id = [](std::int64_t v) { return v < 0 ? std::string("null") : std::to_string(v); };
      w.out +=
          fmt::format("\"Python parent id\":{},\"Python id\":{}", id(e.python_parent_id), id(e.python_id));
      ++st.python_events;
    } else {
      if (e.correlation >= 0) w.out += fmt::format("\"correlation\":{}", e.correlation);
      ++st.other_runtime_calls;
    }
    w.out += "}}";
  }
}

}  // namespace

std::string chrome_trace_json(const RunData& run, ChromeTraceStats* stats, const TraceExtras* extras) {
  ChromeTraceStats st;
  Writer w;
  w.out.reserve(256 * (run.ops.size() + 2 * run.kernels.size()) + 4096);
  write_header(w, run, extras);
  write_metadata(w, run, extras);
  HostLayout host = host_layout(run);
  write_module_ranges(w, run, host, st);
  write_iterations(w, host, st);
  write_ops(w, run, st);
  write_kernels(w, run, st);
  if (extras) write_host_events(w, *extras, st);
  w.out += "\n]}\n";
  if (stats) *stats = st;
  return std::move(w.out);
}

StatusOr<std::string> gzip_text(const std::string& text) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return Internal("zlib: deflateInit2 failed");
  std::string out;
  char buffer[1 << 16];
  std::size_t offset = 0;
  int rc = Z_OK;
  // zlib counts in 32-bit units: feed at most 1 GiB at a time.
  while (rc != Z_STREAM_END) {
    if (z.avail_in == 0 && offset < text.size()) {
      std::size_t chunk = std::min<std::size_t>(text.size() - offset, std::size_t{1} << 30);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data() + offset));
      z.avail_in = static_cast<uInt>(chunk);
      offset += chunk;
    }
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    rc = deflate(&z, offset < text.size() ? Z_NO_FLUSH : Z_FINISH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      deflateEnd(&z);
      return Internal("zlib: deflate failed");
    }
    out.append(buffer, sizeof buffer - z.avail_out);
  }
  deflateEnd(&z);
  return out;
}

}  // namespace flopscope
