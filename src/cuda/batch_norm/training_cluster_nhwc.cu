// The channel-tile cluster batch-norm training kernel over NHWC (training_cluster_nhwc.hpp).
#include "cuda/batch_norm/training_cluster_nhwc.hpp"

#include "core/data_type.hpp"
#include "cuda/batch_norm/channel_results.cuh"
#include "cuda/batch_norm/cluster_sums.cuh"
#include "cuda/batch_norm/training_cluster.hpp"
#include "cuda/common/cluster.cuh"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <cstring>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kLanes = 8;                      // channels a 16-byte vector of a 16-bit type
constexpr int kTileVectors = 2;                // a tile: 16 channels, a 32-byte sector a row
constexpr int kTile = kTileVectors * kLanes;   // channels a tile
constexpr int kSlots = kBlock / kTileVectors;  // rows a block takes at a time
constexpr int kUnits = 16;                     // rows a thread holds (its vector of each)
constexpr int kBlocksPerSm = 2;                // the launch bounds' minimum (124 registers)

__device__ __forceinline__ float2 pair_to_float2(__half2 p) { return __half22float2(p); }
__device__ __forceinline__ float2 pair_to_float2(__nv_bfloat162 p) { return __bfloat1622float2(p); }

struct NhwcClusterArgs {
    const void *x;
    void *y;
    int64_t rows;         // N x H x W
    int64_t row_vectors;  // C / 8: a row's 16-byte vectors
    int cluster;          // blocks a tile
    float count;          // values a channel: N x H x W
    float alpha, beta;    // y = alpha * result + beta * y
    ChannelResults results;
};

// A cluster per tile of 16 channels; thread t of block `rank` takes vector t % 2 of the tile (channels
// 8 (t % 2) .. 8 (t % 2) + 7) in rows s, s + G x 128, ... (s = rank x 128 + t / 2): a warp's loads are 16 rows'
// 32-byte sectors. All of a thread's rows are loaded before any is used; rows past the end hold zeros.
template <class T>
__global__ void __launch_bounds__(kBlock, kBlocksPerSm)
    nhwc_cluster_forward_kernel(const __grid_constant__ NhwcClusterArgs a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using P = PairOf<T>;
    const int tile = blockIdx.x / a.cluster;
    const int rank = blockIdx.x - tile * a.cluster;
    const int tid = threadIdx.x, part = tid % kTileVectors;
    const int64_t slot = static_cast<int64_t>(rank) * kSlots + tid / kTileVectors;
    const int64_t row_step = static_cast<int64_t>(a.cluster) * kSlots;
    // Rows the thread holds: at most kUnits (the launcher sizes the cluster so).
    const int held = slot < a.rows ? static_cast<int>((a.rows - slot + row_step - 1) / row_step) : 0;
    const int channel0 = tile * kTile + part * kLanes;  // the thread's first channel
    const ChannelResults &r = a.results;
    const uint4 *x = static_cast<const uint4 *>(a.x);
    const int64_t first = slot * a.row_vectors + tile * kTileVectors + part;
    const int64_t step = row_step * a.row_vectors;
    uint4 xv[kUnits];
#pragma unroll
    for (int k = 0; k < kUnits; ++k) {
        xv[k] = make_uint4(0u, 0u, 0u, 0u);
        if (k < held) xv[k] = x[first + k * step];
    }
    // Each pass converts the units afresh (the empty asm hides that they do not change): the floats of a pass
    // kept for the next would take 128 registers.
    auto refresh = [&] {
#pragma unroll
        for (int k = 0; k < kUnits; ++k) asm volatile("" : "+r"(xv[k].x), "+r"(xv[k].y), "+r"(xv[k].z), "+r"(xv[k].w));
    };
    // A unit's values as floats, pairs at a time.
    auto values = [&](int k, float(&v)[kLanes]) {
        P pairs[kLanes / 2];
        memcpy(pairs, &xv[k], sizeof pairs);
#pragma unroll
        for (int p = 0; p < kLanes / 2; ++p) {
            const float2 f = pair_to_float2(pairs[p]);
            v[2 * p] = f.x;
            v[2 * p + 1] = f.y;
        }
    };

    // The mean, then the squared deviations from it: two rounds over the registers, per channel.
    __shared__ ClusterSums<kLanes, kTileVectors, kWarps> first_round, second_round;
    float sum[kLanes] = {};
#pragma unroll
    for (int k = 0; k < kUnits; ++k) {
        float v[kLanes];
        values(k, v);  // zeros past the end add nothing
#pragma unroll
        for (int l = 0; l < kLanes; ++l) sum[l] += v[l];
    }
    double total[kLanes];
    cluster_sums(sum, total, first_round, a.cluster);
    float mean[kLanes];
#pragma unroll
    for (int l = 0; l < kLanes; ++l) mean[l] = static_cast<float>(total[l] / static_cast<double>(a.count));
    refresh();
    float m2[kLanes] = {};
#pragma unroll
    for (int k = 0; k < kUnits; ++k) {
        float v[kLanes];
        values(k, v);
#pragma unroll
        for (int l = 0; l < kLanes; ++l) {
            const float d = v[l] - mean[l];
            m2[l] += k < held ? d * d : 0.0f;  // a zero's deviation is not 0
        }
    }
    cluster_sums(m2, total, second_round, a.cluster);
    cluster_arrive();
    // Block 0's first 16 threads write the tile's 16 channels' statistics.
    if (rank == 0 && tid < kTile) {
        const int g = tid / kLanes, l = tid % kLanes;
        const float channel_mean = static_cast<float>(first_round.total[g][l] / static_cast<double>(a.count));
        const float variance = static_cast<float>(second_round.total[g][l] / static_cast<double>(a.count));
        write_channel_statistics(r, static_cast<int64_t>(tile * kTile + tid) * r.parameter_stride, channel_mean,
                                 variance, a.count);
    }
    // y = alpha (gain (x - mean) + bias) + beta y, alpha folded into gain and shift. (The parameters are read
    // only now: held across the sums, they made the kernel spill.) All sixteen loads first: the divisions' slow
    // paths (calls) would otherwise hold each lane's loads back until the lane before it is done.
    float gain[kLanes], shift[kLanes];
#pragma unroll
    for (int l = 0; l < kLanes; ++l) {
        const int64_t at = static_cast<int64_t>(channel0 + l) * r.parameter_stride;
        gain[l] = r.scale[at];
        shift[l] = r.bias[at];
        asm volatile("" : "+f"(gain[l]), "+f"(shift[l]));
    }
#pragma unroll
    for (int l = 0; l < kLanes; ++l) {
        const float variance = static_cast<float>(total[l] / static_cast<double>(a.count));
        gain[l] = gain[l] * inverse_deviation(r, variance) * a.alpha;
        shift[l] = shift[l] * a.alpha;
    }
    refresh();
    uint4 *y = static_cast<uint4 *>(a.y);
    auto store = [&](auto blend) {
#pragma unroll
        for (int k = 0; k < kUnits; ++k) {
            if (k >= held) continue;
            float v[kLanes];
            values(k, v);
            const int64_t at = first + k * step;
            T old[kLanes];
            if constexpr (decltype(blend)::value) {
                const uint4 bits = y[at];
                memcpy(old, &bits, sizeof bits);
            }
            T out[kLanes];
#pragma unroll
            for (int l = 0; l < kLanes; ++l) {
                float value = gain[l] * (v[l] - mean[l]) + shift[l];
                if constexpr (decltype(blend)::value) value += a.beta * to_compute<float>(old[l]);
                out[l] = from_compute<T>(value);
            }
            uint4 bits;
            memcpy(&bits, out, sizeof bits);
            y[at] = bits;
        }
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

using Kernel = void (*)(NhwcClusterArgs);

template <class T>
Kernel built_kernel() {
    static const bool built = built_for_sm90(reinterpret_cast<const void *>(nhwc_cluster_forward_kernel<T>));
    return built ? nhwc_cluster_forward_kernel<T> : nullptr;
}

// The kernel's blocks an SM holds at once (the occupancy calculator's answer).
template <class T>
int blocks_per_sm() {
    static const ResidentBlocks resident(reinterpret_cast<const void *>(nhwc_cluster_forward_kernel<T>), kBlock);
    return resident.per_sm();
}

}  // namespace

bool try_cluster_nhwc_training(cudaStream_t stream, const BatchNormProblem &p, const BatchNormBuffers &b,
                               Status *status) {
    static const int forced = forced_cluster_blocks();
    if (forced == 0 || p.phase != BatchNormPhase::training) return false;
    if (p.x.dtype != CUDNN_DATA_HALF && p.x.dtype != CUDNN_DATA_BFLOAT16) return false;
    const int64_t channels = p.x.dims[1];
    if (channels % kTile != 0) return false;
    const int64_t rows = p.x.element_count() / channels;
    const int64_t capacity = int64_t{kSlots} * kUnits;  // rows a block holds
    int64_t cluster = (rows + capacity - 1) / capacity;
    if (cluster > kMaxCluster) return false;
    const bool half = p.x.dtype == CUDNN_DATA_HALF;
    const Kernel kernel = half ? built_kernel<__half>() : built_kernel<__nv_bfloat16>();
    if (kernel == nullptr) return false;
    if (forced > 0) {
        if ((rows + forced - 1) / forced > capacity) return false;
        cluster = forced;
    } else {
        // One wave only: where the GPU cannot hold every cluster at once, each wave waits out its clusters'
        // loads, sums and stores, and the three passes were faster (half NHWC 256 x 2048 x 7 x 7: 93.5 us
        // against 66.4, bench/results/2026-12-03-h200-pooling-groups/call-4).
        const int64_t resident =
            int64_t{half ? blocks_per_sm<__half>() : blocks_per_sm<__nv_bfloat16>()} * current_device_limits().sm_count;
        if (channels / kTile * cluster > resident) return false;
    }
    NhwcClusterArgs a{};
    a.x = b.x;
    a.y = b.result;
    a.rows = rows;
    a.row_vectors = channels / kLanes;
    a.cluster = static_cast<int>(cluster);
    a.count = static_cast<float>(rows);
    a.alpha = static_cast<float>(p.alpha);
    a.beta = static_cast<float>(p.beta);
    a.results = channel_results(p, b);
    *status =
        launch_clusters(stream, kernel, a, channels / kTile, a.cluster, kBlock, 0, "batch_norm_cluster_nhwc_kernel");
    return true;
}

}  // namespace librednn::cuda
