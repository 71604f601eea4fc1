// CUDA-event and wall-clock timing, medians, input rotation.
#include "timing.hpp"

#if LIBREDNN_BENCH_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <algorithm>

namespace librednn::bench {

Stopwatch::Stopwatch(MemoryKind kind, int count) : kind_(kind) {
    marks_.resize(2 * static_cast<size_t>(count));
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind_ == MemoryKind::device) {
        events_.resize(2 * static_cast<size_t>(count), nullptr);
        for (void *&event : events_) {
            cudaEvent_t created = nullptr;
            if (cudaEventCreate(&created) != cudaSuccess) {
                cudaGetLastError();
                ready_ = Outcome::failed("cudaEventCreate failed");
                return;
            }
            event = created;
        }
    }
#endif
}

Stopwatch::~Stopwatch() {
#if LIBREDNN_BENCH_HAVE_CUDA
    for (void *event : events_)
        if (event) cudaEventDestroy(static_cast<cudaEvent_t>(event));
#endif
}

void Stopwatch::start(int run) {
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind_ == MemoryKind::device) {
        cudaEventRecord(static_cast<cudaEvent_t>(events_[2 * static_cast<size_t>(run)]), nullptr);
        return;
    }
#endif
    marks_[2 * static_cast<size_t>(run)] = std::chrono::steady_clock::now();
}

void Stopwatch::stop(int run) {
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind_ == MemoryKind::device) {
        cudaEventRecord(static_cast<cudaEvent_t>(events_[2 * static_cast<size_t>(run) + 1]), nullptr);
        return;
    }
#endif
    marks_[2 * static_cast<size_t>(run) + 1] = std::chrono::steady_clock::now();
}

Outcome Stopwatch::elapsed(std::vector<double> *milliseconds) {
    const size_t runs = marks_.size() / 2;
    milliseconds->assign(runs, 0.0);
#if LIBREDNN_BENCH_HAVE_CUDA
    if (kind_ == MemoryKind::device) {
        BENCH_TRY(synchronize(kind_));
        for (size_t i = 0; i < runs; ++i) {
            float ms = 0;
            const cudaError_t error = cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(events_[2 * i]),
                                                           static_cast<cudaEvent_t>(events_[2 * i + 1]));
            if (error != cudaSuccess) {
                cudaGetLastError();
                return Outcome::failed(std::string("cudaEventElapsedTime failed: ") + cudaGetErrorString(error));
            }
            (*milliseconds)[i] = ms;
        }
        return Outcome::success();
    }
#endif
    for (size_t i = 0; i < runs; ++i)
        (*milliseconds)[i] = std::chrono::duration<double, std::milli>(marks_[2 * i + 1] - marks_[2 * i]).count();
    return Outcome::success();
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

int rotation_copies(size_t bytes_per_copy, size_t cache_bytes, size_t budget_bytes) {
    if (bytes_per_copy == 0) return 1;
    size_t copies = (2 * cache_bytes + bytes_per_copy - 1) / bytes_per_copy;
    copies = std::min<size_t>(copies, budget_bytes / bytes_per_copy);
    return static_cast<int>(std::clamp<size_t>(copies, 1, 1024));
}

}  // namespace librednn::bench
