// The host backend's threads: parallel_for splits a range over the machine's cores (or
// LIBREDNN_HOST_THREADS of them), each part on its own thread, and waits for all.
#pragma once

#include <cstdint>
#include <functional>

namespace librednn::host {

// How many threads the host backend uses: LIBREDNN_HOST_THREADS when set to a positive number, else
// the number of cores. Read once per process.
int host_thread_count();

// Calls body(begin, end, part) on disjoint parts of [0, count) that cover it, part numbers 0 to fewer
// than host_thread_count(), each on its own thread, none smaller than `grain` (but one), and returns
// when all have. `part` indexes per-thread scratch. Parts run in any order: body must not depend on it.
void parallel_for(int64_t count, int64_t grain, const std::function<void(int64_t begin, int64_t end, int part)> &body);

}  // namespace librednn::host
