// Backward data's split recurrent product (src/cuda/rnn/rnn_split_product) against a double product on the host,
// part by part: each split's part must hold its own terms' sum, to 2^-10 of their magnitudes (TF32 factors) plus
// float's roundings, so a dropped slice, a swapped fragment or a part written to the wrong place fails here even
// where the RNN tests' end-to-end bound could not see it. Shapes: a single tile and slice, ragged tiles (units and
// gate rows not multiples of 64 or 32), a last split shorter than the others, the plans the H200 makes for issue
// 15's problems; NaN in each gradient row's gap past gH (never read), the parts buffer's tail poisoned (never
// written); every run twice, bit for bit. And the plan's promises for a spread of problems.
#include "cuda/rnn/rnn_split_product.hpp"
#include "gpu_test_util.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

using namespace librednn;
using namespace librednn::cuda;
using librednn::gpu_test::device_copy;

constexpr int kSlice = 32;  // gate rows a slice of the plan holds

struct Case {
    int N, P, gH, row_gap, splits, slices;
};

void check(const Case &c, std::mt19937_64 &rng) {
    SCOPED_TRACE(testing::Message() << "N " << c.N << " P " << c.P << " gH " << c.gH << " row_gap " << c.row_gap
                                    << " splits " << c.splits << " slices " << c.slices);
    RnnSplitProduct plan;
    plan.splits = c.splits, plan.slices = c.slices, plan.column_tiles = (c.P + 63) / 64, plan.row_tiles = 1;
    const int64_t grads_row = c.gH + c.row_gap;
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<float> grads(static_cast<size_t>(c.N * grads_row)), recurrent(static_cast<size_t>(c.gH) * c.P);
    for (int n = 0; n < c.N; ++n)
        for (int64_t j = 0; j < grads_row; ++j)
            grads[n * grads_row + j] =
                j < c.gH ? static_cast<float>(uniform(rng)) : std::numeric_limits<float>::quiet_NaN();
    for (float &v : recurrent) v = static_cast<float>(uniform(rng));
    const int64_t count = static_cast<int64_t>(c.splits) * c.N * c.P, tail = 64;
    const std::vector<float> poison(static_cast<size_t>(count + tail), -7.0f);
    float *dgrads = device_copy(grads), *drecurrent = device_copy(recurrent), *dparts = device_copy(poison);
    ASSERT_TRUE(rnn_split_product_aligned(dgrads, grads_row, drecurrent));
    std::vector<float> first;
    const double u = 0x1p-24;
    for (int run = 0; run < 2; ++run) {
        ASSERT_EQ(cudaMemcpy(dparts, poison.data(), poison.size() * sizeof(float), cudaMemcpyHostToDevice),
                  cudaSuccess);
        ASSERT_EQ(rnn_split_product(nullptr, plan, dgrads, grads_row, drecurrent, c.N, c.P, c.gH, dparts),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<float> got(poison.size());
        ASSERT_EQ(cudaMemcpy(got.data(), dparts, got.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
        if (run == 1) {
            EXPECT_EQ(std::memcmp(got.data(), first.data(), got.size() * sizeof(float)), 0) << "not deterministic";
            break;
        }
        first = got;
        for (int64_t e = count; e < count + tail; ++e) ASSERT_EQ(got[e], -7.0f) << "written past the parts";
        for (int split = 0; split < c.splits; ++split) {
            const int j0 = split * c.slices * kSlice, j1 = std::min(c.gH, (split + 1) * c.slices * kSlice);
            for (int n = 0; n < c.N; ++n)
                for (int k = 0; k < c.P; ++k) {
                    double want = 0, magnitude = 0;
                    for (int j = j0; j < j1; ++j) {
                        const double product =
                            static_cast<double>(grads[n * grads_row + j]) * recurrent[static_cast<size_t>(j) * c.P + k];
                        want += product;
                        magnitude += std::fabs(product);
                    }
                    const double allowed = (j1 - j0 + 2) * u * magnitude + 0x1p-10 * magnitude;
                    const float value = got[(static_cast<int64_t>(split) * c.N + n) * c.P + k];
                    ASSERT_LE(std::fabs(value - want), allowed)
                        << "part " << split << " (" << n << ", " << k << "): " << value << ", in double " << want;
                }
        }
    }
    cudaFree(dgrads), cudaFree(drecurrent), cudaFree(dparts);
}

TEST(RnnSplitProduct, EachPartMatchesDoubleProduct) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(31);
    const Case cases[] = {
        {17, 20, 20, 4, 1, 1},       // one tile, one short slice (a ReLU cell of 20 units)
        {33, 132, 528, 0, 9, 2},     // ragged tiles; 17 slices: the last split has one
        {64, 68, 204, 12, 3, 3},     // a GRU of 68 units: 7 slices, gaps past each row
        {64, 512, 2048, 0, 16, 4},   // issue 15's LSTM h512 at batch 64
        {40, 1024, 4096, 8, 16, 8},  // LSTM h1024, 40 sequences
        {20, 400, 1600, 4, 10, 5},   // LSTM h400, 20 sequences
    };
    for (const Case &c : cases) check(c, rng);
}

// The plan: taken only where the kernel applies, every slice in exactly one split, at most 16 splits, the parts
// within the scratch; turned down under FMA math, with a projection, outside batches 17-64 or hidden not a multiple
// of 4, or where the scratch holds no parts.
TEST(RnnSplitProduct, PlansCoverEverySliceWithinTheScratch) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    const auto problem = [](cudnnRNNMode_t cell, int hidden, int batch) {
        RnnProblem p;
        p.net.cell = cell;
        p.net.hidden_size = p.net.proj_size = p.net.input_size = hidden;
        p.net.layers = 1;
        p.net.data_type = p.net.math_prec = CUDNN_DATA_FLOAT;
        p.net.math_type = CUDNN_DEFAULT_MATH;
        p.training = true;
        p.max_seq_length = 5;
        p.batch_size = batch;
        p.seq_lengths.assign(static_cast<size_t>(batch), 5);
        return p;
    };
    for (cudnnRNNMode_t cell : {CUDNN_RNN_RELU, CUDNN_LSTM, CUDNN_GRU})
        for (int hidden : {4, 20, 132, 400, 512, 1024, 2048})
            for (int batch : {17, 32, 64}) {
                const RnnProblem p = problem(cell, hidden, batch);
                const int gH = p.net.gates() * hidden, slices = (gH + kSlice - 1) / kSlice;
                const int64_t scratch = 16 * static_cast<int64_t>(batch) * gH;
                SCOPED_TRACE(testing::Message() << "cell " << cell << " hidden " << hidden << " batch " << batch);
                RnnSplitProduct plan;
                ASSERT_TRUE(rnn_split_product_plan(p, scratch, &plan));
                EXPECT_GE(plan.splits, 1);
                EXPECT_LE(plan.splits, 16);
                EXPECT_GE(plan.splits * plan.slices, slices);
                EXPECT_LT((plan.splits - 1) * plan.slices, slices) << "a split with no slice";
                EXPECT_LE(static_cast<int64_t>(plan.splits) * batch * hidden, scratch);
                EXPECT_EQ(plan.column_tiles, (hidden + 63) / 64);
                RnnSplitProduct none;
                EXPECT_FALSE(rnn_split_product_plan(p, 0, &none)) << "no scratch";
            }
    RnnSplitProduct plan;
    RnnProblem p = problem(CUDNN_LSTM, 512, 64);
    p.net.math_type = CUDNN_FMA_MATH;
    EXPECT_FALSE(rnn_split_product_plan(p, 1 << 30, &plan)) << "FMA math";
    p = problem(CUDNN_LSTM, 512, 64);
    p.net.proj_size = 256;
    EXPECT_FALSE(rnn_split_product_plan(p, 1 << 30, &plan)) << "projection";
    for (int batch : {16, 65}) EXPECT_FALSE(rnn_split_product_plan(problem(CUDNN_LSTM, 512, batch), 1 << 30, &plan));
    EXPECT_FALSE(rnn_split_product_plan(problem(CUDNN_LSTM, 30, 32), 1 << 30, &plan)) << "hidden 30";
}

}  // namespace
