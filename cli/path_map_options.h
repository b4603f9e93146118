// --map, --map-a, --map-b and --no-align, for every command that compares two models (diff, weights,
// graph --diff): one wording of the options and one parser.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "analyzer/diff/diff.h"
#include "db/model/status.h"

namespace flopscope::cli {

class PathMapOptions {
 public:
  // `what`: the names the maps rewrite, e.g. "module paths" or "tensor names".
  void add_to(CLI::App& app, const std::string& what);
  // Parses the maps into options.maps / maps_a / maps_b and sets options.align_containers.
  Status fill(DiffOptions& options) const;

 private:
  std::vector<std::string> maps_, maps_a_, maps_b_;
  bool no_align_ = false;
};

}  // namespace flopscope::cli
