# Warnings for the project's own targets. Third-party headers come in as SYSTEM includes.
add_library(flopscope_warnings INTERFACE)
target_compile_options(flopscope_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual
  -Wimplicit-fallthrough)
