// Descriptor creation through the loaded library.
#include "problems/descriptors.hpp"

namespace librednn::bench {

#define LIBREDNN_BENCH_CREATE(Family)                                                                              \
    descriptor->create(library, "cudnnCreate" #Family "Descriptor", library.api().cudnnCreate##Family##Descriptor, \
                       library.api().cudnnDestroy##Family##Descriptor)

Outcome create(const Library &library, TensorDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(Tensor); }
Outcome create(const Library &library, FilterDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(Filter); }
Outcome create(const Library &library, ConvolutionDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(Convolution); }
Outcome create(const Library &library, ActivationDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(Activation); }
Outcome create(const Library &library, PoolingDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(Pooling); }
Outcome create(const Library &library, LrnDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(LRN); }
Outcome create(const Library &library, CtcLossDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(CTCLoss); }
Outcome create(const Library &library, SpatialTransformerDescriptor *descriptor) {
    return LIBREDNN_BENCH_CREATE(SpatialTransformer);
}
Outcome create(const Library &library, OpTensorDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(OpTensor); }
Outcome create(const Library &library, ReduceTensorDescriptor *descriptor) {
    return LIBREDNN_BENCH_CREATE(ReduceTensor);
}
Outcome create(const Library &library, TensorTransformDescriptor *descriptor) {
    return LIBREDNN_BENCH_CREATE(TensorTransform);
}
Outcome create(const Library &library, DropoutDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(Dropout); }
Outcome create(const Library &library, RnnDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(RNN); }
Outcome create(const Library &library, RnnDataDescriptor *descriptor) { return LIBREDNN_BENCH_CREATE(RNNData); }

#undef LIBREDNN_BENCH_CREATE

cudnnTensorFormat_t tensor_format(Layout layout) {
    return layout == Layout::nhwc ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
}

Outcome make_tensor(const Library &library, cudnnDataType_t type, Layout layout, const Shape &shape,
                    TensorDescriptor *descriptor) {
    BENCH_TRY(create(library, descriptor));
    return BENCH_CALL(library, cudnnSetTensor4dDescriptor, descriptor->get(), tensor_format(layout), type,
                      static_cast<int>(shape.n), static_cast<int>(shape.c), static_cast<int>(shape.h),
                      static_cast<int>(shape.w));
}

Outcome make_tensor(const Library &library, const TensorOperand &operand, TensorDescriptor *descriptor) {
    return make_tensor(library, operand.type, operand.layout, operand.shape, descriptor);
}

cudnnDataType_t compute_type_for(cudnnDataType_t data) {
    switch (data) {
        case CUDNN_DATA_DOUBLE: return CUDNN_DATA_DOUBLE;
        case CUDNN_DATA_INT8: return CUDNN_DATA_INT32;
        default: return CUDNN_DATA_FLOAT;
    }
}

}  // namespace librednn::bench
