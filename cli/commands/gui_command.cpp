// flopscope gui [FILE [FILE2] | RANKS... | FOLDER]: starts the desktop app (flopscope-gui, installed beside
// flopscope), which tells one run, two to compare and the ranks of one run apart.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "cli/command.h"

namespace flopscope::cli {
namespace {

class GuiCommand final : public Command {
 public:
  void setup(CLI::App& app) override {
    app.add_option(
        "files", files_,
        "One run (database or trace), two to compare, or the ranks of one run (run.rank*.db, or a folder)");
    app.add_option("--screenshot", screenshot_, "Render --view to this PNG and exit");
    app.add_option("--view", view_,
                   "tree, graph, heatmap, flame, roofline, timeline, diff or ranks (with --screenshot)");
  }

  int run() override {
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    std::string exe = "flopscope-gui";
    if (!ec) {
      // Build tree (build/dev/cli/flopscope -> build/dev/gui/app/flopscope-gui) or install prefix (same
      // bin/).
      for (auto candidate :
           {self.parent_path() / "flopscope-gui", self.parent_path().parent_path() / "gui/app/flopscope-gui"})
        if (std::filesystem::exists(candidate, ec)) {
          exe = candidate.string();
          break;
        }
    }
    std::vector<std::string> args{exe};
    if (!screenshot_.empty()) args.insert(args.end(), {"--screenshot", screenshot_});
    if (!view_.empty()) args.insert(args.end(), {"--view", view_});
    args.insert(args.end(), files_.begin(), files_.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    return report_error(Unavailable("cannot start " + exe + ": " + std::strerror(errno)));
  }

 private:
  std::vector<std::string> files_;
  std::string screenshot_, view_;
};

}  // namespace

FLOPSCOPE_REGISTER_COMMAND(GuiCommand, "gui", "Open runs in the desktop app (flopscope-gui)", 70);

}  // namespace flopscope::cli
