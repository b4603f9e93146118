// Peak rates of common accelerators for the roofline: dense 16-bit tensor-core FLOP/s and memory bandwidth,
// from the vendors' datasheets (docs/report.md lists the sources). A user can override them (--peak).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "db/model/status.h"

namespace flopscope {

struct DevicePeak {
  std::string name;        // e.g. "H100 SXM"
  double flops_per_s = 0;  // dense FP16/BF16 tensor FLOP/s
  double bytes_per_s = 0;  // DRAM (HBM) bandwidth
  std::string source;      // where the numbers come from
  double ridge() const { return bytes_per_s > 0 ? flops_per_s / bytes_per_s : 0; }  // FLOP/B
};

// The peak for a device name as traces spell it ("NVIDIA H100 80GB HBM3", "AMD Instinct MI300X"), or
// nullopt when the table has none.
std::optional<DevicePeak> peak_for_device(std::string_view device);

// "FLOPS:BYTES_PER_S", e.g. "989e12:3.35e12".
StatusOr<DevicePeak> parse_peak(std::string_view text);

struct Roofline {
  double achieved_flops_per_s = 0;
  double achieved_bytes_per_s = 0;
  double intensity = 0;               // FLOP per byte of minimum traffic
  double attainable_flops_per_s = 0;  // min(peak, intensity * bandwidth)
  bool memory_bound = false;          // intensity below the ridge point
  double fraction_of_attainable = 0;
};

// Achieved rates and the roofline bound of `flops` and `bytes` done in `device_ns`.
Roofline roofline(double flops, double bytes, double device_ns, const DevicePeak& peak);

// The same for a module or an op: without a peak, or without counted bytes (no intensity), only the
// achieved rates and the intensity are set (attainable_flops_per_s stays 0: no bound); all 0 without
// device time.
Roofline device_rates(double flops, double bytes, double device_ns, const std::optional<DevicePeak>& peak);

}  // namespace flopscope
