// The CUDA side of the machine: the driver (libcuda.so.1 through dlopen, in a child process), its
// CUDA version, the GPUs and their compute capability, and the shared CUDA runtimes a program could
// load. Works, and says so, on a machine without a driver or a GPU.
#pragma once

#include "cudnn_names.hpp"
#include "loader_search.hpp"
#include "report.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace librednn::doctor {

struct GpuInfo {
    int index = 0;
    std::string name;
    int major = 0, minor = 0;  // compute capability
    uint64_t memory_bytes = 0;
};

struct CudaRuntimeInfo {
    std::string soname;  // "libcudart.so.12"
    std::string path;
    long long version = -1;  // cudaRuntimeGetVersion(), -1 when it could not be asked
    std::string error;
};

struct CudaFacts {
    std::string driver_path;     // where the loader finds libcuda.so.1; empty without a driver
    std::string kernel_module;   // /proc/driver/nvidia/version's first line, when present
    bool driver_probed = false;  // asked in a child (not with --no-load)
    bool driver_loaded = false;
    long long driver_version = -1;  // cuDriverGetVersion(): 12040 for CUDA 12.4
    int init_result = -1;           // cuInit(0)
    std::string init_error;         // "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"
    std::vector<GpuInfo> gpus;
    std::vector<CudaRuntimeInfo> runtimes;

    bool gpu_usable() const { return init_result == 0 && !gpus.empty(); }
};

// Asks the driver in a child process (the doctor itself never initialises CUDA, so that its later
// children still can). With probe_driver false, only the files are looked at (tests use it).
CudaFacts gather_cuda_facts(const LoaderEnvironment &loader, bool probe_driver);

// The "CUDA" section: driver, GPUs, runtimes.
void report_cuda(const CudaFacts &cuda, Report *report);

// The lowest compute capability (major*10+minor) the CUDA toolkit of `cuda_major` compiles for: the
// floor of any library built with it.
int minimum_compute_capability(int cuda_major);

}  // namespace librednn::doctor
