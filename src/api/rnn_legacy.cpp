// The legacy RNN API's shared steps after its problem builders: space checks, dispatch and Find's timing.
#include "api/rnn_legacy.hpp"

#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/rnn_problem.hpp"
#include "api/solver_timing.hpp"
#include "descriptors/algorithm.hpp"
#include "ops/common/dispatch.hpp"

#include <algorithm>
#include <vector>

namespace librednn::api {

namespace {

// The reserve space a pass needs: the training forward fills it, the backward passes read and write it.
bool needs_reserve(const RnnProblem &problem) { return !problem.inference(); }

Status check_spaces(const RnnSolver &solver, const RnnProblem &problem, const RnnSpaces &spaces) {
    const size_t workspace_bytes = solver.workspace_bytes(problem);
    if (spaces.workspace_bytes < workspace_bytes)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "workSpaceSizeInBytes is %zu, this problem needs %zu (cudnnGetRNNWorkspaceSize)",
                    spaces.workspace_bytes, workspace_bytes);
    if (workspace_bytes > 0 && spaces.workspace == nullptr) return null_argument("workSpace");
    LIBREDNN_CHECK(require_space_aligned("workSpace", spaces.workspace, workspace_bytes));
    if (!needs_reserve(problem)) return CUDNN_STATUS_SUCCESS;
    const size_t reserve_bytes = rnn_reserve_bytes(problem);
    if (spaces.reserve_bytes < reserve_bytes)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "reserveSpaceSizeInBytes is %zu, training needs %zu (cudnnGetRNNTrainingReserveSize)",
                    spaces.reserve_bytes, reserve_bytes);
    if (spaces.reserve == nullptr) return null_argument("reserveSpace");
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

Status rnn_legacy_forward_of(const cudnnRNNStruct *rnn, bool training, const RnnLegacyForward &a, RnnProblem *problem,
                             RnnBuffers *buffers) {
    if (a.y_desc == nullptr) return null_argument("yDesc");
    RnnProblem p;
    LIBREDNN_CHECK(rnn_legacy_problem_of(rnn, training, a.seq_length, a.x_desc, "xDesc", a.y_desc, "yDesc", &p));
    LIBREDNN_CHECK(apply_rnn_states({{RnnState::hx, a.hx_desc, "hxDesc", a.hx},
                                     {RnnState::cx, a.cx_desc, "cxDesc", a.cx},
                                     {RnnState::hy, a.hy_desc, "hyDesc", a.hy},
                                     {RnnState::cy, a.cy_desc, "cyDesc", a.cy}},
                                    &p));
    LIBREDNN_CHECK(check_rnn_weight_filter(a.w_desc, "wDesc", p.net));
    if (a.x == nullptr) return null_argument("x");
    if (a.y == nullptr) return null_argument("y");
    if (a.w == nullptr) return null_argument("w");
    RnnBuffers b;
    b.x = a.x;
    b.y = a.y;
    b.hx = p.has_hx ? a.hx : nullptr;
    b.hy = p.has_hy ? a.hy : nullptr;
    b.cx = p.has_cx ? a.cx : nullptr;
    b.cy = p.has_cy ? a.cy : nullptr;
    b.weights = a.w;
    LIBREDNN_CHECK(rnn_dropout_states_of(*rnn, p, &b.dropout_states));
    *problem = p;
    *buffers = b;
    return CUDNN_STATUS_SUCCESS;
}

Status select_rnn_solver(const cudnnContext &handle, const RnnProblem &problem, const RnnSpaces &spaces,
                         const RnnSolver **solver) {
    LIBREDNN_CHECK(select_solver(rnn_solvers(), handle.backend, problem, "rnn", solver));
    return check_spaces(**solver, problem, spaces);
}

Status run_rnn(const cudnnContext &handle, const RnnProblem &problem, const RnnBuffers &buffers,
               const RnnSpaces &spaces) {
    const RnnSolver *solver = nullptr;
    LIBREDNN_CHECK(select_rnn_solver(handle, problem, spaces, &solver));
    ExecutionContext context = context_of(handle);
    context.workspace = spaces.workspace;
    context.workspace_bytes = spaces.workspace_bytes;
    RnnBuffers with_reserve = buffers;
    with_reserve.reserve = needs_reserve(problem) ? spaces.reserve : nullptr;
    LIBREDNN_CHECK(buffer_alignment(problem, with_reserve));
    return solver->run(context, problem, with_reserve);
}

Status find_rnn_algorithms(const cudnnContext &handle, cudnnRNNAlgo_t algo, const RnnProblem &problem,
                           const RnnBuffers &buffers, const RnnSpaces &spaces, int requested, int *returned,
                           cudnnAlgorithmPerformance_t *results) {
    if (requested < 1) return fail(CUDNN_STATUS_BAD_PARAM, "requestedAlgoCount is %d, must be at least 1", requested);
    if (returned == nullptr) return null_argument("returnedAlgoCount");
    if (results == nullptr) return null_argument("perfResults");
    for (int i = 0; i < requested; ++i)
        if (results[i] == nullptr)
            return fail(
                CUDNN_STATUS_BAD_PARAM,
                "perfResults[%d] is NULL: create requestedAlgoCount of them with cudnnCreateAlgorithmPerformance", i);
    // The dispatch check first, so that a problem no solver takes fails with dispatch's reasons.
    const RnnSolver *chosen = nullptr;
    LIBREDNN_CHECK(select_rnn_solver(handle, problem, spaces, &chosen));
    struct Result {
        cudnnStatus_t status;
        float time;
        size_t memory;
    };
    std::vector<Result> timed, rest;
    for (const RankedSolver<RnnProblem, RnnBuffers> &ranked : rank_solvers(rnn_solvers(), handle.backend, problem)) {
        if (!ranked.answer.ok()) continue;  // a solver that cannot run the problem is no result of it
        const size_t memory = ranked.solver->workspace_bytes(problem);
        if (memory > spaces.workspace_bytes) {
            rest.push_back({CUDNN_STATUS_ALLOC_FAILED, -1.0f, memory});
            continue;
        }
        float milliseconds = -1.0f;
        RnnBuffers with_reserve = buffers;
        with_reserve.reserve = needs_reserve(problem) ? spaces.reserve : nullptr;
        Status status = checked_buffers(problem, with_reserve, spaces.workspace, memory);
        if (status == CUDNN_STATUS_SUCCESS)
            status = time_solver_run(handle, *ranked.solver, problem, with_reserve, spaces.workspace,
                                     spaces.workspace_bytes, &milliseconds);
        if (status != CUDNN_STATUS_SUCCESS) {
            rest.push_back({status, -1.0f, memory});
        } else {
            timed.push_back({CUDNN_STATUS_SUCCESS, milliseconds, memory});
        }
    }
    std::stable_sort(timed.begin(), timed.end(), [](const Result &a, const Result &b) { return a.time < b.time; });
    timed.insert(timed.end(), rest.begin(), rest.end());
    const int count = std::min<int>(requested, static_cast<int>(timed.size()));
    for (int i = 0; i < count; ++i) {
        cudnnAlgorithmPerformanceStruct &perf = *results[i];
        perf.found.algorithm.algo.RNNAlgo = algo;
        perf.found.is_set = true;
        perf.algo_desc = &perf.found;
        perf.status = timed[static_cast<size_t>(i)].status;
        perf.time = timed[static_cast<size_t>(i)].time;
        perf.memory = timed[static_cast<size_t>(i)].memory;
        perf.is_set = true;
    }
    *returned = count;
    clear_failure_reason();
    return CUDNN_STATUS_SUCCESS;
}

int rnn_algorithm_max_count(const cudnnContext &handle) {
    int count = 0;
    for (const RnnSolver *solver : rnn_solvers()) count += solver->backend() == handle.backend ? 1 : 0;
    return std::max(count, 1);
}

}  // namespace librednn::api
