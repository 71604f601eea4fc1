// The algorithm descriptor and performance object, and saving and restoring an algorithm, through the
// public API.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct AlgorithmDesc {
    cudnnAlgorithmDescriptor_t desc = nullptr;
    AlgorithmDesc() { EXPECT_EQ(cudnnCreateAlgorithmDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~AlgorithmDesc() { EXPECT_EQ(cudnnDestroyAlgorithmDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

struct Handle {
    cudnnHandle_t handle = nullptr;
    Handle() { EXPECT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS); }
    ~Handle() { EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS); }
};

cudnnAlgorithm_t conv_forward(cudnnConvolutionFwdAlgo_t algo) {
    cudnnAlgorithm_t a;
    a.algo.convFwdAlgo = algo;
    return a;
}

cudnnConvolutionFwdAlgo_t get_conv_forward(cudnnAlgorithmDescriptor_t desc) {
    cudnnAlgorithm_t a;
    a.algo.convFwdAlgo = CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
    EXPECT_EQ(cudnnGetAlgorithmDescriptor(desc, &a), CUDNN_STATUS_SUCCESS);
    return a.algo.convFwdAlgo;
}

std::vector<unsigned char> saved(cudnnHandle_t handle, cudnnAlgorithmDescriptor_t desc) {
    size_t size = 0;
    EXPECT_EQ(cudnnGetAlgorithmSpaceSize(handle, desc, &size), CUDNN_STATUS_SUCCESS);
    std::vector<unsigned char> space(size);
    EXPECT_EQ(cudnnSaveAlgorithm(handle, desc, space.data(), space.size()), CUDNN_STATUS_SUCCESS);
    return space;
}

// The saved form's checksum (FNV-1a over bytes 0..15, stored little-endian at 16), as documented in
// src/descriptors/algorithm.hpp, so a test can forge a well-formed buffer of another version.
void reseal(std::vector<unsigned char> &space) {
    uint32_t hash = 0x811C9DC5u;
    for (int i = 0; i < 16; ++i) hash = (hash ^ space[i]) * 0x01000193u;
    for (int i = 0; i < 4; ++i) space[16 + i] = static_cast<unsigned char>(hash >> (8 * i));
}

}  // namespace

TEST(AlgorithmDescriptor, SetThenGetRoundTripsEveryFamily) {
    AlgorithmDesc d;
    cudnnAlgorithm_t in, out;
    in.algo.RNNAlgo = CUDNN_RNN_ALGO_PERSIST_DYNAMIC;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, in), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetAlgorithmDescriptor(d.desc, &out), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(out.algo.RNNAlgo, CUDNN_RNN_ALGO_PERSIST_DYNAMIC);
    in.algo.convBwdDataAlgo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, in), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetAlgorithmDescriptor(d.desc, &out), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(out.algo.convBwdDataAlgo, CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED);
    in.algo.CTCLossAlgo = CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, in), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetAlgorithmDescriptor(d.desc, &out), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(out.algo.CTCLossAlgo, CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC);
}

TEST(AlgorithmDescriptor, CopyDuplicatesTheAlgorithm) {
    AlgorithmDesc src, dest;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(src.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING)),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCopyAlgorithmDescriptor(src.desc, dest.desc), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(get_conv_forward(dest.desc), CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING);
    // The copy is independent of its source.
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(src.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_GEMM)),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(get_conv_forward(dest.desc), CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING);
}

TEST(AlgorithmDescriptor, GetAndCopyOfAnUnsetDescriptorAreRejected) {
    AlgorithmDesc d, dest;
    cudnnAlgorithm_t a;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmDescriptor(d.desc, &a), "cudnnGetAlgorithmDescriptor",
                    "algoDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCopyAlgorithmDescriptor(d.desc, dest.desc),
                    "cudnnCopyAlgorithmDescriptor", "src has not been set");
}

TEST(AlgorithmDescriptor, RejectsNullPointers) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateAlgorithmDescriptor(nullptr), "algoDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetAlgorithmDescriptor(nullptr, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_GEMM)),
                    "algoDesc is NULL");
    AlgorithmDesc d;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_GEMM)), CUDNN_STATUS_SUCCESS);
    cudnnAlgorithm_t a;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmDescriptor(nullptr, &a), "algoDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmDescriptor(d.desc, nullptr), "algorithm is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCopyAlgorithmDescriptor(nullptr, d.desc), "src is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCopyAlgorithmDescriptor(d.desc, nullptr), "dest is NULL");
    EXPECT_EQ(cudnnDestroyAlgorithmDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(AlgorithmPerformance, CreateSetGetDestroyAnArray) {
    const unsigned seed = 20240619;
    std::mt19937 rng(seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    constexpr int kCount = 5;
    cudnnAlgorithmPerformance_t perfs[kCount] = {};
    ASSERT_EQ(cudnnCreateAlgorithmPerformance(perfs, kCount), CUDNN_STATUS_SUCCESS);
    AlgorithmDesc algos[kCount];
    std::vector<float> times(kCount);
    std::vector<size_t> memories(kCount);
    std::vector<cudnnStatus_t> statuses(kCount);
    for (int i = 0; i < kCount; ++i) {
        ASSERT_NE(perfs[i], nullptr);
        for (int j = 0; j < i; ++j) EXPECT_NE(perfs[i], perfs[j]);
        ASSERT_EQ(cudnnSetAlgorithmDescriptor(algos[i].desc, conv_forward(static_cast<cudnnConvolutionFwdAlgo_t>(i))),
                  CUDNN_STATUS_SUCCESS);
        times[i] = static_cast<float>(rng() % 10000) / 100.0f;
        memories[i] = rng() % (1u << 30);
        statuses[i] = rng() % 2 ? CUDNN_STATUS_SUCCESS : CUDNN_STATUS_NOT_SUPPORTED;
        ASSERT_EQ(cudnnSetAlgorithmPerformance(perfs[i], algos[i].desc, statuses[i], times[i], memories[i]),
                  CUDNN_STATUS_SUCCESS);
    }
    for (int i = 0; i < kCount; ++i) {
        cudnnAlgorithmDescriptor_t algo = nullptr;
        cudnnStatus_t status;
        float time = -1;
        size_t memory = 0;
        ASSERT_EQ(cudnnGetAlgorithmPerformance(perfs[i], &algo, &status, &time, &memory), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(algo, algos[i].desc);
        EXPECT_EQ(status, statuses[i]);
        EXPECT_EQ(time, times[i]);
        EXPECT_EQ(memory, memories[i]);
        EXPECT_EQ(get_conv_forward(algo), static_cast<cudnnConvolutionFwdAlgo_t>(i));
    }
    ASSERT_EQ(cudnnDestroyAlgorithmPerformance(perfs, kCount), CUDNN_STATUS_SUCCESS);
    for (int i = 0; i < kCount; ++i) EXPECT_EQ(perfs[i], nullptr);
}

TEST(AlgorithmPerformance, RejectsBadCountsUnsetGetsAndNullPointers) {
    cudnnAlgorithmPerformance_t perf = nullptr;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateAlgorithmPerformance(&perf, 0),
                    "cudnnCreateAlgorithmPerformance", "numberToCreate is 0", "positive");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateAlgorithmPerformance(nullptr, 1), "algoPerf is NULL");
    ASSERT_EQ(cudnnCreateAlgorithmPerformance(&perf, 1), CUDNN_STATUS_SUCCESS);
    cudnnAlgorithmDescriptor_t algo;
    cudnnStatus_t status;
    float time;
    size_t memory;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmPerformance(perf, &algo, &status, &time, &memory),
                    "cudnnGetAlgorithmPerformance", "algoPerf has not been set");
    AlgorithmDesc d;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_DIRECT)),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetAlgorithmPerformance(nullptr, d.desc, CUDNN_STATUS_SUCCESS, 1.0f, 0), "algoPerf is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetAlgorithmPerformance(perf, nullptr, CUDNN_STATUS_SUCCESS, 1.0f, 0),
                    "algoDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetAlgorithmPerformance(perf, d.desc, static_cast<cudnnStatus_t>(77), 1.0f, 0), "status is 77",
                    "cudnnStatus_t");
    ASSERT_EQ(cudnnSetAlgorithmPerformance(perf, d.desc, CUDNN_STATUS_SUCCESS, 1.0f, 0), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmPerformance(nullptr, &algo, &status, &time, &memory),
                    "algoPerf is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmPerformance(perf, nullptr, &status, &time, &memory),
                    "algoDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmPerformance(perf, &algo, nullptr, &time, &memory),
                    "status is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmPerformance(perf, &algo, &status, nullptr, &memory),
                    "time is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmPerformance(perf, &algo, &status, &time, nullptr),
                    "memory is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDestroyAlgorithmPerformance(&perf, -1), "numberToDestroy is -1");
    EXPECT_EQ(cudnnDestroyAlgorithmPerformance(&perf, 1), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroyAlgorithmPerformance(nullptr, 3), CUDNN_STATUS_SUCCESS);
}

TEST(AlgorithmSaveRestore, RestoreGivesBackTheSavedAlgorithm) {
    Handle h;
    for (int value = 0; value < CUDNN_CONVOLUTION_FWD_ALGO_COUNT; ++value) {
        SCOPED_TRACE("algorithm " + std::to_string(value));
        AlgorithmDesc d, restored;
        ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, conv_forward(static_cast<cudnnConvolutionFwdAlgo_t>(value))),
                  CUDNN_STATUS_SUCCESS);
        std::vector<unsigned char> space = saved(h.handle, d.desc);
        ASSERT_EQ(cudnnRestoreAlgorithm(h.handle, space.data(), space.size(), restored.desc), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(get_conv_forward(restored.desc), static_cast<cudnnConvolutionFwdAlgo_t>(value));
    }
}

TEST(AlgorithmSaveRestore, SavedBytesAreTheSameForTheSameAlgorithm) {
    Handle h;
    AlgorithmDesc a, b, c;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(a.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD)),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(b.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD)),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(c.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_DIRECT)),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(saved(h.handle, a.desc), saved(h.handle, b.desc));
    EXPECT_NE(saved(h.handle, a.desc), saved(h.handle, c.desc));
}

TEST(AlgorithmSaveRestore, RestoreRejectsShortForeignAndDamagedBuffers) {
    Handle h;
    AlgorithmDesc d, target;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_GEMM)), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(target.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_FFT)),
              CUDNN_STATUS_SUCCESS);
    const std::vector<unsigned char> good = saved(h.handle, d.desc);
    std::vector<unsigned char> space = good;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRestoreAlgorithm(h.handle, space.data(), space.size() - 1, target.desc),
                    "cudnnRestoreAlgorithm", "algoSpaceSizeInBytes is 19", "a saved algorithm is 20 bytes");
    std::vector<unsigned char> foreign(good.size(), 0x42);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRestoreAlgorithm(h.handle, foreign.data(), foreign.size(), target.desc),
                    "does not hold an algorithm saved by cudnnSaveAlgorithm");
    for (size_t byte = 4; byte < good.size(); ++byte) {
        space = good;
        space[byte] ^= 0x10;
        SCOPED_TRACE("flipped a bit of byte " + std::to_string(byte));
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                        cudnnRestoreAlgorithm(h.handle, space.data(), space.size(), target.desc), "damaged");
    }
    // A rejected restore leaves the descriptor as it was.
    EXPECT_EQ(get_conv_forward(target.desc), CUDNN_CONVOLUTION_FWD_ALGO_FFT);
}

TEST(AlgorithmSaveRestore, RestoreRejectsOtherVersionsAsNotSupported) {
    Handle h;
    AlgorithmDesc d, target;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_GEMM)), CUDNN_STATUS_SUCCESS);
    std::vector<unsigned char> space = saved(h.handle, d.desc);
    ASSERT_EQ(space.size(), 20u);
    std::vector<unsigned char> resealed = space;
    reseal(resealed);
    ASSERT_EQ(resealed, space) << "the test's idea of the checksum differs from the library's";
    space[4] = 2;  // format version 2
    reseal(space);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnRestoreAlgorithm(h.handle, space.data(), space.size(), target.desc), "format version 2");
    space = saved(h.handle, d.desc);
    const uint32_t older = 8600;
    for (int i = 0; i < 4; ++i) space[8 + i] = static_cast<unsigned char>(older >> (8 * i));
    reseal(space);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnRestoreAlgorithm(h.handle, space.data(), space.size(), target.desc), "API version 8600");
}

TEST(AlgorithmSaveRestore, SaveRejectsSmallBuffersUnsetDescriptorsAndNullPointers) {
    Handle h;
    AlgorithmDesc d, unset;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(d.desc, conv_forward(CUDNN_CONVOLUTION_FWD_ALGO_GEMM)), CUDNN_STATUS_SUCCESS);
    size_t size = 0;
    ASSERT_EQ(cudnnGetAlgorithmSpaceSize(h.handle, d.desc, &size), CUDNN_STATUS_SUCCESS);
    ASSERT_GT(size, 0u);
    std::vector<unsigned char> space(size);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSaveAlgorithm(h.handle, d.desc, space.data(), size - 1),
                    "cudnnSaveAlgorithm", "cudnnGetAlgorithmSpaceSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSaveAlgorithm(h.handle, unset.desc, space.data(), size),
                    "algoDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSaveAlgorithm(nullptr, d.desc, space.data(), size), "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSaveAlgorithm(h.handle, d.desc, nullptr, size), "algoSpace is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnRestoreAlgorithm(h.handle, nullptr, size, d.desc),
                    "algoSpace is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnRestoreAlgorithm(h.handle, space.data(), size, nullptr),
                    "algoDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmSpaceSize(h.handle, d.desc, nullptr),
                    "algoSpaceSizeInBytes is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetAlgorithmSpaceSize(nullptr, d.desc, &size), "handle is NULL");
}
