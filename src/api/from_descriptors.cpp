// Descriptors to geometries, handles to execution contexts, scaling factors to doubles.
#include "api/from_descriptors.hpp"

#include <cstring>

namespace librednn {

TensorGeometry geometry_of(const cudnnTensorStruct &tensor) {
    TensorGeometry geometry;
    geometry.dtype = tensor.data_type;
    geometry.nb_dims = tensor.nb_dims;
    for (int i = 0; i < tensor.nb_dims; ++i) {
        geometry.dims[i] = tensor.dims[i];
        geometry.strides[i] = tensor.strides[i];
    }
    return geometry;
}

TensorGeometry geometry_of(const cudnnFilterStruct &filter) {
    int64_t dims[kMaxDims] = {};
    for (int i = 0; i < filter.nb_dims; ++i) dims[i] = filter.dims[i];
    PackedLayout layout = PackedLayout::nchw;
    if (filter.format == CUDNN_TENSOR_NHWC) layout = PackedLayout::nhwc;
    if (filter.format == CUDNN_TENSOR_NCHW_VECT_C) layout = PackedLayout::nchw_vect_c;
    return packed_geometry(filter.data_type, filter.nb_dims, dims, layout);
}

ExecutionContext context_of(const cudnnContext &handle) {
    ExecutionContext context;
    context.backend = handle.backend;
    context.device = handle.device;
    context.stream = handle.stream;
    return context;
}

double read_scaling_factor(const void *pointer, bool in_double) {
    // Copied, not dereferenced: a scaling factor off its type's alignment (a host variable need not be
    // aligned by the caller's compiler in a packed struct) is read all the same.
    if (in_double) {
        double value;
        std::memcpy(&value, pointer, sizeof value);
        return value;
    }
    float value;
    std::memcpy(&value, pointer, sizeof value);
    return value;
}

}  // namespace librednn
