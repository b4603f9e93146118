// libFuzzer target: the run database reader on arbitrary bytes (seeded with small valid run databases), then
// the summary `report` computes from what was read. Refusals must explain themselves; anything read must
// summarise without a crash, a hang or a sanitizer report (parent cycles, dangling ids, odd values).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "analyzer/summary.h"
#include "db/model/progress.h"
#include "db/run_database.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    flopscope::Progress::set_globally_enabled(false);
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr ? dir : "/tmp") + "/flopscope_fuzz_" + std::to_string(::getpid()) +
           ".db";
  }();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  auto run = flopscope::read_run_database(path);
  if (run.ok()) {
    flopscope::RunSummary summary = flopscope::summarize(*run);
    (void)summary;
  } else if (run.status().message().empty()) {
    std::abort();  // every refusal explains itself
  }
  std::remove(path.c_str());
  return 0;
}
