#include "db/model/temp_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

namespace flopscope {
namespace {

namespace fs = std::filesystem;

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Never destroyed: the clean-up thread may still wait on the pipe while static objects are torn down.
struct Registry {
  std::mutex mutex;
  std::vector<std::string> paths;
  int pipe_read = -1;
  int pipe_write = -1;
};
Registry& registry() {
  static auto* r = new Registry;
  return *r;
}

// Async-signal-safe: the handler only passes the signal number on to the clean-up thread.
void on_signal(int sig) {
  const int saved = errno;
  const auto byte = static_cast<unsigned char>(sig);
  if (registry().pipe_write >= 0) (void)!::write(registry().pipe_write, &byte, 1);
  errno = saved;
}

void remove_path(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  for (const char* suffix : {"-journal", "-wal", "-shm"}) fs::remove(path + suffix, ec);
}

[[noreturn]] void clean_up_and_die(int sig) {
  {
    std::lock_guard lock(registry().mutex);
    for (const auto& p : registry().paths) remove_path(p);
    registry().paths.clear();
  }
  // The default action again, then the same signal: the exit status says what ended the process.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  ::kill(::getpid(), sig);
  ::_exit(128 + sig);  // not reached unless the signal is blocked elsewhere
}

void clean_up_thread(int fd) {
  for (;;) {
    unsigned char sig = 0;
    ssize_t n = ::read(fd, &sig, 1);
    if (n == 1) clean_up_and_die(sig);
    if (n < 0 && errno == EINTR) continue;
    return;  // the pipe closed: nothing more will come
  }
}

bool process_runs(long pid) {
  if (pid <= 0) return false;
  if (pid == static_cast<long>(::getpid())) return true;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

void register_temp_path(const std::string& path) {
  std::lock_guard lock(registry().mutex);
  registry().paths.push_back(path);
}

void unregister_temp_path(const std::string& path) {
  std::lock_guard lock(registry().mutex);
  auto& v = registry().paths;
  v.erase(std::remove(v.begin(), v.end(), path), v.end());
}

void remove_temp_paths_on_signals() {
  Registry& r = registry();
  if (r.pipe_write >= 0) return;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;  // no clean-up on signals; everything else still works
  r.pipe_read = fds[0];
  r.pipe_write = fds[1];
  std::thread(clean_up_thread, fds[0]).detach();
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : kSignals) {
    struct sigaction old {};
    ::sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // started with it ignored (nohup): keep it so
    ::sigaction(sig, &sa, nullptr);
  }
}

void reset_temp_signal_handlers() {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig : kSignals) {
    struct sigaction old {};
    ::sigaction(sig, nullptr, &old);
    if (old.sa_handler == on_signal) ::sigaction(sig, &dfl, nullptr);
  }
}

std::string temp_name(const std::string& prefix) {
  return prefix + std::to_string(::getpid()) + "-XXXXXX";
}

int remove_stale_temp_paths(const std::string& dir, const std::string& prefix) {
  std::error_code ec;
  int removed = 0;
  for (fs::directory_iterator it(dir.empty() ? "." : dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + name.size();
    long pid = 0;
    auto [p, err] = std::from_chars(first, last, pid);
    // prefix, the pid, '-', mkstemp's six characters, and nothing else, or a name derived from such a
    // file (".tmp-...", "-journal"): nothing else is ours.
    if (err != std::errc{} || p == first || last - p < 7 || *p != '-') continue;
    if (last - p > 7 && p[7] != '.' && p[7] != '-') continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0 || st.st_uid != ::getuid()) continue;
    if (process_runs(pid)) continue;
    std::error_code rm;
    fs::remove_all(it->path(), rm);
    if (!rm) ++removed;
    remove_path(it->path().string());  // and SQLite's -journal/-wal/-shm beside it
  }
  return removed;
}

}  // namespace flopscope
