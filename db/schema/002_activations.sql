-- Version 2: activation statistics per module call (profile --activations), for elimination candidates.
-- As in version 1, a REAL column that is NULL holds NaN (an output with NaN values has a NaN norm).

CREATE TABLE activation (
  module_id INTEGER NOT NULL REFERENCES module(id), -- the module that was called
  iteration INTEGER NOT NULL,             -- measured iteration (one request), from 0
  call INTEGER NOT NULL,                  -- call index of this module within the iteration, from 0
  input_tag TEXT NOT NULL,                -- input set of the request ('' for random inputs)
  numel INTEGER NOT NULL,                 -- elements of the output (count)
  out_l2 REAL,                            -- L2 norm of the output
  out_max_abs REAL,                       -- largest absolute value of the output
  out_zero_fraction REAL,                 -- share of output elements exactly zero (0..1)
  rel_change REAL                         -- ||output - input|| / ||input|| when the shapes match; NULL when they do not (or it is NaN)
);

CREATE INDEX activation_by_module ON activation(module_id);
