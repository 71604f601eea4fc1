// cuDNN library sets, file names and version numbers.
#include "cudnn_names.hpp"

#include <cctype>
#include <cstdlib>

namespace librednn::doctor {

std::string Version::text() const {
    if (!known()) return "unknown";
    std::string text = std::to_string(major);
    if (minor >= 0) text += "." + std::to_string(minor);
    if (patch >= 0) text += "." + std::to_string(patch);
    return text;
}

bool Version::compatible_with(const Version &other) const {
    if (!known() || !other.known()) return true;
    if (major != other.major) return false;
    if (minor >= 0 && other.minor >= 0 && minor != other.minor) return false;
    if (patch >= 0 && other.patch >= 0 && patch != other.patch) return false;
    return true;
}

Version parse_version(const std::string &text) {
    Version version;
    int parts[3] = {-1, -1, -1};
    size_t at = 0;
    for (int i = 0; i < 3 && at < text.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(text[at]))) return Version{};
        size_t end = at;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
        if (end - at > 6) return Version{};
        parts[i] = std::atoi(text.substr(at, end - at).c_str());
        at = end;
        if (at < text.size()) {
            if (text[at] != '.') return Version{};
            ++at;
        }
    }
    version.major = parts[0];
    version.minor = parts[1];
    version.patch = parts[2];
    return version;
}

Version decode_cudnn_version(long long number) {
    Version version;
    if (number <= 0) return version;
    // cuDNN 9 changed the encoding: 91900 is 9.19.0, while 8907 is 8.9.7.
    const long long major_unit = number >= 10000 ? 10000 : 1000;
    version.major = static_cast<int>(number / major_unit);
    version.minor = static_cast<int>(number % major_unit / 100);
    version.patch = static_cast<int>(number % 100);
    return version;
}

Version decode_cuda_version(long long number) {
    Version version;
    if (number <= 0) return version;
    version.major = static_cast<int>(number / 1000);
    version.minor = static_cast<int>(number % 1000 / 10);
    return version;
}

bool parse_library_name(const std::string &file_name, LibraryName *out) {
    static const std::string kPrefix = "libcudnn";
    if (file_name.compare(0, kPrefix.size(), kPrefix) != 0) return false;
    const size_t so = file_name.find(".so");
    if (so == std::string::npos || so <= 3) return false;
    const std::string suffix = file_name.substr(so + 3);
    if (!suffix.empty() && suffix[0] != '.') return false;  // "libcudnn.soup"
    LibraryName name;
    name.stem = file_name.substr(3, so - 3);
    for (char c : name.stem) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    }
    name.suffix = suffix;
    if (!suffix.empty()) {
        name.version = parse_version(suffix.substr(1));
        if (!name.version.known()) return false;  // "libcudnn.so.8.bak" is not a library the loader uses
    }
    *out = name;
    return true;
}

const std::vector<std::string> &library_set(int major) {
    static const std::vector<std::string> kLegacy = {"cudnn"};
    static const std::vector<std::string> kEight = {"cudnn",           "cudnn_ops_infer", "cudnn_ops_train",
                                                    "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_adv_infer",
                                                    "cudnn_adv_train"};
    static const std::vector<std::string> kNine = {"cudnn",
                                                   "cudnn_ops",
                                                   "cudnn_cnn",
                                                   "cudnn_adv",
                                                   "cudnn_graph",
                                                   "cudnn_engines_precompiled",
                                                   "cudnn_engines_runtime_compiled",
                                                   "cudnn_heuristic"};
    if (major == 8) return kEight;
    if (major >= 9) return kNine;
    return kLegacy;
}

std::string soname_of(const std::string &stem, int major) { return "lib" + stem + ".so." + std::to_string(major); }

std::string dll_name_of(const std::string &stem, int major) { return stem + "64_" + std::to_string(major) + ".dll"; }

std::string role_of(const std::string &stem) {
    if (stem == "cudnn") return "the entry library that programs link with -lcudnn";
    if (stem == "cudnn_ops_infer") return "the handle, descriptors and inference operations (every program needs it)";
    if (stem == "cudnn_ops_train") return "backward passes of the basic operations and batch-norm training";
    if (stem == "cudnn_cnn_infer") return "convolution forward";
    if (stem == "cudnn_cnn_train") return "convolution backward (training)";
    if (stem == "cudnn_adv_infer") return "RNN and multi-head attention inference";
    if (stem == "cudnn_adv_train") return "RNN and multi-head attention training, CTC loss";
    if (stem == "cudnn_ops") return "the handle, descriptors and the basic operations";
    if (stem == "cudnn_cnn") return "the legacy convolution API";
    if (stem == "cudnn_adv") return "RNN, multi-head attention and CTC loss";
    if (stem == "cudnn_graph") return "the graph (backend) API every other cuDNN 9 library builds on";
    if (stem == "cudnn_engines_precompiled") return "the precompiled engines (most convolution and matmul kernels)";
    if (stem == "cudnn_engines_runtime_compiled") return "the runtime-compiled engines (fused graphs)";
    if (stem == "cudnn_heuristic") return "the heuristics that choose an engine";
    return "part of cuDNN";
}

}  // namespace librednn::doctor
