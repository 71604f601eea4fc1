// cudnnRNNBackwardData_v8 and cudnnRNNBackwardWeights_v8: after a training cudnnRNNForward, with its
// reserve space; backward data leaves in the reserve space what backward weights reads (docs/RNN.md).
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/rnn_problem.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/rnn/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

// The sizes every RNN pass checks: the weight space, the solver's workspace and the training reserve.
Status check_spaces(const librednn::RnnSolver &solver, const librednn::RnnProblem &problem, size_t weightSpaceSize,
                    size_t workSpaceSize, const void *workSpace, size_t reserveSpaceSize, const void *reserveSpace) {
    const size_t weight_bytes = librednn::rnn_weight_space_bytes(problem.net);
    if (weightSpaceSize < weight_bytes)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                              "weightSpaceSize is %zu, the network's weights need %zu (cudnnGetRNNWeightSpaceSize)",
                              weightSpaceSize, weight_bytes);
    const size_t workspace_bytes = solver.workspace_bytes(problem);
    if (workSpaceSize < workspace_bytes)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                              "workSpaceSize is %zu, this problem needs %zu (cudnnGetRNNTempSpaceSizes)", workSpaceSize,
                              workspace_bytes);
    if (workspace_bytes > 0) LIBREDNN_REQUIRE_NOT_NULL(workSpace);
    LIBREDNN_CHECK(librednn::require_space_aligned("workSpace", workSpace, workspace_bytes));
    const size_t reserve_bytes = librednn::rnn_reserve_bytes(problem);
    if (reserveSpaceSize < reserve_bytes)
        return librednn::fail(
            CUDNN_STATUS_BAD_PARAM,
            "reserveSpaceSize is %zu, the training forward's reserve is %zu (cudnnGetRNNTempSpaceSizes)",
            reserveSpaceSize, reserve_bytes);
    LIBREDNN_REQUIRE_NOT_NULL(reserveSpace);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnRNNBackwardData_v8(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                                  const int32_t devSeqLengths[], cudnnRNNDataDescriptor_t yDesc,
                                                  const void *y, const void *dy, cudnnRNNDataDescriptor_t xDesc,
                                                  void *dx, cudnnTensorDescriptor_t hDesc, const void *hx,
                                                  const void *dhy, void *dhx, cudnnTensorDescriptor_t cDesc,
                                                  const void *cx, const void *dcy, void *dcx, size_t weightSpaceSize,
                                                  const void *weightSpace, size_t workSpaceSize, void *workSpace,
                                                  size_t reserveSpaceSize, void *reserveSpace) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc);
        call.arg("devSeqLengths", static_cast<const void *>(devSeqLengths));
        call.arg("yDesc", yDesc).arg("y", y).arg("dy", dy).arg("xDesc", xDesc).arg("dx", dx);
        call.arg("hDesc", hDesc).arg("hx", hx).arg("dhy", dhy).arg("dhx", dhx);
        call.arg("cDesc", cDesc).arg("cx", cx).arg("dcy", dcy).arg("dcx", dcx);
        call.arg("weightSpaceSize", weightSpaceSize).arg("weightSpace", weightSpace);
        call.arg("workSpaceSize", workSpaceSize).arg("workSpace", workSpace);
        call.arg("reserveSpaceSize", reserveSpaceSize).arg("reserveSpace", reserveSpace);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        if (yDesc == nullptr) return librednn::fail(CUDNN_STATUS_BAD_PARAM, "yDesc is NULL");
        // hDesc describes hx, dhy and dhx alike; cDesc cx, dcy and dcx.
        librednn::api::RnnStates states;
        states.h = hDesc;
        states.has_hx = hx != nullptr || dhx != nullptr;
        states.has_hy = dhy != nullptr;
        states.c = cDesc;
        states.has_cx = cx != nullptr || dcx != nullptr;
        states.has_cy = dcy != nullptr;
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(
            librednn::api::rnn_forward_problem_of(rnnDesc, CUDNN_FWD_MODE_TRAINING, xDesc, yDesc, states, &problem));
        problem.direction = librednn::RnnDirection::backward_data;
        LIBREDNN_REQUIRE_NOT_NULL(devSeqLengths);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        LIBREDNN_REQUIRE_NOT_NULL(weightSpace);
        librednn::ExecutionContext context = librednn::context_of(*handle);
        const librednn::RnnSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::select_solver(librednn::rnn_solvers(), context.backend, problem, "rnn", &solver));
        LIBREDNN_CHECK(
            check_spaces(*solver, problem, weightSpaceSize, workSpaceSize, workSpace, reserveSpaceSize, reserveSpace));
        context.workspace = workSpace;
        context.workspace_bytes = workSpaceSize;
        librednn::RnnBuffers buffers;
        buffers.y = const_cast<void *>(y);
        buffers.dy = dy;
        buffers.dx = dx;
        buffers.hx = hx;
        buffers.dhy = dhy;
        buffers.dhx = dhx;
        const bool lstm = problem.net.cell == CUDNN_LSTM;
        buffers.cx = lstm ? cx : nullptr;
        buffers.dcy = lstm ? dcy : nullptr;
        buffers.dcx = lstm ? dcx : nullptr;
        buffers.weights = weightSpace;
        buffers.reserve = reserveSpace;
        LIBREDNN_CHECK(librednn::buffer_alignment(problem, buffers));
        return solver->run(context, problem, buffers);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNBackwardWeights_v8(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                                     cudnnWgradMode_t addGrad, const int32_t devSeqLengths[],
                                                     cudnnRNNDataDescriptor_t xDesc, const void *x,
                                                     cudnnTensorDescriptor_t hDesc, const void *hx,
                                                     cudnnRNNDataDescriptor_t yDesc, const void *y,
                                                     size_t weightSpaceSize, void *dweightSpace, size_t workSpaceSize,
                                                     void *workSpace, size_t reserveSpaceSize, void *reserveSpace) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("addGrad", static_cast<int>(addGrad));
        call.arg("devSeqLengths", static_cast<const void *>(devSeqLengths));
        call.arg("xDesc", xDesc).arg("x", x).arg("hDesc", hDesc).arg("hx", hx).arg("yDesc", yDesc).arg("y", y);
        call.arg("weightSpaceSize", weightSpaceSize).arg("dweightSpace", dweightSpace);
        call.arg("workSpaceSize", workSpaceSize).arg("workSpace", workSpace);
        call.arg("reserveSpaceSize", reserveSpaceSize).arg("reserveSpace", reserveSpace);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        if (addGrad != CUDNN_WGRAD_MODE_ADD && addGrad != CUDNN_WGRAD_MODE_SET)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "addGrad is %d, neither CUDNN_WGRAD_MODE_ADD nor _SET",
                                  static_cast<int>(addGrad));
        if (yDesc == nullptr) return librednn::fail(CUDNN_STATUS_BAD_PARAM, "yDesc is NULL");
        librednn::api::RnnStates states;
        states.h = hDesc;
        states.has_hx = hx != nullptr;
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(
            librednn::api::rnn_forward_problem_of(rnnDesc, CUDNN_FWD_MODE_TRAINING, xDesc, yDesc, states, &problem));
        problem.direction = librednn::RnnDirection::backward_weights;
        LIBREDNN_REQUIRE_NOT_NULL(devSeqLengths);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(dweightSpace);
        librednn::ExecutionContext context = librednn::context_of(*handle);
        const librednn::RnnSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::select_solver(librednn::rnn_solvers(), context.backend, problem, "rnn", &solver));
        LIBREDNN_CHECK(
            check_spaces(*solver, problem, weightSpaceSize, workSpaceSize, workSpace, reserveSpaceSize, reserveSpace));
        context.workspace = workSpace;
        context.workspace_bytes = workSpaceSize;
        librednn::RnnBuffers buffers;
        buffers.x = x;
        buffers.hx = hx;
        buffers.dweights = dweightSpace;
        buffers.add_grad = addGrad == CUDNN_WGRAD_MODE_ADD;
        buffers.reserve = reserveSpace;
        LIBREDNN_CHECK(librednn::buffer_alignment(problem, buffers));
        return solver->run(context, problem, buffers);
    });
}
