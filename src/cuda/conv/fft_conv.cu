// The CUDA FFT convolutions (fft_conv.hpp). Per group, three batches of transforms in the workspace:
//   forward, backward data   A: the src windows [image][tile][summed channel]   (forward transforms)
//                            B: the filters     [produced channel][summed]      (forward transforms)
//                            S: the sums        [image][tile][produced channel] (inverse transforms)
//   backward filter          A: the x windows   [image][tile][c]
//                            B: the dy tiles    [image][tile][k]
//                            S: the sums        [k][c]
// S = sum of A conj(B) over the summed channels (forward, backward data) or over the images and tiles
// (backward filter), each point's sum in a fixed order; then cuFFT's inverse, and the crop and blend.
#include "cuda/conv/fft_conv.hpp"

#include "cuda/common/cufft.hpp"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <algorithm>
#include <climits>
#include <string>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
constexpr size_t kAlign = 256;

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

template <class C>
struct ComplexOf;
template <>
struct ComplexOf<float> {
    using type = float2;
};
template <>
struct ComplexOf<double> {
    using type = double2;
};

// Three dims, outer to inner; leading dims of extent 1 where the problem has fewer.
struct Dims3 {
    int64_t e[3] = {1, 1, 1};
};

Dims3 dims3(const FftCorrelation &c, const int64_t *values, int64_t fill = 1) {
    Dims3 out;
    for (int d = 0; d < 3 - c.dims; ++d) out.e[d] = fill;
    for (int d = 0; d < c.dims; ++d) out.e[3 - c.dims + d] = values[d];
    return out;
}

// Splits a row-major index over `extent` into coordinates.
__device__ __forceinline__ void split(int64_t index, const int64_t *extent, int64_t *at) {
    at[2] = index % extent[2];
    index /= extent[2];
    at[1] = index % extent[1];
    at[0] = index / extent[1];
}

// Cuts `channels` channels of a tensor into transforms: out[n][tile][i][j] = the value at position tile
// origin + shift + j of data[n][channel0 + i] for j < take, 0 elsewhere (the src windows, the dy tiles).
// Value v sits at position v * spread (zeros between: strided backward data's dy).
struct CutArgs {
    const void *data;
    ScalarType type;
    int64_t stride_n, stride_c, stride[3], extent[3], spread[3];
    int64_t fft[3], tiles[3], step[3], shift[3], take[3];
    int64_t channel0, channels, tile_count, points, count;
};

template <class C>
__global__ void __launch_bounds__(kBlock)
    cut_kernel(const __grid_constant__ CutArgs a, typename ComplexOf<C>::type *out) {
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.count; e += threads) {
        int64_t rest = e / a.points;
        const int64_t i = rest % a.channels;
        rest /= a.channels;
        const int64_t tile = rest % a.tile_count, n = rest / a.tile_count;
        int64_t j[3], t[3];
        split(e % a.points, a.fft, j);
        split(tile, a.tiles, t);
        int64_t offset = n * a.stride_n + (a.channel0 + i) * a.stride_c;
        bool inside = true;
#pragma unroll
        for (int d = 0; d < 3; ++d) {
            const int64_t position = t[d] * a.step[d] + a.shift[d] + j[d];
            const int64_t at = position / a.spread[d];
            inside = inside && j[d] < a.take[d] && position >= 0 && at * a.spread[d] == position && at < a.extent[d];
            offset += at * a.stride[d];
        }
        out[e].x = inside ? load_as<C>(a.data, a.type, offset) : C(0);
        out[e].y = C(0);
    }
}

// The filters as transforms, [produced][summed][points]: forward o is the filter (k0 + o) and i its
// channel; backward data i is the filter (k0 + i) and o the channel. `reverse` reads tap R - 1 - j.
struct FilterArgs {
    const void *w;
    ScalarType type;
    int64_t stride_k, stride_c, stride[3], extent[3];
    int64_t fft[3];
    int64_t points, summed, count, k0;
    int forward, reverse;
};

template <class C>
__global__ void __launch_bounds__(kBlock)
    filter_kernel(const __grid_constant__ FilterArgs a, typename ComplexOf<C>::type *out) {
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.count; e += threads) {
        const int64_t i = e / a.points % a.summed, o = e / (a.points * a.summed);
        const int64_t k = a.k0 + (a.forward ? o : i), c = a.forward ? i : o;
        int64_t j[3];
        split(e % a.points, a.fft, j);
        int64_t offset = k * a.stride_k + c * a.stride_c;
        bool inside = true;
#pragma unroll
        for (int d = 0; d < 3; ++d) {
            inside = inside && j[d] < a.extent[d];
            offset += (a.reverse ? a.extent[d] - 1 - j[d] : j[d]) * a.stride[d];
        }
        out[e].x = inside ? load_as<C>(a.w, a.type, offset) : C(0);
        out[e].y = C(0);
    }
}

// sums[b][o][j] = sum over i of windows[b][i][j] conj(filters[o][i][j]) (forward, backward data), or
// sums[k][c][j] = sum over b of windows[b][c][j] conj(tiles[b][k][j]) (backward filter), in index order.
struct ProductArgs {
    int64_t points, summed, produced, count;
    int64_t rows;  // backward filter: the windows' channels (c)
    int filter_gradient;
};

template <class C>
__global__ void __launch_bounds__(kBlock)
    product_kernel(const __grid_constant__ ProductArgs a, const typename ComplexOf<C>::type *windows,
                   const typename ComplexOf<C>::type *filters, typename ComplexOf<C>::type *sums) {
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.count; e += threads) {
        const int64_t j = e % a.points;
        C re = 0, im = 0;
        if (a.filter_gradient) {
            const int64_t c = e / a.points % a.rows, k = e / (a.points * a.rows);
            for (int64_t b = 0; b < a.summed; ++b) {
                const auto x = windows[(b * a.rows + c) * a.points + j];
                const auto f = filters[(b * a.produced + k) * a.points + j];
                re += x.x * f.x + x.y * f.y;
                im += x.y * f.x - x.x * f.y;
            }
        } else {
            const int64_t o = e / a.points % a.produced, b = e / (a.points * a.produced);
            for (int64_t i = 0; i < a.summed; ++i) {
                const auto x = windows[(b * a.summed + i) * a.points + j];
                const auto f = filters[(o * a.summed + i) * a.points + j];
                re += x.x * f.x + x.y * f.y;
                im += x.y * f.x - x.x * f.y;
            }
        }
        sums[e].x = re;
        sums[e].y = im;
    }
}

// result = alpha * Re(sum) / points + beta * result, or the fused forward epilogue. Forward and backward
// data: result[n][channel0 + o][q], read at position p = q * skip (strided forward keeps every skip-th
// position) from tile p / step at p % step. Backward filter: dw[k0 + k][c][t], read at t (at R - 1 - t, per
// dim, for CUDNN_CONVOLUTION).
struct StoreArgs {
    void *result;
    ScalarType type;
    int64_t stride_n, stride_c, stride[3], extent[3], skip[3];
    int64_t fft[3], tiles[3], step[3];
    int64_t tile_count, points, produced, channel0, out_points, count;
    int filter_gradient, flip;
    int64_t rows;  // backward filter: c per group
    double alpha, beta;
    int fused, relu, relu_propagates_nan;
    double alpha2;
    const void *z;
    ScalarType z_type;
    int64_t z_stride_n, z_stride_c, z_stride[3];
    const void *bias;
    ScalarType bias_type;
    int64_t bias_stride;
};

template <class C>
__global__ void __launch_bounds__(kBlock)
    store_kernel(const __grid_constant__ StoreArgs a, const typename ComplexOf<C>::type *sums) {
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.count; e += threads) {
        int64_t q[3];
        split(e % a.out_points, a.extent, q);
        int64_t offset = 0, z_offset = 0, channel = 0, at = 0;
        if (a.filter_gradient) {
            const int64_t c = e / a.out_points % a.rows, k = e / (a.out_points * a.rows);
            int64_t m = 0;
#pragma unroll
            for (int d = 0; d < 3; ++d) m = m * a.fft[d] + (a.flip ? a.extent[d] - 1 - q[d] : q[d]);
            at = (k * a.rows + c) * a.points + m;
            offset = (a.channel0 + k) * a.stride_n + c * a.stride_c;
        } else {
            const int64_t o = e / a.out_points % a.produced, n = e / (a.out_points * a.produced);
            int64_t tile = 0, m = 0;
#pragma unroll
            for (int d = 0; d < 3; ++d) {
                const int64_t position = q[d] * a.skip[d], t = position / a.step[d];
                tile = tile * a.tiles[d] + t;
                m = m * a.fft[d] + (position - t * a.step[d]);
            }
            at = ((n * a.tile_count + tile) * a.produced + o) * a.points + m;
            channel = a.channel0 + o;
            offset = n * a.stride_n + channel * a.stride_c;
            z_offset = n * a.z_stride_n + channel * a.z_stride_c;
        }
#pragma unroll
        for (int d = 0; d < 3; ++d) {
            offset += q[d] * a.stride[d];
            z_offset += q[d] * a.z_stride[d];
        }
        C value = static_cast<C>(a.alpha) * (sums[at].x / static_cast<C>(a.points));
        if (a.fused) {
            value += load_as<C>(a.bias, a.bias_type, channel * a.bias_stride);
            if (a.alpha2 != 0.0) value += static_cast<C>(a.alpha2) * load_as<C>(a.z, a.z_type, z_offset);
            if (a.relu) {
                if (value != value) {
                    if (!a.relu_propagates_nan) value = C(0);
                } else if (value < C(0)) {
                    value = C(0);
                }
            }
        } else if (a.beta != 0.0) {
            value += static_cast<C>(a.beta) * load_as<C>(a.result, a.type, offset);
        }
        store_as<C>(a.result, a.type, offset, value);
    }
}

// --- the plan ---------------------------------------------------------------------------------------------

// The three batches of one group and their transforms' work areas.
struct FftPlan {
    FftCorrelation c;
    bool in_double = false;
    int64_t batch[3] = {};  // A, B, S transforms
    size_t work_bytes = 0;  // the largest of the three plans' work areas
    size_t buffer_bytes[3] = {};

    size_t workspace() const { return buffer_bytes[0] + buffer_bytes[1] + buffer_bytes[2] + aligned(work_bytes); }
};

FftPlan plan_of(const ConvProblem &p, FftKind kind) {
    FftPlan plan;
    plan.c = fft_correlation(p, kind);
    plan.in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const int64_t n = p.batch(), tiles = plan.c.tile_count();
    const int64_t cg = p.channels_per_group(), kg = p.filters_per_group();
    switch (p.direction) {
        case ConvDirection::forward:
            plan.batch[0] = n * tiles * cg, plan.batch[1] = kg * cg, plan.batch[2] = n * tiles * kg;
            break;
        case ConvDirection::backward_data:
            plan.batch[0] = n * tiles * kg, plan.batch[1] = cg * kg, plan.batch[2] = n * tiles * cg;
            break;
        case ConvDirection::backward_filter:
            plan.batch[0] = n * tiles * cg, plan.batch[1] = n * tiles * kg, plan.batch[2] = kg * cg;
            break;
    }
    const size_t complex_bytes = plan.in_double ? 16 : 8;
    for (int i = 0; i < 3; ++i) {
        plan.buffer_bytes[i] = aligned(static_cast<size_t>(plan.batch[i] * plan.c.fft_points()) * complex_bytes);
    }
    return plan;
}

// cuFFT's plans for the three batches; false when cuFFT refuses one.
bool make_plans(const CufftApi &api, FftPlan *plan, CufftPlan *plans) {
    long long sizes[kMaxFftConvDims];
    for (int d = 0; d < plan->c.dims; ++d) sizes[d] = plan->c.fft[d];
    plan->work_bytes = 0;
    for (int i = 0; i < 3; ++i) {
        size_t work = 0;
        if (!plans[i].make(api, plan->c.dims, sizes, static_cast<int>(plan->batch[i]), plan->in_double, &work)) {
            return false;
        }
        plan->work_bytes = std::max(plan->work_bytes, work);
    }
    return true;
}

void strides3(const TensorGeometry &g, int dims, int64_t *out) {
    for (int d = 0; d < 3; ++d) out[d] = 0;
    for (int d = 0; d < dims; ++d) out[3 - dims + d] = g.strides[2 + d];
}

void extent3(const TensorGeometry &g, int dims, int64_t *out) {
    for (int d = 0; d < 3; ++d) out[d] = 1;
    for (int d = 0; d < dims; ++d) out[3 - dims + d] = g.dims[2 + d];
}

ScalarType scalar(cudnnDataType_t type) {
    ScalarType s = ScalarType::f32;
    scalar_type_of(type, &s);
    return s;
}

Status exec(const CufftApi &api, const CufftPlan &plan, bool in_double, void *data, int direction) {
    const CufftResult result =
        in_double ? api.exec_z2z(plan.handle(), static_cast<double2 *>(data), static_cast<double2 *>(data), direction)
                  : api.exec_c2c(plan.handle(), static_cast<float2 *>(data), static_cast<float2 *>(data), direction);
    if (result != kCufftSuccess) return fail(CUDNN_STATUS_EXECUTION_FAILED, "cuFFT's transform returned %d", result);
    return CUDNN_STATUS_SUCCESS;
}

template <class C>
Status run_groups(cudaStream_t stream, const ConvProblem &p, const ConvBuffers &buffers, const FftPlan &plan,
                  const CufftApi &api, const CufftPlan *plans, unsigned char *workspace) {
    using Complex = typename ComplexOf<C>::type;
    const FftCorrelation &c = plan.c;
    const int dims = c.dims;
    const Dims3 fft = dims3(c, c.fft), tiles = dims3(c, c.tiles), step = dims3(c, c.step),
                offset = dims3(c, c.offset, 0), src_stride = dims3(c, c.src_stride),
                out_stride = dims3(c, c.out_stride);
    auto *a = reinterpret_cast<Complex *>(workspace);
    auto *b = reinterpret_cast<Complex *>(workspace + plan.buffer_bytes[0]);
    auto *s = reinterpret_cast<Complex *>(workspace + plan.buffer_bytes[0] + plan.buffer_bytes[1]);
    const int64_t points = c.fft_points(), tile_count = c.tile_count();
    const int64_t n = p.batch(), cg = p.channels_per_group(), kg = p.filters_per_group();
    const bool forward = p.direction == ConvDirection::forward;
    const bool filter_gradient = p.direction == ConvDirection::backward_filter;
    // The src tensor of the windows: x forward and backward filter, dy backward data.
    const TensorGeometry &src = p.direction == ConvDirection::backward_data ? p.y : p.x;
    const void *src_data = p.direction == ConvDirection::backward_data ? buffers.y : buffers.x;
    const int64_t summed = forward ? cg : kg, produced = forward ? kg : cg;

    for (int64_t g = 0; g < p.groups; ++g) {
        // A: the src windows, origin - offset onward, n points per dim.
        CutArgs cut{};
        cut.data = src_data;
        cut.type = scalar(src.dtype);
        cut.stride_n = src.strides[0];
        cut.stride_c = src.strides[1];
        strides3(src, dims, cut.stride);
        extent3(src, dims, cut.extent);
        for (int d = 0; d < 3; ++d) {
            cut.fft[d] = fft.e[d], cut.tiles[d] = tiles.e[d], cut.step[d] = step.e[d];
            cut.shift[d] = -offset.e[d], cut.take[d] = fft.e[d], cut.spread[d] = src_stride.e[d];
        }
        cut.channels = filter_gradient ? cg : summed;
        cut.channel0 = g * cut.channels;
        cut.tile_count = tile_count;
        cut.points = points;
        cut.count = plan.batch[0] * points;
        cut_kernel<C><<<grid_size(cut.count, kBlock, kBlock, 4), kBlock, 0, stream>>>(cut, a);
        LIBREDNN_CHECK(check_launch("fft cut_kernel"));
        LIBREDNN_CHECK(exec(api, plans[0], plan.in_double, a, kCufftForward));

        if (filter_gradient) {
            // B: the dy tiles, each `step` long from its origin.
            CutArgs tile = cut;
            tile.data = buffers.y;
            tile.type = scalar(p.y.dtype);
            tile.stride_n = p.y.strides[0];
            tile.stride_c = p.y.strides[1];
            strides3(p.y, dims, tile.stride);
            extent3(p.y, dims, tile.extent);
            for (int d = 0; d < 3; ++d) tile.shift[d] = 0, tile.take[d] = step.e[d], tile.spread[d] = 1;
            tile.channels = kg;
            tile.channel0 = g * kg;
            tile.count = plan.batch[1] * points;
            cut_kernel<C><<<grid_size(tile.count, kBlock, kBlock, 4), kBlock, 0, stream>>>(tile, b);
        } else {
            FilterArgs f{};
            f.w = buffers.w;
            f.type = scalar(p.w.dtype);
            f.stride_k = p.w.strides[0];
            f.stride_c = p.w.strides[1];
            strides3(p.w, dims, f.stride);
            extent3(p.w, dims, f.extent);
            for (int d = 0; d < 3; ++d) f.fft[d] = fft.e[d];
            f.points = points;
            f.summed = summed;
            f.count = plan.batch[1] * points;
            f.k0 = g * kg;
            f.forward = forward;
            // Forward correlates with the filter (flipped for CUDNN_CONVOLUTION); backward data with the
            // correlation filter reversed.
            f.reverse = forward == (p.mode == CUDNN_CONVOLUTION);
            filter_kernel<C><<<grid_size(f.count, kBlock, kBlock, 4), kBlock, 0, stream>>>(f, b);
        }
        LIBREDNN_CHECK(check_launch("fft filter_kernel"));
        LIBREDNN_CHECK(exec(api, plans[1], plan.in_double, b, kCufftForward));

        ProductArgs product{};
        product.points = points;
        product.count = plan.batch[2] * points;
        product.filter_gradient = filter_gradient;
        if (filter_gradient) {
            product.summed = n * tile_count, product.produced = kg, product.rows = cg;
        } else {
            product.summed = summed, product.produced = produced, product.rows = 0;
        }
        product_kernel<C><<<grid_size(product.count, kBlock, kBlock, 4), kBlock, 0, stream>>>(product, a, b, s);
        LIBREDNN_CHECK(check_launch("fft product_kernel"));
        LIBREDNN_CHECK(exec(api, plans[2], plan.in_double, s, kCufftInverse));

        StoreArgs st{};
        const TensorGeometry &out = p.result();
        st.result = buffers.result;
        st.type = scalar(out.dtype);
        st.stride_n = out.strides[0];
        st.stride_c = out.strides[1];
        strides3(out, dims, st.stride);
        extent3(out, dims, st.extent);
        for (int d = 0; d < 3; ++d) {
            st.fft[d] = fft.e[d], st.tiles[d] = tiles.e[d], st.step[d] = step.e[d], st.skip[d] = out_stride.e[d];
        }
        st.tile_count = tile_count;
        st.points = points;
        st.out_points = st.extent[0] * st.extent[1] * st.extent[2];
        st.alpha = p.alpha;
        st.beta = p.beta;
        if (filter_gradient) {
            st.filter_gradient = 1;
            st.flip = p.mode == CUDNN_CONVOLUTION;
            st.rows = cg;
            st.channel0 = g * kg;
            st.count = kg * cg * st.out_points;
        } else {
            st.produced = produced;
            st.channel0 = g * produced;
            st.count = n * produced * st.out_points;
        }
        if (forward && p.epilogue.fused) {
            const ConvEpilogue &e = p.epilogue;
            st.fused = 1;
            st.relu = e.activation == CUDNN_ACTIVATION_RELU;
            st.relu_propagates_nan = e.nan_opt == CUDNN_PROPAGATE_NAN;
            st.alpha2 = e.alpha2;
            st.z = buffers.z;
            st.z_type = scalar(e.z.dtype);
            st.z_stride_n = e.z.strides[0];
            st.z_stride_c = e.z.strides[1];
            strides3(e.z, dims, st.z_stride);
            st.bias = buffers.bias;
            st.bias_type = scalar(e.bias.dtype);
            st.bias_stride = e.bias.strides[1];
        }
        store_kernel<C><<<grid_size(st.count, kBlock, kBlock, 4), kBlock, 0, stream>>>(st, s);
        LIBREDNN_CHECK(check_launch("fft store_kernel"));
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

Applicability fft_applicability_cuda(const ConvProblem &problem, FftKind kind) {
    const Applicability rules = fft_applicability(problem, kind);
    if (!rules.ok()) return rules;
    if (cufft_api() == nullptr) return Applicability::no("cuFFT (libcufft.so.*) could not be loaded");
    const FftPlan plan = plan_of(problem, kind);
    for (int64_t batch : plan.batch) {
        if (batch > INT_MAX) return Applicability::no("needs fewer than 2^31 transforms per batch");
    }
    return Applicability::yes();
}

size_t fft_workspace_bytes(const ConvProblem &problem, FftKind kind) {
    const CufftApi *api = cufft_api();
    if (api == nullptr || !fft_applicability(problem, kind).ok()) return 0;
    FftPlan plan = plan_of(problem, kind);
    CufftPlan plans[3];
    if (!make_plans(*api, &plan, plans)) return 0;
    return plan.workspace();
}

Status fft_convolution(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers,
                       FftKind kind) {
    const CufftApi *api = cufft_api();
    if (api == nullptr) return fail(CUDNN_STATUS_NOT_SUPPORTED, "cuFFT (libcufft.so.*) could not be loaded");
    FftPlan plan = plan_of(problem, kind);
    CufftPlan plans[3];
    if (!make_plans(*api, &plan, plans)) {
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "cuFFT could not plan the %s transforms of %s",
                    kind == FftKind::tiled ? "tiled" : "whole", conv_direction_name(problem.direction));
    }
    if (context.workspace_bytes < plan.workspace()) {
        return fail(CUDNN_STATUS_BAD_PARAM, "the FFT convolution needs %zu bytes of workspace, got %zu",
                    plan.workspace(), context.workspace_bytes);
    }
    auto *workspace = static_cast<unsigned char *>(context.workspace);
    void *work_area = workspace + plan.buffer_bytes[0] + plan.buffer_bytes[1] + plan.buffer_bytes[2];
    for (CufftPlan &one : plans) {
        if (api->set_work_area(one.handle(), work_area) != kCufftSuccess ||
            api->set_stream(one.handle(), context.stream) != kCufftSuccess) {
            return fail(CUDNN_STATUS_EXECUTION_FAILED, "cuFFT refused the work area or the stream");
        }
    }
    return plan.in_double ? run_groups<double>(context.stream, problem, buffers, plan, *api, plans, workspace)
                          : run_groups<float>(context.stream, problem, buffers, plan, *api, plans, workspace);
}

}  // namespace librednn::cuda
