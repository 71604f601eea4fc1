// The persistent-RNN plan calls (cudnnCreatePersistentRNNPlan, cudnnSetPersistentRNNPlan,
// cudnnDestroyPersistentRNNPlan) and cudnnBuildRNNDynamic. cuDNN documents them for
// CUDNN_RNN_ALGO_PERSIST_DYNAMIC only, whose kernels it compiles for the GPU and mini-batch at hand. LibreDNN
// compiles nothing at run time, and chooses its persistent kernels per call from the problem, whatever the
// algorithm: no solver reads a plan. So a plan here records the mini-batch and data type it was made for, and
// attaching it copies them into the RNN descriptor (for traces); the calls check their arguments with cuDNN's
// statuses and otherwise succeed, so that programs written for PERSIST_DYNAMIC run unchanged (docs/RNN.md,
// "The legacy API").
#include "api/entry.hpp"
#include "descriptors/rnn.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

Status require_dynamic(const cudnnRNNStruct &rnn) {
    if (rnn.algo == CUDNN_RNN_ALGO_PERSIST_DYNAMIC) return CUDNN_STATUS_SUCCESS;
    const char *name = librednn::enum_name(rnn.algo);
    return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                          "rnnDesc's algo is %s; persistent plans exist for CUDNN_RNN_ALGO_PERSIST_DYNAMIC only",
                          name ? name : "?");
}

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
        LIBREDNN_CHECK(require_dynamic(*rnnDesc));
        auto *made = new cudnnPersistentRNNPlan();  // std::bad_alloc: CUDNN_STATUS_ALLOC_FAILED (api::call)
        made->minibatch = minibatch;
        made->data_type = dataType;
        *plan = made;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetPersistentRNNPlan(cudnnRNNDescriptor_t rnnDesc, cudnnPersistentRNNPlan_t plan) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc).arg("plan", plan);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(plan);
        LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
        LIBREDNN_CHECK(require_dynamic(*rnnDesc));
        return librednn::attach_persistent_rnn_plan(rnnDesc, plan);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyPersistentRNNPlan(cudnnPersistentRNNPlan_t plan) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("plan", plan);
        if (plan == nullptr) return CUDNN_STATUS_SUCCESS;
        if (!librednn::is_persistent_rnn_plan(plan))
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "plan was not made by cudnnCreatePersistentRNNPlan");
        plan->magic = 0;  // a second destroy of the same plan is then more likely refused than freed twice
        delete plan;
        return CUDNN_STATUS_SUCCESS;
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
        LIBREDNN_CHECK(require_dynamic(*rnnDesc));
        return CUDNN_STATUS_SUCCESS;  // nothing to compile: the kernels are built in, chosen per call
    });
}
