# ge_add_layer(<target> EXPORT_NAME <name> SOURCES ... [PUBLIC ...] [PRIVATE ...])
#
# One layer of the design (DESIGN.md "Layout"): a static library whose public
# headers are its own include/ folder and nothing else, whose private headers
# are its folder (so a sibling layer cannot reach them), and which links only
# the layers it may use. A file that includes a header of a layer its target
# does not link fails to compile: "No such file or directory".
function(ge_add_layer target)
  cmake_parse_arguments(L "" "EXPORT_NAME" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  add_library(${target} STATIC ${L_SOURCES})
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC ${L_PUBLIC} PRIVATE ${L_PRIVATE})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${L_EXPORT_NAME} POSITION_INDEPENDENT_CODE ON)
  add_library(ge::${L_EXPORT_NAME} ALIAS ${target})
  set_property(GLOBAL APPEND PROPERTY GE_LAYER_TARGETS ${target})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/include)
    set_property(GLOBAL APPEND PROPERTY GE_PUBLIC_HEADER_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/include)
  endif()
endfunction()
