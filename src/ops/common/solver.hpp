// What every solver of every op family answers: can you do this problem (yes, or why not)? how much
// workspace? run it. Plus the execution context a solver runs in.
#pragma once

#include "core/backend.hpp"
#include "core/status.hpp"
#include "ops/common/solver_id.hpp"

#include <cudnn.h>

#include <cstddef>
#include <string>

namespace librednn {

// Where a solver runs: the handle's backend, device and stream, and the workspace the caller gave.
// On the host backend every pointer is a host pointer and the stream is ignored.
struct ExecutionContext {
    Backend backend = Backend::host;
    int device = -1;
    cudaStream_t stream = nullptr;
    void *workspace = nullptr;
    size_t workspace_bytes = 0;
};

// A solver's answer to "can you do this problem?": yes, or one sentence saying why not ("needs x and
// y with the same strides").
class Applicability {
public:
    static Applicability yes() { return Applicability(); }
    static Applicability no(std::string reason) {
        Applicability answer;
        answer.ok_ = false;
        answer.reason_ = std::move(reason);
        return answer;
    }
    static Applicability no_format(const char *format, ...) __attribute__((format(printf, 1, 2)));

    bool ok() const { return ok_; }
    const std::string &reason() const { return reason_; }

private:
    bool ok_ = true;
    std::string reason_;
};

// One way to compute the problems of one op family. Solvers are stateless singletons; each backend
// registers its own in order of preference (src/<backend>/<family>/, see ops/common/registry.hpp) and
// dispatch runs the first applicable one of the handle's backend, or the one implementing the cuDNN
// algorithm the caller asked for.
template <class Problem, class Buffers>
class Solver {
public:
    virtual ~Solver() = default;

    // Short and stable ("host_activation_packed"): it appears in logs and LIBREDNN_DISABLE_SOLVERS.
    virtual const char *name() const = 0;
    // Stable across releases (ops/common/solver_id.hpp): what Find results, caches and the backend API
    // refer to.
    virtual SolverId id() const = 0;
    // The value of the cuDNN algorithm enum this solver implements (a cudnnConvolutionFwdAlgo_t, ...),
    // or kNoAlgorithm in families without one. A solver is the algorithm it names, never another.
    virtual int algorithm() const { return kNoAlgorithm; }
    virtual Backend backend() const = 0;
    // Same inputs, same build, same device: same bits. Default solvers must be deterministic.
    virtual bool deterministic() const { return true; }
    virtual Applicability applicable(const Problem &problem) const = 0;
    virtual size_t workspace_bytes(const Problem &) const { return 0; }
    // Runs a problem applicable() accepted, with buffers of the context's backend.
    virtual Status run(const ExecutionContext &context, const Problem &problem, const Buffers &buffers) const = 0;
};

}  // namespace librednn
