// How the element-wise batch-norm kernels (inference, and the last pass of training and backward) find the
// per-channel constants of each 16-byte vector without every block loading every channel's:
// - NCHW: the constants in shared memory; where staging all C channels a block costs little, every block
//   stages them and the grid's threads take consecutive vectors; else a block takes one contiguous range of
//   vectors and stages only the channels whose planes the range meets;
// - NHWC: the grid's stride is a multiple of a row's vectors, so all of a thread's vectors hold the same
//   channels, and the thread keeps their constants in registers.
// Both take the tensor from its end: a pass that follows one over the same tensor (training) finds in L2
// what that pass read last.
#pragma once

#include "cuda/batch_norm/lane_channels.cuh"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <cstdint>
#include <cstring>
#include <numeric>

namespace librednn::cuda {

// A thread's share of an NCHW tensor of `vectors` 16-byte vectors of `lanes` elements, planes of `spatial`
// elements, `channels` planes an image: indices i = begin, begin + step, ... below end, each the vector
// vectors - 1 - i (from the end). Interleaved (the grid's threads take consecutive vectors, all C channels
// staged) where staging every channel costs the blocks little against the tensor (nchw_grid), else a
// contiguous range a block, staging only the channels of the planes it meets.
struct ChannelRange {
    int64_t begin, end, step;
    int first;   // the first staged channel
    int staged;  // channels staged: first, first + 1, ... (mod C); at most C
};

__device__ __forceinline__ ChannelRange channel_range(int64_t vectors, int lanes, const FastDivisor &spatial,
                                                      const FastDivisor &channels, bool interleaved) {
    ChannelRange r;
    if (interleaved) {
        r.begin = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
        r.end = vectors;
        r.step = static_cast<int64_t>(gridDim.x) * blockDim.x;
        r.first = 0;
        r.staged = static_cast<int>(channels.divisor);
        return r;
    }
    const int64_t per_block = ((vectors + gridDim.x - 1) / gridDim.x + 31) / 32 * 32;
    const int64_t begin = min(static_cast<int64_t>(blockIdx.x) * per_block, vectors);
    r.end = min(begin + per_block, vectors);
    r.begin = begin + threadIdx.x;
    r.step = blockDim.x;
    r.first = 0;
    r.staged = 0;
    if (begin == r.end) return r;
    // The block's vectors, from the end: vectors - end .. vectors - 1 - begin.
    const int64_t first_plane = divide(spatial, (vectors - r.end) * lanes);
    const int64_t last_plane = divide(spatial, (vectors - begin) * lanes - 1);
    r.first = static_cast<int>(first_plane - divide(channels, first_plane) * channels.divisor);
    r.staged = static_cast<int>(min(last_plane - first_plane + 1, channels.divisor));
    return r;
}

// The channel staged j-th: first + j, wrapped past the last.
__device__ __forceinline__ int staged_channel(const ChannelRange &r, int j, int channels) {
    return r.first + j < channels ? r.first + j : r.first + j - channels;
}

// Where channel c sits among the staged ones.
__device__ __forceinline__ int staged_index(const ChannelRange &r, int c, int channels) {
    const int i = c - r.first;
    return i < 0 ? i + channels : i;
}

// The staged channels of the 16-byte vector that starts at element `element` of an NCHW tensor (planes of `spatial`
// elements, `channels` planes an image): with `per_lane` (planes that are not whole vectors, lane_channels.cuh)
// the one or two channels its lanes hold, else the one channel of the whole vector; of(lane) is lane's index
// among the staged channels (channel_range).
struct VectorChannels {
    LaneChannels split;
    int whole;
    bool per_lane;
    __device__ __forceinline__ int of(int lane) const { return per_lane ? lane_channel(split, lane) : whole; }
};

__device__ __forceinline__ VectorChannels vector_channels(const ChannelRange &range, bool per_lane,
                                                          const FastDivisor &spatial, const FastDivisor &channels,
                                                          int64_t element) {
    const int C = static_cast<int>(channels.divisor);
    VectorChannels v{};
    v.per_lane = per_lane;
    if (per_lane) {
        v.split = lane_channels(spatial, channels, element);
        v.split.first = staged_index(range, v.split.first, C);
        v.split.next = staged_index(range, v.split.next, C);
    } else {
        const int64_t plane = divide(spatial, element);
        v.whole = staged_index(range, static_cast<int>(plane - divide(channels, plane) * C), C);
    }
    return v;
}

// A thread's `count` vectors (numbered 0, 1, ...), in batches of kVectorsInFlight: the loads of a batch are all
// issued before any of its vectors is used, and `prepare` (the channels' constants, staged or in registers; a
// dependent launch's wait) runs once, after the first batch's loads are issued, so that their latency hides its
// own. Every thread calls `prepare`, also with no vectors (it may synchronise the block). With one load a thread at
// a time, a wave's thread walked a small layer's vectors (about five of them at 256 x 512 x 7 x 7) one round trip
// after another, the first only after the constants'.
constexpr int kVectorsInFlight = 4;

// The kernels hold a loaded vector as its four words (`bits`) until they use it: held as lanes of a 16-bit type,
// the compiler repacks the halves as soon as a load arrives, which waits for it before the loads after it issue.
__device__ __forceinline__ uint4 bits_at(const void *base, int64_t v) { return static_cast<const uint4 *>(base)[v]; }

template <class T>
__device__ __forceinline__ Vector16<T> lanes_of(const uint4 &bits) {
    Vector16<T> v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

template <class Item, class Load, class Prepare, class Use>
__device__ __forceinline__ void walk_vectors(int64_t count, Load &&load, Prepare &&prepare, Use &&use) {
    Item items[kVectorsInFlight];
    auto load_batch = [&](int64_t j) {
#pragma unroll
        for (int u = 0; u < kVectorsInFlight; ++u) {
            if (j + u < count) items[u] = load(j + u);
        }
    };
    auto use_batch = [&](int64_t j) {
#pragma unroll
        for (int u = 0; u < kVectorsInFlight; ++u) {
            if (j + u < count) use(j + u, items[u]);
        }
    };
    load_batch(0);
    prepare();
    use_batch(0);
    for (int64_t j = kVectorsInFlight; j < count; j += kVectorsInFlight) {
        load_batch(j);
        use_batch(j);
    }
}

// Blocks for the NCHW kernels and whether they interleave (channel_range): four waves of the blocks the SMs
// hold, interleaved, where those blocks each staging `arrays` floats for every one of `channels` channels
// read under a sixteenth of the tensor bytes the pass moves; else one wave of contiguous ranges.
struct NchwGrid {
    int blocks;
    bool interleaved;
};

inline NchwGrid nchw_grid(const ResidentBlocks &resident, int64_t vectors, int64_t tensor_bytes, int64_t channels,
                          int arrays, int block_threads) {
    const int interleaved = grid_size(resident, vectors, block_threads, 4);
    if (int64_t{interleaved} * arrays * channels * 4 * 16 <= tensor_bytes) return {interleaved, true};
    return {grid_size(resident, vectors, block_threads), false};
}

// NHWC: the vector a thread takes first (from the end), and its channels' first, c0 .. c0 + lanes - 1.
// The grid is nhwc_grid's, so the thread's later vectors (v - stride, ...) hold the same channels.
__device__ __forceinline__ int64_t nhwc_first_vector(int64_t vectors) {
    return vectors - 1 - (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x);
}

// Blocks for the NHWC kernels: a wave of the blocks the SMs hold, the stride (blocks x block_threads) a
// multiple of row_vectors.
inline int nhwc_grid(const ResidentBlocks &resident, int64_t vectors, int64_t row_vectors, int block_threads) {
    const int64_t multiple = row_vectors / std::gcd(row_vectors, static_cast<int64_t>(block_threads));
    const int64_t blocks = grid_size(resident, vectors, block_threads);
    return static_cast<int>((blocks + multiple - 1) / multiple * multiple);
}

}  // namespace librednn::cuda
