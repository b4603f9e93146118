// `report`'s Memory section (analyzer/memory_usage) in table and Markdown: the core attributes every event;
// this only lays the figures out.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "analyzer/format.h"
#include "cli/printers/report.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {
namespace {

constexpr std::size_t kNameWidth = 48;

std::string peak_cell(const MemoryFigures& f) {
  return f.peak < 0 ? "-" : bytes_text(static_cast<double>(f.peak));
}

std::string b(std::int64_t bytes) {
  return bytes_text(static_cast<double>(bytes));
}

std::string name_cell(std::string_view name, bool markdown) {
  if (markdown) return markdown_code(name, true);
  return elide_middle(terminal_safe(name, false), kNameWidth);
}

// One row: Markdown cells, or terminal columns (a negative width is left-aligned).
std::string row(const std::vector<std::string>& cells, const std::vector<int>& widths, bool markdown) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (markdown) {
      out += "| " + cells[i] + " ";
    } else {
      const int w = widths[i];
      out += (i == 0 ? "" : " ") +
             (w < 0 ? fmt::format("{:<{}}", cells[i], -w) : fmt::format("{:>{}}", cells[i], w));
    }
  }
  return out + (markdown ? "|\n" : "\n");
}

// Markdown's header row and its alignment row; the terminal's header.
std::string header(const std::vector<std::string>& names, const std::vector<int>& widths, bool markdown) {
  if (!markdown) return row(names, widths, false);
  std::string align;
  for (int w : widths) align += w < 0 ? "|---" : "|---:";
  return row(names, widths, true) + align + "|\n";
}

const std::vector<int> kDeviceWidths{-10, 7, 11, 11, 11, 15, 18, 18};
const std::vector<int> kModuleWidths{-48, -10, 11, 11, 11, 15};
const std::vector<int> kOpWidths{-48, -10, 6, 11, 11, 11, 11, 15};

std::string devices_text(const MemoryUsage& m, bool markdown) {
  std::string out = header({"device", "events", "allocated", "freed", "net", "peak allocated",
                            "alloc outside ops", "freed outside ops"},
                           kDeviceWidths, markdown);
  for (std::size_t d = 0; d < m.devices.size(); ++d) {
    const MemoryFigures& t = m.device_totals[d];
    out += row(
        {memory_device_name(m.devices[d]), std::to_string(t.allocations + t.frees), b(t.allocated),
         b(t.freed), b(t.net()), peak_cell(t), b(m.unattributed[d].allocated), b(m.unattributed[d].freed)},
        kDeviceWidths, markdown);
  }
  return out;
}

std::string modules_text(const MemoryUsage& m, const RunSummary& s, std::size_t top, bool markdown) {
  std::string out = markdown ? "\n" : "top modules by bytes allocated (with their children)\n";
  out += header({"module", "device", "allocated", "freed", "net", "peak allocated"}, kModuleWidths, markdown);
  for (std::size_t i = 0; i < m.modules.size() && i < top; ++i) {
    const MemoryModuleRow& r = m.modules[i];
    const std::string& path = s.modules[r.module].path;
    const MemoryFigures& t = r.total;
    out += row({path.empty() ? "(model)" : name_cell(path, markdown), memory_device_name(m.devices[r.device]),
                b(t.allocated), b(t.freed), b(t.net()), peak_cell(t)},
               kModuleWidths, markdown);
  }
  return out;
}

std::string ops_text(const MemoryUsage& m, std::size_t top, bool markdown) {
  std::string out =
      markdown ? "\n"
               : "top ops by bytes allocated (with the ops nested in them; own: as the innermost op)\n";
  out += header({"op", "device", "calls", "allocated", markdown ? "own allocated" : "own alloc", "freed",
                 "net", "peak allocated"},
                kOpWidths, markdown);
  for (std::size_t i = 0; i < m.ops.size() && i < top; ++i) {
    const MemoryOpRow& r = m.ops[i];
    const MemoryFigures& t = r.total;
    out += row({name_cell(r.name, markdown), memory_device_name(m.devices[r.device]), std::to_string(r.ops),
                b(t.allocated), b(r.self.allocated), b(t.freed), b(t.net()), peak_cell(t)},
               kOpWidths, markdown);
  }
  return out;
}

}  // namespace

std::string memory_convention_text(const MemoryUsage& m, int iterations) {
  return fmt::format(
      "{} from profile_memory, on host timestamps, totals over {}: an event counts for the innermost op on "
      "its thread whose host interval contains it, and for that op's module and the modules above; peak "
      "allocated is the device's highest allocated total (every owner's bytes) seen at an event counted "
      "there",
      count_of(m.events, "allocator event"), count_of(iterations, "iteration"));
}

std::string memory_text(const MemoryUsage& m, const RunSummary& s, std::size_t top, bool markdown) {
  if (m.empty()) return "";
  std::string out = markdown ? "\n**Memory**\n\n" + memory_convention_text(m, s.iterations) + ".\n\n"
                             : "\nmemory (" + memory_convention_text(m, s.iterations) + ")\n";
  return out + devices_text(m, markdown) + modules_text(m, s, top, markdown) + ops_text(m, top, markdown);
}

}  // namespace flopscope::cli
