// Subcommands of `flopscope`. Each lives in cli/commands/<name>_command.cpp, derives from Command and
// registers itself with FLOPSCOPE_REGISTER_COMMAND; main() knows none of them by name.
//
// Exit codes are a contract with CI: 0 success / gates passed, 1 a gate failed, 2 usage or input error.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/model/status.h"

namespace flopscope::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitGateFailed = 1;
inline constexpr int kExitUsage = 2;

class Command {
 public:
  virtual ~Command() = default;
  // Adds the subcommand's options to `sub`, which CLI11 created with the command's name and description.
  virtual void setup(CLI::App& sub) = 0;
  // Runs after parsing; returns the exit code.
  virtual int run() = 0;
};

struct CommandInfo {
  std::string name;
  std::string description;
  int order;  // position in --help
  std::function<std::unique_ptr<Command>()> make;
};

std::vector<CommandInfo>& command_registry();

struct CommandRegistrar {
  CommandRegistrar(std::string name, std::string description, int order,
                   std::function<std::unique_ptr<Command>()> make) {
    command_registry().push_back({std::move(name), std::move(description), order, std::move(make)});
  }
};

// Prints "flopscope: error: <message>" on stderr and returns kExitUsage.
int report_error(const Status& status);

}  // namespace flopscope::cli

#define FLOPSCOPE_REGISTER_COMMAND(Class, name, description, order)             \
  static ::flopscope::cli::CommandRegistrar FS_CONCAT(fs_registrar_, __LINE__)( \
      name, description, order, [] { return std::unique_ptr<::flopscope::cli::Command>(new Class()); })
