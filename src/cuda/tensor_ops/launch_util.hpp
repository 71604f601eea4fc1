// What every tensor kernel launch needs: the device's SM count and limits (queried once per device),
// grid sizing for grid-stride loops, and the launch check that turns a CUDA error into a status.
#pragma once

#include "core/status.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace librednn::cuda {

// Properties of the current device, cached per device after the first query.
struct DeviceLimits {
    int sm_count = 1;
    int max_threads_per_sm = 2048;
    int max_dynamic_shared_bytes = 48 * 1024;  // opt-in limit per block
    int compute_major = 0;                     // compute capability (9: clusters); 0 when unknown
};
DeviceLimits current_device_limits();

// Blocks for a grid-stride loop over `work_items` items, `items_per_block` per block per pass: enough
// to fill every SM `waves` times over, never more than the work needs.
int grid_size(int64_t work_items, int64_t items_per_block, int block_threads, int waves = 1);

// Lets `kernel` launch with `dynamic_bytes` of dynamic shared memory: beyond the default 48 KB for static
// and dynamic together it opts in (cudaFuncAttributeMaxDynamicSharedMemorySize). False, with no sticky
// error left, when the device cannot give that much.
bool allow_dynamic_shared(const void *kernel, size_t dynamic_bytes);

// CUDNN_STATUS_EXECUTION_FAILED naming `kernel` when the last launch failed, else success.
Status check_launch(const char *kernel);

}  // namespace librednn::cuda
