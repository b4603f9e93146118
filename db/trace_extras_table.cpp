#include "db/trace_extras_table.h"

#include "db/run_database_format.h"
#include "db/schema_steps.h"
#include "db/table_reader.h"

namespace flopscope {

StatusOr<TraceExtras> read_trace_extras(const std::string& path) {
  FS_ASSIGN_OR_RETURN(sqlite::Database db, open_run_database(path, schema_steps(), nullptr));
  TraceExtras extras;
  const auto optional_id = [](sqlite::Statement& s, int column) {
    return s.is_null(column) ? std::int64_t{-1} : s.int64(column);
  };
  FS_RETURN_IF_ERROR(for_each_row(db, "host_event",
                                  "SELECT category, name, start_ns, duration_ns, thread, correlation, "
                                  "python_id, python_parent_id FROM host_event ORDER BY id",
                                  [&](sqlite::Statement& s) {
                                    HostEventRecord& e = extras.host_events.emplace_back();
                                    e.category = s.str(0);
                                    e.name = s.str(1);
                                    e.start_ns = s.int64(2);
                                    e.duration_ns = s.int64(3);
                                    e.thread = s.int64(4);
                                    e.correlation = optional_id(s, 5);
                                    e.python_id = optional_id(s, 6);
                                    e.python_parent_id = optional_id(s, 7);
                                    return Status();
                                  }));
  FS_RETURN_IF_ERROR(for_each_row(db, "trace_device_properties",
                                  "SELECT json FROM trace_device_properties LIMIT 1",
                                  [&](sqlite::Statement& s) {
                                    extras.device_properties = s.str(0);
                                    return Status();
                                  }));
  return extras;
}

}  // namespace flopscope
