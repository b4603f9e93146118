// Graphviz handles behind RAII for the files that call Graphviz (rendering, layout): one wrapper per handle
// (context, graph, layout), a numeric-locale guard, and Graphviz's error channel redirected into a Status.
// Private to flopscope_graph_render: include only from .cpp files that link Graphviz.
#pragma once

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <locale.h>

#include <mutex>
#include <string>

#include "db/model/status.h"

namespace flopscope::graphs::graphviz {

// Graphviz prints numbers with printf and parses them with strtod: under a locale with a decimal comma
// the output is corrupt. Switch this thread's LC_NUMERIC to "C" while Graphviz runs.
class NumericLocaleGuard {
 public:
  NumericLocaleGuard() {
    locale_t base = duplocale(uselocale(static_cast<locale_t>(nullptr)));
    if (base != static_cast<locale_t>(nullptr)) c_ = newlocale(LC_NUMERIC_MASK, "C", base);
    if (c_ != static_cast<locale_t>(nullptr)) previous_ = uselocale(c_);
  }
  ~NumericLocaleGuard() {
    if (c_ == static_cast<locale_t>(nullptr)) return;
    uselocale(previous_);
    freelocale(c_);
  }
  NumericLocaleGuard(const NumericLocaleGuard&) = delete;
  NumericLocaleGuard& operator=(const NumericLocaleGuard&) = delete;

 private:
  locale_t c_ = static_cast<locale_t>(nullptr);
  locale_t previous_ = static_cast<locale_t>(nullptr);
};

// Graphviz reports through a process-wide callback; renders are serialised (Graphviz is not thread-safe)
// and the messages of the current one collected here.
inline std::mutex& graphviz_mutex() {
  static std::mutex m;
  return m;
}
inline std::string& captured_messages() {
  static std::string text;
  return text;
}
inline int capture_message(char* message) {
  std::string& text = captured_messages();
  std::string m = message ? message : "";
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  if (m.empty()) return 0;
  if (!text.empty()) text += "; ";
  text += m;
  return 0;
}

class ErrorCapture {
 public:
  ErrorCapture() {
    captured_messages().clear();
    previous_ = agseterrf(capture_message);
    previous_level_ = agseterr(AGWARN);
  }
  ~ErrorCapture() {
    agseterr(previous_level_);
    agseterrf(previous_);
    agreseterrors();
  }
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;
  Status error(const std::string& what) const {
    const std::string& m = captured_messages();
    return Internal("Graphviz " + what + " failed" + (m.empty() ? std::string() : ": " + m));
  }

 private:
  agusererrf previous_ = nullptr;
  agerrlevel_t previous_level_ = AGWARN;
};

// One Graphviz context for the whole process, never freed. Graphviz's pango plugin remembers the last font
// name in a static pointer into the context's font table: with a context per call, freeing it left that
// pointer dangling and the next call's label measurement read freed memory (heap-use-after-free under ASan
// in render tests; Graphviz 2.42, Debian 12). Used only under graphviz_mutex(), like every Graphviz call.
class Context {
 public:
  Context() : gvc_(shared()) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  GVC_t* get() const { return gvc_; }

 private:
  static GVC_t* shared() {
    static GVC_t* const gvc = gvContext();
    return gvc;
  }
  GVC_t* gvc_;
};

class Graph {
 public:
  explicit Graph(const std::string& dot) : g_(agmemread(dot.c_str())) {}
  ~Graph() {
    if (g_) agclose(g_);
  }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Agraph_t* get() const { return g_; }

 private:
  Agraph_t* g_;
};

// Must be destroyed before the graph it laid out.
class Layout {
 public:
  Layout(GVC_t* gvc, Agraph_t* g, const char* engine)
      : gvc_(gvc), g_(g), ok_(gvLayout(gvc, g, engine) == 0) {}
  ~Layout() {
    if (ok_) gvFreeLayout(gvc_, g_);
  }
  Layout(const Layout&) = delete;
  Layout& operator=(const Layout&) = delete;
  bool ok() const { return ok_; }

 private:
  GVC_t* gvc_;
  Agraph_t* g_;
  bool ok_;
};

// What every Graphviz call holds: the process-wide lock, the "C" numeric locale and the error capture.
struct Session {
  std::lock_guard<std::mutex> lock{graphviz_mutex()};
  NumericLocaleGuard locale;
  ErrorCapture errors;
};

// A session, the context and the DOT text parsed: the first steps of every Graphviz call. status() is
// OK, or names the step that failed with Graphviz's own message. Members are destroyed in reverse
// order, so the graph is closed before the session's lock is released.
struct ParsedGraph {
  explicit ParsedGraph(const std::string& dot) : graph(dot) {}
  Session session;
  Context gvc;
  Graph graph;
  Status status() const {
    if (!gvc.get()) return session.errors.error("context creation");
    if (!graph.get()) return session.errors.error("reading the graph");
    return {};
  }
};

}  // namespace flopscope::graphs::graphviz
