#include "analyzer/importers/companion_run.h"

#include <simdjson.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <unordered_map>

#include "db/model/atomic_file.h"
#include "db/model/dtype.h"

namespace flopscope {
namespace {

namespace dom = simdjson::dom;

using Field = simdjson::simdjson_result<dom::element>;

// Numbers; the companion writes non-finite values as the strings "inf", "-inf", "nan". A missing field
// (an error result) reads as the fallback.
double number(Field e, double fallback = 0) {
  if (e.error()) return fallback;
  double d = 0;
  std::int64_t i = 0;
  if (!e.get_double().get(d)) return d;
  if (!e.get_int64().get(i)) return static_cast<double>(i);
  std::string_view s;
  if (!e.get_string().get(s)) {
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  return fallback;
}

std::string text(Field e) {
  std::string_view s;
  return e.get_string().get(s) ? std::string() : std::string(s);
}

double number(dom::element e, double fallback = 0) {
  return number(Field(std::move(e)), fallback);  // NOLINT(performance-move-const-arg): the API takes &&
}
std::string text(dom::element e) {
  return text(Field(std::move(e)));  // NOLINT(performance-move-const-arg): the API takes &&
}

}  // namespace

namespace {

// trace --save-outputs: the records, with element values and top-1 indices read from outputs.<pid>.bin
// beside the info file, where each tensor's [offset, count] points.
Status read_outputs(const std::string& path, dom::array records, CompanionInfo& info) {
  info.has_outputs = true;
  std::string blob;
  auto slice = [&](dom::element where, std::size_t element_size, auto& into) -> Status {
    dom::array at;
    if (where.get(at) || at.size() != 2)
      return Corrupt(path + ": an output's data reference is not [offset, count]");
    const auto offset = static_cast<std::size_t>(number(at.at(0)));
    const auto count = static_cast<std::size_t>(number(at.at(1)));
    if (blob.empty()) {
      const std::string file =
          (std::filesystem::path(path).parent_path() / ("outputs." + std::to_string(info.pid) + ".bin"))
              .string();
      FS_ASSIGN_OR_RETURN(blob, read_file(file));
    }
    if (offset > blob.size() || count > (blob.size() - offset) / element_size)
      return Corrupt(path + ": an output's data lies past the end of its outputs file");
    into.resize(count);
    if (count > 0) std::memcpy(into.data(), blob.data() + offset, count * element_size);
    return {};
  };
  for (auto x : records) {
    OutputRecord r;
    r.call = static_cast<int>(number(x["call"]));
    r.input_hash = text(x["input_hash"]);
    dom::array tensors;
    if (!x["tensors"].get(tensors)) {
      for (auto t : tensors) {
        OutputTensor o;
        o.name = text(t["name"]);
        o.dtype = normalize_dtype(text(t["dtype"]));
        if (dom::array shape; !t["shape"].get(shape))
          for (auto d : shape) o.shape.push_back(static_cast<std::int64_t>(number(d)));
        o.sha256 = text(t["sha256"]);
        o.max_abs = number(t["max_abs"]);
        o.mean = number(t["mean"]);
        o.rms = number(t["rms"]);
        o.nan_count = static_cast<std::int64_t>(number(t["nan_count"]));
        o.inf_count = static_cast<std::int64_t>(number(t["inf_count"]));
        if (dom::element e; !t["argmax"].get(e)) FS_RETURN_IF_ERROR(slice(e, sizeof(std::int64_t), o.argmax));
        if (dom::element e; !t["values"].get(e)) {
          FS_RETURN_IF_ERROR(slice(e, sizeof(double), o.values));
        } else {
          o.summarized = true;
          ++info.outputs_summarized;
          info.outputs_summarized_detail += (info.outputs_summarized_detail.empty() ? "" : "\n") +
                                            ("call " + std::to_string(r.call) + ": " + o.name);
        }
        r.tensors.push_back(std::move(o));
      }
    }
    info.outputs.push_back(std::move(r));
  }
  return {};
}

// The run's scalar facts: process, torch, backend and the iteration counts.
void read_run_fields(dom::object o, CompanionInfo& info) {
  info.pid = static_cast<std::int64_t>(number(o["pid"]));
  info.torch_version = text(o["torch_version"]);
  info.torch_imported = !info.torch_version.empty();
  bool b = true;
  if (!o["torch_importable"].get(b)) info.torch_importable = b;
  info.backend = text(o["backend"]);
  info.root_calls = static_cast<int>(number(o["root_calls"]));
  info.iterations_begun = static_cast<int>(number(o["iterations_begun"]));
  info.warmup = static_cast<int>(number(o["warmup"]));
  info.iterations = static_cast<int>(number(o["iterations"]));
  info.iterations_requested = static_cast<int>(number(o["iterations_requested"]));
  if (!o["complete"].get(b)) info.complete = b;
  if (!o["step_mode"].get(b)) info.step_mode = b;
  info.trace = text(o["trace"]);
  info.root = text(o["root"]);
  info.activation_cost_ns = number(o["activation_cost_ns"]);
}

// [path, type] pairs; anything else is skipped.
void read_modules(dom::array a, CompanionInfo& info) {
  for (auto m : a) {
    dom::array pair;
    if (m.get_array().get(pair) || pair.size() < 2) continue;
    ModuleRecord r;
    r.path = text(pair.at(0));
    r.type = text(pair.at(1));
    info.modules.push_back(std::move(r));
  }
}

ParamRecord read_param(dom::element p, Id id) {
  ParamRecord r;
  r.name = text(p["name"]);
  r.id = id;
  r.dtype = normalize_dtype(text(p["dtype"]));
  dom::array shape;
  if (!p["shape"].get_array().get(shape)) {
    for (auto d : shape) r.shape.push_back(static_cast<std::int64_t>(number(d)));
  }
  r.numel = static_cast<std::int64_t>(number(p["numel"]));
  r.bytes = static_cast<std::int64_t>(number(p["bytes"]));
  r.l2 = number(p["l2"]);
  r.max_abs = number(p["max_abs"]);
  r.nonzero_fraction = number(p["nonzero_fraction"]);
  r.sha256 = text(p["sha256"]);
  // The content sketch: kSketchBuckets bucket sums; any other length (an older companion) is no sketch.
  if (dom::array sketch;
      !p["sketch"].get_array().get(sketch) && sketch.size() == static_cast<std::size_t>(kSketchBuckets)) {
    for (auto v : sketch) r.sketch.push_back(number(v));
    r.sum = number(p["sum"]);
  }
  return r;
}

// A parameter the companion could not measure says why under "unknown" and gets no record.
void read_params(dom::array a, CompanionInfo& info) {
  for (auto p : a) {
    if (dom::element u; !p["unknown"].get(u)) {
      info.params_without_statistics.push_back(text(p["name"]) + ": " + text(u));
      continue;
    }
    info.params.push_back(read_param(p, static_cast<Id>(info.params.size())));
  }
}

void read_activations(dom::array a, CompanionInfo& info) {
  info.has_activations = true;
  for (auto x : a) {
    CompanionInfo::Activation act;
    act.path = text(x["path"]);
    ActivationRecord& r = act.record;
    r.iteration = static_cast<int>(number(x["iteration"]));
    r.call = static_cast<int>(number(x["call"]));
    r.numel = static_cast<std::int64_t>(number(x["numel"]));
    r.out_l2 = number(x["l2"]);
    r.out_max_abs = number(x["max_abs"]);
    r.out_zero_fraction = number(x["zero_fraction"]);
    if (dom::element e; !x["rel_change"].get(e)) {
      r.has_rel_change = true;
      r.rel_change = number(e);
    }
    info.activations.push_back(std::move(act));
  }
}

// [op, reason, count] rows; anything shorter is skipped.
void read_value_dependent(dom::array a, CompanionInfo& info) {
  for (auto v : a) {
    dom::array row;
    if (v.get_array().get(row) || row.size() < 3) continue;
    info.value_dependent.push_back(
        {text(row.at(0)), text(row.at(1)), static_cast<std::int64_t>(number(row.at(2)))});
  }
}

}  // namespace

StatusOr<CompanionInfo> read_companion_info(const std::string& path) {
  dom::parser parser;
  dom::element doc;
  if (auto err = parser.load(path).get(doc)) {
    return Corrupt(path + ": not readable companion output (" + std::string(simdjson::error_message(err)) +
                   ")");
  }
  if (!doc.is_object()) return Corrupt(path + ": companion output is not a JSON object");
  CompanionInfo info;
  dom::object o = doc.get_object();
  if (dom::element e; !o["error"].get(e)) return Internal(path + ": the companion failed: " + text(e));
  read_run_fields(o, info);
  dom::array a;
  if (!o["modules"].get(a)) read_modules(a, info);
  if (!o["params"].get(a)) read_params(a, info);
  if (!o["activations"].get(a)) read_activations(a, info);
  if (!o["outputs"].get(a)) FS_RETURN_IF_ERROR(read_outputs(path, a, info));
  if (!o["notes"].get(a)) {
    for (auto n : a) info.notes.push_back(text(n));
  }
  if (bool b = true; !o["meta"].get(b)) info.meta = b;
  info.meta_refused = text(o["meta_refused"]);
  if (!o["value_dependent"].get(a)) read_value_dependent(a, info);
  return info;
}

CompanionSink::CompanionSink(RunSink& inner, const CompanionInfo& info, std::vector<QualityIssue> extra,
                             std::function<void(RunInfo&)> patch)
    : inner_(inner), info_(info), extra_(std::move(extra)), patch_(std::move(patch)) {}

Status CompanionSink::begin(const RunInfo& info) {
  RunInfo patched = info;
  // The run keeps what the trace holds; a companion that counted otherwise is said, never believed.
  stored_iterations_ = info.iterations;
  if (info.iterations != info_.iterations) {
    extra_.emplace_back(QualityCode::companion_note, 1,
                        "the companion counted " + std::to_string(info_.iterations) +
                            " recorded iteration(s); the trace holds " + std::to_string(info.iterations) +
                            " profiler step(s), which the run keeps");
  }
  patched.warmup = info_.warmup;
  if (patch_) patch_(patched);
  return inner_.begin(patched);
}

Status CompanionSink::add_modules(std::span<const ModuleRecord> modules) {
  modules_.insert(modules_.end(), modules.begin(), modules.end());
  return inner_.add_modules(modules);
}

Status CompanionSink::finish() {
  std::unordered_map<std::string, Id> by_path;
  for (const auto& m : modules_) by_path.emplace(m.path, m.id);
  // A parameter belongs to the module its name ends in (the longest known prefix; the root at worst).
  auto owner = [&](const std::string& name) -> Id {
    std::string p = name;
    while (true) {
      auto dot = p.rfind('.');
      if (dot == std::string::npos) break;
      p.resize(dot);
      if (auto it = by_path.find(p); it != by_path.end()) return it->second;
    }
    auto root = by_path.find("");
    return root == by_path.end() ? kNoId : root->second;
  };
  std::vector<ParamRecord> params = info_.params;
  for (auto& p : params) p.module_id = owner(p.name);
  if (!params.empty()) FS_RETURN_IF_ERROR(inner_.add_params(params));

  if (info_.has_activations) {
    std::vector<ActivationRecord> acts;
    std::int64_t unknown = 0;
    for (const auto& a : info_.activations) {
      auto it = by_path.find(a.path);
      if (it == by_path.end()) {
        ++unknown;
        continue;
      }
      acts.push_back(a.record);
      acts.back().module_id = it->second;
    }
    if (!acts.empty()) FS_RETURN_IF_ERROR(inner_.add_activations(acts));
    if (unknown > 0) {
      extra_.emplace_back(QualityCode::activations_of_unknown_modules, unknown);
    }
  }
  if (!info_.params_without_statistics.empty()) {
    extra_.emplace_back(QualityCode::params_without_statistics,
                        static_cast<std::int64_t>(info_.params_without_statistics.size()),
                        info_.params_without_statistics.front());
  }
  if (!info_.outputs.empty()) FS_RETURN_IF_ERROR(inner_.add_outputs(info_.outputs));
  if (info_.outputs_summarized > 0)
    extra_.emplace_back(QualityCode::outputs_summarized, info_.outputs_summarized,
                        info_.outputs_summarized_detail);
  for (const auto& n : info_.notes) extra_.emplace_back(QualityCode::companion_note, 1, n);
  if (!extra_.empty()) FS_RETURN_IF_ERROR(inner_.add_quality(extra_));
  return inner_.finish();
}

}  // namespace flopscope
