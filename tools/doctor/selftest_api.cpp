// Looking up the self-test's cuDNN functions in a library opened by path.
#include "selftest_api.hpp"

#include <dlfcn.h>

namespace librednn::doctor {

bool CudnnApi::open(const std::string &path, std::string *error) {
    library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        const char *why = ::dlerror();
        *error = why ? why : "dlopen failed";
        return false;
    }
#define LIBREDNN_DOCTOR_LOOKUP(name) name = reinterpret_cast<decltype(name)>(::dlsym(library, #name));
    LIBREDNN_DOCTOR_FUNCTIONS(LIBREDNN_DOCTOR_LOOKUP)
#undef LIBREDNN_DOCTOR_LOOKUP
    if (cudnnGetVersion == nullptr) {
        *error = path + " does not export cudnnGetVersion: it is not cuDNN's entry library";
        return false;
    }
    const size_t version = cudnnGetVersion();
    major = static_cast<int>(version >= 10000 ? version / 10000 : version / 1000);
    return true;
}

bool CudnnApi::not_supported(cudnnStatus_t status) const {
    const int code = static_cast<int>(status);
    return major >= 9 ? code / 1000 == 3 : code == CUDNN_STATUS_NOT_SUPPORTED;
}

std::string CudnnApi::describe(cudnnStatus_t status) const {
    const char *name = cudnnGetErrorString ? cudnnGetErrorString(status) : nullptr;
    return std::string(name ? name : "status") + " (" + std::to_string(static_cast<int>(status)) + ")";
}

}  // namespace librednn::doctor
