// parallel_for with plain threads: the first part runs on the calling thread.
#include "host/common/parallel.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <vector>

namespace librednn::host {

int host_thread_count() {
    static const int count = [] {
        const char *value = std::getenv("LIBREDNN_HOST_THREADS");
        if (value != nullptr) {
            const long requested = std::strtol(value, nullptr, 10);
            if (requested > 0) return static_cast<int>(std::min<long>(requested, 1024));
        }
        const unsigned cores = std::thread::hardware_concurrency();
        return cores > 0 ? static_cast<int>(cores) : 1;
    }();
    return count;
}

void parallel_for(int64_t count, int64_t grain, const std::function<void(int64_t, int64_t, int)> &body) {
    if (count <= 0) return;
    const int64_t most = std::max<int64_t>(1, count / std::max<int64_t>(1, grain));
    const int64_t parts = std::min<int64_t>(host_thread_count(), most);
    if (parts <= 1) {
        body(0, count, 0);
        return;
    }
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(parts - 1));
    auto range = [&](int64_t part) { return std::make_pair(count * part / parts, count * (part + 1) / parts); };
    for (int64_t part = 1; part < parts; ++part) {
        const auto [begin, end] = range(part);
        threads.emplace_back([&body, begin = begin, end = end, part] { body(begin, end, static_cast<int>(part)); });
    }
    const auto [begin, end] = range(0);
    body(begin, end, 0);
    for (std::thread &thread : threads) thread.join();
}

}  // namespace librednn::host
