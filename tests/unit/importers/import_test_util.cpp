#include "import_test_util.h"

#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "analyzer/importers/importer.h"
#include "db/model/run_sink.h"

namespace flopscope::testing {

std::string fixture(const std::string& relative) {
  return std::string(FLOPSCOPE_SOURCE_DIR) + "/tests/data/" + relative;
}

StatusOr<RunData> import_file(const std::string& path) {
  return import_file(path, ImportOptions());
}

StatusOr<RunData> import_file(const std::string& path, ImportOptions options) {
  MemoryRunSink sink;
  options.progress = false;
  FS_RETURN_IF_ERROR(import_trace(path, sink, options));
  if (!sink.finished()) return Internal("sink not finished");
  return std::move(sink.data());
}

std::string temp_dir() {
  std::string tmpl = std::filesystem::temp_directory_path().string() + "/fs_importers_XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

std::int64_t issue_count(const RunData& run, QualityCode code) {
  for (const auto& q : run.quality) {
    if (q.code == code) return q.count;
  }
  return 0;
}

std::string issue_detail(const RunData& run, QualityCode code) {
  for (const auto& q : run.quality) {
    if (q.code == code) return q.detail;
  }
  return "";
}

std::string module_path(const RunData& run, Id module_id) {
  for (const auto& m : run.modules) {
    if (m.id == module_id) return m.path;
  }
  return "<none>";
}

}  // namespace flopscope::testing
