add_library(flopscope_analyzer STATIC summary.cpp summary_facts.cpp fact_rows.cpp summary_aggregates.cpp iterations.cpp iteration_series.cpp iteration_activity.cpp latency.cpp heatmap.cpp format.cpp op_costs.cpp op_groups.cpp
            timeline.cpp kernel_table.cpp peaks.cpp summary_facts_sink.cpp tensor_factor.cpp fused_split.cpp clock.cpp module_types.cpp work_text.cpp totals_summary.cpp op_category.cpp module_params.cpp memory_usage.cpp
            module_order.cpp)
target_link_libraries(flopscope_analyzer PUBLIC flopscope_model flopscope_flops PRIVATE flopscope_warnings)
