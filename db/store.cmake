# The SQLite run database (included from db/CMakeLists.txt). Only this library includes sqlite3.h.
file(GLOB flopscope_schema_sql CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/schema/*.sql)
set(flopscope_schema_cpp ${CMAKE_CURRENT_BINARY_DIR}/schema_steps_generated.cpp)
add_custom_command(
  OUTPUT ${flopscope_schema_cpp}
  COMMAND ${CMAKE_COMMAND} -DOUT=${flopscope_schema_cpp} "-DSQL_FILES=${flopscope_schema_sql}"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/schema/embed_schema.cmake
  DEPENDS ${flopscope_schema_sql} ${CMAKE_CURRENT_SOURCE_DIR}/schema/embed_schema.cmake
  COMMENT "Embedding the run database schema"
  VERBATIM)

add_library(flopscope_db STATIC
  sqlite/sqlite.cpp migrations.cpp json_columns.cpp sketch_column.cpp run_open.cpp run_reader.cpp run_writer.cpp
  aggregate_tables.cpp summary_tables.cpp output_columns.cpp trace_extras_table.cpp
  module_names.cpp ${flopscope_schema_cpp})
target_link_libraries(flopscope_db PUBLIC flopscope_model PRIVATE SQLite::SQLite3
                      Threads::Threads flopscope_warnings)
