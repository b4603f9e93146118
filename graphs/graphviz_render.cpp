// Rendering DOT text to bytes through Graphviz; the handles are in graphviz_handles.h.
#include <string>

#include "graphs/graphviz_handles.h"
#include "graphs/render.h"

namespace flopscope::graphs {
namespace {

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
  graphviz::ParsedGraph parsed(dot);
  FS_RETURN_IF_ERROR(parsed.status());
  const graphviz::ErrorCapture& errors = parsed.session.errors;
  const graphviz::Context& gvc = parsed.gvc;
  const graphviz::Graph& graph = parsed.graph;
  if (format == GraphFormat::kPng) {
    // Graphviz 2.42 takes non-const strings it does not modify.
    std::string name = "dpi", dpi = std::to_string(static_cast<int>(options.png_dpi)), none;
    agsafeset(graph.get(), name.data(), dpi.data(), none.data());
  }
  graphviz::Layout layout(gvc.get(), graph.get(), options.engine);
  if (!layout.ok()) return errors.error("layout");
  RenderData data(gvc.get(), graph.get(), graphviz_format_name(format));
  if (!data.ok()) return errors.error(std::string("rendering to ") + graphviz_format_name(format));
  return data.bytes();
}

}  // namespace flopscope::graphs
