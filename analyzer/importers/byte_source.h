// Reads a file in chunks, decompressing gzip transparently (zlib reads plain files as they are), so that
// importers stream files of any size in bounded memory. One RAII wrapper around zlib's gzFile.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "db/model/status.h"

namespace flopscope {

class ByteSource {
 public:
  static StatusOr<ByteSource> open(const std::string& path);
  ByteSource(ByteSource&& other) noexcept;
  ByteSource& operator=(ByteSource&& other) noexcept;
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;
  ~ByteSource();

  // Reads up to `size` bytes into `out`; returns the number read, 0 at the end. A truncated or corrupt
  // gzip stream is an error naming the file, and so is one that expands past --max-decompressed-gb.
  StatusOr<std::size_t> read(char* out, std::size_t size);
  // Compressed bytes consumed so far and the file size: for progress.
  std::uint64_t position() const;
  std::uint64_t file_size() const { return file_size_; }
  bool compressed() const { return compressed_; }
  const std::string& path() const { return path_; }

 private:
  ByteSource(std::string path, void* file, std::uint64_t size, bool compressed);
  void close();

  std::string path_;
  void* file_ = nullptr;  // gzFile
  std::uint64_t file_size_ = 0;
  bool compressed_ = false;
  std::uint64_t decompressed_ = 0;  // bytes read so far
};

}  // namespace flopscope
