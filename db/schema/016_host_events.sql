-- Version 16: what a trace recorded that no analysis reads but `export --chrome-trace` writes back
-- (db/model/trace_extras.h): host events that are neither ops nor kernel launches, and the trace's own
-- deviceProperties. A migrated file, and a run from a capture (profile, trace, exec), has none.

CREATE TABLE host_event (
  id INTEGER PRIMARY KEY,             -- start order
  category TEXT NOT NULL,             -- the source's "cat": python_function, cuda_runtime, cuda_driver, ...
  name TEXT NOT NULL,                 -- a Python frame ("model.py(12): forward") or a runtime call
  start_ns INTEGER NOT NULL,          -- host clock, nanoseconds from the run's start (negative before it)
  duration_ns INTEGER NOT NULL,       -- host time, nanoseconds
  thread INTEGER NOT NULL,            -- host thread id, as op.thread
  correlation INTEGER,                -- a runtime call's correlation id; NULL when none
  python_id INTEGER,                  -- a Python frame's "Python id"; NULL when none
  python_parent_id INTEGER            -- its "Python parent id"; NULL for a root frame
);

CREATE TABLE trace_device_properties (
  json TEXT NOT NULL                  -- the source's "deviceProperties" array as written (minified)
);
