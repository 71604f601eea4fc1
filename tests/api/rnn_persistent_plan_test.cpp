// The legacy persistent-RNN plan through the public API: cudnnCreatePersistentRNNPlan, cudnnSetPersistentRNNPlan,
// cudnnDestroyPersistentRNNPlan and cudnnBuildRNNDynamic, for CUDNN_RNN_ALGO_PERSIST_DYNAMIC descriptors set by
// either setter, and each documented rejection. That a plan changes no result is RnnLegacy's test (ops).
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>
#include <vector>

namespace {

using librednn::test::LogCapture;

class PersistentRNNPlan : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(cudnnCreate(&handle_), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnCreateRNNDescriptor(&dynamic_), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(set_v6(dynamic_, CUDNN_RNN_ALGO_PERSIST_DYNAMIC, CUDNN_DATA_FLOAT), CUDNN_STATUS_SUCCESS);
    }
    void TearDown() override {
        EXPECT_EQ(cudnnDestroyRNNDescriptor(dynamic_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnDestroy(handle_), CUDNN_STATUS_SUCCESS);
    }

    // A 2-layer LSTM of hidden size 8, the legacy way.
    cudnnStatus_t set_v6(cudnnRNNDescriptor_t desc, cudnnRNNAlgo_t algo, cudnnDataType_t math_prec) {
        return cudnnSetRNNDescriptor_v6(handle_, desc, 8, 2, nullptr, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL,
                                        CUDNN_LSTM, algo, math_prec);
    }

    cudnnHandle_t handle_ = nullptr;
    cudnnRNNDescriptor_t dynamic_ = nullptr;
};

// The trace of a call that reads `desc` (cudnnGetRNNBiasMode), where the descriptor shows an attached plan.
std::string descriptor_trace(cudnnRNNDescriptor_t desc) {
    LogCapture capture(CUDNN_SEV_INFO_EN);
    cudnnRNNBiasMode_t bias_mode;
    EXPECT_EQ(cudnnGetRNNBiasMode(desc, &bias_mode), CUDNN_STATUS_SUCCESS);
    return capture.all();
}

}  // namespace

// Random PERSIST_DYNAMIC descriptors (v8 or v6, each data type, the mathPrec values that compute it) take a plan
// of any mini-batch and a type they compute; the descriptor keeps the plan's values after the plan is destroyed,
// and cudnnBuildRNNDynamic succeeds for any mini-batch.
TEST_F(PersistentRNNPlan, CreateSetDestroyRoundTripsForPersistDynamic) {
    const unsigned seed = 20261204;
    std::mt19937 rng(seed);
    for (int round = 0; round < 40; ++round) {
        const cudnnDataType_t data_type =
            std::vector<cudnnDataType_t>{CUDNN_DATA_HALF, CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE}[rng() % 3];
        const cudnnDataType_t math_prec = data_type == CUDNN_DATA_HALF && rng() % 2 == 0 ? CUDNN_DATA_FLOAT : data_type;
        const bool v6 = rng() % 2 == 0;
        const int minibatch = 1 + static_cast<int>(rng() % 64);
        SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round) + ": data type " +
                     std::to_string(data_type) + " mathPrec " + std::to_string(math_prec) + (v6 ? " v6" : " v8") +
                     " minibatch " + std::to_string(minibatch));
        cudnnRNNDescriptor_t desc = nullptr;
        ASSERT_EQ(cudnnCreateRNNDescriptor(&desc), CUDNN_STATUS_SUCCESS);
        const cudnnStatus_t set =
            v6 ? set_v6(desc, CUDNN_RNN_ALGO_PERSIST_DYNAMIC, math_prec)
               : cudnnSetRNNDescriptor_v8(desc, CUDNN_RNN_ALGO_PERSIST_DYNAMIC, CUDNN_GRU, CUDNN_RNN_DOUBLE_BIAS,
                                          CUDNN_BIDIRECTIONAL, CUDNN_LINEAR_INPUT, data_type, math_prec,
                                          CUDNN_DEFAULT_MATH, 5, 7, 7, 3, nullptr, CUDNN_RNN_PADDED_IO_DISABLED);
        ASSERT_EQ(set, CUDNN_STATUS_SUCCESS);

        cudnnPersistentRNNPlan_t plan = nullptr;
        ASSERT_EQ(cudnnCreatePersistentRNNPlan(desc, minibatch, data_type, &plan), CUDNN_STATUS_SUCCESS);
        ASSERT_NE(plan, nullptr);
        EXPECT_EQ(cudnnSetPersistentRNNPlan(desc, plan), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnDestroyPersistentRNNPlan(plan), CUDNN_STATUS_SUCCESS);
        const std::string trace = descriptor_trace(desc);
        EXPECT_NE(trace.find("plan minibatch " + std::to_string(minibatch)), std::string::npos) << trace;
        EXPECT_EQ(cudnnBuildRNNDynamic(handle_, desc, minibatch), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnBuildRNNDynamic(handle_, desc, minibatch + 1), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnDestroyRNNDescriptor(desc), CUDNN_STATUS_SUCCESS);
    }
}

// One plan serves several descriptors, and setting a second plan replaces the first's values.
TEST_F(PersistentRNNPlan, PlanIsSharedAndReplaced) {
    cudnnRNNDescriptor_t other = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&other), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(set_v6(other, CUDNN_RNN_ALGO_PERSIST_DYNAMIC, CUDNN_DATA_FLOAT), CUDNN_STATUS_SUCCESS);
    cudnnPersistentRNNPlan_t first = nullptr, second = nullptr;
    ASSERT_EQ(cudnnCreatePersistentRNNPlan(dynamic_, 3, CUDNN_DATA_FLOAT, &first), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreatePersistentRNNPlan(dynamic_, 11, CUDNN_DATA_FLOAT, &second), CUDNN_STATUS_SUCCESS);
    EXPECT_NE(first, second);
    EXPECT_EQ(cudnnSetPersistentRNNPlan(dynamic_, first), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetPersistentRNNPlan(other, first), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetPersistentRNNPlan(dynamic_, second), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroyPersistentRNNPlan(first), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroyPersistentRNNPlan(second), CUDNN_STATUS_SUCCESS);
    const std::string trace = descriptor_trace(dynamic_), other_trace = descriptor_trace(other);
    EXPECT_NE(trace.find("plan minibatch 11 "), std::string::npos) << trace;
    EXPECT_NE(other_trace.find("plan minibatch 3 "), std::string::npos) << other_trace;
    EXPECT_EQ(cudnnDestroyRNNDescriptor(other), CUDNN_STATUS_SUCCESS);
}

TEST_F(PersistentRNNPlan, CreateRejectsBadArguments) {
    cudnnPersistentRNNPlan_t plan = nullptr;
    cudnnRNNDescriptor_t desc = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&desc), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(desc, 2, CUDNN_DATA_FLOAT, &plan),
                    "rnnDesc has not been set");
    for (cudnnRNNAlgo_t algo :
         {CUDNN_RNN_ALGO_STANDARD, CUDNN_RNN_ALGO_PERSIST_STATIC, CUDNN_RNN_ALGO_PERSIST_STATIC_SMALL_H}) {
        ASSERT_EQ(set_v6(desc, algo, CUDNN_DATA_FLOAT), CUDNN_STATUS_SUCCESS);
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(desc, 2, CUDNN_DATA_FLOAT, &plan),
                        "PERSIST_DYNAMIC only");
    }
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(dynamic_, 0, CUDNN_DATA_FLOAT, &plan),
                    "minibatch is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(dynamic_, -3, CUDNN_DATA_FLOAT, &plan),
                    "minibatch is -3");
    // A type the descriptor's mathPrec does not compute: float math takes half and float data, half math half only.
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(dynamic_, 2, CUDNN_DATA_DOUBLE, &plan),
                    "mathPrec cannot compute");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(dynamic_, 2, CUDNN_DATA_INT8, &plan),
                    "mathPrec cannot compute");
    ASSERT_EQ(set_v6(desc, CUDNN_RNN_ALGO_PERSIST_DYNAMIC, CUDNN_DATA_HALF), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(desc, 2, CUDNN_DATA_FLOAT, &plan),
                    "mathPrec cannot compute");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(dynamic_, 2, CUDNN_DATA_FLOAT, nullptr),
                    "plan is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(nullptr, 2, CUDNN_DATA_FLOAT, &plan),
                    "rnnDesc is NULL");
    EXPECT_EQ(plan, nullptr);
    EXPECT_EQ(cudnnDestroyRNNDescriptor(desc), CUDNN_STATUS_SUCCESS);
}

TEST_F(PersistentRNNPlan, SetRejectsBadArguments) {
    cudnnPersistentRNNPlan_t plan = nullptr;
    ASSERT_EQ(cudnnCreatePersistentRNNPlan(dynamic_, 4, CUDNN_DATA_FLOAT, &plan), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPersistentRNNPlan(dynamic_, nullptr), "plan is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPersistentRNNPlan(nullptr, plan), "rnnDesc is NULL");

    // A descriptor that is not PERSIST_DYNAMIC, or cannot compute the plan's type.
    cudnnRNNDescriptor_t desc = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&desc), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPersistentRNNPlan(desc, plan), "rnnDesc has not been set");
    ASSERT_EQ(set_v6(desc, CUDNN_RNN_ALGO_STANDARD, CUDNN_DATA_FLOAT), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPersistentRNNPlan(desc, plan), "PERSIST_DYNAMIC only");
    ASSERT_EQ(set_v6(desc, CUDNN_RNN_ALGO_PERSIST_DYNAMIC, CUDNN_DATA_DOUBLE), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPersistentRNNPlan(desc, plan), "plan was made for",
                    "CUDNN_DATA_FLOAT", "cannot compute");
    EXPECT_EQ(descriptor_trace(desc).find("plan minibatch"), std::string::npos);

    // Memory that is not a plan of ours, readable as one.
    std::vector<unsigned char> not_a_plan(256, 0);
    auto *foreign = reinterpret_cast<cudnnPersistentRNNPlan_t>(not_a_plan.data());
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPersistentRNNPlan(dynamic_, foreign),
                    "not made by cudnnCreatePersistentRNNPlan");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDestroyPersistentRNNPlan(foreign),
                    "not made by cudnnCreatePersistentRNNPlan");

    EXPECT_EQ(cudnnDestroyPersistentRNNPlan(plan), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroyRNNDescriptor(desc), CUDNN_STATUS_SUCCESS);
}

TEST_F(PersistentRNNPlan, DestroyAcceptsNull) {
    EXPECT_EQ(cudnnDestroyPersistentRNNPlan(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST_F(PersistentRNNPlan, BuildRejectsBadArguments) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnBuildRNNDynamic(handle_, dynamic_, 0), "miniBatch is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnBuildRNNDynamic(nullptr, dynamic_, 2), "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnBuildRNNDynamic(handle_, nullptr, 2), "rnnDesc is NULL");
    cudnnRNNDescriptor_t desc = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&desc), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnBuildRNNDynamic(handle_, desc, 2), "rnnDesc has not been set");
    ASSERT_EQ(set_v6(desc, CUDNN_RNN_ALGO_PERSIST_STATIC, CUDNN_DATA_FLOAT), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnBuildRNNDynamic(handle_, desc, 2), "PERSIST_DYNAMIC only");
    EXPECT_EQ(cudnnDestroyRNNDescriptor(desc), CUDNN_STATUS_SUCCESS);
}
