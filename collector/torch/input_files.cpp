#include "collector/torch/input_files.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <span>
#include <sstream>
#include <string_view>

#include "analyzer/weights/zip_archive.h"
#include "db/model/atomic_file.h"
#include "db/model/dtype.h"

namespace flopscope {
namespace fs = std::filesystem;
namespace {

// NumPy descr codes this reader accepts (little-endian or byte-sized).
std::string dtype_of_descr(const std::string& d) {
  static const std::pair<const char*, const char*> kMap[] = {
      {"<f4", "float32"}, {"<f8", "float64"}, {"<f2", "float16"}, {"<i8", "int64"}, {"<i4", "int32"},
      {"<i2", "int16"},   {"|i1", "int8"},    {"|u1", "uint8"},   {"|b1", "bool"},
  };
  for (const auto& [code, name] : kMap) {
    if (d == code) return name;
  }
  return "";
}

std::string dict_value(const std::string& header, const std::string& key) {
  auto k = header.find("'" + key + "'");
  if (k == std::string::npos) return "";
  auto colon = header.find(':', k);
  if (colon == std::string::npos) return "";
  auto start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos) return "";
  char open = header[start];
  if (open == '\'') {
    auto end = header.find('\'', start + 1);
    return end == std::string::npos ? "" : header.substr(start + 1, end - start - 1);
  }
  if (open == '(') {
    auto end = header.find(')', start);
    return end == std::string::npos ? "" : header.substr(start + 1, end - start - 1);
  }
  auto end = header.find_first_of(",}", start);
  return header.substr(start, end - start);
}

StatusOr<InputArray> read_npy(const std::string& path, std::string_view bytes) {
  InputArray f;
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) {
    return InvalidArgument(path + ": not a NumPy .npy file (bad magic)");
  }
  int major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_len = 0, header_start = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) |
                 (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return Corrupt(path + ": truncated .npy header");
    for (int i = 0; i < 4; ++i)
      header_len |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    header_start = 12;
  } else {
    return Unsupported(path + ": .npy format version " + std::to_string(major) + " is not supported");
  }
  if (header_start + header_len > bytes.size())
    return Corrupt(path + ": .npy header runs past the end of the file");
  std::string header(bytes.substr(header_start, header_len));
  f.dtype = dtype_of_descr(dict_value(header, "descr"));
  if (f.dtype.empty()) {
    return Unsupported(path + ": .npy dtype '" + dict_value(header, "descr") +
                       "' is not supported (use little-endian float32/64/16, int64/32/16/8, uint8 or bool)");
  }
  if (dict_value(header, "fortran_order").find("True") != std::string::npos) {
    return Unsupported(path +
                       ": Fortran-ordered .npy arrays are not supported; save with numpy.ascontiguousarray");
  }
  std::stringstream dims(dict_value(header, "shape"));
  std::string item;
  std::int64_t numel = 1;
  while (std::getline(dims, item, ',')) {
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    if (item.empty()) continue;
    std::int64_t d = 0;
    try {
      d = std::stoll(item);
    } catch (const std::exception&) {
      return Corrupt(path + ": bad shape in .npy header");
    }
    if (d < 0) return Corrupt(path + ": negative dimension in .npy header");
    f.shape.push_back(d);
    // Checked: a crafted shape must not overflow the size computation (and then pass the length check).
    if (__builtin_mul_overflow(numel, d, &numel)) return Corrupt(path + ": .npy shape is too large");
  }
  std::size_t need = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(numel), static_cast<std::size_t>(dtype_size(f.dtype)),
                             &need)) {
    return Corrupt(path + ": .npy shape is too large");
  }
  std::size_t data_start = header_start + header_len;
  if (bytes.size() - data_start < need) {
    return Corrupt(path + ": .npy data is shorter than its shape says (" +
                   std::to_string(bytes.size() - data_start) + " of " + std::to_string(need) + " bytes)");
  }
  f.data = std::string(bytes.substr(data_start, need));
  return f;
}

StatusOr<InputArray> read_tokens(const std::string& path, const std::string& bytes) {
  InputArray f;
  std::stringstream in(bytes);
  std::string word;
  std::vector<std::int64_t> ids;
  while (in >> word) {
    std::size_t used = 0;
    std::int64_t v = 0;
    try {
      v = std::stoll(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != word.size())
      return InvalidArgument(path + ": '" + word + "' is not a token id (expected integers)");
    ids.push_back(v);
  }
  if (ids.empty()) return InvalidArgument(path + ": no token ids in the file");
  f.dtype = "int64";
  f.shape = {1, static_cast<std::int64_t>(ids.size())};
  f.data.assign(reinterpret_cast<const char*>(ids.data()), ids.size() * sizeof(std::int64_t));
  return f;
}

// numpy.savez: a zip of NAME.npy entries, stored (savez_compressed deflates them: refused, not guessed).
Status read_npz(const std::string& path, const std::string& bytes, std::vector<InputArray>& out) {
  std::span<const std::uint8_t> raw(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  if (!looks_like_zip(raw)) return InvalidArgument(path + ": not a NumPy .npz file (not a zip archive)");
  FS_ASSIGN_OR_RETURN(std::vector<ZipEntry> entries, read_zip_directory(raw, path));
  for (const auto& e : entries) {
    if (!e.name.ends_with(".npy")) continue;
    if (!e.stored) {
      return Unsupported(
          path + ": compressed .npz (numpy.savez_compressed) is not supported; save with numpy.savez");
    }
    std::string_view data(reinterpret_cast<const char*>(e.data.data()), e.data.size());
    FS_ASSIGN_OR_RETURN(InputArray a, read_npy(path + ":" + e.name, data));
    a.name = e.name.substr(0, e.name.size() - 4);
    out.push_back(std::move(a));
  }
  if (out.empty()) return InvalidArgument(path + ": no arrays in the .npz file");
  // Positional savez arguments are arr_0, arr_1, ...: forward()'s order is their number's order.
  auto number = [](const std::string& name) {
    return name.starts_with("arr_") && name.size() > 4 &&
                   name.find_first_not_of("0123456789", 4) == std::string::npos
               ? std::stol(name.substr(4))
               : -1L;
  };
  if (std::all_of(out.begin(), out.end(), [&](const InputArray& a) { return number(a.name) >= 0; })) {
    std::sort(out.begin(), out.end(),
              [&](const InputArray& a, const InputArray& b) { return number(a.name) < number(b.name); });
  }
  return {};
}

}  // namespace

bool InputFile::named() const {
  return std::any_of(arrays.begin(), arrays.end(),
                     [](const InputArray& a) { return !a.name.empty() && !a.name.starts_with("arr_"); });
}

StatusOr<InputFile> read_input_file(const std::string& path, const std::string& tag) {
  FS_ASSIGN_OR_RETURN(std::string bytes, read_file(path));
  InputFile f;
  f.path = path;
  f.tag = tag;
  std::string ext = fs::path(path).extension().string();
  if (ext == ".npy") {
    FS_ASSIGN_OR_RETURN(InputArray a, read_npy(path, bytes));
    f.arrays.push_back(std::move(a));
  } else if (ext == ".txt") {
    FS_ASSIGN_OR_RETURN(InputArray a, read_tokens(path, bytes));
    f.arrays.push_back(std::move(a));
  } else if (ext == ".npz") {
    FS_RETURN_IF_ERROR(read_npz(path, bytes, f.arrays));
  } else {
    return InvalidArgument(path + ": unknown input file type (expected .npy, .npz or .txt)");
  }
  return f;
}

StatusOr<std::vector<InputFile>> read_input_dir(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return NotFound(dir + ": not a directory");
  std::vector<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (ec) return IoError(dir + ": cannot list: " + ec.message());
    auto ext = it->path().extension();
    if (it->is_regular_file() && (ext == ".npy" || ext == ".npz" || ext == ".txt"))
      paths.push_back(it->path());
  }
  if (paths.empty()) return InvalidArgument(dir + ": no .npy, .npz or .txt input files");
  std::sort(paths.begin(), paths.end());
  std::vector<InputFile> out;
  std::string own = fs::path(dir).lexically_normal().filename().string();
  if (own.empty()) own = fs::path(dir).lexically_normal().parent_path().filename().string();
  for (const auto& p : paths) {
    fs::path rel = p.lexically_relative(dir);
    std::string tag = std::distance(rel.begin(), rel.end()) > 1 ? rel.begin()->string() : own;
    FS_ASSIGN_OR_RETURN(InputFile f, read_input_file(p.string(), tag));
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace flopscope
