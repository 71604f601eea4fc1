// cudnnRNNForward (the v8 API) against the reference on random networks: every cell, one and two
// directions, 1 to 3 layers, linear and skip input, the four bias modes, the LSTM projection, the three
// data layouts, per-sequence lengths (0 included), padding fill, hx/cx/hy/cy present or NULL,
// inference and training, float, double and half, dropout between layers (the mask read back from the
// reserve space must be the documented draw; the reference applies it) and LSTM cell clipping. Weights go
// in through cudnnGetRNNWeightParams, whose layout is checked on its own (every matrix and bias once, no
// overlap, inside the weight space); the rest of the weight space and x's padding hold NaN, so a read of
// either shows. Then the rejections and the problem string. The same tests run on the CUDA backend.
#include "reference/rnn.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/rnn/problem.hpp"
#include "rnn_error_bound.hpp"
#include "rnn_test_util.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include "core/data_type.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace {

using namespace librednn;
using namespace librednn::test;

// `batch` random sequence lengths up to p's longest, sorted longest first for the packed layout.
void random_lengths(Random &rng, int batch, RnnProblem *p) {
    p->batch_size = batch;
    p->seq_lengths.clear();
    for (int i = 0; i < batch; ++i)
        p->seq_lengths.push_back(rng.integer(0, 3) == 0 ? static_cast<int>(rng.integer(0, p->max_seq_length))
                                                        : p->max_seq_length - static_cast<int>(rng.integer(0, 1)));
    if (p->layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED)
        std::sort(p->seq_lengths.begin(), p->seq_lengths.end(), std::greater<int>());
}

RnnProblem random_problem(Random &rng) {
    RnnProblem p;
    RnnNetwork &n = p.net;
    n.cell = rng.pick<cudnnRNNMode_t>({CUDNN_RNN_RELU, CUDNN_RNN_TANH, CUDNN_LSTM, CUDNN_GRU});
    n.bidirectional = rng.coin();
    n.layers = static_cast<int>(rng.integer(1, 3));
    n.hidden_size = static_cast<int>(rng.integer(1, 9));
    n.skip_input = rng.integer(0, 3) == 0;
    n.input_size = n.skip_input ? n.hidden_size : static_cast<int>(rng.integer(1, 9));
    n.proj_size = n.cell == CUDNN_LSTM && n.hidden_size > 1 && rng.coin()
                      ? static_cast<int>(rng.integer(1, n.hidden_size - 1))
                      : n.hidden_size;
    n.bias_mode = rng.pick<cudnnRNNBiasMode_t>(
        {CUDNN_RNN_NO_BIAS, CUDNN_RNN_SINGLE_INP_BIAS, CUDNN_RNN_DOUBLE_BIAS, CUDNN_RNN_SINGLE_REC_BIAS});
    n.data_type = rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF});
    n.math_prec = n.data_type == CUDNN_DATA_HALF && rng.coin() ? CUDNN_DATA_HALF
                  : n.data_type == CUDNN_DATA_DOUBLE           ? CUDNN_DATA_DOUBLE
                                                               : CUDNN_DATA_FLOAT;
    // The host computes alike whatever the algorithm and math type say; the problem string carries them.
    n.algo = n.projection()
                 ? CUDNN_RNN_ALGO_STANDARD
                 : rng.pick<cudnnRNNAlgo_t>({CUDNN_RNN_ALGO_STANDARD, CUDNN_RNN_ALGO_PERSIST_STATIC,
                                             CUDNN_RNN_ALGO_PERSIST_DYNAMIC, CUDNN_RNN_ALGO_PERSIST_STATIC_SMALL_H});
    n.math_type = rng.pick<cudnnMathType_t>(
        {CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION, CUDNN_FMA_MATH});
    p.training = rng.coin();
    p.layout = rng.pick<cudnnRNNDataLayout_t>({CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED,
                                               CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED,
                                               CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED});
    p.max_seq_length = static_cast<int>(rng.integer(1, 6));
    random_lengths(rng, static_cast<int>(rng.integer(1, 4)), &p);
    p.padding_fill = rng.pick<double>({0.0, -1.5, 3.25});
    p.has_hx = rng.coin();
    p.has_hy = rng.coin();
    p.has_cx = n.cell == CUDNN_LSTM && rng.coin();
    p.has_cy = n.cell == CUDNN_LSTM && rng.coin();
    if (rng.integer(0, 2) == 0) p.dropout = rng.pick<float>({0.25f, 0.5f, 0.75f});
    if (n.cell == CUDNN_LSTM && rng.coin()) {
        p.clipping = true;
        p.lclip = -rng.uniform(0.05, 0.6);
        p.rclip = rng.uniform(0.05, 0.6);
        p.clip_propagate_nan = rng.coin();
    }
    return p;
}

double rounded(Random &rng, cudnnDataType_t type, double low, double high) {
    uint64_t bits = 0;
    store_scalar(&bits, type, 0, rng.uniform(low, high));
    return load_scalar(&bits, type, 0);
}

// The weight space as the API lays it out, with random values in every matrix and bias (rounded to the
// type) and NaN everywhere else; `weights` gets the same values matrix by matrix for the reference.
std::vector<uint8_t> random_weight_space(Random &rng, const RnnProblem &p, cudnnRNNDescriptor_t desc,
                                         reference::RnnWeights *weights) {
    Handle handle;
    const RnnNetwork &n = p.net;
    const cudnnDataType_t type = n.data_type;
    size_t bytes = 0;
    EXPECT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, &bytes), CUDNN_STATUS_SUCCESS);
    std::vector<uint8_t> space(bytes, 0xff);
    TensorDescriptorHandle m_desc, b_desc;
    weights->matrices.assign(static_cast<size_t>(n.pseudo_layers()), {});
    weights->biases.assign(static_cast<size_t>(n.pseudo_layers()), {});
    for (int pl = 0; pl < n.pseudo_layers(); ++pl) {
        weights->matrices[pl].assign(static_cast<size_t>(n.lin_layer_ids()), {});
        weights->biases[pl].assign(static_cast<size_t>(n.lin_layer_ids()), {});
        for (int id = 0; id < n.lin_layer_ids(); ++id) {
            void *m = nullptr, *b = nullptr;
            EXPECT_EQ(cudnnGetRNNWeightParams(handle, desc, pl, bytes, space.data(), id, m_desc, &m, b_desc, &b),
                      CUDNN_STATUS_SUCCESS)
                << last_failure_reason();
            for (auto [address, tensor, out] : {std::make_tuple(m, m_desc.get(), &weights->matrices[pl][id]),
                                                std::make_tuple(b, b_desc.get(), &weights->biases[pl][id])}) {
                if (address == nullptr) continue;
                cudnnDataType_t t;
                int nb = 0, dims[3], strides[3];
                EXPECT_EQ(cudnnGetTensorNdDescriptor(tensor, 3, &t, &nb, dims, strides), CUDNN_STATUS_SUCCESS);
                const double scale = 0.5 / std::sqrt(static_cast<double>(tensor == m_desc.get() ? dims[2] : 4));
                const int64_t count = static_cast<int64_t>(dims[1]) * dims[2];
                const int64_t offset =
                    (static_cast<uint8_t *>(address) - space.data()) / static_cast<int64_t>(data_type_size(type));
                for (int64_t i = 0; i < count; ++i) {
                    const double v = rounded(rng, type, -scale, scale);
                    store_scalar(space.data(), type, offset + i, v);
                    out->push_back(v);
                }
            }
        }
    }
    return space;
}

std::vector<uint8_t> nan_bytes(int64_t elements, cudnnDataType_t type) {
    return std::vector<uint8_t>(static_cast<size_t>(std::max<int64_t>(elements, 1)) * data_type_size(type), 0xff);
}

// Random values (rounded to the type) for a state, or none.
std::vector<double> random_state(Random &rng, bool present, int64_t count, cudnnDataType_t type) {
    std::vector<double> values;
    if (present)
        for (int64_t i = 0; i < count; ++i) values.push_back(rounded(rng, type, -1.0, 1.0));
    return values;
}

std::vector<uint8_t> state_bytes(const std::vector<double> &values, cudnnDataType_t type) {
    std::vector<uint8_t> bytes = nan_bytes(static_cast<int64_t>(values.size()), type);
    for (size_t i = 0; i < values.size(); ++i) store_scalar(bytes.data(), type, static_cast<int64_t>(i), values[i]);
    return bytes;
}

// got[i] within errors[i] of want[i] (and the output type's rounding).
void expect_close(const std::vector<uint8_t> &got, cudnnDataType_t type, const std::vector<double> &want,
                  const std::vector<double> &errors, const char *name, const std::string &text) {
    const Tolerance tol = tolerance_for(type);
    for (size_t i = 0; i < want.size(); ++i) {
        const double v = load_scalar(got.data(), type, static_cast<int64_t>(i));
        const double allowed = allowed_error_for(tol, want[i], errors[i]);
        if (!(std::fabs(v - want[i]) <= allowed)) {
            ADD_FAILURE() << name << "[" << i << "] is " << v << ", the reference " << want[i] << " (allowed error "
                          << allowed << ")\n  " << text;
            return;
        }
    }
}

void check_forward(Random &rng, const RnnProblem &p) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const RnnNetwork &n = p.net;
    const cudnnDataType_t type = n.data_type;
    Handle handle;
    // Dropout in the descriptor whatever the mode: inference ignores it.
    std::unique_ptr<RnnDropout> dropout;
    if (p.dropout > 0) dropout = std::make_unique<RnnDropout>(handle, p.dropout, rng.integer(0, 1 << 20));
    const DropoutState before = dropout ? dropout->state() : DropoutState{};
    RnnDescriptor desc(p, dropout ? static_cast<cudnnDropoutDescriptor_t>(*dropout) : nullptr);
    reference::RnnWeights weights;
    const std::vector<uint8_t> space = random_weight_space(rng, p, desc, &weights);
    DataDescriptor x_desc(p, n.input_size), y_desc(p, p.y_size(), true);
    StateDescriptor h_desc(p, n.proj_size, type), c_desc(p, n.hidden_size, type);
    const int T = p.max_seq_length, N = p.batch_size;

    // x: random where a sequence has a step, NaN in the padding.
    std::vector<double> x(static_cast<size_t>(T) * N * n.input_size, 0.0);
    std::vector<uint8_t> x_bytes = nan_bytes(rnn_data_elements(p, n.input_size), type);
    for (int t = 0; t < T; ++t)
        for (int b = 0; b < N; ++b)
            for (int i = 0; i < n.input_size; ++i) {
                if (t >= p.seq_lengths[b]) continue;
                const double v = rounded(rng, type, -1.0, 1.0);
                x[(static_cast<size_t>(t) * N + b) * n.input_size + i] = v;
                store_scalar(x_bytes.data(), type, rnn_data_offset(p, n.input_size, t, b, i), v);
            }
    const int64_t h_count = static_cast<int64_t>(n.pseudo_layers()) * N * n.proj_size;
    const int64_t c_count = static_cast<int64_t>(n.pseudo_layers()) * N * n.hidden_size;
    const std::vector<double> hx = random_state(rng, p.has_hx, h_count, type);
    const std::vector<double> cx = random_state(rng, p.has_cx, c_count, type);

    size_t work_bytes = 0, reserve_bytes = 0;
    const cudnnForwardMode_t mode = p.training ? CUDNN_FWD_MODE_TRAINING : CUDNN_FWD_MODE_INFERENCE;
    const cudnnStatus_t sizes = cudnnGetRNNTempSpaceSizes(handle, desc, mode, x_desc, &work_bytes, &reserve_bytes);
    ASSERT_EQ(sizes, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    EXPECT_EQ(reserve_bytes == 0, !p.training);
    DeviceBuffer w_buffer(space), x_buffer(x_bytes), y_buffer(nan_bytes(rnn_data_elements(p, p.y_size()), type));
    DeviceBuffer hx_buffer(state_bytes(hx, type)), cx_buffer(state_bytes(cx, type));
    DeviceBuffer hy_buffer(nan_bytes(h_count, type)), cy_buffer(nan_bytes(c_count, type));
    DeviceBuffer work(std::vector<uint8_t>(work_bytes + 1, 0xff)),
        reserve(std::vector<uint8_t>(reserve_bytes + 1, 0xff));
    ASSERT_EQ(cudnnRNNForward(handle, desc, mode, p.seq_lengths.data(), x_desc, x_buffer.get(), y_desc, y_buffer.get(),
                              h_desc, p.has_hx ? hx_buffer.get() : nullptr, p.has_hy ? hy_buffer.get() : nullptr,
                              c_desc, p.has_cx ? cx_buffer.get() : nullptr, p.has_cy ? cy_buffer.get() : nullptr,
                              space.size(), w_buffer.get(), work_bytes, work.get(), reserve_bytes, reserve.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();

    // The dropout factors: the documented draw for the states' call before this one, in the reserve space
    // after the gradients' part; the call is counted (by training forwards with dropout between layers only).
    const std::vector<double> factors = documented_dropout_factors(p, before.key, before.calls);
    if (dropout) {
        EXPECT_EQ(dropout->state().calls, before.calls + (p.dropout_between_layers() ? 1 : 0));
    }
    if (!factors.empty()) {
        const std::vector<uint8_t> reserved = reserve.download();
        const cudnnDataType_t compute = rnn_compute_type(n);
        const int64_t start = rnn_reserve_dropout_start(p);
        for (size_t e = 0; e < factors.size(); ++e)
            ASSERT_EQ(load_scalar(reserved.data(), compute, start + static_cast<int64_t>(e)), factors[e])
                << "dropout factor " << e << " (layer, t, n, i in row-major order) is not the documented draw";
    }
    std::vector<double> y, hy, cy;
    ASSERT_EQ(reference::rnn_forward(config_of(p), weights, T, p.seq_lengths, x, hx, cx, p.padding_fill, &y, &hy, &cy,
                                     factors),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    // Each output's own bound: the reference run over intervals (rnn_error_bound.hpp).
    const ForwardErrors errors = forward_errors(p, config_of(p), weights, x, hx, cx, factors);
    ASSERT_EQ(errors.y.size(), y.size());
    const std::vector<uint8_t> y_got = y_buffer.download();
    const Tolerance tol = tolerance_for(type);
    const double fill = load_scalar(state_bytes({p.padding_fill}, type).data(), type, 0);
    for (int t = 0; t < T; ++t)
        for (int b = 0; b < N; ++b)
            for (int i = 0; i < p.y_size(); ++i) {
                const int64_t at = rnn_data_offset(p, p.y_size(), t, b, i);
                if (at < 0) continue;
                const double got = load_scalar(y_got.data(), type, at);
                if (t >= p.seq_lengths[b]) {
                    ASSERT_EQ(got, fill) << "y padding at t " << t << " n " << b << " i " << i;
                    continue;
                }
                const size_t e = (static_cast<size_t>(t) * N + b) * p.y_size() + i;
                const double want = y[e];
                ASSERT_LE(std::fabs(got - want), allowed_error_for(tol, want, errors.y[e]))
                    << "y at t " << t << " n " << b << " i " << i << ": " << got << ", the reference " << want;
            }
    if (p.has_hy) expect_close(hy_buffer.download(), type, hy, errors.hy, "hy", text);
    if (p.has_cy) expect_close(cy_buffer.download(), type, cy, errors.cy, "cy", text);
}

TEST(Rnn, ForwardMatchesReferenceOnRandomNetworksLayoutsAndLengths) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 120; ++trial) check_forward(rng, random_problem(rng));
}

// Each cell on its own, in every combination of direction and input mode, so that no seed leaves one out.
TEST(Rnn, ForwardMatchesReferenceForEachCellDirectionAndInputMode) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (cudnnRNNMode_t cell : {CUDNN_RNN_RELU, CUDNN_RNN_TANH, CUDNN_LSTM, CUDNN_GRU})
        for (bool bidirectional : {false, true})
            for (bool skip : {false, true}) {
                RnnProblem p = random_problem(rng);
                p.net.cell = cell;
                p.net.bidirectional = bidirectional;
                p.net.layers = 2;
                p.net.skip_input = skip;
                p.net.hidden_size = 5;
                p.net.input_size = skip ? 5 : 3;
                p.net.proj_size = cell == CUDNN_LSTM && rng.coin() ? 3 : 5;
                if (p.net.projection()) p.net.algo = CUDNN_RNN_ALGO_STANDARD;  // the projection's only algorithm
                p.net.bias_mode = CUDNN_RNN_DOUBLE_BIAS;
                p.max_seq_length = 5;
                p.layout = CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED;
                p.seq_lengths.assign(static_cast<size_t>(p.batch_size), 5);
                p.seq_lengths[0] = 2;  // the backward direction must start at step 1 for this one
                p.has_hx = p.has_hy = true;
                p.has_cx = p.has_cy = cell == CUDNN_LSTM;
                check_forward(rng, p);
            }
}

// Batches of kRnnTensorCoreStepBatch sequences and more: on CUDA the recurrence steps' products (R h + b_R,
// P h) run on tensor cores (gemm_tf32, or the implicit GEMM) with k split over blocks, on TF32 unless the math
// type is FMA.
TEST(Rnn, ForwardOnBatchesOfTensorCoreStepsMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 16; ++trial) {
        RnnProblem p = random_problem(rng);
        random_lengths(rng, static_cast<int>(rng.integer(kRnnTensorCoreStepBatch, kRnnTensorCoreStepBatch + 40)), &p);
        check_forward(rng, p);
    }
}

// Hidden sizes of a multiple of 8 without a projection, float and half data: on CUDA each forward step is one
// kernel (cuda/rnn/rnn_fused_step.hpp) computing R h + b_R and the cell, h alternating between two buffers,
// from batches of 17 (kRnnFusedStepBatch; smaller ones take the unfused or persistent steps). Batches of one sequence
// to past 64 (the kernel's columns per pass), odd and even longest lengths (the last h in either buffer), shorter
// sequences (their h carried to the other buffer), both directions, and two hidden sizes past the kernel's wide-tile
// threshold (kRnnFusedWideTileHidden, 768: eight units per block, else four). Hidden sizes that are multiples of 16
// take the TF32 kernel unless the math type is FMA, the others the FP32 one; hidden 144 at batch 65 or 80 takes it
// over whole 128-k chunks and a tail in two passes. On Hopper, hidden sizes that are multiples of 64 take the wgmma
// kernel over two or more steps (rnn_fused_step_wgmma.hpp): 768 with eight units a block, 64-192 with four, over one
// or two passes; 784 and 144 keep the mma.sync kernel's persistent launch.
TEST(Rnn, ForwardOfFusedStepsMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 23; ++trial) {
        RnnProblem p = random_problem(rng);
        RnnNetwork &n = p.net;
        const bool wide = trial < 2 || trial == 3;
        // Trial 2: the TF32 kernel's whole 128-k chunks and its k tail over more than one pass of 64 sequences;
        // trials 3-5 the wgmma kernel's.
        const bool passes = trial >= 2 && trial <= 5;
        n.hidden_size = wide         ? (trial == 0   ? 776
                                        : trial == 1 ? 784
                                                     : 768)
                        : trial == 2 ? 144
                        : passes     ? rng.pick<int>({64, 128, 192})
                                     : 8 * static_cast<int>(rng.integer(1, 5));
        n.proj_size = n.hidden_size;
        if (n.skip_input) n.input_size = n.hidden_size;
        n.data_type = rng.coin() ? CUDNN_DATA_FLOAT : CUDNN_DATA_HALF;
        n.math_prec = n.data_type == CUDNN_DATA_HALF && rng.coin() ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
        if (wide) n.layers = 1, n.bidirectional = false, n.input_size = n.skip_input ? n.hidden_size : 5;
        p.max_seq_length = wide     ? 3
                           : passes ? static_cast<int>(rng.integer(2, 6))
                                    : static_cast<int>(rng.integer(1, 6));
        if (passes) n.math_type = CUDNN_DEFAULT_MATH, n.data_type = CUDNN_DATA_FLOAT, n.math_prec = CUDNN_DATA_FLOAT;
        random_lengths(rng,
                       wide     ? (trial == 3 ? 65 : 33)
                       : passes ? rng.pick<int>({17, 64, 65, 80})
                                : rng.pick<int>({1, 7, 17, 24, 32, 33, 64, 65, 80}),
                       &p);
        p.has_hy = true;
        p.has_cy = n.cell == CUDNN_LSTM;
        check_forward(rng, p);
    }
}

// Small batches without a projection, float and half data: on CUDA all the forward steps of a pseudo-layer run in
// one persistent kernel (cuda/rnn/rnn_persistent.hpp, batches up to 16), each block holding gates x units rows of R
// (units = hidden / SMs, rounded up). Hidden sizes from one unit a block to eight (a partial last block where the
// SMs do not divide them), multiples of 4 (16-byte loads) and not, batches of one to 16 sequences (one pass of one,
// passes of four), shorter sequences, both directions, inference and training (the reserve space's saved values
// feed the backward tests too).
TEST(Rnn, ForwardOfPersistentStepsMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 16; ++trial) {
        RnnProblem p = random_problem(rng);
        RnnNetwork &n = p.net;
        const bool wide = trial < 4;
        n.hidden_size = wide ? rng.pick<int>({1024, 521, 300}) : static_cast<int>(rng.integer(10, 200));
        n.proj_size = n.hidden_size;
        if (n.skip_input) n.input_size = n.hidden_size;
        n.data_type = rng.coin() ? CUDNN_DATA_FLOAT : CUDNN_DATA_HALF;
        n.math_prec = n.data_type == CUDNN_DATA_HALF && rng.coin() ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
        if (n.algo == CUDNN_RNN_ALGO_STANDARD && rng.coin()) n.algo = CUDNN_RNN_ALGO_PERSIST_STATIC;
        if (wide) n.layers = 1, n.bidirectional = trial % 2 == 1, n.input_size = n.skip_input ? n.hidden_size : 7;
        p.max_seq_length = static_cast<int>(rng.integer(1, wide ? 4 : 7));
        random_lengths(rng, wide ? rng.pick<int>({1, 2, 5}) : rng.pick<int>({1, 2, 3, 5, 8, 13, 16}), &p);
        p.has_hy = true;
        p.has_cy = n.cell == CUDNN_LSTM;
        check_forward(rng, p);
    }
}

// Inference of 2 to 4 unidirectional layers without a projection at small batches, float and half data: on CUDA every
// layer's steps run in one wavefront kernel (cuda/rnn/rnn_wavefront.hpp), layer l + 1's step s - 1 beside layer l's
// step s, each block holding its units' rows of every layer's R and the upper layers' W (half data as halves). Trials
// 0-3 are the shapes it exists for, half LSTM and GRU at hidden 1024 (eight units a block, 16-byte rows) at batches 1
// and 8 (the largest the LSTM's rows and sums fit); trial 4 hidden 521 in float (rows not a multiple of 4); the rest
// every cell at hidden 10-300 over 2-4 layers and batches of one to 16 (the two tiles). Shorter sequences (their h
// carried over while the layers above still run), LSTM clipping, hx and cx present or not, layer 0 on linear or skip
// input.
TEST(Rnn, InferenceOfWavefrontLayersMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 16; ++trial) {
        RnnProblem p = random_problem(rng);
        RnnNetwork &n = p.net;
        p.training = false;
        n.bidirectional = false;
        const cudnnRNNMode_t cells[] = {CUDNN_RNN_RELU, CUDNN_RNN_TANH, CUDNN_LSTM, CUDNN_GRU};
        n.cell = trial < 4 ? (trial < 2 ? CUDNN_LSTM : CUDNN_GRU) : cells[trial % 4];
        const bool wide = trial < 5;
        n.layers = wide ? 2 : static_cast<int>(rng.integer(2, 4));
        n.hidden_size = trial < 4 ? 1024 : wide ? 521 : static_cast<int>(rng.integer(10, 300));
        n.proj_size = n.hidden_size;
        n.input_size = n.skip_input ? n.hidden_size : static_cast<int>(rng.integer(1, 40));
        n.data_type = trial < 4 ? CUDNN_DATA_HALF : trial == 4 || rng.coin() ? CUDNN_DATA_FLOAT : CUDNN_DATA_HALF;
        n.math_prec = n.data_type == CUDNN_DATA_HALF && rng.coin() ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
        if (n.algo != CUDNN_RNN_ALGO_STANDARD) n.algo = CUDNN_RNN_ALGO_PERSIST_STATIC;
        p.clipping = n.cell == CUDNN_LSTM && rng.coin();
        if (p.clipping) p.lclip = -rng.uniform(0.05, 0.4), p.rclip = rng.uniform(0.05, 0.4);
        p.max_seq_length = static_cast<int>(rng.integer(1, wide ? 4 : 9));
        random_lengths(rng,
                       trial < 4 ? (trial % 2 == 0 ? 1 : 8)
                       : wide    ? 3
                                 : rng.pick<int>({1, 2, 3, 4, 5, 8, 13, 16}),
                       &p);
        p.has_hy = rng.coin();
        p.has_cy = n.cell == CUDNN_LSTM && rng.coin();
        check_forward(rng, p);
    }
}

// Dropout between layers and LSTM cell clipping in training, on networks of 2 or 3 layers: the mask read back
// from the reserve space is the documented draw, and y, hy, cy match the reference given that mask.
TEST(Rnn, TrainingWithDropoutAndClippingMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 24; ++trial) {
        RnnProblem p = random_problem(rng);
        p.training = true;
        p.net.layers = static_cast<int>(rng.integer(2, 3));
        p.dropout = rng.pick<float>({0.2f, 0.5f, 0.8f, 1.0f});
        if (trial % 2 == 0) {
            p.net.cell = CUDNN_LSTM;
            p.clipping = true;
            p.lclip = -rng.uniform(0.05, 0.4);
            p.rclip = rng.uniform(0.05, 0.4);
            p.has_cx = p.has_cy = true;
        }
        check_forward(rng, p);
    }
}

// Each training forward counts one call in the dropout states and draws the next call's mask; inference
// and a one-layer network leave the states alone.
TEST(Rnn, EachTrainingForwardDrawsTheNextDropoutCall) {
    Handle handle;
    RnnProblem p;
    p.net.cell = CUDNN_GRU;
    p.net.input_size = 3;
    p.net.hidden_size = p.net.proj_size = 4;
    p.net.layers = 3;
    p.max_seq_length = 3;
    p.batch_size = 2;
    p.seq_lengths = {3, 2};
    p.training = true;
    p.dropout = 0.5f;
    RnnDropout dropout(handle, p.dropout, 42);
    RnnDescriptor desc(p, dropout);
    DataDescriptor x_desc(p, 3), y_desc(p, 4);
    size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
    ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, &weight_bytes), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetRNNTempSpaceSizes(handle, desc, CUDNN_FWD_MODE_TRAINING, x_desc, &work_bytes, &reserve_bytes),
              CUDNN_STATUS_SUCCESS);
    const auto zeros = [](size_t bytes) { return std::vector<uint8_t>(bytes + 4, 0); };
    DeviceBuffer x(zeros(256)), y(zeros(256)), w(zeros(weight_bytes)), work(zeros(work_bytes)),
        reserve(zeros(reserve_bytes));
    const DropoutState seeded = make_dropout_state(42);
    const uint32_t *key = seeded.key;
    auto forward = [&](cudnnForwardMode_t mode) {
        ASSERT_EQ(cudnnRNNForward(handle, desc, mode, p.seq_lengths.data(), x_desc, x.get(), y_desc, y.get(), nullptr,
                                  nullptr, nullptr, nullptr, nullptr, nullptr, weight_bytes, w.get(), work_bytes,
                                  work.get(), reserve_bytes, reserve.get()),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    };
    auto mask = [&]() {
        const std::vector<uint8_t> bytes = reserve.download();
        std::vector<double> factors;
        for (int64_t e = rnn_reserve_dropout_start(p); e < rnn_reserve_elements(p); ++e)
            factors.push_back(load_scalar(bytes.data(), CUDNN_DATA_FLOAT, e));
        return factors;
    };
    forward(CUDNN_FWD_MODE_TRAINING);
    EXPECT_EQ(dropout.state().calls, 1u);
    EXPECT_EQ(mask(), documented_dropout_factors(p, key, 0));
    forward(CUDNN_FWD_MODE_INFERENCE);
    EXPECT_EQ(dropout.state().calls, 1u);
    forward(CUDNN_FWD_MODE_TRAINING);
    EXPECT_EQ(dropout.state().calls, 2u);
    EXPECT_EQ(mask(), documented_dropout_factors(p, key, 1));
    EXPECT_NE(documented_dropout_factors(p, key, 0), documented_dropout_factors(p, key, 1));
}

// A NaN cell state stays NaN with CUDNN_PROPAGATE_NAN and becomes lclip with CUDNN_NOT_PROPAGATE_NAN: x
// holds NaN at sequence 0's last step, so its new c is NaN there, and cy shows what clipping made of it
// (sequence 1 is clipped as usual).
TEST(Rnn, ClipNanOptionDecidesTheCellState) {
    for (bool propagate : {false, true}) {
        SCOPED_TRACE(propagate ? "CUDNN_PROPAGATE_NAN" : "CUDNN_NOT_PROPAGATE_NAN");
        Handle handle;
        RnnProblem p;
        p.net.cell = CUDNN_LSTM;
        p.net.input_size = 2;
        p.net.hidden_size = p.net.proj_size = 3;
        p.max_seq_length = 2;
        p.batch_size = 2;
        p.seq_lengths = {2, 2};
        p.clipping = true;
        p.lclip = -0.25;
        p.rclip = 0.5;
        p.clip_propagate_nan = propagate;
        p.has_cy = true;
        RnnDescriptor desc(p);
        DataDescriptor x_desc(p, 2), y_desc(p, 3);
        StateDescriptor c_desc(p, 3);
        size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
        ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, &weight_bytes), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(
            cudnnGetRNNTempSpaceSizes(handle, desc, CUDNN_FWD_MODE_INFERENCE, x_desc, &work_bytes, &reserve_bytes),
            CUDNN_STATUS_SUCCESS);
        // Weights of 1 make every gate's input large: c leaves [lclip, rclip] where it is not NaN.
        std::vector<float> weights(weight_bytes / sizeof(float), 1.0f);
        std::vector<float> x_values = {1.0f, 1.0f, 1.0f, 1.0f, std::numeric_limits<float>::quiet_NaN(),
                                       1.0f, 1.0f, 1.0f};
        DeviceBuffer x(bytes_of(x_values)), y(std::vector<uint8_t>(64, 0)), w(bytes_of(weights)),
            cy(std::vector<uint8_t>(sizeof(float) * 6, 0)), work(std::vector<uint8_t>(work_bytes + 4, 0));
        ASSERT_EQ(cudnnRNNForward(handle, desc, CUDNN_FWD_MODE_INFERENCE, p.seq_lengths.data(), x_desc, x.get(), y_desc,
                                  y.get(), c_desc, nullptr, nullptr, c_desc, nullptr, cy.get(), weight_bytes, w.get(),
                                  work_bytes, work.get(), 0, nullptr),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        const std::vector<float> got = values_of<float>(cy.download());
        for (int i = 0; i < 3; ++i) {
            if (propagate) {
                EXPECT_TRUE(std::isnan(got[i])) << "cy[0][" << i << "] is " << got[i];
            } else {
                EXPECT_EQ(got[i], -0.25f) << "cy[0][" << i << "]";
            }
            EXPECT_EQ(got[3 + i], 0.5f) << "cy[1][" << i << "]";
        }
    }
}

// Every matrix and bias is addressed once, none overlaps another, all lie inside the weight space, and
// their descriptors have cuDNN's 3-d shapes; the absent ones get NULL.
TEST(RnnWeights, EveryMatrixAndBiasOnceInsideTheWeightSpace) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 60; ++trial) {
        const RnnProblem p = random_problem(rng);
        SCOPED_TRACE(to_problem_string(p).to_string());
        const RnnNetwork &n = p.net;
        RnnDescriptor desc(p);
        size_t bytes = 0;
        ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, &bytes), CUDNN_STATUS_SUCCESS);
        std::vector<int> owner(bytes, -1);
        std::vector<uint8_t> space(bytes);
        TensorDescriptorHandle m_desc, b_desc;
        int entry = 0;
        size_t covered = 0;
        for (int pl = 0; pl < n.pseudo_layers(); ++pl)
            for (int id = 0; id < n.lin_layer_ids(); ++id) {
                void *m = nullptr, *b = nullptr;
                ASSERT_EQ(cudnnGetRNNWeightParams(handle, desc, pl, bytes, space.data(), id, m_desc, &m, b_desc, &b),
                          CUDNN_STATUS_SUCCESS);
                const int g = n.gates();
                const bool matrix_expected = !(n.skip_input && pl < n.directions() && id < g);
                const bool bias_expected = id < 2 * g && (n.bias_mode == CUDNN_RNN_DOUBLE_BIAS ||
                                                          (n.bias_mode == CUDNN_RNN_SINGLE_INP_BIAS && id < g) ||
                                                          (n.bias_mode == CUDNN_RNN_SINGLE_REC_BIAS && id >= g));
                EXPECT_EQ(m != nullptr, matrix_expected) << "pseudo-layer " << pl << " id " << id;
                EXPECT_EQ(b != nullptr, bias_expected) << "pseudo-layer " << pl << " id " << id;
                for (auto [address, tensor, is_matrix] :
                     {std::make_tuple(m, m_desc.get(), true), std::make_tuple(b, b_desc.get(), false)}) {
                    if (address == nullptr) continue;
                    cudnnDataType_t t;
                    int nb = 0, dims[3], strides[3];
                    ASSERT_EQ(cudnnGetTensorNdDescriptor(tensor, 3, &t, &nb, dims, strides), CUDNN_STATUS_SUCCESS);
                    EXPECT_EQ(nb, 3);
                    EXPECT_EQ(t, n.data_type);
                    EXPECT_EQ(dims[0], 1);
                    const int rows = id == 2 * g ? n.proj_size : n.hidden_size;
                    const int cols = !is_matrix   ? 1
                                     : id < g     ? n.layer_input_size(pl)
                                     : id < 2 * g ? n.proj_size
                                                  : n.hidden_size;
                    EXPECT_EQ(dims[1], rows);
                    EXPECT_EQ(dims[2], cols);
                    const size_t begin = static_cast<size_t>(static_cast<uint8_t *>(address) - space.data());
                    const size_t size = static_cast<size_t>(rows) * cols * data_type_size(n.data_type);
                    ASSERT_LE(begin + size, bytes);
                    for (size_t i = begin; i < begin + size; ++i) {
                        ASSERT_EQ(owner[i], -1) << "byte " << i << " belongs to two entries";
                        owner[i] = entry;
                    }
                    covered += size;
                    ++entry;
                }
            }
        EXPECT_EQ(covered, bytes) << "the weight space holds bytes no matrix or bias uses";
    }
}

// The weight-space layout NVIDIA's cuDNN 9.19 gives for the same descriptors (tools/probes/
// rnn_weights_probe.cpp, bench/results/2026-12-01-h200-rnn-weights-probe/): every matrix first, pseudo-layer
// by pseudo-layer, then every bias. Offsets in elements.
TEST(RnnWeights, LayoutIsNvidias) {
    struct Expected {
        int pseudo_layer, id;
        long long matrix, bias;  // -1: NULL
    };
    struct Case {
        cudnnRNNMode_t cell;
        cudnnRNNBiasMode_t bias;
        bool bidirectional, skip;
        int input, hidden, proj, layers;
        size_t bytes;
        std::vector<Expected> entries;
    };
    const Case cases[] = {
        {CUDNN_LSTM,
         CUDNN_RNN_DOUBLE_BIAS,
         true,
         false,
         5,
         4,
         4,
         2,
         3200,
         {{0, 0, 0, 672}, {0, 7, 128, 700}, {0, 8, -1, -1}, {1, 0, 144, 704}, {2, 0, 288, 736}, {3, 7, 656, 796}}},
        {CUDNN_LSTM,
         CUDNN_RNN_DOUBLE_BIAS,
         false,
         false,
         5,
         4,
         3,
         2,
         1248,
         {{0, 4, 80, 264}, {0, 8, 128, -1}, {1, 0, 140, 280}, {1, 8, 236, -1}}},
        {CUDNN_GRU, CUDNN_RNN_SINGLE_INP_BIAS, false, false, 3, 6, 6, 1, 720, {{0, 2, 36, 174}, {0, 3, 54, -1}}},
        {CUDNN_RNN_RELU,
         CUDNN_RNN_DOUBLE_BIAS,
         false,
         true,
         5,
         5,
         5,
         2,
         380,
         {{0, 0, -1, 75}, {0, 1, 0, 80}, {1, 0, 25, 85}, {1, 1, 50, 90}}},
    };
    Handle handle;
    for (const Case &c : cases) {
        RnnProblem p;
        p.net.cell = c.cell;
        p.net.bias_mode = c.bias;
        p.net.bidirectional = c.bidirectional;
        p.net.skip_input = c.skip;
        p.net.input_size = c.input;
        p.net.hidden_size = c.hidden;
        p.net.proj_size = c.proj;
        p.net.layers = c.layers;
        RnnDescriptor desc(p);
        size_t bytes = 0;
        ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, &bytes), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(bytes, c.bytes);
        std::vector<float> space(bytes / sizeof(float) + 1);
        for (const Expected &e : c.entries) {
            void *m = nullptr, *b = nullptr;
            ASSERT_EQ(cudnnGetRNNWeightParams(handle, desc, e.pseudo_layer, bytes, space.data(), e.id, nullptr, &m,
                                              nullptr, &b),
                      CUDNN_STATUS_SUCCESS)
                << last_failure_reason();
            const auto at = [&](void *address) {
                return address ? static_cast<long long>(static_cast<float *>(address) - space.data()) : -1LL;
            };
            EXPECT_EQ(at(m), e.matrix) << "pseudo-layer " << e.pseudo_layer << " linLayerID " << e.id;
            EXPECT_EQ(at(b), e.bias) << "pseudo-layer " << e.pseudo_layer << " linLayerID " << e.id;
        }
    }
}

TEST(RnnRejects, DocumentedMisuse) {
    Handle handle;
    RnnProblem p;
    p.net.cell = CUDNN_LSTM;
    p.net.input_size = 3;
    p.net.hidden_size = p.net.proj_size = 4;
    p.net.layers = 2;
    p.max_seq_length = 3;
    p.batch_size = 2;
    p.seq_lengths = {3, 2};
    p.training = true;
    RnnDescriptor desc(p);
    DataDescriptor x_desc(p, 3), y_desc(p, 4), wrong_y(p, 5), wrong_x(p, 2);
    RnnProblem shorter = p;
    shorter.seq_lengths = {3, 1};
    DataDescriptor other_lengths(shorter, 4);
    StateDescriptor h_desc(p, 4, CUDNN_DATA_FLOAT), bad_h(p, 3, CUDNN_DATA_FLOAT);
    size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
    ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, &weight_bytes), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetRNNTempSpaceSizes(handle, desc, CUDNN_FWD_MODE_TRAINING, x_desc, &work_bytes, &reserve_bytes),
              CUDNN_STATUS_SUCCESS);
    // Device memory on the CUDA backend: the calls expected to succeed run.
    const auto zeros = [](size_t bytes) { return std::vector<uint8_t>(bytes + 4, 0); };
    DeviceBuffer x(zeros(256)), y(zeros(256)), h(zeros(256)), w(zeros(weight_bytes)), work(zeros(work_bytes)),
        reserve(zeros(reserve_bytes));
    const int32_t lengths[2] = {3, 2};
    auto forward = [&](cudnnRNNDataDescriptor_t xd, cudnnRNNDataDescriptor_t yd, cudnnTensorDescriptor_t hd,
                       const int32_t *dev, size_t wb, size_t kb, size_t rb) {
        return cudnnRNNForward(handle, desc, CUDNN_FWD_MODE_TRAINING, dev, xd, x.get(), yd, y.get(), hd, h.get(),
                               nullptr, nullptr, nullptr, nullptr, wb, w.get(), kb, work.get(), rb, reserve.get());
    };
    EXPECT_EQ(forward(x_desc, y_desc, h_desc, lengths, weight_bytes, work_bytes, reserve_bytes), CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    forward(x_desc, wrong_y, h_desc, lengths, weight_bytes, work_bytes, reserve_bytes), "vectorSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    forward(wrong_x, y_desc, h_desc, lengths, weight_bytes, work_bytes, reserve_bytes), "inputSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    forward(x_desc, other_lengths, h_desc, lengths, weight_bytes, work_bytes, reserve_bytes),
                    "the lengths must be the same");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    forward(x_desc, y_desc, bad_h, lengths, weight_bytes, work_bytes, reserve_bytes), "hDesc");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    forward(x_desc, y_desc, h_desc, nullptr, weight_bytes, work_bytes, reserve_bytes), "devSeqLengths");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    forward(x_desc, y_desc, h_desc, lengths, weight_bytes - 4, work_bytes, reserve_bytes),
                    "weightSpaceSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    forward(x_desc, y_desc, h_desc, lengths, weight_bytes, work_bytes - 4, reserve_bytes),
                    "workSpaceSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    forward(x_desc, y_desc, h_desc, lengths, weight_bytes, work_bytes, reserve_bytes - 4),
                    "reserveSpaceSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNForward(handle, desc, CUDNN_FWD_MODE_INFERENCE, lengths, x_desc, nullptr, y_desc, y.get(),
                                    h_desc, nullptr, nullptr, nullptr, nullptr, nullptr, weight_bytes, w.get(),
                                    work_bytes, work.get(), 0, nullptr),
                    "x is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNForward(handle, desc, static_cast<cudnnForwardMode_t>(7), lengths, x_desc, x.get(), y_desc,
                                    y.get(), h_desc, nullptr, nullptr, nullptr, nullptr, nullptr, weight_bytes, w.get(),
                                    work_bytes, work.get(), 0, nullptr),
                    "fwdMode");
    void *m = nullptr, *b = nullptr;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNWeightParams(handle, desc, 2, weight_bytes, w.get(), 0, nullptr, &m, nullptr, &b),
                    "pseudoLayer is 2");
    // linLayerID 8 of an LSTM without a projection: SUCCESS and NULL addresses, as NVIDIA's library answers
    // (bench/results/2026-12-01-h200-rnn-weights-probe/); 9 is past every cell.
    m = b = reinterpret_cast<void *>(0x1);
    EXPECT_EQ(cudnnGetRNNWeightParams(handle, desc, 0, weight_bytes, w.get(), 8, nullptr, &m, nullptr, &b),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(m, nullptr);
    EXPECT_EQ(b, nullptr);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNWeightParams(handle, desc, 0, weight_bytes, w.get(), 9, nullptr, &m, nullptr, &b),
                    "linLayerID is 9");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNWeightParams(handle, desc, 0, weight_bytes - 1, w.get(), 0, nullptr, &m, nullptr, &b),
                    "weightSpaceSize");
    size_t size = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNWeightSpaceSize(handle, nullptr, &size), "rnnDesc is NULL");
}

TEST(RnnProblemString, RoundTrips) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial) {
        const RnnProblem p = random_problem(rng);
        const ProblemString text = to_problem_string(p);
        RnnProblem back;
        std::string error;
        ASSERT_TRUE(parse_rnn_problem(text, &back, &error)) << text.to_string() << ": " << error;
        EXPECT_EQ(to_problem_string(back).to_string(), text.to_string());
        EXPECT_EQ(back.clipping, p.clipping);
        EXPECT_EQ(back.lclip, p.lclip);
        EXPECT_EQ(back.rclip, p.rclip);
        EXPECT_EQ(back.clip_propagate_nan, p.clip_propagate_nan);
        EXPECT_EQ(back.dropout, p.dropout);
    }
}

TEST(RnnProblemString, ClipKeysParseAndRejectBadValues) {
    const auto parse = [](const char *text, RnnProblem *p, std::string *error) {
        ProblemString string;
        return ProblemString::parse(text, &string, error) && parse_rnn_problem(string, p, error);
    };
    RnnProblem p;
    std::string error;
    ASSERT_TRUE(parse("op=rnn cell=lstm clip=yes lclip=-0.5 rclip=0.25 clip_nan=propagate", &p, &error)) << error;
    EXPECT_TRUE(p.clipping);
    EXPECT_EQ(p.lclip, -0.5);
    EXPECT_EQ(p.rclip, 0.25);
    EXPECT_TRUE(p.clip_propagate_nan);
    EXPECT_FALSE(parse("op=rnn clip=yes lclip=1 rclip=0", &p, &error));
    EXPECT_FALSE(parse("op=rnn clip=yes clip_nan=sometimes", &p, &error));
}

}  // namespace
