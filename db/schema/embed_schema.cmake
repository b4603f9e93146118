# Turns db/schema/NNN_name.sql into a C++ source with one string literal per file, in version order, so the
# library carries its schema and migrations. Run as: cmake -DOUT=file.cpp -DSQL_FILES="a.sql;b.sql" -P this
list(SORT SQL_FILES)
set(body "")
set(expected 1)
foreach(file ${SQL_FILES})
  get_filename_component(name ${file} NAME)
  if(NOT name MATCHES "^([0-9][0-9][0-9])_[a-z0-9_]+\\.sql$")
    message(FATAL_ERROR "${file}: schema files are named NNN_name.sql")
  endif()
  math(EXPR version "${CMAKE_MATCH_1}")
  if(NOT version EQUAL expected)
    message(FATAL_ERROR "${file}: expected schema version ${expected} next (versions must be consecutive)")
  endif()
  math(EXPR expected "${expected} + 1")
  file(READ ${file} sql)
  string(FIND "${sql}" ")flopscope_sql\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${file}: contains the raw-string delimiter")
  endif()
  string(APPEND body "    {${version}, \"${name}\", R\"flopscope_sql(${sql})flopscope_sql\"},\n")
endforeach()
set(content "// Generated from db/schema/*.sql by db/schema/embed_schema.cmake. Do not edit.
#include \"db/schema_steps.h\"

namespace flopscope {

std::span<const SchemaStep> schema_steps() {
  static const SchemaStep kSteps[] = {
${body}  };
  return kSteps;
}

}  // namespace flopscope
")
file(WRITE ${OUT}.new "${content}")
file(COPY_FILE ${OUT}.new ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.new)
