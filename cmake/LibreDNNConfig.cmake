# find_package(LibreDNN): imported targets for an installed LibreDNN.
#   LibreDNN::cudnn            libcudnn.so.8 (all functions; loads the sub-libraries on first use)
#   LibreDNN::cudnn_ops_infer  ... one per sub-library, and LibreDNN::cudnn_static
get_filename_component(_librednn_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
foreach(_librednn_lib cudnn cudnn_ops_infer cudnn_ops_train cudnn_cnn_infer cudnn_cnn_train cudnn_adv_infer cudnn_adv_train)
  if(NOT TARGET LibreDNN::${_librednn_lib})
    add_library(LibreDNN::${_librednn_lib} SHARED IMPORTED)
    set_target_properties(LibreDNN::${_librednn_lib} PROPERTIES
      IMPORTED_LOCATION "${_librednn_prefix}/lib/lib${_librednn_lib}.so.8"
      IMPORTED_SONAME "lib${_librednn_lib}.so.8"
      INTERFACE_INCLUDE_DIRECTORIES "${_librednn_prefix}/include")
  endif()
endforeach()
if(NOT TARGET LibreDNN::cudnn_static)
  add_library(LibreDNN::cudnn_static STATIC IMPORTED)
  set_target_properties(LibreDNN::cudnn_static PROPERTIES
    IMPORTED_LOCATION "${_librednn_prefix}/lib/libcudnn_static.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_librednn_prefix}/include")
endif()
set(LibreDNN_INCLUDE_DIRS "${_librednn_prefix}/include")
set(LibreDNN_LIBRARIES LibreDNN::cudnn)
unset(_librednn_prefix)
unset(_librednn_lib)
