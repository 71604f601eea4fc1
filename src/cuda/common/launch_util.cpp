// Device limits cache, grid sizing and launch checks for the tensor kernels.
#include "cuda/common/launch_util.hpp"

#include "core/fault_injection.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace librednn::cuda {

namespace {

struct CachedLimits {
    std::atomic<bool> ready{false};
    DeviceLimits limits;
};
CachedLimits g_cache[kCachedDevices];
std::mutex g_cache_mutex;

DeviceLimits query_limits(int device) {
    DeviceLimits limits;
    int value = 0;
    if (cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, device) == cudaSuccess && value > 0)
        limits.sm_count = value;
    if (cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerMultiProcessor, device) == cudaSuccess && value > 0)
        limits.max_threads_per_sm = value;
    if (cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess && value > 0)
        limits.max_dynamic_shared_bytes = value;
    if (cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && value > 0)
        limits.compute_major = value;
    if (cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess && value >= 0)
        limits.compute_minor = value;
    if (cudaDeviceGetAttribute(&value, cudaDevAttrCooperativeLaunch, device) == cudaSuccess)
        limits.cooperative_launch = value != 0;
    cudaGetLastError();  // a failed query leaves the defaults, not a sticky error
    return limits;
}

}  // namespace

DeviceLimits current_device_limits() {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        return DeviceLimits();
    }
    if (device < 0 || device >= kCachedDevices) return query_limits(device);
    CachedLimits &cached = g_cache[device];
    if (!cached.ready.load(std::memory_order_acquire)) {
        std::lock_guard<std::mutex> lock(g_cache_mutex);
        if (!cached.ready.load(std::memory_order_relaxed)) {
            cached.limits = query_limits(device);
            cached.ready.store(true, std::memory_order_release);
        }
    }
    return cached.limits;
}

bool switched_off(const char *variable) {
    const char *value = std::getenv(variable);
    return value != nullptr && std::strcmp(value, "0") == 0;
}

bool cooperative_launch_fits(const void *kernel, int block_threads, size_t dynamic_shared_bytes, int blocks) {
    const DeviceLimits limits = current_device_limits();
    if (!limits.cooperative_launch) return false;
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, dynamic_shared_bytes) !=
        cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return per_sm >= 1 && static_cast<int64_t>(blocks) <= static_cast<int64_t>(per_sm) * limits.sm_count;
}

Status launch_cooperative(cudaStream_t stream, const void *kernel, int blocks, int threads, size_t bytes,
                          void *argument, const char *what) {
    void *arguments[] = {argument};
    const cudaError_t error = cudaLaunchCooperativeKernel(kernel, blocks, threads, arguments, bytes, stream);
    if (error == cudaSuccess) return CUDNN_STATUS_SUCCESS;
    cudaGetLastError();
    return fail(CUDNN_STATUS_EXECUTION_FAILED, "launching %s (%d blocks, %zu bytes of shared memory) failed: %s", what,
                blocks, bytes, cudaGetErrorString(error));
}

ResidentBlocks::ResidentBlocks(const void *kernel, int block_threads, size_t dynamic_shared_bytes)
    : kernel_(kernel), block_threads_(block_threads), dynamic_shared_bytes_(dynamic_shared_bytes) {
    for (std::atomic<int> &count : per_device_) count.store(0, std::memory_order_relaxed);
}

int ResidentBlocks::per_sm() const {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) device = -1;
    if (device >= 0 && device < kCachedDevices) {
        const int known = per_device_[device].load(std::memory_order_relaxed);
        if (known > 0) return known;
    }
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_, block_threads_, dynamic_shared_bytes_) !=
            cudaSuccess ||
        blocks < 1) {
        blocks = std::max(1, current_device_limits().max_threads_per_sm / block_threads_);
    }
    cudaGetLastError();  // a failed query leaves the thread count's estimate, not a sticky error
    if (device >= 0 && device < kCachedDevices) per_device_[device].store(blocks, std::memory_order_relaxed);
    return blocks;
}

DeviceQuestion::DeviceQuestion(int (*query)(), const char *const *reasons) : query_(query), reasons_(reasons) {
    for (std::atomic<int> &answer : per_device_) answer.store(0, std::memory_order_relaxed);
}

bool DeviceQuestion::ask(const char **reason) const {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        if (reason != nullptr) *reason = "no current CUDA device";
        return false;
    }
    int answer = 0;
    if (device < 0 || device >= kCachedDevices) {
        answer = query_();
    } else {
        answer = per_device_[device].load(std::memory_order_relaxed) - 1;
        if (answer < 0) {
            answer = query_();
            per_device_[device].store(answer + 1, std::memory_order_relaxed);
        }
    }
    if (answer != 0 && reason != nullptr) *reason = reasons_[answer];
    return answer == 0;
}

int grid_size(const ResidentBlocks &resident, int64_t work_items, int64_t items_per_block, int waves) {
    const int64_t blocks = int64_t{current_device_limits().sm_count} * resident.per_sm() * waves;
    const int64_t needed = (work_items + items_per_block - 1) / items_per_block;
    return static_cast<int>(std::max<int64_t>(1, std::min(needed, blocks)));
}

bool built_for_sm90(const void *kernel) {
    cudaFuncAttributes attributes;
    // Both: code compiled from compute_80 PTX runs on Hopper as JIT-compiled sm_90 SASS (binaryVersion
    // 90), but its device code was compiled with __CUDA_ARCH__ 800, without the sm_90 parts.
    const bool ok = cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess && attributes.binaryVersion >= 90 &&
                    attributes.ptxVersion >= 90;
    cudaGetLastError();
    return ok;
}

SharedMemoryOptIn::SharedMemoryOptIn(const void *kernel) : kernel_(kernel) {
    for (std::atomic<size_t> &bytes : allowed_) bytes.store(0, std::memory_order_relaxed);
    cudaFuncAttributes attributes;
    known_ = cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess;
    if (known_) static_bytes_ = attributes.sharedSizeBytes;
    cudaGetLastError();
}

bool SharedMemoryOptIn::allow(size_t dynamic_bytes) const {
    if (!known_) return false;
    if (static_bytes_ + dynamic_bytes <= 48 * 1024) return true;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    std::atomic<size_t> *allowed = device >= 0 && device < kCachedDevices ? &allowed_[device] : nullptr;
    if (allowed && dynamic_bytes <= allowed->load(std::memory_order_acquire)) return true;
    std::lock_guard<std::mutex> lock(mutex_);
    const size_t target = std::max(dynamic_bytes, allowed ? allowed->load(std::memory_order_relaxed) : 0);
    if (cudaFuncSetAttribute(kernel_, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(target)) !=
        cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    if (allowed) allowed->store(target, std::memory_order_release);
    return true;
}

int grid_size(int64_t work_items, int64_t items_per_block, int block_threads, int waves) {
    const DeviceLimits limits = current_device_limits();
    const int64_t resident = int64_t{limits.sm_count} * std::max(1, limits.max_threads_per_sm / block_threads) * waves;
    const int64_t needed = (work_items + items_per_block - 1) / items_per_block;
    return static_cast<int>(std::max<int64_t>(1, std::min(needed, resident)));
}

Status check_launch(const char *kernel) {
    // cudaGetLastError clears a non-sticky error (a launch that could not start); a sticky one (an earlier
    // kernel's fault) stays and fails every later call the same way.
    const cudaError_t error = LIBREDNN_CUDA_SITE(kernel_launch, cudaGetLastError());
    if (error == cudaSuccess) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_EXECUTION_FAILED, "launching the CUDA kernel %s failed: %s (%s)", kernel,
                cudaGetErrorString(error), cudaGetErrorName(error));
}

}  // namespace librednn::cuda
