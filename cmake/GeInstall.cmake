# cmake --install: the four tools, every layer's static library and public
# headers, and a CMake package: find_package(ge) gives ge::ge (everything:
# parse, compile, .om, load, run, tools, with the backends compiled in) and
# ge::<layer> for a narrower use. Tested by tests/install (a consumer project
# built against an installed tree).
include(CMakePackageConfigHelpers)

get_property(GE_LAYERS GLOBAL PROPERTY GE_LAYER_TARGETS)
get_property(GE_HEADER_DIRS GLOBAL PROPERTY GE_PUBLIC_HEADER_DIRS)

install(TARGETS ${GE_LAYERS} ge_proto_om ge_proto_tf ge_proto_aipp ge_proto_log ge_backends ge
        EXPORT geTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(dir ${GE_HEADER_DIRS})
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(TARGETS ge-atc ge-run ge-lint ge-dump RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink ge-run
                                \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/msame)")

set(GE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ge)
install(EXPORT geTargets NAMESPACE ge:: DESTINATION ${GE_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/geConfig.cmake.in ${PROJECT_BINARY_DIR}/geConfig.cmake
                              INSTALL_DESTINATION ${GE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/geConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/geConfig.cmake ${PROJECT_BINARY_DIR}/geConfigVersion.cmake DESTINATION ${GE_CMAKE_DIR})
