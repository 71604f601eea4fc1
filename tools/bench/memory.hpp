// Where the bench's tensors live: GPU memory when a CUDA device is usable, else (or with --host) host
// memory, which LibreDNN's host backend computes on. One buffer type for both.
#pragma once

#include "outcome.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace librednn::bench {

enum class MemoryKind { host, device };

// What the machine offers the run.
struct Platform {
    MemoryKind memory = MemoryKind::host;
    std::string device_name;  // "NVIDIA H200", or "host" without a GPU
    int driver_version = 0;   // cudaDriverGetVersion, 0 on the host
    size_t cache_bytes = 0;   // the last-level cache inputs are rotated beyond (the GPU's L2)
    size_t free_bytes = 0;    // memory the run may use
};

// True when this build has the CUDA runtime and cudaGetDeviceCount finds a device.
bool cuda_device_usable();

// The platform for a run: device memory when a GPU is usable and `force_host` is false.
Platform detect_platform(bool force_host);

// A block of host or device memory, freed when destroyed.
class Buffer {
public:
    Buffer() = default;
    ~Buffer();
    Buffer(Buffer &&other) noexcept;
    Buffer &operator=(Buffer &&other) noexcept;
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;

    static Outcome allocate(MemoryKind kind, size_t bytes, Buffer *out);

    void *data() const { return data_; }
    size_t bytes() const { return bytes_; }
    MemoryKind kind() const { return kind_; }

    Outcome upload(const void *source, size_t bytes);    // from host memory, at the start
    Outcome download(void *target, size_t bytes) const;  // to host memory, from the start
    // Fills the buffer by repeating `pattern` (whose size divides into whole elements): quick on the GPU
    // for tensors of hundreds of megabytes, where generating every value on the host would dominate.
    Outcome fill_repeating(const std::vector<uint8_t> &pattern);

private:
    void release();

    void *data_ = nullptr;
    size_t bytes_ = 0;
    MemoryKind kind_ = MemoryKind::host;
};

// Bytes that can be allocated now (the GPU's free memory, or the host's available memory).
size_t free_memory(MemoryKind kind);

// Copies `bytes` from `source` to `target`, both of `kind` memory: on the GPU asynchronously, device to
// device, on the legacy default stream (where the timing events are recorded); on the host with memcpy.
Outcome copy_memory(MemoryKind kind, void *target, const void *source, size_t bytes);

// Waits for the GPU's work and reports a failed kernel; nothing to do on the host.
Outcome synchronize(MemoryKind kind);

}  // namespace librednn::bench
