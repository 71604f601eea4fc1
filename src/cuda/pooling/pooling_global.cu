// The global-pooling kernels (pooling_global.hpp).
#include "cuda/pooling/pooling_global.hpp"

#include "core/data_type.hpp"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/pooling/pooling_device.cuh"
#include "cuda/pooling/pooling_packed.hpp"

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kPlanes = 128;                   // NCHW forward: planes a block, one a thread
constexpr int kMaxPlane = 64;                  // NCHW forward: values a plane (shared memory: kPlanes x 65 floats)
constexpr int kParts = 4;                      // NHWC forward: threads an output vector (head: 18.7 us, 20.0 at 8)
constexpr int kPartVectors = kBlock / kParts;  // NHWC forward: output vectors a block
constexpr int kBatch = 8;                      // NHWC forward: loads a thread issues together
constexpr int kRun = 49;                       // NHWC backward: positions a thread writes (head: 16.4 us, 17.2 at 7)

struct GlobalArgs {
    int64_t work;          // planes (NCHW forward), vectors (NHWC forward), or the result's elements or vectors
    int spatial;           // S: positions an image
    FastDivisor plane_of;  // divides by S (NCHW), or by the runs of kRun positions an image (NHWC backward)
    FastDivisor vector_count;
    int64_t vectors;  // NHWC: channel vectors a position
    int propagate;
    float alpha, beta, divisor;
    const void *x, *dy;
    void *result;
};

template <class T>
__device__ __forceinline__ T blend(const GlobalArgs &a, float value, const T *old) {
    value *= a.alpha;
    if (a.beta != 0.0f) value += a.beta * to_compute<float>(*old);
    return from_compute<T>(value);
}

// NCHW forward: the block's planes lie one after another (128 x S values from plane 128 x block); 16-byte
// loads put them in shared memory, each plane at an odd stride (no bank conflicts when each thread walks its
// own), then thread t folds plane t.
template <class T, bool kAverage>
__global__ void __launch_bounds__(kPlanes) global_nchw_forward_kernel(const __grid_constant__ GlobalArgs a) {
    constexpr int kLanes = 16 / static_cast<int>(sizeof(T));
    using V = Lanes<T, kLanes>;
    __shared__ float values[kPlanes * (kMaxPlane + 1)];
    const int S = a.spatial, stride = S | 1;
    const int64_t first = static_cast<int64_t>(blockIdx.x) * kPlanes;
    const int planes = static_cast<int>(min(static_cast<int64_t>(kPlanes), a.work - first));
    const int count = planes * S;
    const T *x = static_cast<const T *>(a.x) + first * S;
    const int vectors = count / kLanes;
#pragma unroll 4
    for (int i = threadIdx.x; i < vectors; i += kPlanes) {
        const V v = reinterpret_cast<const V *>(x)[i];
        int plane = static_cast<int>(divide(a.plane_of, i * kLanes));
        int into = i * kLanes - plane * S;
#pragma unroll
        for (int l = 0; l < kLanes; ++l) {
            values[plane * stride + into] = to_compute<float>(v.lane[l]);
            if (++into == S) into = 0, ++plane;
        }
    }
    for (int e = vectors * kLanes + threadIdx.x; e < count; e += kPlanes) {
        const int plane = static_cast<int>(divide(a.plane_of, e));
        values[plane * stride + e - plane * S] = to_compute<float>(x[e]);
    }
    __syncthreads();
    if (static_cast<int>(threadIdx.x) >= planes) return;
    const float *mine = values + threadIdx.x * stride;
    float acc = kAverage ? 0.0f : max_none(a.propagate);
    for (int k = 0; k < S; ++k) {
        if (kAverage) {
            acc += mine[k];
        } else {
            fold_max(acc, mine[k], a.propagate);
        }
    }
    T *y = static_cast<T *>(a.result) + first + threadIdx.x;
    *y = blend(a, kAverage ? acc / a.divisor : max_result(acc, a.propagate), y);
}

// NHWC forward: kParts threads an output vector (channel vector cv of image n; an image's 7 x 7 = 49 positions
// are too few loads for one thread to keep the memory busy), part p folding positions p, p + kParts, ...,
// kBatch loads at a time; the parts meet in shared memory, where part 0 folds the others in part order.
template <class T, bool kAverage>
__global__ void __launch_bounds__(kBlock) global_nhwc_forward_kernel(const __grid_constant__ GlobalArgs a) {
    constexpr int kLanes = 16 / static_cast<int>(sizeof(T));
    using V = Lanes<T, kLanes>;
    __shared__ float parts[kParts - 1][kLanes][kPartVectors];
    const int i = threadIdx.x % kPartVectors, part = threadIdx.x / kPartVectors;
    // Uniform over the block (it meets a barrier each round).
    for (int64_t base = static_cast<int64_t>(blockIdx.x) * kPartVectors; base < a.work;
         base += static_cast<int64_t>(gridDim.x) * kPartVectors) {
        const int64_t v = base + i;
        float acc[kLanes];
#pragma unroll
        for (int l = 0; l < kLanes; ++l) acc[l] = kAverage ? 0.0f : max_none(a.propagate);
        if (v < a.work) {
            const int64_t n = divide(a.vector_count, v), cv = v - n * a.vectors;
            const V *x = static_cast<const V *>(a.x) + n * a.spatial * a.vectors + cv;
            for (int k0 = part; k0 < a.spatial; k0 += kParts * kBatch) {
                V in[kBatch];
#pragma unroll
                for (int b = 0; b < kBatch; ++b) {
                    if (k0 + b * kParts < a.spatial) in[b] = x[static_cast<int64_t>(k0 + b * kParts) * a.vectors];
                }
#pragma unroll
                for (int b = 0; b < kBatch; ++b) {
                    if (k0 + b * kParts >= a.spatial) continue;
#pragma unroll
                    for (int l = 0; l < kLanes; ++l) {
                        if (kAverage) {
                            acc[l] += to_compute<float>(in[b].lane[l]);
                        } else {
                            fold_max(acc[l], to_compute<float>(in[b].lane[l]), a.propagate);
                        }
                    }
                }
            }
        }
        if (part > 0) {
#pragma unroll
            for (int l = 0; l < kLanes; ++l) parts[part - 1][l][i] = acc[l];
        }
        __syncthreads();
        if (part == 0 && v < a.work) {
#pragma unroll
            for (int p = 0; p < kParts - 1; ++p) {
#pragma unroll
                for (int l = 0; l < kLanes; ++l) {
                    if (kAverage) {
                        acc[l] += parts[p][l][i];
                    } else {
                        fold_max(acc[l], parts[p][l][i], a.propagate);
                    }
                }
            }
            V *y = static_cast<V *>(a.result) + v;
            V result;
            if (a.beta != 0.0f) result = *y;
#pragma unroll
            for (int l = 0; l < kLanes; ++l) {
                result.lane[l] =
                    blend(a, kAverage ? acc[l] / a.divisor : max_result(acc[l], a.propagate), &result.lane[l]);
            }
            *y = result;
        }
        __syncthreads();  // the parts are read before the next round writes them
    }
}

// The averages' backward: each input's share of its output's dy (as the gather sums it: 0 + dy / count).
__device__ __forceinline__ float share(const GlobalArgs &a, float g) {
    float sum = 0.0f;
    sum += g / a.divisor;
    return sum;
}

// NCHW backward: thread v writes dx's 16-byte vector v. Planes of at least a vector's values: a vector meets
// at most two planes, whose dy it loads once each; smaller planes: a load a value.
template <class T>
__global__ void __launch_bounds__(kBlock) global_nchw_backward_kernel(const __grid_constant__ GlobalArgs a) {
    constexpr int kLanes = 16 / static_cast<int>(sizeof(T));
    using V = Lanes<T, kLanes>;
    const T *dy = static_cast<const T *>(a.dy);
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t plane = divide(a.plane_of, v * kLanes);
        int into = static_cast<int>(v * kLanes - plane * a.spatial);
        V *dx = static_cast<V *>(a.result) + v;
        V result;
        if (a.beta != 0.0f) result = *dx;
        if (a.spatial >= kLanes) {
            const float first = share(a, to_compute<float>(dy[plane]));
            const float second = into + kLanes > a.spatial ? share(a, to_compute<float>(dy[plane + 1])) : first;
#pragma unroll
            for (int l = 0; l < kLanes; ++l)
                result.lane[l] = blend(a, into + l < a.spatial ? first : second, &result.lane[l]);
        } else {
#pragma unroll
            for (int l = 0; l < kLanes; ++l) {
                result.lane[l] = blend(a, share(a, to_compute<float>(dy[plane])), &result.lane[l]);
                if (++into == a.spatial) into = 0, ++plane;
            }
        }
        *dx = result;
    }
}

// NHWC backward: thread v takes channel vector cv of image n over a run of kRun positions (v = (n x runs + run)
// x vectors + cv: neighbouring threads write neighbouring vectors); it loads dy once and writes its share to
// each position.
template <class T>
__global__ void __launch_bounds__(kBlock) global_nhwc_backward_kernel(const __grid_constant__ GlobalArgs a) {
    constexpr int kLanes = 16 / static_cast<int>(sizeof(T));
    using V = Lanes<T, kLanes>;
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t rest = divide(a.vector_count, v), cv = v - rest * a.vectors;
        const int64_t n = divide(a.plane_of, rest);  // plane_of: the runs an image
        const int k0 = static_cast<int>(rest - n * a.plane_of.divisor) * kRun;
        const int count = min(kRun, a.spatial - k0);
        const V g = static_cast<const V *>(a.dy)[n * a.vectors + cv];
        float shares[kLanes];
#pragma unroll
        for (int l = 0; l < kLanes; ++l) shares[l] = share(a, to_compute<float>(g.lane[l]));
        V *dx = static_cast<V *>(a.result) + (n * a.spatial + k0) * a.vectors + cv;
        if (a.beta == 0.0f) {
            V result;
#pragma unroll
            for (int l = 0; l < kLanes; ++l) result.lane[l] = blend(a, shares[l], &result.lane[l]);
#pragma unroll
            for (int k = 0; k < kRun; ++k) {
                if (k < count) dx[k * a.vectors] = result;
            }
        } else {
#pragma unroll
            for (int k = 0; k < kRun; ++k) {
                if (k >= count) continue;
                V result = dx[k * a.vectors];
#pragma unroll
                for (int l = 0; l < kLanes; ++l) result.lane[l] = blend(a, shares[l], &result.lane[l]);
                dx[k * a.vectors] = result;
            }
        }
    }
}

template <class T>
Status run(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
    constexpr int kLanes = 16 / static_cast<int>(sizeof(T));
    const bool nchw = pooling_packed_nchw(p), forward = p.direction == Direction::forward;
    GlobalArgs a{};
    a.spatial = static_cast<int>(p.x.dims[2] * p.x.dims[3]);
    a.vectors = nchw ? 1 : p.x.dims[1] / kLanes;
    a.vector_count = make_fast_divisor(a.vectors);
    a.propagate = p.nan_opt == CUDNN_PROPAGATE_NAN;
    a.alpha = static_cast<float>(p.alpha);
    a.beta = static_cast<float>(p.beta);
    // No padding: both averages divide by the window, the image.
    a.divisor = static_cast<float>(a.spatial);
    a.x = b.x;
    a.dy = b.dy;
    a.result = b.result;
    const int64_t images = p.x.dims[0], planes = images * p.x.dims[1];
    const bool average = !p.is_max();
    if (forward) {
        if (nchw) {
            a.work = planes;
            a.plane_of = make_fast_divisor(a.spatial);
            const int64_t blocks = (planes + kPlanes - 1) / kPlanes;
            if (blocks == 0) return CUDNN_STATUS_SUCCESS;
            if (average) {
                global_nchw_forward_kernel<T, true><<<static_cast<int>(blocks), kPlanes, 0, stream>>>(a);
            } else {
                global_nchw_forward_kernel<T, false><<<static_cast<int>(blocks), kPlanes, 0, stream>>>(a);
            }
            return check_launch("global_nchw_forward_kernel");
        }
        a.work = images * a.vectors;
        if (a.work == 0) return CUDNN_STATUS_SUCCESS;
        const int grid = grid_size(a.work, kPartVectors, kBlock, 4);
        if (average) {
            global_nhwc_forward_kernel<T, true><<<grid, kBlock, 0, stream>>>(a);
        } else {
            global_nhwc_forward_kernel<T, false><<<grid, kBlock, 0, stream>>>(a);
        }
        return check_launch("global_nhwc_forward_kernel");
    }
    if (nchw) {
        a.work = planes * a.spatial / kLanes;
        if (a.work == 0) return CUDNN_STATUS_SUCCESS;
        a.plane_of = make_fast_divisor(a.spatial);
        global_nchw_backward_kernel<T><<<grid_size(a.work, kBlock, kBlock, 4), kBlock, 0, stream>>>(a);
        return check_launch("global_nchw_backward_kernel");
    }
    const int64_t runs = (a.spatial + kRun - 1) / kRun;
    a.work = images * runs * a.vectors;
    if (a.work == 0) return CUDNN_STATUS_SUCCESS;
    a.plane_of = make_fast_divisor(runs);
    global_nhwc_backward_kernel<T><<<grid_size(a.work, kBlock, kBlock, 4), kBlock, 0, stream>>>(a);
    return check_launch("global_nhwc_backward_kernel");
}

}  // namespace

bool pooling_global_applicable(const PoolingProblem &p, const PoolingBuffers &b) {
    // LIBREDNN_POOLING_GLOBAL=0 leaves these problems to the packed kernels (to compare the two).
    static const bool off = switched_off("LIBREDNN_POOLING_GLOBAL");
    if (p.spatial_dims != 2 || off) return false;
    if (p.x.dtype != CUDNN_DATA_FLOAT && p.x.dtype != CUDNN_DATA_HALF && p.x.dtype != CUDNN_DATA_BFLOAT16) return false;
    const bool forward = p.direction == Direction::forward;
    if (!forward && p.is_max()) return false;
    for (int d = 0; d < 2; ++d) {
        if (p.window[d] != p.x.dims[2 + d] || p.pad[d] != 0 || p.y.dims[2 + d] != 1) return false;
    }
    if (b.result == b.x || b.result == b.dy) return false;
    const int64_t spatial = p.x.dims[2] * p.x.dims[3];
    if (spatial > (int64_t{1} << 30)) return false;
    const int64_t lanes = 16 / static_cast<int64_t>(data_type_size(p.x.dtype));
    if (pooling_packed_nchw(p)) {
        // Forward: planes that fit the block's shared memory; backward: dx in whole vectors.
        if (forward) return spatial <= kMaxPlane && aligned_or_null(b.x, 16);
        return (p.x.element_count() % lanes) == 0 && aligned_or_null(b.result, 16);
    }
    if (!pooling_packed_nhwc(p) || p.x.dims[1] % lanes != 0) return false;
    return aligned_or_null(b.x, 16) && aligned_or_null(b.dy, 16) && aligned_or_null(b.result, 16);
}

Status pooling_global(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
    switch (p.x.dtype) {
        case CUDNN_DATA_HALF: return run<__half>(stream, p, b);
        case CUDNN_DATA_BFLOAT16: return run<__nv_bfloat16>(stream, p, b);
        default: return run<float>(stream, p, b);
    }
}

}  // namespace librednn::cuda
