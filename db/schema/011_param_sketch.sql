-- Version 11: each parameter's content sketch, the evidence that a weight moved or was fine-tuned rather than
-- erased (analyzer/weights/tensor_similarity.h): the sums of the elements whose row-major flat index i has
-- i % 61 == k, per bucket k, and the sum of all elements. Rows of older files, and tensors whose values were
-- not read (meta tensors), get an empty sketch and a 0 sum.

ALTER TABLE param ADD COLUMN sketch BLOB NOT NULL DEFAULT x''; -- 61 little-endian float64 bucket sums; x'' if not read
ALTER TABLE param ADD COLUMN sum REAL NOT NULL DEFAULT 0;      -- sum of the elements
