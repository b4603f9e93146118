#include "graphs/output_format.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace flopscope::graphs {

StatusOr<GraphFormat> format_from_path(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".dot" || ext == ".gv") return GraphFormat::kDot;
  if (ext == ".svg") return GraphFormat::kSvg;
  if (ext == ".pdf") return GraphFormat::kPdf;
  if (ext == ".png") return GraphFormat::kPng;
  return InvalidArgument(path + ": unknown output format '" +
                         (ext.empty() ? std::string("(no extension)") : ext) +
                         "'; use .dot, .svg, .pdf or .png");
}

const char* graphviz_format_name(GraphFormat format) {
  switch (format) {
    case GraphFormat::kDot:
      return "dot";
    case GraphFormat::kSvg:
      return "svg";
    case GraphFormat::kPdf:
      return "pdf";
    case GraphFormat::kPng:
      return "png";
  }
  return "dot";
}

}  // namespace flopscope::graphs
