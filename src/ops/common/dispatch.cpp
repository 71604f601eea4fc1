// The dispatch log and the environment switches of dispatch.
#include "ops/common/dispatch.hpp"

#include "core/logging.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace librednn {

Applicability Applicability::no_format(const char *format, ...) {
    char buffer[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return no(buffer);
}

bool solver_disabled_by_environment(const char *solver) {
    const char *list = std::getenv("LIBREDNN_DISABLE_SOLVERS");
    if (list == nullptr) return false;
    const size_t length = std::strlen(solver);
    for (const char *start = list; *start != '\0';) {
        const char *end = std::strchr(start, ',');
        const size_t item = end ? static_cast<size_t>(end - start) : std::strlen(start);
        if (item == length && std::strncmp(start, solver, length) == 0) return true;
        if (end == nullptr) break;
        start = end + 1;
    }
    return false;
}

bool DispatchLog::wanted() { return log_enabled(CUDNN_SEV_INFO) || environment_flag("LIBREDNN_LOG_DISPATCH"); }

DispatchLog::DispatchLog(const char *family) : enabled_(wanted()), family_(family) {}

void DispatchLog::skipped(const char *solver, const std::string &reason) {
    if (!reasons_.empty()) reasons_ += "; ";
    reasons_ += std::string(solver) + ": " + reason;
    if (enabled_) skipped_ += std::string("\n    skipped ") + solver + ": " + reason;
}

void DispatchLog::chose(const char *solver) { chosen_ = solver; }

Status DispatchLog::finish(Backend backend, bool backend_has_solvers, const std::string &problem,
                           const char *algorithm) {
    const std::string what = algorithm ? std::string(family_) + " with " + algorithm : std::string(family_);
    if (enabled_) {
        std::string text = std::string("LibreDNN dispatch (") + what + ", " + backend_name(backend) +
                           " backend): " + problem + skipped_ + "\n    " +
                           (chosen_ ? std::string("chose ") + chosen_ : std::string("no solver applies"));
        if (log_enabled(CUDNN_SEV_INFO)) {
            log_message(CUDNN_SEV_INFO, text);
        } else {
            std::fprintf(stderr, "%s\n", text.c_str());
        }
    }
    if (chosen_ != nullptr) return CUDNN_STATUS_SUCCESS;
    if (!backend_has_solvers) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "LibreDNN has no %s solver for %s yet (see docs/SUPPORT.md); LIBREDNN_BACKEND=host runs it on "
                    "the CPU with host pointers",
                    backend_name(backend), what.c_str());
    }
    return fail(CUDNN_STATUS_NOT_SUPPORTED, "no %s solver for %s can run %s (%s)", backend_name(backend), what.c_str(),
                problem.c_str(), reasons_.c_str());
}

}  // namespace librednn
