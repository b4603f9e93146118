#include "analyzer/diff/path_map_specs.h"

#include <utility>

namespace flopscope {

Status parse_path_maps(const PathMapSpecs& specs, DiffOptions& options) {
  for (const auto& [texts, out] :
       {std::pair{&specs.both, &options.maps}, std::pair{&specs.a, &options.maps_a},
        std::pair{&specs.b, &options.maps_b}}) {
    for (const auto& m : *texts) {
      auto pm = parse_path_map(m);
      if (!pm.ok()) return pm.status();
      out->push_back(std::move(pm).value());
    }
  }
  options.align_containers = !specs.no_align;
  return Status::Ok();
}

}  // namespace flopscope
