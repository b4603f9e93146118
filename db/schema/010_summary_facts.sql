-- Version 10: what `summarize` derives from the op tree and the kernel rows (analyzer/summary.cpp,
-- summary_facts), written with the run, so that `report` reads these few thousand rows instead of every op
-- and kernel. Values are whole-run sums; the reader applies the options (top-N ops, the device peak) and
-- rolls modules up exactly as from the rows. A file without the summary_run row (older than version 10, or
-- written by a sink that computes no facts) is summarized from its rows.
-- Per-iteration values are BLOBs: 12 bytes per iteration whose value is not 0, a little-endian uint32
-- iteration index (position in the ascending iteration numbers) then a little-endian IEEE float64.
-- REAL columns allow NULL: SQLite stores a NaN as NULL, and the reader turns NULL back into NaN.

CREATE TABLE summary_run (
  id INTEGER PRIMARY KEY CHECK (id = 1),  -- one row
  has_kernels INTEGER NOT NULL,           -- 1 when the run has any kernel, memcpy or memset
  ops_total INTEGER NOT NULL,             -- ops, nested ones too
  ops_with_formula INTEGER NOT NULL,      -- of those, ops whose flops_source is not 'none'
  orphan_kernels INTEGER NOT NULL,        -- kernels outside every iteration
  orphan_ns REAL,                         -- their device time
  kernels INTEGER NOT NULL,               -- every kernel, memcpy and memset
  kernels_with_op INTEGER NOT NULL,       -- of those, linked to an op
  kernels_with_module INTEGER NOT NULL,   -- of those, attributed to a module other than the root
  kernel_ns REAL,                         -- their device time, all
  kernel_attributed_ns REAL,              -- device time attributed to a module other than the root
  compute_ns REAL,                        -- compute kernels in iterations (no communication, copies, memsets)
  known_compute_ns REAL,                  -- of that, under an op with FLOPs known (formula or counters)
  unlinked_compute_ns REAL,               -- of that, launched by no op in the run
  outer_host_ns REAL,                     -- durations of outermost ops
  known_host_ns REAL                      -- durations of the outermost ops with a FLOPs source
);

CREATE TABLE summary_module (             -- the summary's module tree in pre-order, one row per module
  module_id INTEGER,                      -- NULL: the root made up for a run without a root module
  ops REAL,                               -- its own ops (count)
  flops REAL,                             -- FLOPs counted toward totals, after fused ops' inner work moved to its submodules
  macs REAL,                              -- their multiply-accumulates, moved the same way (so are the bytes)
  bytes_read REAL,                        -- bytes read of those ops
  bytes_written REAL,                     -- bytes written of those ops
  kernels REAL,                           -- kernels in iterations (count)
  measured_flops REAL,                    -- counters of those kernels (db/model/measured_counters.h)
  dram_bytes REAL,                        -- measured DRAM bytes, read + written
  dram_bytes_read REAL,                   -- the measured split where the counters gave it
  dram_bytes_written REAL,                -- (the other half of that split)
  dram_unsplit REAL,                      -- part of dram_bytes measured as a total only
  tensor_pipe_inst REAL,                  -- tensor-pipe instructions (count, not FLOPs)
  calls REAL,                             -- calls: contiguous spans of its ops, and fused calls
  comm_ns REAL,                           -- communication kernel time in iterations
  unknown_device_ns REAL,                 -- compute kernel time whose FLOPs no op or counter gives
  unknown_host_ns REAL,                   -- host time of its outermost ops with unknown FLOPs
  gap INTEGER NOT NULL,                   -- 1 when one of its ops has unknown FLOPs
  host_ns BLOB NOT NULL,                  -- per iteration: outermost ops' durations
  device_ns BLOB NOT NULL                 -- per iteration: kernels' durations
);

CREATE TABLE summary_op (                 -- outermost ops grouped by name and module, in (name, module) order
  name TEXT NOT NULL,                     -- op name
  module_id INTEGER,                      -- as summary_module.module_id
  calls REAL,                             -- ops in the group (count)
  flops REAL,                             -- FLOPs counted in their subtrees
  bytes REAL,                             -- bytes read + written counted in their subtrees
  time_ns REAL,                           -- host: their durations
  device_time_ns REAL,                    -- device: kernels launched in their subtrees
  flops_source TEXT NOT NULL              -- of the last op of the group
);

CREATE TABLE summary_gap (                -- ops whose FLOPs nobody counted, grouped by name, in name order
  name TEXT NOT NULL,                     -- op name
  count INTEGER NOT NULL,                 -- ops (count)
  time_ns REAL,                           -- host: their durations
  device_time_ns REAL,                    -- device: compute kernels under them with unknown FLOPs
  note TEXT NOT NULL                      -- why the FLOPs are unknown although a formula exists ('' if none)
);

CREATE TABLE summary_timeline (           -- analyzer/timeline.h: busy, idle, overlap and gaps
  per_device INTEGER NOT NULL,            -- 1: the whole device (stream is then -1); 0: one stream
  device INTEGER NOT NULL,                -- device number
  stream INTEGER NOT NULL,                -- stream id (-1 on a device row)
  activities INTEGER NOT NULL,            -- kernels, memcpys and memsets
  span_ns REAL,                           -- last end - first start
  sum_ns REAL,                            -- sum of durations
  busy_ns REAL,                           -- union of the intervals
  idle_ns REAL,                           -- span - busy
  overlap_ns REAL,                        -- sum - busy
  compute_busy_ns REAL,                   -- union of compute kernels
  communication_busy_ns REAL,             -- union of communication kernels
  compute_comm_overlap_ns REAL,           -- time both ran at once
  gaps INTEGER NOT NULL,                  -- idle stretches between consecutive activities
  gap_p50_ns REAL,                        -- their median
  gap_max_ns REAL                         -- their longest
);
