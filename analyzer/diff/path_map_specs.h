// The --map / --map-a / --map-b / --no-align options as written on a command line, turned into DiffOptions:
// one parser for the CLI's diff, weights and graph --diff and the GUI's diff.
#pragma once

#include <string>
#include <vector>

#include "analyzer/diff/diff.h"
#include "db/model/status.h"

namespace flopscope {

struct PathMapSpecs {
  std::vector<std::string> both, a, b;  // 'REGEX=REPLACEMENT' each
  bool no_align = false;
};

// Appends the parsed maps to options.maps / maps_a / maps_b and sets options.align_containers; the first
// spec that does not parse is the error.
Status parse_path_maps(const PathMapSpecs& specs, DiffOptions& options);

}  // namespace flopscope
