// Finding and loading the sub-libraries, and saying exactly why one could not be loaded.
#include "shim/loader.hpp"

#include "core/logging.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace librednn::shim {

namespace {

constexpr int kLibraryCount = 6;

struct Loaded {
    std::once_flag once;
    void *handle = nullptr;
    std::string failure;  // why it could not be loaded: every place searched and what each said
};

Loaded g_loaded[kLibraryCount];

std::string own_directory() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&resolve), &info) == 0 || info.dli_fname == nullptr) return "";
    std::string path = info.dli_fname;
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string search_path_description() {
    std::string text = "the dynamic loader's search path (";
    const char *ld_path = std::getenv("LD_LIBRARY_PATH");
    text += "LD_LIBRARY_PATH=";
    text += (ld_path && *ld_path) ? ld_path : "(unset)";
    text += ", /etc/ld.so.cache, /lib, /usr/lib and their multiarch directories)";
    return text;
}

void load(Library library, Loaded *loaded) {
    const std::string file = library_file(library);
    const int flags = RTLD_NOW | RTLD_LOCAL;
    std::string tried;
    const std::string dir = own_directory();
    if (!dir.empty()) {
        const std::string path = dir + "/" + file;
        loaded->handle = dlopen(path.c_str(), flags);
        if (loaded->handle != nullptr) return;
        const char *error = dlerror();
        tried += "\n    " + path + ": " + (error ? error : "unknown error");
    }
    loaded->handle = dlopen(file.c_str(), flags);
    if (loaded->handle != nullptr) return;
    const char *error = dlerror();
    tried += "\n    " + search_path_description() + ": " + (error ? error : "unknown error");
    loaded->failure = file + " could not be loaded; searched:" + tried;
}

// The shim's log lines follow the callback the application set (through the shim, into ops_infer);
// without a loadable ops_infer they follow the environment (CUDNN_LOG*_DBG, CUDNN_LOGDEST_DBG).
CallbackState callback_from_ops_infer() {
    using GetCallback = cudnnStatus_t (*)(unsigned *, void **, cudnnCallback_t *);
    const auto get = reinterpret_cast<GetCallback>(resolve(Library::ops_infer, "cudnnGetCallback"));
    CallbackState state;
    if (get != nullptr && get(&state.mask, &state.udata, &state.fn) == CUDNN_STATUS_SUCCESS) return state;
    state = CallbackState{};
    state.mask = environment_log_mask();
    return state;
}

const bool kCallbackSourceSet = [] {
    set_callback_source(&callback_from_ops_infer);
    return true;
}();

}  // namespace

const char *library_file(Library library) {
    switch (library) {
        case Library::ops_infer: return "libcudnn_ops_infer.so.8";
        case Library::ops_train: return "libcudnn_ops_train.so.8";
        case Library::cnn_infer: return "libcudnn_cnn_infer.so.8";
        case Library::cnn_train: return "libcudnn_cnn_train.so.8";
        case Library::adv_infer: return "libcudnn_adv_infer.so.8";
        case Library::adv_train: return "libcudnn_adv_train.so.8";
    }
    return "?";
}

void *resolve(Library library, const char *symbol) {
    Loaded &loaded = g_loaded[static_cast<int>(library)];
    std::call_once(loaded.once, [&] { load(library, &loaded); });
    if (loaded.handle == nullptr) return nullptr;
    return dlsym(loaded.handle, symbol);
}

void report_missing(Library library, const char *function) {
    Loaded &loaded = g_loaded[static_cast<int>(library)];
    std::string reason = loaded.failure.empty()
                             ? std::string(library_file(library)) + " was loaded but does not export " + function
                             : loaded.failure;
    LogContext context;
    context.status = CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING;
    log_message(CUDNN_SEV_ERROR,
                std::string("LibreDNN (v") + std::to_string(CUDNN_VERSION) + ") function " + function +
                    "() failed: CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING: " + reason,
                context);
}

}  // namespace librednn::shim
