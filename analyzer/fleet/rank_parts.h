// Opening the parts of one distributed run named by a user: rank files (run.rank<R>.db, one Kineto trace
// per rank) or a folder of them. The CLI (`report`, `diff`) and the GUI open ranks through these, so the
// same arguments give the same ranks everywhere.
#pragma once

#include <string>
#include <vector>

#include "analyzer/fleet/ranks.h"
#include "db/model/status.h"

namespace flopscope {

// True for a file name a folder of ranks contributes: run databases and traces.
bool is_rank_part_file(const std::string& name);

// True when the arguments name more than one run, or a folder (`report`'s test for a per-rank report).
bool names_several_ranks(const std::vector<std::string>& args);

// The name of a rank's set: the path with its rank token removed ("A.rank3.db" -> "A.db").
std::string rank_set_name(const std::string& path);

// True when the paths are the ranks of one run rather than runs to compare: one folder, or several files
// whose paths differ only in their rank token.
bool is_one_rank_set(const std::vector<std::string>& paths);

// The part files: files as given, each folder replaced by its run databases and traces, sorted. A folder
// with none is an error.
StatusOr<std::vector<std::string>> rank_part_files(const std::vector<std::string>& args);

// Reads one part (a run database, or a trace imported in memory) and finds its rank.
StatusOr<RankPart> open_rank_part(const std::string& file);

// rank_part_files, then open_rank_part on each.
StatusOr<std::vector<RankPart>> open_rank_parts(const std::vector<std::string>& args);

// True when `diff` was given two folders, or more than two files: two sets of ranks to compare.
bool names_two_rank_sets(const std::vector<std::string>& args);

// Rank R of set A and rank R of set B.
struct RankPair {
  RankPart a, b;
};

// The two sets named (two folders, or files grouped by rank_set_name), opened and matched rank for rank:
// a rank given twice, a rank without a match or sets of different sizes are errors.
StatusOr<std::vector<RankPair>> open_rank_pairs(const std::vector<std::string>& args);

}  // namespace flopscope
