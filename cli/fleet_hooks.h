// How `flopscope diff --baseline URL` and `flopscope exporter --store URL` read a fleet store. Those commands
// know nothing of PostgreSQL: a build with the store client installs the loaders at start-up
// (commands/fleet_baseline.cpp); without one, the options are refused with a message that says so.
#pragma once

#include <functional>
#include <string>

#include "analyzer/fleet/exposition.h"
#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope::cli {

struct BaselineRequest {
  std::string url;    // postgresql://...[?branch=B&machine=M&model=SHA-PREFIX]
  int median_of = 0;  // 0: the latest matching run; N: the median run (end-to-end P50) of the latest N
};

struct Baseline {
  RunData run;
  std::string label;  // e.g. "store run 12 (main @ 1a2b3c4)"
};

using BaselineLoader = std::function<StatusOr<Baseline>(const BaselineRequest&)>;

inline BaselineLoader& fleet_baseline_loader() {
  static BaselineLoader loader;
  return loader;
}

// The newest run matching the URL's filters, as exporter metrics; connecting and each query bounded by
// timeout_s (a scrape must not hang behind a locked table).
using LatestRunLoader = std::function<StatusOr<ExpositionSource>(const std::string& url, int timeout_s)>;

inline LatestRunLoader& fleet_latest_loader() {
  static LatestRunLoader loader;
  return loader;
}

}  // namespace flopscope::cli
