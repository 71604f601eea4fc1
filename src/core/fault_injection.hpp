// Fault injection for the tests: named places where the library can fail (a host or device allocation,
// a kernel launch, an asynchronous copy, ...) that a test arms to fail their next hits, proving that
// each failure returns the status cuDNN documents, logs its cause, frees what it took and leaves the
// handle usable (docs/RELIABILITY.md).
//
// Only the fault-injection tests' static copy of the library is compiled with LIBREDNN_FAULT_INJECTION=1;
// in the shipped libraries (=0) every site is the constant `false` and nothing of this exists. A file
// holding a site must be listed in src/CMakeLists.txt's fault_site_*_sources, which compile it both ways.
#pragma once

#ifndef LIBREDNN_FAULT_INJECTION
#error \
    "a file with a fault site must be listed in fault_site_core_sources or fault_site_api_sources (src/CMakeLists.txt)"
#endif

#include "core/cuda_runtime.hpp"

#include <new>

namespace librednn::fault {

enum class Site : int {
    host_allocation,    // a host allocation: the site throws std::bad_alloc
    thread_start,       // starting a host worker thread (parallel_for): as if std::thread threw
    device_allocation,  // cudaMalloc / cudaMallocAsync: cudaErrorMemoryAllocation
    kernel_launch,      // the check after a kernel launch: cudaErrorLaunchOutOfResources
    async_copy,         // cudaMemcpyAsync / cudaMemsetAsync: cudaErrorInvalidValue
    device_init,        // cudnnCreate's CUDA context creation: cudaErrorInitializationError
    count
};

#if LIBREDNN_FAULT_INJECTION
// The site's name in logs and tests ("device_allocation").
const char *site_name(Site site);
// Counts a hit of `site`; true when this hit is one of the failures the test armed. Thread-safe.
bool fires(Site site);

// Arms `site`: the next `skip` hits pass, the `failures` after them fail; then it disarms itself.
void arm(Site site, int failures, int skip = 0);
// Disarms every site and zeroes the hit counts.
void disarm_all();
// Hits of `site` since the last disarm_all(), failed or not.
long hits(Site site);
#else
constexpr bool fires(Site) { return false; }
#endif

#if LIBREDNN_HAVE_CUDA
// The CUDA error a fired site stands for.
constexpr cudaError_t injected_error(Site site) {
    switch (site) {
        case Site::device_allocation: return cudaErrorMemoryAllocation;
        case Site::kernel_launch: return cudaErrorLaunchOutOfResources;
        case Site::async_copy: return cudaErrorInvalidValue;
        case Site::device_init: return cudaErrorInitializationError;
        default: return cudaErrorUnknown;
    }
}
#endif

}  // namespace librednn::fault

// True when `site` (a Site enumerator's name) fails this hit; `false` in the shipped libraries.
#define LIBREDNN_FAULT(site) ::librednn::fault::fires(::librednn::fault::Site::site)

// Before a host allocation a test should be able to fail: throws std::bad_alloc when armed.
#define LIBREDNN_FAULT_HOST_ALLOCATION()                             \
    do {                                                             \
        if (LIBREDNN_FAULT(host_allocation)) throw std::bad_alloc(); \
    } while (0)

// A CUDA runtime call through `site`: the injected error when the site fires, else the call's own.
#define LIBREDNN_CUDA_SITE(site, call) \
    (LIBREDNN_FAULT(site) ? ::librednn::fault::injected_error(::librednn::fault::Site::site) : (call))
