// cudnnCreate/Set/Get/DestroyLRNDescriptor.
#include "descriptors/lrn.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateLRNDescriptor(cudnnLRNDescriptor_t *normDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("normDesc", static_cast<const void *>(normDesc));
        LIBREDNN_REQUIRE_NOT_NULL(normDesc);
        *normDesc = new cudnnLRNStruct;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetLRNDescriptor(cudnnLRNDescriptor_t normDesc, unsigned lrnN, double lrnAlpha,
                                                double lrnBeta, double lrnK) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("normDesc", normDesc)
            .arg("lrnN", lrnN)
            .arg("lrnAlpha", lrnAlpha)
            .arg("lrnBeta", lrnBeta)
            .arg("lrnK", lrnK);
        LIBREDNN_REQUIRE_NOT_NULL(normDesc);
        return librednn::set_lrn(normDesc, lrnN, lrnAlpha, lrnBeta, lrnK);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetLRNDescriptor(cudnnLRNDescriptor_t normDesc, unsigned *lrnN, double *lrnAlpha,
                                                double *lrnBeta, double *lrnK) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("normDesc", normDesc)
            .arg("lrnN", static_cast<const void *>(lrnN))
            .arg("lrnAlpha", static_cast<const void *>(lrnAlpha))
            .arg("lrnBeta", static_cast<const void *>(lrnBeta))
            .arg("lrnK", static_cast<const void *>(lrnK));
        LIBREDNN_REQUIRE_NOT_NULL(normDesc);
        LIBREDNN_REQUIRE_NOT_NULL(lrnN);
        LIBREDNN_REQUIRE_NOT_NULL(lrnAlpha);
        LIBREDNN_REQUIRE_NOT_NULL(lrnBeta);
        LIBREDNN_REQUIRE_NOT_NULL(lrnK);
        *lrnN = normDesc->n;
        *lrnAlpha = normDesc->alpha;
        *lrnBeta = normDesc->beta;
        *lrnK = normDesc->k;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyLRNDescriptor(cudnnLRNDescriptor_t lrnDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("lrnDesc", lrnDesc);
        delete lrnDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}
