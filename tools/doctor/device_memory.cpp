// Host memory and driver-API GPU memory for the self-test (see device_memory.hpp).
#include "device_memory.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace librednn::doctor {
namespace {

class HostMemory : public Memory {
public:
    bool device() const override { return false; }
    void *allocate(size_t bytes) override { return std::malloc(bytes ? bytes : 1); }
    void release(void *pointer) override { std::free(pointer); }
    bool upload(void *destination, const void *source, size_t bytes) override {
        std::memcpy(destination, source, bytes);
        return true;
    }
    bool download(void *destination, const void *source, size_t bytes) override {
        std::memcpy(destination, source, bytes);
        return true;
    }
    bool synchronize() override { return true; }
};

// The driver API as it is on every platform the driver supports: CUresult is an int, CUdeviceptr
// an unsigned 64-bit integer, CUcontext and CUdevice an opaque pointer and an int.
using CUdeviceptr = unsigned long long;
using CuInit = int (*)(unsigned);
using CuDeviceGet = int (*)(int *, int);
using CuPrimaryCtxRetain = int (*)(void **, int);
using CuCtxSetCurrent = int (*)(void *);
using CuCtxSynchronize = int (*)();
using CuMemAlloc = int (*)(CUdeviceptr *, size_t);
using CuMemFree = int (*)(CUdeviceptr);
using CuMemcpyHtoD = int (*)(CUdeviceptr, const void *, size_t);
using CuMemcpyDtoH = int (*)(void *, CUdeviceptr, size_t);

class GpuMemory : public Memory {
public:
    bool open(std::string *error) {
        driver_ = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (driver_ == nullptr) {
            *error = "no NVIDIA driver (libcuda.so.1 does not load)";
            return false;
        }
        auto init = symbol<CuInit>("cuInit");
        auto device_get = symbol<CuDeviceGet>("cuDeviceGet");
        auto retain = symbol<CuPrimaryCtxRetain>("cuDevicePrimaryCtxRetain");
        auto set_current = symbol<CuCtxSetCurrent>("cuCtxSetCurrent");
        synchronize_ = symbol<CuCtxSynchronize>("cuCtxSynchronize");
        alloc_ = symbol<CuMemAlloc>("cuMemAlloc_v2");
        free_ = symbol<CuMemFree>("cuMemFree_v2");
        to_device_ = symbol<CuMemcpyHtoD>("cuMemcpyHtoD_v2");
        to_host_ = symbol<CuMemcpyDtoH>("cuMemcpyDtoH_v2");
        if (!init || !device_get || !retain || !set_current || !synchronize_ || !alloc_ || !free_ || !to_device_ ||
            !to_host_) {
            *error = "libcuda.so.1 lacks driver API functions the self-test needs";
            return false;
        }
        int device = 0;
        void *context = nullptr;
        int result = init(0);
        if (result == 0) result = device_get(&device, 0);
        if (result == 0) result = retain(&context, device);
        if (result == 0) result = set_current(context);
        if (result != 0) {
            *error = "the driver cannot start GPU 0 (CUresult " + std::to_string(result) + ")";
            return false;
        }
        return true;
    }
    bool device() const override { return true; }
    void *allocate(size_t bytes) override {
        CUdeviceptr pointer = 0;
        if (alloc_(&pointer, bytes ? bytes : 1) != 0) return nullptr;
        return reinterpret_cast<void *>(static_cast<uintptr_t>(pointer));
    }
    void release(void *pointer) override { free_(reinterpret_cast<uintptr_t>(pointer)); }
    bool upload(void *destination, const void *source, size_t bytes) override {
        return to_device_(reinterpret_cast<uintptr_t>(destination), source, bytes) == 0;
    }
    bool download(void *destination, const void *source, size_t bytes) override {
        return to_host_(destination, reinterpret_cast<uintptr_t>(source), bytes) == 0;
    }
    bool synchronize() override { return synchronize_() == 0; }

private:
    template <typename Function>
    Function symbol(const char *name) {
        return reinterpret_cast<Function>(::dlsym(driver_, name));
    }
    void *driver_ = nullptr;  // kept open for the life of the (child) process
    CuCtxSynchronize synchronize_ = nullptr;
    CuMemAlloc alloc_ = nullptr;
    CuMemFree free_ = nullptr;
    CuMemcpyHtoD to_device_ = nullptr;
    CuMemcpyDtoH to_host_ = nullptr;
};

}  // namespace

std::unique_ptr<Memory> host_memory() { return std::make_unique<HostMemory>(); }

std::unique_ptr<Memory> gpu_memory(std::string *error) {
    auto memory = std::make_unique<GpuMemory>();
    if (!memory->open(error)) return nullptr;
    return memory;
}

}  // namespace librednn::doctor
