# Module layering (shared DESIGN.md, "Modules and who may include whom") as a
# build step: every module library waits for the check, and the check reruns
# whenever a source or header of a module (or of tools/ and bench/) changes,
# so an include in the wrong direction fails the build (the rules:
# cmake/check_layering.cmake).
set(lz_layering_script ${PROJECT_SOURCE_DIR}/cmake/check_layering.cmake)
set(lz_layered_files "")
include(${CMAKE_CURRENT_LIST_DIR}/source_modules.cmake)
foreach(dir ${lz_source_modules})
  file(GLOB_RECURSE files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.h ${PROJECT_SOURCE_DIR}/${dir}/*.cpp)
  list(APPEND lz_layered_files ${files})
endforeach()
set(lz_layering_stamp ${PROJECT_BINARY_DIR}/layering.stamp)
add_custom_command(OUTPUT ${lz_layering_stamp}
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -P ${lz_layering_script}
  COMMAND ${CMAKE_COMMAND} -E touch ${lz_layering_stamp}
  DEPENDS ${lz_layering_script} ${PROJECT_SOURCE_DIR}/cmake/source_modules.cmake ${lz_layered_files}
  COMMENT "Checking module layering")
add_custom_target(lz_layering DEPENDS ${lz_layering_stamp})
