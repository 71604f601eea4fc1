// RAII cudnnFilterDescriptor_t and cudnnConvolutionDescriptor_t of a ConvProblem, for the op tests that
// call convolutions through the C API (convolutions, fused ops).
#pragma once

#include "op_test_util.hpp"
#include "ops/conv/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

namespace librednn::test {

class FilterDescriptor {
public:
    FilterDescriptor(const TensorGeometry &w, cudnnTensorFormat_t format) {
        EXPECT_EQ(cudnnCreateFilterDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        int dims[kMaxDims];
        for (int i = 0; i < w.nb_dims; ++i) dims[i] = static_cast<int>(w.dims[i]);
        EXPECT_EQ(cudnnSetFilterNdDescriptor(desc_, w.dtype, format, w.nb_dims, dims), CUDNN_STATUS_SUCCESS);
    }
    ~FilterDescriptor() { cudnnDestroyFilterDescriptor(desc_); }
    FilterDescriptor(const FilterDescriptor &) = delete;
    FilterDescriptor &operator=(const FilterDescriptor &) = delete;
    operator cudnnFilterDescriptor_t() const { return desc_; }

private:
    cudnnFilterDescriptor_t desc_ = nullptr;
};

class ConvDescriptor {
public:
    explicit ConvDescriptor(const ConvProblem &p) {
        EXPECT_EQ(cudnnCreateConvolutionDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        int pad[kMaxDims], stride[kMaxDims], dilation[kMaxDims];
        for (int i = 0; i < p.spatial_dims; ++i) {
            pad[i] = static_cast<int>(p.pad[i]);
            stride[i] = static_cast<int>(p.stride[i]);
            dilation[i] = static_cast<int>(p.dilation[i]);
        }
        EXPECT_EQ(cudnnSetConvolutionNdDescriptor(desc_, p.spatial_dims, pad, stride, dilation, p.mode, p.compute_type),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetConvolutionGroupCount(desc_, static_cast<int>(p.groups)), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetConvolutionMathType(desc_, p.math_type), CUDNN_STATUS_SUCCESS);
    }
    ~ConvDescriptor() { cudnnDestroyConvolutionDescriptor(desc_); }
    ConvDescriptor(const ConvDescriptor &) = delete;
    ConvDescriptor &operator=(const ConvDescriptor &) = delete;
    operator cudnnConvolutionDescriptor_t() const { return desc_; }

private:
    cudnnConvolutionDescriptor_t desc_ = nullptr;
};

}  // namespace librednn::test
