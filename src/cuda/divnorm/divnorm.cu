// The divisive normalisation kernels (divnorm.hpp).
#include "cuda/divnorm/divnorm.hpp"

#include "core/cuda_failure.hpp"
#include "core/fault_injection.hpp"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <algorithm>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
// Shared memory of one backward block, g over the box (tile and halo) and dy s^-beta over the tile, that
// the tile is shrunk to fit (small enough for several blocks an SM).
constexpr size_t kSharedBudget = 16 * 1024;

// Dims as N, C, depth, height, width (a 4-d tensor has depth 1); windows 1 along N, C and a padded depth.
struct DivNormArgs {
    int64_t dims[5];
    int64_t window[5];
    int64_t behind[5];
    int64_t x_strides[5];    // x, means and dy (xDesc)
    int64_t out_strides[5];  // y, or dx and dMeans
    int64_t count;           // elements
    // Backward tiling: tile extents and tiles per spatial dim, blocks' work items, shared capacities.
    int64_t tile[5];
    int64_t tiles[5];
    int64_t tiles_per_plane, block_count, box_capacity;
    ScalarType type;
    double k, scale, lrn_beta, alpha, beta, factor;  // scale = lrn_alpha / n^d, factor = 2 lrn_beta scale
    const void *x, *means, *dy;
    void *out, *d_means;
};

__device__ __forceinline__ float power(float base, float exponent) { return powf(base, exponent); }
__device__ __forceinline__ double power(double base, double exponent) { return pow(base, exponent); }

__device__ __forceinline__ int64_t larger(int64_t a, int64_t b) { return a > b ? a : b; }
__device__ __forceinline__ int64_t smaller(int64_t a, int64_t b) { return a < b ? a : b; }

__device__ __forceinline__ int64_t offset_in(const int64_t (&strides)[5], const int64_t (&at)[5]) {
    int64_t offset = 0;
#pragma unroll
    for (int i = 0; i < 5; ++i) offset += at[i] * strides[i];
    return offset;
}

// out = alpha * value + beta * out; beta == 0 never reads out.
template <class C>
__device__ __forceinline__ void store_blended(const DivNormArgs &a, void *out, int64_t offset, C value) {
    value *= static_cast<C>(a.alpha);
    if (a.beta != 0.0) value += static_cast<C>(a.beta) * load_as<C>(out, a.type, offset);
    store_as<C>(out, a.type, offset, value);
}

// Sums over W(p) of (x_j - m)^2 and of x_j - m, p = at (its N and C fix the image and channel).
template <class C>
__device__ void window_sums(const DivNormArgs &a, const int64_t (&at)[5], C m, C *squares, C *differences) {
    int64_t first[5], last[5];
#pragma unroll
    for (int i = 2; i < 5; ++i) {
        first[i] = larger(at[i] - a.behind[i], 0);
        last[i] = smaller(at[i] - a.behind[i] + a.window[i] - 1, a.dims[i] - 1);
    }
    const int64_t base = at[0] * a.x_strides[0] + at[1] * a.x_strides[1];
    C sq = C(0), diff = C(0);
    for (int64_t d = first[2]; d <= last[2]; ++d)
        for (int64_t h = first[3]; h <= last[3]; ++h) {
            const int64_t row = base + d * a.x_strides[2] + h * a.x_strides[3];
            for (int64_t w = first[4]; w <= last[4]; ++w) {
                const C v = load_as<C>(a.x, a.type, row + w * a.x_strides[4]) - m;
                sq += v * v;
                diff += v;
            }
        }
    *squares = sq;
    *differences = diff;
}

template <class C>
__global__ void __launch_bounds__(kBlock) divnorm_forward_kernel(const __grid_constant__ DivNormArgs a) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.count;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t at[5];
        int64_t rest = e;
#pragma unroll
        for (int i = 4; i >= 0; --i) {
            at[i] = rest % a.dims[i];
            rest /= a.dims[i];
        }
        const int64_t xo = offset_in(a.x_strides, at);
        const C m = a.means ? load_as<C>(a.means, a.type, xo) : C(0);
        C squares, differences;
        window_sums<C>(a, at, m, &squares, &differences);
        const C s = static_cast<C>(a.k) + static_cast<C>(a.scale) * squares;
        const C value = load_as<C>(a.x, a.type, xo) * power(s, -static_cast<C>(a.lrn_beta));
        store_blended<C>(a, a.out, offset_in(a.out_strides, at), value);
    }
}

template <class C>
__global__ void __launch_bounds__(kBlock) divnorm_backward_kernel(const __grid_constant__ DivNormArgs a) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    C *g = reinterpret_cast<C *>(shared_bytes);  // over the box
    C *direct = g + a.box_capacity;              // dy_q s_q^-beta over the tile
    const C lrn_beta = static_cast<C>(a.lrn_beta), factor = static_cast<C>(a.factor);
    for (int64_t block = blockIdx.x; block < a.block_count; block += gridDim.x) {
        // The block's image and channel, its tile [origin, end) and box [low, high].
        int64_t origin[5], end[5], low[5], high[5], box[5], extent[5];
        const int64_t plane = block / a.tiles_per_plane;
        int64_t rest = block - plane * a.tiles_per_plane;
        origin[0] = plane / a.dims[1];
        origin[1] = plane - origin[0] * a.dims[1];
#pragma unroll
        for (int i = 4; i >= 2; --i) {
            const int64_t t = rest % a.tiles[i];
            rest /= a.tiles[i];
            origin[i] = t * a.tile[i];
            end[i] = smaller(origin[i] + a.tile[i], a.dims[i]);
            extent[i] = end[i] - origin[i];
            const int64_t ahead = a.window[i] - 1 - a.behind[i];
            low[i] = larger(origin[i] - ahead, 0);
            high[i] = smaller(end[i] - 1 + a.behind[i], a.dims[i] - 1);
            box[i] = high[i] - low[i] + 1;
        }
        const int64_t box_count = box[2] * box[3] * box[4];
        const int64_t tile_count = extent[2] * extent[3] * extent[4];

        // g over the box; dy s^-beta and dMeans over the tile.
        for (int64_t i = threadIdx.x; i < box_count; i += blockDim.x) {
            int64_t at[5];
            at[0] = origin[0];
            at[1] = origin[1];
            at[4] = low[4] + i % box[4];
            at[3] = low[3] + (i / box[4]) % box[3];
            at[2] = low[2] + i / (box[4] * box[3]);
            const int64_t xo = offset_in(a.x_strides, at);
            const C m = a.means ? load_as<C>(a.means, a.type, xo) : C(0);
            C squares, differences;
            window_sums<C>(a, at, m, &squares, &differences);
            const C s = static_cast<C>(a.k) + static_cast<C>(a.scale) * squares;
            const C s_power = power(s, -lrn_beta);
            const C dy = load_as<C>(a.dy, a.type, xo);
            const C gp = dy * load_as<C>(a.x, a.type, xo) * (s_power / s);
            g[i] = gp;
            if (at[2] >= origin[2] && at[2] < end[2] && at[3] >= origin[3] && at[3] < end[3] && at[4] >= origin[4] &&
                at[4] < end[4]) {
                direct[((at[2] - origin[2]) * extent[3] + at[3] - origin[3]) * extent[4] + at[4] - origin[4]] =
                    dy * s_power;
                if (a.d_means) store_blended<C>(a, a.d_means, offset_in(a.out_strides, at), factor * gp * differences);
            }
        }
        __syncthreads();

        // dx over the tile: the positions whose window holds q are q - ahead ... q + behind, in the box.
        for (int64_t i = threadIdx.x; i < tile_count; i += blockDim.x) {
            int64_t q[5], first[5], last[5];
            q[0] = origin[0];
            q[1] = origin[1];
            q[4] = origin[4] + i % extent[4];
            q[3] = origin[3] + (i / extent[4]) % extent[3];
            q[2] = origin[2] + i / (extent[4] * extent[3]);
#pragma unroll
            for (int d = 2; d < 5; ++d) {
                first[d] = larger(q[d] - (a.window[d] - 1 - a.behind[d]), 0);
                last[d] = smaller(q[d] + a.behind[d], a.dims[d] - 1);
            }
            const C xq = load_as<C>(a.x, a.type, offset_in(a.x_strides, q));
            C sum = C(0);
            int64_t p[5];
            p[0] = q[0];
            p[1] = q[1];
            for (p[2] = first[2]; p[2] <= last[2]; ++p[2])
                for (p[3] = first[3]; p[3] <= last[3]; ++p[3])
                    for (p[4] = first[4]; p[4] <= last[4]; ++p[4]) {
                        const C m = a.means ? load_as<C>(a.means, a.type, offset_in(a.x_strides, p)) : C(0);
                        sum += g[((p[2] - low[2]) * box[3] + p[3] - low[3]) * box[4] + p[4] - low[4]] * (xq - m);
                    }
            store_blended<C>(a, a.out, offset_in(a.out_strides, q), direct[i] - factor * sum);
        }
        __syncthreads();  // the next tile reuses the shared memory
    }
}

// Strides of `g` over the box dims (0 along a padded depth).
void box_strides(const TensorGeometry &g, int64_t (&strides)[5]) {
    const int spatial = g.nb_dims - 2;
    strides[0] = g.strides[0];
    strides[1] = g.strides[1];
    for (int i = 2; i < 5; ++i) {
        const int axis = i - (3 - spatial);
        strides[i] = axis >= 2 ? g.strides[axis] : 0;
    }
}

// The backward tile: 16x16 (4x8x8 in 3-d), each extent at most the image's, halved along its largest
// dim until g over the box and the tile's direct terms fit kSharedBudget, or the tile is one position
// (its box, at most 16^3 positions, takes at most 32 KB in double: within the 48 KB every block may use).
void choose_tile(DivNormArgs *a, size_t element_bytes) {
    const bool three_d = a->window[2] > 1 || a->dims[2] > 1;
    const int64_t preferred[5] = {1, 1, three_d ? 4 : 1, three_d ? 8 : 16, three_d ? 8 : 16};
    for (int i = 2; i < 5; ++i) a->tile[i] = std::min(preferred[i], a->dims[i]);
    for (;;) {
        int64_t box = 1, tile = 1;
        for (int i = 2; i < 5; ++i) {
            box *= std::min(a->tile[i] + a->window[i] - 1, a->dims[i]);
            tile *= a->tile[i];
        }
        int largest = 2;
        for (int i = 3; i < 5; ++i) {
            if (a->tile[i] > a->tile[largest]) largest = i;
        }
        if (static_cast<size_t>(box + tile) * element_bytes <= kSharedBudget || a->tile[largest] == 1) {
            a->box_capacity = box;
            break;
        }
        a->tile[largest] = (a->tile[largest] + 1) / 2;
    }
    a->tile[0] = a->tile[1] = 1;
    a->tiles[0] = a->dims[0];
    a->tiles[1] = a->dims[1];
    a->tiles_per_plane = 1;
    for (int i = 2; i < 5; ++i) {
        a->tiles[i] = (a->dims[i] + a->tile[i] - 1) / a->tile[i];
        a->tiles_per_plane *= a->tiles[i];
    }
    a->block_count = a->dims[0] * a->dims[1] * a->tiles_per_plane;
}

template <class C>
Status launch(cudaStream_t stream, const DivNormProblem &p, DivNormArgs &a) {
    if (p.direction == Direction::forward) {
        divnorm_forward_kernel<C><<<grid_size(a.count, kBlock, kBlock, 4), kBlock, 0, stream>>>(a);
        return check_launch("divnorm_forward_kernel");
    }
    choose_tile(&a, sizeof(C));
    int64_t tile = 1;
    for (int i = 2; i < 5; ++i) tile *= a.tile[i];
    const size_t shared = static_cast<size_t>(a.box_capacity + tile) * sizeof(C);
    divnorm_backward_kernel<C><<<grid_size(a.block_count, 1, kBlock, 4), kBlock, shared, stream>>>(a);
    return check_launch("divnorm_backward_kernel");
}

}  // namespace

const char *divnorm_unsupported_reason(const DivNormProblem &p) {
    if (p.x.dtype != CUDNN_DATA_FLOAT && p.x.dtype != CUDNN_DATA_DOUBLE && p.x.dtype != CUDNN_DATA_HALF)
        return "the CUDA kernels take float, double and half";
    return nullptr;
}

Status divnorm(cudaStream_t stream, const DivNormProblem &p, const DivNormBuffers &buffers) {
    if (const char *reason = divnorm_unsupported_reason(p)) return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", reason);
    const DivNormPlan plan = plan_divnorm_buffers(p, buffers);
    for (int i = 0; i < plan.copy_count; ++i) {
        const cudaError_t error = LIBREDNN_CUDA_SITE(
            async_copy,
            cudaMemcpyAsync(plan.copies[i].to, plan.copies[i].from, plan.copy_bytes, cudaMemcpyDeviceToDevice, stream));
        if (error != cudaSuccess) {
            return cuda_failure(error, "copying an input the output overwrites into temp%s", i == 0 ? "" : "2");
        }
    }
    const DivNormBuffers &b = plan.buffers;
    const bool backward = p.direction == Direction::backward;
    DivNormArgs a{};
    const int spatial = p.spatial_dims();
    a.dims[0] = p.x.dims[0];
    a.dims[1] = p.x.dims[1];
    for (int i = 0; i < 5; ++i) a.window[i] = 1;
    for (int i = 2; i < 5; ++i) {
        const int axis = i - (3 - spatial);
        a.dims[i] = axis >= 2 ? p.x.dims[axis] : 1;
        a.window[i] = axis >= 2 ? p.n : 1;
        a.behind[i] = axis >= 2 ? p.behind() : 0;
    }
    box_strides(p.x, a.x_strides);
    box_strides(p.result(), a.out_strides);
    a.count = p.x.element_count();
    scalar_type_of(p.x.dtype, &a.type);
    a.k = p.lrn_k;
    a.scale = p.scale();
    a.lrn_beta = p.lrn_beta;
    a.alpha = p.alpha;
    a.beta = p.beta;
    a.factor = 2.0 * p.lrn_beta * p.scale();
    a.x = b.x;
    a.means = p.means ? b.means : nullptr;
    a.dy = backward ? b.dy : nullptr;
    a.out = b.result;
    a.d_means = backward && p.d_means ? b.d_means : nullptr;
    return p.x.dtype == CUDNN_DATA_DOUBLE ? launch<double>(stream, p, a) : launch<float>(stream, p, a);
}

}  // namespace librednn::cuda
