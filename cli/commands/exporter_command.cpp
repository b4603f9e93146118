// flopscope exporter: serves /metrics in the Prometheus text format (cpp-httplib), or writes them for
// node_exporter's textfile collector. Sources are re-read when they change: files by modification time
// and size, a store by its newest run, checked on every scrape.
#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>

#include "analyzer/fleet/exposition.h"
#include "analyzer/fleet/exposition_sources.h"
#include "analyzer/weights/weights.h"
#include "cli/command.h"
#include "cli/fleet_hooks.h"
#include "cli/run_input.h"
#include "db/model/atomic_file.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {

struct FileStamp {
  std::int64_t mtime_ns = -1, size = -1;
  bool operator==(const FileStamp&) const = default;
};

FileStamp stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, st.st_size};
}

// One source and its last rendering; files are re-read only when their stamp changed.
struct Source {
  std::string kind, path;
  std::string input;       // flopscope_source_up's label: the file, "A -> B", the URL without password
  std::string last_error;  // logged once per change, not on every scrape
  FileStamp stamp;
  std::string path_b;  // kind "diff": B (path is A)
  FileStamp stamp_b;
  std::optional<ExpositionSource> cached;

  static Source of(std::string kind, std::string path, std::string path_b = {}) {
    Source s;
    s.kind = std::move(kind);
    s.path = std::move(path);
    s.path_b = std::move(path_b);
    s.input = s.kind == "diff"    ? s.path + " -> " + s.path_b
              : s.kind == "store" ? redact_passwords(s.path)
                                  : s.path;
    return s;
  }

  StatusOr<ExpositionSource> read(int store_timeout_s) {
    if (kind == "store") return fleet_latest_loader()(path, store_timeout_s);
    FileStamp now = stamp_of(path);
    FileStamp now_b = path_b.empty() ? FileStamp{} : stamp_of(path_b);
    if (cached && now == stamp && now_b == stamp_b) return *cached;
    StatusOr<ExpositionSource> fresh = Internal("unset");
    if (kind == "diff") {
      auto a = open_run(path);
      if (!a.ok()) return a.status();
      auto b = open_run(path_b);
      if (!b.ok()) return b.status();
      fresh = exposition_from_diff(*a, *b, path + " -> " + path_b);
    } else if (kind == "weights") {
      auto w = read_weights(path, WeightsOptions{0, false, 0});
      if (!w.ok()) return w.status();
      fresh = exposition_from_params(to_param_records(*w), path);
    } else {
      auto run = open_run(path);
      if (!run.ok()) return run.status();
      fresh = exposition_from_run(*run, path);
    }
    stamp = now;
    stamp_b = now_b;
    cached = *fresh;
    return fresh;
  }
};

class ExporterCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option("--listen", listen_, "Serve /metrics on HOST:PORT (default 127.0.0.1:9464)");
    app.add_option("--weights", weights_, "Weights file: per module weight state; repeatable");
    app.add_option("--run", runs_,
                   "Run database or trace: costs, latency, weight states, candidates; repeatable");
    app.add_option(
        "--diff", diffs_,
        "Two runs stored with --save-outputs, A B: B's weight states and how much its outputs changed "
        "(flopscope_diff_output_*); repeatable");
    app.add_option("--store", stores_,
                   "Fleet store URL: the newest run (postgresql://...[?branch=B]); repeatable");
    app.add_option("--textfile", textfile_dir_,
                   "Write DIR/flopscope.prom for node_exporter's textfile collector instead of serving");
    app.add_option("--max-connections", max_connections_,
                   "Connections served at once (default 256); more wait their turn in order")
        ->check(CLI::Range(4, 4096));
    app.add_option("--store-timeout", store_timeout_s_,
                   "Seconds a --store may take to connect and answer before it counts as down (default 5)")
        ->check(CLI::Range(1, 300));
    app.add_flag("--once", once_, "With --textfile: write once and exit");
    app.add_option("--interval", interval_s_,
                   "With --textfile: seconds between checks for changes (default 30)")
        ->check(CLI::PositiveNumber);
  }

  int run() override {
    for (const auto& p : weights_) sources_.push_back(Source::of("weights", p));
    for (const auto& p : runs_) sources_.push_back(Source::of("run", p));
    for (const auto& p : stores_) sources_.push_back(Source::of("store", p));
    for (const auto& [a, b] : diffs_) sources_.push_back(Source::of("diff", a, b));
    if (sources_.empty())
      return report_error(InvalidArgument("exporter needs --weights, --run, --diff or --store"));
    if (!stores_.empty() && !fleet_latest_loader()) {
      return report_error(Unsupported("--store: this build has no fleet store client (libpq)"));
    }
    if (once_ && textfile_dir_.empty()) return report_error(InvalidArgument("--once needs --textfile DIR"));
    // Every source must read once before anything is served or written (a store that is down only stops
    // --once, which writes one file and exits: it fails rather than write the store as down).
    StatusOr<std::string> first = render(once_ ? Strict::kEverySource : Strict::kFilesOnly);
    if (!first.ok()) return report_error(first.status());
    return textfile_dir_.empty() ? serve(*first) : write_textfiles(*first);
  }

 private:
  // At start-up the first failure is the error, so that a mistyped path is a usage error, not a silent 0;
  // kFilesOnly lets a store that is down start as down: a server that is restarting is the store's state,
  // not the user's mistake, and an exporter that refused to start would leave every other source
  // unscraped until someone restarts it.
  enum class Strict { kNo, kFilesOnly, kEverySource };

  // Every source, each on its own: one that cannot be read is exported as flopscope_source_up 0 (its
  // reason on stderr when it changes) and the others are served as usual.
  StatusOr<std::string> render(Strict strict = Strict::kNo) {
    std::lock_guard lock(mutex_);
    std::vector<ExpositionSource> out;
    for (auto& s : sources_) {
      auto e = s.read(store_timeout_s_);
      if (!e.ok()) {
        const bool store_down = s.kind == "store" && e.status().code() == StatusCode::kUnavailable;
        if (strict == Strict::kEverySource || (strict == Strict::kFilesOnly && !store_down))
          return e.status();
        const std::string why = terminal_safe(redact_passwords(e.status().message()), false);
        if (why != s.last_error) {
          std::fprintf(stderr, "flopscope: warning: %s (flopscope_source_up 0)\n", why.c_str());
          s.last_error = why;
        }
        out.push_back(exposition_source_down(s.kind, s.input));
        continue;
      }
      if (!s.last_error.empty()) {
        std::fprintf(stderr, "flopscope: %s: read again (flopscope_source_up 1)\n",
                     terminal_safe(s.input, false).c_str());
        s.last_error.clear();
      }
      out.push_back(std::move(e).value());
      out.back().input = s.input;
    }
    return render_exposition(out);
  }

  int write_textfiles(std::string text) {
    const std::string path = textfile_dir_ + "/flopscope.prom";
    for (;;) {
      // Atomic rename: the collector never reads a half-written file.
      if (Status st = write_file_atomically(path, text, true); !st.ok()) return report_error(st);
      if (once_) return kExitOk;
      std::this_thread::sleep_for(std::chrono::seconds(interval_s_));
      auto next = render();
      if (!next.ok()) {
        std::fprintf(stderr, "flopscope: warning: %s (kept the last metrics)\n",
                     next.status().message().c_str());
        continue;
      }
      text = std::move(next).value();
    }
  }

  int serve(const std::string&) {
    auto colon = listen_.rfind(':');
    int port = colon == std::string::npos ? 0 : std::atoi(listen_.c_str() + colon + 1);
    std::string host = colon == std::string::npos ? listen_ : listen_.substr(0, colon);
    if (port <= 0 || port > 65535 || host.empty()) {
      return report_error(
          InvalidArgument("--listen " + listen_ + ": expected HOST:PORT, e.g. 127.0.0.1:9464"));
    }
    httplib::Server server;
    // Bounded, fair concurrency: connections wait in one FIFO queue for a fixed pool of workers, and one
    // that sends nothing for 1 s (idle, or a byte every few seconds) or leaves the response unread for 5 s
    // is dropped, so an idle or trickling client holds a worker for about 2 s at most and a scrape finds
    // a free worker while up to --max-connections others are open. (httplib's default, about 8 workers
    // and 5 s timeouts per read, let 16 idle connections hold off every scrape.)
    server.new_task_queue = [n = static_cast<std::size_t>(max_connections_)] {
      return new httplib::ThreadPool(n);
    };
    server.set_read_timeout(1, 0);
    server.set_write_timeout(5, 0);
    server.set_keep_alive_timeout(2);
    server.set_keep_alive_max_count(100);
    server.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
      // Sources are isolated (render() never fails on one): a scrape is always answered, 200.
      auto text = render();
      if (!text.ok()) {
        res.status = 503;
        res.set_content("flopscope: " + text.status().message() + "\n", "text/plain; charset=utf-8");
        return;
      }
      res.set_content(*text, "text/plain; version=0.0.4; charset=utf-8");
    });
    server.Get("/", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("flopscope exporter: metrics at /metrics\n", "text/plain; charset=utf-8");
    });
    if (!server.bind_to_port(host, port)) {
      return report_error(
          Unavailable("--listen " + listen_ + ": cannot listen (address in use or not local)"));
    }
    // SIGINT/SIGTERM stop the server cleanly: waited for on this thread, never handled asynchronously.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    std::thread listener([&server] { server.listen_after_bind(); });
    std::fprintf(stderr, "flopscope: serving metrics on http://%s/metrics\n", listen_.c_str());
    int sig = 0;
    sigwait(&stop_signals, &sig);
    server.stop();
    listener.join();
    return kExitOk;
  }

  std::string listen_ = "127.0.0.1:9464", textfile_dir_;
  std::vector<std::string> weights_, runs_, stores_;
  std::vector<std::pair<std::string, std::string>> diffs_;  // --diff A B
  bool once_ = false;
  int interval_s_ = 30;
  int max_connections_ = 256;
  int store_timeout_s_ = 5;
  std::vector<Source> sources_;
  std::mutex mutex_;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(ExporterCommand, "exporter",
                           "Serve per-module metrics to Prometheus (or write textfiles)", 82);

}  // namespace flopscope::cli
