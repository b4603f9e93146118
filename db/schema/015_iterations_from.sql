-- Version 15: how an imported trace's iterations were found, for the report's "iterations N, from ..." line
-- and the per-iteration device activity (analyzer/iteration_activity.h, docs/gpu.md).

ALTER TABLE run ADD COLUMN iterations_from TEXT NOT NULL DEFAULT '';
  -- which rule found the iterations of an imported trace: 'ProfilerStep#', 'repeated annotation ''x''',
  -- 'CUDA-graph replays', 'repeated top-level module calls', '--iteration-marker ''x'''; '' when the capture
  -- ran its iterations itself (profile, trace, exec) or the trace has one
