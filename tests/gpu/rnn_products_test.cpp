// The CUDA RNN's products on tensor cores (src/cuda/rnn/rnn_products.hpp) against a double product on the host:
// each of the three product shapes on operands with the RNN's kinds of strides (rows wider than the matrix, A
// and B in both orientations), a bias, accumulation, and long sums split over blocks; and a recurrence step's
// products (a batch's rows) with k split into the operands' scratch. Where every operand has 16-byte rows they
// run on gemm_tf32, the others (odd widths, unaligned rows) on the implicit GEMM. TF32 under the default math
// (each product off by up to 2^-10 of itself), gemm_simt under FMA math; every run twice, bit for bit.
#include "cuda/rnn/rnn_products.hpp"
#include "cuda/conv/implicit_gemm.hpp"
#include "gpu_test_util.hpp"
#include "product_bound.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {

using namespace librednn;
using namespace librednn::cuda;
using librednn::gpu_test::device_copy;

struct Case {
    RnnProductScope scope;
    RnnProductShape shape;
    int64_t m, n, k;
    bool a_k_contiguous, b_k_contiguous, bias, accumulate;
    int64_t row_gap;  // elements past each row of every operand (the RNN's rows hold more than one matrix)
};

const char *shape_name(RnnProductShape shape) {
    switch (shape) {
        case RnnProductShape::forward: return "forward";
        case RnnProductShape::backward_data: return "backward_data";
        case RnnProductShape::backward_filter: return "backward_filter";
    }
    return "?";
}

void check(const Case &s, cudnnMathType_t math_type, std::mt19937_64 &rng) {
    SCOPED_TRACE(testing::Message() << (s.scope == RnnProductScope::one_step ? "one step, " : "all steps, ")
                                    << shape_name(s.shape) << " m " << s.m << " n " << s.n << " k " << s.k
                                    << " a_k_contiguous " << s.a_k_contiguous << " b_k_contiguous " << s.b_k_contiguous
                                    << " bias " << s.bias << " accumulate " << s.accumulate << " row_gap " << s.row_gap
                                    << " math_type " << math_type);
    RnnProblem p;
    p.net.data_type = p.net.math_prec = CUDNN_DATA_FLOAT;
    p.net.math_type = math_type;
    const bool tf32 = math_type != CUDNN_FMA_MATH;
    ASSERT_EQ(rnn_product_kernel(p, s.scope, s.m, s.n, s.k) == RnnProductKernel::tensor_cores, tf32);
    GemmOperands<float> g;
    g.m = s.m, g.n = s.n, g.k = s.k;
    // A [m][k] or by columns, B [k][n] or by columns, C [m][n]; each row (or column) `row_gap` longer.
    g.a_row = s.a_k_contiguous ? s.k + s.row_gap : 1, g.a_col = s.a_k_contiguous ? 1 : s.m + s.row_gap;
    g.b_row = s.b_k_contiguous ? 1 : s.n + s.row_gap, g.b_col = s.b_k_contiguous ? s.k + s.row_gap : 1;
    g.c_row = s.n + s.row_gap, g.accumulate = s.accumulate;
    const int64_t a_span = (s.a_k_contiguous ? s.m : s.k) * (s.a_k_contiguous ? g.a_row : g.a_col);
    const int64_t b_span = (s.b_k_contiguous ? s.n : s.k) * (s.b_k_contiguous ? g.b_col : g.b_row);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    auto random = [&](int64_t count) {
        std::vector<float> v(static_cast<size_t>(count));
        for (float &x : v) x = static_cast<float>(uniform(rng));
        return v;
    };
    const std::vector<float> a = random(a_span), b = random(b_span), bias = random(s.n), c0 = random(s.m * g.c_row);
    float *da = device_copy(a), *db = device_copy(b), *dbias = device_copy(bias), *dc = device_copy(c0);
    g.a = da, g.b = db, g.c = dc, g.bias = s.bias ? dbias : nullptr;
    // All steps: the workspace the shape needs. One step: no workspace, the scratch (as the RNN passes give
    // it) exactly what the split walk needs (none where k is too short to split).
    size_t workspace_bytes = 0;
    void *workspace = nullptr;
    if (tf32 && s.scope == RnnProductScope::all_steps)
        workspace_bytes = implicit_gemm_workspace_bytes(rnn_product_problem(g, s.shape, math_type));
    if (tf32 && s.scope == RnnProductScope::one_step) {
        GemmOperands<float> walked = g;
        walked.accumulate = true;
        const size_t parts =
            implicit_gemm_workspace_bytes(rnn_product_problem(walked, RnnProductShape::backward_filter, math_type));
        if (parts > 0) {
            ASSERT_EQ(cudaMalloc(&g.scratch, parts), cudaSuccess);
            g.scratch_elements = static_cast<int64_t>(parts / sizeof(float));
        }
    }
    if (workspace_bytes > 0) {
        ASSERT_EQ(cudaMalloc(&workspace, workspace_bytes), cudaSuccess);
    }
    std::vector<float> first;
    for (int run = 0; run < 2; ++run) {
        ASSERT_EQ(cudaMemcpy(dc, c0.data(), c0.size() * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
        ASSERT_EQ(rnn_product(nullptr, p, s.scope, s.shape, g, workspace, workspace_bytes), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<float> got(c0.size());
        ASSERT_EQ(cudaMemcpy(got.data(), dc, got.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
        if (run == 1) {
            ASSERT_EQ(std::memcmp(got.data(), first.data(), got.size() * sizeof(float)), 0) << "not deterministic";
            break;
        }
        first = got;
        // Any order of k + 2 rounded additions, and TF32's rounding of each product's factors.
        librednn::gpu_test::expect_product_within_bound(g, a, b, bias, c0, got, tf32 ? 0x1p-10 : 0.0);
        if (::testing::Test::HasFatalFailure()) break;
    }
    cudaFree(da), cudaFree(db), cudaFree(dbias), cudaFree(dc), cudaFree(workspace), cudaFree(g.scratch);
}

TEST(RnnProducts, AllStepShapesMatchDoubleProduct) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(11);
    using S = RnnProductShape;
    constexpr RnnProductScope A = RnnProductScope::all_steps;
    const Case cases[] = {
        // W x + b_W: x rows of the layer input, W [gates * hidden][width] row-major (B by columns).
        {A, S::forward, 300, 200, 96, true, false, true, false, 0},
        {A, S::forward, 130, 70, 33, true, false, false, false, 5},  // ragged tiles, unaligned rows
        {A, S::forward, 7, 3, 5, false, true, true, false, 2},
        // W^T dG: the gate gradients' rows in the reserve space, W [k][n] row-major, both directions summed.
        {A, S::backward_data, 300, 96, 200, true, true, false, false, 40},
        {A, S::backward_data, 129, 65, 48, true, true, false, true, 3},
        {A, S::backward_data, 5, 1, 7, false, false, false, true, 0},
        // dW = dG^T x over every step: A by columns (the gate gradients' rows), the sum split over blocks.
        {A, S::backward_filter, 256, 128, 3200, false, true, false, false, 64},
        {A, S::backward_filter, 96, 40, 1001, false, true, false, false, 1},
        {A, S::backward_filter, 3, 2, 9, true, false, false, false, 0},
    };
    for (const Case &s : cases)
        for (cudnnMathType_t math : {CUDNN_DEFAULT_MATH, CUDNN_FMA_MATH}) check(s, math, rng);
}

// A recurrence step's products at batches of 32 to 64 rows, as the RNN passes lay them out: rows of the
// per-sequence state (wider than the matrix), R read in place (forward R h + b_R: B by columns; backward
// R^T dG and P^T dh: B by rows), C in the state again; the GRU's R_h h + b_Rh; a ragged batch; accumulation.
TEST(RnnProducts, StepProductsMatchDoubleProduct) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(12);
    using S = RnnProductShape;
    constexpr RnnProductScope O = RnnProductScope::one_step;
    const Case cases[] = {
        {O, S::forward, 64, 1024, 256, true, false, true, false, 700},        // LSTM h256: R h + b_R
        {O, S::forward, 37, 300, 100, true, false, false, false, 13},         // a ragged batch, no bias
        {O, S::backward_data, 64, 256, 1024, true, true, false, false, 700},  // R^T dG
        {O, S::backward_data, 48, 96, 384, true, true, false, true, 9},       // accumulating
        {O, S::forward, 32, 200, 160, true, false, true, true, 3},            // bias and accumulation
    };
    for (const Case &s : cases)
        for (cudnnMathType_t math : {CUDNN_DEFAULT_MATH, CUDNN_FMA_MATH}) check(s, math, rng);
}

// A step's products (batch rows) stay on gemm_simt below kRnnTensorCoreStepBatch rows; double data and FMA
// math never reach the implicit GEMM.
TEST(RnnProducts, KernelChoice) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    RnnProblem p;
    p.net.data_type = p.net.math_prec = CUDNN_DATA_HALF;
    p.net.math_type = CUDNN_TENSOR_OP_MATH;
    EXPECT_EQ(rnn_product_kernel(p, RnnProductScope::all_steps, 3200, 4096, 1024), RnnProductKernel::tensor_cores);
    EXPECT_EQ(rnn_product_kernel(p, RnnProductScope::one_step, 64, 4096, 1024), RnnProductKernel::tensor_cores);
    EXPECT_EQ(rnn_product_kernel(p, RnnProductScope::one_step, kRnnTensorCoreStepBatch, 64, 64),
              RnnProductKernel::tensor_cores);
    EXPECT_EQ(rnn_product_kernel(p, RnnProductScope::one_step, kRnnTensorCoreStepBatch - 1, 4096, 1024),
              RnnProductKernel::simt);
    EXPECT_EQ(rnn_product_kernel(p, RnnProductScope::one_step, 1, 4096, 1024), RnnProductKernel::simt);
    p.net.math_type = CUDNN_FMA_MATH;
    EXPECT_EQ(rnn_product_kernel(p, RnnProductScope::all_steps, 3200, 4096, 1024), RnnProductKernel::simt);
    p.net.data_type = p.net.math_prec = CUDNN_DATA_DOUBLE;
    p.net.math_type = CUDNN_DEFAULT_MATH;
    EXPECT_EQ(rnn_product_kernel(p, RnnProductScope::all_steps, 3200, 4096, 1024), RnnProductKernel::simt);
}

}  // namespace
