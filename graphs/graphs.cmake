# flopscope_graphs: graph model, collapse, colouring, diff overlay, DOT writer (no Graphviz, no LibTorch).
# flopscope_graph_render: in-process layout (coordinates for the GUI) and rendering through Graphviz cgraph + gvc.
# flopscope_graph_torch: the one LibTorch translation unit, extracting forward's graph from TorchScript;
# linked into libflopscope-torch.so only. Front ends reach it through extract_plugin.cpp.
# Stubs that report the missing component replace them when Graphviz or LibTorch is absent.
set(flopscope_graphs_sources
  graph_model.cpp run_costs.cpp trace_graph.cpp collapse.cpp graph_diff.cpp heat.cpp heatmap_dot.cpp dot_writer.cpp output_format.cpp
  profiled_shapes.cpp icicle.cpp icicle_svg.cpp roofline_plot.cpp roofline_svg.cpp svg_frame.cpp)
if(NOT FLOPSCOPE_HAVE_GRAPHVIZ)
  list(APPEND flopscope_graphs_sources render_unavailable.cpp layout_unavailable.cpp)
endif()
if(FLOPSCOPE_HAVE_TORCH)
  list(APPEND flopscope_graphs_sources extract_plugin.cpp)
else()
  list(APPEND flopscope_graphs_sources extract_unavailable.cpp)
endif()
add_library(flopscope_graphs STATIC ${flopscope_graphs_sources})
target_include_directories(flopscope_graphs PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(flopscope_graphs PUBLIC flopscope_model flopscope_analyzer PRIVATE fmt::fmt flopscope_warnings)
if(FLOPSCOPE_HAVE_TORCH)
  target_link_libraries(flopscope_graphs PRIVATE flopscope_torch_plugin_loader)
endif()

if(FLOPSCOPE_HAVE_GRAPHVIZ)
  add_library(flopscope_graph_render STATIC graphviz_render.cpp graph_layout.cpp)
  target_link_libraries(flopscope_graph_render PUBLIC flopscope_graphs PRIVATE PkgConfig::GRAPHVIZ flopscope_warnings)
endif()

if(FLOPSCOPE_HAVE_TORCH)
  add_library(flopscope_graph_torch STATIC torchscript_extract.cpp)
  target_link_libraries(flopscope_graph_torch PUBLIC flopscope_graphs flopscope_analyzer
                        PRIVATE flopscope_torch flopscope_warnings)
endif()

# Where a graph to draw comes from (a run through load_run, or a model): shared by the CLI and the GUI.
add_library(flopscope_graph_open STATIC open_graph.cpp paired_diff_graph.cpp)
target_link_libraries(flopscope_graph_open PUBLIC flopscope_graphs PRIVATE flopscope_analysis flopscope_importers flopscope_analyzer
                      flopscope_warnings)
if(FLOPSCOPE_HAVE_TORCH)
  # Models are read by the plugin it loads (the CLI and the GUI link this): build it with them.
  add_dependencies(flopscope_graph_open flopscope_torch_plugin)
endif()
