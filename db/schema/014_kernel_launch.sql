-- Version 14: the host runtime call that launched each kernel (cudaLaunchKernel, cudaMemcpyAsync,
-- cudaGraphLaunch, ...), kept so that an export writes the call as it was recorded: trace tools (HTA, Perfetto)
-- measure launch delay and host-wait idle time from its start and duration. A migrated file, and a run whose
-- source recorded no launch, has an empty name and launch_duration_ns -1 (unknown).

ALTER TABLE kernel ADD COLUMN launch_name TEXT NOT NULL DEFAULT '';       -- runtime call, '' when unknown
ALTER TABLE kernel ADD COLUMN launch_start_ns INTEGER NOT NULL DEFAULT 0;  -- its start, host clock, nanoseconds from the run's start
ALTER TABLE kernel ADD COLUMN launch_duration_ns INTEGER NOT NULL DEFAULT -1; -- its host time, nanoseconds; -1 when unknown
ALTER TABLE kernel ADD COLUMN launch_thread INTEGER NOT NULL DEFAULT 0;    -- host thread id of the call, as op.thread
