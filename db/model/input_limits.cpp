#include "db/model/input_limits.h"

#include <fstream>
#include <string>

namespace flopscope {

InputLimits& input_limits() {
  static InputLimits limits;
  return limits;
}

std::uint64_t default_max_events() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") {
      constexpr std::uint64_t kFloor = 1'000'000;
      const std::uint64_t fit = kib * 1024 / 2 / kBytesPerEvent;
      return fit < kFloor ? kFloor : fit;
    }
  }
  return 200'000'000;
}

std::uint64_t max_events() {
  const std::uint64_t set = input_limits().max_events;
  if (set != 0) return set;
  static const std::uint64_t sized = default_max_events();
  return sized;
}

Status check_module_depth(std::string_view source, std::size_t levels) {
  const int limit = input_limits().max_module_depth;
  if (levels <= static_cast<std::size_t>(limit)) return {};
  return Unsupported(std::string(source) + ": module hierarchy more than " + std::to_string(limit) +
                     " levels deep (--max-module-depth raises the limit)");
}

}  // namespace flopscope
