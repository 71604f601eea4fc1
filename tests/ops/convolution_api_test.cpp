// The convolution API around the sums: the algorithm queries (MaxCount, Get..._v7, Find, FindEx,
// workspace sizes), the fused bias + activation forward, the bias gradient, im2col, the filter reorder,
// and cuDNN's rejections of bad input.
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/common/element_access.hpp"
#include "reference/activation.hpp"
#include "reference/convolution.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace {

using namespace librednn;
using namespace librednn::test;

// A 2-d float convolution's descriptors, packed NCHW: x n c h w, filter k c/g r s.
struct Conv2d {
    int n = 2, c = 4, h = 7, w = 6, k = 6, r = 3, s = 3, pad = 1, stride = 1, dilation = 1, groups = 1;
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnnFilterDescriptor_t filter = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    int p = 0, q = 0;

    Conv2d() = default;
    void make() {
        EXPECT_EQ(cudnnCreateTensorDescriptor(&x), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnCreateTensorDescriptor(&y), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnCreateFilterDescriptor(&filter), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, type, n, c, h, w), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetFilter4dDescriptor(filter, type, CUDNN_TENSOR_NCHW, k, c / groups, r, s),
                  CUDNN_STATUS_SUCCESS);
        const cudnnDataType_t compute = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
        EXPECT_EQ(cudnnSetConvolution2dDescriptor(conv, pad, pad, stride, stride, dilation, dilation,
                                                  CUDNN_CROSS_CORRELATION, compute),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetConvolutionGroupCount(conv, groups), CUDNN_STATUS_SUCCESS);
        int dims[4];
        EXPECT_EQ(cudnnGetConvolutionNdForwardOutputDim(conv, x, filter, 4, dims), CUDNN_STATUS_SUCCESS);
        p = dims[2];
        q = dims[3];
        EXPECT_EQ(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, type, n, k, p, q), CUDNN_STATUS_SUCCESS);
    }
    ~Conv2d() {
        cudnnDestroyTensorDescriptor(x);
        cudnnDestroyTensorDescriptor(y);
        cudnnDestroyFilterDescriptor(filter);
        cudnnDestroyConvolutionDescriptor(conv);
    }
    size_t x_count() const { return static_cast<size_t>(n) * c * h * w; }
    size_t w_count() const { return static_cast<size_t>(k) * (c / groups) * r * s; }
    size_t y_count() const { return static_cast<size_t>(n) * k * p * q; }
};

std::vector<float> random_floats(Random &rng, size_t count) {
    std::vector<float> values(count);
    for (float &v : values) v = static_cast<float>(rng.uniform(-1.0, 1.0));
    return values;
}

// --- algorithm queries ------------------------------------------------------------------------------

TEST(ConvolutionAlgorithms, MaxCountsAreTheEnumCounts) {
    Handle handle;
    int count = 0;
    ASSERT_EQ(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &count), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(count, CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    ASSERT_EQ(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &count), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(count, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT);
    ASSERT_EQ(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &count), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(count, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT);
    EXPECT_EQ(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, nullptr), CUDNN_STATUS_BAD_PARAM);
}

// Get..._v7 lists each algorithm once: the runnable ones first with SUCCESS and the workspace their
// size query gives, the others NOT_SUPPORTED; a runnable one really runs.
TEST(ConvolutionAlgorithms, ForwardRankingListsEveryAlgorithmOnceWithHonestWorkspaces) {
    Handle handle;
    Conv2d d;
    d.make();
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    ASSERT_EQ(cudnnGetConvolutionForwardAlgorithm_v7(handle, d.x, d.filter, d.conv, d.y,
                                                     CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(returned, CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    std::set<int> seen;
    bool failures_started = false;
    int runnable = 0;
    for (int i = 0; i < returned; ++i) {
        EXPECT_TRUE(seen.insert(perf[i].algo).second) << "algo " << perf[i].algo << " listed twice";
        if (perf[i].status != CUDNN_STATUS_SUCCESS) {
            failures_started = true;
            EXPECT_EQ(perf[i].status, CUDNN_STATUS_NOT_SUPPORTED);
            size_t bytes = 0;
            EXPECT_EQ(cudnnGetConvolutionForwardWorkspaceSize(handle, d.x, d.filter, d.conv, d.y, perf[i].algo, &bytes),
                      CUDNN_STATUS_NOT_SUPPORTED);
            continue;
        }
        EXPECT_FALSE(failures_started) << "a runnable algorithm after an unsupported one";
        ++runnable;
        size_t bytes = 0;
        ASSERT_EQ(cudnnGetConvolutionForwardWorkspaceSize(handle, d.x, d.filter, d.conv, d.y, perf[i].algo, &bytes),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(perf[i].memory, bytes);
        if (test_backend() == TestBackend::host) {
            EXPECT_EQ(perf[i].determinism, CUDNN_DETERMINISTIC);
        }
        DeviceBuffer x(std::vector<uint8_t>(d.x_count() * 4, 0)), w(std::vector<uint8_t>(d.w_count() * 4, 0));
        DeviceBuffer y(std::vector<uint8_t>(d.y_count() * 4, 0)), ws(std::vector<uint8_t>(bytes, 0));
        const float one = 1.0f, zero = 0.0f;
        EXPECT_EQ(cudnnConvolutionForward(handle, &one, d.x, x.get(), d.filter, w.get(), d.conv, perf[i].algo, ws.get(),
                                          bytes, &zero, d.y, y.get()),
                  CUDNN_STATUS_SUCCESS);
    }
    if (test_backend() == TestBackend::host) {
        // IMPLICIT_GEMM, IMPLICIT_PRECOMP_GEMM, GEMM, and for this 3x3 float NCHW problem of unit strides
        // WINOGRAD, WINOGRAD_NONFUSED, FFT and FFT_TILING.
        EXPECT_EQ(runnable, 7);
    }
    // Fewer requested: fewer returned, the best first.
    cudnnConvolutionFwdAlgoPerf_t first[1];
    ASSERT_EQ(cudnnGetConvolutionForwardAlgorithm_v7(handle, d.x, d.filter, d.conv, d.y, 1, &returned, first),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(returned, 1);
    EXPECT_EQ(first[0].algo, perf[0].algo);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolutionForwardAlgorithm_v7(handle, d.x, d.filter, d.conv, d.y, 0, &returned, first),
                    "requestedAlgoCount");
}

TEST(ConvolutionAlgorithms, BackwardRankingsListEveryAlgorithmOnce) {
    Handle handle;
    Conv2d d;
    d.make();
    cudnnConvolutionBwdDataAlgoPerf_t data[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    cudnnConvolutionBwdFilterAlgoPerf_t filter[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
    int returned = 0;
    ASSERT_EQ(cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, d.filter, d.y, d.conv, d.x,
                                                          CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &returned, data),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(returned, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT);
    std::set<int> seen;
    for (int i = 0; i < returned; ++i) seen.insert(data[i].algo);
    EXPECT_EQ(seen.size(), static_cast<size_t>(CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT));
    ASSERT_EQ(cudnnGetConvolutionBackwardFilterAlgorithm_v7(handle, d.x, d.y, d.conv, d.filter,
                                                            CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &returned, filter),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(returned, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT);
    seen.clear();
    for (int i = 0; i < returned; ++i) seen.insert(filter[i].algo);
    EXPECT_EQ(seen.size(), static_cast<size_t>(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT));
    if (test_backend() == TestBackend::host) {
        EXPECT_EQ(data[0].status, CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(filter[0].status, CUDNN_STATUS_SUCCESS);
    }
}

// Find times every runnable algorithm (sorted by time), FindEx on the caller's buffers reports the
// algorithms its workspace is too small for as ALLOC_FAILED, and a run given too little workspace is
// BAD_PARAM.
TEST(ConvolutionAlgorithms, FindTimesTheRunnableAlgorithmsAndWorkspaceIsEnforced) {
    Handle handle;
    Conv2d d;
    d.make();
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    ASSERT_EQ(cudnnFindConvolutionForwardAlgorithm(handle, d.x, d.filter, d.conv, d.y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                   &returned, perf),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(returned, CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
    for (int i = 0; i + 1 < returned; ++i) {
        if (perf[i + 1].status == CUDNN_STATUS_SUCCESS) {
            EXPECT_EQ(perf[i].status, CUDNN_STATUS_SUCCESS);
            EXPECT_LE(perf[i].time, perf[i + 1].time);
        }
    }
    for (int i = 0; i < returned; ++i) {
        if (perf[i].status == CUDNN_STATUS_SUCCESS) {
            EXPECT_GE(perf[i].time, 0.0f);
        }
    }
    if (test_backend() != TestBackend::host) return;

    // FindEx without workspace: the algorithms that need some are ALLOC_FAILED.
    Random rng;
    DeviceBuffer x(bytes_of(random_floats(rng, d.x_count()))), w(bytes_of(random_floats(rng, d.w_count())));
    DeviceBuffer y(std::vector<uint8_t>(d.y_count() * 4, 0));
    ASSERT_EQ(cudnnFindConvolutionForwardAlgorithmEx(handle, d.x, x.get(), d.filter, w.get(), d.conv, d.y, y.get(),
                                                     CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf, nullptr, 0),
              CUDNN_STATUS_SUCCESS);
    int alloc_failed = 0;
    for (int i = 0; i < returned; ++i) {
        if (perf[i].status == CUDNN_STATUS_ALLOC_FAILED) {
            ++alloc_failed;
            EXPECT_GT(perf[i].memory, 0u);
        }
    }
    EXPECT_GT(alloc_failed, 0);
    size_t bytes = 0;
    ASSERT_EQ(cudnnGetConvolutionForwardWorkspaceSize(handle, d.x, d.filter, d.conv, d.y,
                                                      CUDNN_CONVOLUTION_FWD_ALGO_GEMM, &bytes),
              CUDNN_STATUS_SUCCESS);
    ASSERT_GT(bytes, 0u);
    DeviceBuffer ws(std::vector<uint8_t>(bytes, 0));
    const float one = 1.0f, zero = 0.0f;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, &one, d.x, x.get(), d.filter, w.get(), d.conv,
                                            CUDNN_CONVOLUTION_FWD_ALGO_GEMM, ws.get(), bytes - 1, &zero, d.y, y.get()),
                    "workSpaceSizeInBytes", "needs");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, &one, d.x, x.get(), d.filter, w.get(), d.conv,
                                            CUDNN_CONVOLUTION_FWD_ALGO_GEMM, nullptr, bytes, &zero, d.y, y.get()),
                    "workSpace is NULL");
}

// --- rejections -------------------------------------------------------------------------------------

TEST(ConvolutionRejects, DocumentedMisuse) {
    Handle handle;
    Conv2d d;
    d.make();
    std::vector<float> data(4096, 0.0f);
    void *b = data.data();
    const float one = 1.0f, zero = 0.0f;
    const auto algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, &one, d.x, nullptr, d.filter, b, d.conv, algo, b, 0, &zero, d.y, b),
                    "x is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, nullptr, d.x, b, d.filter, b, d.conv, algo, b, 0, &zero, d.y, b),
                    "alpha is NULL");
    // y of the wrong size.
    cudnnTensorDescriptor_t wrong = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&wrong), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(wrong, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, d.n, d.k, d.p + 1, d.q),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, &one, d.x, b, d.filter, b, d.conv, algo, b, 0, &zero, wrong, b),
                    "yDesc is", "gives");
    // A half y with float x and w.
    ASSERT_EQ(cudnnSetTensor4dDescriptor(wrong, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF, d.n, d.k, d.p, d.q),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, &one, d.x, b, d.filter, b, d.conv, algo, b, 0, &zero, wrong, b),
                    "one data type");
    cudnnDestroyTensorDescriptor(wrong);
    // Not an algorithm.
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, &one, d.x, b, d.filter, b, d.conv,
                                            static_cast<cudnnConvolutionFwdAlgo_t>(42), b, 0, &zero, d.y, b),
                    "algo is 42");
    // An algorithm LibreDNN does not implement (DIRECT: cuDNN does not either).
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnConvolutionForward(handle, &one, d.x, b, d.filter, b, d.conv,
                                            CUDNN_CONVOLUTION_FWD_ALGO_DIRECT, b, 0, &zero, d.y, b),
                    "CUDNN_CONVOLUTION_FWD_ALGO_DIRECT");
    // Groups that do not divide the channels.
    Conv2d grouped;
    grouped.c = 6;
    grouped.groups = 3;
    grouped.make();
    ASSERT_EQ(cudnnSetConvolutionGroupCount(grouped.conv, 4), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, &one, grouped.x, b, grouped.filter, b, grouped.conv, algo, b, 0,
                                            &zero, grouped.y, b),
                    "groupCount");
    // A filter larger than the padded input.
    Conv2d big;
    big.make();
    cudnnFilterDescriptor_t huge = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&huge), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(huge, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, big.k, big.c, 12, 3),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnConvolutionForward(handle, &one, big.x, b, huge, b, big.conv, algo, b, 0, &zero, big.y, b),
                    "dilated filter spans");
    size_t bytes = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolutionBackwardDataWorkspaceSize(handle, huge, big.y, big.conv, big.x,
                                                                 CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, &bytes),
                    "dilated filter spans");
    cudnnDestroyFilterDescriptor(huge);
    // The wrong compute type for the data.
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(d.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_DOUBLE),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnConvolutionForward(handle, &one, d.x, b, d.filter, b, d.conv, algo, b, 0, &zero, d.y, b),
                    "computeType");
}

// --- the fused forward ------------------------------------------------------------------------------

// y = act(alpha1 conv(x, w) + alpha2 z + bias), against the reference; z separate or y itself.
TEST(ConvolutionBiasActivation, MatchesReferenceWithReluAndIdentity) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 12; ++trial) {
        Conv2d d;
        d.n = static_cast<int>(rng.integer(1, 3));
        d.c = static_cast<int>(rng.integer(1, 5));
        d.k = static_cast<int>(rng.integer(1, 6));
        d.make();
        const bool relu = trial % 2 == 0, z_is_y = trial % 3 == 0;
        // RELU with any algorithm the backend runs; IDENTITY only with IMPLICIT_PRECOMP_GEMM (cuDNN's rule).
        cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        int returned = 0;
        ASSERT_EQ(cudnnGetConvolutionForwardAlgorithm_v7(handle, d.x, d.filter, d.conv, d.y,
                                                         CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf),
                  CUDNN_STATUS_SUCCESS);
        std::vector<cudnnConvolutionFwdAlgo_t> runnable;
        for (int i = 0; i < returned; ++i)
            if (perf[i].status == CUDNN_STATUS_SUCCESS) runnable.push_back(perf[i].algo);
        const bool precomp =
            std::count(runnable.begin(), runnable.end(), CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM) > 0;
        if (runnable.empty() || (!relu && !precomp)) continue;
        const cudnnConvolutionFwdAlgo_t algo =
            relu ? rng.pick(runnable) : CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
        cudnnActivationDescriptor_t act = nullptr;
        ASSERT_EQ(cudnnCreateActivationDescriptor(&act), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnSetActivationDescriptor(act, relu ? CUDNN_ACTIVATION_RELU : CUDNN_ACTIVATION_IDENTITY,
                                               CUDNN_NOT_PROPAGATE_NAN, 0.0),
                  CUDNN_STATUS_SUCCESS);
        cudnnTensorDescriptor_t bias_desc = nullptr;
        ASSERT_EQ(cudnnCreateTensorDescriptor(&bias_desc), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnSetTensor4dDescriptor(bias_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, d.k, 1, 1),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<float> x = random_floats(rng, d.x_count()), w = random_floats(rng, d.w_count());
        const std::vector<float> z = random_floats(rng, d.y_count()), bias = random_floats(rng, d.k);
        const float alpha1 = static_cast<float>(rng.uniform(0.5, 2.0)), alpha2 = rng.coin() ? 0.0f : 0.75f;
        size_t bytes = 0;
        ASSERT_EQ(cudnnGetConvolutionForwardWorkspaceSize(handle, d.x, d.filter, d.conv, d.y, algo, &bytes),
                  CUDNN_STATUS_SUCCESS);
        DeviceBuffer xb(bytes_of(x)), wb(bytes_of(w)), zb(bytes_of(z)), bb(bytes_of(bias));
        DeviceBuffer yb(z_is_y ? bytes_of(z) : std::vector<uint8_t>(d.y_count() * 4, 0xff));
        DeviceBuffer ws(std::vector<uint8_t>(bytes, 0));
        ASSERT_EQ(cudnnConvolutionBiasActivationForward(
                      handle, &alpha1, d.x, xb.get(), d.filter, wb.get(), d.conv, algo, ws.get(), bytes, &alpha2, d.y,
                      z_is_y ? yb.get() : zb.get(), bias_desc, bb.get(), act, d.y, yb.get()),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<float> got = values_of<float>(yb.download());
        // The reference in double.
        reference::ConvolutionGeometry g;
        g.padding = {d.pad, d.pad};
        g.stride = {d.stride, d.stride};
        g.dilation = {d.dilation, d.dilation};
        reference::HostTensor rx(CUDNN_DATA_DOUBLE, {d.n, d.c, d.h, d.w}), rw(CUDNN_DATA_DOUBLE, {d.k, d.c, d.r, d.s});
        reference::HostTensor rz(CUDNN_DATA_DOUBLE, {d.n, d.k, d.p, d.q}), rb(CUDNN_DATA_DOUBLE, {1, d.k, 1, 1});
        reference::HostTensor ry(CUDNN_DATA_DOUBLE, {d.n, d.k, d.p, d.q});
        rx.set_values(std::vector<double>(x.begin(), x.end()));
        rw.set_values(std::vector<double>(w.begin(), w.end()));
        rz.set_values(std::vector<double>(z.begin(), z.end()));
        rb.set_values(std::vector<double>(bias.begin(), bias.end()));
        reference::Activation activation;
        activation.mode = relu ? CUDNN_ACTIVATION_RELU : CUDNN_ACTIVATION_IDENTITY;
        ASSERT_EQ(reference::convolution_bias_activation_forward(g, alpha1, rx, rw, alpha2, rz, rb, activation, ry),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> want = ry.values();
        // Sums of c * 9 products of magnitude <= 1 (alpha1 <= 2), then three terms: float rounding, and
        // TF32's 2^-10 of each product under the default math (docs/NUMERICS.md).
        const double n = d.c * 9.0;
        for (size_t i = 0; i < want.size(); ++i) {
            const double allowed =
                0x1p-23 * std::fabs(want[i]) + 2.0 * (sum_error(n, n, 0x1p-24) + 0x1p-10 * n + 16 * 0x1p-24 * (n + 4));
            ASSERT_NEAR(got[i], want[i], allowed)
                << "element " << i << (relu ? " relu" : " identity") << (z_is_y ? ", z = y" : "");
        }
        // IDENTITY is fused with IMPLICIT_PRECOMP_GEMM only.
        if (!relu) {
            EXPECT_REJECTED(
                CUDNN_STATUS_NOT_SUPPORTED,
                cudnnConvolutionBiasActivationForward(handle, &alpha1, d.x, xb.get(), d.filter, wb.get(), d.conv,
                                                      CUDNN_CONVOLUTION_FWD_ALGO_GEMM, ws.get(), bytes, &alpha2, d.y,
                                                      zb.get(), bias_desc, bb.get(), act, d.y, yb.get()),
                "IMPLICIT_PRECOMP_GEMM");
        }
        cudnnDestroyTensorDescriptor(bias_desc);
        cudnnDestroyActivationDescriptor(act);
    }
}

// --- the bias gradient ------------------------------------------------------------------------------

TEST(ConvolutionBackwardBias, SumsOverImagesAndPositions) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 20; ++trial) {
        const cudnnDataType_t type = rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF});
        const std::vector<int64_t> dims = random_dims(rng, static_cast<int>(rng.integer(4, 5)), 6);
        std::vector<int64_t> bias_dims(dims.size(), 1);
        bias_dims[1] = dims[1];
        const TensorGeometry dy_g = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
        const TensorGeometry db_g =
            packed_geometry(type, static_cast<int>(dims.size()), bias_dims.data(), PackedLayout::nchw);
        HostTensor dy(dy_g), db(db_g);
        fill_uniform(dy, rng, -2.0, 2.0);
        fill_uniform(db, rng, -2.0, 2.0);
        const bool in_double = type == CUDNN_DATA_DOUBLE;
        const Scalar alpha(random_alpha(rng), in_double), beta(random_beta(rng), in_double);
        TensorDescriptor dy_desc(dy_g), db_desc(db_g);
        DeviceBuffer dy_buffer(dy.bytes), db_buffer(db.bytes);
        ASSERT_EQ(cudnnConvolutionBackwardBias(handle, alpha.get(), dy_desc, dy_buffer.get(), beta.get(), db_desc,
                                               db_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
        HostTensor result(db_g);
        result.bytes = db_buffer.download();
        // The reference: per channel, the plain sum; sum_error over N x spatial terms.
        std::vector<double> sums(static_cast<size_t>(dims[1]), 0.0), magnitudes(sums.size(), 0.0);
        int64_t index[kMaxDims] = {};
        do {
            sums[static_cast<size_t>(index[1])] += dy.at(index);
            magnitudes[static_cast<size_t>(index[1])] += std::fabs(dy.at(index));
        } while (next_index(index, dy_g.dims, dy_g.nb_dims));
        const double n = static_cast<double>(dy_g.element_count() / dims[1]);
        const double u = accumulation_roundoff(type);
        std::vector<ElementBound> bounds;
        HostTensor ref = db;
        int64_t at[kMaxDims] = {};
        do {
            const size_t k = static_cast<size_t>(at[1]);
            const double old = beta.value() == 0.0 ? 0.0 : beta.value() * db.at(at);
            const double exact = alpha.value() * sums[k] + old;
            bounds.push_back(ElementBound{std::fabs(alpha.value()) * sum_error(n, magnitudes[k], u) +
                                              4 * u * (std::fabs(alpha.value() * sums[k]) + std::fabs(old)),
                                          exact});
            ref.set(at, exact);
        } while (next_index(at, db_g.dims, db_g.nb_dims));
        EXPECT_TRUE(matches_reference(result, ref, bounds, "bias gradient " + geometry_to_string(dy_g)));
    }
}

// --- im2col and the filter reorder -----------------------------------------------------------------

TEST(ConvolutionIm2Col, RowsAreOutputPositionsAndColumnsChannelTaps) {
    Handle handle;
    Conv2d d;
    d.n = 2;
    d.c = 2;
    d.h = 4;
    d.w = 5;
    d.k = 3;
    d.r = 2;
    d.s = 3;
    d.pad = 1;
    d.stride = 2;
    d.make();
    std::vector<float> x(d.x_count());
    std::iota(x.begin(), x.end(), 1.0f);
    const size_t rows = static_cast<size_t>(d.n) * d.p * d.q, columns = static_cast<size_t>(d.c) * d.r * d.s;
    DeviceBuffer x_buffer(bytes_of(x)), col_buffer(bytes_of(std::vector<float>(rows * columns, -1.0f)));
    ASSERT_EQ(cudnnIm2Col(handle, d.x, x_buffer.get(), d.filter, d.conv, col_buffer.get()), CUDNN_STATUS_SUCCESS);
    const std::vector<float> col = values_of<float>(col_buffer.download());
    for (int n = 0; n < d.n; ++n)
        for (int p = 0; p < d.p; ++p)
            for (int q = 0; q < d.q; ++q)
                for (int c = 0; c < d.c; ++c)
                    for (int r = 0; r < d.r; ++r)
                        for (int s = 0; s < d.s; ++s) {
                            const int h = p * d.stride - d.pad + r, w = q * d.stride - d.pad + s;
                            const float want = h >= 0 && h < d.h && w >= 0 && w < d.w
                                                   ? x[((static_cast<size_t>(n) * d.c + c) * d.h + h) * d.w + w]
                                                   : 0.0f;
                            const size_t row = (static_cast<size_t>(n) * d.p + p) * d.q + q;
                            const size_t column = (static_cast<size_t>(c) * d.r + r) * d.s + s;
                            ASSERT_EQ(col[row * columns + column], want) << n << p << q << c << r << s;
                        }
}

TEST(ConvolutionIm2Col, MatchesReferenceOnRandomGeometriesLayoutsAndTypes) {
    // 1 to 3 spatial dims, padding, strides, dilation, both modes, groups, x of any strides: the matrix
    // is a copy of x's elements (and zeros), so it must match the reference bit for bit.
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    const std::vector<cudnnDataType_t> types = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF,
                                                CUDNN_DATA_BFLOAT16, CUDNN_DATA_INT8};
    for (int trial = 0; trial < 60; ++trial) {
        const cudnnDataType_t type = rng.pick(types);
        const int spatial = static_cast<int>(rng.integer(1, 3));
        const int nb_dims = spatial + 2;
        const int groups = static_cast<int>(rng.integer(1, 2));
        std::vector<int64_t> x_dims = {rng.integer(1, 2), groups * rng.integer(1, 3)};
        std::vector<int> filter_dims = {static_cast<int>(groups * rng.integer(1, 2)),
                                        static_cast<int>(x_dims[1] / groups)};
        std::vector<int> pad(static_cast<size_t>(spatial)), stride(pad), dilation(pad);
        reference::ConvolutionGeometry geometry;
        for (int i = 0; i < spatial; ++i) {
            const int filter = static_cast<int>(rng.integer(1, 3));
            dilation[static_cast<size_t>(i)] = static_cast<int>(rng.integer(1, 2));
            stride[static_cast<size_t>(i)] = static_cast<int>(rng.integer(1, 3));
            pad[static_cast<size_t>(i)] = static_cast<int>(rng.integer(0, filter));
            const int64_t span = (filter - 1) * dilation[static_cast<size_t>(i)] + 1;
            x_dims.push_back(std::max<int64_t>(1, span - 2 * pad[static_cast<size_t>(i)]) + rng.integer(0, 4));
            filter_dims.push_back(filter);
            geometry.padding.push_back(pad[static_cast<size_t>(i)]);
            geometry.stride.push_back(stride[static_cast<size_t>(i)]);
            geometry.dilation.push_back(dilation[static_cast<size_t>(i)]);
        }
        geometry.groups = groups;
        geometry.mode = rng.coin() ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION;
        const TensorGeometry x_geometry = make_geometry(rng, type, x_dims, rng.pick(all_layout_kinds()));
        SCOPED_TRACE("x " + geometry_to_string(x_geometry) + " filter " +
                     reference::dims_to_string(std::vector<int64_t>(filter_dims.begin(), filter_dims.end())) +
                     (geometry.mode == CUDNN_CONVOLUTION ? " convolution" : " cross-correlation"));
        HostTensor x(x_geometry);
        fill_uniform(x, rng, -100.0, 100.0);

        TensorDescriptor x_desc(x_geometry);
        cudnnFilterDescriptor_t filter = nullptr;
        cudnnConvolutionDescriptor_t conv = nullptr;
        ASSERT_EQ(cudnnCreateFilterDescriptor(&filter), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnSetFilterNdDescriptor(filter, type, CUDNN_TENSOR_NCHW, nb_dims, filter_dims.data()),
                  CUDNN_STATUS_SUCCESS);
        const cudnnDataType_t compute = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE
                                        : type == CUDNN_DATA_INT8 ? CUDNN_DATA_INT32
                                                                  : CUDNN_DATA_FLOAT;
        ASSERT_EQ(cudnnSetConvolutionNdDescriptor(conv, spatial, pad.data(), stride.data(), dilation.data(),
                                                  geometry.mode, compute),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnSetConvolutionGroupCount(conv, groups), CUDNN_STATUS_SUCCESS);

        const std::vector<int64_t> w_dims(filter_dims.begin(), filter_dims.end());
        const std::vector<int64_t> out = reference::convolution_output_dims(geometry, x_dims, w_dims);
        int64_t rows = x_dims[0], columns = x_dims[1];
        for (int i = 0; i < spatial; ++i) {
            rows *= out[static_cast<size_t>(i + 2)];
            columns *= w_dims[static_cast<size_t>(i + 2)];
        }
        reference::HostTensor expected(type, {rows, columns});
        const reference::TensorView x_view{
            type, x_dims, std::vector<int64_t>(x_geometry.strides, x_geometry.strides + nb_dims), x.data()};
        ASSERT_EQ(reference::im2col(geometry, x_view, w_dims, expected), CUDNN_STATUS_SUCCESS) << last_failure_reason();

        DeviceBuffer x_buffer(x.bytes), col_buffer(std::vector<uint8_t>(expected.size_in_bytes(), 0xff));
        ASSERT_EQ(cudnnIm2Col(handle, x_desc, x_buffer.get(), filter, conv, col_buffer.get()), CUDNN_STATUS_SUCCESS);
        const std::vector<uint8_t> got = col_buffer.download();
        const uint8_t *want = static_cast<const uint8_t *>(expected.view().data);
        EXPECT_TRUE(std::equal(got.begin(), got.end(), want)) << "the matrix differs from the reference";
        cudnnDestroyFilterDescriptor(filter);
        cudnnDestroyConvolutionDescriptor(conv);
    }
}

TEST(ConvolutionIm2Col, RejectsVectorisedTensorsAndNullBuffers) {
    Handle handle;
    Conv2d d;
    d.make();
    std::vector<float> x(d.x_count(), 1.0f);
    DeviceBuffer x_buffer(bytes_of(x)), col_buffer(bytes_of(std::vector<float>(1024, 0.0f)));
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnIm2Col(handle, d.x, nullptr, d.filter, d.conv, col_buffer.get()), "x");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnIm2Col(handle, d.x, x_buffer.get(), d.filter, d.conv, nullptr),
                    "colBuffer");
    cudnnTensorDescriptor_t vectors = nullptr;
    cudnnFilterDescriptor_t vector_filter = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&vectors), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateFilterDescriptor(&vector_filter), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(vectors, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x4, 1, 4, 5, 5),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(vector_filter, CUDNN_DATA_INT8x4, CUDNN_TENSOR_NCHW_VECT_C, 4, 4, 3, 3),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnIm2Col(handle, vectors, x_buffer.get(), vector_filter, d.conv, col_buffer.get()),
                    "vectorised");
    cudnnDestroyTensorDescriptor(vectors);
    cudnnDestroyFilterDescriptor(vector_filter);
}

TEST(ConvolutionReorder, Int8x32FiltersAreKeptAsStored) {
    Handle handle;
    cudnnFilterDescriptor_t filter = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&filter), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(filter, CUDNN_DATA_INT8x32, CUDNN_TENSOR_NCHW_VECT_C, 2, 32, 3, 3),
              CUDNN_STATUS_SUCCESS);
    std::vector<int8_t> w(2 * 32 * 9);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(i * 7);
    std::vector<float> bias = {1.5f, -2.0f};
    DeviceBuffer wb(bytes_of(w)), wr(std::vector<uint8_t>(w.size(), 0)), bb(bytes_of(bias)),
        br(std::vector<uint8_t>(8, 0));
    ASSERT_EQ(
        cudnnReorderFilterAndBias(handle, filter, CUDNN_DEFAULT_REORDER, wb.get(), wr.get(), 1, bb.get(), br.get()),
        CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(values_of<int8_t>(wr.download()), w);
    EXPECT_EQ(values_of<float>(br.download()), bias);
    cudnnFilterDescriptor_t plain = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&plain), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(plain, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 2, 3, 3, 3), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnReorderFilterAndBias(handle, plain, CUDNN_DEFAULT_REORDER, wb.get(), wr.get(), 0, nullptr, nullptr),
        "INT8x32");
    cudnnDestroyFilterDescriptor(plain);
    cudnnDestroyFilterDescriptor(filter);
}

}  // namespace
