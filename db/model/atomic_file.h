// Output files that appear whole or not at all: write to a temporary file beside the target, rename on
// commit(). A destroyed AtomicFile that was not committed removes its temporary file.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "db/model/status.h"

namespace flopscope {

class AtomicFile {
 public:
  // Fails when the target exists and !overwrite, or when the directory is not writable.
  static StatusOr<AtomicFile> create(const std::string& path, bool overwrite);

  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  Status write(std::string_view bytes);
  // Flushes, closes and renames into place.
  Status commit();
  const std::string& temp_path() const { return temp_path_; }
  const std::string& path() const { return path_; }

 private:
  AtomicFile(std::string path, std::string temp_path, std::FILE* file);
  void discard();

  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  bool overwrite_ = false;
};

// Checks before heavy work that an output can be written: the target does not exist (unless overwrite)
// and its directory exists and is writable. Returns a one-line error naming the path.
Status check_output_path(const std::string& path, bool overwrite);

// Writes a whole string to path atomically.
Status write_file_atomically(const std::string& path, std::string_view bytes, bool overwrite);

// Reads a whole file; a clear NotFound / IoError naming the path on failure.
StatusOr<std::string> read_file(const std::string& path);

}  // namespace flopscope
