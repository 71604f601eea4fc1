// The RNN descriptor's entry points: create/destroy, the v8 and legacy v6 setters and getters, and the
// single-property setters and getters (math type, bias mode, clipping, projection, padding).
#include "api/entry.hpp"
#include "descriptors/rnn.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

// The dropout descriptor belongs to another family and is kept opaque: traced as an address only.
const void *opaque(cudnnDropoutDescriptor_t dropout) { return static_cast<const void *>(dropout); }

template <class T>
void store(T *out, T value) {
    if (out != nullptr) *out = value;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnCreateRNNDescriptor(cudnnRNNDescriptor_t *rnnDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", static_cast<const void *>(rnnDesc));
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        *rnnDesc = new cudnnRNNStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyRNNDescriptor(cudnnRNNDescriptor_t rnnDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc);
        delete rnnDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetRNNDescriptor_v8(cudnnRNNDescriptor_t rnnDesc, cudnnRNNAlgo_t algo,
                                                   cudnnRNNMode_t cellMode, cudnnRNNBiasMode_t biasMode,
                                                   cudnnDirectionMode_t dirMode, cudnnRNNInputMode_t inputMode,
                                                   cudnnDataType_t dataType, cudnnDataType_t mathPrec,
                                                   cudnnMathType_t mathType, int32_t inputSize, int32_t hiddenSize,
                                                   int32_t projSize, int32_t numLayers,
                                                   cudnnDropoutDescriptor_t dropoutDesc, uint32_t auxFlags) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", static_cast<const void *>(rnnDesc))
            .arg("algo", algo)
            .arg("cellMode", cellMode)
            .arg("biasMode", biasMode)
            .arg("dirMode", dirMode)
            .arg("inputMode", inputMode)
            .arg("dataType", dataType)
            .arg("mathPrec", mathPrec)
            .arg("mathType", mathType)
            .arg("inputSize", inputSize)
            .arg("hiddenSize", hiddenSize)
            .arg("projSize", projSize)
            .arg("numLayers", numLayers)
            .arg("dropoutDesc", opaque(dropoutDesc))
            .arg("auxFlags", auxFlags);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        const librednn::RNNSettingsV8 settings{algo,     cellMode,  biasMode,    dirMode,   inputMode,
                                               dataType, mathPrec,  mathType,    inputSize, hiddenSize,
                                               projSize, numLayers, dropoutDesc, auxFlags};
        return librednn::set_rnn_v8(rnnDesc, settings);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNDescriptor_v8(cudnnRNNDescriptor_t rnnDesc, cudnnRNNAlgo_t *algo,
                                                   cudnnRNNMode_t *cellMode, cudnnRNNBiasMode_t *biasMode,
                                                   cudnnDirectionMode_t *dirMode, cudnnRNNInputMode_t *inputMode,
                                                   cudnnDataType_t *dataType, cudnnDataType_t *mathPrec,
                                                   cudnnMathType_t *mathType, int32_t *inputSize, int32_t *hiddenSize,
                                                   int32_t *projSize, int32_t *numLayers,
                                                   cudnnDropoutDescriptor_t *dropoutDesc, uint32_t *auxFlags) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc)
            .arg("algo", algo)
            .arg("cellMode", cellMode)
            .arg("biasMode", biasMode)
            .arg("dirMode", dirMode)
            .arg("inputMode", inputMode)
            .arg("dataType", dataType)
            .arg("mathPrec", mathPrec)
            .arg("mathType", mathType)
            .arg("inputSize", inputSize)
            .arg("hiddenSize", hiddenSize)
            .arg("projSize", projSize)
            .arg("numLayers", numLayers)
            .arg("dropoutDesc", dropoutDesc)
            .arg("auxFlags", auxFlags);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
        // cuDNN documents every output pointer as optional: NULL means "not needed".
        const cudnnRNNStruct &rnn = *rnnDesc;
        store(algo, rnn.algo);
        store(cellMode, rnn.cell_mode);
        store(biasMode, rnn.bias_mode);
        store(dirMode, rnn.dir_mode);
        store(inputMode, rnn.input_mode);
        store(dataType, rnn.data_type);
        store(mathPrec, rnn.math_prec);
        store(mathType, rnn.math_type);
        store(inputSize, rnn.input_size);
        store(hiddenSize, rnn.hidden_size);
        store(projSize, rnn.proj_size);
        store(numLayers, rnn.num_layers);
        store(dropoutDesc, rnn.dropout);
        store(auxFlags, rnn.aux_flags);
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetRNNDescriptor_v6(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                                   const int hiddenSize, const int numLayers,
                                                   cudnnDropoutDescriptor_t dropoutDesc, cudnnRNNInputMode_t inputMode,
                                                   cudnnDirectionMode_t direction, cudnnRNNMode_t cellMode,
                                                   cudnnRNNAlgo_t algo, cudnnDataType_t mathPrec) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("rnnDesc", static_cast<const void *>(rnnDesc))
            .arg("hiddenSize", hiddenSize)
            .arg("numLayers", numLayers)
            .arg("dropoutDesc", opaque(dropoutDesc))
            .arg("inputMode", inputMode)
            .arg("direction", direction)
            .arg("cellMode", cellMode)
            .arg("algo", algo)
            .arg("mathPrec", mathPrec);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        const librednn::RNNSettingsV6 settings{hiddenSize, numLayers, dropoutDesc, inputMode,
                                               direction,  cellMode,  algo,        mathPrec};
        return librednn::set_rnn_v6(rnnDesc, settings);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNDescriptor_v6(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc, int *hiddenSize,
                                                   int *numLayers, cudnnDropoutDescriptor_t *dropoutDesc,
                                                   cudnnRNNInputMode_t *inputMode, cudnnDirectionMode_t *direction,
                                                   cudnnRNNMode_t *cellMode, cudnnRNNAlgo_t *algo,
                                                   cudnnDataType_t *mathPrec) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("rnnDesc", rnnDesc)
            .arg("hiddenSize", hiddenSize)
            .arg("numLayers", numLayers)
            .arg("dropoutDesc", dropoutDesc)
            .arg("inputMode", inputMode)
            .arg("direction", direction)
            .arg("cellMode", cellMode)
            .arg("algo", algo)
            .arg("mathPrec", mathPrec);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        // Unlike the v8 getter, cuDNN documents every pointer of this one as required.
        LIBREDNN_REQUIRE_NOT_NULL(hiddenSize);
        LIBREDNN_REQUIRE_NOT_NULL(numLayers);
        LIBREDNN_REQUIRE_NOT_NULL(dropoutDesc);
        LIBREDNN_REQUIRE_NOT_NULL(inputMode);
        LIBREDNN_REQUIRE_NOT_NULL(direction);
        LIBREDNN_REQUIRE_NOT_NULL(cellMode);
        LIBREDNN_REQUIRE_NOT_NULL(algo);
        LIBREDNN_REQUIRE_NOT_NULL(mathPrec);
        LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
        const cudnnRNNStruct &rnn = *rnnDesc;
        *hiddenSize = rnn.hidden_size;
        *numLayers = rnn.num_layers;
        *dropoutDesc = rnn.dropout;
        *inputMode = rnn.input_mode;
        *direction = rnn.dir_mode;
        *cellMode = rnn.cell_mode;
        *algo = rnn.algo;
        *mathPrec = rnn.math_prec;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetRNNMatrixMathType(cudnnRNNDescriptor_t rnnDesc, cudnnMathType_t mType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", static_cast<const void *>(rnnDesc)).arg("mType", mType);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        return librednn::set_rnn_math_type(rnnDesc, mType);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNMatrixMathType(cudnnRNNDescriptor_t rnnDesc, cudnnMathType_t *mType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc).arg("mType", mType);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(mType);
        *mType = rnnDesc->math_type;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetRNNBiasMode(cudnnRNNDescriptor_t rnnDesc, cudnnRNNBiasMode_t biasMode) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", static_cast<const void *>(rnnDesc)).arg("biasMode", biasMode);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        return librednn::set_rnn_bias_mode(rnnDesc, biasMode);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNBiasMode(cudnnRNNDescriptor_t rnnDesc, cudnnRNNBiasMode_t *biasMode) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc).arg("biasMode", biasMode);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(biasMode);
        *biasMode = rnnDesc->bias_mode;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNSetClip_v8(cudnnRNNDescriptor_t rnnDesc, cudnnRNNClipMode_t clipMode,
                                             cudnnNanPropagation_t clipNanOpt, double lclip, double rclip) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", static_cast<const void *>(rnnDesc))
            .arg("clipMode", clipMode)
            .arg("clipNanOpt", clipNanOpt)
            .arg("lclip", lclip)
            .arg("rclip", rclip);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        return librednn::set_rnn_clip(rnnDesc, clipMode, clipNanOpt, lclip, rclip);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNGetClip_v8(cudnnRNNDescriptor_t rnnDesc, cudnnRNNClipMode_t *clipMode,
                                             cudnnNanPropagation_t *clipNanOpt, double *lclip, double *rclip) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc)
            .arg("clipMode", clipMode)
            .arg("clipNanOpt", clipNanOpt)
            .arg("lclip", lclip)
            .arg("rclip", rclip);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(clipMode);
        LIBREDNN_REQUIRE_NOT_NULL(clipNanOpt);
        LIBREDNN_REQUIRE_NOT_NULL(lclip);
        LIBREDNN_REQUIRE_NOT_NULL(rclip);
        *clipMode = rnnDesc->clip_mode;
        *clipNanOpt = rnnDesc->clip_nan_opt;
        *lclip = rnnDesc->lclip;
        *rclip = rnnDesc->rclip;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNSetClip(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                          cudnnRNNClipMode_t clipMode, cudnnNanPropagation_t clipNanOpt, double lclip,
                                          double rclip) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("rnnDesc", static_cast<const void *>(rnnDesc))
            .arg("clipMode", clipMode)
            .arg("clipNanOpt", clipNanOpt)
            .arg("lclip", lclip)
            .arg("rclip", rclip);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        return librednn::set_rnn_clip(rnnDesc, clipMode, clipNanOpt, lclip, rclip);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNGetClip(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                          cudnnRNNClipMode_t *clipMode, cudnnNanPropagation_t *clipNanOpt,
                                          double *lclip, double *rclip) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("rnnDesc", rnnDesc)
            .arg("clipMode", clipMode)
            .arg("clipNanOpt", clipNanOpt)
            .arg("lclip", lclip)
            .arg("rclip", rclip);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(clipMode);
        LIBREDNN_REQUIRE_NOT_NULL(clipNanOpt);
        LIBREDNN_REQUIRE_NOT_NULL(lclip);
        LIBREDNN_REQUIRE_NOT_NULL(rclip);
        *clipMode = rnnDesc->clip_mode;
        *clipNanOpt = rnnDesc->clip_nan_opt;
        *lclip = rnnDesc->lclip;
        *rclip = rnnDesc->rclip;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetRNNProjectionLayers(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                                      const int recProjSize, const int outProjSize) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("rnnDesc", static_cast<const void *>(rnnDesc))
            .arg("recProjSize", recProjSize)
            .arg("outProjSize", outProjSize);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        return librednn::set_rnn_projection_layers(rnnDesc, recProjSize, outProjSize);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNProjectionLayers(cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc,
                                                      int *recProjSize, int *outProjSize) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("recProjSize", recProjSize).arg("outProjSize", outProjSize);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(recProjSize);
        LIBREDNN_REQUIRE_NOT_NULL(outProjSize);
        LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
        *recProjSize = rnnDesc->proj_size;
        *outProjSize = 0;  // the output projection does not exist
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetRNNPaddingMode(cudnnRNNDescriptor_t rnnDesc, unsigned paddingMode) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", static_cast<const void *>(rnnDesc)).arg("paddingMode", paddingMode);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        return librednn::set_rnn_padding_mode(rnnDesc, paddingMode);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNPaddingMode(cudnnRNNDescriptor_t rnnDesc, unsigned *paddingMode) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDesc", rnnDesc).arg("paddingMode", paddingMode);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(paddingMode);
        *paddingMode = rnnDesc->aux_flags & CUDNN_RNN_PADDED_IO_ENABLED;
        return CUDNN_STATUS_SUCCESS;
    });
}
