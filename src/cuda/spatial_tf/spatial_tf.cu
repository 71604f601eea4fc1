// The spatial transformer kernels (spatial_tf.hpp).
#include "cuda/spatial_tf/spatial_tf.hpp"

#include "core/cuda_failure.hpp"
#include "core/fault_injection.hpp"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;

struct SpatialTfArgs {
    int64_t n, c, h, w;    // the transformer's output dims
    int64_t h_in, w_in;    // the sampler's input
    int64_t xs[4], ys[4];  // strides of x, and of y (forward) or dy (backward)
    int64_t dxs[4];        // strides of dx
    double alpha, beta, alpha_dgrid, beta_dgrid;
    const void *in;         // grid forward: theta; grid backward: dgrid; sampler: x
    const void *grid, *dy;  // the sampler's grid; its backward's dy
    void *out;              // grid forward: grid; grid backward: dtheta; sampler: y or dx
    void *dgrid;            // sampler backward
    float *scratch;         // sampler backward, half and bfloat16: dx's sums, packed like x's dims
};

__device__ __forceinline__ float math_floor(float v) { return floorf(v); }
__device__ __forceinline__ double math_floor(double v) { return floor(v); }

// The normalised coordinate of output position i of `extent`: (2i - (extent - 1)) / (extent - 1), which
// is -1 + 2i / (extent - 1) with one rounding; 0 for extent 1.
template <class C>
__device__ __forceinline__ C base_coordinate(int64_t i, int64_t extent) {
    return extent == 1 ? C(0) : static_cast<C>(2 * i - (extent - 1)) / static_cast<C>(extent - 1);
}

// Along one input axis: the taps floor(i) and floor(i) + 1 of i = (g + 1) (extent - 1) / 2, which of
// them are inside, and t = i - floor(i) (0 when neither is). Bounds are compared before any integer
// conversion: NaN, infinite and huge coordinates have no tap inside.
template <class C>
struct Taps {
    int64_t at[2];
    bool inside[2];
    C t;

    __device__ __forceinline__ Taps(C g, int64_t extent) {
        const C coordinate = (g + C(1)) * (static_cast<C>(extent - 1) * C(0.5));
        const C first = math_floor(coordinate);
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            inside[k] = first + C(k) >= C(0) && first + C(k) < static_cast<C>(extent);
            at[k] = inside[k] ? static_cast<int64_t>(first) + k : 0;
        }
        t = inside[0] || inside[1] ? coordinate - first : C(0);
    }
    __device__ __forceinline__ C weight(int k) const { return k == 0 ? C(1) - t : t; }
};

template <class T>
using ComputeOf = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <class T>
__device__ __forceinline__ ComputeOf<T> load(const void *base, int64_t offset) {
    return to_compute<ComputeOf<T>>(static_cast<const T *>(base)[offset]);
}

// out[offset] = value + beta * out[offset]; beta == 0 never reads out.
template <class T, class C>
__device__ __forceinline__ void store_blended(void *base, int64_t offset, C value, double beta) {
    T *out = static_cast<T *>(base) + offset;
    if (beta != 0.0) value += static_cast<C>(beta) * to_compute<C>(*out);
    *out = from_compute<T>(value);
}

__device__ __forceinline__ int64_t offset4(const int64_t (&s)[4], int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
    return i0 * s[0] + i1 * s[1] + i2 * s[2] + i3 * s[3];
}

#define LIBREDNN_GRID_STRIDE_LOOP(i, count)                                                    \
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (count); \
         i += static_cast<int64_t>(gridDim.x) * blockDim.x)

// grid[n, h, w, i] = theta[n, i, :] . (x_t, y_t, 1), one thread per grid point.
template <class T>
__global__ void __launch_bounds__(kBlock) grid_forward_kernel(const __grid_constant__ SpatialTfArgs a) {
    using C = ComputeOf<T>;
    LIBREDNN_GRID_STRIDE_LOOP(p, a.n * a.h * a.w) {
        const int64_t w = p % a.w, h = p / a.w % a.h, n = p / a.w / a.h;
        const C x_t = base_coordinate<C>(w, a.w), y_t = base_coordinate<C>(h, a.h);
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int64_t row = n * 6 + 3 * i;
            const C value = load<T>(a.in, row) * x_t + load<T>(a.in, row + 1) * y_t + load<T>(a.in, row + 2);
            static_cast<T *>(a.out)[p * 2 + i] = from_compute<T>(value);
        }
    }
}

// dtheta[n, i, :] = sum over the image's grid points of dgrid[n, h, w, i] * (x_t, y_t, 1): one block per
// image, each thread summing a fixed stride of points, then a fixed tree over the threads.
template <class T>
__global__ void __launch_bounds__(kBlock) grid_backward_kernel(const __grid_constant__ SpatialTfArgs a) {
    using C = ComputeOf<T>;
    __shared__ C partial[6][kBlock];
    const int64_t points = a.h * a.w;
    for (int64_t n = blockIdx.x; n < a.n; n += gridDim.x) {
        C sums[6] = {C(0), C(0), C(0), C(0), C(0), C(0)};
        for (int64_t p = threadIdx.x; p < points; p += blockDim.x) {
            const C base[3] = {base_coordinate<C>(p % a.w, a.w), base_coordinate<C>(p / a.w, a.h), C(1)};
#pragma unroll
            for (int i = 0; i < 2; ++i) {
                const C g = load<T>(a.in, (n * points + p) * 2 + i);
#pragma unroll
                for (int j = 0; j < 3; ++j) sums[3 * i + j] += g * base[j];
            }
        }
#pragma unroll
        for (int k = 0; k < 6; ++k) partial[k][threadIdx.x] = sums[k];
        __syncthreads();
        for (int half = kBlock / 2; half > 0; half /= 2) {
            if (threadIdx.x < half) {
#pragma unroll
                for (int k = 0; k < 6; ++k) partial[k][threadIdx.x] += partial[k][threadIdx.x + half];
            }
            __syncthreads();
        }
        if (threadIdx.x < 6) static_cast<T *>(a.out)[n * 6 + threadIdx.x] = from_compute<T>(partial[threadIdx.x][0]);
        __syncthreads();  // partial is reused by the block's next image
    }
}

// y = alpha * the bilinear sample of x + beta * y, one thread per element of y (row-major over N, C, H, W).
template <class T>
__global__ void __launch_bounds__(kBlock) sampler_forward_kernel(const __grid_constant__ SpatialTfArgs a) {
    using C = ComputeOf<T>;
    LIBREDNN_GRID_STRIDE_LOOP(e, a.n * a.c * a.h * a.w) {
        const int64_t w = e % a.w, h = e / a.w % a.h, c = e / a.w / a.h % a.c, n = e / a.w / a.h / a.c;
        const int64_t at = ((n * a.h + h) * a.w + w) * 2;
        const Taps<C> cols(load<T>(a.grid, at), a.w_in), rows(load<T>(a.grid, at + 1), a.h_in);
        C sample = C(0);
#pragma unroll
        for (int r = 0; r < 2; ++r) {
#pragma unroll
            for (int k = 0; k < 2; ++k) {
                if (rows.inside[r] && cols.inside[k])
                    sample +=
                        rows.weight(r) * cols.weight(k) * load<T>(a.in, offset4(a.xs, n, c, rows.at[r], cols.at[k]));
            }
        }
        store_blended<T>(a.out, offset4(a.ys, n, c, h, w), static_cast<C>(a.alpha) * sample, a.beta);
    }
}

// dx = beta * dx (0 when beta is 0: dx is not read), before the atomic adds of the float and double path.
template <class T>
__global__ void __launch_bounds__(kBlock) scale_dx_kernel(const __grid_constant__ SpatialTfArgs a) {
    using C = ComputeOf<T>;
    LIBREDNN_GRID_STRIDE_LOOP(e, a.n * a.c * a.h_in * a.w_in) {
        const int64_t w = e % a.w_in, h = e / a.w_in % a.h_in, c = e / a.w_in / a.h_in % a.c;
        const int64_t n = e / a.w_in / a.h_in / a.c;
        store_blended<T>(a.out, offset4(a.dxs, n, c, h, w), C(0), a.beta);
    }
}

// dx = scratch + beta * dx, after the atomic adds of the half and bfloat16 path (scratch packed NCHW).
template <class T>
__global__ void __launch_bounds__(kBlock) blend_dx_kernel(const __grid_constant__ SpatialTfArgs a) {
    LIBREDNN_GRID_STRIDE_LOOP(e, a.n * a.c * a.h_in * a.w_in) {
        const int64_t w = e % a.w_in, h = e / a.w_in % a.h_in, c = e / a.w_in / a.h_in % a.c;
        const int64_t n = e / a.w_in / a.h_in / a.c;
        store_blended<T>(a.out, offset4(a.dxs, n, c, h, w), a.scratch[e], a.beta);
    }
}

// One thread per grid point: for each channel, dy's share of every tap is added to dx (or the scratch)
// atomically, and the point's dgrid summed in channel order.
template <class T>
__global__ void __launch_bounds__(kBlock) sampler_backward_kernel(const __grid_constant__ SpatialTfArgs a) {
    using C = ComputeOf<T>;
    constexpr bool kThroughScratch = !std::is_same_v<T, float> && !std::is_same_v<T, double>;
    using Sum = std::conditional_t<kThroughScratch, float, T>;
    const C alpha = static_cast<C>(a.alpha);
    LIBREDNN_GRID_STRIDE_LOOP(p, a.n * a.h * a.w) {
        const int64_t w = p % a.w, h = p / a.w % a.h, n = p / a.w / a.h;
        const Taps<C> cols(load<T>(a.grid, p * 2), a.w_in), rows(load<T>(a.grid, p * 2 + 1), a.h_in);
        C d_ix = C(0), d_iy = C(0);
        for (int64_t c = 0; c < a.c; ++c) {
            const C g = load<T>(a.dy, offset4(a.ys, n, c, h, w));
            C v[2][2] = {{C(0), C(0)}, {C(0), C(0)}};  // the taps, 0 outside the input
#pragma unroll
            for (int r = 0; r < 2; ++r) {
#pragma unroll
                for (int k = 0; k < 2; ++k) {
                    if (!rows.inside[r] || !cols.inside[k]) continue;
                    v[r][k] = load<T>(a.in, offset4(a.xs, n, c, rows.at[r], cols.at[k]));
                    const Sum share = static_cast<Sum>(alpha * (rows.weight(r) * cols.weight(k) * g));
                    if constexpr (kThroughScratch) {
                        atomicAdd(a.scratch + ((n * a.c + c) * a.h_in + rows.at[r]) * a.w_in + cols.at[k], share);
                    } else {
                        atomicAdd(static_cast<T *>(a.out) + offset4(a.dxs, n, c, rows.at[r], cols.at[k]), share);
                    }
                }
            }
            d_ix += g * (rows.weight(0) * (v[0][1] - v[0][0]) + rows.weight(1) * (v[1][1] - v[1][0]));
            d_iy += g * (cols.weight(0) * (v[1][0] - v[0][0]) + cols.weight(1) * (v[1][1] - v[0][1]));
        }
        const C alpha_dgrid = static_cast<C>(a.alpha_dgrid);
        const C scale_x = static_cast<C>(a.w_in - 1) * C(0.5), scale_y = static_cast<C>(a.h_in - 1) * C(0.5);
        store_blended<T>(a.dgrid, p * 2, alpha_dgrid * (d_ix * scale_x), a.beta_dgrid);
        store_blended<T>(a.dgrid, p * 2 + 1, alpha_dgrid * (d_iy * scale_y), a.beta_dgrid);
    }
}

#undef LIBREDNN_GRID_STRIDE_LOOP

// Calls body(T{}) with the element type of `type`; false for types the kernels do not take.
template <class Body>
bool with_element_type(cudnnDataType_t type, Body &&body) {
    switch (type) {
        case CUDNN_DATA_FLOAT: body(float{}); return true;
        case CUDNN_DATA_DOUBLE: body(double{}); return true;
        case CUDNN_DATA_HALF: body(__half{}); return true;
        case CUDNN_DATA_BFLOAT16: body(__nv_bfloat16{}); return true;
        default: return false;
    }
}

void copy_strides(const TensorGeometry &g, int64_t (&strides)[4]) {
    for (int i = 0; i < 4; ++i) strides[i] = g.strides[i];
}

template <class T>
Status launch(cudaStream_t stream, const SpatialTfProblem &p, const SpatialTfBuffers &b, void *workspace) {
    SpatialTfArgs a{};
    a.n = p.n;
    a.c = p.c;
    a.h = p.h;
    a.w = p.w;
    a.alpha = p.alpha;
    a.beta = p.beta;
    a.alpha_dgrid = p.alpha_dgrid;
    a.beta_dgrid = p.beta_dgrid;
    const bool forward = p.direction == Direction::forward;
    const int64_t points = p.n * p.h * p.w;
    if (p.stage == SpatialTfStage::grid) {
        if (forward) {
            a.in = b.theta;
            a.out = b.grid_out;
            if (points == 0) return CUDNN_STATUS_SUCCESS;
            grid_forward_kernel<T><<<grid_size(points, kBlock, kBlock, 4), kBlock, 0, stream>>>(a);
            return check_launch("grid_forward_kernel");
        }
        a.in = b.dgrid;
        a.out = b.dtheta;
        const int blocks = static_cast<int>(p.n < 65535 ? p.n : 65535);
        grid_backward_kernel<T><<<blocks, kBlock, 0, stream>>>(a);
        return check_launch("grid_backward_kernel");
    }
    a.h_in = p.x.dims[2];
    a.w_in = p.x.dims[3];
    copy_strides(p.x, a.xs);
    a.in = b.x;
    a.grid = b.grid;
    if (forward) {
        copy_strides(p.y, a.ys);
        a.out = b.y;
        const int64_t elements = p.y.element_count();
        sampler_forward_kernel<T><<<grid_size(elements, kBlock, kBlock, 4), kBlock, 0, stream>>>(a);
        return check_launch("sampler_forward_kernel");
    }
    copy_strides(p.dy, a.ys);
    copy_strides(p.dx, a.dxs);
    a.dy = b.dy;
    a.out = b.dx;
    a.dgrid = b.dgrid_out;
    const int64_t inputs = p.x.element_count();
    const int input_blocks = grid_size(inputs, kBlock, kBlock, 4);
    constexpr bool kThroughScratch = !std::is_same_v<T, float> && !std::is_same_v<T, double>;
    if constexpr (kThroughScratch) {
        a.scratch = static_cast<float *>(workspace);
        const size_t bytes = static_cast<size_t>(inputs) * sizeof(float);
        const cudaError_t err = LIBREDNN_CUDA_SITE(async_copy, cudaMemsetAsync(a.scratch, 0, bytes, stream));
        if (err != cudaSuccess) return cuda_failure(err, "clearing the sampler's %zu bytes of scratch", bytes);
    } else {
        scale_dx_kernel<T><<<input_blocks, kBlock, 0, stream>>>(a);
        LIBREDNN_CHECK(check_launch("scale_dx_kernel"));
    }
    sampler_backward_kernel<T><<<grid_size(points, kBlock, kBlock, 4), kBlock, 0, stream>>>(a);
    LIBREDNN_CHECK(check_launch("sampler_backward_kernel"));
    if constexpr (kThroughScratch) {
        blend_dx_kernel<T><<<input_blocks, kBlock, 0, stream>>>(a);
        LIBREDNN_CHECK(check_launch("blend_dx_kernel"));
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

const char *spatial_tf_unsupported_reason(const SpatialTfProblem &p) {
    if (!with_element_type(p.dtype, [](auto) {})) return "the CUDA kernels take float, double, half and bfloat16";
    return nullptr;
}

size_t spatial_tf_workspace_bytes(const SpatialTfProblem &p) {
    const bool half_sums = p.dtype == CUDNN_DATA_HALF || p.dtype == CUDNN_DATA_BFLOAT16;
    if (p.stage != SpatialTfStage::sampler || p.direction != Direction::backward || !half_sums) return 0;
    return static_cast<size_t>(p.x.element_count()) * sizeof(float);
}

Status spatial_tf(cudaStream_t stream, const SpatialTfProblem &p, const SpatialTfBuffers &b, void *workspace,
                  size_t workspace_bytes) {
    if (const char *reason = spatial_tf_unsupported_reason(p)) return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", reason);
    if (workspace_bytes < spatial_tf_workspace_bytes(p)) {
        return fail(CUDNN_STATUS_INTERNAL_ERROR, "the sampler needs %zu bytes of scratch, got %zu",
                    spatial_tf_workspace_bytes(p), workspace_bytes);
    }
    Status status = CUDNN_STATUS_SUCCESS;
    with_element_type(p.dtype, [&](auto tag) { status = launch<decltype(tag)>(stream, p, b, workspace); });
    return status;
}

}  // namespace librednn::cuda
