#include <re2/re2.h>

#include "analyzer/diff/diff.h"

namespace flopscope {
namespace {

// ECMAScript replacement syntax ($1..$9, $&, $$), as users write it, to RE2's (\1..\9, \0, \\).
StatusOr<std::string> to_rewrite(const std::string& spec, const std::string& replacement) {
  std::string out;
  for (std::size_t i = 0; i < replacement.size(); ++i) {
    const char c = replacement[i];
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '$' && i + 1 < replacement.size()) {
      const char n = replacement[i + 1];
      if (n >= '0' && n <= '9') {
        out += '\\';
        out += n;
        ++i;
      } else if (n == '&') {
        out += "\\0";
        ++i;
      } else if (n == '$') {
        out += '$';
        ++i;
      } else {
        return InvalidArgument("--map '" + spec + "': '$" + std::string(1, n) +
                               "' in the replacement: use $1..$9, $& or $$");
      }
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

StatusOr<PathMap> parse_path_map(const std::string& spec) {
  auto eq = spec.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    return InvalidArgument("--map '" + spec +
                           "': expected REGEX=REPLACEMENT, e.g. 'model.layers.(\\d+)=layers.$1'");
  }
  PathMap m;
  m.text = spec;
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const RE2>(spec.substr(0, eq), options);
  if (!re->ok()) return InvalidArgument("--map '" + spec + "': bad regular expression: " + re->error());
  FS_ASSIGN_OR_RETURN(m.replacement, to_rewrite(spec, spec.substr(eq + 1)));
  std::string why;
  if (!re->CheckRewriteString(m.replacement, &why)) {
    return InvalidArgument("--map '" + spec + "': bad replacement: " + why);
  }
  m.pattern = std::move(re);
  return m;
}

std::string apply_path_maps(const std::vector<PathMap>& maps, const std::string& path) {
  std::string out = path;
  for (const auto& m : maps) RE2::GlobalReplace(&out, *m.pattern, m.replacement);
  return out;
}

}  // namespace flopscope
