// Small helpers shared by the importers (not part of the public interface).
#pragma once

#include <future>
#include <memory>
#include <string>

#include "analyzer/importers/importer.h"
#include "db/model/records.h"

namespace flopscope {

// RunInfo for an imported file: source path and kind, its sha256, tool version, command line.
RunInfo make_run_info(const std::string& path, SourceKind kind, const ImportOptions& options);

// SHA-256 of the file, computed on another thread while the importer parses.
std::future<StatusOr<std::string>> hash_file_async(const std::string& path);
// Waits for the hash and stores it in info (a failure to hash leaves it empty: the import itself decides).
void store_hash(std::future<StatusOr<std::string>>& hash, RunInfo& info);

std::unique_ptr<Importer> make_kineto_importer();
std::unique_ptr<Importer> make_nsys_importer();
std::unique_ptr<Importer> make_ncu_importer();

}  // namespace flopscope
