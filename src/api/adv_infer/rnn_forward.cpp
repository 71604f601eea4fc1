// cudnnGetRNNTempSpaceSizes and cudnnRNNForward (the v8 API): inference, and training, which fills the
// reserve space for the backward passes.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/rnn_problem.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/rnn/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnGetRNNTempSpaceSizes(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                                    cudnnForwardMode_t fMode, cudnnRNNDataDescriptor_t xDesc,
                                                    size_t *workSpaceSize, size_t *reserveSpaceSize) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("fMode", fMode).arg("xDesc", xDesc);
        call.arg("workSpaceSize", static_cast<const void *>(workSpaceSize));
        call.arg("reserveSpaceSize", static_cast<const void *>(reserveSpaceSize));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(librednn::api::rnn_forward_problem_of(rnnDesc, fMode, xDesc, nullptr, {}, &problem));
        const librednn::RnnSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::select_solver(librednn::rnn_solvers(), librednn::context_of(*handle).backend, problem,
                                               "rnn", &solver));
        if (workSpaceSize != nullptr) *workSpaceSize = solver->workspace_bytes(problem);
        if (reserveSpaceSize != nullptr)
            *reserveSpaceSize = problem.training ? librednn::rnn_reserve_bytes(problem) : 0;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNForward(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                          cudnnForwardMode_t fwdMode, const int32_t devSeqLengths[],
                                          cudnnRNNDataDescriptor_t xDesc, const void *x, cudnnRNNDataDescriptor_t yDesc,
                                          void *y, cudnnTensorDescriptor_t hDesc, const void *hx, void *hy,
                                          cudnnTensorDescriptor_t cDesc, const void *cx, void *cy,
                                          size_t weightSpaceSize, const void *weightSpace, size_t workSpaceSize,
                                          void *workSpace, size_t reserveSpaceSize, void *reserveSpace) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("fwdMode", fwdMode);
        call.arg("devSeqLengths", static_cast<const void *>(devSeqLengths));
        call.arg("xDesc", xDesc).arg("x", x).arg("yDesc", yDesc).arg("y", y);
        call.arg("hDesc", hDesc).arg("hx", hx).arg("hy", hy).arg("cDesc", cDesc).arg("cx", cx).arg("cy", cy);
        call.arg("weightSpaceSize", weightSpaceSize).arg("weightSpace", weightSpace);
        call.arg("workSpaceSize", workSpaceSize).arg("workSpace", workSpace);
        call.arg("reserveSpaceSize", reserveSpaceSize).arg("reserveSpace", reserveSpace);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        if (yDesc == nullptr) return librednn::fail(CUDNN_STATUS_BAD_PARAM, "yDesc is NULL");
        librednn::api::RnnStates states;
        states.h = hDesc;
        states.has_hx = hx != nullptr;
        states.has_hy = hy != nullptr;
        states.c = cDesc;
        states.has_cx = cx != nullptr;
        states.has_cy = cy != nullptr;
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(librednn::api::rnn_forward_problem_of(rnnDesc, fwdMode, xDesc, yDesc, states, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(devSeqLengths);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        const size_t weight_bytes = librednn::rnn_weight_space_bytes(problem.net);
        if (weightSpaceSize < weight_bytes)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "weightSpaceSize is %zu, the network's weights need %zu (cudnnGetRNNWeightSpaceSize)",
                                  weightSpaceSize, weight_bytes);
        LIBREDNN_REQUIRE_NOT_NULL(weightSpace);
        librednn::ExecutionContext context = librednn::context_of(*handle);
        const librednn::RnnSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::select_solver(librednn::rnn_solvers(), context.backend, problem, "rnn", &solver));
        const size_t workspace_bytes = solver->workspace_bytes(problem);
        if (workSpaceSize < workspace_bytes)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "workSpaceSize is %zu, this problem needs %zu (cudnnGetRNNTempSpaceSizes)",
                                  workSpaceSize, workspace_bytes);
        if (workspace_bytes > 0) LIBREDNN_REQUIRE_NOT_NULL(workSpace);
        if (problem.training) {
            const size_t reserve_bytes = librednn::rnn_reserve_bytes(problem);
            if (reserveSpaceSize < reserve_bytes)
                return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                      "reserveSpaceSize is %zu, training needs %zu (cudnnGetRNNTempSpaceSizes)",
                                      reserveSpaceSize, reserve_bytes);
            if (reserve_bytes > 0) LIBREDNN_REQUIRE_NOT_NULL(reserveSpace);
        }
        context.workspace = workSpace;
        context.workspace_bytes = workSpaceSize;
        librednn::RnnBuffers buffers;
        buffers.x = x;
        buffers.y = y;
        buffers.hx = hx;
        buffers.hy = hy;
        buffers.cx = problem.has_cx ? cx : nullptr;
        buffers.cy = problem.has_cy ? cy : nullptr;
        buffers.weights = weightSpace;
        buffers.reserve = problem.training ? reserveSpace : nullptr;
        LIBREDNN_CHECK(librednn::api::rnn_dropout_states_of(*rnnDesc, problem, &buffers.dropout_states));
        LIBREDNN_CHECK(librednn::checked_buffers(problem, buffers, workSpace, workspace_bytes));
        return solver->run(context, problem, buffers);
    });
}
