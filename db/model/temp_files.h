// Temporary files and folders a command makes on its way to an output (a run database being written, an
// import's staging file, the folder `trace` gives its Python child). Two ways they outlive the command, and
// what answers each:
// - a signal (Ctrl-C, SIGTERM, SIGHUP) ends it: every path still registered is removed before the process
//   ends with that signal (remove_temp_paths_on_signals);
// - kill -9 or a power cut, which no code sees: names carry the writer's pid (temp_name), and the next
//   command that writes beside them removes the ones whose writer no longer runs (remove_stale_temp_paths).
#pragma once

#include <string>

namespace flopscope {

// Registered paths are removed (recursively, with SQLite's -journal/-wal/-shm companions) when a handled
// signal ends the process; unregister once a path is published or removed by its owner.
void register_temp_path(const std::string& path);
void unregister_temp_path(const std::string& path);

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the registered paths and then end the
// process with the same signal (its exit status says so, as without the handler). Call once, early.
void remove_temp_paths_on_signals();
// In a child between fork() and exec(): the default dispositions again, so a signal there never reaches
// the parent's clean-up.
void reset_temp_signal_handlers();

// `prefix` + "<pid>-XXXXXX", the mkstemp/mkdtemp template that remove_stale_temp_paths recognises.
std::string temp_name(const std::string& prefix);
// Removes entries of `dir` named prefix<pid>-<six characters> (files or folders, owned by this user) whose
// pid is no running process. Returns how many were removed; never fails (a clean-up, not a check).
int remove_stale_temp_paths(const std::string& dir, const std::string& prefix);

}  // namespace flopscope
