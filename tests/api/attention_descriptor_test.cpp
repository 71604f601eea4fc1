// The multi-head attention descriptor through the public API: set/get round trips, the optional outputs
// of the getter, the opaque dropout descriptors and each documented rejection.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace {

const cudnnDropoutDescriptor_t kFakeAttnDropout = reinterpret_cast<cudnnDropoutDescriptor_t>(uintptr_t{0x7000});
const cudnnDropoutDescriptor_t kFakePostDropout = reinterpret_cast<cudnnDropoutDescriptor_t>(uintptr_t{0x7100});

struct AttnConfig {
    unsigned attnMode = CUDNN_ATTN_QUERYMAP_ALL_TO_ONE | CUDNN_ATTN_DISABLE_PROJ_BIASES;
    int nHeads = 4;
    double smScaler = 0.125;
    cudnnDataType_t dataType = CUDNN_DATA_FLOAT;
    cudnnDataType_t computePrec = CUDNN_DATA_FLOAT;
    cudnnMathType_t mathType = CUDNN_DEFAULT_MATH;
    cudnnDropoutDescriptor_t attnDropout = nullptr;
    cudnnDropoutDescriptor_t postDropout = nullptr;
    int qSize = 64, kSize = 64, vSize = 64;
    int qProjSize = 16, kProjSize = 16, vProjSize = 16, oProjSize = 64;
    int qoMaxSeqLength = 32, kvMaxSeqLength = 48;
    int maxBatchSize = 8, maxBeamSize = 1;

    std::string str() const {
        return "mode " + std::to_string(attnMode) + " heads " + std::to_string(nHeads) + " scaler " +
               std::to_string(smScaler) + " type " + std::to_string(dataType) + "/" + std::to_string(computePrec) +
               " math " + std::to_string(mathType) + " qkv " + std::to_string(qSize) + "/" + std::to_string(kSize) +
               "/" + std::to_string(vSize) + " proj " + std::to_string(qProjSize) + "/" + std::to_string(kProjSize) +
               "/" + std::to_string(vProjSize) + "/" + std::to_string(oProjSize) + " seq " +
               std::to_string(qoMaxSeqLength) + "/" + std::to_string(kvMaxSeqLength) + " batch " +
               std::to_string(maxBatchSize) + " beam " + std::to_string(maxBeamSize);
    }
};

cudnnStatus_t set_attn(cudnnAttnDescriptor_t desc, const AttnConfig &c) {
    return cudnnSetAttnDescriptor(desc, c.attnMode, c.nHeads, c.smScaler, c.dataType, c.computePrec, c.mathType,
                                  c.attnDropout, c.postDropout, c.qSize, c.kSize, c.vSize, c.qProjSize, c.kProjSize,
                                  c.vProjSize, c.oProjSize, c.qoMaxSeqLength, c.kvMaxSeqLength, c.maxBatchSize,
                                  c.maxBeamSize);
}

AttnConfig get_attn(cudnnAttnDescriptor_t desc) {
    AttnConfig c;
    EXPECT_EQ(cudnnGetAttnDescriptor(desc, &c.attnMode, &c.nHeads, &c.smScaler, &c.dataType, &c.computePrec,
                                     &c.mathType, &c.attnDropout, &c.postDropout, &c.qSize, &c.kSize, &c.vSize,
                                     &c.qProjSize, &c.kProjSize, &c.vProjSize, &c.oProjSize, &c.qoMaxSeqLength,
                                     &c.kvMaxSeqLength, &c.maxBatchSize, &c.maxBeamSize),
              CUDNN_STATUS_SUCCESS);
    return c;
}

void expect_same(const AttnConfig &a, const AttnConfig &b) {
    EXPECT_EQ(a.attnMode, b.attnMode);
    EXPECT_EQ(a.nHeads, b.nHeads);
    EXPECT_EQ(a.smScaler, b.smScaler);
    EXPECT_EQ(a.dataType, b.dataType);
    EXPECT_EQ(a.computePrec, b.computePrec);
    EXPECT_EQ(a.mathType, b.mathType);
    EXPECT_EQ(a.attnDropout, b.attnDropout);
    EXPECT_EQ(a.postDropout, b.postDropout);
    EXPECT_EQ(a.qSize, b.qSize);
    EXPECT_EQ(a.kSize, b.kSize);
    EXPECT_EQ(a.vSize, b.vSize);
    EXPECT_EQ(a.qProjSize, b.qProjSize);
    EXPECT_EQ(a.kProjSize, b.kProjSize);
    EXPECT_EQ(a.vProjSize, b.vProjSize);
    EXPECT_EQ(a.oProjSize, b.oProjSize);
    EXPECT_EQ(a.qoMaxSeqLength, b.qoMaxSeqLength);
    EXPECT_EQ(a.kvMaxSeqLength, b.kvMaxSeqLength);
    EXPECT_EQ(a.maxBatchSize, b.maxBatchSize);
    EXPECT_EQ(a.maxBeamSize, b.maxBeamSize);
}

class AttnDescriptor : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(cudnnCreateAttnDescriptor(&desc_), CUDNN_STATUS_SUCCESS); }
    void TearDown() override { EXPECT_EQ(cudnnDestroyAttnDescriptor(desc_), CUDNN_STATUS_SUCCESS); }

    cudnnAttnDescriptor_t desc_ = nullptr;
};

}  // namespace

TEST(AttnDescriptorLifetime, CreateRejectsNullAndDestroyAcceptsNull) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateAttnDescriptor(nullptr), "cudnnCreateAttnDescriptor",
                    "attnDesc is NULL");
    EXPECT_EQ(cudnnDestroyAttnDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST_F(AttnDescriptor, RoundTripsRandomConfigurations) {
    const unsigned seed = 90210;
    std::mt19937 rng(seed);
    auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    const cudnnDataType_t types[] = {CUDNN_DATA_HALF, CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE};
    for (int round = 0; round < 200; ++round) {
        AttnConfig c;
        c.attnMode = static_cast<unsigned>(pick(0, 3));
        c.nHeads = pick(1, 16);
        c.smScaler = pick(0, 1000) / 256.0;
        c.dataType = types[pick(0, 2)];
        c.computePrec = c.dataType;
        c.mathType = static_cast<cudnnMathType_t>(pick(0, 3));
        c.attnDropout = pick(0, 1) ? kFakeAttnDropout : nullptr;
        c.postDropout = pick(0, 1) ? kFakePostDropout : nullptr;
        c.qSize = pick(1, 512);
        c.kSize = pick(1, 512);
        c.vSize = pick(1, 512);
        // Q and K must meet at one length after projection: project both, or neither with equal sizes.
        if (pick(0, 1)) {
            c.qProjSize = c.kProjSize = pick(1, 128);
        } else {
            c.kSize = c.qSize;
            c.qProjSize = c.kProjSize = 0;
        }
        c.vProjSize = pick(0, 128);
        c.oProjSize = pick(0, 512);
        c.qoMaxSeqLength = pick(1, 1024);
        c.kvMaxSeqLength = pick(1, 1024);
        c.maxBatchSize = pick(1, 256);
        c.maxBeamSize = pick(1, 8);
        SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round) + ": " + c.str());
        ASSERT_EQ(set_attn(desc_, c), CUDNN_STATUS_SUCCESS);
        expect_same(get_attn(desc_), c);
    }
}

TEST_F(AttnDescriptor, KeepsDropoutDescriptorsAsOpaquePointers) {
    AttnConfig c;
    c.attnDropout = kFakeAttnDropout;
    c.postDropout = kFakePostDropout;
    ASSERT_EQ(set_attn(desc_, c), CUDNN_STATUS_SUCCESS);
    const AttnConfig got = get_attn(desc_);
    EXPECT_EQ(got.attnDropout, kFakeAttnDropout);
    EXPECT_EQ(got.postDropout, kFakePostDropout);
}

TEST_F(AttnDescriptor, GetAcceptsNullOutputs) {
    ASSERT_EQ(set_attn(desc_, AttnConfig{}), CUDNN_STATUS_SUCCESS);
    int heads = 0, beam = 0;
    EXPECT_EQ(
        cudnnGetAttnDescriptor(desc_, nullptr, &heads, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                               nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &beam),
        CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(heads, 4);
    EXPECT_EQ(beam, 1);
}

TEST_F(AttnDescriptor, GetBeforeSetIsRejected) {
    int heads = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetAttnDescriptor(desc_, nullptr, &heads, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                           nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                           nullptr, nullptr, nullptr),
                    "cudnnGetAttnDescriptor", "attnDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetAttnDescriptor(nullptr, nullptr, &heads, nullptr, nullptr, nullptr, nullptr, nullptr,
                                           nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                           nullptr, nullptr, nullptr, nullptr),
                    "attnDesc is NULL");
}

TEST_F(AttnDescriptor, RejectsNullDescriptor) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(nullptr, AttnConfig{}), "cudnnSetAttnDescriptor",
                    "attnDesc is NULL");
}

TEST_F(AttnDescriptor, RejectsNonPositiveCountsAndSizes) {
    struct Case {
        int AttnConfig::*field;
        const char *name;
    };
    const Case cases[] = {{&AttnConfig::nHeads, "nHeads"},
                          {&AttnConfig::qSize, "qSize"},
                          {&AttnConfig::kSize, "kSize"},
                          {&AttnConfig::vSize, "vSize"},
                          {&AttnConfig::qoMaxSeqLength, "qoMaxSeqLength"},
                          {&AttnConfig::kvMaxSeqLength, "kvMaxSeqLength"},
                          {&AttnConfig::maxBatchSize, "maxBatchSize"},
                          {&AttnConfig::maxBeamSize, "maxBeamSize"}};
    for (const Case &test : cases) {
        for (int value : {0, -5}) {
            AttnConfig c;
            c.*test.field = value;
            const std::string expected = std::string(test.name) + " is " + std::to_string(value);
            EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "cudnnSetAttnDescriptor", expected.c_str(),
                            "must be positive");
        }
    }
}

TEST_F(AttnDescriptor, RejectsNegativeProjectionSizes) {
    struct Case {
        int AttnConfig::*field;
        const char *name;
    };
    const Case cases[] = {{&AttnConfig::qProjSize, "qProjSize"},
                          {&AttnConfig::kProjSize, "kProjSize"},
                          {&AttnConfig::vProjSize, "vProjSize"},
                          {&AttnConfig::oProjSize, "oProjSize"}};
    for (const Case &test : cases) {
        AttnConfig c;
        c.*test.field = -1;
        const std::string expected = std::string(test.name) + " is -1";
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), expected.c_str(), "0 (no projection) or positive");
    }
}

TEST_F(AttnDescriptor, RejectsNegativeOrNanSoftmaxScaler) {
    AttnConfig c;
    c.smScaler = -0.5;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "smScaler is -0.5", "must not be negative");
    c.smScaler = std::numeric_limits<double>::quiet_NaN();
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "smScaler is nan");
    c.smScaler = 0.0;
    EXPECT_EQ(set_attn(desc_, c), CUDNN_STATUS_SUCCESS);
}

TEST_F(AttnDescriptor, QueriesAndKeysMustMeetAfterProjection) {
    AttnConfig c;
    c.qProjSize = 16;
    c.kProjSize = 8;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "queries are 16 long", "keys are 8",
                    "same length after projection");
    c.qProjSize = 0;
    c.kProjSize = 0;
    c.kSize = 32;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "queries are 64 long", "keys are 32");
    // One side projected onto the other's unprojected length is consistent.
    c.kProjSize = 64;
    EXPECT_EQ(set_attn(desc_, c), CUDNN_STATUS_SUCCESS);
}

TEST_F(AttnDescriptor, RejectsInvalidTypesAndModes) {
    AttnConfig c;
    c.dataType = CUDNN_DATA_INT8;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "dataType is CUDNN_DATA_INT8",
                    "CUDNN_DATA_HALF, CUDNN_DATA_FLOAT or CUDNN_DATA_DOUBLE");
    c = AttnConfig{};
    c.computePrec = static_cast<cudnnDataType_t>(50);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "computePrec is not a cudnnDataType_t (50)");
    c = AttnConfig{};
    c.mathType = static_cast<cudnnMathType_t>(-1);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "mathType is -1", "not a cudnnMathType_t");
    c = AttnConfig{};
    c.attnMode = 0x4;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_attn(desc_, c), "attnMode is 0x4", "CUDNN_ATTN_ENABLE_PROJ_BIASES");
}

TEST_F(AttnDescriptor, ComputePrecisionMustMatchDataType) {
    AttnConfig c;
    c.dataType = CUDNN_DATA_HALF;
    c.computePrec = CUDNN_DATA_FLOAT;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, set_attn(desc_, c), "computePrec is CUDNN_DATA_FLOAT",
                    "dataType is CUDNN_DATA_HALF");
}

TEST_F(AttnDescriptor, FailedSetLeavesDescriptorUnchanged) {
    AttnConfig good;
    good.nHeads = 2;
    ASSERT_EQ(set_attn(desc_, good), CUDNN_STATUS_SUCCESS);
    AttnConfig bad = good;
    bad.nHeads = 8;
    bad.maxBeamSize = 0;
    EXPECT_EQ(set_attn(desc_, bad), CUDNN_STATUS_BAD_PARAM);
    expect_same(get_attn(desc_), good);
}
