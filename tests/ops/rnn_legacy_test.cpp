// The legacy RNN API (cudnnRNNForwardInference, ...Training, ...BackwardData, ...BackwardWeights, their Ex
// variants, the size and LinLayer calls, Find) against the v8 API on the same weights: the same problems on
// the same solvers must give the same bits. Random small networks (every cell, one and two directions, 1 and
// 2 layers, linear and skip input, the four bias modes, the LSTM projection through
// cudnnSetRNNProjectionLayers, float, double and half), the legacy descriptor set by cudnnSetRNNDescriptor_v6
// or _v8, the steps' batches shrinking; the Ex calls on random layouts. Backward weights adds into dw (the
// v8 call's CUDNN_WGRAD_MODE_ADD). A persistent plan (CUDNN_RNN_ALGO_PERSIST_DYNAMIC) changes no bit. Then the
// rejections. On a backend whose v8 calls answer NOT_SUPPORTED (the CUDA backend until it has an RNN solver)
// the legacy calls must answer the same, and the rest skips.
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/rnn/problem.hpp"
#include "rnn_test_util.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include "core/data_type.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace librednn;
using namespace librednn::test;

// A random network and a legacy input: p.layout is packed, its lengths follow from `batches`.
struct LegacyCase {
    RnnProblem p;
    std::vector<int> batches;  // batch of each step, never growing
    bool v6 = false;           // the legacy calls get a descriptor set by cudnnSetRNNDescriptor_v6
};

LegacyCase random_case(Random &rng) {
    LegacyCase c;
    RnnProblem &p = c.p;
    RnnNetwork &n = p.net;
    n.cell = rng.pick<cudnnRNNMode_t>({CUDNN_RNN_RELU, CUDNN_RNN_TANH, CUDNN_LSTM, CUDNN_GRU});
    n.bidirectional = rng.coin();
    n.layers = static_cast<int>(rng.integer(1, 2));
    n.hidden_size = static_cast<int>(rng.integer(1, 5));
    n.skip_input = rng.integer(0, 3) == 0;
    n.input_size = n.skip_input ? n.hidden_size : static_cast<int>(rng.integer(1, 5));
    n.proj_size = n.cell == CUDNN_LSTM && n.hidden_size > 1 && rng.coin()
                      ? static_cast<int>(rng.integer(1, n.hidden_size - 1))
                      : n.hidden_size;
    n.bias_mode = rng.pick<cudnnRNNBiasMode_t>(
        {CUDNN_RNN_NO_BIAS, CUDNN_RNN_SINGLE_INP_BIAS, CUDNN_RNN_DOUBLE_BIAS, CUDNN_RNN_SINGLE_REC_BIAS});
    n.data_type = rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF});
    n.math_prec = n.data_type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    c.v6 = rng.coin();
    p.training = true;
    p.layout = CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED;
    p.max_seq_length = static_cast<int>(rng.integer(1, 4));
    int batch = static_cast<int>(rng.integer(1, 3));
    for (int t = 0; t < p.max_seq_length; ++t) {
        c.batches.push_back(batch);
        batch = std::max(1, batch - static_cast<int>(rng.integer(0, 1)));
    }
    p.batch_size = c.batches[0];
    p.seq_lengths.assign(static_cast<size_t>(p.batch_size), 0);
    for (int b : c.batches)
        for (int i = 0; i < b; ++i) ++p.seq_lengths[static_cast<size_t>(i)];
    p.has_hx = p.has_hy = rng.coin();
    p.has_cx = p.has_cy = n.cell == CUDNN_LSTM && rng.coin();
    return c;
}

// The RNN descriptor the legacy calls get: the v8 one, or one set the legacy way (cudnnSetRNNDescriptor_v6,
// then the bias mode and the projection), which learns inputSize and the data type from xDesc.
class LegacyRnnDescriptor {
public:
    explicit LegacyRnnDescriptor(const LegacyCase &c) {
        const RnnNetwork &n = c.p.net;
        if (!c.v6) {
            v8_ = std::make_unique<RnnDescriptor>(n);
            return;
        }
        Handle handle;
        EXPECT_EQ(cudnnCreateRNNDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetRNNDescriptor_v6(handle, desc_, n.hidden_size, n.layers, nullptr,
                                           n.skip_input ? CUDNN_SKIP_INPUT : CUDNN_LINEAR_INPUT,
                                           n.bidirectional ? CUDNN_BIDIRECTIONAL : CUDNN_UNIDIRECTIONAL, n.cell, n.algo,
                                           n.math_prec),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        EXPECT_EQ(cudnnSetRNNBiasMode(desc_, n.bias_mode), CUDNN_STATUS_SUCCESS) << last_failure_reason();
        if (n.projection()) {
            EXPECT_EQ(cudnnSetRNNProjectionLayers(handle, desc_, n.proj_size, 0), CUDNN_STATUS_SUCCESS)
                << last_failure_reason();
        }
    }
    ~LegacyRnnDescriptor() {
        if (desc_ != nullptr) cudnnDestroyRNNDescriptor(desc_);
    }
    LegacyRnnDescriptor(const LegacyRnnDescriptor &) = delete;
    LegacyRnnDescriptor &operator=(const LegacyRnnDescriptor &) = delete;
    operator cudnnRNNDescriptor_t() const { return v8_ ? static_cast<cudnnRNNDescriptor_t>(*v8_) : desc_; }

private:
    std::unique_ptr<RnnDescriptor> v8_;
    cudnnRNNDescriptor_t desc_ = nullptr;
};

// The legacy per-step descriptors: {batch_t, width, 1}, packed.
class StepDescriptors {
public:
    StepDescriptors(const LegacyCase &c, int width) {
        for (int batch : c.batches) {
            cudnnTensorDescriptor_t d = nullptr;
            EXPECT_EQ(cudnnCreateTensorDescriptor(&d), CUDNN_STATUS_SUCCESS);
            const int dims[3] = {batch, width, 1}, strides[3] = {width, 1, 1};
            EXPECT_EQ(cudnnSetTensorNdDescriptor(d, c.p.net.data_type, 3, dims, strides), CUDNN_STATUS_SUCCESS);
            descs_.push_back(d);
        }
    }
    ~StepDescriptors() {
        for (cudnnTensorDescriptor_t d : descs_) cudnnDestroyTensorDescriptor(d);
    }
    StepDescriptors(const StepDescriptors &) = delete;
    StepDescriptors &operator=(const StepDescriptors &) = delete;
    const cudnnTensorDescriptor_t *get() const { return descs_.data(); }
    cudnnTensorDescriptor_t operator[](size_t t) const { return descs_[t]; }

private:
    std::vector<cudnnTensorDescriptor_t> descs_;
};

// The weight space as the legacy API describes it: a 3-d filter {elements, 1, 1}.
class WeightFilter {
public:
    WeightFilter(cudnnDataType_t type, size_t bytes) {
        EXPECT_EQ(cudnnCreateFilterDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        const int dims[3] = {static_cast<int>(bytes / data_type_size(type)), 1, 1};
        EXPECT_EQ(cudnnSetFilterNdDescriptor(desc_, type, CUDNN_TENSOR_NCHW, 3, dims), CUDNN_STATUS_SUCCESS);
    }
    ~WeightFilter() { cudnnDestroyFilterDescriptor(desc_); }
    WeightFilter(const WeightFilter &) = delete;
    WeightFilter &operator=(const WeightFilter &) = delete;
    operator cudnnFilterDescriptor_t() const { return desc_; }

private:
    cudnnFilterDescriptor_t desc_ = nullptr;
};

std::vector<uint8_t> random_bytes(Random &rng, int64_t count, cudnnDataType_t type, double magnitude) {
    std::vector<uint8_t> bytes(static_cast<size_t>(std::max<int64_t>(count, 1)) * data_type_size(type), 0);
    for (int64_t i = 0; i < count; ++i) store_scalar(bytes.data(), type, i, rng.uniform(-magnitude, magnitude));
    return bytes;
}

std::vector<uint8_t> nan_bytes(int64_t count, cudnnDataType_t type) {
    return std::vector<uint8_t>(static_cast<size_t>(std::max<int64_t>(count, 1)) * data_type_size(type), 0xff);
}

std::string describe(const LegacyCase &c) {
    std::string text = to_problem_string(c.p).to_string() + " batches";
    for (int b : c.batches) text += " " + std::to_string(b);
    return text + (c.v6 ? " (v6 descriptor)" : " (v8 descriptor)");
}

// The buffers of one run, all on the backend under test.
struct Buffers {
    Buffers(Random &rng, const RnnProblem &p, size_t weight_bytes, size_t work_bytes, size_t reserve_bytes) {
        const RnnNetwork &n = p.net;
        const cudnnDataType_t type = n.data_type;
        const int64_t hs = static_cast<int64_t>(n.pseudo_layers()) * p.batch_size * n.proj_size;
        const int64_t cs = static_cast<int64_t>(n.pseudo_layers()) * p.batch_size * n.hidden_size;
        const int64_t xs = rnn_data_elements(p, n.input_size), ys = rnn_data_elements(p, p.y_size());
        w = random_bytes(rng, static_cast<int64_t>(weight_bytes / data_type_size(type)), type, 0.5);
        x = random_bytes(rng, xs, type, 1.0);
        hx = random_bytes(rng, hs, type, 1.0);
        cx = random_bytes(rng, cs, type, 1.0);
        dy = random_bytes(rng, ys, type, 1.0);
        dhy = random_bytes(rng, hs, type, 1.0);
        dcy = random_bytes(rng, cs, type, 1.0);
        dw_start = random_bytes(rng, static_cast<int64_t>(weight_bytes / data_type_size(type)), type, 1.0);
        y = nan_bytes(ys, type);
        dx = nan_bytes(xs, type);
        h_out = nan_bytes(hs, type);
        c_out = nan_bytes(cs, type);
        work = std::vector<uint8_t>(work_bytes + 1, 0xff);
        reserve = std::vector<uint8_t>(reserve_bytes + 1, 0xff);
    }
    std::vector<uint8_t> w, x, hx, cx, dy, dhy, dcy, dw_start, y, dx, h_out, c_out, work, reserve;
};

// What a training forward, backward data and backward weights (ADD onto dw_start) leave.
struct Outputs {
    std::vector<uint8_t> y, hy, cy, dx, dhx, dcx, dw;
};

void expect_same(const Outputs &legacy, const Outputs &v8, const std::string &what) {
    EXPECT_TRUE(legacy.y == v8.y) << what << ": y differs";
    EXPECT_TRUE(legacy.hy == v8.hy) << what << ": hy differs";
    EXPECT_TRUE(legacy.cy == v8.cy) << what << ": cy differs";
    EXPECT_TRUE(legacy.dx == v8.dx) << what << ": dx differs";
    EXPECT_TRUE(legacy.dhx == v8.dhx) << what << ": dhx differs";
    EXPECT_TRUE(legacy.dcx == v8.dcx) << what << ": dcx differs";
    EXPECT_TRUE(legacy.dw == v8.dw) << what << ": dw differs";
}

// The v8 API on `p`'s layout: training forward, backward data, backward weights with `mode` onto dw_start.
Outputs run_v8(const RnnProblem &p, const Buffers &in, size_t weight_bytes, size_t work_bytes, size_t reserve_bytes,
               cudnnWgradMode_t mode = CUDNN_WGRAD_MODE_ADD) {
    Handle handle;
    RnnDescriptor desc(p.net);
    DataDescriptor x_desc(p, p.net.input_size, true), y_desc(p, p.y_size(), true);
    StateDescriptor h_desc(p, p.net.proj_size), c_desc(p, p.net.hidden_size);
    DeviceBuffer w(in.w), x(in.x), hx(in.hx), cx(in.cx), dy(in.dy), dhy(in.dhy), dcy(in.dcy), dw(in.dw_start), y(in.y),
        hy(in.h_out), cy(in.c_out), dx(in.dx), dhx(in.h_out), dcx(in.c_out), work(in.work), reserve(in.reserve);
    EXPECT_EQ(cudnnRNNForward(handle, desc, CUDNN_FWD_MODE_TRAINING, p.seq_lengths.data(), x_desc, x.get(), y_desc,
                              y.get(), h_desc, p.has_hx ? hx.get() : nullptr, p.has_hy ? hy.get() : nullptr, c_desc,
                              p.has_cx ? cx.get() : nullptr, p.has_cy ? cy.get() : nullptr, weight_bytes, w.get(),
                              work_bytes, work.get(), reserve_bytes, reserve.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_EQ(cudnnRNNBackwardData_v8(handle, desc, p.seq_lengths.data(), y_desc, y.get(), dy.get(), x_desc, dx.get(),
                                      h_desc, p.has_hx ? hx.get() : nullptr, p.has_hy ? dhy.get() : nullptr,
                                      p.has_hx ? dhx.get() : nullptr, c_desc, p.has_cx ? cx.get() : nullptr,
                                      p.has_cy ? dcy.get() : nullptr, p.has_cx ? dcx.get() : nullptr, weight_bytes,
                                      w.get(), work_bytes, work.get(), reserve_bytes, reserve.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_EQ(cudnnRNNBackwardWeights_v8(handle, desc, mode, p.seq_lengths.data(), x_desc, x.get(), h_desc,
                                         p.has_hx ? hx.get() : nullptr, y_desc, y.get(), weight_bytes, dw.get(),
                                         work_bytes, work.get(), reserve_bytes, reserve.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    return {y.download(), hy.download(), cy.download(), dx.download(), dhx.download(), dcx.download(), dw.download()};
}

// The legacy API with per-step descriptors, on the same inputs.
Outputs run_legacy(const LegacyCase &c, cudnnRNNDescriptor_t desc, const Buffers &in, size_t weight_bytes,
                   size_t work_bytes, size_t reserve_bytes) {
    const RnnProblem &p = c.p;
    Handle handle;
    StepDescriptors x_desc(c, p.net.input_size), y_desc(c, p.y_size());
    StateDescriptor h_desc(p, p.net.proj_size), c_desc(p, p.net.hidden_size);
    WeightFilter w_desc(p.net.data_type, weight_bytes);
    DeviceBuffer w(in.w), x(in.x), hx(in.hx), cx(in.cx), dy(in.dy), dhy(in.dhy), dcy(in.dcy), dw(in.dw_start), y(in.y),
        hy(in.h_out), cy(in.c_out), dx(in.dx), dhx(in.h_out), dcx(in.c_out), work(in.work), reserve(in.reserve);
    const int T = p.max_seq_length;
    EXPECT_EQ(cudnnRNNForwardTraining(handle, desc, T, x_desc.get(), x.get(), h_desc, p.has_hx ? hx.get() : nullptr,
                                      c_desc, p.has_cx ? cx.get() : nullptr, w_desc, w.get(), y_desc.get(), y.get(),
                                      h_desc, p.has_hy ? hy.get() : nullptr, c_desc, p.has_cy ? cy.get() : nullptr,
                                      work.get(), work_bytes, reserve.get(), reserve_bytes),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_EQ(
        cudnnRNNBackwardData(handle, desc, T, y_desc.get(), y.get(), y_desc.get(), dy.get(), h_desc,
                             p.has_hy ? dhy.get() : nullptr, c_desc, p.has_cy ? dcy.get() : nullptr, w_desc, w.get(),
                             h_desc, p.has_hx ? hx.get() : nullptr, c_desc, p.has_cx ? cx.get() : nullptr, x_desc.get(),
                             dx.get(), h_desc, p.has_hx ? dhx.get() : nullptr, c_desc, p.has_cx ? dcx.get() : nullptr,
                             work.get(), work_bytes, reserve.get(), reserve_bytes),
        CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_EQ(cudnnRNNBackwardWeights(handle, desc, T, x_desc.get(), x.get(), h_desc, p.has_hx ? hx.get() : nullptr,
                                      y_desc.get(), y.get(), work.get(), work_bytes, w_desc, dw.get(), reserve.get(),
                                      reserve_bytes),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    return {y.download(), hy.download(), cy.download(), dx.download(), dhx.download(), dcx.download(), dw.download()};
}

// cudnnRNNForwardInference with per-step descriptors: y, hy and cy.
Outputs run_legacy_inference(const LegacyCase &c, cudnnRNNDescriptor_t desc, const Buffers &in, size_t weight_bytes,
                             size_t work_bytes) {
    const RnnProblem &p = c.p;
    Handle handle;
    StepDescriptors x_desc(c, p.net.input_size), y_desc(c, p.y_size());
    StateDescriptor h_desc(p, p.net.proj_size), c_desc(p, p.net.hidden_size);
    WeightFilter w_desc(p.net.data_type, weight_bytes);
    DeviceBuffer w(in.w), x(in.x), hx(in.hx), cx(in.cx), work(in.work), y(in.y), hy(in.h_out), cy(in.c_out);
    EXPECT_EQ(cudnnRNNForwardInference(handle, desc, p.max_seq_length, x_desc.get(), x.get(), h_desc,
                                       p.has_hx ? hx.get() : nullptr, c_desc, p.has_cx ? cx.get() : nullptr, w_desc,
                                       w.get(), y_desc.get(), y.get(), h_desc, p.has_hy ? hy.get() : nullptr, c_desc,
                                       p.has_cy ? cy.get() : nullptr, work.get(), work_bytes),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    return {y.download(), hy.download(), cy.download(), {}, {}, {}, {}};
}

// The Ex calls with RNN data descriptors of `p`'s layout.
Outputs run_ex(const RnnProblem &p, cudnnRNNDescriptor_t desc, const Buffers &in, size_t weight_bytes,
               size_t work_bytes, size_t reserve_bytes) {
    Handle handle;
    DataDescriptor x_desc(p, p.net.input_size, true), y_desc(p, p.y_size(), true);
    StateDescriptor h_desc(p, p.net.proj_size), c_desc(p, p.net.hidden_size);
    WeightFilter w_desc(p.net.data_type, weight_bytes);
    DeviceBuffer w(in.w), x(in.x), hx(in.hx), cx(in.cx), dy(in.dy), dhy(in.dhy), dcy(in.dcy), dw(in.dw_start), y(in.y),
        hy(in.h_out), cy(in.c_out), dx(in.dx), dhx(in.h_out), dcx(in.c_out), work(in.work), reserve(in.reserve);
    EXPECT_EQ(cudnnRNNForwardTrainingEx(handle, desc, x_desc, x.get(), h_desc, p.has_hx ? hx.get() : nullptr, c_desc,
                                        p.has_cx ? cx.get() : nullptr, w_desc, w.get(), y_desc, y.get(), h_desc,
                                        p.has_hy ? hy.get() : nullptr, c_desc, p.has_cy ? cy.get() : nullptr, nullptr,
                                        nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, work.get(),
                                        work_bytes, reserve.get(), reserve_bytes),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_EQ(
        cudnnRNNBackwardDataEx(handle, desc, y_desc, y.get(), y_desc, dy.get(), nullptr, nullptr, h_desc,
                               p.has_hy ? dhy.get() : nullptr, c_desc, p.has_cy ? dcy.get() : nullptr, w_desc, w.get(),
                               h_desc, p.has_hx ? hx.get() : nullptr, c_desc, p.has_cx ? cx.get() : nullptr, x_desc,
                               dx.get(), h_desc, p.has_hx ? dhx.get() : nullptr, c_desc, p.has_cx ? dcx.get() : nullptr,
                               nullptr, nullptr, work.get(), work_bytes, reserve.get(), reserve_bytes),
        CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_EQ(
        cudnnRNNBackwardWeightsEx(handle, desc, x_desc, x.get(), h_desc, p.has_hx ? hx.get() : nullptr, y_desc, y.get(),
                                  work.get(), work_bytes, w_desc, dw.get(), reserve.get(), reserve_bytes),
        CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    return {y.download(), hy.download(), cy.download(), dx.download(), dhx.download(), dcx.download(), dw.download()};
}

// The v8 sizes of `p` on the backend under test; false (after checking that the legacy sizes answer the
// same NOT_SUPPORTED) where the backend has no RNN solver.
bool v8_sizes(const LegacyCase &c, cudnnRNNDescriptor_t legacy, size_t *weight_bytes, size_t *work_bytes,
              size_t *reserve_bytes) {
    Handle handle;
    RnnDescriptor desc(c.p.net);
    DataDescriptor x_desc(c.p, c.p.net.input_size);
    EXPECT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, weight_bytes), CUDNN_STATUS_SUCCESS);
    const cudnnStatus_t status =
        cudnnGetRNNTempSpaceSizes(handle, desc, CUDNN_FWD_MODE_TRAINING, x_desc, work_bytes, reserve_bytes);
    StepDescriptors steps(c, c.p.net.input_size);
    size_t legacy_work = 0, legacy_reserve = 0;
    const cudnnStatus_t legacy_work_status =
        cudnnGetRNNWorkspaceSize(handle, legacy, c.p.max_seq_length, steps.get(), &legacy_work);
    const cudnnStatus_t legacy_reserve_status =
        cudnnGetRNNTrainingReserveSize(handle, legacy, c.p.max_seq_length, steps.get(), &legacy_reserve);
    EXPECT_EQ(legacy_work_status, status) << last_failure_reason();
    EXPECT_EQ(legacy_reserve_status, status) << last_failure_reason();
    if (status == CUDNN_STATUS_NOT_SUPPORTED) return false;
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    EXPECT_EQ(legacy_work, *work_bytes);
    EXPECT_EQ(legacy_reserve, *reserve_bytes);
    return status == CUDNN_STATUS_SUCCESS;
}

TEST(RnnLegacy, SizesAndLinLayerParamsAreTheV8Ones) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 60; ++trial) {
        const LegacyCase c = random_case(rng);
        SCOPED_TRACE(describe(c));
        const RnnNetwork &n = c.p.net;
        RnnDescriptor v8(n);
        LegacyRnnDescriptor legacy(c);
        StepDescriptors steps(c, n.input_size);
        size_t weight_bytes = 0, params_bytes = 0;
        ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, v8, &weight_bytes), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnGetRNNParamsSize(handle, legacy, steps[0], &params_bytes, n.data_type), CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        EXPECT_EQ(params_bytes, weight_bytes);
        WeightFilter w_desc(n.data_type, weight_bytes);
        std::vector<uint8_t> space(weight_bytes);
        cudnnTensorDescriptor_t m_tensor = nullptr, b_tensor = nullptr;
        cudnnFilterDescriptor_t m_filter = nullptr, b_filter = nullptr;
        ASSERT_EQ(cudnnCreateTensorDescriptor(&m_tensor), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnCreateTensorDescriptor(&b_tensor), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnCreateFilterDescriptor(&m_filter), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnCreateFilterDescriptor(&b_filter), CUDNN_STATUS_SUCCESS);
        const int ids = n.cell == CUDNN_LSTM ? 9 : n.lin_layer_ids();
        for (int pl = 0; pl < n.pseudo_layers(); ++pl)
            for (int id = 0; id < ids; ++id) {
                SCOPED_TRACE("pseudo-layer " + std::to_string(pl) + " linLayerID " + std::to_string(id));
                void *m8 = nullptr, *b8 = nullptr, *m = nullptr, *b = nullptr;
                ASSERT_EQ(cudnnGetRNNWeightParams(handle, v8, pl, weight_bytes, space.data(), id, m_tensor, &m8,
                                                  b_tensor, &b8),
                          CUDNN_STATUS_SUCCESS);
                ASSERT_EQ(cudnnGetRNNLinLayerMatrixParams(handle, legacy, pl, steps[0], w_desc, space.data(), id,
                                                          m_filter, &m),
                          CUDNN_STATUS_SUCCESS)
                    << last_failure_reason();
                ASSERT_EQ(
                    cudnnGetRNNLinLayerBiasParams(handle, legacy, pl, steps[0], w_desc, space.data(), id, b_filter, &b),
                    CUDNN_STATUS_SUCCESS)
                    << last_failure_reason();
                EXPECT_EQ(m, m8);
                EXPECT_EQ(b, b8);
                // The filter has the v8 tensor's dims: {1, rows, cols}, NCHW, of the data type.
                for (auto [address, tensor, filter] :
                     {std::make_tuple(m, m_tensor, m_filter), std::make_tuple(b, b_tensor, b_filter)}) {
                    if (address == nullptr) continue;
                    cudnnDataType_t tensor_type, filter_type;
                    cudnnTensorFormat_t format;
                    int tensor_nb = 0, filter_nb = 0, tensor_dims[3], strides[3], filter_dims[3];
                    ASSERT_EQ(cudnnGetTensorNdDescriptor(tensor, 3, &tensor_type, &tensor_nb, tensor_dims, strides),
                              CUDNN_STATUS_SUCCESS);
                    ASSERT_EQ(cudnnGetFilterNdDescriptor(filter, 3, &filter_type, &format, &filter_nb, filter_dims),
                              CUDNN_STATUS_SUCCESS);
                    EXPECT_EQ(filter_nb, 3);
                    EXPECT_EQ(filter_type, n.data_type);
                    EXPECT_EQ(format, CUDNN_TENSOR_NCHW);
                    for (int d = 0; d < 3; ++d) EXPECT_EQ(filter_dims[d], tensor_dims[d]) << "dim " << d;
                }
            }
        cudnnDestroyTensorDescriptor(m_tensor);
        cudnnDestroyTensorDescriptor(b_tensor);
        cudnnDestroyFilterDescriptor(m_filter);
        cudnnDestroyFilterDescriptor(b_filter);
    }
}

// Forward inference, training, backward data and backward weights: the legacy calls and the v8 calls give the
// same bits; backward weights adds onto what dw holds, as the v8 call with CUDNN_WGRAD_MODE_ADD.
TEST(RnnLegacy, PassesMatchTheV8ApiBitForBit) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial) {
        const LegacyCase c = random_case(rng);
        const RnnProblem &p = c.p;
        SCOPED_TRACE(describe(c));
        LegacyRnnDescriptor legacy(c);
        size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
        if (!v8_sizes(c, legacy, &weight_bytes, &work_bytes, &reserve_bytes)) continue;
        const Buffers in(rng, p, weight_bytes, work_bytes, reserve_bytes);
        expect_same(run_legacy(c, legacy, in, weight_bytes, work_bytes, reserve_bytes),
                    run_v8(p, in, weight_bytes, work_bytes, reserve_bytes), "legacy training passes");

        // Inference: cudnnRNNForwardInference against the v8 inference forward.
        const Outputs legacy_inference = run_legacy_inference(c, legacy, in, weight_bytes, work_bytes);
        Handle handle;
        RnnDescriptor v8(p.net);
        DataDescriptor x_desc(p, p.net.input_size), y_desc(p, p.y_size());
        StateDescriptor h_desc(p, p.net.proj_size), c_desc(p, p.net.hidden_size);
        DeviceBuffer w(in.w), x(in.x), hx(in.hx), cx(in.cx), work(in.work), y8(in.y), hy8(in.h_out), cy8(in.c_out);
        ASSERT_EQ(cudnnRNNForward(handle, v8, CUDNN_FWD_MODE_INFERENCE, p.seq_lengths.data(), x_desc, x.get(), y_desc,
                                  y8.get(), h_desc, p.has_hx ? hx.get() : nullptr, p.has_hy ? hy8.get() : nullptr,
                                  c_desc, p.has_cx ? cx.get() : nullptr, p.has_cy ? cy8.get() : nullptr, weight_bytes,
                                  w.get(), work_bytes, work.get(), 0, nullptr),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        EXPECT_TRUE(legacy_inference.y == y8.download()) << "inference y differs";
        EXPECT_TRUE(legacy_inference.hy == hy8.download()) << "inference hy differs";
        EXPECT_TRUE(legacy_inference.cy == cy8.download()) << "inference cy differs";
    }
}

// A program written for CUDNN_RNN_ALGO_PERSIST_DYNAMIC, as NVIDIA's RNN sample: it makes a plan for its mini-batch
// and data type, attaches it, builds, and runs. No solver reads the plan: inference (and the training passes)
// give the bits of the same network under CUDNN_RNN_ALGO_STANDARD.
TEST(RnnLegacy, PersistentPlanRunsAsStandard) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 12; ++trial) {
        LegacyCase standard = random_case(rng);
        // The persistent algorithms take neither the projection nor a bias mode other than DOUBLE_BIAS.
        standard.p.net.proj_size = standard.p.net.hidden_size;
        standard.p.net.bias_mode = CUDNN_RNN_DOUBLE_BIAS;
        LegacyCase dynamic = standard;
        dynamic.p.net.algo = CUDNN_RNN_ALGO_PERSIST_DYNAMIC;
        SCOPED_TRACE(describe(dynamic));
        const RnnProblem &p = dynamic.p;
        LegacyRnnDescriptor standard_desc(standard), dynamic_desc(dynamic);
        size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
        if (!v8_sizes(dynamic, dynamic_desc, &weight_bytes, &work_bytes, &reserve_bytes)) continue;
        size_t standard_work = 0, standard_reserve = 0;
        ASSERT_TRUE(v8_sizes(standard, standard_desc, &weight_bytes, &standard_work, &standard_reserve));
        EXPECT_EQ(standard_work, work_bytes);
        EXPECT_EQ(standard_reserve, reserve_bytes);

        Handle handle;
        cudnnPersistentRNNPlan_t plan = nullptr;
        ASSERT_EQ(cudnnCreatePersistentRNNPlan(dynamic_desc, p.batch_size, p.net.data_type, &plan),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        ASSERT_EQ(cudnnSetPersistentRNNPlan(dynamic_desc, plan), CUDNN_STATUS_SUCCESS) << last_failure_reason();
        ASSERT_EQ(cudnnBuildRNNDynamic(handle, dynamic_desc, p.batch_size), CUDNN_STATUS_SUCCESS)
            << last_failure_reason();

        const Buffers in(rng, p, weight_bytes, work_bytes, reserve_bytes);
        const Outputs with_plan = run_legacy_inference(dynamic, dynamic_desc, in, weight_bytes, work_bytes);
        const Outputs without = run_legacy_inference(standard, standard_desc, in, weight_bytes, work_bytes);
        EXPECT_TRUE(with_plan.y == without.y) << "inference y differs";
        EXPECT_TRUE(with_plan.hy == without.hy) << "inference hy differs";
        EXPECT_TRUE(with_plan.cy == without.cy) << "inference cy differs";
        expect_same(run_legacy(dynamic, dynamic_desc, in, weight_bytes, work_bytes, reserve_bytes),
                    run_legacy(standard, standard_desc, in, weight_bytes, work_bytes, reserve_bytes),
                    "training passes with a persistent plan");
        EXPECT_EQ(cudnnDestroyPersistentRNNPlan(plan), CUDNN_STATUS_SUCCESS);
    }
}

// The Ex calls on every layout, with unequal lengths (0 included where the layout allows), against the v8 calls
// on the same RNN data descriptors.
TEST(RnnLegacy, ExPassesMatchTheV8ApiOnEveryLayout) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 30; ++trial) {
        LegacyCase c = random_case(rng);
        RnnProblem &p = c.p;
        p.layout = rng.pick<cudnnRNNDataLayout_t>({CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED,
                                                   CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED,
                                                   CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED});
        for (int &length : p.seq_lengths) length = static_cast<int>(rng.integer(0, p.max_seq_length));
        if (p.layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED)
            std::sort(p.seq_lengths.begin(), p.seq_lengths.end(), std::greater<int>());
        p.padding_fill = rng.pick<double>({0.0, -2.0});
        SCOPED_TRACE(describe(c));
        LegacyRnnDescriptor legacy(c);
        Handle handle;
        RnnDescriptor v8(p.net);
        DataDescriptor x_desc(p, p.net.input_size);
        size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
        ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, v8, &weight_bytes), CUDNN_STATUS_SUCCESS);
        const cudnnStatus_t sizes =
            cudnnGetRNNTempSpaceSizes(handle, v8, CUDNN_FWD_MODE_TRAINING, x_desc, &work_bytes, &reserve_bytes);
        const Buffers in(rng, p, weight_bytes, std::max<size_t>(work_bytes, 64), reserve_bytes);
        if (sizes == CUDNN_STATUS_NOT_SUPPORTED) {
            DataDescriptor y_desc(p, p.y_size());
            WeightFilter w_desc(p.net.data_type, weight_bytes);
            DeviceBuffer buffer(std::vector<uint8_t>(1 << 16));
            void *b = buffer.get();
            EXPECT_EQ(
                cudnnRNNForwardTrainingEx(handle, legacy, x_desc, b, nullptr, nullptr, nullptr, nullptr, w_desc, b,
                                          y_desc, b, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                          nullptr, nullptr, nullptr, nullptr, nullptr, b, 1 << 16, b, 1 << 16),
                CUDNN_STATUS_NOT_SUPPORTED);
            continue;
        }
        ASSERT_EQ(sizes, CUDNN_STATUS_SUCCESS) << last_failure_reason();
        expect_same(run_ex(p, legacy, in, weight_bytes, work_bytes, reserve_bytes),
                    run_v8(p, in, weight_bytes, work_bytes, reserve_bytes), "Ex passes");
    }
}

// Backward weights ADDS: what it leaves in dw is the start plus what the v8 call with SET writes.
TEST(RnnLegacy, BackwardWeightsAddsIntoDw) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 10; ++trial) {
        LegacyCase c = random_case(rng);
        c.p.net.data_type = c.p.net.math_prec = CUDNN_DATA_DOUBLE;
        SCOPED_TRACE(describe(c));
        LegacyRnnDescriptor legacy(c);
        size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
        if (!v8_sizes(c, legacy, &weight_bytes, &work_bytes, &reserve_bytes)) continue;
        const Buffers in(rng, c.p, weight_bytes, work_bytes, reserve_bytes);
        const std::vector<double> start = values_of<double>(in.dw_start);
        const std::vector<double> added =
            values_of<double>(run_legacy(c, legacy, in, weight_bytes, work_bytes, reserve_bytes).dw);
        const std::vector<double> set =
            values_of<double>(run_v8(c.p, in, weight_bytes, work_bytes, reserve_bytes, CUDNN_WGRAD_MODE_SET).dw);
        for (size_t i = 0; i < weight_bytes / sizeof(double); ++i)
            EXPECT_NEAR(added[i], start[i] + set[i], 1e-12 * (1 + std::fabs(start[i]) + std::fabs(set[i])))
                << "dw[" << i << "]";
    }
}

// Find runs each applicable solver once on the caller's buffers: the outputs are the call's, and each result
// names the descriptor's algorithm with a status, a time and the workspace.
TEST(RnnLegacy, FindTimesTheSolversAndComputesTheCall) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 6; ++trial) {
        const LegacyCase c = random_case(rng);
        const RnnProblem &p = c.p;
        SCOPED_TRACE(describe(c));
        LegacyRnnDescriptor legacy(c);
        Handle handle;
        int max_count = 0;
        ASSERT_EQ(cudnnGetRNNForwardInferenceAlgorithmMaxCount(handle, legacy, &max_count), CUDNN_STATUS_SUCCESS);
        EXPECT_GE(max_count, 1);
        for (auto count_of : {cudnnGetRNNForwardTrainingAlgorithmMaxCount, cudnnGetRNNBackwardDataAlgorithmMaxCount,
                              cudnnGetRNNBackwardWeightsAlgorithmMaxCount}) {
            int count = 0;
            EXPECT_EQ(count_of(handle, legacy, &count), CUDNN_STATUS_SUCCESS);
            EXPECT_EQ(count, max_count);
        }
        size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
        if (!v8_sizes(c, legacy, &weight_bytes, &work_bytes, &reserve_bytes)) continue;
        const Buffers in(rng, p, weight_bytes, work_bytes, reserve_bytes);
        StepDescriptors x_steps(c, p.net.input_size), y_steps(c, p.y_size());
        StateDescriptor h_desc(p, p.net.proj_size), c_desc(p, p.net.hidden_size);
        WeightFilter w_desc(p.net.data_type, weight_bytes);
        DeviceBuffer w(in.w), x(in.x), hx(in.hx), cx(in.cx), work(in.work), y(in.y), hy(in.h_out), cy(in.c_out),
            y_found(in.y), hy_found(in.h_out), cy_found(in.c_out);
        std::vector<cudnnAlgorithmPerformance_t> perf(static_cast<size_t>(max_count) + 1, nullptr);
        ASSERT_EQ(cudnnCreateAlgorithmPerformance(perf.data(), static_cast<int>(perf.size())), CUDNN_STATUS_SUCCESS);
        int returned = -1;
        ASSERT_EQ(cudnnFindRNNForwardInferenceAlgorithmEx(
                      handle, legacy, p.max_seq_length, x_steps.get(), x.get(), h_desc, p.has_hx ? hx.get() : nullptr,
                      c_desc, p.has_cx ? cx.get() : nullptr, w_desc, w.get(), y_steps.get(), y_found.get(), h_desc,
                      p.has_hy ? hy_found.get() : nullptr, c_desc, p.has_cy ? cy_found.get() : nullptr, 1.0f,
                      static_cast<int>(perf.size()), &returned, perf.data(), work.get(), work_bytes),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        ASSERT_GE(returned, 1);
        EXPECT_LE(returned, max_count);
        cudnnAlgorithmDescriptor_t algo_desc = nullptr;
        cudnnStatus_t status = CUDNN_STATUS_INTERNAL_ERROR;
        float time = -1;
        size_t memory = 0;
        ASSERT_EQ(cudnnGetAlgorithmPerformance(perf[0], &algo_desc, &status, &time, &memory), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(status, CUDNN_STATUS_SUCCESS);
        EXPECT_GE(time, 0.0f);
        EXPECT_LE(memory, work_bytes);
        cudnnAlgorithm_t algorithm;
        ASSERT_EQ(cudnnGetAlgorithmDescriptor(algo_desc, &algorithm), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(algorithm.algo.RNNAlgo, CUDNN_RNN_ALGO_STANDARD);
        ASSERT_EQ(cudnnRNNForwardInference(handle, legacy, p.max_seq_length, x_steps.get(), x.get(), h_desc,
                                           p.has_hx ? hx.get() : nullptr, c_desc, p.has_cx ? cx.get() : nullptr, w_desc,
                                           w.get(), y_steps.get(), y.get(), h_desc, p.has_hy ? hy.get() : nullptr,
                                           c_desc, p.has_cy ? cy.get() : nullptr, work.get(), work_bytes),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_TRUE(y.download() == y_found.download()) << "Find's y is not the call's";
        EXPECT_TRUE(hy.download() == hy_found.download()) << "Find's hy is not the call's";
        EXPECT_TRUE(cy.download() == cy_found.download()) << "Find's cy is not the call's";

        // Backward weights through Find adds once, as the call.
        const Outputs v8 = run_v8(p, in, weight_bytes, work_bytes, reserve_bytes);
        {
            StepDescriptors steps(c, p.net.input_size), outs(c, p.y_size());
            DeviceBuffer dw(in.dw_start), reserve(in.reserve), work2(in.work), y2(in.y);
            DeviceBuffer dy(in.dy), dx(in.dx), dhy(in.dhy), dcy(in.dcy), dhx(in.h_out), dcx(in.c_out);
            ASSERT_EQ(cudnnRNNForwardTraining(handle, legacy, p.max_seq_length, steps.get(), x.get(), h_desc,
                                              p.has_hx ? hx.get() : nullptr, c_desc, p.has_cx ? cx.get() : nullptr,
                                              w_desc, w.get(), outs.get(), y2.get(), h_desc, nullptr, c_desc, nullptr,
                                              work2.get(), work_bytes, reserve.get(), reserve_bytes),
                      CUDNN_STATUS_SUCCESS);
            ASSERT_EQ(cudnnFindRNNBackwardDataAlgorithmEx(
                          handle, legacy, p.max_seq_length, outs.get(), y2.get(), outs.get(), dy.get(), h_desc,
                          p.has_hy ? dhy.get() : nullptr, c_desc, p.has_cy ? dcy.get() : nullptr, w_desc, w.get(),
                          h_desc, p.has_hx ? hx.get() : nullptr, c_desc, p.has_cx ? cx.get() : nullptr, steps.get(),
                          dx.get(), h_desc, p.has_hx ? dhx.get() : nullptr, c_desc, p.has_cx ? dcx.get() : nullptr,
                          1.0f, 1, &returned, perf.data(), work2.get(), work_bytes, reserve.get(), reserve_bytes),
                      CUDNN_STATUS_SUCCESS)
                << last_failure_reason();
            ASSERT_EQ(cudnnFindRNNBackwardWeightsAlgorithmEx(
                          handle, legacy, p.max_seq_length, steps.get(), x.get(), h_desc, p.has_hx ? hx.get() : nullptr,
                          outs.get(), y2.get(), 1.0f, 1, &returned, perf.data(), work2.get(), work_bytes, w_desc,
                          dw.get(), reserve.get(), reserve_bytes),
                      CUDNN_STATUS_SUCCESS)
                << last_failure_reason();
            EXPECT_EQ(returned, 1);
            EXPECT_TRUE(dx.download() == v8.dx) << "Find's dx is not the call's";
            EXPECT_TRUE(dw.download() == v8.dw) << "Find's dw is not one ADD of the call's";
        }
        cudnnDestroyAlgorithmPerformance(perf.data(), static_cast<int>(perf.size()));
    }
}

// A small LSTM for the rejections: two layers, batches 2, 2, 1.
LegacyCase small_lstm() {
    LegacyCase c;
    RnnNetwork &n = c.p.net;
    n.cell = CUDNN_LSTM;
    n.layers = 2;
    n.input_size = 3;
    n.hidden_size = n.proj_size = 4;
    c.p.layout = CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED;
    c.p.max_seq_length = 3;
    c.p.batch_size = 2;
    c.batches = {2, 2, 1};
    c.p.seq_lengths = {3, 2};
    c.p.training = true;
    return c;
}

TEST(RnnLegacyRejects, DocumentedMisuse) {
    const LegacyCase c = small_lstm();
    const RnnProblem &p = c.p;
    Handle handle;
    RnnDescriptor desc(p.net);
    StepDescriptors x_steps(c, 3), y_steps(c, 4), wide_x(c, 5);
    LegacyCase growing = c;
    growing.batches = {1, 2, 2};
    StepDescriptors growing_x(growing, 3);
    LegacyCase other = c;
    other.batches = {2, 1, 1};
    StepDescriptors other_y(other, 4);
    StateDescriptor h_desc(p, 4), bad_h(p, 3);
    size_t weight_bytes = 0, size = 0;
    ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, &weight_bytes), CUDNN_STATUS_SUCCESS);
    WeightFilter w_desc(CUDNN_DATA_FLOAT, weight_bytes), small_w(CUDNN_DATA_FLOAT, weight_bytes - 4),
        double_w(CUDNN_DATA_DOUBLE, 2 * weight_bytes);

    // Sizes and weights: these answer on every backend.
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNWorkspaceSize(handle, desc, 0, x_steps.get(), &size),
                    "seqLength is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNWorkspaceSize(handle, desc, 3, nullptr, &size), "xDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNTrainingReserveSize(handle, desc, 3, growing_x.get(), &size),
                    "may only shrink");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNTrainingReserveSize(handle, desc, 3, wide_x.get(), &size),
                    "inputSize is 3");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNParamsSize(handle, desc, x_steps[0], &size, CUDNN_DATA_DOUBLE),
                    "dataType");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetRNNParamsSize(handle, nullptr, x_steps[0], &size, CUDNN_DATA_FLOAT),
                    "rnnDesc is NULL");
    std::vector<float> space(weight_bytes / 4 + 1);
    cudnnFilterDescriptor_t lin = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&lin), CUDNN_STATUS_SUCCESS);
    void *address = nullptr;
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnGetRNNLinLayerMatrixParams(handle, desc, 4, x_steps[0], w_desc, space.data(), 0, lin, &address),
        "pseudoLayer is 4");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNLinLayerBiasParams(handle, desc, 0, x_steps[0], w_desc, space.data(), 9, lin, &address),
                    "linLayerID is 9");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnGetRNNLinLayerMatrixParams(handle, desc, 0, x_steps[0], small_w, space.data(), 0, lin, &address),
        "cudnnGetRNNParamsSize");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnGetRNNLinLayerMatrixParams(handle, desc, 0, x_steps[0], double_w, space.data(), 0, lin, &address),
        "wDesc holds");
    cudnnDestroyFilterDescriptor(lin);

    // A descriptor set by cudnnSetRNNDescriptor_v6 takes the data's type, if its mathPrec computes it.
    cudnnRNNDescriptor_t v6 = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&v6), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetRNNDescriptor_v6(handle, v6, 4, 2, nullptr, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL, CUDNN_LSTM,
                                       CUDNN_RNN_ALGO_STANDARD, CUDNN_DATA_DOUBLE),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnGetRNNParamsSize(handle, v6, x_steps[0], &size, CUDNN_DATA_FLOAT),
                    "mathPrec");

    // Persistent plans: only for CUDNN_RNN_ALGO_PERSIST_DYNAMIC (tests/api/rnn_persistent_plan_test.cpp has the
    // rest, and RnnLegacy.PersistentPlanRunsAsStandard a program that uses one).
    cudnnPersistentRNNPlan_t plan = nullptr;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(desc, 2, CUDNN_DATA_FLOAT, &plan),
                    "PERSIST_DYNAMIC only");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(desc, 0, CUDNN_DATA_FLOAT, &plan),
                    "minibatch is 0");
    EXPECT_EQ(plan, nullptr);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnBuildRNNDynamic(handle, desc, 2), "PERSIST_DYNAMIC only");
    cudnnRNNDescriptor_t dynamic = nullptr;
    ASSERT_EQ(cudnnCreateRNNDescriptor(&dynamic), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetRNNDescriptor_v6(handle, dynamic, 4, 1, nullptr, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL,
                                       CUDNN_LSTM, CUDNN_RNN_ALGO_PERSIST_DYNAMIC, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePersistentRNNPlan(dynamic, 2, CUDNN_DATA_FLOAT, nullptr),
                    "plan is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPersistentRNNPlan(dynamic, nullptr), "plan is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnBuildRNNDynamic(handle, dynamic, 0), "miniBatch is 0");
    EXPECT_EQ(cudnnDestroyPersistentRNNPlan(nullptr), CUDNN_STATUS_SUCCESS);

    // cudnnSetRNNAlgorithmDescriptor sets the descriptor's algorithm, with the v8 setter's rules.
    cudnnAlgorithmDescriptor_t algo = nullptr;
    ASSERT_EQ(cudnnCreateAlgorithmDescriptor(&algo), CUDNN_STATUS_SUCCESS);
    cudnnAlgorithm_t value;
    value.algo.RNNAlgo = CUDNN_RNN_ALGO_PERSIST_STATIC;
    ASSERT_EQ(cudnnSetAlgorithmDescriptor(algo, value), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetRNNAlgorithmDescriptor(handle, v6, algo), CUDNN_STATUS_SUCCESS) << last_failure_reason();
    int hidden = 0, layers = 0;
    cudnnDropoutDescriptor_t dropout = nullptr;
    cudnnRNNInputMode_t input_mode;
    cudnnDirectionMode_t direction;
    cudnnRNNMode_t cell;
    cudnnRNNAlgo_t read_algo = CUDNN_RNN_ALGO_STANDARD;
    cudnnDataType_t math;
    ASSERT_EQ(cudnnGetRNNDescriptor_v6(handle, v6, &hidden, &layers, &dropout, &input_mode, &direction, &cell,
                                       &read_algo, &math),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(read_algo, CUDNN_RNN_ALGO_PERSIST_STATIC);
    ASSERT_EQ(cudnnSetRNNBiasMode(desc, CUDNN_RNN_NO_BIAS), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnSetRNNAlgorithmDescriptor(handle, desc, algo), "biasMode");
    ASSERT_EQ(cudnnSetRNNBiasMode(desc, CUDNN_RNN_DOUBLE_BIAS), CUDNN_STATUS_SUCCESS);
    cudnnDestroyAlgorithmDescriptor(algo);
    cudnnDestroyRNNDescriptor(dynamic);
    cudnnDestroyRNNDescriptor(v6);

    // The passes. Where the backend has no RNN solver they answer NOT_SUPPORTED once the arguments check out.
    size_t work_bytes = 0, reserve_bytes = 0;
    const cudnnStatus_t sizes = cudnnGetRNNWorkspaceSize(handle, desc, 3, x_steps.get(), &work_bytes);
    EXPECT_EQ(cudnnGetRNNTrainingReserveSize(handle, desc, 3, x_steps.get(), &reserve_bytes), sizes);
    const size_t room = 1 << 20;
    DeviceBuffer buffer{std::vector<uint8_t>(room)}, work{std::vector<uint8_t>(room)},
        reserve{std::vector<uint8_t>(room)};
    void *b = buffer.get();
    if (sizes == CUDNN_STATUS_SUCCESS) {
        ASSERT_LE(work_bytes, room);
        ASSERT_LE(reserve_bytes, room);
    } else {
        EXPECT_EQ(sizes, CUDNN_STATUS_NOT_SUPPORTED);
        work_bytes = reserve_bytes = room;
    }
    auto training = [&](int seq, const cudnnTensorDescriptor_t *xd, const cudnnTensorDescriptor_t *yd,
                        cudnnTensorDescriptor_t hd, cudnnFilterDescriptor_t wd, size_t kb, size_t rb) {
        return cudnnRNNForwardTraining(handle, desc, seq, xd, b, hd, b, h_desc, nullptr, wd, b, yd, b, h_desc, nullptr,
                                       h_desc, nullptr, work.get(), kb, reserve.get(), rb);
    };
    EXPECT_EQ(training(3, x_steps.get(), y_steps.get(), h_desc, w_desc, work_bytes, reserve_bytes), sizes)
        << last_failure_reason();
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    training(-1, x_steps.get(), y_steps.get(), h_desc, w_desc, work_bytes, reserve_bytes),
                    "seqLength is -1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    training(3, x_steps.get(), other_y.get(), h_desc, w_desc, work_bytes, reserve_bytes),
                    "they must be the same");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    training(3, x_steps.get(), x_steps.get(), h_desc, w_desc, work_bytes, reserve_bytes), "yDesc[0]");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    training(3, x_steps.get(), nullptr, h_desc, w_desc, work_bytes, reserve_bytes), "yDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    training(3, x_steps.get(), y_steps.get(), bad_h, w_desc, work_bytes, reserve_bytes), "hxDesc");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    training(3, x_steps.get(), y_steps.get(), h_desc, small_w, work_bytes, reserve_bytes), "wDesc");
    if (sizes == CUDNN_STATUS_SUCCESS) {
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                        training(3, x_steps.get(), y_steps.get(), h_desc, w_desc, work_bytes - 1, reserve_bytes),
                        "cudnnGetRNNWorkspaceSize");
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                        training(3, x_steps.get(), y_steps.get(), h_desc, w_desc, work_bytes, reserve_bytes - 1),
                        "cudnnGetRNNTrainingReserveSize");
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                        cudnnRNNBackwardWeights(handle, desc, 3, x_steps.get(), b, h_desc, nullptr, y_steps.get(), b,
                                                work.get(), work_bytes, w_desc, b, reserve.get(), reserve_bytes - 1),
                        "cudnnGetRNNTrainingReserveSize");
    }
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnRNNForwardInference(handle, desc, 3, x_steps.get(), nullptr, h_desc, nullptr, h_desc, nullptr, w_desc, b,
                                 y_steps.get(), b, h_desc, nullptr, h_desc, nullptr, work.get(), work_bytes),
        "x is NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnRNNBackwardData(handle, desc, 3, y_steps.get(), b, y_steps.get(), b, h_desc, nullptr, h_desc, nullptr,
                             w_desc, b, h_desc, nullptr, h_desc, nullptr, x_steps.get(), nullptr, h_desc, nullptr,
                             h_desc, nullptr, work.get(), work_bytes, reserve.get(), reserve_bytes),
        "dx is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRNNBackwardWeights(handle, desc, 3, x_steps.get(), b, h_desc, nullptr, y_steps.get(), b,
                                            work.get(), work_bytes, double_w, b, reserve.get(), reserve_bytes),
                    "dwDesc holds");

    // The Ex calls: cuDNN reserves the attention arguments.
    DataDescriptor x_data(p, 3), y_data(p, 4);
    int key = 0;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnRNNForwardInferenceEx(handle, desc, x_data, b, nullptr, nullptr, nullptr, nullptr, w_desc, b,
                                               y_data, b, nullptr, nullptr, nullptr, nullptr, nullptr, &key, nullptr,
                                               nullptr, nullptr, nullptr, nullptr, nullptr, work.get(), work_bytes),
                    "keys is not NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_NOT_SUPPORTED,
        cudnnRNNBackwardDataEx(handle, desc, y_data, b, y_data, b, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                               w_desc, b, nullptr, nullptr, nullptr, nullptr, x_data, b, nullptr, nullptr, nullptr,
                               nullptr, x_data, &key, work.get(), work_bytes, reserve.get(), reserve_bytes),
        "dkDesc is not NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnRNNForwardTrainingEx(handle, desc, y_data, b, nullptr, nullptr, nullptr, nullptr, w_desc, b, y_data, b,
                                  nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                  nullptr, nullptr, nullptr, work.get(), work_bytes, reserve.get(), reserve_bytes),
        "inputSize");

    // Find: a count below 1, or no results to write.
    int returned = 0;
    cudnnAlgorithmPerformance_t perf = nullptr;
    ASSERT_EQ(cudnnCreateAlgorithmPerformance(&perf, 1), CUDNN_STATUS_SUCCESS);
    auto find = [&](int requested, cudnnAlgorithmPerformance_t *results) {
        return cudnnFindRNNForwardInferenceAlgorithmEx(
            handle, desc, 3, x_steps.get(), b, h_desc, nullptr, h_desc, nullptr, w_desc, b, y_steps.get(), b, h_desc,
            nullptr, h_desc, nullptr, 1.0f, requested, &returned, results, work.get(), work_bytes);
    };
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, find(0, &perf), "requestedAlgoCount is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, find(1, nullptr), "perfResults is NULL");
    EXPECT_EQ(find(1, &perf), sizes) << last_failure_reason();
    cudnnDestroyAlgorithmPerformance(&perf, 1);
}

}  // namespace
