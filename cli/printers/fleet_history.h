// `flopscope history`: a trend over stored runs as a table, JSON or CSV.
#pragma once

#include <string>

#include "analyzer/fleet/trend.h"

namespace flopscope::cli {

std::string render_trend_table(const Trend& trend, const std::string& glob);
std::string render_trend_json(const Trend& trend, const std::string& glob);
std::string render_trend_csv(const Trend& trend);

}  // namespace flopscope::cli
