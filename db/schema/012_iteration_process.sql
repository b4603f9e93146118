-- Version 12: which process ran each iteration, for a run joined from several runs of one program
-- (`flopscope trace --repeat N`). Iterations of one process are not independent samples of another's (memory
-- layout, threads and clock state are per process), so `diff` compares time over per-process medians. No rows:
-- one process ran every iteration.

CREATE TABLE iteration_process (
  iteration INTEGER PRIMARY KEY,  -- iteration number, as op.iteration and kernel.iteration
  process INTEGER NOT NULL        -- the process that ran it: 0, 1, ... in the order the processes ran
);
