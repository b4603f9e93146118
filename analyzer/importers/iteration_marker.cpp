#include "analyzer/importers/iteration_marker.h"

#include <regex>

namespace flopscope {

std::string iteration_marker_problem(const std::string& regex) {
  if (regex.empty()) return "needs a regular expression";
  try {
    std::regex check(regex);
  } catch (const std::regex_error& e) {
    const std::string shown = "'" + regex.substr(0, 80) + (regex.size() > 80 ? "...'" : "'");
    return shown + " is not a regular expression (" + e.what() + ")";
  }
  return "";
}

}  // namespace flopscope
