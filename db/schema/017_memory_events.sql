-- Version 17: allocator events of a Kineto trace recorded with torch.profiler(profile_memory=True), one row per
-- "[memory]" instant event, for memory per op and per module (analyzer/memory_usage.h, docs/gpu.md). None when
-- the trace has no memory events (and in a migrated file).

CREATE TABLE memory_event (
  id INTEGER PRIMARY KEY,         -- order in time (0-based)
  ts_ns INTEGER NOT NULL,         -- host clock, ns from the run's start (the op rows' start_ns clock)
  thread INTEGER NOT NULL,        -- host thread id that allocated or freed (as op.thread)
  bytes INTEGER NOT NULL,         -- > 0 allocated, < 0 freed
  total_allocated INTEGER NOT NULL,  -- the allocator's allocated total on this device after the event; -1: not recorded
  total_reserved INTEGER NOT NULL,   -- the allocator's reserved total on this device after the event; -1: not recorded
  addr INTEGER NOT NULL,          -- the block's address as recorded (0: not recorded)
  device_type INTEGER NOT NULL,   -- c10::DeviceType as Kineto writes it: 0 CPU, 1 CUDA, 6 HIP, ...
  device_id INTEGER NOT NULL      -- -1 for the CPU
);
