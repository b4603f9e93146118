// Inspecting model weights without LibTorch: safetensors (single and sharded), torch.save zip archives and
// TorchScript archives. Files are memory-mapped and every offset is checked against the file size before
// a byte is read. Per tensor: shape, size, value statistics, content hash and a state that says whether
// the tensor does anything (ACTIVE), is all zeros (ZEROED) or has no real storage (ERASED).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analyzer/weights/mapped_file.h"
#include "analyzer/weights/tensor_similarity.h"
#include "db/model/records.h"
#include "db/model/status.h"

namespace flopscope {

enum class TensorState { kActive, kZeroed, kErased };
const char* to_string(TensorState state);

// A tensor found in a file, located but not yet read.
struct TensorLocation {
  std::string name;
  std::string dtype;  // flopscope name (float32, bfloat16, ...)
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;      // in elements; empty means row-major contiguous
  std::span<const std::uint8_t> storage;  // the bytes the tensor may view (inside a mapped file)
  std::int64_t offset = 0;                // first element, in elements from storage.begin()
  bool placeholder = false;               // holds no real storage (meta tensor, zero-size)
  std::string note;                       // why it is a placeholder, or what could not be decoded
};

// What a reader found: the mapped files (kept alive) and the tensors located in them.
struct WeightsSource {
  std::string path;
  std::string format;  // "safetensors", "safetensors-sharded", "torch.save", "torchscript"
  std::vector<MappedFile> files;
  std::vector<TensorLocation> tensors;
  std::vector<std::string> missing;   // names an index lists that no shard holds
  std::vector<std::string> warnings;  // things skipped (e.g. a quantized tensor)
};

struct TensorInfo {
  std::string name;
  std::string dtype;
  std::vector<std::int64_t> shape;
  std::int64_t numel = 0;
  std::int64_t bytes = 0;
  double l2 = 0;
  double max_abs = 0;
  double nonzero_fraction = 0;
  bool decoded = true;  // false when the dtype's values could not be decoded (stats from raw bytes)
  std::string sha256;   // of the element bytes in row-major order; "" for placeholders
  // Content sketch (ParamRecord::sketch: kSketchBuckets bucket sums by row-major index) and the sum of the
  // elements; the sketch is empty for placeholders and dtypes without a decoder.
  std::vector<double> sketch;
  double sum = 0;
  TensorState state = TensorState::kActive;
  std::string note;
};

struct WeightsReport {
  std::string path;
  std::string format;
  std::vector<TensorInfo> tensors;  // file order
  std::vector<std::string> warnings;
  std::int64_t total_bytes = 0;
};

struct WeightsOptions {
  double atol = 0;   // |x| <= atol counts as zero
  bool hash = true;  // sha256 per tensor
  int threads = 0;   // 0: hardware concurrency
};

// Format by content (not extension): safetensors, a sharded index (.json), or a zip archive.
StatusOr<WeightsSource> open_weights(const std::string& path);

// Reads every tensor's values and computes its statistics and state.
WeightsReport inspect_weights(const WeightsSource& source, const WeightsOptions& options);

StatusOr<WeightsReport> read_weights(const std::string& path, const WeightsOptions& options);

// One row of a two-file comparison, joined by tensor name. MOVED: the name is on one side only, but the
// other side holds its content (exactly or similarly) under another name.
enum class TensorChange { kUnchanged, kChanged, kNew, kRemoved, kMoved };
const char* to_string(TensorChange change);

struct TensorComparison {
  std::string name;
  const TensorInfo* a = nullptr;               // null when only in B
  const TensorInfo* b = nullptr;               // null when only in A
  TensorState state_b = TensorState::kErased;  // ERASED when absent from B
  TensorChange change = TensorChange::kUnchanged;
  std::string what;  // what changed: "dtype", "shape", "values"; for MOVED the other name and how alike
  // MOVED only: whether the other side's tensor is an exact or a similar copy, and the sketch cosine (1 for
  // an exact copy).
  ContentRelation relation = ContentRelation::kNone;
  double similarity = 0;
};

// The name a tensor is joined by (path maps, container alignment); null: its own name.
using TensorNameMap = std::function<std::string(const std::string&)>;

// Rows in A's order, then tensors only in B, joined by the mapped names (a row's `name` is A's mapped name,
// or B's own name for a tensor only in B). A tensor of A whose name B lacks is REMOVED only when no tensor of
// B holds its content; otherwise its row is MOVED with that B tensor (a tensor only in B, which then has no
// row of its own, else one B also keeps for another name). A tensor only in B that copies a tensor A keeps
// under its own name is MOVED too (`a` that tensor). Pointers refer into the reports, which must outlive
// the rows.
std::vector<TensorComparison> compare_weights(const WeightsReport& a, const WeightsReport& b,
                                              const TensorNameMap& name_a = nullptr,
                                              const TensorNameMap& name_b = nullptr);

// Converts to the run database's parameter rows (module_id left unset; ids are the indexes in the report).
std::vector<ParamRecord> to_param_records(const WeightsReport& report);
ParamRecord to_param_record(const TensorInfo& t);

}  // namespace flopscope
