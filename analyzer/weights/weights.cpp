#include "analyzer/weights/weights.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unordered_map>

#include "analyzer/weights/moved_tensors.h"
#include "analyzer/weights/safetensors.h"
#include "analyzer/weights/tensor_stats.h"
#include "analyzer/weights/torch_archive.h"
#include "analyzer/weights/zip_archive.h"
#include "db/model/input_file.h"
#include "db/model/progress.h"

namespace flopscope {

const char* to_string(TensorState state) {
  switch (state) {
    case TensorState::kActive:
      return "ACTIVE";
    case TensorState::kZeroed:
      return "ZEROED";
    case TensorState::kErased:
      return "ERASED";
  }
  return "?";
}

const char* to_string(TensorChange change) {
  switch (change) {
    case TensorChange::kUnchanged:
      return "UNCHANGED";
    case TensorChange::kChanged:
      return "CHANGED";
    case TensorChange::kNew:
      return "NEW";
    case TensorChange::kRemoved:
      return "REMOVED";
    case TensorChange::kMoved:
      return "MOVED";
  }
  return "?";
}

StatusOr<WeightsSource> open_weights(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) FS_RETURN_IF_ERROR(check_input_file(path));
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    FS_ASSIGN_OR_RETURN(MappedFile probe, MappedFile::open(path));  // for the precise error
    return IoError(path + ": cannot read");
  }
  char head[9] = {};
  in.read(head, 9);
  auto got = static_cast<std::size_t>(in.gcount());
  std::span<const std::uint8_t> h(reinterpret_cast<const std::uint8_t*>(head), got);
  if (looks_like_zip(h)) return open_torch_archive(path);
  // A safetensors file is its header's binary length, then the header's '{' at byte 8. The length's first
  // byte may itself be '{' (one header size in 256): a length that fits in the file decides it, which the
  // text of an index (eight printable bytes read as a number) never does.
  if (got == 9 && head[8] == '{') {
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i) length = (length << 8) | static_cast<std::uint8_t>(head[i]);
    std::error_code size_ec;
    const auto size = std::filesystem::file_size(path, size_ec);
    if (!size_ec && length <= size - 8) return open_safetensors(path);
  }
  // A sharded index is JSON text starting with '{'.
  std::size_t first = 0;
  while (first < got &&
         (head[first] == ' ' || head[first] == '\n' || head[first] == '\r' || head[first] == '\t'))
    ++first;
  if (first < got && head[first] == '{') return open_safetensors_index(path);
  if (got >= 2 && static_cast<std::uint8_t>(head[0]) == 0x80 && static_cast<std::uint8_t>(head[1]) <= 5) {
    return Unsupported(path +
                       ": a legacy (pre-1.6, non-zip) torch.save file; re-save it with a current PyTorch");
  }
  return open_safetensors(path);
}

WeightsReport inspect_weights(const WeightsSource& source, const WeightsOptions& options) {
  WeightsReport report;
  report.path = source.path;
  report.format = source.format;
  report.warnings = source.warnings;
  report.tensors.resize(source.tensors.size());
  std::uint64_t total = 0;
  for (const auto& t : source.tensors) total += t.storage.size();
  Progress progress("weights", total);
  std::atomic<std::size_t> next{0};
  std::atomic<std::uint64_t> done{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < source.tensors.size();) {
      report.tensors[i] = measure_tensor(source.tensors[i], options);
      done += source.tensors[i].storage.size();
    }
  };
  unsigned threads =
      options.threads > 0 ? static_cast<unsigned>(options.threads) : std::thread::hardware_concurrency();
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(source.tensors.size())));
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads; ++k) pool.emplace_back(work);
  if (progress.enabled() && !pool.empty()) {
    // The calling thread reports progress while the pool works.
    while (next.load() < source.tensors.size()) {
      progress.update(done.load());
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  work();
  for (auto& t : pool) t.join();
  progress.finish();
  for (const auto& name : source.missing) {
    TensorInfo info;
    info.name = name;
    info.state = TensorState::kErased;
    info.note = "listed in the index but absent from every shard";
    report.tensors.push_back(std::move(info));
  }
  for (const auto& t : report.tensors) report.total_bytes += t.bytes;
  return report;
}

StatusOr<WeightsReport> read_weights(const std::string& path, const WeightsOptions& options) {
  FS_ASSIGN_OR_RETURN(WeightsSource source, open_weights(path));
  return inspect_weights(source, options);
}

std::vector<TensorComparison> compare_weights(const WeightsReport& a, const WeightsReport& b,
                                              const TensorNameMap& name_a, const TensorNameMap& name_b) {
  auto joined_a = [&](const TensorInfo& t) { return name_a ? name_a(t.name) : t.name; };
  auto joined_b = [&](const TensorInfo& t) { return name_b ? name_b(t.name) : t.name; };
  std::unordered_map<std::string, const TensorInfo*> in_b;
  for (const auto& t : b.tensors) in_b.emplace(joined_b(t), &t);
  std::unordered_map<std::string, bool> in_a;
  std::vector<TensorComparison> rows;
  for (const auto& t : a.tensors) {
    const std::string name = joined_a(t);
    in_a[name] = true;
    TensorComparison row;
    row.name = name;
    row.a = &t;
    auto it = in_b.find(name);
    if (it == in_b.end()) {
      row.state_b = TensorState::kErased;
      row.change = TensorChange::kRemoved;
      row.what = "absent in B";
    } else {
      row.b = it->second;
      row.state_b = row.b->state;
      if (t.dtype != row.b->dtype) {
        row.change = TensorChange::kChanged;
        row.what = "dtype";
      } else if (t.shape != row.b->shape) {
        row.change = TensorChange::kChanged;
        row.what = "shape";
      } else if (t.state == TensorState::kErased || row.b->state == TensorState::kErased) {
        row.change = t.state == row.b->state ? TensorChange::kUnchanged : TensorChange::kChanged;
        row.what = row.change == TensorChange::kChanged ? "storage" : "";
      } else if (t.sha256.empty() || row.b->sha256.empty()) {
        // Without hashes, compare what was measured.
        bool same =
            t.l2 == row.b->l2 && t.max_abs == row.b->max_abs && t.nonzero_fraction == row.b->nonzero_fraction;
        row.change = same ? TensorChange::kUnchanged : TensorChange::kChanged;
        row.what = same ? "" : "values";
      } else {
        row.change = t.sha256 == row.b->sha256 ? TensorChange::kUnchanged : TensorChange::kChanged;
        row.what = row.change == TensorChange::kChanged ? "values" : "";
      }
    }
    rows.push_back(std::move(row));
  }
  for (const auto& t : b.tensors) {
    if (in_a.count(joined_b(t)) != 0) continue;
    TensorComparison row;
    row.name = t.name;
    row.b = &t;
    row.state_b = t.state;
    row.change = TensorChange::kNew;
    row.what = "absent in A";
    rows.push_back(std::move(row));
  }
  find_moved_tensors(a, b, rows);
  return rows;
}

ParamRecord to_param_record(const TensorInfo& t) {
  ParamRecord p;
  p.name = t.name;
  p.dtype = t.dtype;
  p.shape = t.shape;
  p.numel = t.numel;
  p.bytes = t.bytes;
  p.l2 = t.l2;
  p.max_abs = t.max_abs;
  p.nonzero_fraction = t.nonzero_fraction;
  p.sha256 = t.sha256;
  p.sketch = t.sketch;
  p.sum = t.sum;
  return p;
}

std::vector<ParamRecord> to_param_records(const WeightsReport& report) {
  std::vector<ParamRecord> out;
  out.reserve(report.tensors.size());
  for (const auto& t : report.tensors) {
    out.push_back(to_param_record(t));
    out.back().id = static_cast<Id>(out.size() - 1);
  }
  return out;
}

}  // namespace flopscope
