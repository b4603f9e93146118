// --iteration-marker for every command that reads a trace's iterations (import, report, heatmap, diff,
// graph, flame, roofline, export): one wording of the option and one check of its value, so that a bad
// regular expression is the same usage error (exit 2) wherever it is given.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace flopscope::cli {

// Registers --iteration-marker REGEX into `marker`. An empty or malformed expression is refused while the
// command line is parsed; where the marker may apply to a run database, the command's loader refuses it.
CLI::Option* add_iteration_marker_option(CLI::App& app, std::string& marker);

}  // namespace flopscope::cli
