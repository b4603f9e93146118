// graph_page_bench RUN.db [REPEATS]: times what the Graph tab does on the GUI thread for one run: laying
// out and drawing the default (collapsed) view when the session is set, and the whole op-level graph
// after "Expand all". Prints the median of REPEATS (default 10) and the node count drawn.
#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gui/models/run_loader.h"
#include "gui/views/graph_page.h"

using namespace flopscope::gui;

namespace {

template <typename Fn>
double median_ms(int repeats, Fn&& fn) {
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    QElapsedTimer t;
    t.start();
    fn();
    ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: graph_page_bench RUN.db [REPEATS]\n");
    return 2;
  }
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 10;
  auto loaded = load_session({QString::fromLocal8Bit(argv[1])});
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.status().message().c_str());
    return 2;
  }
  GraphPage page;
  page.resize(1400, 900);
  std::size_t default_nodes = 0, all_nodes = 0;
  const double t_default = median_ms(repeats, [&] {
    page.setSession(*loaded);
    default_nodes = page.nodeItems().size();
  });
  const double t_all = median_ms(repeats, [&] {
    page.expandAll();
    all_nodes = page.nodeItems().size();
  });
  std::printf("default view: %zu nodes, %.2f ms (median of %d)\n", default_nodes, t_default, repeats);
  std::printf("expand all:   %zu nodes, %.2f ms (median of %d)\n", all_nodes, t_all, repeats);
  return 0;
}
