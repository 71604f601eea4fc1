// The col2im kernel (col2im.hpp).
#include "cuda/conv/col2im.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/strided_layout.hpp"
#include "ops/conv/solvers.hpp"

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kDims = kMaxConvSpatialDims;

struct Col2ImArgs {
    const void *columns;
    void *dx;
    ScalarType dx_type;
    int64_t count;  // N x C x input positions
    FastDivisor channels;
    int spatial, flip;
    int64_t taps, positions, width;  // filter taps, output positions, matrix columns (C x taps)
    int64_t dx_batch_stride, dx_channel_stride;
    // Per spatial dim, outer to inner.
    FastDivisor input_extent[kDims];
    int64_t dx_stride[kDims], output_extent[kDims], filter_extent[kDims];
    int64_t stride[kDims], pad[kDims], dilation[kDims];
    double alpha, beta;
};

template <class Acc>
__global__ void __launch_bounds__(kBlock) col2im_kernel(const __grid_constant__ Col2ImArgs a) {
    const Acc *columns = static_cast<const Acc *>(a.columns);
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.count; e += threads) {
        // e, row-major over (n, c, spatial): split inner to outer.
        int64_t rest = e, q[kDims] = {};
        int64_t offset = 0;
        for (int i = a.spatial - 1; i >= 0; --i) {
            const int64_t outer = divide(a.input_extent[i], rest);
            q[i] = rest - outer * a.input_extent[i].divisor;
            rest = outer;
            offset += q[i] * a.dx_stride[i];
        }
        const int64_t n = divide(a.channels, rest), c = rest - n * a.channels.divisor;
        offset += n * a.dx_batch_stride + c * a.dx_channel_stride;
        // Every window tap f (row-major over the filter) and the output position p whose window puts it
        // on q, when there is one.
        Acc sum = Acc(0);
        int64_t f[kDims] = {};
        for (int64_t tap = 0; tap < a.taps; ++tap) {
            bool reads = true;
            int64_t p = 0;
            for (int i = 0; i < a.spatial; ++i) {
                const int64_t from = q[i] + a.pad[i] - f[i] * a.dilation[i];
                const int64_t out = from / a.stride[i];
                reads = reads && from >= 0 && out * a.stride[i] == from && out < a.output_extent[i];
                p = p * a.output_extent[i] + out;
            }
            if (reads) {
                const int64_t column = c * a.taps + (a.flip ? a.taps - 1 - tap : tap);
                sum += columns[(n * a.positions + p) * a.width + column];
            }
            for (int i = a.spatial - 1; i >= 0; --i) {  // the next tap
                if (++f[i] < a.filter_extent[i]) break;
                f[i] = 0;
            }
        }
        Acc value = static_cast<Acc>(a.alpha) * sum;
        if (a.beta != 0.0) value += static_cast<Acc>(a.beta) * load_as<Acc>(a.dx, a.dx_type, offset);
        store_as<Acc>(a.dx, a.dx_type, offset, value);
    }
}

}  // namespace

Status col2im(cudaStream_t stream, const ConvProblem &p, const void *columns, cudnnDataType_t columns_type, void *dx) {
    Col2ImArgs a{};
    a.columns = columns;
    a.dx = dx;
    if (!scalar_type_of(p.x.dtype, &a.dx_type)) return fail(CUDNN_STATUS_NOT_SUPPORTED, "col2im: dx's type");
    a.count = p.x.element_count();
    if (a.count == 0) return CUDNN_STATUS_SUCCESS;
    a.channels = make_fast_divisor(p.input_channels());
    a.spatial = p.spatial_dims;
    a.flip = p.mode == CUDNN_CONVOLUTION;
    a.taps = p.filter_size();
    a.positions = p.output_size();
    a.width = im2col_columns(p);
    a.dx_batch_stride = p.x.strides[0];
    a.dx_channel_stride = p.x.strides[1];
    for (int i = 0; i < p.spatial_dims; ++i) {
        a.input_extent[i] = make_fast_divisor(p.input_extent(i));
        a.dx_stride[i] = p.x.strides[2 + i];
        a.output_extent[i] = p.output_extent(i);
        a.filter_extent[i] = p.filter_extent(i);
        a.stride[i] = p.stride[i];
        a.pad[i] = p.pad[i];
        a.dilation[i] = p.dilation[i];
    }
    a.alpha = p.alpha;
    a.beta = p.beta;
    const int grid = grid_size(a.count, kBlock, kBlock, 4);
    if (columns_type == CUDNN_DATA_DOUBLE) {
        col2im_kernel<double><<<grid, kBlock, 0, stream>>>(a);
    } else {
        col2im_kernel<float><<<grid, kBlock, 0, stream>>>(a);
    }
    return check_launch("col2im_kernel");
}

}  // namespace librednn::cuda
