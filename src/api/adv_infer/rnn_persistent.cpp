// The persistent-RNN plan calls (cudnnCreatePersistentRNNPlan, cudnnSetPersistentRNNPlan,
// cudnnDestroyPersistentRNNPlan) and cudnnBuildRNNDynamic. cuDNN documents them for
// CUDNN_RNN_ALGO_PERSIST_DYNAMIC only, whose kernels it compiles for the GPU and mini-batch at hand.
// LibreDNN has no persistent kernels: every algorithm runs on the RNN solvers, which need no plan. So these
// calls check their arguments with cuDNN's statuses, and where cuDNN would build something they answer
// NOT_SUPPORTED with the reason instead of pretending to (docs/RNN.md, "The legacy API").
#include "api/entry.hpp"
#include "descriptors/rnn.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

Status require_dynamic(const cudnnRNNStruct &rnn, Status status) {
    if (rnn.algo == CUDNN_RNN_ALGO_PERSIST_DYNAMIC) return CUDNN_STATUS_SUCCESS;
    const char *name = librednn::enum_name(rnn.algo);
    return librednn::fail(status,
                          "rnnDesc's algo is %s; persistent plans exist for CUDNN_RNN_ALGO_PERSIST_DYNAMIC only",
                          name ? name : "?");
}

constexpr const char *kNoPersistentKernels =
    "LibreDNN has no persistent RNN kernels to plan or compile: CUDNN_RNN_ALGO_PERSIST_DYNAMIC runs on the "
    "standard RNN solvers, which need no plan (leave the plan calls out)";

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnCreatePersistentRNNPlan(cudnnRNNDescriptor_t rnnDesc, const int minibatch,
                                                       const cudnnDataType_t dataType, cudnnPersistentRNNPlan_t *plan) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc).arg("minibatch", minibatch).arg("dataType", dataType);
        call.arg("plan", static_cast<const void *>(plan));
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(plan);
        LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
        if (minibatch < 1)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "minibatch is %d, must be at least 1", minibatch);
        if (!librednn::rnn_math_precision_fits(dataType, rnnDesc->math_prec))
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "dataType is %d, which rnnDesc's mathPrec cannot compute",
                                  static_cast<int>(dataType));
        LIBREDNN_CHECK(require_dynamic(*rnnDesc, CUDNN_STATUS_BAD_PARAM));
        return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", kNoPersistentKernels);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetPersistentRNNPlan(cudnnRNNDescriptor_t rnnDesc, cudnnPersistentRNNPlan_t plan) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc).arg("plan", static_cast<const void *>(plan));
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(plan);
        LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
        LIBREDNN_CHECK(require_dynamic(*rnnDesc, CUDNN_STATUS_BAD_PARAM));
        // cudnnCreatePersistentRNNPlan never makes one here, so this is not a plan of ours.
        return librednn::fail(CUDNN_STATUS_BAD_PARAM, "plan was not made by cudnnCreatePersistentRNNPlan (%s)",
                              kNoPersistentKernels);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyPersistentRNNPlan(cudnnPersistentRNNPlan_t plan) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("plan", static_cast<const void *>(plan));
        if (plan == nullptr) return CUDNN_STATUS_SUCCESS;
        return librednn::fail(CUDNN_STATUS_BAD_PARAM, "plan was not made by cudnnCreatePersistentRNNPlan (%s)",
                              kNoPersistentKernels);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnBuildRNNDynamic(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc, int miniBatch) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("miniBatch", miniBatch);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
        if (miniBatch < 1)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "miniBatch is %d, must be at least 1", miniBatch);
        LIBREDNN_CHECK(require_dynamic(*rnnDesc, CUDNN_STATUS_BAD_PARAM));
        return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", kNoPersistentKernels);
    });
}
