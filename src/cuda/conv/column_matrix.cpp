// The column matrix's geometry and product (column_matrix.hpp).
#include "cuda/conv/column_matrix.hpp"

#include "core/data_type.hpp"
#include "ops/conv/solvers.hpp"

namespace librednn::cuda {

TensorGeometry column_geometry(const ConvProblem &p, cudnnDataType_t dtype) {
    int64_t dims[kMaxDims] = {p.batch(), im2col_columns(p)};
    for (int d = 0; d < p.spatial_dims; ++d) dims[2 + d] = p.output_extent(d);
    return packed_geometry(dtype, p.spatial_dims + 2, dims, PackedLayout::nhwc);
}

size_t column_bytes(const ConvProblem &p, cudnnDataType_t dtype) {
    const size_t bytes = static_cast<size_t>(im2col_rows(p)) * im2col_columns(p) * data_type_size(dtype);
    return (bytes + 255) / 256 * 256;
}

ConvProblem column_product(const ConvProblem &p, cudnnDataType_t dtype) {
    ConvProblem view = p;
    view.x = column_geometry(p, dtype);
    int64_t w_dims[kMaxDims] = {p.output_channels(), p.channels_per_group() * p.filter_size()};
    for (int d = 0; d < p.spatial_dims; ++d) w_dims[2 + d] = 1;
    view.w = packed_geometry(p.w.dtype, p.spatial_dims + 2, w_dims, PackedLayout::nchw);
    view.filter_format = CUDNN_TENSOR_NCHW;
    for (int d = 0; d < p.spatial_dims; ++d) view.pad[d] = 0, view.stride[d] = 1, view.dilation[d] = 1;
    view.mode = CUDNN_CROSS_CORRELATION;  // the matrix already holds CONVOLUTION's mirrored taps
    return view;
}

const char *column_matrix_unsupported_reason(const ConvProblem &p) {
    if (p.filter_format != CUDNN_TENSOR_NCHW) {
        return "takes KCRS (NCHW) filters: the column matrix numbers each channel's taps together";
    }
    if (p.x.vector() > 1 || p.w.vector() > 1 || p.y.vector() > 1) return "takes no vectorised int8 tensors";
    return nullptr;
}

}  // namespace librednn::cuda
