// The RNN op tests' descriptors (tests/ops/rnn_test.cpp, rnn_backward_test.cpp), each destroyed at
// scope end: the v8 RNN descriptor of a network, an RNN data descriptor of a problem, and the [layers *
// directions, batch, width] state descriptor.
#pragma once

#include "core/status.hpp"
#include "ops/common/element_access.hpp"
#include "ops/rnn/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cstdint>

namespace librednn::test {

class RnnDescriptor {
public:
    explicit RnnDescriptor(const RnnNetwork &n) {
        EXPECT_EQ(cudnnCreateRNNDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetRNNDescriptor_v8(
                      desc_, n.algo, n.cell, n.bias_mode, n.bidirectional ? CUDNN_BIDIRECTIONAL : CUDNN_UNIDIRECTIONAL,
                      n.skip_input ? CUDNN_SKIP_INPUT : CUDNN_LINEAR_INPUT, n.data_type, n.math_prec, n.math_type,
                      n.input_size, n.hidden_size, n.proj_size, n.layers, nullptr, CUDNN_RNN_PADDED_IO_ENABLED),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    }
    explicit RnnDescriptor(const RnnProblem &p) : RnnDescriptor(p.net) {}
    ~RnnDescriptor() { cudnnDestroyRNNDescriptor(desc_); }
    RnnDescriptor(const RnnDescriptor &) = delete;
    RnnDescriptor &operator=(const RnnDescriptor &) = delete;
    operator cudnnRNNDescriptor_t() const { return desc_; }

private:
    cudnnRNNDescriptor_t desc_ = nullptr;
};

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

}  // namespace librednn::test
