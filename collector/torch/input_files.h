// Request files for `profile --inputs DIR` / `--input-file FILE`: NumPy .npy arrays (any shape, common
// dtypes), .npz archives of several arrays (one per forward() argument, as numpy.savez writes them), or
// .txt files of whitespace-separated token ids (read as int64[1, N]). Torch-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/model/status.h"

namespace flopscope {

struct InputArray {
  std::string name;   // the array's name in an .npz ("arr_0" for positional savez arguments); "" otherwise
  std::string dtype;  // flopscope dtype name
  std::vector<std::int64_t> shape;
  std::string data;  // little-endian, C order
};

// One request: the arguments of one forward() call.
struct InputFile {
  std::string path;
  std::string tag;                 // the input set: the file's subdirectory under DIR, or its stem
  std::vector<InputArray> arrays;  // one per forward() argument; .npz arrays named arr_N in N order
  bool named() const;              // .npz arrays saved by keyword (numpy.savez(f, x=..., mask=...))
};

// Errors name the file: not found, not .npy/.npz/.txt, bad header, Fortran order, data shorter than the
// shape, a compressed .npz (numpy.savez_compressed) or an empty one.
StatusOr<InputFile> read_input_file(const std::string& path, const std::string& tag);

// Every .npy/.npz/.txt file under DIR, sorted by path; files in DIR/<set>/ are tagged <set>, files directly
// in DIR are tagged with DIR's own name. An empty directory is an error.
StatusOr<std::vector<InputFile>> read_input_dir(const std::string& dir);

}  // namespace flopscope
