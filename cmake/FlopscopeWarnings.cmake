# Warnings for the project's own targets. Third-party headers come in as SYSTEM includes.
# FLOPSCOPE_WERROR (the ci preset) turns them into errors, so a warning fails CI instead of piling up.
option(FLOPSCOPE_WERROR "Treat warnings in the project's own code as errors" OFF)
add_library(flopscope_warnings INTERFACE)
target_compile_options(flopscope_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual
  -Wimplicit-fallthrough $<$<BOOL:${FLOPSCOPE_WERROR}>:-Werror>)
