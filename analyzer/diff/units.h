// The names the diff engine words its verdicts with, over the core's one formatter (analyzer/format.h), so
// every front end shows the same text. JSON and CSV always carry raw units.
#pragma once

#include <string>

#include "analyzer/format.h"

namespace flopscope {

inline std::string si(double value, const char* unit) {
  return si_text(value, unit);
}
inline std::string format_count(double n) {
  return count_text(n);
}
inline std::string format_signed_percent(double fraction) {
  return signed_percent_text(fraction);
}

}  // namespace flopscope
