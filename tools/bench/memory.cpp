// Host and device buffers, and what the machine offers (GPU name, L2 size, free memory).
#include "memory.hpp"

#if LIBREDNN_BENCH_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace librednn::bench {

namespace {

constexpr size_t kHostAlignment = 256;  // what cudaMalloc guarantees, so host runs see the same alignment

#if LIBREDNN_BENCH_HAVE_CUDA
Outcome cuda_outcome(cudaError_t error, const char *what) {
    if (error == cudaSuccess) return Outcome::success();
    return Outcome::failed(std::string(what) + " failed: " + cudaGetErrorString(error));
}
#endif

size_t host_cache_bytes() {
    long bytes = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    return bytes > 0 ? static_cast<size_t>(bytes) : size_t(32) << 20;
}

size_t host_free_bytes() {
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : size_t(4) << 30;
}

}  // namespace

bool cuda_device_usable() {
#if LIBREDNN_BENCH_HAVE_CUDA
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clear the "no driver" error so that it does not surface later
        return false;
    }
    return count > 0;
#else
    return false;
#endif
}

Platform detect_platform(bool force_host) {
    Platform platform;
#if LIBREDNN_BENCH_HAVE_CUDA
    if (!force_host && cuda_device_usable()) {
        int device = 0, l2 = 0;
        cudaGetDevice(&device);
        cudaDeviceProp properties{};
        if (cudaGetDeviceProperties(&properties, device) == cudaSuccess) platform.device_name = properties.name;
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
        cudaDriverGetVersion(&platform.driver_version);
        size_t free_bytes = 0, total_bytes = 0;
        cudaMemGetInfo(&free_bytes, &total_bytes);
        platform.memory = MemoryKind::device;
        platform.cache_bytes = l2 > 0 ? static_cast<size_t>(l2) : size_t(50) << 20;
        platform.free_bytes = free_bytes;
        return platform;
    }
#endif
    (void)force_host;
    platform.memory = MemoryKind::host;
    platform.device_name = "host";
    platform.cache_bytes = host_cache_bytes();
    platform.free_bytes = host_free_bytes();
    return platform;
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer &&other) noexcept : data_(other.data_), bytes_(other.bytes_), kind_(other.kind_) {
    other.data_ = nullptr;
    other.bytes_ = 0;
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
    if (this != &other) {
        release();
        data_ = other.data_;
        bytes_ = other.bytes_;
        kind_ = other.kind_;
        other.data_ = nullptr;
        other.bytes_ = 0;
    }
    return *this;
}

void Buffer::release() {
    if (data_ == nullptr) return;
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind_ == MemoryKind::device) {
        cudaFree(data_);
        data_ = nullptr;
        return;
    }
#endif
    std::free(data_);
    data_ = nullptr;
}

Outcome Buffer::allocate(MemoryKind kind, size_t bytes, Buffer *out) {
    Buffer buffer;
    buffer.kind_ = kind;
    buffer.bytes_ = bytes;
    const size_t rounded =
        std::max<size_t>(kHostAlignment, (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment);
    const std::string size_text = std::to_string(bytes) + " bytes";
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind == MemoryKind::device) {
        const cudaError_t error = cudaMalloc(&buffer.data_, rounded);
        if (error != cudaSuccess) {
            cudaGetLastError();
            buffer.data_ = nullptr;
            return Outcome::failed("cannot allocate " + size_text + " of GPU memory: " + cudaGetErrorString(error));
        }
        *out = std::move(buffer);
        return Outcome::success();
    }
#else
    if (kind == MemoryKind::device) return Outcome::failed("this bench was built without CUDA: no GPU memory");
#endif
    buffer.data_ = std::aligned_alloc(kHostAlignment, rounded);
    if (buffer.data_ == nullptr) return Outcome::failed("cannot allocate " + size_text + " of host memory");
    *out = std::move(buffer);
    return Outcome::success();
}

Outcome Buffer::upload(const void *source, size_t bytes) {
    bytes = std::min(bytes, bytes_);
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind_ == MemoryKind::device)
        return cuda_outcome(cudaMemcpy(data_, source, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
#endif
    std::memcpy(data_, source, bytes);
    return Outcome::success();
}

Outcome Buffer::download(void *target, size_t bytes) const {
    bytes = std::min(bytes, bytes_);
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind_ == MemoryKind::device)
        return cuda_outcome(cudaMemcpy(target, data_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
#endif
    std::memcpy(target, data_, bytes);
    return Outcome::success();
}

Outcome Buffer::fill_repeating(const std::vector<uint8_t> &pattern) {
    if (bytes_ == 0 || pattern.empty()) return Outcome::success();
    const size_t first = std::min(pattern.size(), bytes_);
    BENCH_TRY(upload(pattern.data(), first));
    // Double the filled prefix until the buffer is full: log2(bytes / pattern) copies.
    auto *bytes = static_cast<uint8_t *>(data_);
    for (size_t filled = first; filled < bytes_;) {
        const size_t chunk = std::min(filled, bytes_ - filled);
#if LIBREDNN_BENCH_HAVE_CUDA
        if (kind_ == MemoryKind::device) {
            BENCH_TRY(cuda_outcome(cudaMemcpy(bytes + filled, bytes, chunk, cudaMemcpyDeviceToDevice), "cudaMemcpy"));
            filled += chunk;
            continue;
        }
#endif
        std::memcpy(bytes + filled, bytes, chunk);
        filled += chunk;
    }
    return Outcome::success();
}

size_t free_memory(MemoryKind kind) {
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind == MemoryKind::device) {
        size_t free_bytes = 0, total_bytes = 0;
        if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) cudaGetLastError();
        return free_bytes;
    }
#endif
    (void)kind;
    return host_free_bytes();
}

Outcome copy_memory(MemoryKind kind, void *target, const void *source, size_t bytes) {
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind == MemoryKind::device)
        return cuda_outcome(cudaMemcpyAsync(target, source, bytes, cudaMemcpyDeviceToDevice, nullptr),
                            "cudaMemcpyAsync");
#endif
    (void)kind;
    std::memcpy(target, source, bytes);
    return Outcome::success();
}

Outcome synchronize(MemoryKind kind) {
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind == MemoryKind::device)
        return cuda_outcome(cudaDeviceSynchronize(), "cudaDeviceSynchronize (a kernel failed)");
#endif
    (void)kind;
    return Outcome::success();
}

}  // namespace librednn::bench
