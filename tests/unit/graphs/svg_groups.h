// Structural reading of Graphviz SVG for tests: the <g class="node"> and <g class="cluster"> groups,
// each with its nested content, so tests count and inspect them instead of comparing bytes.
#pragma once

#include <string>
#include <vector>

namespace flopscope::graphs::testing {

inline std::vector<std::string> svg_groups(const std::string& svg, const std::string& cls) {
  std::vector<std::string> groups;
  const std::string marker = "class=\"" + cls + "\"";
  std::size_t pos = 0;
  while ((pos = svg.find("<g ", pos)) != std::string::npos) {
    std::size_t tag_end = svg.find('>', pos);
    if (tag_end == std::string::npos) break;
    if (svg.substr(pos, tag_end - pos).find(marker) == std::string::npos) {
      pos = tag_end;
      continue;
    }
    // Walk to the matching </g>, counting nested groups.
    int depth = 0;
    std::size_t at = pos;
    while (at < svg.size()) {
      std::size_t open = svg.find("<g", at);
      std::size_t close = svg.find("</g>", at);
      if (close == std::string::npos) break;
      if (open != std::string::npos && open < close && (svg[open + 2] == ' ' || svg[open + 2] == '>')) {
        ++depth;
        at = open + 2;
      } else {
        --depth;
        at = close + 4;
        if (depth == 0) break;
      }
    }
    groups.push_back(svg.substr(pos, at - pos));
    pos = at;
  }
  return groups;
}

}  // namespace flopscope::graphs::testing
