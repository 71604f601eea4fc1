// The RNN descriptor through the public API: v8 and legacy v6 setters and getters, the single-property
// setters, their defaults and each documented rejection.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace {

// A dropout descriptor the RNN descriptor only stores: it must never be dereferenced.
const cudnnDropoutDescriptor_t kFakeDropout = reinterpret_cast<cudnnDropoutDescriptor_t>(uintptr_t{0x5000});

struct V8Config {
    cudnnRNNAlgo_t algo = CUDNN_RNN_ALGO_STANDARD;
    cudnnRNNMode_t cellMode = CUDNN_LSTM;
    cudnnRNNBiasMode_t biasMode = CUDNN_RNN_DOUBLE_BIAS;
    cudnnDirectionMode_t dirMode = CUDNN_UNIDIRECTIONAL;
    cudnnRNNInputMode_t inputMode = CUDNN_LINEAR_INPUT;
    cudnnDataType_t dataType = CUDNN_DATA_FLOAT;
    cudnnDataType_t mathPrec = CUDNN_DATA_FLOAT;
    cudnnMathType_t mathType = CUDNN_DEFAULT_MATH;
    int32_t inputSize = 32;
    int32_t hiddenSize = 64;
    int32_t projSize = 64;
    int32_t numLayers = 2;
    cudnnDropoutDescriptor_t dropout = nullptr;
    uint32_t auxFlags = CUDNN_RNN_PADDED_IO_DISABLED;

    std::string str() const {
        return "algo " + std::to_string(algo) + " cell " + std::to_string(cellMode) + " bias " +
               std::to_string(biasMode) + " dir " + std::to_string(dirMode) + " input " + std::to_string(inputMode) +
               " type " + std::to_string(dataType) + "/" + std::to_string(mathPrec) + " math " +
               std::to_string(mathType) + " sizes " + std::to_string(inputSize) + "/" + std::to_string(hiddenSize) +
               "/" + std::to_string(projSize) + " layers " + std::to_string(numLayers) + " aux " +
               std::to_string(auxFlags);
    }
};

cudnnStatus_t set_v8(cudnnRNNDescriptor_t desc, const V8Config &c) {
    return cudnnSetRNNDescriptor_v8(desc, c.algo, c.cellMode, c.biasMode, c.dirMode, c.inputMode, c.dataType,
                                    c.mathPrec, c.mathType, c.inputSize, c.hiddenSize, c.projSize, c.numLayers,
                                    c.dropout, c.auxFlags);
}

V8Config get_v8(cudnnRNNDescriptor_t desc) {
    V8Config c;
    EXPECT_EQ(cudnnGetRNNDescriptor_v8(desc, &c.algo, &c.cellMode, &c.biasMode, &c.dirMode, &c.inputMode, &c.dataType,
                                       &c.mathPrec, &c.mathType, &c.inputSize, &c.hiddenSize, &c.projSize, &c.numLayers,
                                       &c.dropout, &c.auxFlags),
              CUDNN_STATUS_SUCCESS);
    return c;
}

void expect_same(const V8Config &a, const V8Config &b) {
    EXPECT_EQ(a.algo, b.algo);
    EXPECT_EQ(a.cellMode, b.cellMode);
    EXPECT_EQ(a.biasMode, b.biasMode);
    EXPECT_EQ(a.dirMode, b.dirMode);
    EXPECT_EQ(a.inputMode, b.inputMode);
    EXPECT_EQ(a.dataType, b.dataType);
    EXPECT_EQ(a.mathPrec, b.mathPrec);
    EXPECT_EQ(a.mathType, b.mathType);
    EXPECT_EQ(a.inputSize, b.inputSize);
    EXPECT_EQ(a.hiddenSize, b.hiddenSize);
    EXPECT_EQ(a.projSize, b.projSize);
    EXPECT_EQ(a.numLayers, b.numLayers);
    EXPECT_EQ(a.dropout, b.dropout);
    EXPECT_EQ(a.auxFlags, b.auxFlags);
}

// Creates a descriptor (and a handle for the legacy functions) per test.
class RNNDescriptor : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(cudnnCreateRNNDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        ASSERT_NE(desc_, nullptr);
        ASSERT_EQ(cudnnCreate(&handle_), CUDNN_STATUS_SUCCESS);
    }
    void TearDown() override {
        EXPECT_EQ(cudnnDestroyRNNDescriptor(desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnDestroy(handle_), CUDNN_STATUS_SUCCESS);
    }

    cudnnRNNDescriptor_t desc_ = nullptr;
    cudnnHandle_t handle_ = nullptr;
};

}  // namespace

TEST(RNNDescriptorLifetime, CreateRejectsNullAndDestroyAcceptsNull) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateRNNDescriptor(nullptr), "cudnnCreateRNNDescriptor",
                    "rnnDesc is NULL");
    EXPECT_EQ(cudnnDestroyRNNDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDescriptor, V8RoundTripsRandomConfigurations) {
    const unsigned seed = 20240611;
    std::mt19937 rng(seed);
    auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    const cudnnDataType_t types[] = {CUDNN_DATA_HALF, CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE};
    for (int round = 0; round < 200; ++round) {
        V8Config c;
        c.algo = static_cast<cudnnRNNAlgo_t>(pick(0, 3));
        c.cellMode = static_cast<cudnnRNNMode_t>(pick(0, 3));
        c.biasMode = static_cast<cudnnRNNBiasMode_t>(pick(0, 3));
        c.dirMode = static_cast<cudnnDirectionMode_t>(pick(0, 1));
        c.inputMode = static_cast<cudnnRNNInputMode_t>(pick(0, 1));
        c.dataType = types[pick(0, 2)];
        c.mathPrec = c.dataType == CUDNN_DATA_HALF && pick(0, 1) ? CUDNN_DATA_FLOAT : c.dataType;
        c.mathType = static_cast<cudnnMathType_t>(pick(0, 3));
        c.hiddenSize = pick(1, 1024);
        c.inputSize = c.inputMode == CUDNN_SKIP_INPUT ? c.hiddenSize : pick(1, 1024);
        const bool projection = c.cellMode == CUDNN_LSTM && c.algo == CUDNN_RNN_ALGO_STANDARD && pick(0, 1);
        c.projSize = projection ? pick(1, c.hiddenSize) : c.hiddenSize;
        c.numLayers = pick(1, 8);
        c.dropout = pick(0, 1) ? kFakeDropout : nullptr;
        c.auxFlags = static_cast<uint32_t>(pick(0, 1));
        SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round) + ": " + c.str());
        ASSERT_EQ(set_v8(desc_, c), CUDNN_STATUS_SUCCESS);
        expect_same(get_v8(desc_), c);
        unsigned padding = 99;
        ASSERT_EQ(cudnnGetRNNPaddingMode(desc_, &padding), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(padding, c.auxFlags);
        cudnnMathType_t math = CUDNN_FMA_MATH;
        ASSERT_EQ(cudnnGetRNNMatrixMathType(desc_, &math), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(math, c.mathType);
        cudnnRNNBiasMode_t bias = CUDNN_RNN_NO_BIAS;
        ASSERT_EQ(cudnnGetRNNBiasMode(desc_, &bias), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(bias, c.biasMode);
    }
}

TEST_F(RNNDescriptor, V8GetAcceptsNullOutputs) {
    V8Config c;
    c.hiddenSize = 48;
    c.projSize = 48;
    ASSERT_EQ(set_v8(desc_, c), CUDNN_STATUS_SUCCESS);
    int32_t hidden = 0;
    EXPECT_EQ(cudnnGetRNNDescriptor_v8(desc_, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                       nullptr, &hidden, nullptr, nullptr, nullptr, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(hidden, 48);
}

TEST_F(RNNDescriptor, V8KeepsDropoutDescriptorAsOpaquePointer) {
    V8Config c;
    c.dropout = kFakeDropout;
    ASSERT_EQ(set_v8(desc_, c), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(get_v8(desc_).dropout, kFakeDropout);
}

TEST_F(RNNDescriptor, GetBeforeSetIsRejected) {
    int32_t hidden = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDescriptor_v8(desc_, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                             nullptr, nullptr, &hidden, nullptr, nullptr, nullptr, nullptr),
                    "cudnnGetRNNDescriptor_v8", "rnnDesc has not been set");
    int h, l;
    cudnnDropoutDescriptor_t d;
    cudnnRNNInputMode_t im;
    cudnnDirectionMode_t dm;
    cudnnRNNMode_t cm;
    cudnnRNNAlgo_t a;
    cudnnDataType_t mp;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDescriptor_v6(handle_, desc_, &h, &l, &d, &im, &dm, &cm, &a, &mp),
                    "cudnnGetRNNDescriptor_v6", "rnnDesc has not been set");
    int rec, out;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNProjectionLayers(handle_, desc_, &rec, &out),
                    "cudnnGetRNNProjectionLayers", "rnnDesc has not been set");
}

TEST_F(RNNDescriptor, NewDescriptorHoldsDefaults) {
    cudnnMathType_t math = CUDNN_FMA_MATH;
    ASSERT_EQ(cudnnGetRNNMatrixMathType(desc_, &math), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(math, CUDNN_DEFAULT_MATH);
    cudnnRNNBiasMode_t bias = CUDNN_RNN_NO_BIAS;
    ASSERT_EQ(cudnnGetRNNBiasMode(desc_, &bias), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(bias, CUDNN_RNN_DOUBLE_BIAS);
    unsigned padding = 99;
    ASSERT_EQ(cudnnGetRNNPaddingMode(desc_, &padding), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(padding, CUDNN_RNN_PADDED_IO_DISABLED);
    cudnnRNNClipMode_t mode = CUDNN_RNN_CLIP_MINMAX;
    cudnnNanPropagation_t nan = CUDNN_PROPAGATE_NAN;
    double lclip = 1, rclip = 1;
    ASSERT_EQ(cudnnRNNGetClip_v8(desc_, &mode, &nan, &lclip, &rclip), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mode, CUDNN_RNN_CLIP_NONE);
    EXPECT_EQ(nan, CUDNN_NOT_PROPAGATE_NAN);
    EXPECT_EQ(lclip, 0.0);
    EXPECT_EQ(rclip, 0.0);
}

TEST_F(RNNDescriptor, V8RejectsNullDescriptor) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(nullptr, V8Config{}), "cudnnSetRNNDescriptor_v8", "rnnDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDescriptor_v8(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                             nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
                    "cudnnGetRNNDescriptor_v8", "rnnDesc is NULL");
}

TEST_F(RNNDescriptor, V8RejectsInvalidEnums) {
    V8Config c;
    c.algo = CUDNN_RNN_ALGO_COUNT;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "cudnnSetRNNDescriptor_v8", "algo is 4",
                    "not a cudnnRNNAlgo_t");
    c = V8Config{};
    c.cellMode = static_cast<cudnnRNNMode_t>(4);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "cellMode is 4", "not a cudnnRNNMode_t");
    c = V8Config{};
    c.biasMode = static_cast<cudnnRNNBiasMode_t>(-1);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "biasMode is -1", "not a cudnnRNNBiasMode_t");
    c = V8Config{};
    c.dirMode = static_cast<cudnnDirectionMode_t>(2);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "dirMode is 2", "not a cudnnDirectionMode_t");
    c = V8Config{};
    c.inputMode = static_cast<cudnnRNNInputMode_t>(2);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "inputMode is 2", "not a cudnnRNNInputMode_t");
    c = V8Config{};
    c.dataType = static_cast<cudnnDataType_t>(77);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "dataType is 77", "not a cudnnDataType_t");
    c = V8Config{};
    c.mathPrec = static_cast<cudnnDataType_t>(77);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "mathPrec is 77", "not a cudnnDataType_t");
    c = V8Config{};
    c.mathType = static_cast<cudnnMathType_t>(9);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "mathType is 9", "not a cudnnMathType_t");
}

TEST_F(RNNDescriptor, V8RejectsNonPositiveSizes) {
    V8Config c;
    c.inputSize = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "inputSize is 0", "must be positive");
    c = V8Config{};
    c.hiddenSize = -3;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "hiddenSize is -3", "must be positive");
    c = V8Config{};
    c.numLayers = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "numLayers is 0", "must be positive");
}

TEST_F(RNNDescriptor, V8RejectsProjSizeOutsideOneToHiddenSize) {
    V8Config c;
    c.projSize = 65;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "projSize is 65", "between 1 and hiddenSize (64)");
    c.projSize = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "projSize is 0", "between 1 and hiddenSize (64)");
}

TEST_F(RNNDescriptor, V8ProjectionNeedsLstmAndStandardAlgo) {
    V8Config c;
    c.projSize = 32;
    c.cellMode = CUDNN_GRU;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, set_v8(desc_, c), "cudnnSetRNNDescriptor_v8", "projSize is 32",
                    "only supported for CUDNN_LSTM", "CUDNN_GRU");
    c.cellMode = CUDNN_LSTM;
    c.algo = CUDNN_RNN_ALGO_PERSIST_STATIC;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, set_v8(desc_, c), "projSize is 32", "CUDNN_RNN_ALGO_STANDARD",
                    "CUDNN_RNN_ALGO_PERSIST_STATIC");
    // projSize == hiddenSize means "no projection" and suits every cell.
    c.cellMode = CUDNN_GRU;
    c.projSize = c.hiddenSize;
    EXPECT_EQ(set_v8(desc_, c), CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDescriptor, V8RejectsUnknownAuxFlags) {
    V8Config c;
    c.auxFlags = 0x6;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "auxFlags is 0x6", "CUDNN_RNN_PADDED_IO_ENABLED");
}

TEST_F(RNNDescriptor, V8SkipInputNeedsInputSizeEqualToHiddenSize) {
    V8Config c;
    c.inputMode = CUDNN_SKIP_INPUT;
    c.inputSize = 32;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_v8(desc_, c), "inputSize is 32", "CUDNN_SKIP_INPUT", "hiddenSize (64)");
    c.inputSize = 64;
    EXPECT_EQ(set_v8(desc_, c), CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDescriptor, V8RejectsUnsupportedTypeCombinations) {
    V8Config c;
    c.dataType = CUDNN_DATA_FLOAT;
    c.mathPrec = CUDNN_DATA_HALF;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, set_v8(desc_, c), "mathPrec is CUDNN_DATA_HALF",
                    "dataType is CUDNN_DATA_FLOAT");
    c.dataType = CUDNN_DATA_DOUBLE;
    c.mathPrec = CUDNN_DATA_FLOAT;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, set_v8(desc_, c), "mathPrec is CUDNN_DATA_FLOAT",
                    "dataType is CUDNN_DATA_DOUBLE");
    c.dataType = CUDNN_DATA_INT8;
    c.mathPrec = CUDNN_DATA_FLOAT;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, set_v8(desc_, c), "dataType is CUDNN_DATA_INT8",
                    "RNNs support CUDNN_DATA_HALF");
    c.dataType = CUDNN_DATA_HALF;
    c.mathPrec = CUDNN_DATA_FLOAT;
    EXPECT_EQ(set_v8(desc_, c), CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDescriptor, FailedSetLeavesDescriptorUnchanged) {
    V8Config good;
    good.hiddenSize = 100;
    good.projSize = 100;
    ASSERT_EQ(set_v8(desc_, good), CUDNN_STATUS_SUCCESS);
    V8Config bad = good;
    bad.numLayers = -1;
    bad.inputSize = 7;
    EXPECT_EQ(set_v8(desc_, bad), CUDNN_STATUS_BAD_PARAM);
    expect_same(get_v8(desc_), good);
}

TEST_F(RNNDescriptor, V6MapsOntoV8StateWithDocumentedDefaults) {
    // Options set before the v6 setter go back to their defaults (cuDNN has them set afterwards).
    ASSERT_EQ(cudnnSetRNNMatrixMathType(desc_, CUDNN_TENSOR_OP_MATH), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetRNNBiasMode(desc_, CUDNN_RNN_NO_BIAS), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetRNNPaddingMode(desc_, CUDNN_RNN_PADDED_IO_ENABLED), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetRNNDescriptor_v6(handle_, desc_, 128, 3, kFakeDropout, CUDNN_LINEAR_INPUT, CUDNN_BIDIRECTIONAL,
                                       CUDNN_LSTM, CUDNN_RNN_ALGO_PERSIST_DYNAMIC, CUDNN_DATA_HALF),
              CUDNN_STATUS_SUCCESS);
    const V8Config c = get_v8(desc_);
    EXPECT_EQ(c.algo, CUDNN_RNN_ALGO_PERSIST_DYNAMIC);
    EXPECT_EQ(c.cellMode, CUDNN_LSTM);
    EXPECT_EQ(c.biasMode, CUDNN_RNN_DOUBLE_BIAS);
    EXPECT_EQ(c.dirMode, CUDNN_BIDIRECTIONAL);
    EXPECT_EQ(c.inputMode, CUDNN_LINEAR_INPUT);
    EXPECT_EQ(c.mathPrec, CUDNN_DATA_HALF);
    EXPECT_EQ(c.mathType, CUDNN_DEFAULT_MATH);
    EXPECT_EQ(c.hiddenSize, 128);
    EXPECT_EQ(c.projSize, 128);
    EXPECT_EQ(c.numLayers, 3);
    EXPECT_EQ(c.dropout, kFakeDropout);
    EXPECT_EQ(c.auxFlags, CUDNN_RNN_PADDED_IO_DISABLED);
}

TEST_F(RNNDescriptor, V6RoundTripsRandomConfigurations) {
    const unsigned seed = 777001;
    std::mt19937 rng(seed);
    auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    const cudnnDataType_t types[] = {CUDNN_DATA_HALF, CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE};
    for (int round = 0; round < 100; ++round) {
        const int hidden = pick(1, 2048), layers = pick(1, 10);
        const auto input_mode = static_cast<cudnnRNNInputMode_t>(pick(0, 1));
        const auto direction = static_cast<cudnnDirectionMode_t>(pick(0, 1));
        const auto cell = static_cast<cudnnRNNMode_t>(pick(0, 3));
        const auto algo = static_cast<cudnnRNNAlgo_t>(pick(0, 3));
        const cudnnDataType_t prec = types[pick(0, 2)];
        const cudnnDropoutDescriptor_t dropout = pick(0, 1) ? kFakeDropout : nullptr;
        SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round) + ": hidden " +
                     std::to_string(hidden) + " layers " + std::to_string(layers) + " input " +
                     std::to_string(input_mode) + " dir " + std::to_string(direction) + " cell " +
                     std::to_string(cell) + " algo " + std::to_string(algo) + " prec " + std::to_string(prec));
        ASSERT_EQ(
            cudnnSetRNNDescriptor_v6(handle_, desc_, hidden, layers, dropout, input_mode, direction, cell, algo, prec),
            CUDNN_STATUS_SUCCESS);
        int h = 0, l = 0;
        cudnnDropoutDescriptor_t d = nullptr;
        cudnnRNNInputMode_t im;
        cudnnDirectionMode_t dm;
        cudnnRNNMode_t cm;
        cudnnRNNAlgo_t a;
        cudnnDataType_t mp;
        ASSERT_EQ(cudnnGetRNNDescriptor_v6(handle_, desc_, &h, &l, &d, &im, &dm, &cm, &a, &mp), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(h, hidden);
        EXPECT_EQ(l, layers);
        EXPECT_EQ(d, dropout);
        EXPECT_EQ(im, input_mode);
        EXPECT_EQ(dm, direction);
        EXPECT_EQ(cm, cell);
        EXPECT_EQ(a, algo);
        EXPECT_EQ(mp, prec);
    }
}

TEST_F(RNNDescriptor, V6GetReadsV8Descriptor) {
    V8Config c;
    c.dataType = CUDNN_DATA_HALF;
    c.mathPrec = CUDNN_DATA_FLOAT;
    c.cellMode = CUDNN_GRU;
    ASSERT_EQ(set_v8(desc_, c), CUDNN_STATUS_SUCCESS);
    int h = 0, l = 0;
    cudnnDropoutDescriptor_t d;
    cudnnRNNInputMode_t im;
    cudnnDirectionMode_t dm;
    cudnnRNNMode_t cm;
    cudnnRNNAlgo_t a;
    cudnnDataType_t mp;
    ASSERT_EQ(cudnnGetRNNDescriptor_v6(handle_, desc_, &h, &l, &d, &im, &dm, &cm, &a, &mp), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(h, c.hiddenSize);
    EXPECT_EQ(l, c.numLayers);
    EXPECT_EQ(cm, CUDNN_GRU);
    EXPECT_EQ(mp, CUDNN_DATA_FLOAT);
}

TEST_F(RNNDescriptor, V6RejectsBadArguments) {
    auto set = [&](cudnnHandle_t handle, cudnnRNNDescriptor_t desc, int hidden, int layers, int input_mode,
                   int direction, int cell, int algo, int prec) {
        return cudnnSetRNNDescriptor_v6(handle, desc, hidden, layers, nullptr,
                                        static_cast<cudnnRNNInputMode_t>(input_mode),
                                        static_cast<cudnnDirectionMode_t>(direction), static_cast<cudnnRNNMode_t>(cell),
                                        static_cast<cudnnRNNAlgo_t>(algo), static_cast<cudnnDataType_t>(prec));
    };
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(nullptr, desc_, 8, 1, 0, 0, 2, 0, 0), "cudnnSetRNNDescriptor_v6",
                    "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(handle_, nullptr, 8, 1, 0, 0, 2, 0, 0), "rnnDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(handle_, desc_, 0, 1, 0, 0, 2, 0, 0), "hiddenSize is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(handle_, desc_, 8, -2, 0, 0, 2, 0, 0), "numLayers is -2");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(handle_, desc_, 8, 1, 5, 0, 2, 0, 0), "inputMode is 5");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(handle_, desc_, 8, 1, 0, 5, 2, 0, 0), "direction is 5");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(handle_, desc_, 8, 1, 0, 0, 5, 0, 0), "cellMode is 5");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(handle_, desc_, 8, 1, 0, 0, 2, 4, 0), "algo is 4");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(handle_, desc_, 8, 1, 0, 0, 2, 0, CUDNN_DATA_INT8),
                    "mathPrec is CUDNN_DATA_INT8", "CUDNN_DATA_HALF, CUDNN_DATA_FLOAT or CUDNN_DATA_DOUBLE");
}

TEST_F(RNNDescriptor, V6GetRejectsNullOutputs) {
    ASSERT_EQ(cudnnSetRNNDescriptor_v6(handle_, desc_, 16, 1, nullptr, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL,
                                       CUDNN_GRU, CUDNN_RNN_ALGO_STANDARD, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int h, l;
    cudnnDropoutDescriptor_t d;
    cudnnRNNInputMode_t im;
    cudnnDirectionMode_t dm;
    cudnnRNNMode_t cm;
    cudnnRNNAlgo_t a;
    cudnnDataType_t mp;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDescriptor_v6(handle_, desc_, nullptr, &l, &d, &im, &dm, &cm, &a, &mp),
                    "cudnnGetRNNDescriptor_v6", "hiddenSize is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDescriptor_v6(handle_, desc_, &h, &l, &d, &im, &dm, &cm, &a, nullptr),
                    "mathPrec is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDescriptor_v6(nullptr, desc_, &h, &l, &d, &im, &dm, &cm, &a, &mp), "handle is NULL");
}

TEST_F(RNNDescriptor, MatrixMathTypeSetsGetsAndRejects) {
    for (cudnnMathType_t type :
         {CUDNN_TENSOR_OP_MATH, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION, CUDNN_FMA_MATH, CUDNN_DEFAULT_MATH}) {
        ASSERT_EQ(cudnnSetRNNMatrixMathType(desc_, type), CUDNN_STATUS_SUCCESS);
        cudnnMathType_t out = static_cast<cudnnMathType_t>(-1);
        ASSERT_EQ(cudnnGetRNNMatrixMathType(desc_, &out), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(out, type);
    }
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNMatrixMathType(desc_, static_cast<cudnnMathType_t>(4)),
                    "cudnnSetRNNMatrixMathType", "mType is 4", "not a cudnnMathType_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNMatrixMathType(nullptr, CUDNN_DEFAULT_MATH), "rnnDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNMatrixMathType(desc_, nullptr), "cudnnGetRNNMatrixMathType",
                    "mType is NULL");
}

TEST_F(RNNDescriptor, BiasModeSetsGetsAndRejects) {
    for (cudnnRNNBiasMode_t mode :
         {CUDNN_RNN_NO_BIAS, CUDNN_RNN_SINGLE_INP_BIAS, CUDNN_RNN_SINGLE_REC_BIAS, CUDNN_RNN_DOUBLE_BIAS}) {
        ASSERT_EQ(cudnnSetRNNBiasMode(desc_, mode), CUDNN_STATUS_SUCCESS);
        cudnnRNNBiasMode_t out = static_cast<cudnnRNNBiasMode_t>(-1);
        ASSERT_EQ(cudnnGetRNNBiasMode(desc_, &out), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(out, mode);
    }
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNBiasMode(desc_, static_cast<cudnnRNNBiasMode_t>(4)),
                    "cudnnSetRNNBiasMode", "biasMode is 4");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNBiasMode(nullptr, CUDNN_RNN_NO_BIAS), "rnnDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNBiasMode(desc_, nullptr), "biasMode is NULL");
}

TEST_F(RNNDescriptor, NonDefaultBiasModeNeedsStandardAlgo) {
    ASSERT_EQ(cudnnSetRNNDescriptor_v6(handle_, desc_, 16, 1, nullptr, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL,
                                       CUDNN_LSTM, CUDNN_RNN_ALGO_PERSIST_STATIC, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnSetRNNBiasMode(desc_, CUDNN_RNN_SINGLE_INP_BIAS),
                    "cudnnSetRNNBiasMode", "CUDNN_RNN_ALGO_PERSIST_STATIC", "CUDNN_RNN_ALGO_STANDARD");
    EXPECT_EQ(cudnnSetRNNBiasMode(desc_, CUDNN_RNN_DOUBLE_BIAS), CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDescriptor, ClipRoundTripsThroughV8AndLegacyFunctions) {
    ASSERT_EQ(cudnnRNNSetClip_v8(desc_, CUDNN_RNN_CLIP_MINMAX, CUDNN_PROPAGATE_NAN, -2.5, 3.0), CUDNN_STATUS_SUCCESS);
    cudnnRNNClipMode_t mode;
    cudnnNanPropagation_t nan;
    double lclip, rclip;
    ASSERT_EQ(cudnnRNNGetClip(handle_, desc_, &mode, &nan, &lclip, &rclip), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mode, CUDNN_RNN_CLIP_MINMAX);
    EXPECT_EQ(nan, CUDNN_PROPAGATE_NAN);
    EXPECT_EQ(lclip, -2.5);
    EXPECT_EQ(rclip, 3.0);
    ASSERT_EQ(cudnnRNNSetClip(handle_, desc_, CUDNN_RNN_CLIP_NONE, CUDNN_NOT_PROPAGATE_NAN, 1.0, 1.0),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnRNNGetClip_v8(desc_, &mode, &nan, &lclip, &rclip), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mode, CUDNN_RNN_CLIP_NONE);
    EXPECT_EQ(nan, CUDNN_NOT_PROPAGATE_NAN);
    EXPECT_EQ(lclip, 1.0);
    EXPECT_EQ(rclip, 1.0);
    // The clip settings survive a later descriptor setter.
    ASSERT_EQ(cudnnRNNSetClip_v8(desc_, CUDNN_RNN_CLIP_MINMAX, CUDNN_NOT_PROPAGATE_NAN, -1.0, 1.0),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(set_v8(desc_, V8Config{}), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnRNNGetClip_v8(desc_, &mode, &nan, &lclip, &rclip), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mode, CUDNN_RNN_CLIP_MINMAX);
}

TEST_F(RNNDescriptor, ClipRejectsBadRangesEnumsAndNulls) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNSetClip_v8(desc_, CUDNN_RNN_CLIP_MINMAX, CUDNN_NOT_PROPAGATE_NAN, 2, 1),
                    "cudnnRNNSetClip_v8", "lclip is 2", "greater than rclip 1");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNSetClip_v8(desc_, CUDNN_RNN_CLIP_MINMAX, CUDNN_NOT_PROPAGATE_NAN, nan, 1), "NaN");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNSetClip_v8(desc_, static_cast<cudnnRNNClipMode_t>(2), CUDNN_NOT_PROPAGATE_NAN, 0, 1),
                    "clipMode is 2", "not a cudnnRNNClipMode_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNSetClip_v8(desc_, CUDNN_RNN_CLIP_MINMAX, static_cast<cudnnNanPropagation_t>(2), 0, 1),
                    "clipNanOpt is 2", "not a cudnnNanPropagation_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNSetClip_v8(nullptr, CUDNN_RNN_CLIP_MINMAX, CUDNN_NOT_PROPAGATE_NAN, 0, 1),
                    "rnnDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNSetClip(nullptr, desc_, CUDNN_RNN_CLIP_MINMAX, CUDNN_NOT_PROPAGATE_NAN, 0, 1),
                    "cudnnRNNSetClip", "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNSetClip(handle_, desc_, CUDNN_RNN_CLIP_MINMAX, CUDNN_NOT_PROPAGATE_NAN, 5, -5),
                    "cudnnRNNSetClip", "lclip is 5");
    cudnnRNNClipMode_t mode;
    cudnnNanPropagation_t nan_opt;
    double lclip;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnRNNGetClip_v8(desc_, &mode, &nan_opt, &lclip, nullptr),
                    "cudnnRNNGetClip_v8", "rclip is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnRNNGetClip(handle_, desc_, nullptr, &nan_opt, &lclip, &lclip),
                    "cudnnRNNGetClip", "clipMode is NULL");
}

TEST_F(RNNDescriptor, ProjectionLayersSetAndGet) {
    ASSERT_EQ(cudnnSetRNNDescriptor_v6(handle_, desc_, 64, 2, nullptr, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL,
                                       CUDNN_LSTM, CUDNN_RNN_ALGO_STANDARD, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int rec = -1, out = -1;
    ASSERT_EQ(cudnnGetRNNProjectionLayers(handle_, desc_, &rec, &out), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(rec, 64);  // no projection: the hidden size
    EXPECT_EQ(out, 0);
    ASSERT_EQ(cudnnSetRNNProjectionLayers(handle_, desc_, 24, 0), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetRNNProjectionLayers(handle_, desc_, &rec, &out), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(rec, 24);
    EXPECT_EQ(out, 0);
    EXPECT_EQ(get_v8(desc_).projSize, 24);
}

TEST_F(RNNDescriptor, ProjectionLayersRejections) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNProjectionLayers(handle_, desc_, 8, 0),
                    "cudnnSetRNNProjectionLayers", "rnnDesc has not been set");
    ASSERT_EQ(cudnnSetRNNDescriptor_v6(handle_, desc_, 64, 2, nullptr, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL,
                                       CUDNN_LSTM, CUDNN_RNN_ALGO_STANDARD, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNProjectionLayers(handle_, desc_, 65, 0), "recProjSize is 65",
                    "hiddenSize (64)");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNProjectionLayers(handle_, desc_, 0, 0), "recProjSize is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNProjectionLayers(handle_, desc_, 32, -1), "outProjSize is -1");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnSetRNNProjectionLayers(handle_, desc_, 32, 16),
                    "outProjSize is 16", "must be 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNProjectionLayers(nullptr, desc_, 32, 0), "handle is NULL");
    int rec;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNProjectionLayers(handle_, desc_, &rec, nullptr),
                    "cudnnGetRNNProjectionLayers", "outProjSize is NULL");
    ASSERT_EQ(cudnnSetRNNDescriptor_v6(handle_, desc_, 64, 2, nullptr, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL,
                                       CUDNN_GRU, CUDNN_RNN_ALGO_STANDARD, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnSetRNNProjectionLayers(handle_, desc_, 32, 0), "recProjSize is 32",
                    "only supported for CUDNN_LSTM");
    EXPECT_EQ(cudnnSetRNNProjectionLayers(handle_, desc_, 64, 0), CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDescriptor, PaddingModeSetsGetsAndRejects) {
    ASSERT_EQ(set_v8(desc_, V8Config{}), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetRNNPaddingMode(desc_, CUDNN_RNN_PADDED_IO_ENABLED), CUDNN_STATUS_SUCCESS);
    unsigned mode = 0;
    ASSERT_EQ(cudnnGetRNNPaddingMode(desc_, &mode), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mode, CUDNN_RNN_PADDED_IO_ENABLED);
    EXPECT_EQ(get_v8(desc_).auxFlags, CUDNN_RNN_PADDED_IO_ENABLED);
    ASSERT_EQ(cudnnSetRNNPaddingMode(desc_, CUDNN_RNN_PADDED_IO_DISABLED), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetRNNPaddingMode(desc_, &mode), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mode, CUDNN_RNN_PADDED_IO_DISABLED);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNPaddingMode(desc_, 2), "cudnnSetRNNPaddingMode",
                    "paddingMode is 2");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetRNNPaddingMode(nullptr, 0), "rnnDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNPaddingMode(desc_, nullptr), "cudnnGetRNNPaddingMode",
                    "paddingMode is NULL");
}
