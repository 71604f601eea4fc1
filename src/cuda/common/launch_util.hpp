// What every tensor kernel launch needs: the device's SM count and limits (queried once per device),
// grid sizing for grid-stride loops, and the launch check that turns a CUDA error into a status.
#pragma once

#include "core/status.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace librednn::cuda {

// Devices whose per-device answers (limits, residency, shared memory opt-ins) are cached; others are
// asked each time.
constexpr int kCachedDevices = 64;

// Properties of the current device, cached per device after the first query.
struct DeviceLimits {
    int sm_count = 1;
    int max_threads_per_sm = 2048;
    int max_dynamic_shared_bytes = 48 * 1024;  // opt-in limit per block
    int compute_major = 0;                     // compute capability (9: clusters); 0 when unknown
    int compute_minor = 0;                     // (9.0: the sm_90a kernels, wgmma)
    bool cooperative_launch = false;           // cudaLaunchCooperativeKernel supported
};
DeviceLimits current_device_limits();

// Blocks for a grid-stride loop over `work_items` items, `items_per_block` per block per pass: enough
// to fill every SM `waves` times over, never more than the work needs. It counts max_threads_per_sm /
// block_threads blocks an SM: kernels held below that by registers or shared memory get a grid of part
// waves (the last one leaves SMs idle); they take the ResidentBlocks form below.
int grid_size(int64_t work_items, int64_t items_per_block, int block_threads, int waves = 1);

// How many blocks of one kernel (at one block size and dynamic shared memory) an SM holds at once, from
// the CUDA occupancy calculator: registers and shared memory can hold it below max_threads_per_sm /
// block_threads. Construct one per kernel as a function-local static; it asks once per device.
class ResidentBlocks {
public:
    ResidentBlocks(const void *kernel, int block_threads, size_t dynamic_shared_bytes = 0);
    int per_sm() const;  // on the current device; at least 1

private:
    const void *kernel_;
    int block_threads_;
    size_t dynamic_shared_bytes_;
    mutable std::atomic<int> per_device_[kCachedDevices];  // 0: not asked yet
};

// A yes-or-why question about the current device (whether a kernel runs there, say), asked once per device:
// `query` answers 0 for yes, else the index of its reason in `reasons`. Construct one per question as a
// function-local static.
class DeviceQuestion {
public:
    DeviceQuestion(int (*query)(), const char *const *reasons);
    // True on the current device, else false with the reason in `reason` (when not null).
    bool ask(const char **reason) const;

private:
    int (*query_)();
    const char *const *reasons_;
    mutable std::atomic<int> per_device_[kCachedDevices];  // 1 + the answer; 0: not asked yet
};

// The same for a kernel whose residency is known: `waves` times the blocks every SM holds at once (a
// grid-stride loop's grid then ends in whole waves), never more than the work needs.
int grid_size(const ResidentBlocks &resident, int64_t work_items, int64_t items_per_block, int waves = 1);

// Whether `kernel` as loaded is sm_90 code or later (clusters, programmatic dependent launch): false for
// a build whose sm_90 device runs code compiled for an older architecture, as SASS or JIT-compiled PTX.
bool built_for_sm90(const void *kernel);

// A kernel's shared memory opt-in. Construct one per kernel as a function-local static: it reads the
// kernel's static shared memory once.
class SharedMemoryOptIn {
public:
    explicit SharedMemoryOptIn(const void *kernel);
    // Lets the kernel launch with `dynamic_bytes` of dynamic shared memory: beyond the default 48 KB for
    // static and dynamic together it opts in (cudaFuncAttributeMaxDynamicSharedMemorySize). False, with no
    // sticky error left, when the device cannot give that much. An opt-in only grows: each device's
    // largest so far is remembered, so a request within it makes no CUDA call, and a caller asking for
    // less never lowers the limit under another's launch.
    bool allow(size_t dynamic_bytes) const;

private:
    const void *kernel_;
    size_t static_bytes_ = 0;
    bool known_ = false;                                   // the attributes could be read
    mutable std::atomic<size_t> allowed_[kCachedDevices];  // dynamic bytes opted in per device (0: none)
    mutable std::mutex mutex_;                             // one opt-in at a time
};

// Whether `blocks` blocks of `kernel` (block_threads threads, dynamic_shared_bytes of shared memory, already opted
// in) can all be resident at once on the current device, as a cooperative launch (grid-wide barriers) needs: the
// device supports cooperative launches (DeviceLimits) and the occupancy calculator's blocks an SM times the SMs
// reach `blocks` (asked each call); false, with no sticky error left, where the query fails.
bool cooperative_launch_fits(const void *kernel, int block_threads, size_t dynamic_shared_bytes, int blocks);

// A cooperative launch of `kernel` (grid-wide barriers) with its one argument at `argument`, once the caller has
// opted its shared memory in and checked cooperative_launch_fits; EXECUTION_FAILED naming `what` where it fails.
Status launch_cooperative(cudaStream_t stream, const void *kernel, int blocks, int threads, size_t bytes,
                          void *argument, const char *what);

// Whether environment variable `variable` is "0": a measurement switch that turns a kernel family off (callers
// read it once, into a function-local static).
bool switched_off(const char *variable);

// CUDNN_STATUS_EXECUTION_FAILED naming `kernel` when the last launch failed, else success.
Status check_launch(const char *kernel);

}  // namespace librednn::cuda
