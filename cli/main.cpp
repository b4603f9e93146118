// flopscope: profiling and FLOPs attribution for deep-learning inference. main() only dispatches.
#include <algorithm>
#include <cstdio>
#include <exception>

#include "cli/command.h"
#include "db/model/progress.h"

int main(int argc, char** argv) {
  using namespace flopscope::cli;
  CLI::App app{
      "flopscope: per-module FLOPs, bytes and time for deep-learning inference, and diffs of model versions",
      "flopscope"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("flopscope ") + FLOPSCOPE_VERSION_STRING);
  bool no_progress = false;
  app.add_flag("--no-progress", no_progress, "Never draw progress bars (they are drawn only on a terminal)");

  auto& registry = command_registry();
  std::sort(registry.begin(), registry.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  std::vector<std::pair<CLI::App*, std::unique_ptr<Command>>> commands;
  for (const auto& info : registry) {
    CLI::App* sub = app.add_subcommand(info.name, info.description);
    auto cmd = info.make();
    cmd->setup(*sub);
    commands.emplace_back(sub, std::move(cmd));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (no_progress) flopscope::Progress::set_globally_enabled(false);

  try {
    for (auto& [sub, cmd] : commands) {
      if (sub->parsed()) return cmd->run();
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flopscope: error: %s\n", e.what());
    return kExitUsage;
  }
  return kExitUsage;
}
