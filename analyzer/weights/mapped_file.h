// A read-only memory map of a whole file: weights are inspected in place, never copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "db/model/status.h"

namespace flopscope {

class MappedFile {
 public:
  // Maps `path` read-only. An empty file maps to an empty span. Errors name the path.
  static StatusOr<MappedFile> open(const std::string& path);

  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  MappedFile(std::string path, const std::uint8_t* data, std::size_t size)
      : path_(std::move(path)), data_(data), size_(size) {}
  void release();

  std::string path_;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace flopscope
