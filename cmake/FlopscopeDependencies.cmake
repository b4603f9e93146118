# Required and optional dependencies. Optional parts are chosen here (which sources are built), never by
# #ifdef inside .cpp files.
find_package(SQLite3 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(ZLIB REQUIRED)
find_package(simdjson QUIET)
find_package(Threads REQUIRED)
# pkg-config is optional: the GPU device build (scripts/gpu-bundle.sh) has none.
find_package(PkgConfig QUIET)
# RE2: `diff --map` patterns run in linear time and bounded stack whatever the module path (std::regex
# recursed per character and overflowed the stack on a 50 KB path). Found by path, not pkg-config, so the
# device bundle's prefix serves too.
find_path(RE2_INCLUDE_DIR re2/re2.h REQUIRED)
find_library(RE2_LIBRARY re2 REQUIRED)
add_library(PkgConfig::RE2 UNKNOWN IMPORTED)
set_target_properties(PkgConfig::RE2 PROPERTIES IMPORTED_LOCATION ${RE2_LIBRARY}
                      INTERFACE_INCLUDE_DIRECTORIES ${RE2_INCLUDE_DIR})

set(FLOPSCOPE_HAVE_TORCH OFF)
if(FLOPSCOPE_WITH_TORCH)
  find_package(Torch QUIET)
  if(Torch_FOUND)
    set(FLOPSCOPE_HAVE_TORCH ON)
    # Debian's LibTorch is built with NDEBUG, and at::RecordFunction's layout depends on it: every TU
    # that includes LibTorch must see NDEBUG too, whatever the build type.
    add_library(flopscope_torch INTERFACE)
    target_link_libraries(flopscope_torch INTERFACE ${TORCH_LIBRARIES})
    target_include_directories(flopscope_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
    target_compile_definitions(flopscope_torch INTERFACE NDEBUG)
  endif()
endif()

set(FLOPSCOPE_HAVE_CUPTI OFF)
if(FLOPSCOPE_WITH_CUPTI)
  if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
    set(CUDAToolkit_ROOT /usr/local/cuda)
  endif()
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    # NVTX 3 is header-only and ships with the toolkit; the collector reads NVTX ranges through it.
    find_path(FLOPSCOPE_NVTX3_INCLUDE_DIR nvtx3/nvToolsExt.h HINTS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
  endif()
  if(CUDAToolkit_FOUND AND TARGET CUDA::cupti AND FLOPSCOPE_NVTX3_INCLUDE_DIR)
    set(FLOPSCOPE_HAVE_CUPTI ON)
    add_library(flopscope_nvtx3 INTERFACE)
    target_include_directories(flopscope_nvtx3 SYSTEM INTERFACE ${FLOPSCOPE_NVTX3_INCLUDE_DIR})
  elseif(CUDAToolkit_FOUND)
    message(STATUS "CUDA toolkit found without CUPTI or nvtx3/nvToolsExt.h: no GPU collector")
  endif()
endif()

set(FLOPSCOPE_HAVE_QT OFF)
if(FLOPSCOPE_WITH_QT)
  find_package(Qt6 QUIET COMPONENTS Core Gui Widgets Svg Test Concurrent)
  if(Qt6_FOUND)
    set(FLOPSCOPE_HAVE_QT ON)
  endif()
endif()

set(FLOPSCOPE_HAVE_GRAPHVIZ OFF)
if(FLOPSCOPE_WITH_GRAPHVIZ)
  if(PkgConfig_FOUND)
    pkg_check_modules(GRAPHVIZ QUIET IMPORTED_TARGET libgvc libcgraph)
  endif()
  if(GRAPHVIZ_FOUND)
    set(FLOPSCOPE_HAVE_GRAPHVIZ ON)
  endif()
endif()

# The fleet store (PostgreSQL client library) and the Prometheus exporter's HTTP server.
set(FLOPSCOPE_HAVE_PQ OFF)
set(FLOPSCOPE_HAVE_HTTPLIB OFF)
if(PkgConfig_FOUND)
  pkg_check_modules(LIBPQ QUIET IMPORTED_TARGET libpq)
  set(FLOPSCOPE_HAVE_PQ ${LIBPQ_FOUND})
  pkg_check_modules(HTTPLIB QUIET IMPORTED_TARGET cpp-httplib)
  set(FLOPSCOPE_HAVE_HTTPLIB ${HTTPLIB_FOUND})
endif()

# Python with torch (Debian's python3-torch), used to generate the sample models and test models.
set(FLOPSCOPE_SAMPLE_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with torch, used to generate sample models")
set(FLOPSCOPE_SAMPLES_DIR ${PROJECT_BINARY_DIR}/samples CACHE INTERNAL "Where the sample models are generated")

find_package(GTest QUIET)
find_package(benchmark QUIET)

function(flopscope_print_feature_summary)
  message(STATUS "flopscope ${PROJECT_VERSION} optional parts:")
  foreach(part TORCH CUPTI QT GRAPHVIZ PQ HTTPLIB)
    if(FLOPSCOPE_HAVE_${part})
      message(STATUS "  ${part}: yes")
    else()
      message(STATUS "  ${part}: no  (not found or disabled: FLOPSCOPE_WITH_${part})")
    endif()
  endforeach()
endfunction()
