// The check of a --iteration-marker value, shared by the trace importers (TraceBuilder) and the command
// line (cli/iteration_marker_option.h), so that a bad expression reads the same wherever it is given.
#pragma once

#include <string>

namespace flopscope {

// "" when `regex` compiles as the importers compile it (std::regex, ECMAScript); otherwise why not, e.g.
// "needs a regular expression" or "'(' is not a regular expression (...)".
std::string iteration_marker_problem(const std::string& regex);

}  // namespace flopscope
