// The contract between `flopscope exec` (parent) and the injection library (in every CUDA process the
// command starts): environment variables, the output naming rule and the status file.
#pragma once

#include <string>

#include "db/model/status.h"

namespace flopscope::inject {

inline constexpr const char* kEnvOutput = "FLOPSCOPE_OUTPUT";           // run.db as given to -o
inline constexpr const char* kEnvOverwrite = "FLOPSCOPE_OVERWRITE";     // "1": replace existing files
inline constexpr const char* kEnvMetrics = "FLOPSCOPE_METRICS";         // none, or the resolved metric list
inline constexpr const char* kEnvMaxPasses = "FLOPSCOPE_MAX_PASSES";    // 0: no limit
inline constexpr const char* kEnvStatusFile = "FLOPSCOPE_STATUS_FILE";  // fatal errors, one line each
inline constexpr const char* kEnvCommandLine = "FLOPSCOPE_COMMAND_LINE";

// The database a process writes. With RANK set: "<stem>.rank<RANK><ext>". Otherwise the first process
// to claim `output` (an exclusive "<output>.claim" file) writes `output` itself and later ones write
// "<stem>.<pid><ext>". The parent removes the claim file.
std::string output_for_process(const std::string& output, int pid, const char* rank);
std::string claim_path(const std::string& output);

// Appends one line to the status file (O_APPEND, so several processes can report).
void report_fatal(const std::string& status_file, const std::string& line);

}  // namespace flopscope::inject
