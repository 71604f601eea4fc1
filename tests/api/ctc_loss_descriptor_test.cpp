// The CTC loss descriptor through the public API: what each setter sets, the defaults of the fields a
// shorter setter leaves out, round trips, and each rejection.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>

namespace {

constexpr unsigned kSeed = 20240609;

struct CtcDesc {
    cudnnCTCLossDescriptor_t desc = nullptr;
    CtcDesc() { EXPECT_EQ(cudnnCreateCTCLossDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~CtcDesc() { cudnnDestroyCTCLossDescriptor(desc); }
    operator cudnnCTCLossDescriptor_t() const { return desc; }
};

struct CtcSettings {
    cudnnDataType_t comp_type;
    cudnnLossNormalizationMode_t norm_mode;
    cudnnNanPropagation_t grad_mode;
    int max_label_length;
};

CtcSettings read_v8(cudnnCTCLossDescriptor_t desc) {
    CtcSettings s{};
    EXPECT_EQ(cudnnGetCTCLossDescriptor_v8(desc, &s.comp_type, &s.norm_mode, &s.grad_mode, &s.max_label_length),
              CUDNN_STATUS_SUCCESS);
    return s;
}

}  // namespace

TEST(CTCLossDescriptor, CreateRejectsNullAndDestroyNullIsNoOp) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateCTCLossDescriptor(nullptr), "cudnnCreateCTCLossDescriptor",
                    "ctcLossDesc is NULL");
    EXPECT_EQ(cudnnDestroyCTCLossDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(CTCLossDescriptor, GetBeforeSetIsRejected) {
    CtcDesc desc;
    cudnnDataType_t type;
    cudnnLossNormalizationMode_t norm;
    cudnnNanPropagation_t grad;
    int length;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptor(desc, &type), "cudnnGetCTCLossDescriptor",
                    "ctcLossDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptorEx(desc, &type, &norm, &grad),
                    "ctcLossDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptor_v8(desc, &type, &norm, &grad, &length),
                    "ctcLossDesc has not been set");
}

TEST(CTCLossDescriptor, ShortSetterMeansNoNormalisationAndNaNsKept) {
    // cuDNN documents cudnnSetCTCLossDescriptor as the Ex setter with CUDNN_LOSS_NORMALIZATION_NONE and
    // CUDNN_NOT_PROPAGATE_NAN; maxLabelLength takes LibreDNN's default of 256, the longest label cuDNN accepts.
    CtcDesc desc;
    ASSERT_EQ(
        cudnnSetCTCLossDescriptorEx(desc, CUDNN_DATA_DOUBLE, CUDNN_LOSS_NORMALIZATION_SOFTMAX, CUDNN_PROPAGATE_NAN),
        CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetCTCLossDescriptor(desc, CUDNN_DATA_FLOAT), CUDNN_STATUS_SUCCESS);
    const CtcSettings s = read_v8(desc);
    EXPECT_EQ(s.comp_type, CUDNN_DATA_FLOAT);
    EXPECT_EQ(s.norm_mode, CUDNN_LOSS_NORMALIZATION_NONE);
    EXPECT_EQ(s.grad_mode, CUDNN_NOT_PROPAGATE_NAN);
    EXPECT_EQ(s.max_label_length, 256);
    cudnnDataType_t type = CUDNN_DATA_HALF;
    ASSERT_EQ(cudnnGetCTCLossDescriptor(desc, &type), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(type, CUDNN_DATA_FLOAT);
}

TEST(CTCLossDescriptor, ExSetterRoundTripsAndResetsMaxLabelLength) {
    CtcDesc desc;
    ASSERT_EQ(cudnnSetCTCLossDescriptor_v8(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_NONE,
                                           CUDNN_NOT_PROPAGATE_NAN, 17),
              CUDNN_STATUS_SUCCESS);
    for (auto norm : {CUDNN_LOSS_NORMALIZATION_NONE, CUDNN_LOSS_NORMALIZATION_SOFTMAX}) {
        for (auto grad : {CUDNN_NOT_PROPAGATE_NAN, CUDNN_PROPAGATE_NAN}) {
            ASSERT_EQ(cudnnSetCTCLossDescriptorEx(desc, CUDNN_DATA_DOUBLE, norm, grad), CUDNN_STATUS_SUCCESS);
            cudnnDataType_t type;
            cudnnLossNormalizationMode_t got_norm;
            cudnnNanPropagation_t got_grad;
            ASSERT_EQ(cudnnGetCTCLossDescriptorEx(desc, &type, &got_norm, &got_grad), CUDNN_STATUS_SUCCESS);
            EXPECT_EQ(type, CUDNN_DATA_DOUBLE);
            EXPECT_EQ(got_norm, norm);
            EXPECT_EQ(got_grad, grad);
            EXPECT_EQ(read_v8(desc).max_label_length, 256);
        }
    }
}

TEST(CTCLossDescriptor, V8SetterRoundTripsRandomSettings) {
    std::mt19937 rng(kSeed);
    std::uniform_int_distribution<int> length(0, 100000), coin(0, 1);
    const cudnnDataType_t types[] = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF};
    CtcDesc desc;
    for (int trial = 0; trial < 30; ++trial) {
        const CtcSettings want{types[rng() % 3], static_cast<cudnnLossNormalizationMode_t>(coin(rng)),
                               static_cast<cudnnNanPropagation_t>(coin(rng)), length(rng)};
        SCOPED_TRACE("seed " + std::to_string(kSeed) + " trial " + std::to_string(trial) + ": compType " +
                     std::to_string(want.comp_type) + " normMode " + std::to_string(want.norm_mode) + " gradMode " +
                     std::to_string(want.grad_mode) + " maxLabelLength " + std::to_string(want.max_label_length));
        ASSERT_EQ(
            cudnnSetCTCLossDescriptor_v8(desc, want.comp_type, want.norm_mode, want.grad_mode, want.max_label_length),
            CUDNN_STATUS_SUCCESS);
        const CtcSettings got = read_v8(desc);
        EXPECT_EQ(got.comp_type, want.comp_type);
        EXPECT_EQ(got.norm_mode, want.norm_mode);
        EXPECT_EQ(got.grad_mode, want.grad_mode);
        EXPECT_EQ(got.max_label_length, want.max_label_length);
    }
}

TEST(CTCLossDescriptor, RejectsInvalidArgumentsAndKeepsPreviousSettings) {
    CtcDesc desc;
    ASSERT_EQ(
        cudnnSetCTCLossDescriptor_v8(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_SOFTMAX, CUDNN_PROPAGATE_NAN, 64),
        CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetCTCLossDescriptor(desc, static_cast<cudnnDataType_t>(42)),
                    "cudnnSetCTCLossDescriptor", "compType is 42", "not a cudnnDataType_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetCTCLossDescriptorEx(desc, CUDNN_DATA_FLOAT, static_cast<cudnnLossNormalizationMode_t>(2),
                                                CUDNN_PROPAGATE_NAN),
                    "cudnnSetCTCLossDescriptorEx", "normMode is 2", "not a cudnnLossNormalizationMode_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetCTCLossDescriptor_v8(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_NONE,
                                                 static_cast<cudnnNanPropagation_t>(-1), 10),
                    "cudnnSetCTCLossDescriptor_v8", "gradMode is -1", "not a cudnnNanPropagation_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetCTCLossDescriptor_v8(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_NONE,
                                                 CUDNN_NOT_PROPAGATE_NAN, -1),
                    "maxLabelLength is -1", "must be >= 0");
    const CtcSettings s = read_v8(desc);
    EXPECT_EQ(s.norm_mode, CUDNN_LOSS_NORMALIZATION_SOFTMAX);
    EXPECT_EQ(s.grad_mode, CUDNN_PROPAGATE_NAN);
    EXPECT_EQ(s.max_label_length, 64);
}

TEST(CTCLossDescriptor, RejectsNullDescriptorAndOutputs) {
    CtcDesc desc;
    ASSERT_EQ(cudnnSetCTCLossDescriptor(desc, CUDNN_DATA_FLOAT), CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    cudnnLossNormalizationMode_t norm;
    cudnnNanPropagation_t grad;
    int length;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetCTCLossDescriptor(nullptr, CUDNN_DATA_FLOAT),
                    "ctcLossDesc is NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetCTCLossDescriptorEx(nullptr, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_NONE, CUDNN_NOT_PROPAGATE_NAN),
        "ctcLossDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetCTCLossDescriptor_v8(nullptr, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_NONE,
                                                 CUDNN_NOT_PROPAGATE_NAN, 1),
                    "ctcLossDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptor(desc, nullptr), "compType is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptor(nullptr, &type), "ctcLossDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptorEx(desc, &type, nullptr, &grad),
                    "normMode is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptorEx(desc, &type, &norm, nullptr),
                    "gradMode is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptor_v8(desc, &type, &norm, &grad, nullptr),
                    "maxLabelLength is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetCTCLossDescriptor_v8(nullptr, &type, &norm, &grad, &length),
                    "ctcLossDesc is NULL");
}
