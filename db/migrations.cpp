#include "db/migrations.h"

#include <string>

namespace flopscope {

Status too_new_error(const std::string& path, std::int64_t found, int supported) {
  return Unsupported(path + ": run database schema version " + std::to_string(found) +
                     " is newer than this flopscope supports (" + std::to_string(supported) +
                     "); upgrade flopscope");
}

Status migrate(sqlite::Database& db, std::span<const SchemaStep> steps) {
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].version != static_cast<int>(i) + 1) {
      return Internal(std::string(steps[i].name) + ": schema step numbered " +
                      std::to_string(steps[i].version) + ", expected " + std::to_string(i + 1));
    }
  }
  FS_ASSIGN_OR_RETURN(std::int64_t version, db.query_int("PRAGMA user_version"));
  const int latest = static_cast<int>(steps.size());
  if (version > latest) return too_new_error(db.path(), version, latest);
  if (version < 0) return Corrupt(db.path() + ": negative schema version " + std::to_string(version));
  for (const SchemaStep& step : steps.subspan(static_cast<std::size_t>(version))) {
    FS_RETURN_IF_ERROR(db.exec("BEGIN"));
    Status s = db.exec(step.sql);
    if (s.ok()) s = db.exec("PRAGMA user_version = " + std::to_string(step.version));
    if (s.ok()) s = db.exec("COMMIT");
    if (!s.ok()) {
      (void)db.exec("ROLLBACK");
      return Status(s.code(), s.message() + " (migrating to schema version " + std::to_string(step.version) +
                                  " with " + std::string(step.name) + ")");
    }
  }
  return {};
}

}  // namespace flopscope
