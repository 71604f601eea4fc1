// The RNN op tests' descriptors (tests/ops/rnn_test.cpp, rnn_backward_test.cpp), each destroyed at
// scope end: the v8 RNN descriptor of a network (with a problem's clipping and a dropout descriptor), a
// dropout descriptor with its states in the backend's memory, an RNN data descriptor of a problem, and the
// [layers * directions, batch, width] state descriptor; and the dropout factors the documentation
// (docs/RNN.md, "Dropout between layers") says a training forward draws.
#pragma once

#include "core/status.hpp"
#include "descriptors/dropout.hpp"
#include "op_test_util.hpp"
#include "ops/common/element_access.hpp"
#include "ops/rnn/problem.hpp"
#include "reference/rnn.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace librednn::test {

class RnnDescriptor {
public:
    explicit RnnDescriptor(const RnnNetwork &n, cudnnDropoutDescriptor_t dropout = nullptr) {
        EXPECT_EQ(cudnnCreateRNNDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetRNNDescriptor_v8(
                      desc_, n.algo, n.cell, n.bias_mode, n.bidirectional ? CUDNN_BIDIRECTIONAL : CUDNN_UNIDIRECTIONAL,
                      n.skip_input ? CUDNN_SKIP_INPUT : CUDNN_LINEAR_INPUT, n.data_type, n.math_prec, n.math_type,
                      n.input_size, n.hidden_size, n.proj_size, n.layers, dropout, CUDNN_RNN_PADDED_IO_ENABLED),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    }
    // The problem's network and clipping (the dropout probability is the dropout descriptor's).
    explicit RnnDescriptor(const RnnProblem &p, cudnnDropoutDescriptor_t dropout = nullptr)
        : RnnDescriptor(p.net, dropout) {
        if (p.clipping) {
            EXPECT_EQ(cudnnRNNSetClip_v8(desc_, CUDNN_RNN_CLIP_MINMAX,
                                         p.clip_propagate_nan ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN, p.lclip,
                                         p.rclip),
                      CUDNN_STATUS_SUCCESS)
                << last_failure_reason();
        }
    }
    ~RnnDescriptor() { cudnnDestroyRNNDescriptor(desc_); }
    RnnDescriptor(const RnnDescriptor &) = delete;
    RnnDescriptor &operator=(const RnnDescriptor &) = delete;
    operator cudnnRNNDescriptor_t() const { return desc_; }

private:
    cudnnRNNDescriptor_t desc_ = nullptr;
};

// A dropout descriptor of `probability` whose states (in the backend's memory) start from `seed`.
class RnnDropout {
public:
    RnnDropout(cudnnHandle_t handle, float probability, unsigned long long seed)
        : probability_(probability), seed_(seed), states_(std::vector<uint8_t>(kDropoutStatesSize, 0)) {
        EXPECT_EQ(cudnnCreateDropoutDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        reset(handle);
    }
    ~RnnDropout() { cudnnDestroyDropoutDescriptor(desc_); }
    RnnDropout(const RnnDropout &) = delete;
    RnnDropout &operator=(const RnnDropout &) = delete;
    operator cudnnDropoutDescriptor_t() const { return desc_; }

    // The states as cudnnSetDropoutDescriptor leaves them: no call counted yet.
    void reset(cudnnHandle_t handle) {
        EXPECT_EQ(cudnnSetDropoutDescriptor(desc_, handle, probability_, states_.get(), kDropoutStatesSize, seed_),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    }
    DropoutState state() const {
        DropoutState state{};
        const std::vector<uint8_t> bytes = states_.download();
        std::memcpy(&state, bytes.data(), sizeof state);
        return state;
    }

private:
    float probability_;
    unsigned long long seed_;
    DeviceBuffer states_;
    cudnnDropoutDescriptor_t desc_ = nullptr;
};

// The dropout factors docs/RNN.md documents for the training forward that is call `call` of states with
// key `key`, [layers - 1][T][N][Y] (empty without dropout between layers): element (l, t, n, i) is number
// e = ((l * T + t) * N + n) * Y + i, kept when word e % 4 of Philox4x32-10 of the counter {lo32(e / 4),
// hi32(e / 4), lo32(call), hi32(call)} under the key is at least floor(p * 2^32); a kept element's factor is
// 1 / (1 - p) rounded to the compute type, a dropped one's 0. Written out here rather than taken from the
// library's own helper, so that a change of numbering shows.
inline std::vector<double> documented_dropout_factors(const RnnProblem &p, const uint32_t key[2], uint64_t call) {
    std::vector<double> factors;
    if (!p.dropout_between_layers()) return factors;
    const bool in_double = p.net.data_type == CUDNN_DATA_DOUBLE;
    const double scale =
        in_double ? 1.0 / (1.0 - static_cast<double>(p.dropout)) : static_cast<double>(1.0f / (1.0f - p.dropout));
    const uint64_t threshold = static_cast<uint64_t>(static_cast<double>(p.dropout) * 4294967296.0);
    const int T = p.max_seq_length, N = p.batch_size, Y = p.y_size();
    for (int l = 0; l + 1 < p.net.layers; ++l)
        for (int t = 0; t < T; ++t)
            for (int n = 0; n < N; ++n)
                for (int i = 0; i < Y; ++i) {
                    const uint64_t e = ((static_cast<uint64_t>(l) * T + t) * N + n) * Y + i, group = e / 4;
                    const Philox4x32 words =
                        philox4x32_10(Philox4x32{{static_cast<uint32_t>(group), static_cast<uint32_t>(group >> 32),
                                                  static_cast<uint32_t>(call), static_cast<uint32_t>(call >> 32)}},
                                      key[0], key[1]);
                    factors.push_back(words.word[e % 4] >= threshold ? scale : 0.0);
                }
    return factors;
}

// With `with_fill`, the problem's padding fill in the data type; else none (NULL).
class DataDescriptor {
public:
    DataDescriptor(const RnnProblem &p, int vector_size, bool with_fill = false) {
        EXPECT_EQ(cudnnCreateRNNDataDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        const double fill_double = p.padding_fill;
        const float fill_float = static_cast<float>(p.padding_fill);
        uint16_t fill_half = 0;
        store_scalar(&fill_half, CUDNN_DATA_HALF, 0, p.padding_fill);
        const void *fill = p.net.data_type == CUDNN_DATA_DOUBLE  ? static_cast<const void *>(&fill_double)
                           : p.net.data_type == CUDNN_DATA_FLOAT ? static_cast<const void *>(&fill_float)
                                                                 : &fill_half;
        EXPECT_EQ(
            cudnnSetRNNDataDescriptor(desc_, p.net.data_type, p.layout, p.max_seq_length, p.batch_size, vector_size,
                                      p.seq_lengths.data(), with_fill ? const_cast<void *>(fill) : nullptr),
            CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    }
    ~DataDescriptor() { cudnnDestroyRNNDataDescriptor(desc_); }
    DataDescriptor(const DataDescriptor &) = delete;
    DataDescriptor &operator=(const DataDescriptor &) = delete;
    operator cudnnRNNDataDescriptor_t() const { return desc_; }

private:
    cudnnRNNDataDescriptor_t desc_ = nullptr;
};

// [layers * directions, batch, width], packed, of `type` (the network's data type by default).
class StateDescriptor {
public:
    StateDescriptor(const RnnProblem &p, int width) : StateDescriptor(p, width, p.net.data_type) {}
    StateDescriptor(const RnnProblem &p, int width, cudnnDataType_t type) {
        EXPECT_EQ(cudnnCreateTensorDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        const int dims[3] = {p.net.pseudo_layers(), p.batch_size, width};
        const int strides[3] = {p.batch_size * width, width, 1};
        EXPECT_EQ(cudnnSetTensorNdDescriptor(desc_, type, 3, dims, strides), CUDNN_STATUS_SUCCESS);
    }
    ~StateDescriptor() { cudnnDestroyTensorDescriptor(desc_); }
    StateDescriptor(const StateDescriptor &) = delete;
    StateDescriptor &operator=(const StateDescriptor &) = delete;
    operator cudnnTensorDescriptor_t() const { return desc_; }

private:
    cudnnTensorDescriptor_t desc_ = nullptr;
};

// An unset tensor descriptor for cudnnGetRNNWeightParams to fill.
class TensorDescriptorHandle {
public:
    TensorDescriptorHandle() { EXPECT_EQ(cudnnCreateTensorDescriptor(&desc_), CUDNN_STATUS_SUCCESS); }
    ~TensorDescriptorHandle() { cudnnDestroyTensorDescriptor(desc_); }
    TensorDescriptorHandle(const TensorDescriptorHandle &) = delete;
    TensorDescriptorHandle &operator=(const TensorDescriptorHandle &) = delete;
    cudnnTensorDescriptor_t get() const { return desc_; }
    operator cudnnTensorDescriptor_t() const { return desc_; }

private:
    cudnnTensorDescriptor_t desc_ = nullptr;
};

// The reference's description of the problem's network.
inline reference::RnnConfig config_of(const RnnProblem &p) {
    const RnnNetwork &n = p.net;
    reference::RnnConfig c;
    c.cell = n.cell;
    c.bidirectional = n.bidirectional;
    c.layers = n.layers;
    c.input_size = n.input_size;
    c.hidden_size = n.hidden_size;
    c.proj_size = n.proj_size;
    c.skip_input = n.skip_input;
    c.bias_mode = n.bias_mode;
    c.clip = p.clipping;
    c.lclip = p.lclip;
    c.rclip = p.rclip;
    c.clip_propagate_nan = p.clip_propagate_nan;
    return c;
}

}  // namespace librednn::test
