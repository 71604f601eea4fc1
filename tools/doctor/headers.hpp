// cuDNN's headers: where a build would find cudnn_version.h for an installation, and which version
// they declare (CUDNN_MAJOR, CUDNN_MINOR, CUDNN_PATCHLEVEL).
#pragma once

#include "cudnn_names.hpp"

#include <string>
#include <vector>

namespace librednn::doctor {

struct HeaderInfo {
    std::string path;
    Version version;
    bool librednn = false;  // declares LIBREDNN_VERSION_MAJOR
    bool near = false;      // beside the libraries (../include), not a system-wide directory
};

// Reads the version macros from a cudnn_version.h (or, for cuDNN 7 and earlier, cudnn.h).
bool read_header_version(const std::string &path, HeaderInfo *out);

// The headers a build against the libraries in `library_directories` (one directory, maybe spelled
// several ways) would most likely use: its own include directory first (../include and the like),
// then the compilers' and CUDA's default places. Each file once.
std::vector<HeaderInfo> find_headers(const std::vector<std::string> &library_directories, int major,
                                     const std::string &cuda_home);

}  // namespace librednn::doctor
