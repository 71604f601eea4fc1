// The channel-cluster batch-norm training and backward kernels (training_cluster.hpp).
#include "cuda/batch_norm/training_cluster.hpp"

#include "core/data_type.hpp"
#include "cuda/batch_norm/channel_results.cuh"
#include "cuda/batch_norm/cluster_sums.cuh"
#include "cuda/common/cluster.cuh"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <cstdlib>
#include <type_traits>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

// Units a thread holds of each input: single elements where planes are not whole 16-byte vectors (7 x 7),
// else vectors (32 float values, 64 of a 16-bit type) or, 16-bit types, units of four (32 values).
constexpr int kScalarUnits = 32, kVectorUnits = 8;
template <int W>
constexpr int kUnitsOf = W == 1 ? kScalarUnits : kVectorUnits;

// W consecutive elements of a plane, loaded and stored as one.
template <class T, int W>
struct alignas(sizeof(T) * W) Unit {
    T lane[W];
};

struct ClusterArgs {
    const void *x, *dy;
    void *out;
    int channels;
    int units_per_plane;  // a plane's units (elements, fours of 16-bit values, or vectors)
    int images, images_per_block;
    // The flattened walk: a thread's next unit is kBlock units on, step_units further in its plane past whole
    // planes, step_offset further in memory (in units), or wrap_offset more where it passes the plane's end.
    int step_units;
    int64_t step_offset;
    int64_t wrap_offset;
    int cluster;        // blocks a channel
    float count;        // values a channel: N x H x W
    float alpha, beta;  // y (dx) = alpha * result + beta * y (dx)
    ChannelResults results;
};

// A cluster per channel, block `rank` of it taking images [rank * images_per_block, ...) of the channel's
// planes, all of a thread's units loaded before any is used. Two ways to spread a block's share over its
// threads:
// - kPlanes (planes of at most 64 units, 7 x 7 and 14 x 14): warp w takes planes w, w + 8, ..., its lanes
//   units l and l + 32 of each: a unit's address is one add from its plane's;
// - else the share flattened: thread t takes units t, t + kBlock, ... (image u / units_per_plane, unit
//   u % units_per_plane of its plane), stepping with a check for each plane's end.
template <class T, int W, bool kBackward, bool kPlanes>
__global__ void __launch_bounds__(kBlock, kBackward ? 2 : 3)
    cluster_training_kernel(const __grid_constant__ ClusterArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int kUnits = kUnitsOf<W>;
    using U = Unit<T, W>;
    const int c = blockIdx.x / a.cluster;
    const int rank = blockIdx.x - c * a.cluster;
    const int first_image = rank * a.images_per_block;
    const int images = max(0, min(a.images_per_block, a.images - first_image));
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int64_t plane_stride = static_cast<int64_t>(a.channels) * a.units_per_plane;
    const int64_t channel = static_cast<int64_t>(c) * a.units_per_plane;
    // held: the planes the warp holds (kPlanes; the lane's units of a plane are in it where low, high) or the
    // units the thread holds (flat). has(k, held): whether the thread's k-th unit is the block's.
    const bool low = lane < a.units_per_plane, high = lane + 32 < a.units_per_plane;
    const int rest = kPlanes ? images - warp : images * a.units_per_plane - tid;
    const int spread = kPlanes ? kWarps : kBlock;
    const int held = rest > 0 ? (rest + spread - 1) / spread : 0;
    auto has = [&](int k, int count) {
        if constexpr (kPlanes) return k / 2 < count && (k % 2 == 0 ? low : high);
        return k < count;
    };
    const int image0 = kPlanes ? warp : tid / a.units_per_plane;
    const int unit0 = kPlanes ? lane : tid - image0 * a.units_per_plane;
    const int64_t first = (static_cast<int64_t>(first_image) + image0) * plane_stride + channel + unit0;
    // visit(k, offset of the k-th unit, whether it is the thread's), for every k: the visits predicate their
    // loads and stores on it rather than branch around a unit. Each walk forms the offsets and tests afresh
    // (the empty asm hides that they repeat): kept from the loads to the stores they would hold 32 64-bit
    // registers (the offsets) and bit masks (the tests) across the reductions.
    auto walk = [&](auto &&visit) {
        int64_t offset = first;
        int unit = unit0, count = held;
        asm volatile("" : "+l"(offset), "+r"(unit), "+r"(count));
#pragma unroll
        for (int k = 0; k < kUnits; ++k) {
            if constexpr (kPlanes) {
                visit(k, offset + (k % 2) * 32, has(k, count));
                if (k % 2 == 1) offset += kWarps * plane_stride;
            } else {
                visit(k, offset, has(k, count));
                offset += a.step_offset;
                unit += a.step_units;
                if (unit >= a.units_per_plane) {
                    unit -= a.units_per_plane;
                    offset += a.wrap_offset;
                }
            }
        }
    };
    // The channel's parameters, requested with the data.
    const ChannelResults &r = a.results;
    const int64_t po = static_cast<int64_t>(c) * r.parameter_stride;
    const float scale = r.scale[po];
    const float bias_or_mean = kBackward ? r.saved_mean_in[po] : r.bias[po];
    const float saved_inv_std = kBackward ? r.saved_inv_std_in[po] : 0.0f;
    const U *x = static_cast<const U *>(a.x), *dy = static_cast<const U *>(a.dy);
    U *out = static_cast<U *>(a.out);
    // Units not the thread's hold zeros, their loads predicated off: no address to select, and nothing added
    // to the sums. bfloat16 vectors are the exception (kZeroed false; predicated, ptxas of nvcc 13.0 holds
    // their high halves in registers of their own and spills): they load the channel's first unit, a valid
    // address, and the sums test has(k, held).
    constexpr bool kZeroed = !(std::is_same_v<T, __nv_bfloat16> && W == 8);
    U xv[kUnits], gv[kBackward ? kUnits : 1];
    walk([&](int k, int64_t at, bool here) {
        if constexpr (kZeroed) {
            xv[k] = U{};
            if (here) xv[k] = x[at];
            if constexpr (kBackward) {
                gv[k] = U{};
                if (here) gv[k] = dy[at];
            }
        } else {
            xv[k] = x[here ? at : channel];
            if constexpr (kBackward) gv[k] = dy[here ? at : channel];
        }
    });

    const bool writer = rank == 0 && tid == 0;
    float mean, inv_std, gain, shift = 0.0f, bias_term = 0.0f, scale_term = 0.0f;
    if constexpr (!kBackward) {
        // The mean, then the squared deviations from it: two rounds over the registers.
        __shared__ ClusterSums<1, 1, kWarps> first_round, second_round;
        float sum[1] = {0.0f};
#pragma unroll
        for (int k = 0; k < kUnits; ++k) {
#pragma unroll
            for (int l = 0; l < W; ++l) sum[0] += (kZeroed || has(k, held)) ? to_compute<float>(xv[k].lane[l]) : 0.0f;
        }
        double total[1];
        cluster_sums(sum, total, first_round, a.cluster);
        mean = static_cast<float>(total[0] / static_cast<double>(a.count));
        float m2[1] = {0.0f};
#pragma unroll
        for (int k = 0; k < kUnits; ++k) {
#pragma unroll
            for (int l = 0; l < W; ++l) {
                const float d = to_compute<float>(xv[k].lane[l]) - mean;
                m2[0] += has(k, held) ? d * d : 0.0f;  // a zero's deviation is not 0
            }
        }
        cluster_sums(m2, total, second_round, a.cluster);
        cluster_arrive();
        const float variance = static_cast<float>(total[0] / static_cast<double>(a.count));
        inv_std = inverse_deviation(r, variance);
        if (writer) write_channel_statistics(r, po, mean, variance, a.count);
        gain = scale * inv_std;
        shift = bias_or_mean;
    } else {
        // The sums of dy and dy (x - mean) in one round.
        __shared__ ClusterSums<2, 1, kWarps> round;
        mean = bias_or_mean;
        inv_std = saved_inv_std;
        float partial[2] = {0.0f, 0.0f};
#pragma unroll
        for (int k = 0; k < kUnits; ++k) {
#pragma unroll
            for (int l = 0; l < W; ++l) {
                // A zero (a unit not the thread's) adds nothing to either sum, but for 0 x (0 - mean) = NaN where
                // the saved mean is infinite (whose dscale is then infinite or NaN anyway): testing has() there
                // too spills in the one-value-a-unit kernels.
                const bool counts = kZeroed || has(k, held);
                const float g = counts ? to_compute<float>(gv[k].lane[l]) : 0.0f;
                partial[0] += g;
                partial[1] += counts ? g * (to_compute<float>(xv[k].lane[l]) - mean) : 0.0f;
            }
        }
        double total[2];
        cluster_sums(partial, total, round, a.cluster);
        cluster_arrive();
        const float dbias = static_cast<float>(total[0]), dscale = static_cast<float>(total[1]) * inv_std;
        if (writer) write_channel_gradients(r, po, dscale, dbias);
        gain = scale * inv_std;
        bias_term = dbias / a.count;
        scale_term = dscale / a.count;
    }

    // y = gain (x - mean) + bias; dx = gain (dy - dbias / M - (x - mean) inv_std dscale / M). alpha is folded
    // into gain and shift (a multiply a value less): alpha 1 gives the same bits; another rounds gain and shift
    // first, moving y by up to an ulp of its larger term (dx by an ulp). beta is tested once, not a unit,
    // choosing between two walks: with beta 0, y (dx) is not read (it may be uninitialised).
    gain *= a.alpha;
    shift *= a.alpha;
    auto store = [&](auto blend) {
        walk([&](int k, int64_t at, bool here) {
            U result{};
            if constexpr (decltype(blend)::value) {
                if (here) result = out[at];
            }
#pragma unroll
            for (int l = 0; l < W; ++l) {
                const float centred = to_compute<float>(xv[k].lane[l]) - mean;
                float value;
                if constexpr (!kBackward) {
                    value = gain * centred + shift;
                } else {
                    value = gain * (to_compute<float>(gv[k].lane[l]) - bias_term - centred * inv_std * scale_term);
                }
                if constexpr (decltype(blend)::value) value += a.beta * to_compute<float>(result.lane[l]);
                result.lane[l] = from_compute<T>(value);
            }
            if (here) out[at] = result;
        });
    };
    if (a.beta == 0.0f) {
        store(std::false_type{});
    } else {
        store(std::true_type{});
    }
    cluster_wait();
#else
    __trap();  // never launched: the launcher checks that the kernel was built for sm_90 or later
#endif
}

using Kernel = void (*)(ClusterArgs);

template <class T, int W, bool kPlanes>
Kernel kernel_of(bool backward) {
    return backward ? cluster_training_kernel<T, W, true, kPlanes> : cluster_training_kernel<T, W, false, kPlanes>;
}

// The kernel for this type, unit width (1, 4 or a vector's lanes), walk and direction; nullptr where the
// library as loaded has no sm_90 code for it.
template <class T>
Kernel built_kernel(int width, bool planes, bool backward) {
    static const bool built = built_for_sm90(reinterpret_cast<const void *>(kernel_of<T, 1, false>(false)));
    if (!built) return nullptr;
    constexpr int kLanes = Vector16<T>::kLanes;
    auto of = [&](auto walk) {
        constexpr bool kPlanes = decltype(walk)::value;
        if (width == kLanes) return kernel_of<T, kLanes, kPlanes>(backward);
        if constexpr (kLanes > 4) {
            if (width == 4) return kernel_of<T, 4, kPlanes>(backward);
        }
        return kernel_of<T, 1, kPlanes>(backward);
    };
    return planes ? of(std::true_type{}) : of(std::false_type{});
}

struct Plan {
    Kernel kernel = nullptr;
    ClusterArgs args{};
};

// The kernel and its arguments for a packed NCHW problem; false where the kernels do not take it.
bool plan(const BatchNormProblem &p, const BatchNormBuffers &b, Plan *out) {
    static const int forced = forced_cluster_blocks();
    if (forced == 0) return false;
    const int64_t lanes = 16 / static_cast<int64_t>(data_type_size(p.x.dtype));
    const int64_t images = p.x.dims[0], channels = p.x.dims[1];
    const int64_t spatial = p.x.element_count() / (images * channels);
    // Units of a vector where planes are whole vectors; of four 16-bit values where planes are a multiple
    // of four (14 x 14 half); else of one value.
    const int64_t width = spatial % lanes == 0 ? lanes : lanes > 4 && spatial % 4 == 0 ? 4 : 1;
    const int64_t units_per_plane = spatial / width;
    const int units_a_thread = width > 1 ? kVectorUnits : kScalarUnits;
    // Planes of at most 64 units go a warp a plane, two units a lane: a block holds kWarps times the planes a
    // warp holds. Longer ones: the block's units flattened over its threads.
    const bool planes = units_per_plane <= 64;
    const int64_t capacity =
        planes ? int64_t{kWarps} * (units_a_thread / 2) : int64_t{kBlock} * units_a_thread / units_per_plane;
    if (capacity < 1) return false;
    // The fewest blocks a channel whose shares (capacity images) fit, none without an image.
    const int64_t most = images < kMaxCluster ? images : kMaxCluster;
    int64_t cluster = (images + capacity - 1) / capacity;
    if (cluster > most) return false;
    if (forced > 0) {
        if ((images + forced - 1) / forced > capacity || forced > images) return false;
        cluster = forced;
    }
    const bool backward = p.phase == BatchNormPhase::backward;
    const int w = static_cast<int>(width);
    const Kernel kernel = p.x.dtype == CUDNN_DATA_HALF       ? built_kernel<__half>(w, planes, backward)
                          : p.x.dtype == CUDNN_DATA_BFLOAT16 ? built_kernel<__nv_bfloat16>(w, planes, backward)
                                                             : built_kernel<float>(w, planes, backward);
    if (kernel == nullptr) return false;
    ClusterArgs &a = out->args;
    a.x = b.x;
    a.dy = b.dy;
    a.out = b.result;
    a.channels = static_cast<int>(channels);
    a.units_per_plane = static_cast<int>(units_per_plane);
    a.images = static_cast<int>(images);
    a.cluster = static_cast<int>(cluster);
    a.images_per_block = static_cast<int>((images + cluster - 1) / cluster);
    const int64_t plane_stride = channels * units_per_plane;
    a.step_units = static_cast<int>(kBlock % units_per_plane);
    a.step_offset = kBlock / units_per_plane * plane_stride + a.step_units;
    a.wrap_offset = plane_stride - units_per_plane;
    a.count = static_cast<float>(images * spatial);
    a.alpha = static_cast<float>(p.alpha);
    a.beta = static_cast<float>(p.beta);
    a.results = channel_results(p, b);
    out->kernel = kernel;
    return true;
}

}  // namespace

int forced_cluster_blocks() {
    const char *value = std::getenv("LIBREDNN_BN_CLUSTER");
    if (value == nullptr || *value == '\0') return -1;
    const int blocks = std::atoi(value);
    return blocks >= 0 && blocks <= kMaxCluster ? blocks : -1;
}

bool try_cluster_training(cudaStream_t stream, const BatchNormProblem &p, const BatchNormBuffers &b, Status *status) {
    Plan chosen;
    if (!plan(p, b, &chosen)) return false;
    *status = launch_clusters(stream, chosen.kernel, chosen.args, chosen.args.channels, chosen.args.cluster, kBlock, 0,
                              "batch_norm_cluster_kernel");
    return true;
}

}  // namespace librednn::cuda
