#include "cli/path_map_options.h"

#include <utility>

namespace flopscope::cli {

void PathMapOptions::add_to(CLI::App& app, const std::string& what) {
  app.add_option("--map", maps_,
                 "Rename " + what + " before matching: 'REGEX=REPLACEMENT' (RE2 syntax, $1 for groups), applied to "
                 "both sides; repeatable");
  app.add_option("--map-a", maps_a_, "As --map, for A only (after --map); repeatable");
  app.add_option("--map-b", maps_b_, "As --map, for B only (after --map); repeatable");
  app.add_flag("--no-align", no_align_,
               "Match ModuleList/Sequential/ModuleDict children by name only (default: by structure and weights)");
}

Status PathMapOptions::fill(DiffOptions& options) const {
  for (const auto& [texts, out] : {std::pair{&maps_, &options.maps}, std::pair{&maps_a_, &options.maps_a},
                                   std::pair{&maps_b_, &options.maps_b}}) {
    for (const auto& m : *texts) {
      auto pm = parse_path_map(m);
      if (!pm.ok()) return pm.status();
      out->push_back(std::move(pm).value());
    }
  }
  options.align_containers = !no_align_;
  return Status::Ok();
}

}  // namespace flopscope::cli
