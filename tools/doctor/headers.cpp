// Finding cudnn_version.h near an installation and in the default include directories.
#include "headers.hpp"

#include "discovery.hpp"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace librednn::doctor {

bool read_header_version(const std::string &path, HeaderInfo *out) {
    std::ifstream in(path);
    if (!in) return false;
    HeaderInfo info;
    info.path = path;
    std::string line;
    int lines = 0;
    while (std::getline(in, line) && ++lines < 5000) {
        std::istringstream words(line);
        std::string directive, name, value;
        words >> directive >> name >> value;
        if (directive != "#define") continue;
        auto number = [&](int *into) {
            if (!value.empty() && std::isdigit(static_cast<unsigned char>(value[0]))) *into = std::atoi(value.c_str());
        };
        if (name == "CUDNN_MAJOR") number(&info.version.major);
        if (name == "CUDNN_MINOR") number(&info.version.minor);
        if (name == "CUDNN_PATCHLEVEL") number(&info.version.patch);
        if (name == "LIBREDNN_VERSION_MAJOR") info.librednn = true;
    }
    if (!info.version.known()) return false;
    *out = info;
    return true;
}

std::vector<HeaderInfo> find_headers(const std::vector<std::string> &library_directories, int major,
                                     const std::string &cuda_home) {
    // Near: the include directory of the same prefix. lib/, lib64/, lib/x86_64-linux-gnu/ (one or two
    // levels below the prefix) and pip's nvidia/cudnn/lib all put it at ../include or ../../include.
    std::vector<std::pair<std::string, bool>> directories;
    for (const std::string &library_directory : library_directories) {
        directories.push_back({library_directory + "/../include", true});
        directories.push_back({library_directory + "/../../include", true});
    }
    if (!cuda_home.empty()) directories.push_back({cuda_home + "/include", false});
    for (const char *dir : {"/usr/local/cuda/include", "/usr/include", "/usr/include/x86_64-linux-gnu",
                            "/usr/include/aarch64-linux-gnu", "/usr/local/include"}) {
        directories.push_back({dir, false});
    }
    // Debian's cuDNN 9 packages install cudnn_version_v9.h and point cudnn_version.h at it.
    const std::vector<std::string> names = {"cudnn_version.h", "cudnn_version_v" + std::to_string(major) + ".h",
                                            "cudnn.h"};
    std::vector<HeaderInfo> headers;
    std::set<std::string> seen;
    for (const auto &[directory, near] : directories) {
        for (const std::string &name : names) {
            const std::string path = directory + "/" + name;
            const std::string real = real_path(path);
            if (real.empty() || seen.count(real)) continue;
            HeaderInfo info;
            if (!read_header_version(path, &info)) continue;
            seen.insert(real);
            info.path = real;
            info.near = near;
            headers.push_back(info);
            break;  // one header per directory: the first name that declares a version
        }
    }
    return headers;
}

}  // namespace librednn::doctor
