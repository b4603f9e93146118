-- Version 13: what the model's forward() returned, stored by `profile --save-outputs` and `trace
-- --save-outputs`, so `diff A.db B.db` can compare the outputs of two versions fed the same inputs. One row per
-- tensor of one call; none when the run was stored without outputs (and in a migrated file).

CREATE TABLE output_tensor (
  call INTEGER NOT NULL,         -- measured call index (the op rows' iteration), 0-based
  position INTEGER NOT NULL,     -- the tensor's place in the call's returned value, 0-based
  input_hash TEXT NOT NULL,      -- sha256 over the call's inputs (dtype, shape, bytes): calls pair by it
  input_tag TEXT NOT NULL,       -- the request's input-set tag ('' for random --input)
  name TEXT NOT NULL,            -- path in the returned value: '0', '1.logits' (tuple/list index, dict key)
  dtype TEXT NOT NULL,           -- normalised element type (float32, int64, bool, ...)
  shape TEXT NOT NULL,           -- JSON array of dimensions ([] for a 0-dim tensor)
  summarized INTEGER NOT NULL,   -- 1: over the run's value budget, `value` is NULL (data-quality outputs_summarized)
  sha256 TEXT NOT NULL,          -- of the raw element bytes in the tensor's own dtype
  max_abs REAL NOT NULL,         -- over finite elements
  mean REAL NOT NULL,            -- over finite elements
  rms REAL NOT NULL,             -- over finite elements
  nan_count INTEGER NOT NULL,    -- NaN elements
  inf_count INTEGER NOT NULL,    -- infinite elements
  argmax BLOB,                   -- top-1 index of the last dimension per position, int64 little-endian; NULL: none
  value BLOB,                    -- every element, row-major: float32 little-endian for float32/16 and bfloat16, else float64
  PRIMARY KEY (call, position)
);
