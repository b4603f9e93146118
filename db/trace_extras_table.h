// A run database's trace extras (schema 016, db/model/trace_extras.h): read only by `export`, so the other
// readers never pay for a with_stack trace's hundred thousand Python frames.
#pragma once

#include <string>

#include "db/model/status.h"
#include "db/model/trace_extras.h"

namespace flopscope {

// Errors name the file, as read_run_database's. A file from before schema 016 has none.
StatusOr<TraceExtras> read_trace_extras(const std::string& path);

}  // namespace flopscope
