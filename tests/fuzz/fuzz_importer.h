// Shared body of the importer fuzz targets: the input goes to a file (importers read paths, and .gz
// handling must be exercised too) and through one importer into memory. Any outcome but a crash, a hang
// or a sanitizer report is fine; a successful import must be internally consistent.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "analyzer/importers/importer.h"
#include "db/model/progress.h"
#include "db/model/run_sink.h"

namespace flopscope::fuzz {

inline int run_importer(std::string_view importer_name, const char* suffix, const std::uint8_t* data,
                        std::size_t size) {
  static std::string path = [suffix] {
    Progress::set_globally_enabled(false);
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr ? dir : "/tmp") + "/flopscope_fuzz_" + std::to_string(::getpid()) +
           suffix;
  }();
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    return 0;
  }
  for (const auto& importer : importers()) {
    if (importer->name() != importer_name) continue;
    MemoryRunSink sink;
    ImportOptions options;
    options.progress = false;
    Status s = importer->import(path, sink, options);
    if (s.ok()) {
      const auto& run = sink.data();
      // Links point at records that exist.
      for (const auto& k : run.kernels) {
        if (k.op_id != kNoId && (k.op_id < 0 || static_cast<std::size_t>(k.op_id) >= run.ops.size()))
          std::abort();
        if (k.module_id != kNoId &&
            (k.module_id < 0 || static_cast<std::size_t>(k.module_id) >= run.modules.size())) {
          std::abort();
        }
      }
      for (const auto& op : run.ops) {
        if (op.parent_op_id != kNoId && op.parent_op_id >= op.id) std::abort();
      }
    } else if (s.message().empty()) {
      std::abort();  // every failure explains itself
    }
  }
  std::remove(path.c_str());
  return 0;
}

}  // namespace flopscope::fuzz
