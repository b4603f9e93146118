#include "analyzer/diff/diff.h"

namespace flopscope {

StatusOr<PathMap> parse_path_map(const std::string& spec) {
  auto eq = spec.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    return InvalidArgument("--map '" + spec + "': expected REGEX=REPLACEMENT, e.g. 'model.layers.(\\d+)=layers.$1'");
  }
  PathMap m;
  m.text = spec;
  m.replacement = spec.substr(eq + 1);
  try {
    m.pattern = std::regex(spec.substr(0, eq), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return InvalidArgument("--map '" + spec + "': bad regular expression: " + e.what());
  }
  return m;
}

std::string apply_path_maps(const std::vector<PathMap>& maps, const std::string& path) {
  std::string out = path;
  for (const auto& m : maps) out = std::regex_replace(out, m.pattern, m.replacement);
  return out;
}

}  // namespace flopscope
