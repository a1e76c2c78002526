# `cmake --install` gives find_package(lazuli) with the target lazuli::lazuli
# and the public header <lazuli/lazuli.h>.
include(CMakePackageConfigHelpers)

install(TARGETS lazuli EXPORT lazuliTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Headers keep their module folders under include/lazuli/ so their
# "core/..." includes resolve against include/lazuli.
install(FILES include/lazuli/lazuli.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lazuli)
foreach(module core ir passes lazy autograd)
  install(DIRECTORY ${module}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lazuli/${module}
    FILES_MATCHING PATTERN "*.h")
endforeach()

set(LZ_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/lazuli)
install(EXPORT lazuliTargets NAMESPACE lazuli:: DESTINATION ${LZ_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/lazuliConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/lazuliConfig.cmake INSTALL_DESTINATION ${LZ_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/lazuliConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/lazuliConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/lazuliConfigVersion.cmake DESTINATION ${LZ_CMAKE_DIR})
