#include "analyzer/weights/safetensors.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_set>

#include "db/model/atomic_file.h"
#include "db/model/dtype.h"

namespace flopscope {
namespace {

constexpr std::uint64_t kMaxHeader = 100'000'000;  // the reference reader's limit

// The reference format's dtype names; sub-byte floats are valid but not decodable here.
std::string safetensors_dtype(const std::string& s, bool* known) {
  static const std::set<std::string> kSubByte = {"F4", "F6_E2M3", "F6_E3M2"};
  static const std::map<std::string, std::string> kOneByteFloats = {
      {"F8_E8M0", "float8_e8m0"}, {"F8_E4M3FNUZ", "float8_e4m3fnuz"}, {"F8_E5M2FNUZ", "float8_e5m2fnuz"}};
  *known = true;
  if (kSubByte.count(s) != 0) return s;
  if (auto it = kOneByteFloats.find(s); it != kOneByteFloats.end()) return it->second;
  std::string n = normalize_dtype(s);
  if (s == "C64") n = "complex64";
  if (dtype_size(n) == 0) *known = false;
  return n;
}

int element_size(const std::string& dtype) {
  if (dtype.starts_with("float8_")) return 1;
  return dtype_size(dtype);
}

bool mul_overflows(std::uint64_t a, std::uint64_t b, std::uint64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}

struct Entry {
  TensorLocation loc;
  std::uint64_t begin = 0, end = 0;
};

using Fail = std::function<Status(const std::string&)>;

// One tensor's header entry, checked against the data buffer.
StatusOr<Entry> read_entry(std::string_view key, simdjson::dom::element value,
                           std::span<const std::uint8_t> buffer, const std::string& name,
                           const Fail& corrupt) {
  const std::string tensor(key);
  auto bad = [&](const std::string& what) { return corrupt("tensor '" + tensor + "': " + what); };
  simdjson::dom::object entry;
  if (value.get_object().get(entry)) return bad("entry is not an object");
  std::string_view dtype_name;
  simdjson::dom::array shape, offsets;
  if (entry["dtype"].get_string().get(dtype_name)) return bad("missing dtype");
  if (entry["shape"].get_array().get(shape)) return bad("missing shape");
  Entry e;
  if (entry["data_offsets"].get_array().get(offsets) || offsets.size() != 2 ||
      offsets.at(0).get_uint64().get(e.begin) || offsets.at(1).get_uint64().get(e.end)) {
    return bad("data_offsets is not a pair of non-negative integers");
  }
  const std::string dt(dtype_name);
  e.loc.name = tensor;
  bool known = false;
  e.loc.dtype = safetensors_dtype(dt, &known);
  if (!known) return bad("unknown dtype '" + dt + "'");
  std::uint64_t numel = 1;
  for (auto d : shape) {
    std::uint64_t dim = 0;
    if (d.get_uint64().get(dim)) return bad("shape holds a value that is not a non-negative integer");
    if (dim > static_cast<std::uint64_t>(INT64_MAX) || mul_overflows(numel, dim, &numel)) {
      return bad("shape overflows");
    }
    e.loc.shape.push_back(static_cast<std::int64_t>(dim));
  }
  if (e.begin > e.end)
    return bad("data_offsets begin " + std::to_string(e.begin) + " > end " + std::to_string(e.end));
  if (e.end > buffer.size()) {
    return bad("data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
               ") run past the data buffer (" + std::to_string(buffer.size()) + " bytes)");
  }
  int size = element_size(e.loc.dtype);
  if (size == 0) return Unsupported(name + ": tensor '" + tensor + "': dtype " + dt + " is not supported");
  std::uint64_t expect = 0;
  if (mul_overflows(numel, static_cast<std::uint64_t>(size), &expect) || expect != e.end - e.begin) {
    return bad("dtype " + dt + " and shape need " + std::to_string(numel) + " x " + std::to_string(size) +
               " bytes but data_offsets give " + std::to_string(e.end - e.begin));
  }
  e.loc.storage =
      buffer.subspan(static_cast<std::size_t>(e.begin), static_cast<std::size_t>(e.end - e.begin));
  if (numel == 0) {
    e.loc.placeholder = true;
    e.loc.note = "zero-size tensor";
  }
  return e;
}

// The tensors must tile the data buffer: sorted by offset, no overlap, no gap, nothing left over.
Status check_tiling(std::vector<Entry>& entries, std::uint64_t buffer_size, const Fail& corrupt) {
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return x.begin != y.begin ? x.begin < y.begin : x.end < y.end;
  });
  std::uint64_t expect_begin = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (e.begin < expect_begin) {
      return corrupt("tensors '" + entries[i - 1].loc.name + "' and '" + e.loc.name + "' overlap at byte " +
                     std::to_string(e.begin));
    }
    if (e.begin > expect_begin) {
      return corrupt("gap before tensor '" + e.loc.name + "' (bytes " + std::to_string(expect_begin) +
                     " to " + std::to_string(e.begin) + " belong to no tensor)");
    }
    expect_begin = e.end;
  }
  if (expect_begin != buffer_size) {
    return corrupt("tensors cover " + std::to_string(expect_begin) + " of the " +
                   std::to_string(buffer_size) + " bytes of the data buffer");
  }
  return {};
}

}  // namespace

Status parse_safetensors(std::span<const std::uint8_t> bytes, const std::string& name,
                         std::vector<TensorLocation>* tensors) {
  const Fail corrupt = [&](const std::string& what) {
    return Corrupt(name + ": corrupt safetensors: " + what);
  };
  if (bytes.size() < 8)
    return corrupt("file is " + std::to_string(bytes.size()) +
                   " bytes, shorter than the 8-byte header length");
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[static_cast<std::size_t>(i)];
  if (n > bytes.size() - 8) {
    return corrupt("header length " + std::to_string(n) + " runs past the end of the file (" +
                   std::to_string(bytes.size()) + " bytes)");
  }
  if (n > kMaxHeader) return corrupt("header length " + std::to_string(n) + " exceeds 100 MB");
  if (n < 2 || bytes[8] != '{') return corrupt("header is not a JSON object");
  // simdjson keeps every key as written, in order: one pass, duplicates found with a hash set (a parser
  // that merges keys and reports them through a callback was quadratic in the tensor count).
  simdjson::dom::parser parser;
  simdjson::dom::object header;
  if (parser.parse(reinterpret_cast<const char*>(bytes.data() + 8), static_cast<std::size_t>(n), true)
          .get_object()
          .get(header)) {
    return corrupt("header is not valid JSON");
  }
  std::span<const std::uint8_t> buffer = bytes.subspan(static_cast<std::size_t>(8 + n));
  std::unordered_set<std::string_view> seen;
  std::vector<Entry> entries;
  for (auto field : header) {
    if (!seen.insert(field.key).second) {
      return corrupt("tensor '" + std::string(field.key) + "' appears twice in the header");
    }
    if (field.key == "__metadata__") {
      if (!field.value.is_object()) return corrupt("__metadata__ is not an object");
      continue;
    }
    FS_ASSIGN_OR_RETURN(Entry e, read_entry(field.key, field.value, buffer, name, corrupt));
    entries.push_back(std::move(e));
  }
  FS_RETURN_IF_ERROR(check_tiling(entries, buffer.size(), corrupt));
  for (auto& e : entries) tensors->push_back(std::move(e.loc));
  return Status::Ok();
}

StatusOr<WeightsSource> open_safetensors(const std::string& path) {
  FS_ASSIGN_OR_RETURN(MappedFile file, MappedFile::open(path));
  WeightsSource source;
  source.path = path;
  source.format = "safetensors";
  FS_RETURN_IF_ERROR(parse_safetensors(file.bytes(), path, &source.tensors));
  source.files.push_back(std::move(file));
  return source;
}

StatusOr<WeightsSource> open_safetensors_index(const std::string& path) {
  FS_ASSIGN_OR_RETURN(std::string text, read_file(path));
  nlohmann::json index = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (index.is_discarded() || !index.is_object()) return Corrupt(path + ": not a JSON object");
  auto map = index.find("weight_map");
  if (map == index.end() || !map->is_object()) return Corrupt(path + ": no \"weight_map\" object");
  WeightsSource source;
  source.path = path;
  source.format = "safetensors-sharded";
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  // Shards in first-mention order; tensor -> shard as listed.
  std::vector<std::string> shards;
  std::map<std::string, std::string> listed;
  for (const auto& [tensor, shard] : map->items()) {
    if (!shard.is_string()) return Corrupt(path + ": weight_map entry '" + tensor + "' is not a file name");
    auto file = shard.get<std::string>();
    if (file.empty() || file.find('/') != std::string::npos || file == "..") {
      return Corrupt(path + ": weight_map entry '" + tensor + "' names '" + file +
                     "', not a file beside the index");
    }
    listed[tensor] = file;
    if (std::find(shards.begin(), shards.end(), file) == shards.end()) shards.push_back(file);
  }
  std::set<std::string> found;
  for (const auto& shard : shards) {
    std::string shard_path = (dir / shard).string();
    FS_ASSIGN_OR_RETURN(MappedFile file, MappedFile::open(shard_path));
    std::vector<TensorLocation> tensors;
    FS_RETURN_IF_ERROR(parse_safetensors(file.bytes(), shard_path, &tensors));
    for (auto& t : tensors) {
      auto it = listed.find(t.name);
      if (it == listed.end()) {
        source.warnings.push_back(shard + ": tensor '" + t.name + "' is not in the index");
      } else if (it->second != shard) {
        source.warnings.push_back(shard + ": tensor '" + t.name + "' is indexed under " + it->second);
        continue;
      }
      found.insert(t.name);
      source.tensors.push_back(std::move(t));
    }
    source.files.push_back(std::move(file));
  }
  for (const auto& [tensor, shard] : listed) {
    if (found.count(tensor) == 0) source.missing.push_back(tensor);
  }
  return source;
}

}  // namespace flopscope
