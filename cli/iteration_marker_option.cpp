#include "cli/iteration_marker_option.h"

#include "analyzer/importers/iteration_marker.h"

namespace flopscope::cli {

CLI::Option* add_iteration_marker_option(CLI::App& app, std::string& marker) {
  // CLI11 reports a non-empty check result as "--iteration-marker: RESULT".
  return app
      .add_option("--iteration-marker", marker,
                  "For a trace: each outermost host range (op, annotation, module range) whose name matches "
                  "this regular expression is one iteration (default: ProfilerStep#, else a repeated "
                  "annotation, CUDA-graph replays, repeated top-level module calls); a run database keeps "
                  "the iterations found when it was imported")
      ->check(CLI::Validator(iteration_marker_problem, "", "regular expression"))
      ->type_name("REGEX");
}

}  // namespace flopscope::cli
