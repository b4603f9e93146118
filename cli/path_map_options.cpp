#include "cli/path_map_options.h"

#include "analyzer/diff/path_map_specs.h"

namespace flopscope::cli {

void PathMapOptions::add_to(CLI::App& app, const std::string& what) {
  app.add_option("--map", maps_,
                 "Rename " + what +
                     " before matching: 'REGEX=REPLACEMENT' (RE2 syntax, $1 for groups), applied to "
                     "both sides; repeatable");
  app.add_option("--map-a", maps_a_, "As --map, for A only (after --map); repeatable");
  app.add_option("--map-b", maps_b_, "As --map, for B only (after --map); repeatable");
  app.add_flag(
      "--no-align", no_align_,
      "Match ModuleList/Sequential/ModuleDict children by name only (default: by structure and weights)");
}

Status PathMapOptions::fill(DiffOptions& options) const {
  return parse_path_maps({maps_, maps_a_, maps_b_, no_align_}, options);
}

}  // namespace flopscope::cli
