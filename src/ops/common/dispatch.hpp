// Dispatch: the one place that decides which solver runs a problem. It walks a family's ordered
// solver list, takes the first applicable solver of the handle's backend, and explains itself in
// the log (every skipped solver with its reason) when CUDNN_LOGINFO_DBG or LIBREDNN_LOG_DISPATCH=1
// is set. LIBREDNN_DISABLE_SOLVERS=name,name switches solvers off (to bisect a wrong result).
#pragma once

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/solver.hpp"
#include "problem/problem_string.hpp"

#include <string>
#include <utility>
#include <vector>

namespace librednn {

// The record of one dispatch, written to the log when dispatch logging is on.
class DispatchLog {
public:
    explicit DispatchLog(const char *family);
    // Whether dispatch logging is on (CUDNN_LOGINFO_DBG or LIBREDNN_LOG_DISPATCH): callers that build a record's
    // text for themselves ask first.
    static bool wanted();
    void skipped(const char *solver, const std::string &reason);
    void chose(const char *solver);
    // Writes the record (when logging is on) and fails with NOT_SUPPORTED when no solver was chosen.
    // `problem` is the problem string, needed only then (so that a quiet, successful dispatch does
    // not print it). `algorithm`, when the caller asked for one, names it in the messages.
    Status finish(Backend backend, bool backend_has_solvers, const std::string &problem,
                  const char *algorithm = nullptr);

    bool needs_problem_string() const { return enabled_ || chosen_ == nullptr; }

    bool enabled() const { return enabled_; }
    bool has_chosen() const { return chosen_ != nullptr; }

private:
    bool enabled_;
    const char *family_;
    std::string skipped_;
    std::string reasons_;  // "name: reason; ..." for the NOT_SUPPORTED message
    const char *chosen_ = nullptr;
};

// True when LIBREDNN_DISABLE_SOLVERS names `solver` (comma-separated names).
bool solver_disabled_by_environment(const char *solver);

// The first applicable solver of `backend` in `solvers`, or NOT_SUPPORTED with a reason that
// lists why each was skipped. `family` names the op family in messages ("activation").
template <class Problem, class Buffers>
Status select_solver(const std::vector<const Solver<Problem, Buffers> *> &solvers, Backend backend,
                     const Problem &problem, const char *family, const Solver<Problem, Buffers> **chosen) {
    DispatchLog log(family);
    bool backend_has_solvers = false;
    *chosen = nullptr;
    for (const Solver<Problem, Buffers> *solver : solvers) {
        if (solver->backend() != backend) continue;
        backend_has_solvers = true;
        if (solver_disabled_by_environment(solver->name())) {
            log.skipped(solver->name(), "switched off by LIBREDNN_DISABLE_SOLVERS");
            continue;
        }
        Applicability answer = solver->applicable(problem);
        if (!answer.ok()) {
            log.skipped(solver->name(), answer.reason());
            continue;
        }
        log.chose(solver->name());
        *chosen = solver;
        break;
    }
    return log.finish(backend, backend_has_solvers,
                      log.needs_problem_string() ? to_problem_string(problem).to_string() : std::string());
}

// The first applicable solver of `backend` that implements cuDNN algorithm `algorithm` (an algo enum
// value of the family), or NOT_SUPPORTED saying why none could: what a call that names its algorithm
// (cudnnConvolutionForward with CUDNN_CONVOLUTION_FWD_ALGO_FFT, ...) runs. Never another algorithm.
template <class Problem, class Buffers>
Status select_solver_for_algorithm(const std::vector<const Solver<Problem, Buffers> *> &solvers, Backend backend,
                                   const Problem &problem, int algorithm, const char *algorithm_name,
                                   const char *family, const Solver<Problem, Buffers> **chosen) {
    DispatchLog log(family);
    bool backend_has_solvers = false;
    *chosen = nullptr;
    for (const Solver<Problem, Buffers> *solver : solvers) {
        if (solver->backend() != backend || solver->algorithm() != algorithm) continue;
        backend_has_solvers = true;
        if (solver_disabled_by_environment(solver->name())) {
            log.skipped(solver->name(), "switched off by LIBREDNN_DISABLE_SOLVERS");
            continue;
        }
        Applicability answer = solver->applicable(problem);
        if (!answer.ok()) {
            log.skipped(solver->name(), answer.reason());
            continue;
        }
        log.chose(solver->name());
        *chosen = solver;
        break;
    }
    return log.finish(backend, backend_has_solvers,
                      log.needs_problem_string() ? to_problem_string(problem).to_string() : std::string(),
                      algorithm_name);
}

// One solver's answer for a problem, as Get...Algorithm_v7 and Find report them.
template <class Problem, class Buffers>
struct RankedSolver {
    const Solver<Problem, Buffers> *solver = nullptr;
    Applicability answer;
};

// Every solver of `backend` with its answer to `problem`: the applicable ones first, then the others
// with their reasons, each group in the registry's order of preference. LIBREDNN_DISABLE_SOLVERS
// counts as a reason.
template <class Problem, class Buffers>
std::vector<RankedSolver<Problem, Buffers>> rank_solvers(const std::vector<const Solver<Problem, Buffers> *> &solvers,
                                                         Backend backend, const Problem &problem) {
    std::vector<RankedSolver<Problem, Buffers>> applicable, other;
    for (const Solver<Problem, Buffers> *solver : solvers) {
        if (solver->backend() != backend) continue;
        RankedSolver<Problem, Buffers> entry;
        entry.solver = solver;
        entry.answer = solver_disabled_by_environment(solver->name())
                           ? Applicability::no("switched off by LIBREDNN_DISABLE_SOLVERS")
                           : solver->applicable(problem);
        (entry.answer.ok() ? applicable : other).push_back(entry);
    }
    applicable.insert(applicable.end(), other.begin(), other.end());
    return applicable;
}

// BAD_PARAM when one of the caller's buffers, or the workspace as far as the solver uses it (`workspace_needed`
// bytes, which every caller has already asked the solver for), is off its alignment
// (ops/common/buffer_alignment.hpp; each family's buffer_alignment() names its buffers). Every path that runs
// a solver on the caller's memory asks it first.
template <class Problem, class Buffers>
Status checked_buffers(const Problem &problem, const Buffers &buffers, const void *workspace, size_t workspace_needed) {
    LIBREDNN_CHECK(buffer_alignment(problem, buffers));
    return require_space_aligned("workSpace", workspace, workspace_needed);
}

// Selects a solver for `problem` and runs it.
template <class Problem, class Buffers>
Status dispatch_and_run(const std::vector<const Solver<Problem, Buffers> *> &solvers, const ExecutionContext &context,
                        const Problem &problem, const Buffers &buffers, const char *family) {
    const Solver<Problem, Buffers> *solver = nullptr;
    LIBREDNN_CHECK(select_solver(solvers, context.backend, problem, family, &solver));
    LIBREDNN_CHECK(checked_buffers(problem, buffers, context.workspace,
                                   context.workspace == nullptr ? 0 : solver->workspace_bytes(problem)));
    return solver->run(context, problem, buffers);
}

// The workspace the solver that dispatch would choose needs (0 when none applies: the call that runs
// the problem then reports why).
template <class Problem, class Buffers>
size_t dispatch_workspace_bytes(const std::vector<const Solver<Problem, Buffers> *> &solvers, Backend backend,
                                const Problem &problem) {
    for (const Solver<Problem, Buffers> *solver : solvers) {
        if (solver->backend() != backend || solver_disabled_by_environment(solver->name())) continue;
        if (solver->applicable(problem).ok()) return solver->workspace_bytes(problem);
    }
    return 0;
}

}  // namespace librednn
