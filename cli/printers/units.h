// Human-readable numbers for terminal and Markdown output: the diff engine's formatter (analyzer/diff/units.h).
#pragma once

#include "analyzer/diff/units.h"

namespace flopscope::cli {

using flopscope::bytes_text;
using flopscope::flops_text;
using flopscope::format_count;
using flopscope::format_signed_percent;
using flopscope::percent_text;
using flopscope::si;
using flopscope::time_text;

}  // namespace flopscope::cli
