// The im2col kernel (im2col.hpp).
#include "cuda/conv/im2col.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "ops/common/element_access.hpp"

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;

struct Im2ColArgs {
    const void *x;
    void *col;
    int64_t count;          // rows x columns
    FastDivisor columns;    // C x taps
    FastDivisor taps;       // filter taps
    FastDivisor positions;  // output positions
    int spatial;
    int flip;  // CUDNN_CONVOLUTION: column t reads tap taps - 1 - t
    int64_t x_batch_stride, x_channel_stride;
    // Per spatial dim, outer to inner.
    FastDivisor output_extent[kMaxConvSpatialDims];
    FastDivisor filter_extent[kMaxConvSpatialDims];
    int64_t input_extent[kMaxConvSpatialDims];
    int64_t x_stride[kMaxConvSpatialDims];
    int64_t stride[kMaxConvSpatialDims], pad[kMaxConvSpatialDims], dilation[kMaxConvSpatialDims];
};

template <class Bits>
__global__ void __launch_bounds__(kBlock) im2col_kernel(const __grid_constant__ Im2ColArgs a) {
    const Bits *x = static_cast<const Bits *>(a.x);
    Bits *col = static_cast<Bits *>(a.col);
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.count; e += threads) {
        const int64_t row = divide(a.columns, e);
        const int64_t column = e - row * a.columns.divisor;
        const int64_t c = divide(a.taps, column);
        int64_t tap = column - c * a.taps.divisor;
        if (a.flip) tap = a.taps.divisor - 1 - tap;
        const int64_t n = divide(a.positions, row);
        int64_t position = row - n * a.positions.divisor;
        int64_t offset = n * a.x_batch_stride + c * a.x_channel_stride;
        bool inside = true;
#pragma unroll
        for (int w = 0; w < kMaxConvSpatialDims; ++w) {
            const int i = a.spatial - 1 - w;  // inner to outer
            if (i >= 0) {
                const int64_t position_rest = divide(a.output_extent[i], position);
                const int64_t out = position - position_rest * a.output_extent[i].divisor;
                position = position_rest;
                const int64_t tap_rest = divide(a.filter_extent[i], tap);
                const int64_t f = tap - tap_rest * a.filter_extent[i].divisor;
                tap = tap_rest;
                const int64_t at = out * a.stride[i] - a.pad[i] + f * a.dilation[i];
                inside = inside && at >= 0 && at < a.input_extent[i];
                offset += at * a.x_stride[i];
            }
        }
        // Zero bits are +0 in every type.
        col[e] = inside ? x[offset] : Bits(0);
    }
}

template <class Bits>
Status launch(cudaStream_t stream, const Im2ColArgs &args) {
    im2col_kernel<Bits><<<grid_size(args.count, kBlock, kBlock, 4), kBlock, 0, stream>>>(args);
    return check_launch("im2col_kernel");
}

}  // namespace

Status im2col(cudaStream_t stream, const ConvProblem &problem, const Im2ColBuffers &buffers) {
    Im2ColArgs args{};
    args.x = buffers.x;
    args.col = buffers.col;
    args.count = im2col_rows(problem) * im2col_columns(problem);
    if (args.count == 0) return CUDNN_STATUS_SUCCESS;
    args.columns = make_fast_divisor(im2col_columns(problem));
    args.taps = make_fast_divisor(problem.filter_size());
    args.positions = make_fast_divisor(problem.output_size());
    args.spatial = problem.spatial_dims;
    args.flip = problem.mode == CUDNN_CONVOLUTION;
    args.x_batch_stride = problem.x.strides[0];
    args.x_channel_stride = problem.x.strides[1];
    for (int i = 0; i < problem.spatial_dims; ++i) {
        args.output_extent[i] = make_fast_divisor(problem.output_extent(i));
        args.filter_extent[i] = make_fast_divisor(problem.filter_extent(i));
        args.input_extent[i] = problem.input_extent(i);
        args.x_stride[i] = problem.x.strides[i + 2];
        args.stride[i] = problem.stride[i];
        args.pad[i] = problem.pad[i];
        args.dilation[i] = problem.dilation[i];
    }
    switch (scalar_size_of(problem.x.dtype)) {
        case 1: return launch<uint8_t>(stream, args);
        case 2: return launch<uint16_t>(stream, args);
        case 4: return launch<uint32_t>(stream, args);
        case 8: return launch<uint64_t>(stream, args);
        default: break;
    }
    return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA im2col copies elements of 1, 2, 4 or 8 bytes");
}

}  // namespace librednn::cuda
