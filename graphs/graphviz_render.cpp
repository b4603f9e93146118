// Graphviz behind RAII: one wrapper per handle (context, graph, layout, rendered bytes), a numeric-locale
// guard, and Graphviz's error channel redirected into the Status of the call.
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <locale.h>

#include <mutex>
#include <string>
#include <utility>

#include "graphs/render.h"

namespace flopscope::graphs {
namespace {

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
std::mutex& graphviz_mutex() {
  static std::mutex m;
  return m;
}
std::string& captured_messages() {
  static std::string text;
  return text;
}
int capture_message(char* message) {
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

class Context {
 public:
  Context() : gvc_(gvContext()) {}
  ~Context() {
    if (gvc_) gvFreeContext(gvc_);
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  GVC_t* get() const { return gvc_; }

 private:
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
  Layout(GVC_t* gvc, Agraph_t* g, const char* engine) : gvc_(gvc), g_(g), ok_(gvLayout(gvc, g, engine) == 0) {}
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

class RenderData {
 public:
  RenderData(GVC_t* gvc, Agraph_t* g, const char* format) {
    ok_ = gvRenderData(gvc, g, format, &data_, &length_) == 0 && data_ != nullptr;
  }
  ~RenderData() {
    if (data_) gvFreeRenderData(data_);
  }
  RenderData(const RenderData&) = delete;
  RenderData& operator=(const RenderData&) = delete;
  bool ok() const { return ok_; }
  std::string bytes() const { return std::string(data_, length_); }

 private:
  char* data_ = nullptr;
  unsigned int length_ = 0;
  bool ok_ = false;
};

}  // namespace

bool graphviz_rendering_available() {
  return true;
}

StatusOr<std::string> render_dot(const std::string& dot, GraphFormat format, const RenderOptions& options) {
  if (format == GraphFormat::kDot) return dot;
  std::lock_guard<std::mutex> lock(graphviz_mutex());
  NumericLocaleGuard locale;
  ErrorCapture errors;
  Context gvc;
  if (!gvc.get()) return errors.error("context creation");
  Graph graph(dot);
  if (!graph.get()) return errors.error("reading the graph");
  if (format == GraphFormat::kPng) {
    // Graphviz 2.42 takes non-const strings it does not modify.
    std::string name = "dpi", dpi = std::to_string(static_cast<int>(options.png_dpi)), none;
    agsafeset(graph.get(), name.data(), dpi.data(), none.data());
  }
  Layout layout(gvc.get(), graph.get(), options.engine);
  if (!layout.ok()) return errors.error("layout");
  RenderData data(gvc.get(), graph.get(), graphviz_format_name(format));
  if (!data.ok()) return errors.error(std::string("rendering to ") + graphviz_format_name(format));
  return data.bytes();
}

}  // namespace flopscope::graphs
