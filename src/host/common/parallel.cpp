// parallel_for with plain threads: the first part runs on the calling thread.
#include "host/common/parallel.hpp"

#include "core/fault_injection.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <system_error>
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
    // A part that throws (std::bad_alloc) stops nothing else; the first exception is rethrown here, on the
    // calling thread, once every part has returned, so that it reaches the call's guard.
    std::exception_ptr first_error;
    std::mutex error_mutex;
    auto run_part = [&](int64_t begin, int64_t end, int part) {
        try {
            body(begin, end, part);
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!first_error) first_error = std::current_exception();
        }
    };
    auto range = [&](int64_t part) { return std::make_pair(count * part / parts, count * (part + 1) / parts); };
    std::vector<std::thread> threads;
    int64_t inline_from = parts;  // parts from here on run on the calling thread: no thread could start
    try {
        threads.reserve(static_cast<size_t>(parts - 1));
        for (int64_t part = 1; part < parts; ++part) {
            if (LIBREDNN_FAULT(thread_start))
                throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
            const auto [begin, end] = range(part);
            threads.emplace_back(
                [&run_part, begin = begin, end = end, part] { run_part(begin, end, static_cast<int>(part)); });
        }
    } catch (const std::exception &) {  // std::system_error or std::bad_alloc: fewer threads, same answer
        inline_from = static_cast<int64_t>(threads.size()) + 1;
    }
    for (int64_t part = 0; part < parts; ++part) {
        if (part != 0 && part < inline_from) continue;
        const auto [begin, end] = range(part);
        run_part(begin, end, static_cast<int>(part));
    }
    for (std::thread &thread : threads) thread.join();
    if (first_error) std::rethrow_exception(first_error);
}

}  // namespace librednn::host
