// Request files for `profile --inputs DIR` / `--input-file FILE`: NumPy .npy arrays (any shape, common
// dtypes) or .txt files of whitespace-separated token ids (read as int64[1, N]). Torch-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/model/status.h"

namespace flopscope {

struct InputFile {
  std::string path;
  std::string tag;    // the input set: the file's subdirectory under DIR, or its stem for single files
  std::string dtype;  // flopscope dtype name
  std::vector<std::int64_t> shape;
  std::string data;  // little-endian, C order
};

// Errors name the file: not found, not .npy/.txt, bad header, Fortran order, data shorter than the shape.
StatusOr<InputFile> read_input_file(const std::string& path, const std::string& tag);

// Every .npy/.txt file under DIR, sorted by path; files in DIR/<set>/ are tagged <set>, files directly in
// DIR are tagged with DIR's own name. An empty directory is an error.
StatusOr<std::vector<InputFile>> read_input_dir(const std::string& dir);

}  // namespace flopscope
