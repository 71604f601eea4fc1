// The logging state, the built-in writer and delivery to user callbacks.
#include "core/logging.hpp"

#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace librednn {

namespace {

std::mutex &state_mutex() {
    static std::mutex m;
    return m;
}

CallbackState &local_state() {
    static CallbackState state = [] {
        CallbackState s;
        s.mask = environment_log_mask();
        return s;
    }();
    return state;
}

CallbackState local_callback_state() {
    std::lock_guard<std::mutex> lock(state_mutex());
    return local_state();
}

std::atomic<CallbackSource> g_source{&local_callback_state};

struct Clock {
    timeval start{};
    Clock() { gettimeofday(&start, nullptr); }
};

const Clock &clock_start() {
    static Clock c;
    return c;
}

// The built-in writer: CUDNN_LOGDEST_DBG is stdout, stderr (the default) or a file path.
void write_default(const std::string &text) {
    static std::mutex m;
    static FILE *file = [] {
        const char *dest = std::getenv("CUDNN_LOGDEST_DBG");
        if (dest == nullptr || dest[0] == '\0' || std::strcmp(dest, "stderr") == 0) return stderr;
        if (std::strcmp(dest, "stdout") == 0) return stdout;
        FILE *f = std::fopen(dest, "a");
        if (f == nullptr) {
            std::fprintf(stderr, "LibreDNN: cannot open CUDNN_LOGDEST_DBG=%s (%s); logging to stderr\n", dest,
                         std::strerror(errno));
            return stderr;
        }
        return f;
    }();
    std::lock_guard<std::mutex> lock(m);
    std::fputs(text.c_str(), file);
    std::fflush(file);
}

const char *severity_prefix(cudnnSeverity_t severity) {
    switch (severity) {
        case CUDNN_SEV_FATAL: return "F!";
        case CUDNN_SEV_ERROR: return "E!";
        case CUDNN_SEV_WARNING: return "W!";
        case CUDNN_SEV_INFO: return "I!";
    }
    return "?!";
}

}  // namespace

bool environment_flag(const char *name) {
    const char *value = std::getenv(name);
    return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
}

unsigned environment_log_mask() {
    static const unsigned mask = (environment_flag("CUDNN_LOGERR_DBG") ? CUDNN_SEV_ERROR_EN : 0u) |
                                 (environment_flag("CUDNN_LOGWARN_DBG") ? CUDNN_SEV_WARNING_EN : 0u) |
                                 (environment_flag("CUDNN_LOGINFO_DBG") ? CUDNN_SEV_INFO_EN : 0u);
    return mask;
}

CallbackState callback_state() { return g_source.load()(); }

void set_callback_state(const CallbackState &state) {
    std::lock_guard<std::mutex> lock(state_mutex());
    local_state() = state;
}

void set_callback_source(CallbackSource source) { g_source.store(source ? source : &local_callback_state); }

bool log_enabled(cudnnSeverity_t severity) {
    if (severity == CUDNN_SEV_FATAL) return true;
    return (callback_state().mask & (1u << severity)) != 0;
}

void log_message(cudnnSeverity_t severity, const std::string &message, const LogContext &context) {
    const CallbackState state = callback_state();
    if (severity != CUDNN_SEV_FATAL && (state.mask & (1u << severity)) == 0) return;
    timeval now{};
    gettimeofday(&now, nullptr);
    cudnnDebug_t debug;
    std::memset(&debug, 0, sizeof debug);
    debug.cudnn_version = CUDNN_VERSION;
    debug.cudnnStatus = context.status;
    debug.time_sec = static_cast<unsigned>(now.tv_sec);
    debug.time_usec = static_cast<unsigned>(now.tv_usec);
    debug.time_delta = static_cast<unsigned>(now.tv_sec - clock_start().start.tv_sec);
    debug.handle = context.handle;
    debug.stream = context.stream;
    debug.pid = static_cast<unsigned long long>(getpid());
    debug.tid = static_cast<unsigned long long>(syscall(SYS_gettid));
    debug.cudaDeviceId = context.device;
    if (state.fn != nullptr) {
        state.fn(severity, state.udata, &debug, message.c_str());
        return;
    }
    // Built-in format: a first line with the severity, continuation lines indented under it.
    std::string text;
    const char *prefix = severity_prefix(severity);
    std::string lower_prefix = prefix;
    lower_prefix[0] = static_cast<char>(lower_prefix[0] - 'A' + 'a');
    size_t start = 0;
    bool first = true;
    while (start <= message.size()) {
        size_t end = message.find('\n', start);
        if (end == std::string::npos) end = message.size();
        text += first ? prefix : lower_prefix;
        text += ' ';
        text.append(message, start, end - start);
        text += '\n';
        first = false;
        start = end + 1;
    }
    char trailer[160];
    std::snprintf(trailer, sizeof trailer, "%s Time: %u.%06u (%us since start); Process=%llu; Thread=%llu; GPU=%d\n",
                  lower_prefix.c_str(), debug.time_sec, debug.time_usec, debug.time_delta, debug.pid, debug.tid,
                  debug.cudaDeviceId);
    text += trailer;
    write_default(text);
}

void log_error(const std::string &message) { log_message(CUDNN_SEV_ERROR, message); }
void log_warning(const std::string &message) { log_message(CUDNN_SEV_WARNING, message); }
void log_info(const std::string &message) { log_message(CUDNN_SEV_INFO, message); }

}  // namespace librednn
