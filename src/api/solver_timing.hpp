// How the Find calls time one solver run: CUDA events on the handle's stream for the CUDA backend, the
// steady clock for the host (whose solvers return when done).
#pragma once

#include "api/from_descriptors.hpp"
#include "core/cuda_runtime.hpp"
#include "ops/common/solver.hpp"

#include <chrono>

namespace librednn::api {

// Runs `solver` once on `problem` with the given workspace and writes its elapsed milliseconds.
template <class Problem, class Buffers>
Status time_solver_run(const cudnnContext &handle, const Solver<Problem, Buffers> &solver, const Problem &problem,
                       const Buffers &buffers, void *workspace, size_t workspace_bytes, float *milliseconds) {
    ExecutionContext context = context_of(handle);
    context.workspace = workspace;
    context.workspace_bytes = workspace_bytes;
#if LIBREDNN_HAVE_CUDA
    if (handle.backend == Backend::cuda) {
        cudaEvent_t start = nullptr, stop = nullptr;
        if (cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) {
            if (start) cudaEventDestroy(start);
            cudaGetLastError();
            return fail(CUDNN_STATUS_INTERNAL_ERROR, "could not create CUDA events to time the algorithms");
        }
        cudaEventRecord(start, handle.stream);
        Status status = solver.run(context, problem, buffers);
        cudaEventRecord(stop, handle.stream);
        cudaError_t err = cudaEventSynchronize(stop);
        if (status == CUDNN_STATUS_SUCCESS && err == cudaSuccess) cudaEventElapsedTime(milliseconds, start, stop);
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        if (err != cudaSuccess) {
            cudaGetLastError();
            return fail(CUDNN_STATUS_EXECUTION_FAILED, "timing %s failed: %s", solver.name(), cudaGetErrorString(err));
        }
        return status;
    }
#endif
    const auto start = std::chrono::steady_clock::now();
    const Status status = solver.run(context, problem, buffers);
    const auto stop = std::chrono::steady_clock::now();
    *milliseconds = std::chrono::duration<float, std::milli>(stop - start).count();
    return status;
}

}  // namespace librednn::api
