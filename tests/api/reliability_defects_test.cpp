// Regression tests for the defects a random-argument run over the C API found (issue 16): each test is
// named after the defect and holds the input that showed it. Under the sanitizer build (scripts/test.sh)
// a read past an array or of freed memory fails the test even where the result looks right.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using librednn::test::LogCapture;

struct Handle {
    cudnnHandle_t handle = nullptr;
    Handle() { EXPECT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS); }
    ~Handle() { cudnnDestroy(handle); }
};

// The arguments a trace printed for `name`: the text after "name: " up to the end of its line.
std::string traced_argument(const LogCapture &capture, const std::string &function, const std::string &name) {
    for (const std::string &message : capture.messages()) {
        if (message.find(function + "() called") == std::string::npos) continue;
        const size_t at = message.find("\n    " + name + ": ");
        if (at == std::string::npos) continue;
        const size_t start = at + 5 + name.size() + 2;  // "\n    " name ": "
        return message.substr(start, message.find('\n', start) - start);
    }
    return "(not traced)";
}

}  // namespace

// Defect 1: cudnnDestroy finished its trace after the handle was freed, reading its stream and device.
TEST(ReliabilityDefect, DestroyWithInfoLoggingReadsNoFreedHandle) {
    std::vector<cudnnDebug_t> debug;
    auto collect = [](cudnnSeverity_t, void *udata, const cudnnDebug_t *dbg, const char *) {
        static_cast<std::vector<cudnnDebug_t> *>(udata)->push_back(*dbg);
    };
    unsigned old_mask = 0;
    void *old_udata = nullptr;
    cudnnCallback_t old_fn = nullptr;
    cudnnGetCallback(&old_mask, &old_udata, &old_fn);
    ASSERT_EQ(cudnnSetCallback(CUDNN_SEV_INFO_EN, &debug, collect), CUDNN_STATUS_SUCCESS);
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    cudaStream_t stream = reinterpret_cast<cudaStream_t>(1);  // never dereferenced: read back only
    cudnnGetStream(handle, &stream);
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
    cudnnSetCallback(old_mask, old_udata, old_fn);
    ASSERT_FALSE(debug.empty());
    // The destroy trace reports the handle as it was when the call began.
    EXPECT_EQ(debug.back().handle, handle);
    EXPECT_EQ(debug.back().stream, stream);
}

// Defect 2: the 2 Giga-element limit looked at the memory span only, so overlapping strides let through
// tensors of 2^64 and 2^48 elements, whose element counts then overflowed (reduce) or never finished
// (set, scale).
TEST(ReliabilityDefect, OverlappingStridesCannotExceedTheElementLimit) {
    cudnnTensorDescriptor_t desc = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS);
    const int dims[8] = {256, 256, 256, 256, 256, 256, 256, 256};
    const int strides[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnSetTensorNdDescriptor(desc, CUDNN_DATA_FLOAT, 8, dims, strides),
                    "256x256x256x256x256x256x256x256", "more than 2^63", "2 Giga-elements");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetTensor4dDescriptorEx(desc, CUDNN_DATA_FLOAT, 65536, 65536, 65536, 1, 1, 1, 1, 1),
                    "65536x65536x65536x1", "281474976710656 elements");
    // Overlap itself is allowed (cuDNN accepts it), within the limit.
    EXPECT_EQ(cudnnSetTensor4dDescriptorEx(desc, CUDNN_DATA_FLOAT, 64, 64, 64, 64, 1, 1, 1, 1), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetTensor4dDescriptorEx(desc, CUDNN_DATA_FLOAT, 2048, 1024, 1024, 2, 1, 1, 1, 1),
                    "4294967296 elements");
    cudnnDestroyTensorDescriptor(desc);
}

// Defect 3: fold factors of 2^32 - 1 overflowed the destination dims of cudnnTransformFilter (and the
// unfolded ones of cudnnTransformTensorEx); they are now refused as a mismatch with the destination.
TEST(ReliabilityDefect, HugeFoldFactorsAreRefusedWithoutOverflow) {
    Handle h;
    cudnnTensorTransformDescriptor_t transform = nullptr;
    ASSERT_EQ(cudnnCreateTensorTransformDescriptor(&transform), CUDNN_STATUS_SUCCESS);
    const int32_t pads[4] = {0, 0, 0, 0};
    const uint32_t fold[2] = {4294967295u, 4294967295u};
    cudnnFilterDescriptor_t src = nullptr, dest = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&src), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateFilterDescriptor(&dest), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(src, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 2, 3, 4, 5), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(dest, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 2, 3, 1, 1), CUDNN_STATUS_SUCCESS);
    std::vector<float> x(2 * 3 * 4 * 5, 1.0f), y(2 * 3 * 4 * 5, 0.0f);
    const float alpha = 1.0f, beta = 0.0f;
    for (cudnnFoldingDirection_t direction : {CUDNN_TRANSFORM_FOLD, CUDNN_TRANSFORM_UNFOLD}) {
        ASSERT_EQ(cudnnSetTensorTransformDescriptor(transform, 4, CUDNN_TENSOR_NCHW, pads, pads, fold, direction),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnTransformFilter(h.handle, transform, &alpha, src, x.data(), &beta, dest, y.data()),
                  CUDNN_STATUS_BAD_PARAM)
            << "direction " << direction;
    }
    cudnnTensorDescriptor_t xt = nullptr, yt = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&xt), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateTensorDescriptor(&yt), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(xt, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 4, 5), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(yt, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 4, 5), CUDNN_STATUS_SUCCESS);
    for (cudnnFoldingDirection_t direction : {CUDNN_TRANSFORM_FOLD, CUDNN_TRANSFORM_UNFOLD}) {
        ASSERT_EQ(cudnnSetTensorTransformDescriptor(transform, 4, CUDNN_TENSOR_NCHW, pads, pads, fold, direction),
                  CUDNN_STATUS_SUCCESS);
        const cudnnStatus_t status =
            cudnnTransformTensorEx(h.handle, transform, &alpha, xt, x.data(), &beta, yt, y.data());
        EXPECT_TRUE(status == CUDNN_STATUS_BAD_PARAM || status == CUDNN_STATUS_NOT_SUPPORTED)
            << "direction " << direction << ": " << cudnnGetErrorString(status);
    }
    cudnnDestroyTensorDescriptor(xt);
    cudnnDestroyTensorDescriptor(yt);
    cudnnDestroyFilterDescriptor(src);
    cudnnDestroyFilterDescriptor(dest);
    cudnnDestroyTensorTransformDescriptor(transform);
}

// Defect 4: input 1x1x2147483647x1, filter 1x1x1x1, pad_h 2^30 gave an output height of -1 (2^32 - 1
// wrapped to int) with SUCCESS.
TEST(ReliabilityDefect, ConvolutionOutputBeyondIntIsRefused) {
    cudnnTensorDescriptor_t x = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&x), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateFilterDescriptor(&w), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 2147483647, 1),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 1, 1, 1), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 1 << 30, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int n = 0, c = 0, h = 0, wd = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &c, &h, &wd),
                    "4294967295 positions");
    int dims[4] = {};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionNdForwardOutputDim(conv, x, w, 4, dims),
                    "4294967295 positions");
    // Without padding the output is as tall as the input: the largest height an int holds, accepted.
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &c, &h, &wd), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(h, 2147483647);
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyTensorDescriptor(x);
}

// Defect 5: with info logging on, four setters traced min(nbDims, 64) entries of each array before
// checking nbDims; nbDims = 9 with 8-entry arrays read past them. Each now traces at most the entries
// a valid call passes, and the trace says that more were claimed.
TEST(ReliabilityDefect, TracingReadsNoMoreEntriesThanAValidCallPasses) {
    // Heap arrays of exactly 8 entries: under AddressSanitizer a ninth read fails the test.
    auto ints = std::make_unique<int[]>(8);
    for (int i = 0; i < 8; ++i) ints[i] = i + 1;
    LogCapture capture(CUDNN_SEV_INFO_EN);

    cudnnConvolutionDescriptor_t conv = nullptr;
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
    EXPECT_NE(cudnnSetConvolutionNdDescriptor(conv, 9, ints.get(), ints.get(), ints.get(), CUDNN_CROSS_CORRELATION,
                                              CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(traced_argument(capture, "cudnnSetConvolutionNdDescriptor", "padA"), "[1,2,3,4,5,6,...]");
    cudnnDestroyConvolutionDescriptor(conv);

    cudnnPoolingDescriptor_t pool = nullptr;
    ASSERT_EQ(cudnnCreatePoolingDescriptor(&pool), CUDNN_STATUS_SUCCESS);
    EXPECT_NE(cudnnSetPoolingNdDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 9, ints.get(), ints.get(),
                                          ints.get()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(traced_argument(capture, "cudnnSetPoolingNdDescriptor", "windowDimA"), "[1,2,3,4,5,6,...]");
    cudnnDestroyPoolingDescriptor(pool);

    cudnnSpatialTransformerDescriptor_t st = nullptr;
    ASSERT_EQ(cudnnCreateSpatialTransformerDescriptor(&st), CUDNN_STATUS_SUCCESS);
    EXPECT_NE(cudnnSetSpatialTransformerNdDescriptor(st, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT, 9, ints.get()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(traced_argument(capture, "cudnnSetSpatialTransformerNdDescriptor", "dimA"), "[1,2,3,4,...]");
    cudnnDestroySpatialTransformerDescriptor(st);

    cudnnSeqDataDescriptor_t seq = nullptr;
    ASSERT_EQ(cudnnCreateSeqDataDescriptor(&seq), CUDNN_STATUS_SUCCESS);
    auto axes = std::make_unique<cudnnSeqDataAxis_t[]>(8);
    for (int i = 0; i < 8; ++i) axes[i] = CUDNN_SEQDATA_TIME_DIM;
    EXPECT_NE(cudnnSetSeqDataDescriptor(seq, CUDNN_DATA_FLOAT, 9, ints.get(), axes.get(), 0, nullptr, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(traced_argument(capture, "cudnnSetSeqDataDescriptor", "dimA"), "[1,2,3,4,...]");
    cudnnDestroySeqDataDescriptor(seq);
}

namespace {

// An LSTM through cudnnSetRNNDescriptor_v8: float, linear input, double bias, no dropout.
cudnnStatus_t set_lstm(cudnnRNNDescriptor_t rnn, cudnnDirectionMode_t direction, int input, int hidden, int layers) {
    return cudnnSetRNNDescriptor_v8(rnn, CUDNN_RNN_ALGO_STANDARD, CUDNN_LSTM, CUDNN_RNN_DOUBLE_BIAS, direction,
                                    CUDNN_LINEAR_INPUT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DEFAULT_MATH, input,
                                    hidden, hidden, layers, nullptr, 0);
}

}  // namespace

// Fuzz finding, after 56 s (tests/fuzz/corpus/api/regression-rnn-weight-space-huge-layer-count): an LSTM
// of 2^30 layers made cudnnGetRNNWeightSpaceSize walk every pseudo-layer (billions of steps, the call never
// returned). The weight space is now a product of the first layer's and the later layers' sizes.
TEST(ReliabilityDefect, RnnWeightSpaceOfHugeLayerCountsIsAProductNotAWalk) {
    Handle h;
    cudnnRNNDescriptor_t rnn = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&rnn), CUDNN_STATUS_SUCCESS);
    const int64_t layers = int64_t{1} << 30;
    ASSERT_EQ(set_lstm(rnn, CUDNN_UNIDIRECTIONAL, 3, 4, static_cast<int>(layers)), CUDNN_STATUS_SUCCESS);
    // Layer 0: W 4 gates x 4 x 3, R 4 x 4 x 4; every later layer: W and R 4 x 4 x 4; 8 biases of 4 each.
    const int64_t first = 4 * 4 * 3 + 4 * 4 * 4, later = 2 * 4 * 4 * 4, biases = 8 * 4;
    size_t bytes = 0;
    ASSERT_EQ(cudnnGetRNNWeightSpaceSize(h.handle, rnn, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(bytes, static_cast<size_t>((first + (layers - 1) * later + layers * biases) * 4));
    // The last pseudo-layer's addresses follow from the same sums (nothing is read at them).
    const auto *base = reinterpret_cast<const unsigned char *>(uintptr_t{1} << 20);
    cudnnTensorDescriptor_t m = nullptr, b = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&m), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateTensorDescriptor(&b), CUDNN_STATUS_SUCCESS);
    void *m_address = nullptr, *b_address = nullptr;
    ASSERT_EQ(cudnnGetRNNWeightParams(h.handle, rnn, static_cast<int>(layers - 1), bytes, base, 1, m, &m_address, b,
                                      &b_address),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(static_cast<unsigned char *>(m_address) - base, (first + (layers - 2) * later + 4 * 4) * 4);
    EXPECT_EQ(static_cast<unsigned char *>(b_address) - base,
              (first + (layers - 1) * later + (layers - 1) * biases + 4) * 4);
    // Two directions of INT_MAX layers: more pseudo-layers than an int counts.
    ASSERT_EQ(set_lstm(rnn, CUDNN_BIDIRECTIONAL, 3, 4, INT32_MAX), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNWeightSpaceSize(h.handle, rnn, &bytes),
                    "cudnnGetRNNWeightSpaceSize", "numLayers is 2147483647", "pseudo-layers pass INT_MAX");
    cudnnDestroyTensorDescriptor(m);
    cudnnDestroyTensorDescriptor(b);
    cudnnDestroyRNNDescriptor(rnn);
}

// Fuzz finding, after 64 min (tests/fuzz/corpus/api/regression-rnn-legacy-huge-batch): the legacy API takes the
// batch from the per-step descriptors' dims alone, and one of 2^30 sequences made cudnnGetRNNWorkspaceSize allocate
// a length for each (4 GB, past the fuzzer's memory limit) and count them step by step. The lengths now come from
// the batches in one pass, and a batch past 2^24 is NOT_SUPPORTED (src/api/rnn_problem.hpp, kMaxLegacyRnnBatch).
TEST(ReliabilityDefect, RnnLegacyHugeBatchIsRefusedNotAllocated) {
    Handle h;
    cudnnRNNDescriptor_t rnn = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&rnn), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(set_lstm(rnn, CUDNN_UNIDIRECTIONAL, 1, 4, 1), CUDNN_STATUS_SUCCESS);
    const auto steps_of = [](int first, int second, cudnnTensorDescriptor_t(&steps)[2]) {
        const int batches[2] = {first, second};
        for (int t = 0; t < 2; ++t) {
            const int dims[3] = {batches[t], 1, 1}, strides[3] = {1, 1, 1};
            EXPECT_EQ(cudnnSetTensorNdDescriptor(steps[t], CUDNN_DATA_FLOAT, 3, dims, strides), CUDNN_STATUS_SUCCESS);
        }
    };
    cudnnTensorDescriptor_t steps[2] = {nullptr, nullptr};
    for (cudnnTensorDescriptor_t &d : steps) ASSERT_EQ(cudnnCreateTensorDescriptor(&d), CUDNN_STATUS_SUCCESS);
    size_t size = 0;
    steps_of(1 << 30, 1 << 30, steps);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnGetRNNWorkspaceSize(h.handle, rnn, 2, steps, &size),
                    "cudnnGetRNNWorkspaceSize", "a batch of 1073741824 sequences", "at most 16777216");
    steps_of((1 << 24) + 1, 3, steps);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnGetRNNTrainingReserveSize(h.handle, rnn, 2, steps, &size),
                    "cudnnGetRNNTrainingReserveSize", "at most 16777216");
    // The largest batch taken: 2^24 sequences, three of them two steps long.
    steps_of(1 << 24, 3, steps);
    EXPECT_EQ(cudnnGetRNNWorkspaceSize(h.handle, rnn, 2, steps, &size), CUDNN_STATUS_SUCCESS);
    EXPECT_GT(size, size_t{1} << 24);
    for (cudnnTensorDescriptor_t d : steps) cudnnDestroyTensorDescriptor(d);
    cudnnDestroyRNNDescriptor(rnn);
}

// Seen while writing the RNN steps of the fuzzer, reproduced by it on
// tests/fuzz/corpus/api/regression-rnn-weight-space-overflow: inputSize, hiddenSize and projSize of 2^30
// overflowed the weight-space sum (UBSan: signed overflow in src/ops/rnn/problem.cpp). A
// matrix beyond a tensor descriptor's int strides, or a weight space of 2^63 bytes or more, is refused.
// Found reading the fuzz fix above: with a weight space that fits, the [T][N] reserve and work spaces of
// many wide layers could pass 2^63 bytes and wrap cudnnGetRNNTempSpaceSizes' answer. They are refused.
TEST(ReliabilityDefect, RnnTempSpaceBeyondInt64IsRefusedWithoutWrapping) {
    Handle h;
    cudnnRNNDescriptor_t rnn = nullptr;
    cudnnRNNDataDescriptor_t x = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&rnn), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateRNNDataDescriptor(&x), CUDNN_STATUS_SUCCESS);
    // 2^24 layers of hiddenSize 2^15: about 2^59 bytes of weights, accepted; 2^20 steps of a reserve row of
    // about 2^41 values are not.
    ASSERT_EQ(set_lstm(rnn, CUDNN_UNIDIRECTIONAL, 1, 1 << 15, 1 << 24), CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(cudnnGetRNNWeightSpaceSize(h.handle, rnn, &bytes), CUDNN_STATUS_SUCCESS);
    const int lengths[1] = {1 << 20};
    ASSERT_EQ(cudnnSetRNNDataDescriptor(x, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 1 << 20, 1, 1,
                                        lengths, nullptr),
              CUDNN_STATUS_SUCCESS);
    size_t work = 0, reserve = 0;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnGetRNNTempSpaceSizes(h.handle, rnn, CUDNN_FWD_MODE_TRAINING, x, &work, &reserve),
                    "cudnnGetRNNTempSpaceSizes", "need more than 2^60 bytes");
    cudnnDestroyRNNDataDescriptor(x);
    cudnnDestroyRNNDescriptor(rnn);
}

TEST(ReliabilityDefect, RnnWeightSpaceBeyondInt64IsRefusedWithoutOverflow) {
    Handle h;
    cudnnRNNDescriptor_t rnn = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&rnn), CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(set_lstm(rnn, CUDNN_UNIDIRECTIONAL, 1 << 30, 1 << 30, 1), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnGetRNNWeightSpaceSize(h.handle, rnn, &bytes),
                    "cudnnGetRNNWeightSpaceSize", "a weight matrix of hiddenSize 1073741824", "2 Giga-element");
    ASSERT_EQ(set_lstm(rnn, CUDNN_UNIDIRECTIONAL, 46341, 46341, 1), CUDNN_STATUS_SUCCESS);  // 46341^2 > INT_MAX
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnGetRNNWeightSpaceSize(h.handle, rnn, &bytes),
                    "cudnnGetRNNWeightSpaceSize", "2 Giga-element");
    // Each matrix fits (46340^2 < INT_MAX), 2^30 layers of eight of them do not fit 2^63 bytes.
    ASSERT_EQ(set_lstm(rnn, CUDNN_UNIDIRECTIONAL, 46340, 46340, 1 << 30), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnGetRNNWeightSpaceSize(h.handle, rnn, &bytes),
                    "cudnnGetRNNWeightSpaceSize", "2^63 bytes");
    cudnnDestroyRNNDescriptor(rnn);
}

// Fuzz finding, from the fused-ops steps' misaligned-workspace case (tests/fuzz/corpus/api/
// regression-fused-ops-misaligned-workspace): a CONV_BNSTATS plan with a scale, whose prologue writes x' into
// the workspace, ran on a workspace one byte off alignment, and the host stored doubles at an odd address
// (UBSan: misaligned store in element_access.cpp); on the GPU such an access faults. cudnnFusedOpsExecute
// checked every pointer the plan uses against its placeholder's promise except the workspace; it now refuses
// one off 16-byte alignment, as CUDNN_PTR_16B_ALIGNED would.
TEST(ReliabilityDefect, FusedOpsWorkspaceOffAlignmentIsRefused) {
    setenv("LIBREDNN_BACKEND", "host", 1);  // the aligned run below uses host memory
    Handle h;
    unsetenv("LIBREDNN_BACKEND");
    cudnnTensorDescriptor_t x = nullptr, y = nullptr, eq = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    for (auto *t : {&x, &y, &eq}) ASSERT_EQ(cudnnCreateTensorDescriptor(t), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateFilterDescriptor(&w), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 1, 2, 3, 3), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 1, 2, 3, 3), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(eq, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 1, 2, 1, 1), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_DOUBLE, CUDNN_TENSOR_NCHW, 2, 2, 1, 1), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_DOUBLE),
              CUDNN_STATUS_SUCCESS);
    cudnnFusedOpsConstParamPack_t constants = nullptr;
    ASSERT_EQ(cudnnCreateFusedOpsConstParamPack(&constants, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS),
              CUDNN_STATUS_SUCCESS);
    const std::pair<cudnnFusedOpsConstParamLabel_t, const void *> descriptors[] = {
        {CUDNN_PARAM_XDESC, x},
        {CUDNN_PARAM_YDESC, y},
        {CUDNN_PARAM_BN_EQSCALEBIAS_DESC, eq},
        {CUDNN_PARAM_WDESC, w},
        {CUDNN_PARAM_CONV_DESC, conv}};
    for (const auto &[label, param] : descriptors)
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(constants, label, param), CUDNN_STATUS_SUCCESS) << label;
    const cudnnFusedOpsPointerPlaceHolder_t aligned = CUDNN_PTR_ELEM_ALIGNED;
    for (auto label : {CUDNN_PARAM_XDATA_PLACEHOLDER, CUDNN_PARAM_WDATA_PLACEHOLDER, CUDNN_PARAM_YDATA_PLACEHOLDER,
                       CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER})
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(constants, label, &aligned), CUDNN_STATUS_SUCCESS) << label;
    cudnnFusedOpsPlan_t plan = nullptr;
    ASSERT_EQ(cudnnCreateFusedOpsPlan(&plan, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS), CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(cudnnMakeFusedOpsPlan(h.handle, plan, constants, &bytes), CUDNN_STATUS_SUCCESS);
    ASSERT_GT(bytes, 0u);  // the prologue's copy of x

    // x all 1, eqScale 2, w all 1 (1x1): every y is 2 channels x 2 = 4.
    std::vector<double> xs(18, 1.0), ws(4, 1.0), ys(18, 0.0), scale(2, 2.0);
    std::vector<double> memory(bytes / sizeof(double) + 4);  // room for 16-byte alignment plus 8 bytes
    auto *base = reinterpret_cast<unsigned char *>(memory.data());
    base += (16 - reinterpret_cast<uintptr_t>(base) % 16) % 16;
    cudnnFusedOpsVariantParamPack_t variants = nullptr;
    ASSERT_EQ(cudnnCreateFusedOpsVariantParamPack(&variants, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS),
              CUDNN_STATUS_SUCCESS);
    const std::pair<cudnnFusedOpsVariantParamLabel_t, void *> pointers[] = {{CUDNN_PTR_XDATA, xs.data()},
                                                                            {CUDNN_PTR_WDATA, ws.data()},
                                                                            {CUDNN_PTR_YDATA, ys.data()},
                                                                            {CUDNN_PTR_BN_EQSCALE, scale.data()}};
    for (const auto &[label, pointer] : pointers)
        EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, label, pointer), CUDNN_STATUS_SUCCESS) << label;
    EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES, &bytes),
              CUDNN_STATUS_SUCCESS);
    for (size_t offset : {1, 8}) {
        EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, CUDNN_PTR_WORKSPACE, base + offset),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnFusedOpsExecute(h.handle, plan, variants), "CUDNN_PTR_WORKSPACE",
                        "not aligned to 16 bytes");
    }
    EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(variants, CUDNN_PTR_WORKSPACE, base), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnFusedOpsExecute(h.handle, plan, variants), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(ys, std::vector<double>(18, 4.0));

    cudnnDestroyFusedOpsVariantParamPack(variants);
    cudnnDestroyFusedOpsPlan(plan);
    cudnnDestroyFusedOpsConstParamPack(constants);
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w);
    for (auto t : {x, y, eq}) cudnnDestroyTensorDescriptor(t);
}

// Fuzz finding, from the `misalign` step (the seed tests/fuzz/corpus/api/misaligned_buffers replays it): a double
// divisive normalisation on buffers 4 bytes off their alignment read doubles at misaligned addresses (UBSan
// in divnorm_strided.cpp; on the GPU a fault). Every op family now refuses a data pointer off its elements'
// alignment, and a workspace off 16 bytes where the solver uses one, with BAD_PARAM naming the pointer
// (src/ops/common/buffer_alignment.hpp); a scaling factor is read wherever it lies.
TEST(ReliabilityDefect, MisalignedBuffersAreRefusedNotRead) {
    setenv("LIBREDNN_BACKEND", "host", 1);  // host memory below
    Handle h;
    unsetenv("LIBREDNN_BACKEND");
    // 16-byte aligned memory, offered at offsets from it.
    std::vector<double> memory(512 + 4);
    auto *base = reinterpret_cast<unsigned char *>(memory.data());
    base += (16 - reinterpret_cast<uintptr_t>(base) % 16) % 16;
    auto at = [&](size_t offset) { return static_cast<void *>(base + offset); };

    cudnnTensorDescriptor_t d = nullptr, x = nullptr, y = nullptr;
    for (auto *t : {&d, &x, &y}) ASSERT_EQ(cudnnCreateTensorDescriptor(t), CUDNN_STATUS_SUCCESS);
    // Divisive normalisation, double 1x3x2x2: x, means, temp, temp2 and y of 12 doubles each.
    ASSERT_EQ(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 1, 3, 2, 2), CUDNN_STATUS_SUCCESS);
    cudnnLRNDescriptor_t lrn = nullptr;
    ASSERT_EQ(cudnnCreateLRNDescriptor(&lrn), CUDNN_STATUS_SUCCESS);
    const double one = 1.0, zero = 0.0;
    for (size_t i = 0; i < 60; ++i) memory[i] = 0.25 * static_cast<double>(i % 5);
    for (size_t offset : {4, 1}) {
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                        cudnnDivisiveNormalizationForward(h.handle, lrn, CUDNN_DIVNORM_PRECOMPUTED_MEANS, &one, d,
                                                          at(offset), at(offset + 96), at(offset + 192),
                                                          at(offset + 288), &zero, d, at(offset + 384)),
                        "x is", "not aligned to its elements (8 bytes)");
    }
    EXPECT_EQ(cudnnDivisiveNormalizationForward(h.handle, lrn, CUDNN_DIVNORM_PRECOMPUTED_MEANS, &one, d, at(0), at(96),
                                                at(192), at(288), &zero, d, at(384)),
              CUDNN_STATUS_SUCCESS);
    // An output off alignment is named too.
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(h.handle, lrn, CUDNN_DIVNORM_PRECOMPUTED_MEANS, &one, d, at(0),
                                                      at(96), at(192), at(288), &zero, d, at(386)),
                    "y is", "not aligned");

    // A half GEMM convolution (1x2x4x4, 2x2x3x3 filter, pad 1): its workspace holds the column matrix. Data
    // 2 bytes off 16 is aligned for half; a workspace 2 bytes off is not.
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&w), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF, 1, 2, 4, 4), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF, 1, 2, 4, 4), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_HALF, CUDNN_TENSOR_NCHW, 2, 2, 3, 3), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(cudnnGetConvolutionForwardWorkspaceSize(h.handle, x, w, conv, y, CUDNN_CONVOLUTION_FWD_ALGO_GEMM, &bytes),
              CUDNN_STATUS_SUCCESS);
    ASSERT_GT(bytes, 0u);
    std::vector<double> workspace_memory(bytes / sizeof(double) + 4);
    auto *work = reinterpret_cast<unsigned char *>(workspace_memory.data());
    work += (16 - reinterpret_cast<uintptr_t>(work) % 16) % 16;
    for (size_t i = 0; i < 128; ++i) reinterpret_cast<uint16_t *>(base)[i] = 0x3c00;  // half 1.0
    const float one_f = 1.0f, zero_f = 0.0f;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(h.handle, &one_f, x, at(2), w, at(66), conv,
                                            CUDNN_CONVOLUTION_FWD_ALGO_GEMM, work + 2, bytes, &zero_f, y, at(2 + 162)),
                    "workSpace is", "not aligned to 16 bytes");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(h.handle, &one_f, x, at(1), w, at(66), conv,
                                            CUDNN_CONVOLUTION_FWD_ALGO_GEMM, work, bytes, &zero_f, y, at(2 + 162)),
                    "x is", "not aligned to its elements (2 bytes)");
    EXPECT_EQ(cudnnConvolutionForward(h.handle, &one_f, x, at(2), w, at(66), conv, CUDNN_CONVOLUTION_FWD_ALGO_GEMM,
                                      work, bytes, &zero_f, y, at(2 + 162)),
              CUDNN_STATUS_SUCCESS);

    // A scaling factor off its alignment is read as it lies: y = 3 * x, alpha a float 1 byte into a buffer.
    unsigned char factor_bytes[8] = {};
    const float three = 3.0f;
    std::memcpy(factor_bytes + 1, &three, sizeof three);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 1, 4), CUDNN_STATUS_SUCCESS);
    float values[4] = {1, 2, 3, 4};
    EXPECT_EQ(cudnnScaleTensor(h.handle, d, values, factor_bytes + 1), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(std::vector<float>(values, values + 4), (std::vector<float>{3, 6, 9, 12}));

    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyLRNDescriptor(lrn);
    for (auto t : {d, x, y}) cudnnDestroyTensorDescriptor(t);
}
