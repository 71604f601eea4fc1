// Loading cuFFT with dlopen on first use (cufft.hpp).
#include "cuda/common/cufft.hpp"

#include "core/logging.hpp"

#include <dlfcn.h>

#include <mutex>

namespace librednn::cuda {

namespace {

struct LoadedCufft {
    std::once_flag once;
    CufftApi api{};
    bool ok = false;
    std::string failure;
};

template <class Function>
bool look_up(void *library, const char *symbol, Function *function, std::string *failure) {
    *function = reinterpret_cast<Function>(dlsym(library, symbol));
    if (*function == nullptr) *failure += std::string(" no ") + symbol + ";";
    return *function != nullptr;
}

void load(LoadedCufft *loaded) {
    // The soname of CUDA 12's cuFFT, then CUDA 11's, then whatever the development link names.
    for (const char *name : {"libcufft.so.12", "libcufft.so.11", "libcufft.so"}) {
        // Never closed: a function-local static outlives every plan, and unloading at exit would race
        // the other static destructors that may still hold plans.
        void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            const char *error = dlerror();
            loaded->failure += std::string(" ") + name + ": " + (error ? error : "not found") + ";";
            continue;
        }
        std::string missing;
        CufftApi &a = loaded->api;
        bool all = look_up(library, "cufftCreate", &a.create, &missing);
        all = look_up(library, "cufftSetAutoAllocation", &a.set_auto_allocation, &missing) && all;
        all = look_up(library, "cufftMakePlanMany", &a.make_plan_many, &missing) && all;
        all = look_up(library, "cufftSetWorkArea", &a.set_work_area, &missing) && all;
        all = look_up(library, "cufftSetStream", &a.set_stream, &missing) && all;
        all = look_up(library, "cufftExecC2C", &a.exec_c2c, &missing) && all;
        all = look_up(library, "cufftExecZ2Z", &a.exec_z2z, &missing) && all;
        all = look_up(library, "cufftDestroy", &a.destroy, &missing) && all;
        if (all) {
            loaded->ok = true;
            log_message(CUDNN_SEV_INFO, std::string("LibreDNN loaded cuFFT from ") + name);
            return;
        }
        loaded->failure += std::string(" ") + name + ":" + missing;
        dlclose(library);
    }
    log_message(CUDNN_SEV_WARNING, "LibreDNN could not load cuFFT (libcufft.so.*):" + loaded->failure +
                                       " the FFT convolution algorithms are unavailable on the GPU");
}

}  // namespace

const CufftApi *cufft_api(std::string *why) {
    static LoadedCufft loaded;
    std::call_once(loaded.once, load, &loaded);
    if (!loaded.ok && why != nullptr) *why = loaded.failure;
    return loaded.ok ? &loaded.api : nullptr;
}

CufftPlan::~CufftPlan() {
    if (created_) api_->destroy(handle_);
}

bool CufftPlan::make(const CufftApi &api, int dims, const long long *sizes, int batch, bool in_double,
                     size_t *work_bytes) {
    api_ = &api;
    if (!created_) {
        if (api.create(&handle_) != kCufftSuccess) return false;
        created_ = true;
    }
    int n[3] = {1, 1, 1};
    int points = 1;
    for (int d = 0; d < dims; ++d) {
        n[d] = static_cast<int>(sizes[d]);
        points *= n[d];
    }
    if (api.set_auto_allocation(handle_, 0) != kCufftSuccess) return false;
    *work_bytes = 0;
    return api.make_plan_many(handle_, dims, n, nullptr, 1, points, nullptr, 1, points,
                              in_double ? kCufftZ2Z : kCufftC2C, batch, work_bytes) == kCufftSuccess;
}

}  // namespace librednn::cuda
