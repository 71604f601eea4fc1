// Timing one call: CUDA events around it on the GPU (what the GPU spent, launch gaps included), the
// wall clock on the host; the median of many runs, and how many input copies defeat the cache.
#pragma once

#include "memory.hpp"
#include "outcome.hpp"

#include <chrono>
#include <cstddef>
#include <vector>

namespace librednn::bench {

// Records a start and a stop mark around each of `count` runs; elapsed() reads them all at the end,
// so that reading a GPU timer never stalls the stream between runs.
class Stopwatch {
public:
    Stopwatch(MemoryKind kind, int count);
    ~Stopwatch();
    Stopwatch(const Stopwatch &) = delete;
    Stopwatch &operator=(const Stopwatch &) = delete;

    Outcome ready() const { return ready_; }
    void start(int run);
    void stop(int run);
    // Milliseconds of each run, after waiting for the last one.
    Outcome elapsed(std::vector<double> *milliseconds);

private:
    MemoryKind kind_;
    Outcome ready_;
    std::vector<void *> events_;  // cudaEvent_t pairs on the GPU
    std::vector<std::chrono::steady_clock::time_point> marks_;
};

// The median (mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

// How many copies of a call's tensors to rotate through so that consecutive runs never find their
// data in a cache of `cache_bytes`: enough to touch twice the cache, at most `budget_bytes` in all,
// between 1 and 1024.
int rotation_copies(size_t bytes_per_copy, size_t cache_bytes, size_t budget_bytes);

}  // namespace librednn::bench
