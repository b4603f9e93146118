-- Version 3: a completeness marker. The writer inserts the one row as the last statement of its final
-- transaction, so a file left behind by a killed or failed writer (`*.tmp-XXXXXX`) is recognisably
-- incomplete; readers refuse files of this version or later without the row.

CREATE TABLE run_complete (
  id INTEGER PRIMARY KEY CHECK (id = 1),  -- always 1: present once the run was written whole
  finished_unix_ns INTEGER NOT NULL       -- when the writer finished, nanoseconds since the Unix epoch (UTC)
);
