#include "analyzer/weights/torch_archive.h"

#include <map>

#include "analyzer/weights/pickle.h"
#include "analyzer/weights/zip_archive.h"
#include "db/model/dtype.h"

namespace flopscope {
namespace {

using K = PyValue::Kind;

// "torch.BFloat16Storage" -> "bfloat16".
std::string storage_dtype(const std::string& cls) {
  static const std::map<std::string, std::string> kNames = {{"Float", "float32"},
                                                            {"Double", "float64"},
                                                            {"Half", "float16"},
                                                            {"BFloat16", "bfloat16"},
                                                            {"Long", "int64"},
                                                            {"Int", "int32"},
                                                            {"Short", "int16"},
                                                            {"Char", "int8"},
                                                            {"Byte", "uint8"},
                                                            {"Bool", "bool"},
                                                            {"ComplexFloat", "complex64"},
                                                            {"ComplexDouble", "complex128"},
                                                            {"Float8_e4m3fn", "float8_e4m3fn"},
                                                            {"Float8_e5m2", "float8_e5m2"}};
  std::string n = cls;
  if (n.starts_with("torch.")) n = n.substr(6);
  if (n.ends_with("Storage")) n.resize(n.size() - 7);
  auto it = kNames.find(n);
  return it != kNames.end() ? it->second : "";
}

int element_size(const std::string& dtype) {
  return dtype.starts_with("float8_") ? 1 : dtype_size(dtype);
}

bool int_tuple(const PyRef& v, std::vector<std::int64_t>* out) {
  if (!v || !(v->is(K::kTuple) || v->is(K::kList))) return false;
  out->clear();
  for (const auto& x : v->items) {
    if (!x->is(K::kInt)) return false;
    out->push_back(x->i);
  }
  return true;
}

std::string join(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

class Walker {
 public:
  Walker(const std::map<std::string, const ZipEntry*>& records, std::string prefix, std::string name,
         WeightsSource* out)
      : records_(records), prefix_(std::move(prefix)), name_(std::move(name)), out_(out) {}

  Status walk(const PyRef& v, const std::string& path, int depth) {
    if (!v) return Status::Ok();
    if (depth > 256) return Corrupt(name_ + ": data.pkl nests deeper than 256 levels at '" + path + "'");
    switch (v->kind) {
      case K::kDict:
        for (const auto& [k, x] : v->dict) {
          std::string key = k->is(K::kString) ? k->s : k->is(K::kInt) ? std::to_string(k->i) : "";
          if (key.empty()) continue;
          FS_RETURN_IF_ERROR(walk(x, join(path, key), depth + 1));
        }
        return Status::Ok();
      case K::kList:
      case K::kTuple:
        for (std::size_t i = 0; i < v->items.size(); ++i) {
          FS_RETURN_IF_ERROR(walk(v->items[i], join(path, std::to_string(i)), depth + 1));
        }
        return Status::Ok();
      case K::kCall:
        return call(*v, path, depth);
      default:
        return Status::Ok();
    }
  }

 private:
  Status call(const PyValue& v, const std::string& path, int depth) {
    const std::string& fn = v.s;
    if (fn == "torch._utils._rebuild_tensor_v2" || fn == "torch._utils._rebuild_tensor")
      return tensor(v, path);
    if (fn == "torch._utils._rebuild_parameter" || fn == "torch._utils._rebuild_parameter_with_state") {
      return v.items.empty() ? Status::Ok() : walk(v.items[0], path, depth + 1);
    }
    if (fn == "torch._utils._rebuild_meta_tensor_no_storage") return meta_tensor(v, path);
    if (fn.starts_with("torch._utils._rebuild_")) {
      out_->warnings.push_back(path + ": skipped (" + fn.substr(13) + " is not supported)");
      return Status::Ok();
    }
    // A TorchScript module or other object: its attributes are the BUILD state.
    if (v.state) return walk(v.state, path, depth + 1);
    return Status::Ok();
  }

  Status tensor(const PyValue& v, const std::string& path) {
    auto bad = [&](const std::string& what) { return Corrupt(name_ + ": tensor '" + path + "': " + what); };
    if (v.items.size() < 4) return bad("rebuild call has too few arguments");
    const PyRef& pid = v.items[0];
    if (!pid->is(K::kPersistent) || pid->items.size() < 5 || !pid->items[0]->is(K::kString) ||
        pid->items[0]->s != "storage" || !pid->items[1]->is(K::kGlobal) || !pid->items[2]->is(K::kString) ||
        !pid->items[4]->is(K::kInt)) {
      return bad("storage reference is not ('storage', type, key, location, numel)");
    }
    TensorLocation t;
    t.name = path;
    t.dtype = storage_dtype(pid->items[1]->s);
    if (t.dtype.empty()) {
      out_->warnings.push_back(path + ": skipped (storage type " + pid->items[1]->s + " is not supported)");
      return Status::Ok();
    }
    const std::string& key = pid->items[2]->s;
    std::string location = pid->items[3]->is(K::kString) ? pid->items[3]->s : "";
    std::int64_t storage_numel = pid->items[4]->i;
    if (!v.items[1]->is(K::kInt) || v.items[1]->i < 0)
      return bad("storage offset is not a non-negative integer");
    t.offset = v.items[1]->i;
    if (!int_tuple(v.items[2], &t.shape) || !int_tuple(v.items[3], &t.strides) ||
        t.shape.size() != t.strides.size()) {
      return bad("size and stride are not integer tuples of equal length");
    }
    int size = element_size(t.dtype);
    auto rec = records_.find(prefix_ + "data/" + key);
    if (location == "meta") {
      t.placeholder = true;
      t.note = "meta tensor: no storage";
      out_->tensors.push_back(std::move(t));
      return Status::Ok();
    }
    if (rec == records_.end()) return bad("storage record data/" + key + " is missing from the archive");
    if (!rec->second->stored) return Unsupported(name_ + ": storage data/" + key + " is compressed");
    t.storage = rec->second->data;
    if (storage_numel < 0 ||
        static_cast<std::uint64_t>(storage_numel) > t.storage.size() / static_cast<std::uint64_t>(size)) {
      return bad("storage of " + std::to_string(storage_numel) + " elements does not fit its " +
                 std::to_string(t.storage.size()) + "-byte record");
    }
    t.storage = t.storage.first(static_cast<std::size_t>(storage_numel) * static_cast<std::size_t>(size));
    // The last element the view reaches must lie inside the storage.
    std::int64_t last = t.offset;
    bool empty = false;
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
      if (t.shape[i] < 0 || t.strides[i] < 0) return bad("negative size or stride");
      if (t.shape[i] == 0) empty = true;
      std::int64_t reach = 0;
      if (t.shape[i] > 0 && (__builtin_mul_overflow(t.shape[i] - 1, t.strides[i], &reach) ||
                             __builtin_add_overflow(last, reach, &last))) {
        return bad("size x stride overflows");
      }
    }
    if (empty) {
      t.placeholder = true;
      t.note = "zero-size tensor";
    } else if (last >= storage_numel) {
      return bad("view reaches element " + std::to_string(last) + " of a storage of " +
                 std::to_string(storage_numel));
    }
    out_->tensors.push_back(std::move(t));
    return Status::Ok();
  }

  Status meta_tensor(const PyValue& v, const std::string& path) {
    TensorLocation t;
    t.name = path;
    if (v.items.size() >= 2 && v.items[0]->is(K::kGlobal)) t.dtype = normalize_dtype(v.items[0]->s);
    if (v.items.size() >= 2) int_tuple(v.items[1], &t.shape);
    t.placeholder = true;
    t.note = "meta tensor: no storage";
    out_->tensors.push_back(std::move(t));
    return Status::Ok();
  }

  const std::map<std::string, const ZipEntry*>& records_;
  std::string prefix_;
  std::string name_;
  WeightsSource* out_;
};

}  // namespace

StatusOr<WeightsSource> parse_torch_archive(std::span<const std::uint8_t> bytes, const std::string& name) {
  FS_ASSIGN_OR_RETURN(std::vector<ZipEntry> entries, read_zip_directory(bytes, name));
  std::map<std::string, const ZipEntry*> records;
  std::string prefix;
  bool found = false, torchscript = false;
  for (const auto& e : entries) {
    records[e.name] = &e;
    auto slash = e.name.find('/');
    if (slash != std::string::npos && e.name.substr(slash + 1) == "data.pkl" && !found) {
      prefix = e.name.substr(0, slash + 1);
      found = true;
    }
  }
  if (!found) return InvalidArgument(name + ": a zip archive without <dir>/data.pkl: not a PyTorch archive");
  for (const auto& e : entries) {
    if (e.name.starts_with(prefix + "code/") || e.name == prefix + "constants.pkl") torchscript = true;
  }
  const ZipEntry* pkl = records[prefix + "data.pkl"];
  if (!pkl->stored) return Unsupported(name + ": data.pkl is compressed");
  FS_ASSIGN_OR_RETURN(Unpickled pickled, unpickle(pkl->data, name + ": data.pkl"));
  WeightsSource source;
  source.path = name;
  source.format = torchscript ? "torchscript" : "torch.save";
  Walker walker(records, prefix, name, &source);
  FS_RETURN_IF_ERROR(walker.walk(pickled.root, "", 0));
  return source;
}

StatusOr<WeightsSource> open_torch_archive(const std::string& path) {
  FS_ASSIGN_OR_RETURN(MappedFile file, MappedFile::open(path));
  FS_ASSIGN_OR_RETURN(WeightsSource source, parse_torch_archive(file.bytes(), path));
  source.files.push_back(std::move(file));  // the mapping does not move: spans stay valid
  return source;
}

}  // namespace flopscope
