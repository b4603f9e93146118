// flopscope: profiling and FLOPs attribution for deep-learning inference. main() only dispatches.
#include <algorithm>
#include <cstdio>
#include <exception>

#include "cli/command.h"
#include "db/model/input_limits.h"
#include "db/model/progress.h"
#include "db/model/temp_files.h"
#include "db/model/text_escape.h"

// Only the option set-up before the try can throw, on a programming error (a duplicate option name),
// which should end the program loudly.
// NOLINTNEXTLINE(bugprone-exception-escape)
int main(int argc, char** argv) {
  using namespace flopscope::cli;
  CLI::App app{
      "flopscope: per-module FLOPs, bytes and time for deep-learning inference, and diffs of model versions",
      "flopscope"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("flopscope ") + FLOPSCOPE_VERSION_STRING);
  bool no_progress = false;
  app.add_flag("--no-progress", no_progress, "Never draw progress bars (they are drawn only on a terminal)");
  // Input limits (db/model/input_limits.h): far above real runs; raise them for an unusual one.
  auto& limits = flopscope::input_limits();
  std::uint64_t json_value_mb = limits.max_json_value_bytes >> 20;
  app.add_option("--max-json-value-mb", json_value_mb,
                 "Largest single JSON value in a trace, MiB (default 64)")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--max-json-depth", limits.max_json_depth, "Deepest JSON nesting in a trace (default 256)")
      ->check(CLI::Range(1, 1 << 16));
  app.add_option("--max-module-depth", limits.max_module_depth, "Deepest module hierarchy (default 256)")
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--max-cells", limits.max_module_iteration_cells,
                 "Largest modules x iterations written by report --format json (default 8000000)");
  std::uint64_t decompressed_gb = limits.max_decompressed_bytes >> 30;
  app.add_option("--max-decompressed-gb", decompressed_gb,
                 "Largest size a gzip trace expands to, GiB (default 64)")
      ->check(CLI::Range(1, 1 << 20));
  const std::string max_events_help =
      "Most events one trace may hold (default " + std::to_string(flopscope::default_max_events()) +
      ": half the memory available at " + std::to_string(flopscope::kBytesPerEvent) + " bytes per event)";
  const auto max_events_range = CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40);
  app.add_option("--max-events", limits.max_events, max_events_help)->check(max_events_range);

  auto& registry = command_registry();
  std::sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  std::vector<std::pair<CLI::App*, std::unique_ptr<Command>>> commands;
  for (const auto& info : registry) {
    CLI::App* sub = app.add_subcommand(info.name, info.description);
    auto cmd = info.make();
    cmd->setup(*sub);
    // Also after the command name: `import trace.json.gz --max-events N`.
    sub->add_option("--max-events", limits.max_events, max_events_help)->check(max_events_range);
    commands.emplace_back(sub, std::move(cmd));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Usage errors in the one-line form every other error has.
    std::fprintf(stderr, "flopscope: error: %s (see flopscope --help)\n",
                 flopscope::terminal_safe(e.what(), false).c_str());
    return kExitUsage;
  }
  if (no_progress) flopscope::Progress::set_globally_enabled(false);
  // Ctrl-C, SIGTERM or SIGHUP leave no temporary file behind (db/model/temp_files.h).
  flopscope::remove_temp_paths_on_signals();
  limits.max_json_value_bytes = json_value_mb << 20;
  limits.max_decompressed_bytes = decompressed_gb << 30;

  try {
    for (auto& [sub, cmd] : commands) {
      if (sub->parsed()) return cmd->run();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flopscope: error: %s\n", flopscope::terminal_safe(e.what(), false).c_str());
    return kExitUsage;
  }
  return kExitUsage;
}
