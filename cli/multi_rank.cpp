#include "cli/multi_rank.h"

#include <algorithm>
#include <filesystem>

#include "cli/run_input.h"

namespace flopscope::cli {
namespace {

bool is_part_file(const std::string& name) {
  return name.ends_with(".db") || name.ends_with(".json") || name.ends_with(".json.gz");
}

}  // namespace

bool names_several_ranks(const std::vector<std::string>& args) {
  std::error_code ec;
  return args.size() > 1 || (args.size() == 1 && std::filesystem::is_directory(args[0], ec));
}

StatusOr<std::vector<RankPart>> open_rank_parts(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  for (const auto& a : args) {
    std::error_code ec;
    if (!std::filesystem::is_directory(a, ec)) {
      files.push_back(a);
      continue;
    }
    std::vector<std::string> in_dir;
    for (const auto& e : std::filesystem::directory_iterator(a, ec)) {
      if (e.is_regular_file() && is_part_file(e.path().filename().string()))
        in_dir.push_back(e.path().string());
    }
    if (ec) return IoError(a + ": cannot list the folder: " + ec.message());
    if (in_dir.empty()) return NotFound(a + ": no run databases or traces in this folder");
    std::sort(in_dir.begin(), in_dir.end());
    files.insert(files.end(), in_dir.begin(), in_dir.end());
  }
  std::vector<RankPart> parts;
  for (const auto& f : files) {
    FS_ASSIGN_OR_RETURN(RunData run, open_run(f));
    FS_ASSIGN_OR_RETURN(int rank, rank_of_file(f));
    parts.push_back(RankPart{rank, f, std::move(run)});
  }
  return parts;
}

}  // namespace flopscope::cli
