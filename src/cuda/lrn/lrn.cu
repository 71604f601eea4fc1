// The LRN kernels (lrn.hpp).
#include "cuda/lrn/lrn.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/strided_layout.hpp"

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;

struct LrnArgs {
    DeviceLayout pillars;  // over N and the spatial dims; operands: the result, x, dy
    int64_t pillar_count;
    int channels, behind, ahead, backward;
    int64_t out_c, x_c, dy_c;  // strides along C
    ScalarType type;
    double scale, lrn_beta, lrn_k, alpha, beta;  // scale = lrn_alpha / n
    const void *x, *dy;
    void *out;
};

__device__ __forceinline__ float power(float base, float exponent) { return powf(base, exponent); }
__device__ __forceinline__ double power(double base, double exponent) { return pow(base, exponent); }

// s at channel c of the pillar at x offset `base`: k + alpha / n * the window's sum of squares.
template <class C>
__device__ C scale_at(const LrnArgs &a, int64_t base, int c) {
    const int first = max(c - a.behind, 0), last = min(c + a.ahead, a.channels - 1);
    C squares = C(0);
    for (int w = first; w <= last; ++w) {
        const C v = load_as<C>(a.x, a.type, base + w * a.x_c);
        squares += v * v;
    }
    return static_cast<C>(a.lrn_k) + static_cast<C>(a.scale) * squares;
}

template <class C>
__global__ void __launch_bounds__(kBlock) lrn_kernel(const __grid_constant__ LrnArgs a) {
    const C alpha = static_cast<C>(a.alpha), beta = static_cast<C>(a.beta), lrn_beta = static_cast<C>(a.lrn_beta);
    const C factor = C(2) * static_cast<C>(a.scale) * lrn_beta;
    for (int64_t p = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < a.pillar_count;
         p += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t o[3];
        offsets_of<3>(a.pillars, p, o);
        for (int j = 0; j < a.channels; ++j) {
            const C xj = load_as<C>(a.x, a.type, o[1] + j * a.x_c);
            C value;
            if (!a.backward) {
                value = xj * power(scale_at<C>(a, o[1], j), -lrn_beta);
            } else {
                // The channels c whose window holds j: j - ahead ... j + behind.
                const int first = max(j - a.ahead, 0), last = min(j + a.behind, a.channels - 1);
                C sum = C(0);
                for (int c = first; c <= last; ++c) {
                    sum += load_as<C>(a.dy, a.type, o[2] + c * a.dy_c) * load_as<C>(a.x, a.type, o[1] + c * a.x_c) *
                           power(scale_at<C>(a, o[1], c), -lrn_beta - C(1));
                }
                value = load_as<C>(a.dy, a.type, o[2] + j * a.dy_c) * power(scale_at<C>(a, o[1], j), -lrn_beta) -
                        factor * xj * sum;
            }
            const int64_t at = o[0] + j * a.out_c;
            value *= alpha;
            if (a.beta != 0.0) value += beta * load_as<C>(a.out, a.type, at);
            store_as<C>(a.out, a.type, at, value);
        }
    }
}

}  // namespace

const char *lrn_unsupported_reason(const LrnProblem &p) {
    // A thread walks its channels writing as it goes: in place it would overwrite inputs later
    // channels' windows still read.
    if (p.in_place) return "the CUDA kernels do not work in place (y on x, dx on dy)";
    ScalarType type;
    if (!scalar_type_of(p.x.dtype, &type) || !is_floating(type))
        return "the CUDA kernels take float, double, half and bfloat16";
    return nullptr;
}

Status lrn(cudaStream_t stream, const LrnProblem &p, const LrnBuffers &b) {
    if (const char *reason = lrn_unsupported_reason(p)) return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", reason);
    const bool backward = p.direction == Direction::backward;
    const TensorGeometry &out = p.result();
    StridedLayout layout;
    layout.operands = 3;
    for (int i = 0; i < p.x.nb_dims; ++i) {
        if (i == 1) continue;
        layout.extents[layout.rank] = p.x.dims[i];
        layout.strides[0][layout.rank] = out.strides[i];
        layout.strides[1][layout.rank] = p.x.strides[i];
        layout.strides[2][layout.rank] = backward ? p.dy.strides[i] : 0;
        ++layout.rank;
    }
    layout.drop_unit_dims();
    layout.order_by(0);
    layout.coalesce();
    LrnArgs a{};
    a.pillars = to_device_layout(layout);
    a.pillar_count = p.x.element_count() / p.x.dims[1];
    a.channels = static_cast<int>(p.x.dims[1]);
    a.behind = p.behind();
    a.ahead = p.ahead();
    a.backward = backward;
    a.out_c = out.strides[1];
    a.x_c = p.x.strides[1];
    a.dy_c = backward ? p.dy.strides[1] : 0;
    scalar_type_of(p.x.dtype, &a.type);
    a.scale = p.lrn_alpha / p.n;
    a.lrn_beta = p.lrn_beta;
    a.lrn_k = p.lrn_k;
    a.alpha = p.alpha;
    a.beta = p.beta;
    a.x = b.x;
    a.dy = b.dy;
    a.out = b.result;
    if (a.pillar_count == 0) return CUDNN_STATUS_SUCCESS;
    const int grid = grid_size(a.pillar_count, kBlock, kBlock, 4);
    if (p.x.dtype == CUDNN_DATA_DOUBLE) {
        lrn_kernel<double><<<grid, kBlock, 0, stream>>>(a);
    } else {
        lrn_kernel<float><<<grid, kBlock, 0, stream>>>(a);
    }
    return check_launch("lrn_kernel");
}

}  // namespace librednn::cuda
