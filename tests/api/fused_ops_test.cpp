// Fused-ops constant and variant parameter packs and plans through the public API: per-label payloads,
// defaults, copies of descriptors, and each rejection.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr unsigned kSeed = 20240608;

struct ConstPack {
    cudnnFusedOpsConstParamPack_t pack = nullptr;
    explicit ConstPack(cudnnFusedOps_t ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS) {
        EXPECT_EQ(cudnnCreateFusedOpsConstParamPack(&pack, ops), CUDNN_STATUS_SUCCESS);
    }
    ~ConstPack() { cudnnDestroyFusedOpsConstParamPack(pack); }
    operator cudnnFusedOpsConstParamPack_t() const { return pack; }
};

struct VariantPack {
    cudnnFusedOpsVariantParamPack_t pack = nullptr;
    explicit VariantPack(cudnnFusedOps_t ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS) {
        EXPECT_EQ(cudnnCreateFusedOpsVariantParamPack(&pack, ops), CUDNN_STATUS_SUCCESS);
    }
    ~VariantPack() { cudnnDestroyFusedOpsVariantParamPack(pack); }
    operator cudnnFusedOpsVariantParamPack_t() const { return pack; }
};

const cudnnFusedOpsConstParamLabel_t kTensorLabels[] = {CUDNN_PARAM_XDESC,
                                                        CUDNN_PARAM_BN_EQSCALEBIAS_DESC,
                                                        CUDNN_PARAM_YDESC,
                                                        CUDNN_PARAM_DYDESC,
                                                        CUDNN_PARAM_YSTATS_DESC,
                                                        CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
                                                        CUDNN_PARAM_ZDESC,
                                                        CUDNN_PARAM_BN_Z_EQSCALEBIAS_DESC,
                                                        CUDNN_PARAM_ACTIVATION_BITMASK_DESC,
                                                        CUDNN_PARAM_DXDESC,
                                                        CUDNN_PARAM_DZDESC};
const cudnnFusedOpsConstParamLabel_t kDescriptorLabels[] = {CUDNN_PARAM_XDESC,
                                                            CUDNN_PARAM_BN_EQSCALEBIAS_DESC,
                                                            CUDNN_PARAM_ACTIVATION_DESC,
                                                            CUDNN_PARAM_CONV_DESC,
                                                            CUDNN_PARAM_WDESC,
                                                            CUDNN_PARAM_DWDESC,
                                                            CUDNN_PARAM_YDESC,
                                                            CUDNN_PARAM_DYDESC,
                                                            CUDNN_PARAM_YSTATS_DESC,
                                                            CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
                                                            CUDNN_PARAM_ZDESC,
                                                            CUDNN_PARAM_BN_Z_EQSCALEBIAS_DESC,
                                                            CUDNN_PARAM_ACTIVATION_BITMASK_DESC,
                                                            CUDNN_PARAM_DXDESC,
                                                            CUDNN_PARAM_DZDESC};
const cudnnFusedOpsConstParamLabel_t kPlaceholderLabels[] = {CUDNN_PARAM_XDATA_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER,
                                                             CUDNN_PARAM_WDATA_PLACEHOLDER,
                                                             CUDNN_PARAM_DWDATA_PLACEHOLDER,
                                                             CUDNN_PARAM_YDATA_PLACEHOLDER,
                                                             CUDNN_PARAM_DYDATA_PLACEHOLDER,
                                                             CUDNN_PARAM_YSUM_PLACEHOLDER,
                                                             CUDNN_PARAM_YSQSUM_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_SCALE_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_BIAS_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_SAVED_MEAN_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_SAVED_INVSTD_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER,
                                                             CUDNN_PARAM_ZDATA_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_Z_EQSCALE_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_Z_EQBIAS_PLACEHOLDER,
                                                             CUDNN_PARAM_ACTIVATION_BITMASK_PLACEHOLDER,
                                                             CUDNN_PARAM_DXDATA_PLACEHOLDER,
                                                             CUDNN_PARAM_DZDATA_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_DSCALE_PLACEHOLDER,
                                                             CUDNN_PARAM_BN_DBIAS_PLACEHOLDER};

}  // namespace

TEST(FusedOpsConstParamPack, CreateAcceptsEveryOpsAndRejectsOthers) {
    for (int ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS; ops <= CUDNN_FUSED_DACTIVATION_FORK_DBATCHNORM;
         ++ops) {
        cudnnFusedOpsConstParamPack_t pack = nullptr;
        ASSERT_EQ(cudnnCreateFusedOpsConstParamPack(&pack, static_cast<cudnnFusedOps_t>(ops)), CUDNN_STATUS_SUCCESS);
        EXPECT_NE(pack, nullptr);
        EXPECT_EQ(cudnnDestroyFusedOpsConstParamPack(pack), CUDNN_STATUS_SUCCESS);
    }
    cudnnFusedOpsConstParamPack_t pack = nullptr;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateFusedOpsConstParamPack(&pack, static_cast<cudnnFusedOps_t>(7)),
                    "cudnnCreateFusedOpsConstParamPack", "ops is 7", "not a cudnnFusedOps_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnCreateFusedOpsConstParamPack(nullptr, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_WGRAD),
                    "constPack is NULL");
    EXPECT_EQ(cudnnDestroyFusedOpsConstParamPack(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(FusedOpsConstParamPack, NewPackReadsBackNullDescriptorsAndDefaultValues) {
    ConstPack pack;
    for (cudnnFusedOpsConstParamLabel_t label : kDescriptorLabels) {
        SCOPED_TRACE("label " + std::to_string(label));
        int is_null = -1;
        // No descriptor stored: *isNULL = 1 and param (NULL here) is left alone.
        ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, label, nullptr, &is_null), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(is_null, 1);
    }
    for (cudnnFusedOpsConstParamLabel_t label : kPlaceholderLabels) {
        SCOPED_TRACE("label " + std::to_string(label));
        auto placeholder = CUDNN_PTR_16B_ALIGNED;
        int is_null = -1;
        ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, label, &placeholder, &is_null), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(placeholder, CUDNN_PTR_NULL);
        EXPECT_EQ(is_null, 0);
    }
    auto mode = CUDNN_BATCHNORM_SPATIAL;
    int is_null = -1;
    ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_BN_MODE, &mode, &is_null),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mode, CUDNN_BATCHNORM_PER_ACTIVATION);
    EXPECT_EQ(is_null, 0);
}

TEST(FusedOpsConstParamPack, PlaceholdersAndBatchNormModeRoundTrip) {
    std::mt19937 rng(kSeed);
    SCOPED_TRACE("seed " + std::to_string(kSeed));
    ConstPack pack(CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING);
    std::vector<cudnnFusedOpsPointerPlaceHolder_t> chosen;
    for (cudnnFusedOpsConstParamLabel_t label : kPlaceholderLabels) {
        const auto placeholder = static_cast<cudnnFusedOpsPointerPlaceHolder_t>(rng() % 3);
        chosen.push_back(placeholder);
        ASSERT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, label, &placeholder), CUDNN_STATUS_SUCCESS);
    }
    // Read back after all are set: labels do not overwrite one another.
    for (size_t i = 0; i < chosen.size(); ++i) {
        SCOPED_TRACE("label " + std::to_string(kPlaceholderLabels[i]));
        auto got = static_cast<cudnnFusedOpsPointerPlaceHolder_t>(-1);
        int is_null = -1;
        ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, kPlaceholderLabels[i], &got, &is_null),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(got, chosen[i]);
        EXPECT_EQ(is_null, 0);
    }
    for (cudnnBatchNormMode_t mode :
         {CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_SPATIAL, CUDNN_BATCHNORM_PER_ACTIVATION}) {
        auto got = static_cast<cudnnBatchNormMode_t>(-1);
        int is_null = -1;
        ASSERT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_BN_MODE, &mode), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_BN_MODE, &got, &is_null),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(got, mode);
    }
}

TEST(FusedOpsConstParamPack, ConvolutionDescriptorIsCopiedInAndOut) {
    ConstPack pack;
    cudnnConvolutionDescriptor_t conv = nullptr, out = nullptr;
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&out), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 1, 2, 3, 4, 1, 2, CUDNN_CROSS_CORRELATION, CUDNN_DATA_HALF),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolutionGroupCount(conv, 2), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_CONV_DESC, conv), CUDNN_STATUS_SUCCESS);
    // The pack holds a copy: changing or destroying the caller's descriptor does not reach it.
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnDestroyConvolutionDescriptor(conv), CUDNN_STATUS_SUCCESS);
    int is_null = -1;
    ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_CONV_DESC, out, &is_null),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(is_null, 0);
    int p, q, u, v, dh, dw, groups;
    cudnnConvolutionMode_t mode;
    cudnnDataType_t type;
    ASSERT_EQ(cudnnGetConvolution2dDescriptor(out, &p, &q, &u, &v, &dh, &dw, &mode, &type), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(q, 2);
    EXPECT_EQ(v, 4);
    EXPECT_EQ(dw, 2);
    EXPECT_EQ(mode, CUDNN_CROSS_CORRELATION);
    EXPECT_EQ(type, CUDNN_DATA_HALF);
    ASSERT_EQ(cudnnGetConvolutionGroupCount(out, &groups), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(groups, 2);
    // Setting NULL clears the label again.
    ASSERT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_CONV_DESC, nullptr), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_CONV_DESC, out, &is_null),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(is_null, 1);
    cudnnDestroyConvolutionDescriptor(out);
}

TEST(FusedOpsConstParamPack, TensorAndFilterDescriptorsAreCopiedPerLabel) {
    cudnnTensorDescriptor_t x = nullptr, out_tensor = nullptr;
    cudnnFilterDescriptor_t w = nullptr, out_filter = nullptr;
    cudnnCreateTensorDescriptor(&x);
    cudnnCreateTensorDescriptor(&out_tensor);
    cudnnCreateFilterDescriptor(&w);
    cudnnCreateFilterDescriptor(&out_filter);
    const cudnnStatus_t tensor_status = cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 2, 8, 5, 7);
    const cudnnStatus_t filter_status = cudnnSetFilter4dDescriptor(w, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC, 16, 8, 3, 3);
    if (tensor_status != CUDNN_STATUS_SUCCESS || filter_status != CUDNN_STATUS_SUCCESS) {
        cudnnDestroyTensorDescriptor(x);
        cudnnDestroyTensorDescriptor(out_tensor);
        cudnnDestroyFilterDescriptor(w);
        cudnnDestroyFilterDescriptor(out_filter);
        GTEST_SKIP() << "tensor/filter API unavailable: " << cudnnGetErrorString(tensor_status) << ", "
                     << cudnnGetErrorString(filter_status);
    }
    {
        ConstPack pack;
        ASSERT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_WDESC, w), CUDNN_STATUS_SUCCESS);
        for (cudnnFusedOpsConstParamLabel_t label : kTensorLabels) {
            ASSERT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, label, x), CUDNN_STATUS_SUCCESS) << label;
        }
        ASSERT_EQ(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 1, 1), CUDNN_STATUS_SUCCESS);
        for (cudnnFusedOpsConstParamLabel_t label : kTensorLabels) {
            SCOPED_TRACE("label " + std::to_string(label));
            int is_null = -1;
            ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, label, out_tensor, &is_null), CUDNN_STATUS_SUCCESS);
            EXPECT_EQ(is_null, 0);
            cudnnDataType_t type;
            int n, c, h, wd, ns, cs, hs, ws;
            ASSERT_EQ(cudnnGetTensor4dDescriptor(out_tensor, &type, &n, &c, &h, &wd, &ns, &cs, &hs, &ws),
                      CUDNN_STATUS_SUCCESS);
            EXPECT_EQ(type, CUDNN_DATA_HALF);
            EXPECT_EQ(c, 8);
            EXPECT_EQ(wd, 7);
            EXPECT_EQ(cs, 1);  // NHWC strides survive the copy
        }
        int is_null = -1;
        ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_DWDESC, out_filter, &is_null),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(is_null, 1);  // only WDESC was set
        ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_WDESC, out_filter, &is_null),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(is_null, 0);
        cudnnDataType_t type;
        cudnnTensorFormat_t format;
        int k, c, r, s;
        ASSERT_EQ(cudnnGetFilter4dDescriptor(out_filter, &type, &format, &k, &c, &r, &s), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(format, CUDNN_TENSOR_NHWC);
        EXPECT_EQ(k, 16);
        EXPECT_EQ(c, 8);
    }
    cudnnDestroyTensorDescriptor(x);
    cudnnDestroyTensorDescriptor(out_tensor);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyFilterDescriptor(out_filter);
}

TEST(FusedOpsConstParamPack, ActivationDescriptorIsCopiedInAndOut) {
    cudnnActivationDescriptor_t act = nullptr, out = nullptr;
    cudnnCreateActivationDescriptor(&act);
    cudnnCreateActivationDescriptor(&out);
    const cudnnStatus_t status =
        cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_PROPAGATE_NAN, 6.0);
    if (status != CUDNN_STATUS_SUCCESS) {
        cudnnDestroyActivationDescriptor(act);
        cudnnDestroyActivationDescriptor(out);
        GTEST_SKIP() << "activation API unavailable: " << cudnnGetErrorString(status);
    }
    {
        ConstPack pack;
        ASSERT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_ACTIVATION_DESC, act),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_TANH, CUDNN_NOT_PROPAGATE_NAN, 0.0),
                  CUDNN_STATUS_SUCCESS);
        int is_null = -1;
        ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_ACTIVATION_DESC, out, &is_null),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(is_null, 0);
        cudnnActivationMode_t mode;
        cudnnNanPropagation_t nan;
        double coef = 0;
        ASSERT_EQ(cudnnGetActivationDescriptor(out, &mode, &nan, &coef), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(mode, CUDNN_ACTIVATION_CLIPPED_RELU);
        EXPECT_EQ(nan, CUDNN_PROPAGATE_NAN);
        EXPECT_EQ(coef, 6.0);
    }
    cudnnDestroyActivationDescriptor(act);
    cudnnDestroyActivationDescriptor(out);
}

TEST(FusedOpsConstParamPack, RejectsBadLabelsAndValues) {
    ConstPack pack;
    const auto placeholder = CUDNN_PTR_ELEM_ALIGNED;
    int is_null = 0;
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetFusedOpsConstParamPackAttribute(pack, static_cast<cudnnFusedOpsConstParamLabel_t>(39), &placeholder),
        "cudnnSetFusedOpsConstParamPackAttribute", "paramLabel is 39", "not a cudnnFusedOpsConstParamLabel_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetFusedOpsConstParamPackAttribute(pack, static_cast<cudnnFusedOpsConstParamLabel_t>(-1),
                                                            nullptr, &is_null),
                    "cudnnGetFusedOpsConstParamPackAttribute", "paramLabel is -1");
    const auto bad_placeholder = static_cast<cudnnFusedOpsPointerPlaceHolder_t>(3);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_YSUM_PLACEHOLDER, &bad_placeholder),
                    "*param is 3 for CUDNN_PARAM_YSUM_PLACEHOLDER", "not a cudnnFusedOpsPointerPlaceHolder_t");
    const auto bad_mode = static_cast<cudnnBatchNormMode_t>(5);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_BN_MODE, &bad_mode),
                    "*param is 5 for CUDNN_PARAM_BN_MODE", "not a cudnnBatchNormMode_t");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM, cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_XDATA_PLACEHOLDER, nullptr),
        "param is NULL", "CUDNN_PARAM_XDATA_PLACEHOLDER takes a pointer to a cudnnFusedOpsPointerPlaceHolder_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_BN_MODE, nullptr),
                    "param is NULL", "cudnnBatchNormMode_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_WDATA_PLACEHOLDER, nullptr, &is_null),
                    "param is NULL");
    auto got = CUDNN_PTR_NULL;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_WDATA_PLACEHOLDER, &got, nullptr),
                    "isNULL is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFusedOpsConstParamPackAttribute(nullptr, CUDNN_PARAM_XDATA_PLACEHOLDER, &placeholder),
                    "constPack is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetFusedOpsConstParamPackAttribute(nullptr, CUDNN_PARAM_XDATA_PLACEHOLDER, &got, &is_null),
                    "constPack is NULL");
    // A rejected set changes nothing.
    ASSERT_EQ(cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_YSUM_PLACEHOLDER, &got, &is_null),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(got, CUDNN_PTR_NULL);
}

TEST(FusedOpsConstParamPack, RejectsDescriptorNeverSet) {
    ConstPack pack;
    cudnnConvolutionDescriptor_t conv = nullptr;
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_CONV_DESC, conv),
                    "param (the descriptor for CUDNN_PARAM_CONV_DESC) has not been set");
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_CONV_DESC, conv), CUDNN_STATUS_SUCCESS);
    int is_null = -1;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_CONV_DESC, nullptr, &is_null),
                    "param is NULL", "created cudnnConvolutionDescriptor_t");
    cudnnDestroyConvolutionDescriptor(conv);
}

TEST(FusedOpsVariantParamPack, NewPackHoldsNullPointersAndZeroScalars) {
    VariantPack pack;
    for (int label = CUDNN_PTR_XDATA; label <= CUDNN_PTR_BN_DBIAS; ++label) {
        void *pointer = reinterpret_cast<void *>(0x1);
        ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, static_cast<cudnnFusedOpsVariantParamLabel_t>(label),
                                                            &pointer),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(pointer, nullptr) << label;
    }
    size_t workspace = 1;
    int64_t count = 1;
    double factor = 1, epsilon = 1;
    ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES, &workspace),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT, &count),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR, &factor),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EPSILON, &epsilon),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(workspace, 0u);
    EXPECT_EQ(count, 0);
    EXPECT_EQ(factor, 0.0);
    EXPECT_EQ(epsilon, 0.0);
}

TEST(FusedOpsVariantParamPack, PointersAndScalarsRoundTrip) {
    std::mt19937_64 rng(kSeed + 1);
    SCOPED_TRACE("seed " + std::to_string(kSeed + 1));
    VariantPack pack(CUDNN_FUSED_SCALE_BIAS_ACTIVATION_WGRAD);
    std::vector<void *> chosen;
    for (int label = CUDNN_PTR_XDATA; label <= CUDNN_PTR_BN_DBIAS; ++label) {
        // Pointer labels take the device pointer itself, which is never dereferenced here.
        void *pointer = reinterpret_cast<void *>(static_cast<uintptr_t>(rng() & ~uint64_t{0xF}) | 0x100);
        chosen.push_back(pointer);
        ASSERT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(pack, static_cast<cudnnFusedOpsVariantParamLabel_t>(label),
                                                            pointer),
                  CUDNN_STATUS_SUCCESS);
    }
    for (int label = CUDNN_PTR_XDATA; label <= CUDNN_PTR_BN_DBIAS; ++label) {
        void *pointer = nullptr;
        ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, static_cast<cudnnFusedOpsVariantParamLabel_t>(label),
                                                            &pointer),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(pointer, chosen[label]) << label;
    }
    size_t workspace = (size_t{1} << 40) + 17;
    int64_t count = -5;  // stored as given; whether it makes sense is the executor's question
    double factor = 0.125, epsilon = 1e-5;
    ASSERT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES, &workspace),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT, &count),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR, &factor),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EPSILON, &epsilon),
              CUDNN_STATUS_SUCCESS);
    size_t got_workspace = 0;
    int64_t got_count = 0;
    double got_factor = 0, got_epsilon = 0;
    ASSERT_EQ(
        cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES, &got_workspace),
        CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT, &got_count),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR, &got_factor),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EPSILON, &got_epsilon),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(got_workspace, workspace);
    EXPECT_EQ(got_count, count);
    EXPECT_EQ(got_factor, factor);
    EXPECT_EQ(got_epsilon, epsilon);
    // A pointer label set to NULL reads back NULL.
    ASSERT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_PTR_WORKSPACE, nullptr), CUDNN_STATUS_SUCCESS);
    void *pointer = reinterpret_cast<void *>(0x1);
    ASSERT_EQ(cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_PTR_WORKSPACE, &pointer), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(pointer, nullptr);
}

TEST(FusedOpsVariantParamPack, RejectsBadLabelsAndNullPointers) {
    VariantPack pack;
    double value = 1.0;
    for (int label : {24, 99, 104, -1}) {
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                        cudnnSetFusedOpsVariantParamPackAttribute(
                            pack, static_cast<cudnnFusedOpsVariantParamLabel_t>(label), &value),
                        "cudnnSetFusedOpsVariantParamPackAttribute", ("paramLabel is " + std::to_string(label)).c_str(),
                        "not a cudnnFusedOpsVariantParamLabel_t");
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                        cudnnGetFusedOpsVariantParamPackAttribute(
                            pack, static_cast<cudnnFusedOpsVariantParamLabel_t>(label), &value),
                        "cudnnGetFusedOpsVariantParamPackAttribute",
                        ("paramLabel is " + std::to_string(label)).c_str());
    }
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EPSILON, nullptr),
                    "ptr is NULL", "CUDNN_SCALAR_DOUBLE_BN_EPSILON takes a pointer to a host double");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES, nullptr),
        "ptr is NULL", "host size_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_PTR_XDATA, nullptr),
                    "ptr is NULL", "CUDNN_PTR_XDATA reads into a host void *");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnGetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT, nullptr),
        "ptr is NULL", "host int64_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetFusedOpsVariantParamPackAttribute(nullptr, CUDNN_PTR_XDATA, &value),
                    "varPack is NULL");
    cudnnFusedOpsVariantParamPack_t created = nullptr;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnCreateFusedOpsVariantParamPack(&created, static_cast<cudnnFusedOps_t>(-2)), "ops is -2");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnCreateFusedOpsVariantParamPack(nullptr, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS),
                    "varPack is NULL");
    EXPECT_EQ(cudnnDestroyFusedOpsVariantParamPack(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(FusedOpsPlan, CreateAndDestroyForEveryOps) {
    for (int ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS; ops <= CUDNN_FUSED_DACTIVATION_FORK_DBATCHNORM;
         ++ops) {
        cudnnFusedOpsPlan_t plan = nullptr;
        ASSERT_EQ(cudnnCreateFusedOpsPlan(&plan, static_cast<cudnnFusedOps_t>(ops)), CUDNN_STATUS_SUCCESS);
        EXPECT_NE(plan, nullptr);
        EXPECT_EQ(cudnnDestroyFusedOpsPlan(plan), CUDNN_STATUS_SUCCESS);
    }
    EXPECT_EQ(cudnnDestroyFusedOpsPlan(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(FusedOpsPlan, CreateRejectsBadArguments) {
    cudnnFusedOpsPlan_t plan = nullptr;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateFusedOpsPlan(&plan, static_cast<cudnnFusedOps_t>(100)),
                    "cudnnCreateFusedOpsPlan", "ops is 100", "not a cudnnFusedOps_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateFusedOpsPlan(nullptr, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_WGRAD),
                    "plan is NULL");
}

// --- cudnnMakeFusedOpsPlan and cudnnFusedOpsExecute: what they reject ----------------------------------

namespace {

struct Tensor4d {
    cudnnTensorDescriptor_t desc = nullptr;
    Tensor4d(cudnnDataType_t type, int n, int c, int h, int w) {
        EXPECT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, type, n, c, h, w), CUDNN_STATUS_SUCCESS);
    }
    ~Tensor4d() { cudnnDestroyTensorDescriptor(desc); }
};

struct HandleForPlans {
    cudnnHandle_t handle = nullptr;
    HandleForPlans() { EXPECT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS); }
    ~HandleForPlans() { cudnnDestroy(handle); }
};

void set_placeholder(cudnnFusedOpsConstParamPack_t pack, cudnnFusedOpsConstParamLabel_t label,
                     cudnnFusedOpsPointerPlaceHolder_t value) {
    EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, label, &value), CUDNN_STATUS_SUCCESS);
}

// A complete constant pack for CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE with 4 float channels.
struct InferencePack {
    ConstPack pack{CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE};
    Tensor4d param{CUDNN_DATA_FLOAT, 1, 4, 1, 1};
    Tensor4d eq{CUDNN_DATA_FLOAT, 1, 4, 1, 1};
    InferencePack() {
        const cudnnBatchNormMode_t mode = CUDNN_BATCHNORM_SPATIAL;
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_BN_MODE, &mode), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC, param.desc),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, CUDNN_PARAM_BN_EQSCALEBIAS_DESC, eq.desc),
                  CUDNN_STATUS_SUCCESS);
        for (auto label : {CUDNN_PARAM_BN_SCALE_PLACEHOLDER, CUDNN_PARAM_BN_BIAS_PLACEHOLDER,
                           CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER, CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER,
                           CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER})
            set_placeholder(pack, label, CUDNN_PTR_ELEM_ALIGNED);
        set_placeholder(pack, CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER, CUDNN_PTR_16B_ALIGNED);
    }
};

TEST(FusedOpsPlan, MakeRejectsNullArgumentsAndMismatchedOps) {
    HandleForPlans h;
    InferencePack constants;
    cudnnFusedOpsPlan_t plan = nullptr, training_plan = nullptr;
    ASSERT_EQ(cudnnCreateFusedOpsPlan(&plan, CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateFusedOpsPlan(&training_plan, CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING),
              CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(nullptr, plan, constants.pack, &bytes),
                    "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, nullptr, constants.pack, &bytes),
                    "plan is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, plan, nullptr, &bytes),
                    "constPack is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, plan, constants.pack, nullptr),
                    "workspaceSizeInBytes is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, training_plan, constants.pack, &bytes),
                    "CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING", "CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE");
    bytes = 99;
    EXPECT_EQ(cudnnMakeFusedOpsPlan(h.handle, plan, constants.pack, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(bytes, 0u);
    cudnnDestroyFusedOpsPlan(plan);
    cudnnDestroyFusedOpsPlan(training_plan);
}

TEST(FusedOpsPlan, MakeSaysReservedFusionsAreNotSupported) {
    HandleForPlans h;
    for (cudnnFusedOps_t ops :
         {CUDNN_FUSED_CONV_SCALE_BIAS_ADD_ACTIVATION, CUDNN_FUSED_SCALE_BIAS_ADD_ACTIVATION_GEN_BITMASK,
          CUDNN_FUSED_DACTIVATION_FORK_DBATCHNORM}) {
        ConstPack constants(ops);
        cudnnFusedOpsPlan_t plan = nullptr;
        ASSERT_EQ(cudnnCreateFusedOpsPlan(&plan, ops), CUDNN_STATUS_SUCCESS);
        size_t bytes = 0;
        EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnMakeFusedOpsPlan(h.handle, plan, constants, &bytes),
                        "cudnnMakeFusedOpsPlan", "reserved for future use");
        cudnnDestroyFusedOpsPlan(plan);
    }
}

TEST(FusedOpsPlan, MakeRejectsMissingAndInconsistentPieces) {
    HandleForPlans h;
    cudnnFusedOpsPlan_t plan = nullptr;
    ASSERT_EQ(cudnnCreateFusedOpsPlan(&plan, CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE), CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    {
        InferencePack constants;
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(constants.pack, CUDNN_PARAM_BN_EQSCALEBIAS_DESC, nullptr),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, plan, constants.pack, &bytes),
                        "CUDNN_PARAM_BN_EQSCALEBIAS_DESC is not set");
    }
    {
        InferencePack constants;
        set_placeholder(constants.pack, CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER, CUDNN_PTR_NULL);
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, plan, constants.pack, &bytes),
                        "CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER is CUDNN_PTR_NULL");
    }
    {
        InferencePack constants;
        Tensor4d wrong(CUDNN_DATA_FLOAT, 1, 3, 1, 1);
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(constants.pack, CUDNN_PARAM_BN_EQSCALEBIAS_DESC, wrong.desc),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, plan, constants.pack, &bytes),
                        "CUDNN_PARAM_BN_EQSCALEBIAS_DESC is 1x3x1x1", "1x4x1x1");
    }
    {
        InferencePack constants;
        const cudnnBatchNormMode_t mode = CUDNN_BATCHNORM_PER_ACTIVATION;
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(constants.pack, CUDNN_PARAM_BN_MODE, &mode),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnMakeFusedOpsPlan(h.handle, plan, constants.pack, &bytes),
                        "CUDNN_BATCHNORM_PER_ACTIVATION");
    }
    {
        InferencePack constants;
        Tensor4d half_params(CUDNN_DATA_HALF, 1, 4, 1, 1);
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(constants.pack, CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
                                                          half_params.desc),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnMakeFusedOpsPlan(h.handle, plan, constants.pack, &bytes),
                        "CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC has data type CUDNN_DATA_HALF");
    }
    cudnnDestroyFusedOpsPlan(plan);

    // The convolution fusions: the input descriptor is required, the activation is ReLU or none.
    ASSERT_EQ(cudnnCreateFusedOpsPlan(&plan, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS), CUDNN_STATUS_SUCCESS);
    ConstPack conv_pack(CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, plan, conv_pack, &bytes),
                    "CUDNN_PARAM_XDESC is not set", "CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS");
    Tensor4d x(CUDNN_DATA_FLOAT, 1, 4, 5, 5), y(CUDNN_DATA_FLOAT, 1, 8, 5, 5);
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnActivationDescriptor_t tanh = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&w), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 8, 4, 3, 3), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateActivationDescriptor(&tanh), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetActivationDescriptor(tanh, CUDNN_ACTIVATION_TANH, CUDNN_NOT_PROPAGATE_NAN, 0.0),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(conv_pack, CUDNN_PARAM_XDESC, x.desc), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(conv_pack, CUDNN_PARAM_WDESC, w), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(conv_pack, CUDNN_PARAM_CONV_DESC, conv), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(conv_pack, CUDNN_PARAM_YDESC, y.desc), CUDNN_STATUS_SUCCESS);
    for (auto label : {CUDNN_PARAM_XDATA_PLACEHOLDER, CUDNN_PARAM_WDATA_PLACEHOLDER, CUDNN_PARAM_YDATA_PLACEHOLDER})
        set_placeholder(conv_pack, label, CUDNN_PTR_16B_ALIGNED);
    EXPECT_EQ(cudnnMakeFusedOpsPlan(h.handle, plan, conv_pack, &bytes), CUDNN_STATUS_SUCCESS);
    set_placeholder(conv_pack, CUDNN_PARAM_YSUM_PLACEHOLDER, CUDNN_PTR_16B_ALIGNED);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnMakeFusedOpsPlan(h.handle, plan, conv_pack, &bytes),
                    "CUDNN_PARAM_YSTATS_DESC is not set");
    set_placeholder(conv_pack, CUDNN_PARAM_YSUM_PLACEHOLDER, CUDNN_PTR_NULL);
    EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(conv_pack, CUDNN_PARAM_ACTIVATION_DESC, tanh),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnMakeFusedOpsPlan(h.handle, plan, conv_pack, &bytes),
                    "CUDNN_ACTIVATION_TANH");
    cudnnDestroyActivationDescriptor(tanh);
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyFusedOpsPlan(plan);
}

TEST(FusedOpsPlan, ExecuteRejectsBadVariantPacks) {
    HandleForPlans h;
    InferencePack constants;
    cudnnFusedOpsPlan_t plan = nullptr;
    ASSERT_EQ(cudnnCreateFusedOpsPlan(&plan, CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE), CUDNN_STATUS_SUCCESS);
    VariantPack variants(CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(h.handle, plan, variants), "has not been made");
    size_t bytes = 0;
    ASSERT_EQ(cudnnMakeFusedOpsPlan(h.handle, plan, constants.pack, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(nullptr, plan, variants), "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(h.handle, nullptr, variants), "plan is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(h.handle, plan, nullptr), "varPack is NULL");
    VariantPack other(CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(h.handle, plan, other),
                    "varPack was created for CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING");
    // Pointers are checked before anything runs, so host memory serves on either backend.
    alignas(16) float memory[6][8] = {};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(h.handle, plan, variants),
                    "CUDNN_PTR_BN_SCALE is NULL");
    const cudnnFusedOpsVariantParamLabel_t labels[] = {CUDNN_PTR_BN_SCALE,        CUDNN_PTR_BN_BIAS,
                                                       CUDNN_PTR_BN_RUNNING_MEAN, CUDNN_PTR_BN_RUNNING_VAR,
                                                       CUDNN_PTR_BN_EQSCALE,      CUDNN_PTR_BN_EQBIAS};
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, labels[i], memory[i]), CUDNN_STATUS_SUCCESS);
    // eqBias was promised 16-byte aligned; eqScale only element-aligned, which one float past 16 still is.
    EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, CUDNN_PTR_BN_EQSCALE, &memory[4][1]),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, CUDNN_PTR_BN_EQBIAS, &memory[5][1]),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(h.handle, plan, variants), "CUDNN_PTR_BN_EQBIAS",
                    "not aligned to 16 bytes", "CUDNN_PTR_16B_ALIGNED");
    EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, CUDNN_PTR_BN_EQBIAS, memory[5]),
              CUDNN_STATUS_SUCCESS);
    double epsilon = -1.0;
    EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, CUDNN_SCALAR_DOUBLE_BN_EPSILON, &epsilon),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(h.handle, plan, variants),
                    "CUDNN_SCALAR_DOUBLE_BN_EPSILON is -1");
    cudnnDestroyFusedOpsPlan(plan);
}

}  // namespace
