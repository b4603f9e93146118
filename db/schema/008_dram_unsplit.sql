-- Version 8: the per-module aggregates also keep the measured DRAM bytes whose read/write split is unknown
-- (kernels whose counters gave dram__bytes.sum only), so a run read without its kernel rows still says
-- which DRAM traffic has no split. The writer sums it with the other counters (db/model/measured_counters.h).
-- A version 7 file gets it here, from its kernel rows, as that sum defines it: kernels with counters in an
-- iteration, whose read + written is not above 0, add their dram_bytes when above 0, else read + written.
-- Files older than 7 have no aggregates rows yet: the reader computes them, this column with them.

ALTER TABLE module_aggregate ADD COLUMN dram_unsplit REAL NOT NULL DEFAULT 0;

UPDATE module_aggregate SET dram_unsplit = (
  SELECT total(CASE WHEN ifnull(k.dram_bytes_read, 0) + ifnull(k.dram_bytes_written, 0) > 0 THEN 0
                    WHEN ifnull(k.dram_bytes, 0) > 0 THEN k.dram_bytes
                    ELSE ifnull(k.dram_bytes_read, 0) + ifnull(k.dram_bytes_written, 0) END)
  FROM kernel k
  WHERE k.has_counters != 0 AND k.iteration >= 0 AND k.module_id IS module_aggregate.module_id)
WHERE dram_bytes > 0;
