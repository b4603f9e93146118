#include "analyzer/fleet/rank_parts.h"

#include <algorithm>
#include <filesystem>
#include <regex>

#include "analyzer/analysis/load_run.h"

namespace flopscope {

bool is_rank_part_file(const std::string& name) {
  return name.ends_with(".db") || name.ends_with(".json") || name.ends_with(".json.gz");
}

bool names_several_ranks(const std::vector<std::string>& args) {
  std::error_code ec;
  return args.size() > 1 || (args.size() == 1 && std::filesystem::is_directory(args[0], ec));
}

std::string rank_set_name(const std::string& path) {
  static const std::regex token(R"([-_.]?rank[-_.]?\d+)", std::regex::icase);
  return std::regex_replace(path, token, "");
}

bool is_one_rank_set(const std::vector<std::string>& paths) {
  std::error_code ec;
  if (paths.size() == 1) return std::filesystem::is_directory(paths[0], ec);
  if (paths.size() < 2) return false;
  const std::string name = rank_set_name(paths[0]);
  if (name == paths[0]) return false;  // no rank token: plain runs
  return std::all_of(paths.begin(), paths.end(), [&](const auto& p) { return rank_set_name(p) == name; });
}

StatusOr<std::vector<std::string>> rank_part_files(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  for (const auto& a : args) {
    std::error_code ec;
    if (!std::filesystem::is_directory(a, ec)) {
      files.push_back(a);
      continue;
    }
    std::vector<std::string> in_dir;
    for (const auto& e : std::filesystem::directory_iterator(a, ec)) {
      if (!is_rank_part_file(e.path().filename().string())) continue;
      std::error_code link_ec;
      // A rank whose file is a dangling link is an error: left out, the ranks would compare without it.
      if (e.is_symlink(link_ec) && !std::filesystem::exists(e.path(), link_ec)) {
        return NotFound(e.path().string() + ": a link to " +
                        std::filesystem::read_symlink(e.path(), link_ec).string() +
                        ", which does not exist (a rank of the folder is missing)");
      }
      if (e.is_regular_file(link_ec)) in_dir.push_back(e.path().string());
    }
    if (ec) return IoError(a + ": cannot list the folder: " + ec.message());
    if (in_dir.empty()) return NotFound(a + ": a directory with no run databases or traces in it");
    std::sort(in_dir.begin(), in_dir.end());
    files.insert(files.end(), in_dir.begin(), in_dir.end());
  }
  return files;
}

StatusOr<RankPart> open_rank_part(const std::string& file) {
  FS_ASSIGN_OR_RETURN(RunData run, load_run(file));
  FS_ASSIGN_OR_RETURN(int rank, rank_of_file(file));
  return RankPart{rank, file, std::move(run)};
}

StatusOr<std::vector<RankPart>> open_rank_parts(const std::vector<std::string>& args) {
  FS_ASSIGN_OR_RETURN(std::vector<std::string> files, rank_part_files(args));
  std::vector<RankPart> parts;
  for (const auto& f : files) {
    FS_ASSIGN_OR_RETURN(RankPart part, open_rank_part(f));
    parts.push_back(std::move(part));
  }
  return parts;
}

namespace {

// `diff DIR_A DIR_B`: two folders of ranks.
bool two_folders(const std::vector<std::string>& args) {
  std::error_code ec;
  return args.size() == 2 && std::filesystem::is_directory(args[0], ec) &&
         std::filesystem::is_directory(args[1], ec);
}

}  // namespace

bool names_two_rank_sets(const std::vector<std::string>& args) {
  return args.size() > 2 || two_folders(args);
}

StatusOr<std::vector<RankPair>> open_rank_pairs(const std::vector<std::string>& args) {
  std::vector<std::vector<std::string>> groups;
  if (two_folders(args)) {
    groups = {{args[0]}, {args[1]}};
  } else {
    std::vector<std::string> names;
    for (const auto& f : args) {
      std::string name = rank_set_name(f);
      auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end()) {
        names.push_back(name);
        groups.push_back({f});
      } else {
        groups[static_cast<std::size_t>(it - names.begin())].push_back(f);
      }
    }
    if (groups.size() != 2) {
      return InvalidArgument("a rank-matched diff needs two sets of ranks (A.rank*.db B.rank*.db), got " +
                             std::to_string(groups.size()) + " names once the rank is taken out");
    }
  }
  std::vector<RankPart> sets[2];
  for (int side = 0; side < 2; ++side) {
    FS_ASSIGN_OR_RETURN(sets[side], open_rank_parts(groups[static_cast<std::size_t>(side)]));
    auto& parts = sets[side];
    std::sort(parts.begin(), parts.end(), [](const auto& x, const auto& y) { return x.rank < y.rank; });
    for (std::size_t i = 1; i < parts.size(); ++i) {
      if (parts[i].rank == parts[i - 1].rank) {
        return InvalidArgument(parts[i].path + ": rank " + std::to_string(parts[i].rank) + " given twice");
      }
    }
  }
  if (sets[0].size() != sets[1].size()) {
    return InvalidArgument("A has " + std::to_string(sets[0].size()) + " ranks and B " +
                           std::to_string(sets[1].size()) + ": ranks must match one to one");
  }
  std::vector<RankPair> pairs;
  for (std::size_t i = 0; i < sets[0].size(); ++i) {
    if (sets[0][i].rank != sets[1][i].rank) {
      return InvalidArgument(sets[0][i].path + ": rank " + std::to_string(sets[0][i].rank) +
                             " has no match in B (B has " + sets[1][i].path + ", rank " +
                             std::to_string(sets[1][i].rank) + ")");
    }
    pairs.push_back({std::move(sets[0][i]), std::move(sets[1][i])});
  }
  return pairs;
}

}  // namespace flopscope
