-- Version 4: measured counters kept as the profiler reported them. Nsight Compute and the Kineto range
-- profiler report sm__inst_executed_pipe_tensor.sum, tensor-pipe *instructions*: they get a column of their
-- own instead of tensor_ops (which holds the CUPTI collector's sm__ops_path_tensor_* math operations), and
-- are never converted to FLOPs. dram_bytes is the measured DRAM total, also when only dram__bytes.sum was
-- collected; dram_bytes_read / dram_bytes_written then stay 0 (split unknown) instead of the read column
-- holding the total.

ALTER TABLE kernel ADD COLUMN tensor_pipe_inst REAL DEFAULT 0; -- measured tensor-pipe instructions (sm__inst_executed_pipe_tensor.sum; count, not FLOPs)
ALTER TABLE kernel ADD COLUMN dram_bytes REAL DEFAULT 0;       -- measured bytes moved to and from device memory (DRAM/HBM), read + written

UPDATE kernel SET dram_bytes = COALESCE(dram_bytes_read, 0) + COALESCE(dram_bytes_written, 0) WHERE has_counters = 1;
-- Earlier imports of those two sources stored the instructions as tensor_ops and a total-only dram__bytes.sum
-- as bytes read (with 0 written): moved to the columns that say what they are.
UPDATE kernel SET tensor_pipe_inst = tensor_ops, tensor_ops = 0
  WHERE has_counters = 1 AND (SELECT source_kind FROM run) IN ('ncu', 'kineto');
UPDATE kernel SET dram_bytes_read = 0
  WHERE has_counters = 1 AND dram_bytes_written = 0 AND (SELECT source_kind FROM run) IN ('ncu', 'kineto');
