// What the two TF32 matrix-product kernels share (gemm_tf32.cu: mma.sync, gemm_tf32_wgmma.cu: wgmma): the
// product's arguments, the 128 x 32 operand tiles that stream from global memory into shared memory as 16-byte
// asynchronous copies, each laid out the way its operand lies (k contiguous, or m or n contiguous) with its
// chunks swizzled, and the epilogue that finishes an element of C. A block of kTileThreads threads loads a tile.
#pragma once

#include "cuda/common/async_copy.cuh"
#include "cuda/common/gemm_simt.hpp"
#include "cuda/common/mma_tf32.cuh"

#include <cstdint>

namespace librednn::cuda::tf32_tiles {

constexpr int kTileThreads = 256, kTileM = 128, kTileN = 128, kTileK = 32;
constexpr int kOperandFloats = kTileM * kTileK;  // [128][32] (k contiguous) or [32][128], swizzled

struct Tf32Args {
    GemmOperands<float> g;
    int64_t k_per_split;
    float *partials;  // [split][m][n] when k is split, else nullptr
};

// Whether an operand with strides (unit, other) has one index at unit stride and rows of whole 16-byte vectors.
inline bool unit_stride_rows(int64_t unit, int64_t other) { return unit == 1 && other % 4 == 0 && other > 0; }

// Where element (outer, l) of a tile lies: [128][32] rows of outer index with chunk c of each row at
// c ^ 2 (outer mod 4), or [32][128] rows of k with chunk c at c ^ 2 ((l / 2) mod 4). The 16 lanes of one
// 8-byte load then cover the 32 banks once.
template <bool KContiguous>
__device__ __forceinline__ int tile_index(int outer, int l) {
    if constexpr (KContiguous) {
        return outer * kTileK + ((((l >> 2) ^ ((outer & 3) << 1))) << 2) + (l & 3);
    } else {
        return l * kTileM + ((((outer >> 2) ^ (((l >> 1) & 3) << 1))) << 2) + (outer & 3);
    }
}

// One thread's share of one operand's tiles: four 16-byte chunks of each, at fixed places in the tile (chunk
// i 1024 floats after chunk 0), read from a source that steps along k from tile to tile. The operand's element
// (outer, l) lies at p[outer * outer_stride + l * k_stride], one of the strides 1 (A's outer index is m, B's n).
template <bool KContiguous>
struct TileLoader {
    const float *base, *source;  // the operand; chunk 0 of the next tile
    int64_t chunk_step, tile_step;
    int place;       // chunk 0's place in the tile
    int outer_left;  // outer indices from chunk 0's first to the operand's end (at most 2^30)
    int l_first;     // chunk 0's first k within a tile

    __device__ __forceinline__ void init(const float *p, int64_t outer_stride, int64_t k_stride, int64_t outer_count,
                                         int64_t outer0, int64_t k_begin, int tid) {
        base = p;
        int outer;
        if constexpr (KContiguous) {  // [128 outer][32 k]: eight chunks a row, rows 32 apart from chunk to chunk
            outer = tid >> 3, l_first = (tid & 7) * 4;
            chunk_step = 32 * outer_stride, tile_step = kTileK;
        } else {  // [32 k][128 outer]: 32 chunks a row, rows 8 apart
            outer = (tid & 31) * 4, l_first = tid >> 5;
            chunk_step = 8 * k_stride, tile_step = kTileK * k_stride;
        }
        place = tile_index<KContiguous>(outer, l_first);
        outer_left = static_cast<int>(min(max(outer_count - (outer0 + outer), int64_t{-1}), int64_t{1} << 30));
        source = p + (outer0 + outer) * outer_stride + (k_begin + l_first) * k_stride;
    }

    // Queues the next tile's copies into `tile`; `k_left` terms of the sum remain from its first k. Zeros past
    // the operand's end and past k_left.
    __device__ __forceinline__ void load(float *tile, int k_left) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            int bytes;
            if constexpr (KContiguous) {
                bytes = 32 * i < outer_left ? min(max(k_left - l_first, 0), 4) * 4 : 0;
            } else {
                bytes = l_first + 8 * i < k_left ? min(max(outer_left, 0), 4) * 4 : 0;
            }
            async_copy16_or_zeros(tile + place + 1024 * i, bytes > 0 ? source + i * chunk_step : base, bytes);
        }
        source += tile_step;
    }

    // Rounds this thread's chunks of a landed tile to TF32 in place, once for every warp that reads them.
    __device__ __forceinline__ void round(float *tile) const {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            float4 *chunk = reinterpret_cast<float4 *>(tile + place + 1024 * i);
            float4 v = *chunk;
            v.x = __uint_as_float(tf32_bits(v.x)), v.y = __uint_as_float(tf32_bits(v.y));
            v.z = __uint_as_float(tf32_bits(v.z)), v.w = __uint_as_float(tf32_bits(v.w));
            *chunk = v;
        }
    }
};

// The finished value of C(r, c) from its sum over k: plus the bias and (accumulating) C's old value.
__device__ __forceinline__ void write_result(const GemmOperands<float> &g, int64_t r, int64_t c, float sum) {
    float *at = g.c + r * g.c_row + c;
    float value = sum;
    if (g.bias != nullptr) value += g.bias[c];
    if (g.accumulate) value += *at;
    *at = value;
}

// Element (r, c) of C, finished, or its sum over this block's part of k when k is split.
__device__ __forceinline__ void write_sum(const Tf32Args &args, int64_t r, int64_t c, float sum) {
    if (r >= args.g.m || c >= args.g.n) return;
    if (args.partials != nullptr) {
        args.partials[(static_cast<int64_t>(blockIdx.z) * args.g.m + r) * args.g.n + c] = sum;
    } else {
        write_result(args.g, r, c, sum);
    }
}

}  // namespace librednn::cuda::tf32_tiles
