#include "analyzer/importers/byte_source.h"

#include <zlib.h>

#include <climits>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

#include "db/model/input_file.h"
#include "db/model/input_limits.h"

namespace flopscope {

StatusOr<ByteSource> ByteSource::open(const std::string& path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return NotFound(path + ": no such file");
  if (std::filesystem::is_directory(status))
    return InvalidArgument(path + ": is a directory, not a trace file");
  FS_RETURN_IF_ERROR(check_input_file(path));
  auto size = std::filesystem::file_size(path, ec);
  if (ec) return IoError(path + ": cannot read: " + ec.message());
  bool compressed = false;
  if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
    unsigned char magic[2] = {0, 0};
    compressed = std::fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    std::fclose(f);
  } else {
    return IoError(path + ": cannot open for reading");
  }
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return IoError(path + ": cannot open for reading");
  gzbuffer(file, 1 << 18);
  return ByteSource(path, file, size, compressed);
}

ByteSource::ByteSource(std::string path, void* file, std::uint64_t size, bool compressed)
    : path_(std::move(path)), file_(file), file_size_(size), compressed_(compressed) {}

ByteSource::ByteSource(ByteSource&& other) noexcept
    : path_(std::move(other.path_)),
      file_(std::exchange(other.file_, nullptr)),
      file_size_(other.file_size_),
      compressed_(other.compressed_),
      decompressed_(other.decompressed_) {}

ByteSource& ByteSource::operator=(ByteSource&& other) noexcept {
  if (this != &other) {
    close();
    path_ = std::move(other.path_);
    file_ = std::exchange(other.file_, nullptr);
    file_size_ = other.file_size_;
    compressed_ = other.compressed_;
    decompressed_ = other.decompressed_;
  }
  return *this;
}

ByteSource::~ByteSource() {
  close();
}

void ByteSource::close() {
  if (file_ != nullptr) gzclose(static_cast<gzFile>(file_));
  file_ = nullptr;
}

StatusOr<std::size_t> ByteSource::read(char* out, std::size_t size) {
  if (file_ == nullptr) return Internal(path_ + ": read after close");
  auto* file = static_cast<gzFile>(file_);
  if (size > static_cast<std::size_t>(INT_MAX)) size = INT_MAX;
  int n = gzread(file, out, static_cast<unsigned>(size));
  if (n < 0) {
    int code = 0;
    const char* message = gzerror(file, &code);
    return Corrupt(path_ + ": " + (compressed_ ? "corrupt or truncated gzip data: " : "read error: ") +
                   (message != nullptr ? message : "unknown error"));
  }
  if (n == 0 && compressed_) {
    // gzread returns what it could before the end; a stream that stops early sets Z_BUF_ERROR.
    int code = 0;
    const char* message = gzerror(file, &code);
    if (code != Z_OK) {
      return Corrupt(path_ +
                     ": corrupt or truncated gzip data: " + (message != nullptr ? message : "unknown"));
    }
  }
  decompressed_ += static_cast<std::uint64_t>(n);
  const std::uint64_t limit = input_limits().max_decompressed_bytes;
  if (compressed_ && decompressed_ > limit) {
    return InvalidArgument(path_ + ": decompresses to more than " + std::to_string(limit >> 30) +
                           " GiB (--max-decompressed-gb raises the limit)");
  }
  return static_cast<std::size_t>(n);
}

std::uint64_t ByteSource::position() const {
  if (file_ == nullptr) return file_size_;
  auto offset = gzoffset(static_cast<gzFile>(file_));
  return offset < 0 ? 0 : static_cast<std::uint64_t>(offset);
}

}  // namespace flopscope
