// Helpers for importer tests: fixture paths, importing into memory, per-kernel lookups.
#pragma once

#include <string>

#include "analyzer/importers/importer.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope::testing {

std::string fixture(const std::string& relative);  // tests/data/<relative>
StatusOr<RunData> import_file(const std::string& path);
// With options (a graph capture, an iteration marker); progress is turned off.
StatusOr<RunData> import_file(const std::string& path, ImportOptions options);
// A fresh temporary directory for one test.
std::string temp_dir();
void write_text(const std::string& path, const std::string& text);
std::string gunzip(const std::string& path);
// Count of the quality row of `code`, 0 when absent; its detail, "" when absent.
std::int64_t issue_count(const RunData& run, QualityCode code);
std::string issue_detail(const RunData& run, QualityCode code);
std::string module_path(const RunData& run, Id module_id);

}  // namespace flopscope::testing
