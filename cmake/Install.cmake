# `cmake --install` in NVIDIA's tarball layout: include/cudnn*.h and lib/ with the soname symlinks
# (libcudnn_ops_infer.so -> .so.8 -> .so.8.9.7), libcudnn_static.a, a pkg-config file and a CMake
# package (find_package(LibreDNN) gives LibreDNN::cudnn and one target per sub-library).
set(LIBREDNN_INSTALL_LIBDIR lib)
install(TARGETS cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train
  LIBRARY DESTINATION ${LIBREDNN_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
  RUNTIME DESTINATION bin)
install(TARGETS cudnn_static ARCHIVE DESTINATION ${LIBREDNN_INSTALL_LIBDIR})
file(GLOB public_headers ${PROJECT_SOURCE_DIR}/include/cudnn*.h)
install(FILES ${public_headers} DESTINATION include)
install(FILES ${PROJECT_SOURCE_DIR}/include/librednn/librednn.h DESTINATION include/librednn)

configure_file(${PROJECT_SOURCE_DIR}/cmake/cudnn.pc.in ${CMAKE_BINARY_DIR}/cudnn.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cudnn.pc DESTINATION ${LIBREDNN_INSTALL_LIBDIR}/pkgconfig)

include(CMakePackageConfigHelpers)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/LibreDNNConfigVersion.cmake
  VERSION 8.9.7 COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/LibreDNNConfig.cmake ${CMAKE_BINARY_DIR}/LibreDNNConfigVersion.cmake
  DESTINATION ${LIBREDNN_INSTALL_LIBDIR}/cmake/LibreDNN)
