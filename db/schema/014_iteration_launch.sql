-- Version 14: how an imported trace's iterations were found, and each kernel's launch call, for the
-- per-iteration launch delay and device idle time (analyzer/iteration_activity.h, docs/gpu.md).

ALTER TABLE run ADD COLUMN iterations_from TEXT NOT NULL DEFAULT '';
  -- which rule found the iterations of an imported trace: 'ProfilerStep#', 'repeated annotation ''x''',
  -- 'CUDA-graph replays', 'repeated top-level module calls', '--iteration-marker ''x'''; '' when the capture
  -- ran its iterations itself (profile, trace, exec) or the trace has one
ALTER TABLE kernel ADD COLUMN launch_start_ns INTEGER NOT NULL DEFAULT -1;
  -- host clock, from the run's start: when the runtime call that launched it (cudaLaunchKernel, ...) began;
  -- -1 when the trace has no such call for it (orphans, Nsight Compute rows, older files)
ALTER TABLE kernel ADD COLUMN launch_duration_ns INTEGER NOT NULL DEFAULT 0;
  -- that call's duration (host clock)
