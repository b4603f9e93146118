-- flopscope run database, schema version 1: one run per file.
-- Times are nanoseconds, sizes bytes, FLOPs floating-point operations (a fused multiply-add counts 2).
-- An id column that is NULL means "none" (flopscope's kNoId). A REAL column that is NULL holds NaN (SQLite
-- stores NaN as NULL); every other column is NOT NULL. JSON columns hold compact JSON text.

CREATE TABLE run (
  id INTEGER PRIMARY KEY CHECK (id = 1),  -- always 1: a file holds exactly one run
  tool_version TEXT NOT NULL,             -- flopscope version that captured the run
  source_kind TEXT NOT NULL,              -- capture path: torch-cpu, cupti, kineto, nsys, ncu, unknown
  source_path TEXT NOT NULL,              -- model or trace file the run came from, as given by the user
  source_sha256 TEXT NOT NULL,            -- SHA-256 of that file, lowercase hex ('' when not computed)
  device TEXT NOT NULL,                   -- device the run executed on: 'cpu' or the GPU name
  host TEXT NOT NULL,                     -- host name of the capturing machine
  input_spec TEXT NOT NULL,               -- model inputs, e.g. 'int64[1,4096]'; several joined by '; '
  iterations INTEGER NOT NULL,            -- measured iterations (count)
  warmup INTEGER NOT NULL,                -- warm-up iterations run before measuring, not recorded (count)
  threads INTEGER NOT NULL,               -- intra-op CPU threads (count; 0 = library default)
  created_unix_ns INTEGER NOT NULL,       -- capture start, nanoseconds since the Unix epoch (UTC)
  command_line TEXT NOT NULL              -- command line that produced the run
);

CREATE TABLE module (
  id INTEGER PRIMARY KEY,                 -- module id, unique within the run
  parent_id INTEGER REFERENCES module(id), -- enclosing module; NULL for the root
  path TEXT NOT NULL,                     -- dotted path as named_modules() gives it, e.g. 'layers.0.attn'; '' for the root
  type TEXT NOT NULL                      -- module class name, e.g. 'Linear'
);

CREATE TABLE op (
  id INTEGER PRIMARY KEY,                 -- op id, unique within the run
  iteration INTEGER NOT NULL,             -- measured iteration the op ran in (0-based)
  sequence INTEGER NOT NULL,              -- order of start within the run (0-based)
  name TEXT NOT NULL,                     -- operator name, e.g. 'aten::linear'
  thread INTEGER NOT NULL,                -- OS thread id that ran the op
  start_ns INTEGER NOT NULL,              -- start, nanoseconds from the run's start
  duration_ns INTEGER NOT NULL,           -- wall time, nanoseconds
  module_id INTEGER REFERENCES module(id), -- module the op ran in; NULL when unknown
  parent_op_id INTEGER REFERENCES op(id), -- op that called this one; NULL for ops called from model code
  depth INTEGER NOT NULL,                 -- nesting depth below model code (0 = called from the model itself)
  input_dims TEXT NOT NULL,               -- JSON array, one entry per argument: tensor shape (array of sizes) or null for a non-tensor, like Kineto 'Input Dims'
  input_types TEXT NOT NULL,              -- JSON array of strings, one per argument: normalised dtype ('float32', 'int64', ...) or '' when none, like Kineto 'Input type'
  concrete_inputs TEXT NOT NULL,          -- JSON array of strings, one per argument: scalar or list value as text ('1', '[1, 1]', 'False'), '' when unknown, like Kineto 'Concrete Inputs'
  flops REAL,                             -- floating-point operations of this op (FLOPs); meaningful per flops_source
  macs REAL,                              -- multiply-accumulate operations (count)
  bytes_read REAL,                        -- bytes the op reads from memory (estimate from shapes, or measured)
  bytes_written REAL,                     -- bytes the op writes to memory
  flops_source TEXT NOT NULL,             -- how flops were obtained: formula, measured, none (unknown, not zero), nested (covered by an enclosing op; excluded from totals)
  flops_note TEXT NOT NULL                -- which formula was used or why the count is an estimate; '' when nothing to say
);

CREATE TABLE kernel (
  id INTEGER PRIMARY KEY,                 -- kernel or memory-operation id, unique within the run
  kind TEXT NOT NULL,                     -- kernel, memcpy or memset
  name TEXT NOT NULL,                     -- kernel name (demangled when available), or the memcpy/memset kind
  device INTEGER NOT NULL,                -- device ordinal
  stream INTEGER NOT NULL,                -- stream id
  start_ns INTEGER NOT NULL,              -- start, nanoseconds from the run's start
  duration_ns INTEGER NOT NULL,           -- device time, nanoseconds
  grid_x INTEGER NOT NULL,                -- grid size in blocks, x (0 for memcpy/memset)
  grid_y INTEGER NOT NULL,                -- grid size in blocks, y
  grid_z INTEGER NOT NULL,                -- grid size in blocks, z
  block_x INTEGER NOT NULL,               -- block size in threads, x (0 for memcpy/memset)
  block_y INTEGER NOT NULL,               -- block size in threads, y
  block_z INTEGER NOT NULL,               -- block size in threads, z
  correlation INTEGER NOT NULL,           -- launch correlation id linking the kernel to its API call
  iteration INTEGER NOT NULL,             -- measured iteration the kernel ran in (0-based)
  op_id INTEGER REFERENCES op(id),        -- op that launched it; NULL when unattributed
  module_id INTEGER REFERENCES module(id), -- module of that op (or of the enclosing NVTX range); NULL when unknown
  graph_id INTEGER NOT NULL,              -- CUDA graph id, 0 when not launched from a graph
  graph_node_id INTEGER NOT NULL,         -- CUDA graph node id, 0 when not launched from a graph
  has_counters INTEGER NOT NULL,          -- 1 when hardware counters below were collected for this kernel, else 0 (they are then 0, not measured)
  flops_fp64 REAL,                        -- measured double-precision FLOPs
  flops_fp32 REAL,                        -- measured single-precision FLOPs
  flops_fp16 REAL,                        -- measured half-precision FLOPs
  tensor_ops REAL,                        -- measured tensor-core work as the counter reports it (operations)
  dram_bytes_read REAL,                   -- measured bytes read from device memory (DRAM/HBM)
  dram_bytes_written REAL,                -- measured bytes written to device memory (DRAM/HBM)
  l2_bytes REAL,                          -- measured bytes moved through L2
  bytes REAL                              -- size of a memcpy or memset, bytes (0 for kernels)
);

CREATE TABLE param (
  id INTEGER PRIMARY KEY,                 -- parameter id, unique within the run
  name TEXT NOT NULL,                     -- full dotted name, e.g. 'layers.0.attn.q_proj.weight'
  module_id INTEGER REFERENCES module(id), -- owning module; NULL when unknown
  dtype TEXT NOT NULL,                    -- normalised element type, e.g. 'float32'
  shape TEXT NOT NULL,                    -- JSON array of sizes, e.g. '[64,128]'
  numel INTEGER NOT NULL,                 -- number of elements (count)
  bytes INTEGER NOT NULL,                 -- storage size, bytes
  l2 REAL,                                -- L2 norm of the values
  max_abs REAL,                           -- largest absolute value
  nonzero_fraction REAL,                  -- fraction of elements that are not zero (0..1)
  sha256 TEXT NOT NULL                    -- SHA-256 of the raw little-endian element bytes, lowercase hex
);

CREATE TABLE graph_node (
  id INTEGER PRIMARY KEY,                 -- node id, unique within the graph
  kind TEXT NOT NULL,                     -- op kind, e.g. 'aten::linear', or 'input' / 'output'
  label TEXT NOT NULL,                    -- display label
  module_id INTEGER REFERENCES module(id), -- module the node belongs to; NULL when none
  module_path TEXT NOT NULL,              -- dotted path of that module ('' for the root or none)
  output_shapes TEXT NOT NULL             -- output types and shapes, e.g. 'float32[1,64,128]'
);

CREATE TABLE graph_edge (
  src INTEGER NOT NULL REFERENCES graph_node(id), -- producing node
  dst INTEGER NOT NULL REFERENCES graph_node(id), -- consuming node
  label TEXT NOT NULL                     -- tensor shape on the edge, '' when unknown
);

CREATE TABLE data_quality (
  what TEXT NOT NULL,                     -- kind of problem, e.g. 'op without FLOPs formula: aten::gelu'
  count INTEGER NOT NULL,                 -- how many records it affected (count)
  severity TEXT NOT NULL,                 -- info, warning or error
  detail TEXT NOT NULL                    -- more context for a reader ('' when none)
);

CREATE INDEX op_by_module ON op(module_id);
CREATE INDEX op_by_parent ON op(parent_op_id);
CREATE INDEX kernel_by_op ON kernel(op_id);
CREATE INDEX kernel_by_module ON kernel(module_id);
CREATE INDEX param_by_module ON param(module_id);
