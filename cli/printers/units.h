// Human-readable numbers for terminal and Markdown output come from the core's one formatter
// (analyzer/format.h: flops_text, bytes_text, time_text, percent_text, si_text). JSON and CSV always carry
// raw units.
#pragma once

#include "analyzer/format.h"
