#include "analyzer/importers/kineto_events.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "analyzer/importers/counters.h"
#include "analyzer/importers/importer_util.h"
#include "db/model/dtype.h"
#include "db/model/module_path.h"

namespace flopscope {
namespace od = simdjson::ondemand;

bool parse_us_to_ns(std::string_view text, std::int64_t& ns) {
  if (text.empty()) return false;
  bool negative = text.front() == '-';
  std::string_view digits = negative ? text.substr(1) : text;
  auto dot = digits.find('.');
  std::string_view whole = digits.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view{} : digits.substr(dot + 1);
  bool plain = !whole.empty() && whole.size() <= 16 &&
               std::all_of(whole.begin(), whole.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
               std::all_of(frac.begin(), frac.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (plain) {
    std::int64_t us = 0;
    std::from_chars(whole.data(), whole.data() + whole.size(), us);
    if (us > INT64_MAX / 1000 - 1) return false;
    std::int64_t sub = 0;
    for (std::size_t i = 0; i < 3; ++i) sub = sub * 10 + (i < frac.size() ? frac[i] - '0' : 0);
    ns = us * 1000 + sub;
    if (negative) ns = -ns;
    return true;
  }
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v) || std::fabs(v) > 9e15)
    return false;
  ns = static_cast<std::int64_t>(std::llround(v * 1000.0));
  return true;
}

namespace {

constexpr std::int64_t kNone = TraceBuilder::kNone;

enum class Cat { kOther, kOp, kAnnotation, kPython, kKernel, kMemcpy, kMemset, kLaunch, kRange };

Cat category(std::string_view cat) {
  if (cat == "cpu_op" || cat == "Operator" || cat == "operator") return Cat::kOp;
  if (cat == "user_annotation") return Cat::kAnnotation;
  if (cat == "python_function") return Cat::kPython;
  if (cat == "kernel" || cat == "Kernel") return Cat::kKernel;
  if (cat == "gpu_memcpy" || cat == "Memcpy") return Cat::kMemcpy;
  if (cat == "gpu_memset" || cat == "Memset") return Cat::kMemset;
  if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime" || cat == "Driver" ||
      cat == "xpu_runtime" || cat == "xpu_driver" || cat == "privateuse1_runtime" ||
      cat == "privateuse1_driver" || cat == "mtia_runtime") {
    return Cat::kLaunch;
  }
  if (cat == "cuda_profiler_range") return Cat::kRange;
  return Cat::kOther;
}

struct Args {
  std::int64_t external_id = kNone;
  std::int64_t correlation = kNone;
  std::int64_t device = kNone;
  std::int64_t stream = kNone;
  std::int64_t graph_id = 0;
  std::int64_t graph_node_id = 0;
  std::array<int, 3> grid{0, 0, 0};
  std::array<int, 3> block{0, 0, 0};
  double bytes = 0;
  std::string_view dims, types, concrete;  // raw JSON arrays
  std::string_view hierarchy;
  std::string_view kernel;                                   // a launch's kernel name (args "kernel")
  std::int64_t python_id = kNone, python_parent_id = kNone;  // a Python frame's (null: a root frame)
  CounterSet counters;
  // A "[memory]" instant event's (profile_memory); kNone where absent.
  std::int64_t mem_bytes = kNone, total_allocated = kNone, total_reserved = kNone, addr = kNone;
  std::int64_t device_type = kNone, device_id = kNone;
};

// The key of a field: its text as written when it holds no escape (the keys of real traces), else unescaped
// by simdjson. Unescaping copies every key of every event, a few per cent of an import.
bool field_key(od::field& field, std::string_view& key) {
  const char* raw = field.key().raw();  // after the opening quote; stage 1 found the closing one
  std::size_t n = 0;
  for (; raw[n] != '"'; ++n) {
    if (raw[n] == '\\') return !field.unescaped_key().get(key);
  }
  key = std::string_view(raw, n);
  return true;
}

// A Kineto id: an integer, sometimes written as a string.
bool get_id(od::value v, std::int64_t& out) {
  od::json_type t;
  if (v.type().get(t)) return false;
  if (t == od::json_type::number) {
    double d = 0;
    std::int64_t i = 0;
    if (!v.get_int64().get(i)) {
      out = i;
      return true;
    }
    if (v.get_double().get(d)) return false;
    out = static_cast<std::int64_t>(d);
    return true;
  }
  if (t == od::json_type::string) {
    std::string_view s;
    if (v.get_string().get(s)) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
  }
  return false;
}

void get_dim3(od::value v, std::array<int, 3>& out) {
  od::array a;
  if (v.get_array().get(a)) return;
  std::size_t i = 0;
  for (auto e : a) {
    std::int64_t x = 0;
    if (i < 3 && !e.get_int64().get(x)) out[i] = static_cast<int>(x);
    ++i;
  }
}

std::string_view raw_array(od::value v) {
  od::array a;
  std::string_view raw;
  if (v.get_array().get(a) || a.raw_json().get(raw)) return {};
  return raw;
}

Args parse_args(od::object obj, bool& error) {
  Args a;
  for (auto field : obj) {
    std::string_view key;
    od::field f;
    if (std::move(field).get(f) || !field_key(f, key)) {
      error = true;
      return a;
    }
    od::value v = f.value();
    // Kernels carry a dozen args each, most of them not wanted here: told apart by length first, so that
    // an unwanted key costs a few integer compares instead of a string comparison per candidate.
    const std::size_t n = key.size();
    if (n == 11 && (key == "External id" || key == "external id")) {
      get_id(v, a.external_id);
    } else if (n == 11 && key == "correlation") {
      get_id(v, a.correlation);
    } else if (n == 6 && key == "device") {
      get_id(v, a.device);
    } else if (n == 6 && key == "stream") {
      get_id(v, a.stream);
    } else if (n == 4 && key == "grid") {
      get_dim3(v, a.grid);
    } else if (n == 5 && key == "block") {
      get_dim3(v, a.block);
    } else if (n == 5 && key == "bytes") {
      double b = 0;
      if (!v.get_double().get(b)) a.bytes = b;
    } else if (n == 8 && key == "graph id") {
      get_id(v, a.graph_id);
    } else if (n == 13 && key == "graph node id") {
      get_id(v, a.graph_node_id);
    } else if (n == 10 && key == "Input Dims") {
      a.dims = raw_array(v);
    } else if (n == 10 && key == "Input type") {
      a.types = raw_array(v);
    } else if (n == 15 && key == "Concrete Inputs") {
      a.concrete = raw_array(v);
    } else if (n == 9 && key == "Python id") {
      get_id(v, a.python_id);
    } else if (n == 16 && key == "Python parent id") {
      get_id(v, a.python_parent_id);
    } else if (n == 16 && key == "Module Hierarchy") {
      std::string_view s;
      if (!v.get_string().get(s)) a.hierarchy = s;
    } else if (n == 5 && key == "Bytes") {
      get_id(v, a.mem_bytes);
    } else if (n == 15 && key == "Total Allocated") {
      get_id(v, a.total_allocated);
    } else if (n == 14 && key == "Total Reserved") {
      get_id(v, a.total_reserved);
    } else if (n == 4 && key == "Addr") {
      get_id(v, a.addr);
    } else if (n == 11 && key == "Device Type") {
      get_id(v, a.device_type);
    } else if (n == 9 && key == "Device Id") {
      get_id(v, a.device_id);
    } else if (n == 6 && key == "kernel") {
      std::string_view s;
      if (!v.get_string().get(s)) a.kernel = s;
    } else if (key.find("__") != std::string_view::npos) {
      double value = 0;
      if (!v.get_double().get(value)) a.counters.take(key, value);
    }
  }
  return a;
}

// Splits "TOP(M)::forward.encoder(E)::forward.0(L)::forward" at dots outside parentheses.
std::vector<std::string> split_hierarchy(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (s[i] == '.' && depth == 0) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  if (start < s.size()) out.emplace_back(s.substr(start));
  return out;
}

}  // namespace

struct KinetoEventReader::Impl {
  Impl(TraceBuilder& b, bool c) : builder(b), capture(c) {}
  TraceBuilder& builder;
  bool capture;
  od::parser parser;
  simdjson::dom::parser dom;
  std::unordered_map<std::string, std::uint32_t> hierarchy_paths;
  std::set<std::string> devices;
  std::int64_t min_ts = INT64_MAX;
  std::string args_key;  // reused: no allocation per op

  std::int64_t id_of(od::value v) {
    od::json_type t;
    if (v.type().get(t)) return 0;
    if (t == od::json_type::string) {
      std::string_view s;
      if (v.get_string().get(s)) return 0;
      std::int64_t n = 0;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
      if (ec == std::errc() && p == s.data() + s.size()) return n;
      return -1000 - static_cast<std::int64_t>(builder.intern(s));  // "Spans", "stream 7", ...
    }
    std::int64_t n = 0;
    get_id(v, n);
    return n;
  }

  std::vector<OpArg> make_args(const Args& a) {
    std::vector<OpArg> out;
    simdjson::dom::element dims, types, concrete;
    bool have_dims = !a.dims.empty() && !dom.parse(a.dims.data(), a.dims.size(), true).get(dims);
    std::vector<std::vector<std::int64_t>> shapes;
    std::vector<bool> nested;
    std::vector<std::string> raw_dims;
    if (have_dims && dims.is_array()) {
      for (auto d : dims.get_array()) {
        std::vector<std::int64_t> shape;
        bool is_nested = false;
        if (d.is_array()) {
          for (auto x : d.get_array()) {
            if (x.is_array()) {
              is_nested = true;
            } else {
              std::int64_t n = 0;
              if (!x.get_int64().get(n)) shape.push_back(n);
            }
          }
        }
        shapes.push_back(std::move(shape));
        nested.push_back(is_nested);
        raw_dims.push_back(simdjson::minify(d));
      }
    }
    std::vector<std::string> type_names;
    if (!a.types.empty() && !dom.parse(a.types.data(), a.types.size(), true).get(types) && types.is_array()) {
      for (auto t : types.get_array()) {
        std::string_view s;
        type_names.emplace_back(t.get_string().get(s) ? std::string_view{} : s);
      }
    }
    std::vector<std::string> values;
    if (!a.concrete.empty() && !dom.parse(a.concrete.data(), a.concrete.size(), true).get(concrete) &&
        concrete.is_array()) {
      for (auto c : concrete.get_array()) {
        std::string_view s;
        if (!c.get_string().get(s)) {
          values.emplace_back(s);
        } else {
          values.push_back(simdjson::minify(c));
        }
      }
    }
    std::size_t n = std::max({shapes.size(), type_names.size(), values.size()});
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      OpArg& arg = out[i];
      std::string type = i < type_names.size() ? type_names[i] : std::string();
      std::string dtype = normalize_dtype(type);
      bool tensor_type = dtype_size(dtype) > 0;
      bool has_dims = i < shapes.size() && !shapes[i].empty() && !nested[i];
      if (i < nested.size() && nested[i]) {
        arg.value = raw_dims[i];  // TensorList: the shapes as text
        arg.dtype = tensor_type ? dtype : "";
      } else if (has_dims || tensor_type) {
        arg.is_tensor = true;
        arg.dtype = tensor_type ? dtype : "";
        if (i < shapes.size()) arg.shape = shapes[i];
      }
      if (i < values.size() && !values[i].empty()) arg.value = values[i];
    }
    return out;
  }

  std::uint32_t hierarchy_path(std::string_view h) {
    auto it = hierarchy_paths.find(std::string(h));
    if (it != hierarchy_paths.end()) return it->second;
    auto frames = parse_torchscript_hierarchy(split_hierarchy(h));
    std::string path;
    // Every level's module repeats its parent's path: the depth is checked before any is built.
    if (builder.depth_ok(frames.size())) {
      for (const auto& f : frames) {
        if (!path.empty()) path += '.';
        path += f.name;
        builder.module(path, f.type);
      }
    }
    std::uint32_t id = builder.intern(path);
    hierarchy_paths.emplace(std::string(h), id);
    return id;
  }

  // One complete ("X") event's fields; the views point into the parser's buffer, valid for this event.
  struct Event {
    std::string_view ph, cat, name, ts_raw, dur_raw;
    std::int64_t pid = 0, tid = 0;
    std::int64_t ts = 0, dur = 0;  // ns, once parsed
    Args args;
  };

  // Reads the fields an event may have. The reason when one is malformed, nullptr otherwise.
  const char* read_fields(od::object& obj, Event& e) {
    for (auto field : obj) {
      std::string_view key;
      od::field f;
      if (std::move(field).get(f) || !field_key(f, key)) return "malformed field";
      od::value v = f.value();
      // Every field of a million events passes here: keys are told apart by length first.
      const std::size_t n = key.size();
      if (n == 2 && key == "ph") {
        if (v.get_string().get(e.ph)) return "ph is not a string";
      } else if (n == 3 && key == "cat") {
        if (v.get_string().get(e.cat)) return "cat is not a string";
      } else if (n == 4 && key == "name") {
        // The parser's string buffer survives until the next iterate: views stay valid for this event.
        if (v.get_string().get(e.name)) return "name is not a string";
        if (has_nul(e.name)) return "name holds a NUL character";
      } else if (n == 3 && key == "pid") {
        e.pid = id_of(v);
      } else if (n == 3 && key == "tid") {
        e.tid = id_of(v);
      } else if (n == 2 && key == "ts") {
        e.ts_raw = v.raw_json_token();
      } else if (n == 3 && key == "dur") {
        e.dur_raw = v.raw_json_token();
      } else if (n == 4 && key == "args") {
        od::object a;
        if (v.get_object().get(a)) continue;
        bool error = false;
        e.args = parse_args(a, error);
        if (error) return "malformed args";
      }
    }
    return nullptr;
  }

  // A capture trace's host events live on threads of their own: its ops nest and link among themselves.
  TraceBuilder::ThreadId thread_of(const Event& e) {
    return capture ? builder.capture_thread(e.pid, e.tid) : builder.thread(e.pid, e.tid);
  }

  // A user annotation: a module call named by flopscope's companion, or a phase of the run. True when it
  // is a profiler step, which is read as an op is.
  bool add_annotation(const Event& e) {
    if (e.name.starts_with(kCompanionModulePrefix)) {
      // "flopscope.module <Class> <path>": a module call named by flopscope's Python companion.
      auto rest = e.name.substr(kCompanionModulePrefix.size());
      auto space = rest.find(' ');
      auto type = rest.substr(0, space);
      auto path = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
      TraceBuilder::Scope scope{thread_of(e), e.ts, e.dur, builder.intern(path), builder.intern(type)};
      scope.is_path = true;
      builder.add_scope(scope);
      return false;
    }
    // record_function ranges (a serving engine's execute_..., step[...]) are phases of the run, not ops:
    // as ops they would own every op under them and hide the module tree.
    if (capture) return false;  // the capture's phases and steps are not this run's
    if (!e.name.starts_with("ProfilerStep#")) {
      builder.issue(QualityCode::user_annotations_as_ranges, e.name);
      builder.add_annotation({thread_of(e), e.ts, e.dur, builder.intern(e.name), 0});
      return false;
    }
    return true;
  }

  void add_op(const Event& e) {
    auto& b = builder;
    if (e.name.starts_with("ProfilerStep#")) {  // older traces file the step under cpu_op
      if (capture) return;
      std::int64_t n = 0;
      auto digits = e.name.substr(13);
      std::from_chars(digits.data(), digits.data() + digits.size(), n);
      b.add_iteration(n, e.ts, e.dur, thread_of(e));
      return;
    }
    const Args& args = e.args;
    TraceBuilder::HostOp op;
    op.thread = thread_of(e);
    op.start_ns = e.ts;
    op.duration_ns = e.dur;
    op.name = b.intern(e.name);
    op.external_id = args.external_id;
    if (!args.dims.empty() || !args.types.empty() || !args.concrete.empty()) {
      args_key.clear();
      args_key.append(args.dims).append(1, '\x1f').append(args.types).append(1, '\x1f').append(args.concrete);
      op.args = b.intern_args(args_key, [&] { return make_args(args); });
    }
    if (!args.hierarchy.empty()) {
      op.module_path = hierarchy_path(args.hierarchy);
      op.has_module_path = true;
    }
    b.add_op(op);
  }

  // A host event kept for export only (TraceBuilder::HostEvent); the capture trace's are not this run's.
  void add_host_event(const Event& e, std::int64_t correlation) {
    if (capture) return;
    TraceBuilder::HostEvent h;
    h.thread = thread_of(e);
    h.start_ns = e.ts;
    h.duration_ns = e.dur;
    h.category = builder.intern(e.cat);
    h.name = builder.intern(e.name);
    h.correlation = correlation;
    h.python_id = e.args.python_id;
    h.python_parent_id = e.args.python_parent_id;
    builder.add_host_event(h);
  }

  // A Python frame, kept for export; "nn.Module: Linear_3" is also a module call named by its class and
  // instance.
  void add_python_scope(const Event& e) {
    add_host_event(e, kNone);
    constexpr std::string_view prefix = "nn.Module: ";
    if (!e.name.starts_with(prefix)) return;
    auto instance = e.name.substr(prefix.size());
    auto type = instance;
    auto us = type.rfind('_');
    if (us != std::string_view::npos && us + 1 < type.size() &&
        std::all_of(type.begin() + static_cast<std::ptrdiff_t>(us) + 1, type.end(),
                    [](char ch) { return ch >= '0' && ch <= '9'; })) {
      type = type.substr(0, us);
    }
    TraceBuilder::Scope scope{thread_of(e), e.ts, e.dur, builder.intern(instance), builder.intern(type)};
    scope.python = true;
    builder.add_scope(scope);
  }

  void add_launch(const Event& e) {
    const Args& args = e.args;
    if (args.correlation == kNone) return add_host_event(e, kNone);  // launched nothing it could name
    TraceBuilder::Launch launch{thread_of(e), e.ts, e.dur, args.correlation, args.external_id, e.pid};
    launch.name = builder.intern(e.name);
    launch.category = builder.intern(e.cat);
    // cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch: kernels with this correlation are graph replays.
    launch.graph = e.name.find("GraphLaunch") != std::string_view::npos;
    if (launch.graph) launch.api = builder.intern(e.name);
    if (capture) {
      launch.captured = true;
      if (!args.kernel.empty()) launch.kernel = builder.intern(args.kernel);
    }
    builder.add_launch(launch);
  }

  // A "[memory]" instant event: one allocation (Bytes > 0) or free (< 0) by the thread it names. The reason
  // when it cannot be kept, nullptr otherwise.
  const char* add_memory(const Event& e) {
    const Args& a = e.args;
    if (a.mem_bytes == kNone) return "no Bytes";
    // c10::DeviceType is a small enum; the CPU's id is -1.
    if (a.device_type == kNone || a.device_type < 0 || a.device_type > 255) return "no valid Device Type";
    const std::int64_t id = a.device_id == kNone ? -1 : a.device_id;
    if (id != -1 && !device_id_ok(id)) return "Device Id out of range";
    MemoryEvent m;
    m.ts_ns = e.ts;
    m.bytes = a.mem_bytes;
    m.total_allocated = a.total_allocated == kNone ? -1 : a.total_allocated;
    m.total_reserved = a.total_reserved == kNone ? -1 : a.total_reserved;
    m.addr = a.addr == kNone ? 0 : a.addr;
    m.device_type = static_cast<int>(a.device_type);
    m.device_id = static_cast<int>(id);
    builder.add_memory_event(m, thread_of(e));
    return nullptr;
  }

  // A kernel, copy, memset or range-profiler entry.
  void add_activity(Cat c, const Event& e) {
    const Args& args = e.args;
    auto& b = builder;
    if (capture) {
      // Ran eagerly while the graph was being captured: not part of the replayed run, but its launch is
      // then not a captured (replayed) one.
      if (args.correlation != kNone) b.add_capture_activity(args.correlation);
      return;
    }
    TraceBuilder::Activity a;
    a.kind = c == Cat::kMemcpy   ? KernelKind::kMemcpy
             : c == Cat::kMemset ? KernelKind::kMemset
                                 : KernelKind::kKernel;
    a.name = b.intern(e.name);
    a.device = static_cast<int>(args.device != kNone ? args.device : std::max<std::int64_t>(e.pid, 0));
    a.stream = args.stream != kNone ? args.stream : e.tid;
    a.start_ns = e.ts;
    a.duration_ns = e.dur;
    a.grid = args.grid;
    a.block = args.block;
    a.correlation = c == Cat::kRange ? kNone : args.correlation;
    a.external_id = args.external_id;
    a.graph_id = args.graph_id;
    a.graph_node_id = args.graph_node_id;
    a.bytes = args.bytes;
    if (args.counters.any) a.counters = b.add_counters(args.counters.counters());
    if (c == Cat::kRange) b.issue(QualityCode::range_profiler_entries);
    b.add_activity(a);
  }
};

KinetoEventReader::KinetoEventReader(TraceBuilder& builder, bool capture)
    : impl_(std::make_unique<Impl>(builder, capture)) {}
KinetoEventReader::~KinetoEventReader() = default;

void KinetoEventReader::event(std::string_view text, std::size_t readable) {
  auto& b = impl_->builder;
  auto bad = [&](const char* why) {
    b.issue(QualityCode::malformed_trace_events, std::string(why) + ": " + std::string(text.substr(0, 120)));
  };
  od::document doc;
  if (impl_->parser.iterate(simdjson::padded_string_view(text.data(), text.size(), readable)).get(doc)) {
    return bad("not JSON");
  }
  od::object obj;
  if (doc.get_object().get(obj)) return bad("not an object");
  Impl::Event e;
  if (const char* why = impl_->read_fields(obj, e)) return bad(why);
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == ',')) s.remove_suffix(1);
    return s;
  };
  if (e.ph == "i" && e.name == "[memory]") {
    if (impl_->capture) return;  // the capture's allocations are not this run's
    auto bad_memory = [&](const char* why) {
      b.issue(QualityCode::malformed_memory_events,
              std::string(why) + ": " + std::string(text.substr(0, 120)));
    };
    if (!parse_us_to_ns(trim(e.ts_raw), e.ts)) return bad_memory("missing or invalid ts");
    if (const char* why = impl_->add_memory(e)) return bad_memory(why);
    return;
  }
  if (e.ph != "X") return;  // flows, other instants, metadata, counters: nothing to attribute
  Cat c = category(e.cat);
  if (c == Cat::kOther) return;
  // The companion opens module ranges with torch's C++ range (_RecordFunctionFast, torch >= 2.2), which the
  // profiler files under cpu_op, not user_annotation: the name says what it is.
  if (c == Cat::kOp && e.name.starts_with(kCompanionModulePrefix)) c = Cat::kAnnotation;
  if (!parse_us_to_ns(trim(e.ts_raw), e.ts)) return bad("missing or invalid ts");
  if (!parse_us_to_ns(trim(e.dur_raw), e.dur) || e.dur < 0) return bad("missing or invalid dur");
  impl_->min_ts = std::min(impl_->min_ts, e.ts);
  ++recognised_;

  switch (c) {
    case Cat::kAnnotation:
      if (!impl_->add_annotation(e)) return;
      [[fallthrough]];  // a profiler step
    case Cat::kOp:
      return impl_->add_op(e);
    case Cat::kPython:
      return impl_->add_python_scope(e);
    case Cat::kLaunch:
      return impl_->add_launch(e);
    case Cat::kKernel:
    case Cat::kMemcpy:
    case Cat::kMemset:
    case Cat::kRange:
      if (e.args.device != kNone && !device_id_ok(e.args.device)) {
        return bad("device id out of range");
      }
      return impl_->add_activity(c, e);
    case Cat::kOther:
      return;
  }
}

std::int64_t KinetoEventReader::earliest_ns() const {
  return impl_->min_ts;
}

void KinetoEventReader::field(std::string_view key, std::string_view raw, std::size_t readable) {
  auto& b = impl_->builder;
  if (impl_->capture) return;  // the run's device and date come from the replayed trace
  if (key == "deviceProperties") {
    simdjson::dom::element e;
    if (impl_->dom.parse(raw.data(), raw.size(), true).get(e) || !e.is_array()) return;
    std::vector<std::string> names;
    for (auto d : e.get_array()) {
      std::string_view n;
      if (!d["name"].get_string().get(n) && std::find(names.begin(), names.end(), n) == names.end()) {
        names.emplace_back(n);
      }
    }
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : "; ") + n;
    if (!joined.empty()) b.info().device = joined;
    b.set_device_properties(simdjson::minify(e));  // every field, for export
  } else if (key == "baseTimeNanoseconds") {
    std::int64_t base = 0;
    auto [p, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), base);
    if (ec == std::errc()) b.info().created_unix_ns = base;
  }
  (void)readable;
}

}  // namespace flopscope
