-- Version 6: every data-quality row carries a stable code from the catalogue (db/model/quality_catalogue.h,
-- listed in docs/data-quality.md); `what` keeps the English text it was written with. Rows of older
-- databases get the code their text stands for; a text this step does not know keeps code 'legacy', and
-- readers show it with that text.

ALTER TABLE data_quality ADD COLUMN code TEXT NOT NULL DEFAULT 'legacy'; -- stable snake_case kind, e.g. 'ops_without_flops_formula' (docs/data-quality.md)

UPDATE data_quality SET code = CASE what
  WHEN 'ops without a FLOPs formula (FLOPs unknown, not zero)' THEN 'ops_without_flops_formula'
  WHEN 'kernels not attributed to a module' THEN 'kernels_without_module'
  WHEN 'orphan kernels (launched before the profiling window), left out of per-iteration time' THEN 'orphan_kernels_left_out'
  WHEN 'ops with ambiguous module attribution' THEN 'ambiguous_module_attribution'
  WHEN 'reference BLAS in use' THEN 'reference_blas'
  WHEN 'BLAS backend' THEN 'blas_backend'
  WHEN 'module calls with activation statistics (--activations)' THEN 'activation_statistics'
  WHEN 'computation graph not extracted' THEN 'graph_not_extracted'
  WHEN 'counted on the meta device (--meta): shapes only, no values computed and no weights read; op times are not the model''s' THEN 'meta_device'
  WHEN 'ops whose cost depends on tensor values (output size or a value read back): not countable from shapes on the meta device' THEN 'value_dependent_ops'
  WHEN 'activation statistics of modules not in the trace (dropped)' THEN 'activations_of_unknown_modules'
  WHEN 'parameters or buffers without statistics (not stored)' THEN 'params_without_statistics'
  WHEN 'the trace has no input shapes (record_shapes=False): modules cannot be matched to the weights file''s tensors' THEN 'trace_without_shapes'
  WHEN 'modules with no tensors of their own in the weights file: class-based name kept' THEN 'modules_without_own_tensors'
  WHEN 'modules not mapped to an attribute path (ambiguous): class-based name kept' THEN 'modules_ambiguous_in_weights'
  WHEN 'tensors of the weights file whose module is not in the trace (not called, or not mapped)' THEN 'weight_tensors_unplaced'
  WHEN 'event with an impossible time (negative duration or far out of range; dropped)' THEN 'impossible_event_time'
  WHEN 'op with impossible argument shapes (FLOPs unknown)' THEN 'impossible_op_shapes'
  WHEN 'host op overlaps its parent partially' THEN 'host_op_partial_overlap'
  WHEN 'host ops outside any profiler step (counted in the nearest step)' THEN 'host_ops_outside_steps'
  WHEN 'kernel correlation id launched more than once (kernel not linked to an op)' THEN 'correlation_launched_twice'
  WHEN 'kernel correlation id used by several processes (not linked)' THEN 'correlation_in_several_processes'
  WHEN 'kernels linked to their op by External id' THEN 'kernels_linked_by_external_id'
  WHEN 'kernels linked to their op by time containment of the launch' THEN 'kernels_linked_by_time'
  WHEN 'kernels attributed through the launch''s enclosing range (the trace has no ops)' THEN 'kernels_via_enclosing_range'
  WHEN 'kernels whose launch is outside any op' THEN 'kernels_launched_outside_ops'
  WHEN 'kernels without a launch in the trace (orphans: unattributed, outside every iteration)' THEN 'orphan_kernels'
  WHEN 'device activities without a correlation id (unattributed)' THEN 'activities_without_correlation'
  WHEN 'kernels replayed from a CUDA graph, attributed to the op of their captured launch' THEN 'graph_replay_matched'
  WHEN 'kernels replayed from a CUDA graph, matched to a captured launch by order only' THEN 'graph_replay_matched_by_order'
  WHEN 'kernels replayed from a CUDA graph without a matching captured launch' THEN 'graph_replay_unmatched'
  WHEN 'ops of the CUDA graph capture (placed at the graph launch, zero host time)' THEN 'capture_ops_placed'
  WHEN 'ops of the capture trace left out: no replayed kernel matched its launches' THEN 'capture_ops_unmatched'
  WHEN 'ops of the capture trace outside the captured region (left out)' THEN 'capture_ops_outside_region'
  WHEN 'malformed trace events (skipped)' THEN 'malformed_trace_events'
  WHEN 'user annotations (record_function ranges) kept as ranges, not ops' THEN 'user_annotations_as_ranges'
  WHEN 'range-profiler entries (durations are replay time, not linked to ops)' THEN 'range_profiler_entries'
  WHEN 'metric values with a unit not understood (taken as is)' THEN 'metric_unit_unknown'
  WHEN 'CSV rows with too few fields (skipped)' THEN 'csv_rows_too_few_fields'
  WHEN 'CSV rows without a numeric kernel ID (skipped)' THEN 'csv_rows_without_kernel_id'
  WHEN 'kernels with an impossible duration (skipped)' THEN 'kernels_impossible_duration'
  WHEN 'kernels past the time range (skipped)' THEN 'kernels_past_time_range'
  WHEN 'kernels without a duration metric (duration 0)' THEN 'kernels_without_duration'
  WHEN 'kernels placed end to end in ID order (ncu replays kernels serially)' THEN 'kernels_end_to_end'
  WHEN 'kernel table without start/end/name columns (kernels skipped)' THEN 'kernel_table_incomplete'
  WHEN 'kernels whose name id is not in StringIds' THEN 'kernel_names_missing'
  WHEN 'kernels with end before start (skipped)' THEN 'kernels_end_before_start'
  WHEN 'runtime table without start/end/globalTid/correlationId (no launches)' THEN 'runtime_table_incomplete'
  WHEN 'duplicate runtime rows for one correlation id (ignored)' THEN 'duplicate_runtime_rows'
  WHEN 'kernel without launch scope' THEN 'kernel_without_launch_scope'
  WHEN 'graph kernel without node scope' THEN 'graph_kernel_without_node_scope'
  WHEN 'kernel without timestamp' THEN 'kernel_without_timestamp'
  WHEN 'activity records dropped' THEN 'activity_records_dropped'
  WHEN 'unreadable activity buffer' THEN 'unreadable_activity_buffer'
  WHEN 'unbalanced scope pop' THEN 'unbalanced_scope_pop'
  WHEN 'graph launch without counters' THEN 'graph_launch_without_counters'
  WHEN 'counter ranges dropped' THEN 'counter_ranges_dropped'
  WHEN 'counters not collected' THEN 'counters_not_collected'
  WHEN 'counter range kernel name mismatch' THEN 'counter_range_name_mismatch'
  WHEN 'counter range without traced kernel' THEN 'counter_range_without_kernel'
  WHEN 'counter range without launch' THEN 'counter_range_without_launch'
  WHEN 'launch without counter range' THEN 'launch_without_counter_range'
  ELSE 'legacy' END;

-- Texts that carried a name or a number: that part moves into the detail.
UPDATE data_quality
  SET code = 'paths_from_weights_file', detail = substr(what, length('module paths named by attribute from the weights file ') + 1)
  WHERE what LIKE 'module paths named by attribute from the weights file %';
UPDATE data_quality
  SET code = 'recorded_by_trace',
      detail = substr(what, length('recorded by flopscope trace: ') + 1, instr(what, '; host clock;') - length('recorded by flopscope trace: ') - 1) || '; ' || detail
  WHERE what LIKE 'recorded by flopscope trace: torch %; host clock;%';
UPDATE data_quality
  SET code = 'program_failed', detail = substr(what, 1, instr(what, ': the run holds what was recorded until then') - 1) || '; ' || detail
  WHERE what LIKE 'the program %: the run holds what was recorded until then';
UPDATE data_quality SET code = 'iterations_incomplete', detail = what
  WHERE what LIKE 'recorded % of the % requested iterations';
UPDATE data_quality SET code = 'several_processes', detail = what
  WHERE what LIKE '% Python processes recorded traces; this run holds process %';
UPDATE data_quality SET code = 'companion_note', detail = substr(what, length('companion: ') + 1)
  WHERE what LIKE 'companion: %';
