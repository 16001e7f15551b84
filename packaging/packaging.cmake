# Install rules and the Debian package (CPack). Included from the top-level
# CMakeLists.txt after engine/, widgets/, app/ and tests/, so `if(TARGET ...)`
# sees every executable that this configuration defines.
#
#   cmake --build build && (cd build && cpack -G DEB)
include(GNUInstallDirs)

set(_shardscope_installed "")
foreach(_exe shardscope shardscope-opt shardscope-sc)
  if(TARGET ${_exe})
    install(TARGETS ${_exe} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT shardscope)
    list(APPEND _shardscope_installed ${_exe})
  endif()
endforeach()

if(TARGET shardscope)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/shardscope.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT shardscope)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/shardscope.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT shardscope)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${CMAKE_CURRENT_LIST_DIR}/THIRD_PARTY.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/shardscope COMPONENT shardscope)
if(EXISTS ${PROJECT_SOURCE_DIR}/sample_models)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/sample_models/
          DESTINATION ${CMAKE_INSTALL_DATADIR}/shardscope/sample_models COMPONENT shardscope
          FILES_MATCHING PATTERN "*.mlir" PATTERN "*.md" PATTERN "*.json")
endif()
message(STATUS "Shardscope: install() rules for: ${_shardscope_installed}")

# ---- CPack: one .deb ---------------------------------------------------------
set(CPACK_PACKAGE_NAME "shardscope")
set(CPACK_PACKAGE_VENDOR "Shardscope developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "explorer for Shardy sharding propagation and TPU SparseCore")
# Lines of at most 80 columns: CPackDeb indents each for the control file.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "Shardscope reads StableHLO modules with OpenXLA Shardy (sdy) sharding"
  "annotations, runs sharding propagation step by step and shows why each"
  "tensor ends up sharded the way it does. It also models the TPU SparseCore"
  "embedding pipeline (host preprocessing, limits, table stacking, memory)."
  "Contains the Qt GUI (shardscope) and the command-line tools"
  "shardscope-opt and shardscope-sc, as far as the build defines them.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_CONTACT "Shardscope maintainers <maintainers@shardscope.invalid>")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "shardscope")
set(CPACK_STRIP_FILES ON)

set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Depends: computed from the binaries' shared libraries by dpkg-shlibdeps,
# plus what the GUI loads at run time as plugins (not seen by shlibdeps).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(TARGET shardscope)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
endif()
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build.*/" "/out/")
include(CPack)
