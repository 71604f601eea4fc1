// The batch-normalisation kernels (batch_norm.hpp).
#include "cuda/batch_norm/batch_norm.hpp"

#include "cuda/batch_norm/channel_constants.cuh"
#include "cuda/batch_norm/lane_channels.cuh"
#include "cuda/batch_norm/training_cluster.hpp"
#include "cuda/batch_norm/training_cluster_nhwc.hpp"
#include "cuda/batch_norm/training_packed.hpp"

#include "core/data_type.hpp"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/strided_layout.hpp"

namespace librednn::cuda {

namespace {

constexpr int kMaxBlock = 256;     // element-wise kernels
constexpr int kStatsBlock = 1024;  // a parameter element's block: the whole SM when few channels share the GPU
constexpr int kWarps = kStatsBlock / 32;

// Layout operands: x, then y (dy backward), then dx (backward), then the parameters (kept layout).
enum Operand { kX = 0, kSecond = 1, kDx = 2, kParameter = 3 };

// The Ex calls' extra tensors, in layouts of their own: z (training) or y, the activation's mask
// (backward); then dz (backward).
enum ExtraOperand { kZOrMask = 0, kDz = 1 };

struct PerParameterArgs {
    DeviceLayout kept;                       // over the parameter elements
    DeviceLayout reduced;                    // over the values one parameter element normalises
    DeviceLayout extra_kept, extra_reduced;  // the same for the extra tensors (bnOps other than BN)
    int activation, adds;
    int64_t parameters, count;
    ScalarType type;
    int backward, running, saved;
    double alpha, beta, param_alpha, param_beta, epsilon, factor;
    const void *x, *dy, *z_or_mask;
    void *out, *dz;
    const void *scale, *bias, *saved_mean_in, *saved_inv_std_in;
    void *running_mean, *running_variance, *saved_mean, *saved_inv_std, *dscale, *dbias;
};

struct InferenceArgs {
    DeviceLayout layout;  // operands: y, x, parameters (stride 0 along the reduced dims), z
    int64_t total;
    ScalarType type;
    int activation, adds;  // bnOps: ReLU after the normalisation, z added before it
    const void *z;
    double alpha, beta, epsilon;
    const void *x;
    void *y;
    const void *scale, *bias, *mean, *variance;
};

// The block's sums of two values, in every thread, in a fixed order. Ends synchronised.
template <class C>
__device__ void block_sums(C &a, C &b, C (&shared)[kWarps][2]) {
    for (int offset = 16; offset > 0; offset /= 2) {
        a += __shfl_down_sync(0xffffffffu, a, offset);
        b += __shfl_down_sync(0xffffffffu, b, offset);
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    if (lane == 0) {
        shared[warp][0] = a;
        shared[warp][1] = b;
    }
    __syncthreads();
    a = C(0);
    b = C(0);
    for (int w = 0; w < warps; ++w) {
        a += shared[w][0];
        b += shared[w][1];
    }
    __syncthreads();
}

template <class C>
__device__ __forceinline__ void blend_parameter(void *target, int64_t offset, double alpha, double beta, C value) {
    C *t = static_cast<C *>(target);
    C result = static_cast<C>(alpha) * value;
    if (beta != 0.0) result += static_cast<C>(beta) * t[offset];
    t[offset] = result;
}

// dy at value r, masked by the forward's y > 0 after an activation.
template <class C>
__device__ __forceinline__ C masked_gradient(const PerParameterArgs &a, const int64_t (&base)[4],
                                             const int64_t (&extra)[2], const int64_t (&o)[3], int64_t r) {
    const C g = load_as<C>(a.dy, a.type, base[kSecond] + o[kSecond]);
    if (!a.activation) return g;
    int64_t e[2];
    offsets_of<2>(a.extra_reduced, r, e);
    return load_as<C>(a.z_or_mask, a.type, extra[kZOrMask] + e[kZOrMask]) > C(0) ? g : C(0);
}

// Training forward and backward: one block per parameter element (grid-stride).
template <class C>
__global__ void __launch_bounds__(kStatsBlock) per_parameter_kernel(const __grid_constant__ PerParameterArgs a) {
    __shared__ C shared[kWarps][2];
    const C count = static_cast<C>(a.count);
    for (int64_t p = blockIdx.x; p < a.parameters; p += gridDim.x) {
        int64_t base[4], extra[2] = {0, 0};
        offsets_of<4>(a.kept, p, base);
        if (a.activation) offsets_of<2>(a.extra_kept, p, extra);
        const C scale = static_cast<const C *>(a.scale)[base[kParameter]];
        C mean, inv_std, variance = C(0);
        if (a.backward && a.saved) {
            mean = static_cast<const C *>(a.saved_mean_in)[base[kParameter]];
            inv_std = static_cast<const C *>(a.saved_inv_std_in)[base[kParameter]];
        } else {
            // Two passes: the mean, then the squared deviations from it (never a difference of large
            // sums). The second pass mostly hits L2.
            C sum = C(0), unused = C(0);
            for (int64_t r = threadIdx.x; r < a.count; r += blockDim.x) {
                int64_t o[3];
                offsets_of<3>(a.reduced, r, o);
                sum += load_as<C>(a.x, a.type, base[kX] + o[kX]);
            }
            block_sums(sum, unused, shared);
            mean = sum / count;
            C squares = C(0);
            for (int64_t r = threadIdx.x; r < a.count; r += blockDim.x) {
                int64_t o[3];
                offsets_of<3>(a.reduced, r, o);
                const C deviation = load_as<C>(a.x, a.type, base[kX] + o[kX]) - mean;
                squares += deviation * deviation;
            }
            block_sums(squares, unused, shared);
            variance = squares / count;
            inv_std = C(1) / math_sqrt(variance + static_cast<C>(a.epsilon));
        }
        const C alpha = static_cast<C>(a.alpha), beta = static_cast<C>(a.beta);
        if (!a.backward) {
            const C gain = scale * inv_std, bias = static_cast<const C *>(a.bias)[base[kParameter]];
            for (int64_t r = threadIdx.x; r < a.count; r += blockDim.x) {
                int64_t o[3];
                offsets_of<3>(a.reduced, r, o);
                const int64_t yo = base[kSecond] + o[kSecond];
                C value = gain * (load_as<C>(a.x, a.type, base[kX] + o[kX]) - mean) + bias;
                if (a.activation) {
                    if (a.adds) {
                        int64_t e[2];
                        offsets_of<2>(a.extra_reduced, r, e);
                        value += load_as<C>(a.z_or_mask, a.type, extra[kZOrMask] + e[kZOrMask]);
                    }
                    if (value < C(0)) value = C(0);  // ReLU; NaN passes through
                }
                value *= alpha;
                if (a.beta != 0.0) value += beta * load_as<C>(a.out, a.type, yo);
                store_as<C>(a.out, a.type, yo, value);
            }
            if (threadIdx.x == 0) {
                const int64_t po = base[kParameter];
                if (a.running) {
                    // Factor 1 does not read the old values (they may be uninitialised).
                    const double keep = 1.0 - a.factor;
                    blend_parameter<C>(a.running_mean, po, a.factor, keep, mean);
                    blend_parameter<C>(a.running_variance, po, a.factor, keep, variance * count / (count - C(1)));
                }
                if (a.saved) {
                    static_cast<C *>(a.saved_mean)[po] = mean;
                    static_cast<C *>(a.saved_inv_std)[po] = inv_std;
                }
            }
            continue;
        }
        // Backward: g = dy, masked by y > 0 after an activation (and written to dz after an add);
        // dbias = sum g, dscale = inv_std * sum g * (x - mean).
        C dbias = C(0), centred = C(0);
        for (int64_t r = threadIdx.x; r < a.count; r += blockDim.x) {
            int64_t o[3];
            offsets_of<3>(a.reduced, r, o);
            const C g = masked_gradient<C>(a, base, extra, o, r);
            dbias += g;
            centred += g * (load_as<C>(a.x, a.type, base[kX] + o[kX]) - mean);
        }
        block_sums(dbias, centred, shared);
        const C dscale = centred * inv_std;
        const C gain = scale * inv_std, bias_term = dbias / count, scale_term = dscale / count;
        for (int64_t r = threadIdx.x; r < a.count; r += blockDim.x) {
            int64_t o[3];
            offsets_of<3>(a.reduced, r, o);
            const int64_t dxo = base[kDx] + o[kDx];
            const C x_hat = (load_as<C>(a.x, a.type, base[kX] + o[kX]) - mean) * inv_std;
            const C g = masked_gradient<C>(a, base, extra, o, r);
            C value = alpha * (gain * (g - bias_term - x_hat * scale_term));
            if (a.beta != 0.0) value += beta * load_as<C>(a.out, a.type, dxo);
            store_as<C>(a.out, a.type, dxo, value);
            // dz after dy was read: where dz is dy's memory it takes dy's own masked value.
            if (a.adds) {
                int64_t e[2];
                offsets_of<2>(a.extra_reduced, r, e);
                store_as<C>(a.dz, a.type, extra[kDz] + e[kDz], g);
            }
        }
        if (threadIdx.x == 0) {
            blend_parameter<C>(a.dscale, base[kParameter], a.param_alpha, a.param_beta, dscale);
            blend_parameter<C>(a.dbias, base[kParameter], a.param_alpha, a.param_beta, dbias);
        }
    }
}

template <class C>
__global__ void __launch_bounds__(kMaxBlock) inference_kernel(const __grid_constant__ InferenceArgs a) {
    const C alpha = static_cast<C>(a.alpha), beta = static_cast<C>(a.beta), epsilon = static_cast<C>(a.epsilon);
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t o[4];
        offsets_of<4>(a.layout, e, o);
        const C scale = static_cast<const C *>(a.scale)[o[2]], bias = static_cast<const C *>(a.bias)[o[2]];
        const C mean = static_cast<const C *>(a.mean)[o[2]];
        const C inv_std = C(1) / math_sqrt(static_cast<const C *>(a.variance)[o[2]] + epsilon);
        C value = scale * inv_std * (load_as<C>(a.x, a.type, o[1]) - mean) + bias;
        if (a.adds) value += load_as<C>(a.z, a.type, o[3]);
        if (a.activation && value < C(0)) value = C(0);  // ReLU; NaN passes through
        value *= alpha;
        if (a.beta != 0.0) value += beta * load_as<C>(a.y, a.type, o[0]);
        store_as<C>(a.y, a.type, o[0], value);
    }
}

// Inference over x and y packed alike in NCHW or NHWC (SPATIAL modes, float/half/bfloat16), 16-byte
// vectors of x and y with each channel's gain (scale / sqrt(variance + epsilon)), mean and bias on chip
// (channel_constants.cuh: NCHW staged in shared memory, NHWC in registers). A vector holds one channel (NCHW, the
// spatial size a multiple of the lanes), the end of one plane and the start of the next (NCHW, 7 x 7 planes: each lane
// finds its own channel), or consecutive channels (NHWC, C a multiple of the lanes).
constexpr int kPackedMaxChannels = 3500;  // NCHW: 3 floats each, under the 48 KiB of default shared memory

struct InferencePackedArgs {
    int64_t vectors;
    FastDivisor spatial;   // NCHW: elements per channel plane
    FastDivisor channels;  // C
    int channels_last;
    int lane_channels;         // NCHW planes that are not whole vectors: a channel per lane
    int interleaved;           // NCHW: channel_range's choice
    int64_t parameter_stride;  // between channels in the parameter tensors
    float alpha, beta, epsilon;
    const void *x;
    void *y;
    const float *scale, *bias, *mean, *variance;
};

// y = alpha (gain (x - mean) + bias) + beta y, a 16-byte vector, each lane's constants from k(array, lane)
// (0: gain, 1: mean, 2: bias).
template <class T, class Constant>
__device__ __forceinline__ Vector16<T> infer_vector(const InferencePackedArgs &a, const Vector16<T> &in,
                                                    const Vector16<T> *y, int64_t v, Constant &&k) {
    Vector16<T> out;
    if (a.beta != 0.0f) out = y[v];
#pragma unroll
    for (int l = 0; l < Vector16<T>::kLanes; ++l) {
        float value = a.alpha * (k(0, l) * (to_compute<float>(in.lane[l]) - k(1, l)) + k(2, l));
        if (a.beta != 0.0f) value += a.beta * to_compute<float>(out.lane[l]);
        out.lane[l] = from_compute<T>(value);
    }
    return out;
}

// The gain, mean and bias of N channels (channel(u) for u < N; `take(u)` false skips one), passed to
// `store(u, gain, mean, bias)`: every load issued before the first division, whose slow path (a branch) would
// otherwise hold each channel's loads back until the channel before it is done.
template <int N, class Channel, class Take, class Store>
__device__ __forceinline__ void inference_constants(const InferencePackedArgs &a, Channel &&channel, Take &&take,
                                                    Store &&store) {
    float scale[N], variance[N], mean[N], bias[N];
#pragma unroll
    for (int u = 0; u < N; ++u) {
        if (!take(u)) continue;
        const int64_t at = channel(u) * a.parameter_stride;
        scale[u] = a.scale[at];
        variance[u] = a.variance[at];
        mean[u] = a.mean[at];
        bias[u] = a.bias[at];
        // Here, not at their use: the compiler would sink the loads to the divisions.
        asm volatile("" : "+f"(scale[u]), "+f"(variance[u]), "+f"(mean[u]), "+f"(bias[u]));
    }
#pragma unroll
    for (int u = 0; u < N; ++u) {
        if (take(u)) store(u, scale[u] / sqrtf(variance[u] + a.epsilon), mean[u], bias[u]);
    }
}

// NCHW: the block's share of the vectors (channel_range), its channels' constants staged in shared memory.
template <class T>
__global__ void __launch_bounds__(kMaxBlock) inference_nchw_kernel(const __grid_constant__ InferencePackedArgs a) {
    extern __shared__ float staged[];
    constexpr int kLanes = Vector16<T>::kLanes;
    const int channels = static_cast<int>(a.channels.divisor);
    const ChannelRange range = channel_range(a.vectors, kLanes, a.spatial, a.channels, a.interleaved);
    auto *y = static_cast<Vector16<T> *>(a.y);
    auto vector_at = [&](int64_t j) { return a.vectors - 1 - (range.begin + j * range.step); };
    walk_vectors<uint4>(
        range.begin < range.end ? (range.end - range.begin + range.step - 1) / range.step : 0,
        [&](int64_t j) { return bits_at(a.x, vector_at(j)); },
        [&] {
            // Four staged channels a thread at a time (gain, mean and bias: arrays 0, 1, 2).
            constexpr int kChannels = 4;
            for (int j0 = threadIdx.x; j0 < range.staged; j0 += kChannels * blockDim.x) {
                auto j = [&](int u) { return j0 + u * static_cast<int>(blockDim.x); };
                inference_constants<kChannels>(
                    a, [&](int u) { return staged_channel(range, j(u), channels); },
                    [&](int u) { return j(u) < range.staged; },
                    [&](int u, float gain, float mean, float bias) {
                        staged[j(u)] = gain;
                        staged[range.staged + j(u)] = mean;
                        staged[2 * range.staged + j(u)] = bias;
                    });
            }
            __syncthreads();
        },
        [&](int64_t j, const uint4 &bits) {
            const int64_t v = vector_at(j);
            const VectorChannels lanes = vector_channels(range, a.lane_channels, a.spatial, a.channels, v * kLanes);
            y[v] = infer_vector(a, lanes_of<T>(bits), y, v,
                                [&](int array, int l) { return staged[array * range.staged + lanes.of(l)]; });
        });
}

// NHWC: each thread's vectors hold the same channels (nhwc_grid); their constants stay in registers.
template <class T>
__global__ void __launch_bounds__(kMaxBlock) inference_nhwc_kernel(const __grid_constant__ InferencePackedArgs a) {
    constexpr int kLanes = Vector16<T>::kLanes;
    const int64_t first = nhwc_first_vector(a.vectors);
    if (first < 0) return;
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    auto *y = static_cast<Vector16<T> *>(a.y);
    float k[3][kLanes];
    walk_vectors<uint4>(
        first / stride + 1, [&](int64_t j) { return bits_at(a.x, first - j * stride); },
        [&] {
            const int c0 = static_cast<int>(first * kLanes - divide(a.channels, first * kLanes) * a.channels.divisor);
            inference_constants<kLanes>(
                a, [&](int l) { return c0 + l; }, [](int) { return true; },
                [&](int l, float gain, float mean, float bias) {
                    k[0][l] = gain;
                    k[1][l] = mean;
                    k[2][l] = bias;
                });
        },
        [&](int64_t j, const uint4 &bits) {
            const int64_t v = first - j * stride;
            y[v] = infer_vector(a, lanes_of<T>(bits), y, v, [&](int array, int l) { return k[array][l]; });
        });
}

bool aligned16_host(const void *pointer) { return (reinterpret_cast<uintptr_t>(pointer) & 15u) == 0; }

// Whether x and y are one packed NCHW or NHWC layout the packed kernel takes; *channels_last says which.
bool packed_inference_layout(const BatchNormProblem &p, const BatchNormBuffers &b, bool *channels_last) {
    if (p.per_activation() || p.activation() || p.x.dtype == CUDNN_DATA_DOUBLE || p.x.vector() != 1) return false;
    if (p.x.dims[1] > kPackedMaxChannels || !aligned16_host(b.x) || !aligned16_host(b.result)) return false;
    for (int i = 0; i < p.x.nb_dims; ++i) {
        if (p.x.strides[i] != p.y.strides[i] && p.x.dims[i] > 1) return false;
    }
    const int lanes = static_cast<int>(16 / data_type_size(p.x.dtype));
    const int64_t channels = p.x.dims[1], spatial = p.x.element_count() / (p.x.dims[0] * channels);
    if (p.x.strides[1] == spatial) {  // NCHW: channel planes, each packed
        int64_t expected = 1;
        for (int i = p.x.nb_dims - 1; i >= 0; --i) {
            if (p.x.dims[i] > 1 && p.x.strides[i] != expected) return false;
            expected *= p.x.dims[i];
        }
        *channels_last = false;
        // Planes that are not whole vectors: a vector meets two planes at most where a plane is a vector long.
        return spatial % lanes == 0 || (spatial >= lanes && p.x.element_count() % lanes == 0);
    }
    // NHWC: C innermost, then the spatial dims inner to outer, then N.
    if (p.x.strides[1] != 1 && channels > 1) return false;
    int64_t expected = channels;
    for (int i = p.x.nb_dims - 1; i >= 2; --i) {
        if (p.x.dims[i] > 1 && p.x.strides[i] != expected) return false;
        expected *= p.x.dims[i];
    }
    if (p.x.dims[0] > 1 && p.x.strides[0] != expected) return false;
    *channels_last = true;
    return channels % lanes == 0;
}

template <class T>
Status launch_packed_inference(cudaStream_t stream, const BatchNormProblem &p, const BatchNormBuffers &b,
                               bool channels_last) {
    InferencePackedArgs a{};
    const int64_t channels = p.x.dims[1];
    a.vectors = p.x.element_count() / Vector16<T>::kLanes;
    a.spatial = make_fast_divisor(p.x.element_count() / (p.x.dims[0] * channels));
    a.channels = make_fast_divisor(channels);
    a.channels_last = channels_last;
    a.lane_channels = !channels_last && a.spatial.divisor % Vector16<T>::kLanes != 0;
    a.parameter_stride = p.parameters.strides[1];
    a.alpha = static_cast<float>(p.alpha);
    a.beta = static_cast<float>(p.beta);
    a.epsilon = static_cast<float>(p.epsilon);
    a.x = b.x;
    a.y = b.result;
    a.scale = static_cast<const float *>(b.scale);
    a.bias = static_cast<const float *>(b.bias);
    a.mean = static_cast<const float *>(b.mean);
    a.variance = static_cast<const float *>(b.variance);
    if (a.vectors == 0) return CUDNN_STATUS_SUCCESS;
    constexpr int kLanes = Vector16<T>::kLanes;
    if (channels_last) {
        static const ResidentBlocks resident(reinterpret_cast<const void *>(inference_nhwc_kernel<T>), kMaxBlock);
        inference_nhwc_kernel<T>
            <<<nhwc_grid(resident, a.vectors, channels / kLanes, kMaxBlock), kMaxBlock, 0, stream>>>(a);
    } else {
        // Resident blocks counted at the most shared memory: 3 floats for each of kPackedMaxChannels channels.
        static const ResidentBlocks resident(reinterpret_cast<const void *>(inference_nchw_kernel<T>), kMaxBlock,
                                             3 * kPackedMaxChannels * sizeof(float));
        const NchwGrid grid = nchw_grid(resident, a.vectors, p.x.element_count() * static_cast<int64_t>(2 * sizeof(T)),
                                        channels, 3, kMaxBlock);
        a.interleaved = grid.interleaved;
        const size_t shared = 3 * static_cast<size_t>(channels) * sizeof(float);  // at most C channels a block
        inference_nchw_kernel<T><<<grid.blocks, kMaxBlock, shared, stream>>>(a);
    }
    return check_launch("batch_norm_inference_packed_kernel");
}

// A layout over the axes of x that `keep` selects (the parameter's axes, or the others), with the
// strides of `tensors` along them.
StridedLayout axes_layout(const BatchNormProblem &p, bool keep, const TensorGeometry *const *tensors, int count) {
    StridedLayout layout;
    layout.operands = count;
    for (int i = 0; i < p.x.nb_dims; ++i) {
        const bool kept = p.parameters.dims[i] != 1;
        if (kept != keep) continue;
        layout.extents[layout.rank] = p.x.dims[i];
        for (int k = 0; k < count; ++k) layout.strides[k][layout.rank] = tensors[k] ? tensors[k]->strides[i] : 0;
        ++layout.rank;
    }
    layout.drop_unit_dims();
    layout.order_by(0);
    layout.coalesce();
    return layout;
}

// `layout` without its operand 0 (x, there only to order and merge the dims as the main layouts do).
StridedLayout drop_first_operand(StridedLayout layout) {
    for (int k = 1; k < layout.operands; ++k) {
        for (int d = 0; d < layout.rank; ++d) layout.strides[k - 1][d] = layout.strides[k][d];
    }
    --layout.operands;
    return layout;
}

template <class C>
Status launch_per_parameter(cudaStream_t stream, const BatchNormProblem &p, const BatchNormBuffers &b) {
    const bool backward = p.phase == BatchNormPhase::backward;
    const TensorGeometry *tensors[4] = {&p.x, backward ? &p.dy : &p.y, backward ? &p.dx : nullptr, &p.parameters};
    PerParameterArgs a{};
    a.kept = to_device_layout(axes_layout(p, true, tensors, 4));
    a.reduced = to_device_layout(axes_layout(p, false, tensors, 3));
    a.activation = p.activation();
    a.adds = p.adds();
    if (a.activation) {
        // The extra layouts must number values as the main ones do: same axes, ordered by x's strides.
        const TensorGeometry *extra[3] = {&p.x, backward ? &p.y : &p.z, backward && p.adds() ? &p.z : nullptr};
        a.extra_kept = to_device_layout(drop_first_operand(axes_layout(p, true, extra, 3)));
        a.extra_reduced = to_device_layout(drop_first_operand(axes_layout(p, false, extra, 3)));
    }
    a.parameters = p.parameter_count();
    a.count = p.values_per_parameter();
    scalar_type_of(p.x.dtype, &a.type);
    a.backward = backward;
    a.running = p.running;
    a.saved = p.saved;
    a.alpha = p.alpha;
    a.beta = p.beta;
    a.param_alpha = p.param_alpha;
    a.param_beta = p.param_beta;
    a.epsilon = p.epsilon;
    a.factor = p.factor;
    a.x = b.x;
    a.dy = b.dy;
    a.out = b.result;
    a.z_or_mask = backward ? b.y : b.z;
    a.dz = b.dz;
    a.scale = b.scale;
    a.bias = b.bias;
    a.saved_mean_in = b.mean;
    a.saved_inv_std_in = b.variance;
    a.running_mean = b.running_mean;
    a.running_variance = b.running_variance;
    a.saved_mean = b.saved_mean;
    a.saved_inv_std = b.saved_inv_variance;
    a.dscale = b.dscale;
    a.dbias = b.dbias;
    if (a.parameters == 0 || a.count == 0) return CUDNN_STATUS_SUCCESS;
    int threads = 32;
    while (threads < kStatsBlock && threads < a.count) threads *= 2;
    const int grid = static_cast<int>(a.parameters < (1 << 20) ? a.parameters : (1 << 20));
    per_parameter_kernel<C><<<grid, threads, 0, stream>>>(a);
    return check_launch("batch_norm_per_parameter_kernel");
}

template <class C>
Status launch_inference(cudaStream_t stream, const BatchNormProblem &p, const BatchNormBuffers &b) {
    StridedLayout layout;
    layout.operands = 4;
    layout.rank = p.x.nb_dims;
    for (int i = 0; i < p.x.nb_dims; ++i) {
        layout.extents[i] = p.x.dims[i];
        layout.strides[0][i] = p.y.strides[i];
        layout.strides[1][i] = p.x.strides[i];
        layout.strides[2][i] = p.parameters.dims[i] == 1 ? 0 : p.parameters.strides[i];
        layout.strides[3][i] = p.adds() ? p.z.strides[i] : 0;
    }
    layout.drop_unit_dims();
    layout.order_by(0);
    layout.coalesce();
    InferenceArgs a{};
    a.layout = to_device_layout(layout);
    a.total = p.x.element_count();
    scalar_type_of(p.x.dtype, &a.type);
    a.activation = p.activation();
    a.adds = p.adds();
    a.z = b.z;
    a.alpha = p.alpha;
    a.beta = p.beta;
    a.epsilon = p.epsilon;
    a.x = b.x;
    a.y = b.result;
    a.scale = b.scale;
    a.bias = b.bias;
    a.mean = b.mean;
    a.variance = b.variance;
    if (a.total == 0) return CUDNN_STATUS_SUCCESS;
    inference_kernel<C><<<grid_size(a.total, kMaxBlock, kMaxBlock, 4), kMaxBlock, 0, stream>>>(a);
    return check_launch("batch_norm_inference_kernel");
}

}  // namespace

const char *batch_norm_unsupported_reason(const BatchNormProblem &p) {
    ScalarType type;
    if (!scalar_type_of(p.x.dtype, &type) || !is_floating(type))
        return "the CUDA kernels take float, double, half and bfloat16";
    return nullptr;
}

Status batch_norm(cudaStream_t stream, const BatchNormProblem &p, const BatchNormBuffers &buffers) {
    if (const char *reason = batch_norm_unsupported_reason(p)) return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", reason);
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    bool channels_last = false;
    if (p.phase == BatchNormPhase::inference && packed_inference_layout(p, buffers, &channels_last)) {
        switch (p.x.dtype) {
            case CUDNN_DATA_HALF: return launch_packed_inference<__half>(stream, p, buffers, channels_last);
            case CUDNN_DATA_BFLOAT16: return launch_packed_inference<__nv_bfloat16>(stream, p, buffers, channels_last);
            default: return launch_packed_inference<float>(stream, p, buffers, channels_last);
        }
    }
    if (p.phase == BatchNormPhase::inference) {
        return in_double ? launch_inference<double>(stream, p, buffers) : launch_inference<float>(stream, p, buffers);
    }
    if (packed_training_applicable(p, buffers, &channels_last)) {
        Status status = CUDNN_STATUS_SUCCESS;
        if (!channels_last && try_cluster_training(stream, p, buffers, &status)) return status;
        if (channels_last && try_cluster_nhwc_training(stream, p, buffers, &status)) return status;
        return batch_norm_packed_training(stream, p, buffers, channels_last);
    }
    return in_double ? launch_per_parameter<double>(stream, p, buffers)
                     : launch_per_parameter<float>(stream, p, buffers);
}

}  // namespace librednn::cuda
