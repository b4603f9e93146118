# What `cmake --install` and `cpack` ship: man pages made from the binaries' --help (help2man), bash
# completion, and a Debian package (flopscope_VERSION_ARCH.deb) of the CLI, GUI, LibTorch plugin, CUPTI
# injection library and Python companion. Dependencies come from dpkg-shlibdeps; CUDA's own libraries are
# not Debian packages, so the package leaves them to the machine (the GPU collector needs CUDA there).
include(GNUInstallDirs)

find_program(FLOPSCOPE_HELP2MAN help2man)
if(FLOPSCOPE_HELP2MAN)
  set(man_dir ${PROJECT_BINARY_DIR}/man)
  set(man_args $<TARGET_FILE:flopscope>)
  if(TARGET flopscope-gui)
    list(APPEND man_args $<TARGET_FILE:flopscope-gui>)
  endif()
  add_custom_command(
    OUTPUT ${man_dir}/flopscope.1.gz
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${man_dir}
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/man-pages.sh ${man_args} ${man_dir}
    DEPENDS flopscope ${PROJECT_SOURCE_DIR}/scripts/man-pages.sh
    COMMENT "Man pages from --help (help2man)"
    VERBATIM)
  add_custom_target(flopscope_man ALL DEPENDS ${man_dir}/flopscope.1.gz)
  if(TARGET flopscope-gui)
    add_dependencies(flopscope_man flopscope-gui)
  endif()
  install(DIRECTORY ${man_dir}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1.gz")
else()
  message(STATUS "help2man not found: no man pages (apt install help2man)")
endif()
install(FILES ${PROJECT_SOURCE_DIR}/cli/completion/flopscope.bash DESTINATION share/bash-completion/completions
        RENAME flopscope)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME flopscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "flopscope developers <flopscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "per-module FLOPs, bytes and time for deep-learning inference, and diffs of model versions")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # flopscope_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)  # debug info stays in the build tree
# libcupti and libnvperf come with the CUDA toolkit, not from a Debian package: dpkg-shlibdeps skips them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR} /usr/local/cuda/lib64
    /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/targets/x86_64-linux/lib)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, graphviz")
include(CPack)
