// Numbers and units as Nsight Compute prints them: locale thousands separators ("6,400",
// "916,827,944.75", or European "1.234,5") and auto-scaled units ("Kbyte", "usecond", "Ginst",
// "cycle/nsecond"), normalised to bytes, nanoseconds and plain counts (rates per second).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace flopscope {

// nullopt for text that is not a number ("n/a", "", "(256, 1, 1)").
std::optional<double> parse_locale_number(std::string_view text);

struct UnitScale {
  double factor = 1;  // value * factor = value in the base unit
  std::string base;   // "byte", "ns", "inst", "cycle/s", "%", "" ...
  bool known = true;  // false: unit not understood, factor 1
};

UnitScale unit_scale(std::string_view unit);

}  // namespace flopscope
