// What a cuDNN installation consists of: the library sets of cuDNN 7, 8 and 9 on Linux and Windows,
// file-name parsing ("libcudnn_ops_infer.so.8.9.7") and version numbers in their several spellings.
#pragma once

#include <string>
#include <vector>

namespace librednn::doctor {

struct Version {
    int major = -1, minor = -1, patch = -1;  // -1: not known

    bool known() const { return major >= 0; }
    std::string text() const;  // "8.9.7", "9", "unknown"
    // Equal in every part both sides know ("9" matches "9.19.0").
    bool compatible_with(const Version &other) const;
    bool operator==(const Version &other) const {
        return major == other.major && minor == other.minor && patch == other.patch;
    }
};

// "8.9.7" or "9"; unknown on anything else.
Version parse_version(const std::string &text);
// cudnnGetVersion()'s number: 8907 -> 8.9.7 (cuDNN 8 and earlier: major*1000 + minor*100 + patch),
// 91900 -> 9.19.0 (cuDNN 9: major*10000 + minor*100 + patch).
Version decode_cudnn_version(long long number);
// cudaRuntimeGetVersion / cuDriverGetVersion / cudnnGetCudartVersion: 12040 -> 12.4.
Version decode_cuda_version(long long number);

// "libcudnn_ops_infer.so.8.9.7" -> stem "cudnn_ops_infer", version "8.9.7".
struct LibraryName {
    std::string stem;    // without "lib" and ".so...": "cudnn", "cudnn_cnn_infer"
    std::string suffix;  // what follows ".so": "", ".8", ".8.9.7"
    Version version;     // from the suffix; unknown for the development link "libcudnn.so"
};

// True for a cuDNN shared library file name ("libcudnn*.so" optionally followed by a version).
bool parse_library_name(const std::string &file_name, LibraryName *out);

// The stems of a complete set for `major` (7 and earlier: just "cudnn").
const std::vector<std::string> &library_set(int major);
// "libcudnn_ops_infer.so.8".
std::string soname_of(const std::string &stem, int major);
// What a program loses without this library: "convolutions (inference)", "everything (the entry library)".
std::string role_of(const std::string &stem);

// Windows: "cudnn_ops_infer64_8.dll" for stem "cudnn_ops_infer", major 8.
std::string dll_name_of(const std::string &stem, int major);

}  // namespace librednn::doctor
