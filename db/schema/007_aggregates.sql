-- Version 7: aggregates written with the rows, so that analyses needing only totals per module and per op
-- signature (diff) read a few thousand rows instead of every op and kernel. The writer computes them from
-- the op and kernel rows it stores (db/model/run_aggregates.cpp, every capture path alike); a file of an
-- older version gets them computed from its rows when read (the file itself is never changed).
-- Per-iteration times are BLOBs: 12 bytes per iteration whose sum is not 0, a little-endian int32 iteration
-- number then a little-endian int64 sum in nanoseconds, iterations ascending.

CREATE TABLE aggregate_iteration (
  iteration INTEGER PRIMARY KEY           -- an iteration number some op, or some kernel >= 0, has
);

CREATE TABLE module_aggregate (
  module_id INTEGER REFERENCES module(id), -- the module its own ops and kernels name (not its children's); NULL for none
  ops INTEGER NOT NULL,                   -- ops, nested ones too (count, whole run)
  ops_with_formula INTEGER NOT NULL,      -- of those, ops whose flops_source is not 'none'
  flops REAL,                             -- FLOPs of ops counted toward totals (flops_source formula or measured)
  macs REAL,                              -- their multiply-accumulates
  bytes_read REAL,                        -- their bytes read
  bytes_written REAL,                     -- their bytes written
  kernels INTEGER NOT NULL,               -- kernels in an iteration (count)
  orphan_kernels INTEGER NOT NULL,        -- kernels outside every iteration (negative iteration)
  orphan_ns INTEGER NOT NULL,             -- their device time, nanoseconds
  measured_flops REAL,                    -- counters of kernels in iterations: flops_fp64 + fp32 + fp16
  dram_bytes REAL,                        -- measured DRAM bytes, read + written
  dram_bytes_read REAL,                   -- the measured split where the counters gave it
  dram_bytes_written REAL,                -- (the other half of that split)
  tensor_pipe_inst REAL,                  -- tensor-pipe instructions (count, not FLOPs)
  host_ns BLOB NOT NULL,                  -- per iteration: durations of its outermost ops (no parent op)
  device_ns BLOB NOT NULL                 -- per iteration: durations of its kernels
);

CREATE TABLE op_aggregate (
  module_id INTEGER REFERENCES module(id), -- module of the ops; NULL for none
  name TEXT NOT NULL,                     -- op name; 'kernel NAME' for kernels whose op is not in the run
  signature TEXT NOT NULL,                -- argument signature: tensors as dtype[shape], scalars as values, '_' unknown; '' for kernels
  calls INTEGER NOT NULL,                 -- ops with this module, name and signature (count, whole run)
  counted INTEGER NOT NULL,               -- 1 when some of them has a flops_source other than 'none'
  flops REAL,                             -- FLOPs of those counted toward totals
  bytes REAL,                             -- their bytes read + written
  kernels INTEGER NOT NULL,               -- kernels they launched, orphans too (count)
  host_ns BLOB NOT NULL,                  -- per iteration: durations of these ops
  device_ns BLOB NOT NULL                 -- per iteration: durations of their kernels in iterations
);
