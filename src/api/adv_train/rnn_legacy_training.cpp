// The legacy API's training passes: cudnnRNNForwardTraining, cudnnRNNBackwardData and cudnnRNNBackwardWeights,
// their Ex variants (RNN data descriptors) and their algorithm calls (Get...AlgorithmMaxCount,
// Find...AlgorithmEx). Each builds the same RnnProblem as the v8 API and runs the same solvers; backward
// weights ADDS its gradients into dw, as cuDNN's legacy call does (the v8 call's CUDNN_WGRAD_MODE_ADD).
#include "api/entry.hpp"
#include "api/rnn_legacy.hpp"
#include "api/rnn_problem.hpp"

using librednn::Status;
using librednn::api::Call;
using librednn::api::RnnState;

namespace {

// The Ex calls' attention arguments, which cuDNN reserves: any of them not NULL is NOT_SUPPORTED.
Status require_no_attention(std::initializer_list<std::pair<const char *, const void *>> arguments) {
    for (const auto &[name, value] : arguments)
        if (value != nullptr)
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "%s is not NULL; cuDNN reserves it and it must be NULL",
                                  name);
    return CUDNN_STATUS_SUCCESS;
}

librednn::api::RnnSpaces spaces_of(const void *workspace, size_t workspace_bytes, const void *reserve,
                                   size_t reserve_bytes) {
    librednn::api::RnnSpaces spaces;
    // The legacy backward weights takes both as const; the solvers use them as scratch, as cuDNN's does.
    spaces.workspace = const_cast<void *>(workspace);
    spaces.workspace_bytes = workspace_bytes;
    spaces.reserve = const_cast<void *>(reserve);
    spaces.reserve_bytes = reserve_bytes;
    return spaces;
}

// The arguments of cudnnRNNBackwardData and its Find call.
struct BackwardData {
    int seq_length;
    const cudnnTensorDescriptor_t *y_desc;
    const void *y;
    const cudnnTensorDescriptor_t *dy_desc;
    const void *dy;
    cudnnTensorDescriptor_t dhy_desc;
    const void *dhy;
    cudnnTensorDescriptor_t dcy_desc;
    const void *dcy;
    cudnnFilterDescriptor_t w_desc;
    const void *w;
    cudnnTensorDescriptor_t hx_desc;
    const void *hx;
    cudnnTensorDescriptor_t cx_desc;
    const void *cx;
    const cudnnTensorDescriptor_t *dx_desc;
    void *dx;
    cudnnTensorDescriptor_t dhx_desc;
    void *dhx;
    cudnnTensorDescriptor_t dcx_desc;
    void *dcx;
};

// Buffers of a backward-data problem whose states apply_rnn_states has set.
librednn::RnnBuffers backward_data_buffers(const librednn::RnnProblem &p, const void *y, const void *dy, void *dx,
                                           const void *hx, const void *dhy, void *dhx, const void *cx, const void *dcy,
                                           void *dcx, const void *w) {
    librednn::RnnBuffers b;
    b.y = const_cast<void *>(y);
    b.dy = dy;
    b.dx = dx;
    b.hx = hx;
    b.dhy = dhy;
    b.dhx = dhx;
    const bool lstm = p.net.cell == CUDNN_LSTM;
    b.cx = lstm ? cx : nullptr;
    b.dcy = lstm ? dcy : nullptr;
    b.dcx = lstm ? dcx : nullptr;
    b.weights = w;
    return b;
}

Status backward_data_of(const cudnnRNNStruct *rnn, const BackwardData &a, librednn::RnnProblem *problem,
                        librednn::RnnBuffers *buffers) {
    if (a.y_desc == nullptr) return librednn::api::null_argument("yDesc");
    if (a.dy_desc == nullptr) return librednn::api::null_argument("dyDesc");
    librednn::RnnProblem p, with_y;
    LIBREDNN_CHECK(
        librednn::api::rnn_legacy_problem_of(rnn, true, a.seq_length, a.dx_desc, "dxDesc", a.dy_desc, "dyDesc", &p));
    LIBREDNN_CHECK(
        librednn::api::rnn_legacy_problem_of(rnn, true, a.seq_length, a.dx_desc, "dxDesc", a.y_desc, "yDesc", &with_y));
    p.direction = librednn::RnnDirection::backward_data;
    LIBREDNN_CHECK(librednn::api::apply_rnn_states({{RnnState::hx, a.hx_desc, "hxDesc", a.hx},
                                                    {RnnState::hx, a.dhx_desc, "dhxDesc", a.dhx},
                                                    {RnnState::hy, a.dhy_desc, "dhyDesc", a.dhy},
                                                    {RnnState::cx, a.cx_desc, "cxDesc", a.cx},
                                                    {RnnState::cx, a.dcx_desc, "dcxDesc", a.dcx},
                                                    {RnnState::cy, a.dcy_desc, "dcyDesc", a.dcy}},
                                                   &p));
    LIBREDNN_CHECK(librednn::api::check_rnn_weight_filter(a.w_desc, "wDesc", p.net));
    if (a.dy == nullptr) return librednn::api::null_argument("dy");
    if (a.dx == nullptr) return librednn::api::null_argument("dx");
    if (a.w == nullptr) return librednn::api::null_argument("w");
    *buffers = backward_data_buffers(p, a.y, a.dy, a.dx, a.hx, a.dhy, a.dhx, a.cx, a.dcy, a.dcx, a.w);
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

// The arguments of cudnnRNNBackwardWeights and its Find call.
struct BackwardWeights {
    int seq_length;
    const cudnnTensorDescriptor_t *x_desc;
    const void *x;
    cudnnTensorDescriptor_t hx_desc;
    const void *hx;
    const cudnnTensorDescriptor_t *y_desc;
    const void *y;
    cudnnFilterDescriptor_t dw_desc;
    void *dw;
};

librednn::RnnBuffers backward_weights_buffers(const librednn::RnnProblem &p, const void *x, const void *hx, void *dw) {
    librednn::RnnBuffers b;
    b.x = x;
    b.hx = p.has_hx ? hx : nullptr;
    b.dweights = dw;
    b.add_grad = true;  // the legacy call always adds
    return b;
}

Status backward_weights_of(const cudnnRNNStruct *rnn, const BackwardWeights &a, librednn::RnnProblem *problem,
                           librednn::RnnBuffers *buffers) {
    if (a.y_desc == nullptr) return librednn::api::null_argument("yDesc");
    librednn::RnnProblem p;
    LIBREDNN_CHECK(
        librednn::api::rnn_legacy_problem_of(rnn, true, a.seq_length, a.x_desc, "xDesc", a.y_desc, "yDesc", &p));
    p.direction = librednn::RnnDirection::backward_weights;
    LIBREDNN_CHECK(librednn::api::apply_rnn_states({{RnnState::hx, a.hx_desc, "hxDesc", a.hx}}, &p));
    LIBREDNN_CHECK(librednn::api::check_rnn_weight_filter(a.dw_desc, "dwDesc", p.net));
    if (a.x == nullptr) return librednn::api::null_argument("x");
    if (a.dw == nullptr) return librednn::api::null_argument("dw");
    *buffers = backward_weights_buffers(p, a.x, a.hx, a.dw);
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

Status algorithm_max_count(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc, int *count) {
    LIBREDNN_REQUIRE_NOT_NULL(handle);
    LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
    LIBREDNN_REQUIRE_NOT_NULL(count);
    LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
    *count = librednn::api::rnn_algorithm_max_count(*handle);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnRNNForwardTraining(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const int seqLength, const cudnnTensorDescriptor_t *xDesc,
    const void *x, const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t cxDesc,
    const void *cx, const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnTensorDescriptor_t *yDesc, void *y,
    const cudnnTensorDescriptor_t hyDesc, void *hy, const cudnnTensorDescriptor_t cyDesc, void *cy, void *workSpace,
    size_t workSpaceSizeInBytes, void *reserveSpace, size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("xDesc", xDesc, seqLength, seqLength).arg("x", x);
        call.arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx).arg("wDesc", wDesc).arg("w", w);
        call.array("yDesc", yDesc, seqLength, seqLength).arg("y", static_cast<const void *>(y));
        call.arg("hyDesc", hyDesc).arg("hy", static_cast<const void *>(hy));
        call.arg("cyDesc", cyDesc).arg("cy", static_cast<const void *>(cy));
        call.arg("workSpace", static_cast<const void *>(workSpace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("reserveSpace", static_cast<const void *>(reserveSpace));
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        librednn::RnnBuffers buffers;
        LIBREDNN_CHECK(librednn::api::rnn_legacy_forward_of(
            rnnDesc, true,
            librednn::api::RnnLegacyForward{seqLength, xDesc, x, hxDesc, hx, cxDesc, cx, wDesc, w, yDesc, y, hyDesc, hy,
                                            cyDesc, cy},
            &problem, &buffers));
        return librednn::api::run_rnn(
            *handle, problem, buffers,
            spaces_of(workSpace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes));
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNBackwardData(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const int seqLength, const cudnnTensorDescriptor_t *yDesc,
    const void *y, const cudnnTensorDescriptor_t *dyDesc, const void *dy, const cudnnTensorDescriptor_t dhyDesc,
    const void *dhy, const cudnnTensorDescriptor_t dcyDesc, const void *dcy, const cudnnFilterDescriptor_t wDesc,
    const void *w, const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t cxDesc,
    const void *cx, const cudnnTensorDescriptor_t *dxDesc, void *dx, const cudnnTensorDescriptor_t dhxDesc, void *dhx,
    const cudnnTensorDescriptor_t dcxDesc, void *dcx, void *workSpace, size_t workSpaceSizeInBytes, void *reserveSpace,
    size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("yDesc", yDesc, seqLength, seqLength).arg("y", y);
        call.array("dyDesc", dyDesc, seqLength, seqLength).arg("dy", dy);
        call.arg("dhyDesc", dhyDesc).arg("dhy", dhy).arg("dcyDesc", dcyDesc).arg("dcy", dcy);
        call.arg("wDesc", wDesc).arg("w", w).arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx);
        call.array("dxDesc", dxDesc, seqLength, seqLength).arg("dx", static_cast<const void *>(dx));
        call.arg("dhxDesc", dhxDesc).arg("dhx", static_cast<const void *>(dhx));
        call.arg("dcxDesc", dcxDesc).arg("dcx", static_cast<const void *>(dcx));
        call.arg("workSpace", static_cast<const void *>(workSpace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("reserveSpace", static_cast<const void *>(reserveSpace));
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        librednn::RnnBuffers buffers;
        LIBREDNN_CHECK(
            backward_data_of(rnnDesc, {seqLength, yDesc,  y,  dyDesc, dy, dhyDesc, dhy, dcyDesc, dcy, wDesc, w, hxDesc,
                                       hx,        cxDesc, cx, dxDesc, dx, dhxDesc, dhx, dcxDesc, dcx},
                             &problem, &buffers));
        return librednn::api::run_rnn(
            *handle, problem, buffers,
            spaces_of(workSpace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes));
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNBackwardWeights(cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc,
                                                  const int seqLength, const cudnnTensorDescriptor_t *xDesc,
                                                  const void *x, const cudnnTensorDescriptor_t hxDesc, const void *hx,
                                                  const cudnnTensorDescriptor_t *yDesc, const void *y,
                                                  const void *workSpace, size_t workSpaceSizeInBytes,
                                                  const cudnnFilterDescriptor_t dwDesc, void *dw,
                                                  const void *reserveSpace, size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("xDesc", xDesc, seqLength, seqLength).arg("x", x).arg("hxDesc", hxDesc).arg("hx", hx);
        call.array("yDesc", yDesc, seqLength, seqLength).arg("y", y);
        call.arg("workSpace", workSpace).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("dwDesc", dwDesc).arg("dw", static_cast<const void *>(dw));
        call.arg("reserveSpace", reserveSpace).arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        librednn::RnnBuffers buffers;
        LIBREDNN_CHECK(
            backward_weights_of(rnnDesc, {seqLength, xDesc, x, hxDesc, hx, yDesc, y, dwDesc, dw}, &problem, &buffers));
        return librednn::api::run_rnn(
            *handle, problem, buffers,
            spaces_of(workSpace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes));
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNForwardTrainingEx(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const cudnnRNNDataDescriptor_t xDesc, const void *x,
    const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t cxDesc, const void *cx,
    const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnRNNDataDescriptor_t yDesc, void *y,
    const cudnnTensorDescriptor_t hyDesc, void *hy, const cudnnTensorDescriptor_t cyDesc, void *cy,
    const cudnnRNNDataDescriptor_t kDesc, const void *keys, const cudnnRNNDataDescriptor_t cDesc, void *cAttn,
    const cudnnRNNDataDescriptor_t iDesc, void *iAttn, const cudnnRNNDataDescriptor_t qDesc, void *queries,
    void *workSpace, size_t workSpaceSizeInBytes, void *reserveSpace, size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("xDesc", xDesc).arg("x", x);
        call.arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx).arg("wDesc", wDesc).arg("w", w);
        call.arg("yDesc", yDesc).arg("y", static_cast<const void *>(y));
        call.arg("hyDesc", hyDesc).arg("hy", static_cast<const void *>(hy));
        call.arg("cyDesc", cyDesc).arg("cy", static_cast<const void *>(cy));
        call.arg("kDesc", kDesc).arg("keys", keys).arg("cDesc", cDesc).arg("cAttn", static_cast<const void *>(cAttn));
        call.arg("iDesc", iDesc).arg("iAttn", static_cast<const void *>(iAttn)).arg("qDesc", qDesc);
        call.arg("queries", static_cast<const void *>(queries));
        call.arg("workSpace", static_cast<const void *>(workSpace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("reserveSpace", static_cast<const void *>(reserveSpace));
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(require_no_attention({{"kDesc", kDesc},
                                             {"keys", keys},
                                             {"cDesc", cDesc},
                                             {"cAttn", cAttn},
                                             {"iDesc", iDesc},
                                             {"iAttn", iAttn},
                                             {"qDesc", qDesc},
                                             {"queries", queries}}));
        LIBREDNN_REQUIRE_NOT_NULL(yDesc);
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(librednn::api::rnn_ex_problem_of(rnnDesc, true, xDesc, yDesc, &problem));
        LIBREDNN_CHECK(librednn::api::apply_rnn_states({{RnnState::hx, hxDesc, "hxDesc", hx},
                                                        {RnnState::cx, cxDesc, "cxDesc", cx},
                                                        {RnnState::hy, hyDesc, "hyDesc", hy},
                                                        {RnnState::cy, cyDesc, "cyDesc", cy}},
                                                       &problem));
        LIBREDNN_CHECK(librednn::api::check_rnn_weight_filter(wDesc, "wDesc", problem.net));
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        librednn::RnnBuffers buffers;
        buffers.x = x;
        buffers.y = y;
        buffers.hx = problem.has_hx ? hx : nullptr;
        buffers.hy = problem.has_hy ? hy : nullptr;
        buffers.cx = problem.has_cx ? cx : nullptr;
        buffers.cy = problem.has_cy ? cy : nullptr;
        buffers.weights = w;
        LIBREDNN_CHECK(librednn::api::rnn_dropout_states_of(*rnnDesc, problem, &buffers.dropout_states));
        return librednn::api::run_rnn(
            *handle, problem, buffers,
            spaces_of(workSpace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes));
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNBackwardDataEx(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const cudnnRNNDataDescriptor_t yDesc, const void *y,
    const cudnnRNNDataDescriptor_t dyDesc, const void *dy, const cudnnRNNDataDescriptor_t dcDesc, const void *dcAttn,
    const cudnnTensorDescriptor_t dhyDesc, const void *dhy, const cudnnTensorDescriptor_t dcyDesc, const void *dcy,
    const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnTensorDescriptor_t hxDesc, const void *hx,
    const cudnnTensorDescriptor_t cxDesc, const void *cx, const cudnnRNNDataDescriptor_t dxDesc, void *dx,
    const cudnnTensorDescriptor_t dhxDesc, void *dhx, const cudnnTensorDescriptor_t dcxDesc, void *dcx,
    const cudnnRNNDataDescriptor_t dkDesc, void *dkeys, void *workSpace, size_t workSpaceSizeInBytes,
    void *reserveSpace, size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("yDesc", yDesc).arg("y", y).arg("dyDesc", dyDesc).arg("dy", dy);
        call.arg("dcDesc", dcDesc).arg("dcAttn", dcAttn);
        call.arg("dhyDesc", dhyDesc).arg("dhy", dhy).arg("dcyDesc", dcyDesc).arg("dcy", dcy);
        call.arg("wDesc", wDesc).arg("w", w).arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx);
        call.arg("dxDesc", dxDesc).arg("dx", static_cast<const void *>(dx));
        call.arg("dhxDesc", dhxDesc).arg("dhx", static_cast<const void *>(dhx));
        call.arg("dcxDesc", dcxDesc).arg("dcx", static_cast<const void *>(dcx));
        call.arg("dkDesc", dkDesc).arg("dkeys", static_cast<const void *>(dkeys));
        call.arg("workSpace", static_cast<const void *>(workSpace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("reserveSpace", static_cast<const void *>(reserveSpace));
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(
            require_no_attention({{"dcDesc", dcDesc}, {"dcAttn", dcAttn}, {"dkDesc", dkDesc}, {"dkeys", dkeys}}));
        LIBREDNN_REQUIRE_NOT_NULL(yDesc);
        LIBREDNN_REQUIRE_NOT_NULL(dyDesc);
        librednn::RnnProblem problem, with_y;
        // dx and dy as the v8 call's x and y; y must agree with them too.
        LIBREDNN_CHECK(librednn::api::rnn_ex_problem_of(rnnDesc, true, dxDesc, dyDesc, &problem));
        LIBREDNN_CHECK(librednn::api::rnn_ex_problem_of(rnnDesc, true, dxDesc, yDesc, &with_y));
        problem.direction = librednn::RnnDirection::backward_data;
        LIBREDNN_CHECK(librednn::api::apply_rnn_states({{RnnState::hx, hxDesc, "hxDesc", hx},
                                                        {RnnState::hx, dhxDesc, "dhxDesc", dhx},
                                                        {RnnState::hy, dhyDesc, "dhyDesc", dhy},
                                                        {RnnState::cx, cxDesc, "cxDesc", cx},
                                                        {RnnState::cx, dcxDesc, "dcxDesc", dcx},
                                                        {RnnState::cy, dcyDesc, "dcyDesc", dcy}},
                                                       &problem));
        LIBREDNN_CHECK(librednn::api::check_rnn_weight_filter(wDesc, "wDesc", problem.net));
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        return librednn::api::run_rnn(
            *handle, problem, backward_data_buffers(problem, y, dy, dx, hx, dhy, dhx, cx, dcy, dcx, w),
            spaces_of(workSpace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes));
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNBackwardWeightsEx(cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc,
                                                    const cudnnRNNDataDescriptor_t xDesc, const void *x,
                                                    const cudnnTensorDescriptor_t hxDesc, const void *hx,
                                                    const cudnnRNNDataDescriptor_t yDesc, const void *y,
                                                    void *workSpace, size_t workSpaceSizeInBytes,
                                                    const cudnnFilterDescriptor_t dwDesc, void *dw, void *reserveSpace,
                                                    size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("xDesc", xDesc).arg("x", x).arg("hxDesc", hxDesc).arg("hx", hx);
        call.arg("yDesc", yDesc).arg("y", y);
        call.arg("workSpace", static_cast<const void *>(workSpace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("dwDesc", dwDesc).arg("dw", static_cast<const void *>(dw));
        call.arg("reserveSpace", static_cast<const void *>(reserveSpace));
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(yDesc);
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(librednn::api::rnn_ex_problem_of(rnnDesc, true, xDesc, yDesc, &problem));
        problem.direction = librednn::RnnDirection::backward_weights;
        LIBREDNN_CHECK(librednn::api::apply_rnn_states({{RnnState::hx, hxDesc, "hxDesc", hx}}, &problem));
        LIBREDNN_CHECK(librednn::api::check_rnn_weight_filter(dwDesc, "dwDesc", problem.net));
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(dw);
        return librednn::api::run_rnn(
            *handle, problem, backward_weights_buffers(problem, x, hx, dw),
            spaces_of(workSpace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes));
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNForwardTrainingAlgorithmMaxCount(cudnnHandle_t handle,
                                                                      const cudnnRNNDescriptor_t rnnDesc, int *count) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("count", static_cast<const void *>(count));
        return algorithm_max_count(handle, rnnDesc, count);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNBackwardDataAlgorithmMaxCount(cudnnHandle_t handle,
                                                                   const cudnnRNNDescriptor_t rnnDesc, int *count) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("count", static_cast<const void *>(count));
        return algorithm_max_count(handle, rnnDesc, count);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNBackwardWeightsAlgorithmMaxCount(cudnnHandle_t handle,
                                                                      const cudnnRNNDescriptor_t rnnDesc, int *count) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("count", static_cast<const void *>(count));
        return algorithm_max_count(handle, rnnDesc, count);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindRNNForwardTrainingAlgorithmEx(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const int seqLength, const cudnnTensorDescriptor_t *xDesc,
    const void *x, const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t cxDesc,
    const void *cx, const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnTensorDescriptor_t *yDesc, void *y,
    const cudnnTensorDescriptor_t hyDesc, void *hy, const cudnnTensorDescriptor_t cyDesc, void *cy,
    const float findIntensity, const int requestedAlgoCount, int *returnedAlgoCount,
    cudnnAlgorithmPerformance_t *perfResults, void *workspace, size_t workSpaceSizeInBytes, void *reserveSpace,
    size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("xDesc", xDesc, seqLength, seqLength).arg("x", x);
        call.arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx).arg("wDesc", wDesc).arg("w", w);
        call.array("yDesc", yDesc, seqLength, seqLength).arg("y", static_cast<const void *>(y));
        call.arg("hyDesc", hyDesc).arg("hy", static_cast<const void *>(hy));
        call.arg("cyDesc", cyDesc).arg("cy", static_cast<const void *>(cy));
        call.arg("findIntensity", findIntensity).arg("requestedAlgoCount", requestedAlgoCount);
        call.arg("returnedAlgoCount", static_cast<const void *>(returnedAlgoCount));
        call.arg("perfResults", static_cast<const void *>(perfResults));
        call.arg("workspace", static_cast<const void *>(workspace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("reserveSpace", static_cast<const void *>(reserveSpace));
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        librednn::RnnBuffers buffers;
        LIBREDNN_CHECK(librednn::api::rnn_legacy_forward_of(
            rnnDesc, true,
            librednn::api::RnnLegacyForward{seqLength, xDesc, x, hxDesc, hx, cxDesc, cx, wDesc, w, yDesc, y, hyDesc, hy,
                                            cyDesc, cy},
            &problem, &buffers));
        return librednn::api::find_rnn_algorithms(
            *handle, rnnDesc->algo, problem, buffers,
            spaces_of(workspace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes), requestedAlgoCount,
            returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindRNNBackwardDataAlgorithmEx(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const int seqLength, const cudnnTensorDescriptor_t *yDesc,
    const void *y, const cudnnTensorDescriptor_t *dyDesc, const void *dy, const cudnnTensorDescriptor_t dhyDesc,
    const void *dhy, const cudnnTensorDescriptor_t dcyDesc, const void *dcy, const cudnnFilterDescriptor_t wDesc,
    const void *w, const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t cxDesc,
    const void *cx, const cudnnTensorDescriptor_t *dxDesc, void *dx, const cudnnTensorDescriptor_t dhxDesc, void *dhx,
    const cudnnTensorDescriptor_t dcxDesc, void *dcx, const float findIntensity, const int requestedAlgoCount,
    int *returnedAlgoCount, cudnnAlgorithmPerformance_t *perfResults, void *workspace, size_t workSpaceSizeInBytes,
    void *reserveSpace, size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("yDesc", yDesc, seqLength, seqLength).arg("y", y);
        call.array("dyDesc", dyDesc, seqLength, seqLength).arg("dy", dy);
        call.arg("dhyDesc", dhyDesc).arg("dhy", dhy).arg("dcyDesc", dcyDesc).arg("dcy", dcy);
        call.arg("wDesc", wDesc).arg("w", w).arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx);
        call.array("dxDesc", dxDesc, seqLength, seqLength).arg("dx", static_cast<const void *>(dx));
        call.arg("dhxDesc", dhxDesc).arg("dhx", static_cast<const void *>(dhx));
        call.arg("dcxDesc", dcxDesc).arg("dcx", static_cast<const void *>(dcx));
        call.arg("findIntensity", findIntensity).arg("requestedAlgoCount", requestedAlgoCount);
        call.arg("returnedAlgoCount", static_cast<const void *>(returnedAlgoCount));
        call.arg("perfResults", static_cast<const void *>(perfResults));
        call.arg("workspace", static_cast<const void *>(workspace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("reserveSpace", static_cast<const void *>(reserveSpace));
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        librednn::RnnBuffers buffers;
        LIBREDNN_CHECK(
            backward_data_of(rnnDesc, {seqLength, yDesc,  y,  dyDesc, dy, dhyDesc, dhy, dcyDesc, dcy, wDesc, w, hxDesc,
                                       hx,        cxDesc, cx, dxDesc, dx, dhxDesc, dhx, dcxDesc, dcx},
                             &problem, &buffers));
        return librednn::api::find_rnn_algorithms(
            *handle, rnnDesc->algo, problem, buffers,
            spaces_of(workspace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes), requestedAlgoCount,
            returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindRNNBackwardWeightsAlgorithmEx(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const int seqLength, const cudnnTensorDescriptor_t *xDesc,
    const void *x, const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t *yDesc,
    const void *y, const float findIntensity, const int requestedAlgoCount, int *returnedAlgoCount,
    cudnnAlgorithmPerformance_t *perfResults, const void *workspace, size_t workSpaceSizeInBytes,
    const cudnnFilterDescriptor_t dwDesc, void *dw, const void *reserveSpace, size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("xDesc", xDesc, seqLength, seqLength).arg("x", x).arg("hxDesc", hxDesc).arg("hx", hx);
        call.array("yDesc", yDesc, seqLength, seqLength).arg("y", y);
        call.arg("findIntensity", findIntensity).arg("requestedAlgoCount", requestedAlgoCount);
        call.arg("returnedAlgoCount", static_cast<const void *>(returnedAlgoCount));
        call.arg("perfResults", static_cast<const void *>(perfResults));
        call.arg("workspace", workspace).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("dwDesc", dwDesc).arg("dw", static_cast<const void *>(dw));
        call.arg("reserveSpace", reserveSpace).arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        librednn::RnnBuffers buffers;
        LIBREDNN_CHECK(
            backward_weights_of(rnnDesc, {seqLength, xDesc, x, hxDesc, hx, yDesc, y, dwDesc, dw}, &problem, &buffers));
        return librednn::api::find_rnn_algorithms(
            *handle, rnnDesc->algo, problem, buffers,
            spaces_of(workspace, workSpaceSizeInBytes, reserveSpace, reserveSpaceSizeInBytes), requestedAlgoCount,
            returnedAlgoCount, perfResults);
    });
}
