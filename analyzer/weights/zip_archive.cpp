#include "analyzer/weights/zip_archive.h"

#include <algorithm>

namespace flopscope {
namespace {

constexpr std::uint32_t kLocalHeader = 0x04034b50;
constexpr std::uint32_t kCentralHeader = 0x02014b50;
constexpr std::uint32_t kEndOfDirectory = 0x06054b50;
constexpr std::uint32_t kZip64Locator = 0x07064b50;
constexpr std::uint32_t kZip64End = 0x06064b50;

// Bounds-checked little-endian reads.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  bool has(std::uint64_t pos, std::uint64_t n) const { return pos <= b_.size() && n <= b_.size() - pos; }
  std::uint64_t le(std::uint64_t pos, int n) const {
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i)
      v = (v << 8) | b_[static_cast<std::size_t>(pos) + static_cast<std::size_t>(i)];
    return v;
  }
  std::span<const std::uint8_t> bytes() const { return b_; }

 private:
  std::span<const std::uint8_t> b_;
};

}  // namespace

bool looks_like_zip(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= 4 && bytes[0] == 'P' && bytes[1] == 'K' && bytes[2] == 3 && bytes[3] == 4;
}

StatusOr<std::vector<ZipEntry>> read_zip_directory(std::span<const std::uint8_t> bytes,
                                                   const std::string& name) {
  auto corrupt = [&](const std::string& what) { return Corrupt(name + ": corrupt zip archive: " + what); };
  Reader r(bytes);
  if (bytes.size() < 22) return corrupt("too short for an end-of-directory record");
  // The end record is within the last 22 + 65535 bytes (comment length is 16-bit).
  std::uint64_t eocd = 0;
  bool found = false;
  std::uint64_t lowest = bytes.size() > 22 + 65535 ? bytes.size() - 22 - 65535 : 0;
  for (std::uint64_t pos = bytes.size() - 22 + 1; pos-- > lowest;) {
    if (r.le(pos, 4) == kEndOfDirectory) {
      eocd = pos;
      found = true;
      break;
    }
  }
  if (!found) return corrupt("no end-of-directory record");
  std::uint64_t count = r.le(eocd + 10, 2);
  std::uint64_t dir_size = r.le(eocd + 12, 4);
  std::uint64_t dir_offset = r.le(eocd + 16, 4);
  if (eocd >= 20 && r.le(eocd - 20, 4) == kZip64Locator) {
    std::uint64_t z64 = r.le(eocd - 20 + 8, 8);
    if (!r.has(z64, 56) || r.le(z64, 4) != kZip64End) return corrupt("bad ZIP64 end record");
    count = r.le(z64 + 32, 8);
    dir_size = r.le(z64 + 40, 8);
    dir_offset = r.le(z64 + 48, 8);
  }
  if (!r.has(dir_offset, dir_size)) return corrupt("central directory lies outside the file");
  std::vector<ZipEntry> entries;
  std::uint64_t pos = dir_offset;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (!r.has(pos, 46) || r.le(pos, 4) != kCentralHeader)
      return corrupt("bad central directory entry " + std::to_string(i));
    std::uint64_t method = r.le(pos + 10, 2);
    std::uint64_t comp = r.le(pos + 20, 4);
    std::uint64_t size = r.le(pos + 24, 4);
    std::uint64_t name_len = r.le(pos + 28, 2), extra_len = r.le(pos + 30, 2),
                  comment_len = r.le(pos + 32, 2);
    std::uint64_t local = r.le(pos + 42, 4);
    if (!r.has(pos + 46, name_len + extra_len + comment_len))
      return corrupt("entry " + std::to_string(i) + " runs past the file");
    ZipEntry e;
    e.name.assign(reinterpret_cast<const char*>(bytes.data() + pos + 46), static_cast<std::size_t>(name_len));
    // ZIP64 extra field: the 8-byte values present are those whose 32-bit fields are saturated, in order.
    std::uint64_t x = pos + 46 + name_len, x_end = x + extra_len;
    while (x + 4 <= x_end) {
      std::uint64_t id = r.le(x, 2), len = r.le(x + 2, 2);
      if (x + 4 + len > x_end) break;
      if (id == 1) {
        std::uint64_t p = x + 4, p_end = x + 4 + len;
        auto take = [&](std::uint64_t* v) {
          if (*v == 0xFFFFFFFFu && p + 8 <= p_end) {
            *v = r.le(p, 8);
            p += 8;
          }
        };
        take(&size);
        take(&comp);
        take(&local);
      }
      x += 4 + len;
    }
    if (!r.has(local, 30) || r.le(local, 4) != kLocalHeader)
      return corrupt("entry '" + e.name + "' has no local header");
    std::uint64_t data = local + 30 + r.le(local + 26, 2) + r.le(local + 28, 2);
    if (!r.has(data, comp)) return corrupt("entry '" + e.name + "' runs past the end of the file");
    e.stored = method == 0;
    if (e.stored) {
      if (comp != size) return corrupt("stored entry '" + e.name + "' has different sizes");
      e.data = bytes.subspan(static_cast<std::size_t>(data), static_cast<std::size_t>(size));
    }
    entries.push_back(std::move(e));
    pos += 46 + name_len + extra_len + comment_len;
  }
  return entries;
}

}  // namespace flopscope
