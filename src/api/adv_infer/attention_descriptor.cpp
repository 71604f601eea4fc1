// The multi-head attention descriptor's entry points: create, destroy, set and get.
#include "api/entry.hpp"
#include "descriptors/attention.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

template <class T>
void store(T *out, T value) {
    if (out != nullptr) *out = value;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnCreateAttnDescriptor(cudnnAttnDescriptor_t *attnDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("attnDesc", static_cast<const void *>(attnDesc));
        LIBREDNN_REQUIRE_NOT_NULL(attnDesc);
        *attnDesc = new cudnnAttnStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyAttnDescriptor(cudnnAttnDescriptor_t attnDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("attnDesc", attnDesc);
        delete attnDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetAttnDescriptor(cudnnAttnDescriptor_t attnDesc, unsigned attnMode, int nHeads,
                                                 double smScaler, cudnnDataType_t dataType, cudnnDataType_t computePrec,
                                                 cudnnMathType_t mathType, cudnnDropoutDescriptor_t attnDropoutDesc,
                                                 cudnnDropoutDescriptor_t postDropoutDesc, int qSize, int kSize,
                                                 int vSize, int qProjSize, int kProjSize, int vProjSize, int oProjSize,
                                                 int qoMaxSeqLength, int kvMaxSeqLength, int maxBatchSize,
                                                 int maxBeamSize) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        // The dropout descriptors belong to another family and stay opaque: traced as addresses.
        call.arg("attnDesc", static_cast<const void *>(attnDesc))
            .arg("attnMode", attnMode)
            .arg("nHeads", nHeads)
            .arg("smScaler", smScaler)
            .arg("dataType", dataType)
            .arg("computePrec", computePrec)
            .arg("mathType", mathType)
            .arg("attnDropoutDesc", static_cast<const void *>(attnDropoutDesc))
            .arg("postDropoutDesc", static_cast<const void *>(postDropoutDesc))
            .arg("qSize", qSize)
            .arg("kSize", kSize)
            .arg("vSize", vSize)
            .arg("qProjSize", qProjSize)
            .arg("kProjSize", kProjSize)
            .arg("vProjSize", vProjSize)
            .arg("oProjSize", oProjSize)
            .arg("qoMaxSeqLength", qoMaxSeqLength)
            .arg("kvMaxSeqLength", kvMaxSeqLength)
            .arg("maxBatchSize", maxBatchSize)
            .arg("maxBeamSize", maxBeamSize);
        LIBREDNN_REQUIRE_NOT_NULL(attnDesc);
        const librednn::AttnSettings settings{attnMode,       nHeads,          smScaler,        dataType,   computePrec,
                                              mathType,       attnDropoutDesc, postDropoutDesc, qSize,      kSize,
                                              vSize,          qProjSize,       kProjSize,       vProjSize,  oProjSize,
                                              qoMaxSeqLength, kvMaxSeqLength,  maxBatchSize,    maxBeamSize};
        return librednn::set_attention(attnDesc, settings);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetAttnDescriptor(
    cudnnAttnDescriptor_t attnDesc, unsigned *attnMode, int *nHeads, double *smScaler, cudnnDataType_t *dataType,
    cudnnDataType_t *computePrec, cudnnMathType_t *mathType, cudnnDropoutDescriptor_t *attnDropoutDesc,
    cudnnDropoutDescriptor_t *postDropoutDesc, int *qSize, int *kSize, int *vSize, int *qProjSize, int *kProjSize,
    int *vProjSize, int *oProjSize, int *qoMaxSeqLength, int *kvMaxSeqLength, int *maxBatchSize, int *maxBeamSize) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("attnDesc", attnDesc)
            .arg("attnMode", attnMode)
            .arg("nHeads", nHeads)
            .arg("smScaler", smScaler)
            .arg("dataType", dataType)
            .arg("computePrec", computePrec)
            .arg("mathType", mathType)
            .arg("attnDropoutDesc", attnDropoutDesc)
            .arg("postDropoutDesc", postDropoutDesc)
            .arg("qSize", qSize)
            .arg("kSize", kSize)
            .arg("vSize", vSize)
            .arg("qProjSize", qProjSize)
            .arg("kProjSize", kProjSize)
            .arg("vProjSize", vProjSize)
            .arg("oProjSize", oProjSize)
            .arg("qoMaxSeqLength", qoMaxSeqLength)
            .arg("kvMaxSeqLength", kvMaxSeqLength)
            .arg("maxBatchSize", maxBatchSize)
            .arg("maxBeamSize", maxBeamSize);
        LIBREDNN_REQUIRE_NOT_NULL(attnDesc);
        LIBREDNN_CHECK(librednn::require_attention_set(*attnDesc, "attnDesc"));
        // cuDNN documents every output pointer as optional: NULL means "not needed".
        const cudnnAttnStruct &attn = *attnDesc;
        store(attnMode, attn.attn_mode);
        store(nHeads, attn.n_heads);
        store(smScaler, attn.sm_scaler);
        store(dataType, attn.data_type);
        store(computePrec, attn.compute_prec);
        store(mathType, attn.math_type);
        store(attnDropoutDesc, attn.attn_dropout);
        store(postDropoutDesc, attn.post_dropout);
        store(qSize, attn.q_size);
        store(kSize, attn.k_size);
        store(vSize, attn.v_size);
        store(qProjSize, attn.q_proj_size);
        store(kProjSize, attn.k_proj_size);
        store(vProjSize, attn.v_proj_size);
        store(oProjSize, attn.o_proj_size);
        store(qoMaxSeqLength, attn.qo_max_seq_length);
        store(kvMaxSeqLength, attn.kv_max_seq_length);
        store(maxBatchSize, attn.max_batch_size);
        store(maxBeamSize, attn.max_beam_size);
        return CUDNN_STATUS_SUCCESS;
    });
}
