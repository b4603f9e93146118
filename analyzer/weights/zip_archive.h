// The subset of ZIP that PyTorch writes (torch.save, torch.jit.save): stored (uncompressed) entries,
// ZIP64 sizes and offsets. Entries are views into the mapped file; every offset is checked first.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "db/model/status.h"

namespace flopscope {

struct ZipEntry {
  std::string name;
  std::span<const std::uint8_t> data;  // empty when compressed (see `stored`)
  bool stored = true;                  // false: compressed, not readable in place
};

bool looks_like_zip(std::span<const std::uint8_t> bytes);

// Reads the central directory. Errors are Corrupt, prefixed with `name`.
StatusOr<std::vector<ZipEntry>> read_zip_directory(std::span<const std::uint8_t> bytes,
                                                   const std::string& name);

}  // namespace flopscope
