// Opening a cuDNN library, naming its status codes, and telling LibreDNN from NVIDIA's builds.
#include "loader.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstring>
#include <fstream>

namespace librednn::bench {

namespace {

// cuDNN 8 (and LibreDNN, which implements the 8.9 API): one small number per status.
const char *const kStatusNamesV8[] = {
    "CUDNN_STATUS_SUCCESS",
    "CUDNN_STATUS_NOT_INITIALIZED",
    "CUDNN_STATUS_ALLOC_FAILED",
    "CUDNN_STATUS_BAD_PARAM",
    "CUDNN_STATUS_INTERNAL_ERROR",
    "CUDNN_STATUS_INVALID_VALUE",
    "CUDNN_STATUS_ARCH_MISMATCH",
    "CUDNN_STATUS_MAPPING_ERROR",
    "CUDNN_STATUS_EXECUTION_FAILED",
    "CUDNN_STATUS_NOT_SUPPORTED",
    "CUDNN_STATUS_LICENSE_ERROR",
    "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING",
    "CUDNN_STATUS_RUNTIME_IN_PROGRESS",
    "CUDNN_STATUS_RUNTIME_FP_OVERFLOW",
    "CUDNN_STATUS_VERSION_MISMATCH",
};

// cuDNN 9: the thousands say the category, the rest the specific cause.
struct NamedStatus {
    int value;
    const char *name;
};
const NamedStatus kStatusNamesV9[] = {
    {0, "CUDNN_STATUS_SUCCESS"},
    {1001, "CUDNN_STATUS_NOT_INITIALIZED"},
    {1002, "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"},
    {1003, "CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH"},
    {1004, "CUDNN_STATUS_DEPRECATED"},
    {1005, "CUDNN_STATUS_LICENSE_ERROR"},
    {1006, "CUDNN_STATUS_RUNTIME_IN_PROGRESS"},
    {1007, "CUDNN_STATUS_RUNTIME_FP_OVERFLOW"},
    {1008, "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED"},
    {2000, "CUDNN_STATUS_BAD_PARAM"},
    {2001, "CUDNN_STATUS_INVALID_VALUE"},
    {2002, "CUDNN_STATUS_BAD_PARAM_NULL_POINTER"},
    {2003, "CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER"},
    {2004, "CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED"},
    {2005, "CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND"},
    {2006, "CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT"},
    {2007, "CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH"},
    {2008, "CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH"},
    {2009, "CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES"},
    {2010, "CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE"},
    {2011, "CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH"},
    {2012, "CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE"},
    {3000, "CUDNN_STATUS_NOT_SUPPORTED"},
    {3001, "CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN"},
    {3002, "CUDNN_STATUS_NOT_SUPPORTED_SHAPE"},
    {3003, "CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE"},
    {3004, "CUDNN_STATUS_NOT_SUPPORTED_LAYOUT"},
    {3005, "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER"},
    {3006, "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART"},
    {3007, "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH"},
    {3008, "CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING"},
    {3009, "CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE"},
    {3010, "CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT"},
    {3011, "CUDNN_STATUS_NOT_SUPPORTED_PADDING"},
    {3012, "CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM"},
    {3013, "CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API"},
    {3014, "CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE"},
    {4000, "CUDNN_STATUS_INTERNAL_ERROR"},
    {4001, "CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED"},
    {4002, "CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE"},
    {4003, "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED"},
    {4004, "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED"},
    {4005, "CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM"},
    {4006, "CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED"},
    {5000, "CUDNN_STATUS_EXECUTION_FAILED"},
    {5001, "CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER"},
    {5002, "CUDNN_STATUS_EXECUTION_FAILED_CUBLAS"},
    {5003, "CUDNN_STATUS_EXECUTION_FAILED_CUDART"},
    {5004, "CUDNN_STATUS_EXECUTION_FAILED_CURAND"},
};

const char *const kCategoryNamesV9[] = {"",
                                        "CUDNN_STATUS_NOT_INITIALIZED",
                                        "CUDNN_STATUS_BAD_PARAM",
                                        "CUDNN_STATUS_NOT_SUPPORTED",
                                        "CUDNN_STATUS_INTERNAL_ERROR",
                                        "CUDNN_STATUS_EXECUTION_FAILED"};

// The sub-library loaders of each major version: each loads its sub-library and checks its version.
const char *const kVersionChecks[] = {
    "cudnnOpsInferVersionCheck", "cudnnOpsTrainVersionCheck", "cudnnCnnInferVersionCheck",
    "cudnnCnnTrainVersionCheck", "cudnnAdvInferVersionCheck", "cudnnAdvTrainVersionCheck",  // cuDNN 8
    "cudnnGraphVersionCheck",    "cudnnOpsVersionCheck",      "cudnnCnnVersionCheck",
    "cudnnAdvVersionCheck",  // cuDNN 9
};

// LibreDNN's libraries carry its name in their log strings and a build-id marker; NVIDIA's do not.
bool file_mentions_librednn(const std::string &file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    const std::string needle = "LibreDNN";
    std::string window;
    char chunk[1 << 16];
    size_t total = 0;
    while (in && total < (size_t(256) << 20)) {
        in.read(chunk, sizeof chunk);
        const std::streamsize got = in.gcount();
        if (got <= 0) break;
        total += static_cast<size_t>(got);
        window += std::string(chunk, static_cast<size_t>(got));
        if (window.find(needle) != std::string::npos) return true;
        window.erase(0, window.size() - (needle.size() - 1));
    }
    return false;
}

}  // namespace

int major_of_version(long version) {
    if (version >= 10000) return static_cast<int>(version / 10000);  // 9.x.y: 90000 + minor * 100 + patch
    return static_cast<int>(version / 1000);                         // 8.x.y: 8000 + minor * 100 + patch
}

std::string status_name(int status, int major_version) {
    if (major_version >= 9) {
        for (const NamedStatus &named : kStatusNamesV9)
            if (named.value == status) return named.name;
        const int category = status / 1000;
        if (category >= 1 && category <= 5)
            return std::string(kCategoryNamesV9[category]) + " family (" + std::to_string(status) + ")";
    } else if (status >= 0 && status < static_cast<int>(sizeof kStatusNamesV8 / sizeof kStatusNamesV8[0])) {
        return kStatusNamesV8[status];
    }
    return "unknown status " + std::to_string(status);
}

StatusClass status_class(int status, int major_version) {
    if (status == 0) return StatusClass::success;
    if (major_version >= 9) {
        switch (status / 1000) {
            case 2: return StatusClass::bad_param;
            case 3: return StatusClass::not_supported;
            default: return StatusClass::other;
        }
    }
    switch (status) {
        case 3:  // BAD_PARAM
        case 5:  // INVALID_VALUE
            return StatusClass::bad_param;
        case 6:  // ARCH_MISMATCH: this GPU is not one the library supports
        case 9:  // NOT_SUPPORTED
            return StatusClass::not_supported;
        default: return StatusClass::other;
    }
}

std::unique_ptr<Library> Library::open(const std::string &path, std::string *error) {
    // RTLD_LOCAL: two libraries exporting the same names (LibreDNN beside NVIDIA's cuDNN) stay apart.
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char *reason = dlerror();
        *error = "cannot load " + path + ": " + (reason ? reason : "unknown reason");
        return nullptr;
    }
    std::unique_ptr<Library> library(new Library());
    library->handle_ = handle;
    library->path_ = path;
    link_map *map = nullptr;
    library->file_ = (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) ? map->l_name : path;
#define LIBREDNN_BENCH_RESOLVE(name) \
    library->api_.name = reinterpret_cast<decltype(library->api_.name)>(dlsym(handle, #name));
    LIBREDNN_BENCH_CUDNN_FUNCTIONS(LIBREDNN_BENCH_RESOLVE)
#undef LIBREDNN_BENCH_RESOLVE
    if (library->api_.cudnnGetVersion == nullptr) {
        *error = path + " is not a cuDNN library: it has no cudnnGetVersion";
        return nullptr;
    }
    library->version_ = static_cast<long>(library->api_.cudnnGetVersion());
    library->is_librednn_ = file_mentions_librednn(library->file_);
    // LibreDNN logs the reason for each failure; the bench shows it beside the status. (NVIDIA's
    // error log is multi-line internal detail, so it is left to the user's CUDNN_LOGERR_DBG.)
    if (library->is_librednn_ && library->api_.cudnnSetCallback)
        library->api_.cudnnSetCallback(1u << CUDNN_SEV_ERROR, library.get(), &Library::receive_log);
    return library;
}

Library::~Library() {
    if (is_librednn_ && api_.cudnnSetCallback) api_.cudnnSetCallback(0, nullptr, nullptr);
    // The library stays loaded: cuDNN builds register exit handlers and CUDA resources that must not
    // outlive their code, so unloading before the process ends is unsafe.
}

void Library::receive_log(cudnnSeverity_t severity, void *self, const cudnnDebug_t *, const char *message) {
    if (severity > CUDNN_SEV_ERROR || message == nullptr) return;
    // LibreDNN writes "... failed: CUDNN_STATUS_X: reason"; keep the reason's first line.
    std::string text = message;
    const size_t status_at = text.rfind("CUDNN_STATUS_");
    if (status_at != std::string::npos) {
        const size_t colon = text.find(": ", status_at);
        if (colon != std::string::npos) text = text.substr(colon + 2);
    }
    const size_t newline = text.find('\n');
    if (newline != std::string::npos) text.resize(newline);
    static_cast<Library *>(self)->last_error_ = text;
}

std::string Library::describe() const {
    const int major = major_version();
    const long minor = major >= 9 ? (version_ / 100) % 100 : (version_ / 100) % 10;
    const long patch = version_ % 100;
    const std::string numbers = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
    const std::string who = is_librednn_ ? "LibreDNN (cuDNN API " + numbers + ")" : "NVIDIA cuDNN " + numbers;
    return who + " at " + file_;
}

std::vector<std::string> Library::load_sub_libraries() const {
    std::vector<std::string> warnings;
    for (const char *name : kVersionChecks) {
        auto check = reinterpret_cast<cudnnStatus_t (*)(void)>(dlsym(handle_, name));
        if (check == nullptr) continue;
        const int status = static_cast<int>(check());
        if (status != 0) warnings.push_back(std::string(name) + " returned " + status_name(status, major_version()));
    }
    return warnings;
}

Outcome Library::outcome_of(const char *function, int status) const {
    const StatusClass kind = status_class(status, major_version());
    if (kind == StatusClass::success) return Outcome::success();
    std::string text = std::string(function) + " returned " + status_name(status, major_version());
    if (!last_error_.empty()) text += " (" + last_error_ + ")";
    last_error_.clear();
    if (kind == StatusClass::not_supported) return Outcome::unsupported("not supported: " + text);
    return Outcome::failed(text);
}

}  // namespace librednn::bench
