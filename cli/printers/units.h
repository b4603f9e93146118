// Human-readable numbers for terminal and Markdown output come from the core's one formatter
// (analyzer/format.h), under the names the diff engine's verdict text also uses (analyzer/diff/units.h).
// JSON and CSV always carry raw units.
#pragma once

#include "analyzer/diff/units.h"
#include "analyzer/format.h"
