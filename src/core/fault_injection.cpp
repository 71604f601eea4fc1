// The fault sites' counters: one armed plan per site, consumed by hits from any thread.
#include "core/fault_injection.hpp"

#include <atomic>

namespace librednn::fault {

#if LIBREDNN_FAULT_INJECTION
const char *site_name(Site site) {
    switch (site) {
        case Site::host_allocation: return "host_allocation";
        case Site::thread_start: return "thread_start";
        case Site::device_allocation: return "device_allocation";
        case Site::kernel_launch: return "kernel_launch";
        case Site::async_copy: return "async_copy";
        case Site::device_init: return "device_init";
        case Site::count: break;
    }
    return "?";
}

namespace {

constexpr int kSites = static_cast<int>(Site::count);

struct Plan {
    std::atomic<long> skip{0};      // hits still to pass before failing
    std::atomic<long> failures{0};  // failures still to give
    std::atomic<long> hits{0};
};
Plan g_plans[kSites];
std::atomic<bool> g_armed{false};  // set by arm(), cleared by disarm_all(): the fast path

// Takes one from `counter` when it is positive; false when it was not.
bool take_one(std::atomic<long> &counter) {
    long value = counter.load(std::memory_order_relaxed);
    while (value > 0) {
        if (counter.compare_exchange_weak(value, value - 1, std::memory_order_acq_rel)) return true;
    }
    return false;
}

}  // namespace

bool fires(Site site) {
    Plan &plan = g_plans[static_cast<int>(site)];
    plan.hits.fetch_add(1, std::memory_order_relaxed);
    if (!g_armed.load(std::memory_order_acquire)) return false;
    if (take_one(plan.skip)) return false;
    return take_one(plan.failures);
}

void arm(Site site, int failures, int skip) {
    Plan &plan = g_plans[static_cast<int>(site)];
    plan.skip.store(skip > 0 ? skip : 0, std::memory_order_release);
    plan.failures.store(failures > 0 ? failures : 0, std::memory_order_release);
    g_armed.store(true, std::memory_order_release);
}

void disarm_all() {
    for (Plan &plan : g_plans) {
        plan.skip.store(0, std::memory_order_release);
        plan.failures.store(0, std::memory_order_release);
        plan.hits.store(0, std::memory_order_release);
    }
    g_armed.store(false, std::memory_order_release);
}

long hits(Site site) { return g_plans[static_cast<int>(site)].hits.load(std::memory_order_acquire); }
#endif

}  // namespace librednn::fault
