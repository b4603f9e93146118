// Output formats of `flopscope graph`, chosen by the output file's extension.
#pragma once

#include <string>

#include "db/model/status.h"

namespace flopscope::graphs {

enum class GraphFormat { kDot, kSvg, kPdf, kPng };

// ".dot"/".gv" -> kDot, ".svg", ".pdf", ".png" (case-insensitive); anything else is InvalidArgument naming
// the path and the formats known.
StatusOr<GraphFormat> format_from_path(const std::string& path);
const char* graphviz_format_name(GraphFormat format);  // "dot", "svg", "pdf", "png"

}  // namespace flopscope::graphs
