// Which process of a traced program a run holds, and what the run says about how it was recorded: the
// import policy of `flopscope trace`, decided here so that the CLI only runs the program and writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/importers/companion_run.h"
#include "db/model/quality_catalogue.h"
#include "db/model/status.h"

namespace flopscope {

// How the program ran, for the choice's wording and quality rows.
struct CompanionRunContext {
  std::string command;         // the program's command line, quoted, for messages
  std::string how;             // how it ended: "exited with 3", "was killed by signal 9", ...
  int exit_code = 0;           // the program's exit code (0: it succeeded)
  std::int64_t child_pid = 0;  // the command's own process: preferred when several recorded
  bool activations = false;    // --activations was asked for
};

struct CompanionChoice {
  const CompanionInfo* chosen = nullptr;  // points into the infos given
  int with_trace = 0;                     // processes that recorded a trace
  std::vector<QualityIssue> quality;      // rows the run carries about its recording
};

// The user's request could not be served (--meta refused by this torch): a usage error, whatever the program
// did. choose_companion_run checks it first too.
Status check_companion_request(const std::vector<CompanionInfo>& infos, const CompanionRunContext& context);

// From every process's info (at least one): the process that recorded a trace (the command itself first when
// several did) and the run's quality rows; when none recorded, why, as one sentence naming the command.
StatusOr<CompanionChoice> choose_companion_run(const std::vector<CompanionInfo>& infos,
                                               const CompanionRunContext& context);

}  // namespace flopscope
