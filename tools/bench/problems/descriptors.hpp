// cuDNN descriptors created through a loaded library and destroyed with it, plus the alpha/beta
// scalars its calls take; shared by the op families.
#pragma once

#include "problem.hpp"

namespace librednn::bench {

template <class T>
class Descriptor {
public:
    using DestroyFunction = cudnnStatus_t (*)(T);

    Descriptor() = default;
    ~Descriptor() { reset(); }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    Descriptor(Descriptor &&other) noexcept : value_(other.value_), destroy_(other.destroy_) {
        other.value_ = T{};
        other.destroy_ = nullptr;
    }
    Descriptor &operator=(Descriptor &&other) noexcept {
        if (this != &other) {
            reset();
            value_ = other.value_;
            destroy_ = other.destroy_;
            other.value_ = T{};
            other.destroy_ = nullptr;
        }
        return *this;
    }

    // Creates the descriptor with the library's `creator`; `destroy` frees it when this object goes.
    Outcome create(const Library &library, const char *creator_name, cudnnStatus_t (*creator)(T *),
                   DestroyFunction destroy) {
        reset();
        T value{};
        BENCH_TRY(library.call(creator_name, creator, &value));
        value_ = value;
        destroy_ = destroy;
        return Outcome::success();
    }
    T get() const { return value_; }

private:
    void reset() {
        if (value_ && destroy_) destroy_(value_);
        value_ = T{};
        destroy_ = nullptr;
    }

    T value_{};
    DestroyFunction destroy_ = nullptr;
};

using TensorDescriptor = Descriptor<cudnnTensorDescriptor_t>;
using FilterDescriptor = Descriptor<cudnnFilterDescriptor_t>;
using ConvolutionDescriptor = Descriptor<cudnnConvolutionDescriptor_t>;
using ActivationDescriptor = Descriptor<cudnnActivationDescriptor_t>;
using PoolingDescriptor = Descriptor<cudnnPoolingDescriptor_t>;
using LrnDescriptor = Descriptor<cudnnLRNDescriptor_t>;
using CtcLossDescriptor = Descriptor<cudnnCTCLossDescriptor_t>;
using SpatialTransformerDescriptor = Descriptor<cudnnSpatialTransformerDescriptor_t>;
using OpTensorDescriptor = Descriptor<cudnnOpTensorDescriptor_t>;
using ReduceTensorDescriptor = Descriptor<cudnnReduceTensorDescriptor_t>;
using TensorTransformDescriptor = Descriptor<cudnnTensorTransformDescriptor_t>;
using DropoutDescriptor = Descriptor<cudnnDropoutDescriptor_t>;
using RnnDescriptor = Descriptor<cudnnRNNDescriptor_t>;
using RnnDataDescriptor = Descriptor<cudnnRNNDataDescriptor_t>;

Outcome create(const Library &library, TensorDescriptor *descriptor);
Outcome create(const Library &library, FilterDescriptor *descriptor);
Outcome create(const Library &library, ConvolutionDescriptor *descriptor);
Outcome create(const Library &library, ActivationDescriptor *descriptor);
Outcome create(const Library &library, PoolingDescriptor *descriptor);
Outcome create(const Library &library, LrnDescriptor *descriptor);
Outcome create(const Library &library, CtcLossDescriptor *descriptor);
Outcome create(const Library &library, SpatialTransformerDescriptor *descriptor);
Outcome create(const Library &library, OpTensorDescriptor *descriptor);
Outcome create(const Library &library, ReduceTensorDescriptor *descriptor);
Outcome create(const Library &library, TensorTransformDescriptor *descriptor);
Outcome create(const Library &library, DropoutDescriptor *descriptor);
Outcome create(const Library &library, RnnDescriptor *descriptor);
Outcome create(const Library &library, RnnDataDescriptor *descriptor);

// A packed 4-d tensor descriptor (cudnnSetTensor4dDescriptor with NCHW or NHWC).
Outcome make_tensor(const Library &library, cudnnDataType_t type, Layout layout, const Shape &shape,
                    TensorDescriptor *descriptor);

Outcome make_tensor(const Library &library, const TensorOperand &operand, TensorDescriptor *descriptor);

// The format cuDNN names a layout by.
cudnnTensorFormat_t tensor_format(Layout layout);

// alpha and beta as cuDNN reads them: double for double data, float for everything else.
class Scalar {
public:
    Scalar(double value, cudnnDataType_t data_type)
        : as_float_(static_cast<float>(value)), as_double_(value), use_double_(data_type == CUDNN_DATA_DOUBLE) {}
    const void *get() const { return use_double_ ? static_cast<const void *>(&as_double_) : &as_float_; }

private:
    float as_float_;
    double as_double_;
    bool use_double_;
};

// The type cuDNN computes in for `data`: double for double, int32 for int8, float for the rest.
cudnnDataType_t compute_type_for(cudnnDataType_t data);

}  // namespace librednn::bench
