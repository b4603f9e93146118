// Small helpers shared by the importers (not part of the public interface).
#pragma once

#include <climits>
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <string_view>

#include "analyzer/importers/importer.h"
#include "db/model/records.h"

namespace flopscope {

// RunInfo for an imported file: source path and kind, its sha256, tool version, command line.
RunInfo make_run_info(const std::string& path, SourceKind kind, const ImportOptions& options);

// SHA-256 of the file, computed on another thread while the importer parses.
std::future<StatusOr<std::string>> hash_file_async(const std::string& path);
// Waits for the hash and stores it in info (a failure to hash leaves it empty: the import itself decides).
void store_hash(std::future<StatusOr<std::string>>& hash, RunInfo& info);

// One rule for every format's fields. Device ids are small numbers: one past int (a crafted 9e18) is
// refused, never shown wrapped; a double is asked before it is converted (out of range is undefined).
inline bool device_id_ok(std::int64_t id) {
  return id >= 0 && id <= INT_MAX;
}
inline bool device_id_ok(double id) {
  return id >= 0 && id <= INT_MAX;
}
// The run database and every output end a name at a NUL: an event whose name holds one is refused, not
// cut short.
inline bool has_nul(std::string_view name) {
  return name.find('\0') != std::string_view::npos;
}

std::unique_ptr<Importer> make_kineto_importer();
std::unique_ptr<Importer> make_nsys_importer();
std::unique_ptr<Importer> make_ncu_importer();

}  // namespace flopscope
