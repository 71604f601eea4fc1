// The padding and folding transform kernels. The general one takes one element of y per thread, walking y
// in its memory order (so stores coalesce whatever the layout), each finding the element of x it takes, or
// none for padding. The channel-padding one serves the common case (x into packed NHWC y whose pixel is 4,
// 8 or 16 bytes: 3-channel images padded to 8 for tensor cores): one thread writes a whole pixel with one
// vector store, its channels read from x's planes, where neighbouring threads read neighbouring pixels
// (1 and 2-byte types as whole words, handed out by warp shuffles).
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/transform/transform_reshape.hpp"

#include "core/data_type.hpp"

#include <algorithm>

namespace librednn::cuda {

namespace {

// --- the general kernel -------------------------------------------------------------------------------

constexpr int kReshapeBlock = 256;

// How an element of y finds its source.
enum class ReshapeMode : int {
    pad,     // x_index = y_index - pad_before
    fold,    // pad, then move each fold block of spatial positions into channels
    unfold,  // move channels back into fold blocks, then pad
};

// One dim of the walk through y (memory order): its extent and stride in y, the NCHW dim it steps, and
// for dims other than the channel (each of which appears once) what its index means in x. Channels may
// appear twice (vector and lane of NCHW_VECT_C): they add up in a channel index the kernel handles last.
struct ReshapeWalkDim {
    FastDivisor extent;
    int64_t y_stride;
    int dim;
    int64_t channel_weight;  // channel parts: the channel index one step adds
    int64_t pad_before;
    int64_t x_extent;  // pad and fold: x's extent; unfold: the unfolded extent
    int64_t x_stride;
    int64_t padded_extent;     // fold: indices at or past it are the blocks' round-up (zero)
    FastDivisor fold;          // the dim's fold factor; 1 for N (and in pad mode)
    FastDivisor block_weight;  // the product of the later spatial dims' fold factors (1 in pad mode)
};

// Everything about where elements go, whatever the compute type.
struct ReshapeShape {
    const void *x;
    void *y;
    ScalarType x_type, y_type;
    int64_t count;
    ReshapeMode mode;
    int walk_rank;
    ReshapeWalkDim walk[kMaxLayoutDims];  // innermost first
    // y dims of extent 1 not in the walk: their index is 0, so their share of x's offset is constant,
    // or every element of y is padding.
    int64_t x_base;
    int all_padding;
    // Channels: y's channel c takes x's channel c - channel_pad_before (fold: of the padded channel, with
    // padded_channels per block position; unfold: of block position k's group of x_channels).
    int64_t channel_pad_before;
    int64_t x_channels;  // unfold: the unfolded channels
    FastDivisor padded_channels;
    // x's offset (in scalars) of channel c: (c >> x_lane_shift) * x_channel_stride + (c & x_lane_mask).
    int64_t x_channel_stride;
    int x_lane_shift;
    int64_t x_lane_mask;
    int raw_copy;      // one scalar type, alpha 1, beta 0: move bits
    int scalar_bytes;  // for the raw copy
    int blend;
};

template <class C>
struct ReshapeArgs {
    ReshapeShape shape;
    C alpha, beta;
};

__device__ __forceinline__ bool within(int64_t at, int64_t extent) {
    return static_cast<uint64_t>(at) < static_cast<uint64_t>(extent);
}

__device__ __forceinline__ int64_t x_channel_offset(const ReshapeShape &a, int64_t channel) {
    return (channel >> a.x_lane_shift) * a.x_channel_stride + (channel & a.x_lane_mask);
}

// The offset in x of the element at y's walk position `steps` (channel index `channel`); false when that
// element is padding. Every array index is a constant after unrolling, so `steps` lives in registers.
__device__ __forceinline__ bool source_offset(const ReshapeShape &a, const int64_t (&steps)[kMaxLayoutDims],
                                              int64_t channel, int64_t *offset) {
    bool inside = !a.all_padding;
    int64_t result = a.x_base;
    if (a.mode == ReshapeMode::pad) {
#pragma unroll
        for (int w = 0; w < kMaxLayoutDims; ++w) {
            if (w < a.walk_rank && a.walk[w].dim != 1) {
                const int64_t at = steps[w] - a.walk[w].pad_before;
                inside = inside && within(at, a.walk[w].x_extent);
                result += at * a.walk[w].x_stride;
            }
        }
        const int64_t at = channel - a.channel_pad_before;
        inside = inside && within(at, a.x_channels);
        *offset = result + x_channel_offset(a, at);
        return inside;
    }
    if (a.mode == ReshapeMode::fold) {
        // y channel k * padded_channels + c is padded channel c at block position k, which spreads over
        // the spatial dims row-major (the last fastest): padded index = y index * f + k's digit.
        const int64_t k = divide(a.padded_channels, channel);
        const int64_t at = channel - k * a.padded_channels.divisor - a.channel_pad_before;
        inside = inside && within(at, a.x_channels);
        result += x_channel_offset(a, at);
#pragma unroll
        for (int w = 0; w < kMaxLayoutDims; ++w) {
            if (w < a.walk_rank && a.walk[w].dim != 1) {
                const ReshapeWalkDim &walk = a.walk[w];
                const int64_t above = divide(walk.block_weight, k);
                const int64_t digit = above - divide(walk.fold, above) * walk.fold.divisor;
                const int64_t padded = steps[w] * walk.fold.divisor + digit;
                const int64_t x_at = padded - walk.pad_before;
                inside = inside && padded < walk.padded_extent && within(x_at, walk.x_extent);
                result += x_at * walk.x_stride;
            }
        }
        *offset = result;
        return inside;
    }
    // Unfold: undo the padding; each spatial index splits into x's block and a digit of the block
    // position k, which picks channel group k of x.
    int64_t k = 0;
#pragma unroll
    for (int w = 0; w < kMaxLayoutDims; ++w) {
        if (w < a.walk_rank && a.walk[w].dim != 1) {
            const ReshapeWalkDim &walk = a.walk[w];
            const int64_t unpadded = steps[w] - walk.pad_before;
            inside = inside && within(unpadded, walk.x_extent);
            const int64_t block = divide(walk.fold, inside ? unpadded : 0);
            k += (unpadded - block * walk.fold.divisor) * walk.block_weight.divisor;
            result += block * walk.x_stride;
        }
    }
    const int64_t at = channel - a.channel_pad_before;
    inside = inside && within(at, a.x_channels);
    *offset = result + x_channel_offset(a, k * a.x_channels + at);
    return inside;
}

template <class C>
__global__ void __launch_bounds__(kReshapeBlock) transform_reshape_kernel(const __grid_constant__ ReshapeArgs<C> args) {
    const ReshapeShape &a = args.shape;
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < a.count; i += threads) {
        int64_t steps[kMaxLayoutDims];
        int64_t position = i, y_offset = 0, channel = 0;
#pragma unroll
        for (int w = 0; w < kMaxLayoutDims; ++w) {
            steps[w] = 0;
            if (w < a.walk_rank) {
                const int64_t quotient = divide(a.walk[w].extent, position);
                steps[w] = position - quotient * a.walk[w].extent.divisor;
                position = quotient;
                y_offset += steps[w] * a.walk[w].y_stride;
                if (a.walk[w].dim == 1) channel += steps[w] * a.walk[w].channel_weight;
            }
        }
        int64_t x_offset = 0;
        const bool inside = source_offset(a, steps, channel, &x_offset);
        if (a.raw_copy) {
            // Zero bits are +0 in every type.
            store_bits(a.y, a.scalar_bytes, y_offset, inside ? load_bits(a.x, a.scalar_bytes, x_offset) : 0);
            continue;
        }
        C value = args.alpha * (inside ? load_as<C>(a.x, a.x_type, x_offset) : C(0));
        if (a.blend) value += args.beta * load_as<C>(a.y, a.y_type, y_offset);
        store_as<C>(a.y, a.y_type, y_offset, value);
    }
}

// --- the channel-padding kernel ---------------------------------------------------------------------

constexpr int kPadBlock = 256;
// Pixels per thread, all loaded before any is stored: 4, or 2 where a pixel's 8 or 16 lanes of 1 or 2 bytes
// would load into as many registers each (the kernel's register count is the largest of its paths').
template <int kBytes, int kLanes>
constexpr int kPadPixels = kLanes >= 8 && kBytes < 4 ? 2 : 4;
constexpr int kWidePixels = 8;  // the same, loading whole words of 1 and 2-byte pixels
constexpr int kWordSlots = 4;   // x channels the word loads take (at most; more go pixel by pixel)

// Packed NHWC y with `lanes` channels (one 4, 8 or 16-byte vector per pixel), from x whose pixels (the
// spatial dims together) are evenly spaced in each image and channel plane.
struct PadChannelsArgs {
    const void *x;
    void *y;
    int64_t pixels;            // N * spatial
    FastDivisor image_pixels;  // spatial
    int64_t x_image_stride, x_pixel_stride, x_channel_stride;
    int x_channels;
    int pad_before;  // y channel c takes x channel c - pad_before
    int by_word;     // 1 and 2-byte types: load x as words (x_channel_stride then counts words)
    // by_word: x channels first_channel .. first_channel + word_channels - 1 go to y lanes from first_lane.
    int first_channel, word_channels, first_lane;
};

template <int kBytes>
struct BitsOf;
template <>
struct BitsOf<1> {
    using type = unsigned char;
};
template <>
struct BitsOf<2> {
    using type = unsigned short;
};
template <>
struct BitsOf<4> {
    using type = unsigned int;
};
template <>
struct BitsOf<8> {
    using type = unsigned long long;
};

// One pixel of y as 32-bit words; lane l holds bytes [l * kBytes, (l + 1) * kBytes).
template <int kBytes, int kLanes>
struct Pixel {
    static constexpr int kWords = kBytes * kLanes / 4;
    uint32_t word[kWords];

    __device__ __forceinline__ void put(int lane, uint64_t bits) {
        if constexpr (kBytes >= 4) {
            word[lane * kBytes / 4] = static_cast<uint32_t>(bits);
            if constexpr (kBytes == 8) word[lane * 2 + 1] = static_cast<uint32_t>(bits >> 32);
        } else {
            word[lane * kBytes / 4] |= static_cast<uint32_t>(bits) << (8 * (lane * kBytes % 4));
        }
    }
    // put() for a lane known only at run time (1 and 2-byte lanes): selects, no indexed registers.
    __device__ __forceinline__ void put_at(int lane, uint32_t bits) {
        constexpr int kWordLanes = 4 / kBytes;
        const int target = lane / kWordLanes;
        const uint32_t shifted = bits << (8 * kBytes * (lane % kWordLanes));
#pragma unroll
        for (int w = 0; w < kWords; ++w) word[w] |= w == target ? shifted : 0u;
    }
    __device__ __forceinline__ void store(void *base, int64_t pixel) const {
        if constexpr (kWords == 1) {
            static_cast<uint32_t *>(base)[pixel] = word[0];
        } else if constexpr (kWords == 2) {
            static_cast<uint2 *>(base)[pixel] = make_uint2(word[0], word[1]);
        } else {
            static_cast<uint4 *>(base)[pixel] = make_uint4(word[0], word[1], word[2], word[3]);
        }
    }
};

// Pixels one by one: each thread takes kPadPixels pixels kPadBlock apart, so a warp's loads from one
// channel plane and its vector stores are contiguous. All loads are issued before the first store.
template <int kBytes, int kLanes>
__device__ __forceinline__ void pad_channels_by_pixel(const PadChannelsArgs &a) {
    using Bits = typename BitsOf<kBytes>::type;
    const Bits *x = static_cast<const Bits *>(a.x);
    constexpr int kPixels = kPadPixels<kBytes, kLanes>;
    constexpr int64_t kChunk = int64_t{kPadBlock} * kPixels;
    for (int64_t first = blockIdx.x * kChunk + threadIdx.x; first < a.pixels; first += int64_t{gridDim.x} * kChunk) {
        Pixel<kBytes, kLanes> pixel[kPixels];
#pragma unroll
        for (int p = 0; p < kPixels; ++p) {
            const int64_t at = first + p * kPadBlock;
#pragma unroll
            for (int w = 0; w < Pixel<kBytes, kLanes>::kWords; ++w) pixel[p].word[w] = 0;
            if (at < a.pixels) {
                const int64_t image = divide(a.image_pixels, at);
                const Bits *source =
                    x + image * a.x_image_stride + (at - image * a.image_pixels.divisor) * a.x_pixel_stride;
#pragma unroll
                for (int lane = 0; lane < kLanes; ++lane) {
                    const int channel = lane - a.pad_before;
                    if (channel >= 0 && channel < a.x_channels) {
                        pixel[p].put(lane, __ldg(source + channel * a.x_channel_stride));
                    }
                }
            }
        }
#pragma unroll
        for (int p = 0; p < kPixels; ++p) {
            const int64_t at = first + p * kPadBlock;
            if (at < a.pixels) pixel[p].store(a.y, at);
        }
    }
}

// 1 and 2-byte types from planar x: a per-pixel load of 1 or 2 bytes leaves a warp's request at 32 or 64
// bytes, too little to keep HBM busy. Instead each thread loads 32-bit words (kPerWord neighbouring
// pixels) from every channel plane, and a warp shuffle hands each pixel's channels to the thread that
// stores it, neighbouring threads storing neighbouring pixels. Needs word-aligned planes and images
// whose pixel count kPerWord divides (so that no word straddles two images).
template <int kBytes, int kLanes>
__device__ __forceinline__ void pad_channels_by_word(const PadChannelsArgs &a) {
    constexpr int kPerWord = 4 / kBytes;
    constexpr int kGroups = kWidePixels / kPerWord;  // words per plane and thread, all loaded at once
    constexpr int kGroupPixels = 32 * kPerWord;      // pixels a warp's word loads cover
    constexpr int kSlots = kLanes < kWordSlots ? kLanes : kWordSlots;
    constexpr int64_t kChunk = int64_t{kPadBlock} * kWidePixels;
    const int lane_id = static_cast<int>(threadIdx.x % 32);
    const int64_t warp_first = (threadIdx.x / 32) * int64_t{32 * kWidePixels};
    for (int64_t chunk = blockIdx.x * kChunk; chunk < a.pixels; chunk += int64_t{gridDim.x} * kChunk) {
        const int64_t group_first = chunk + warp_first;
        uint32_t words[kGroups][kSlots];
#pragma unroll
        for (int g = 0; g < kGroups; ++g) {
            const int64_t first = group_first + g * kGroupPixels + lane_id * kPerWord;
#pragma unroll
            for (int slot = 0; slot < kSlots; ++slot) words[g][slot] = 0;
            if (first < a.pixels) {  // the pixel count is a multiple of kPerWord: the whole word is in
                const int64_t image = divide(a.image_pixels, first);
                const uint32_t *plane = reinterpret_cast<const uint32_t *>(
                    static_cast<const char *>(a.x) +
                    (image * a.x_image_stride + first - image * a.image_pixels.divisor) * kBytes);
#pragma unroll
                for (int slot = 0; slot < kSlots; ++slot) {
                    if (slot < a.word_channels) {
                        words[g][slot] = __ldg(plane + (a.first_channel + slot) * a.x_channel_stride);
                    }
                }
            }
        }
#pragma unroll
        for (int g = 0; g < kGroups; ++g) {
#pragma unroll
            for (int k = 0; k < kPerWord; ++k) {
                // Pixel k * 32 + lane_id of the group sits in thread (k * 32 + lane_id) / kPerWord, at
                // position lane_id % kPerWord of its word. Every thread shuffles, in range or not.
                const int source = (k * 32 + lane_id) / kPerWord, shift = 8 * kBytes * (lane_id % kPerWord);
                Pixel<kBytes, kLanes> pixel;
#pragma unroll
                for (int w = 0; w < Pixel<kBytes, kLanes>::kWords; ++w) pixel.word[w] = 0;
#pragma unroll
                for (int slot = 0; slot < kSlots; ++slot) {
                    if (slot < a.word_channels) {
                        const uint32_t word = __shfl_sync(0xffffffffu, words[g][slot], source);
                        pixel.put_at(a.first_lane + slot, (word >> shift) & ((1u << (8 * kBytes)) - 1));
                    }
                }
                const int64_t at = group_first + g * kGroupPixels + k * 32 + lane_id;
                if (at < a.pixels) pixel.store(a.y, at);
            }
        }
    }
}

template <int kBytes, int kLanes>
__global__ void __launch_bounds__(kPadBlock) pad_channels_kernel(const __grid_constant__ PadChannelsArgs a) {
    if constexpr (kBytes < 4) {
        if (a.by_word) {
            pad_channels_by_word<kBytes, kLanes>(a);
            return;
        }
    }
    pad_channels_by_pixel<kBytes, kLanes>(a);
}

template <int kBytes, int kLanes>
Status launch_pad_channels(cudaStream_t stream, const PadChannelsArgs &args) {
    const int grid = grid_size(
        args.pixels, int64_t{kPadBlock} * (args.by_word ? kWidePixels : kPadPixels<kBytes, kLanes>), kPadBlock, 4);
    pad_channels_kernel<kBytes, kLanes><<<grid, kPadBlock, 0, stream>>>(args);
    return check_launch("pad_channels_kernel");
}

// The stride of one step through `g`'s spatial dims taken together, row-major; false when they are not
// evenly spaced. `unit` is what the innermost spatial dim's stride must be (0: any). Dims of extent 1
// may have any stride.
bool even_spatial_stride(const TensorGeometry &g, int64_t unit, int64_t *pixel_stride) {
    int64_t expected = unit;
    *pixel_stride = unit != 0 ? unit : 1;
    for (int d = g.nb_dims - 1; d >= 2; --d) {
        if (g.dims[d] == 1) continue;
        if (expected == 0) expected = *pixel_stride = g.strides[d];
        if (g.strides[d] != expected) return false;
        expected *= g.dims[d];
    }
    return true;
}

// The channel-padding kernel when it applies: only the channels pad (or crop), one scalar type, alpha = 1
// and beta = 0 (it moves bits; the general kernel blends where cropping allows alpha and beta),
// y packed NHWC with a 4, 8 or 16-byte aligned pixel, x's pixels evenly spaced. False otherwise.
bool try_pad_channels(cudaStream_t stream, const ReshapeSpec &spec, double alpha, const TensorGeometry &x,
                      const void *x_data, double beta, const TensorGeometry &y, void *y_data, ScalarType type,
                      Status *status) {
    if (alpha != 1.0 || beta != 0.0) return false;
    const int nb_dims = x.nb_dims;
    // (A channel count beyond int range could only come from cropping thousands of channels away.)
    if (x.vector() != 1 || y.vector() != 1 || x.dims[1] > (int64_t{1} << 30)) return false;
    for (int d = 0; d < nb_dims; ++d) {
        if (d != 1 && (spec.pad_before[d] != 0 || spec.pad_after[d] != 0)) return false;
    }
    const int64_t bytes = static_cast<int64_t>(scalar_size(type));
    const int64_t lanes = y.dims[1], pixel_bytes = lanes * bytes;
    if (pixel_bytes != 4 && pixel_bytes != 8 && pixel_bytes != 16) return false;
    if (reinterpret_cast<uintptr_t>(y_data) % static_cast<uintptr_t>(pixel_bytes) != 0) return false;
    // y: channels innermost, then the spatial dims, then N, without gaps.
    int64_t y_pixel_stride = 0;  // `lanes` when packed
    if (lanes > 1 && y.strides[1] != 1) return false;
    if (!even_spatial_stride(y, lanes, &y_pixel_stride)) return false;
    int64_t image_pixels = 1;
    for (int d = 2; d < nb_dims; ++d) image_pixels *= y.dims[d];
    if (y.dims[0] != 1 && y.strides[0] != image_pixels * lanes) return false;
    int64_t x_pixel_stride = 0;
    if (!even_spatial_stride(x, 0, &x_pixel_stride)) return false;

    PadChannelsArgs args{};
    args.x = x_data;
    args.y = y_data;
    args.pixels = y.dims[0] * image_pixels;
    args.image_pixels = make_fast_divisor(image_pixels);
    args.x_image_stride = x.strides[0];
    args.x_pixel_stride = x_pixel_stride;
    args.x_channel_stride = x.strides[1];
    args.x_channels = static_cast<int>(x.dims[1]);
    args.pad_before = spec.pad_before[1];
    // Word loads: planar x (pixels adjacent), images and planes starting on word boundaries.
    const int64_t per_word = 4 / bytes;
    const int64_t first_channel = std::max<int64_t>(0, -spec.pad_before[1]);
    const int64_t word_channels = std::min<int64_t>(x.dims[1], lanes - spec.pad_before[1]) - first_channel;
    if (bytes < 4 && x_pixel_stride == 1 && image_pixels % per_word == 0 && (x.strides[0] * bytes) % 4 == 0 &&
        (x.strides[1] * bytes) % 4 == 0 && reinterpret_cast<uintptr_t>(x_data) % 4 == 0 &&
        word_channels <= kWordSlots) {
        args.by_word = 1;
        args.x_channel_stride = x.strides[1] * bytes / 4;
        args.first_channel = static_cast<int>(first_channel);
        args.word_channels = static_cast<int>(word_channels);
        args.first_lane = static_cast<int>(first_channel + spec.pad_before[1]);
    }
    if (args.pixels == 0) {
        *status = CUDNN_STATUS_SUCCESS;
        return true;
    }
    switch (bytes * 100 + lanes) {
        case 104: *status = launch_pad_channels<1, 4>(stream, args); break;
        case 108: *status = launch_pad_channels<1, 8>(stream, args); break;
        case 116: *status = launch_pad_channels<1, 16>(stream, args); break;
        case 202: *status = launch_pad_channels<2, 2>(stream, args); break;
        case 204: *status = launch_pad_channels<2, 4>(stream, args); break;
        case 208: *status = launch_pad_channels<2, 8>(stream, args); break;
        case 401: *status = launch_pad_channels<4, 1>(stream, args); break;
        case 402: *status = launch_pad_channels<4, 2>(stream, args); break;
        case 404: *status = launch_pad_channels<4, 4>(stream, args); break;
        case 801: *status = launch_pad_channels<8, 1>(stream, args); break;
        case 802: *status = launch_pad_channels<8, 2>(stream, args); break;
        default: return false;
    }
    return true;
}

// --- planning the general kernel ---------------------------------------------------------------------

struct WalkDim {
    int64_t extent, stride, weight;
    int dim;
};

// y's dims in memory order (decreasing scalar stride), outer to inner, vectorised channels split into
// vector and lane, neighbours of one NCHW dim merged where contiguous (the vector and lane parts of packed
// NCHW_VECT_C channels). Dims of extent 1 are left out where `droppable` says so.
template <class Droppable>
int plan_walk(const TensorGeometry &y, Droppable droppable, WalkDim (&walk)[kMaxLayoutDims]) {
    const int lanes = y.vector();
    int rank = 0;
    auto add = [&](int64_t extent, int64_t stride, int64_t weight, int dim) {
        if (extent != 1 || !droppable(dim)) walk[rank++] = {extent, stride, weight, dim};
    };
    for (int d = 0; d < y.nb_dims; ++d) {
        if (d == 1 && lanes > 1) {
            add(y.dims[1] / lanes, y.strides[1] * lanes, lanes, 1);
            add(lanes, 1, 1, 1);
        } else {
            add(y.dims[d], y.strides[d] * lanes, 1, d);
        }
    }
    std::stable_sort(walk, walk + rank, [](const WalkDim &a, const WalkDim &b) { return a.stride > b.stride; });
    int merged = 0;
    for (int w = 0; w < rank; ++w) {
        WalkDim &last = walk[merged > 0 ? merged - 1 : 0];
        const WalkDim &next = walk[w];
        if (merged > 0 && last.dim == next.dim && last.stride == next.stride * next.extent &&
            last.weight == next.weight * next.extent) {
            last.extent *= next.extent;
            last.stride = next.stride;
            last.weight = next.weight;
        } else {
            walk[merged++] = next;
        }
    }
    return merged;
}

template <class C>
Status launch_reshape(cudaStream_t stream, const ReshapeShape &shape, double alpha, double beta) {
    ReshapeArgs<C> args;
    args.shape = shape;
    args.alpha = static_cast<C>(alpha);
    args.beta = static_cast<C>(beta);
    const int grid = grid_size(shape.count, kReshapeBlock, kReshapeBlock);
    transform_reshape_kernel<C><<<grid, kReshapeBlock, 0, stream>>>(args);
    return check_launch("transform_reshape_kernel");
}

}  // namespace

Status transform_reshape(cudaStream_t stream, const ReshapeSpec &spec, double alpha, const TensorGeometry &x,
                         const void *x_data, double beta, const TensorGeometry &y, void *y_data) {
    ScalarType x_type, y_type;
    if (!scalar_type_of(x.dtype, &x_type) || !scalar_type_of(y.dtype, &y_type)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the CUDA padding and folding kernel moves float, double, half, bfloat16, int8, uint8 and int32 "
                    "data, got %s and %s",
                    data_type_short_name(x.dtype), data_type_short_name(y.dtype));
    }
    const int nb_dims = x.nb_dims;
    if (nb_dims < 2 || nb_dims > kMaxDims || y.nb_dims != nb_dims) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "padding and folding need x and y of equal rank, with N and C dims at least, got %s and %s",
                    geometry_to_string(x).c_str(), geometry_to_string(y).c_str());
    }
    const int x_lanes = x.vector(), y_lanes = y.vector();
    if (x.dims[1] % x_lanes != 0 || y.dims[1] % y_lanes != 0) {
        return fail(CUDNN_STATUS_BAD_PARAM, "vectorised channels must fill whole vectors, got %s and %s",
                    geometry_to_string(x).c_str(), geometry_to_string(y).c_str());
    }
    int64_t fold_product = 1;
    for (int d = 2; d < nb_dims; ++d) {
        if (spec.fold[d - 2] < 1) return fail(CUDNN_STATUS_BAD_PARAM, "fold factor %d is 0, must be at least 1", d - 2);
        fold_product *= spec.fold[d - 2];
    }
    const bool folds = fold_product > 1;
    const ReshapeMode mode = !folds ? ReshapeMode::pad : spec.unfold ? ReshapeMode::unfold : ReshapeMode::fold;
    if (mode == ReshapeMode::unfold && x.dims[1] % fold_product != 0) {
        return fail(CUDNN_STATUS_BAD_PARAM, "x has %lld channels, not a multiple of the fold product %lld to unfold",
                    static_cast<long long>(x.dims[1]), static_cast<long long>(fold_product));
    }

    // y's dims follow from x's: unfold, pad, fold (as the caller validated); checked again here since
    // the kernels trust them. Per dim: the extent its index is checked against once the padding is undone
    // (x's, or the unfolded one), the padded extent, and the product of the later dims' fold factors.
    int64_t expected[kMaxDims], source_extent[kMaxDims], padded_extent[kMaxDims], block_weight[kMaxDims];
    int64_t later_folds = 1;
    for (int d = nb_dims - 1; d >= 0; --d) {
        const int64_t factor = d >= 2 ? spec.fold[d - 2] : 1;
        block_weight[d] = d >= 2 ? later_folds : 1;
        later_folds *= factor;
        const int64_t unfolded = d == 1 ? x.dims[1] / fold_product : x.dims[d] * factor;
        source_extent[d] = mode == ReshapeMode::unfold ? unfolded : x.dims[d];
        padded_extent[d] = source_extent[d] + spec.pad_before[d] + spec.pad_after[d];
        if (mode == ReshapeMode::fold && d >= 1) {
            expected[d] = d == 1 ? padded_extent[1] * fold_product : (padded_extent[d] + factor - 1) / factor;
        } else {
            expected[d] = padded_extent[d];
        }
    }
    for (int d = 0; d < nb_dims; ++d) {
        if (expected[d] <= 0 || expected[d] != y.dims[d]) {
            return fail(CUDNN_STATUS_BAD_PARAM, "y is %s, but x transformed is %s", join_dims(y.dims, nb_dims).c_str(),
                        join_dims(expected, nb_dims).c_str());
        }
    }
    if (y.element_count() == 0) return CUDNN_STATUS_SUCCESS;

    Status status = CUDNN_STATUS_SUCCESS;
    if (mode == ReshapeMode::pad && x_type == y_type &&
        try_pad_channels(stream, spec, alpha, x, x_data, beta, y, y_data, y_type, &status)) {
        return status;
    }

    ReshapeShape shape{};
    shape.mode = mode;
    // N and C may leave the walk whenever their extent is 1 (C's index is then 0); spatial dims only when
    // nothing folds, since a folded spatial index also takes a digit of the block position.
    auto droppable = [&](int d) { return d <= 1 || mode == ReshapeMode::pad; };
    WalkDim walk[kMaxLayoutDims];
    shape.walk_rank = plan_walk(y, droppable, walk);
    bool walked[kMaxDims] = {};
    for (int w = 0; w < shape.walk_rank; ++w) {
        const WalkDim &from = walk[shape.walk_rank - 1 - w];
        ReshapeWalkDim &to = shape.walk[w];
        const int d = from.dim;
        walked[d] = true;
        to.extent = make_fast_divisor(from.extent);
        to.y_stride = from.stride;
        to.dim = d;
        to.channel_weight = from.weight;
        to.pad_before = spec.pad_before[d];
        to.x_extent = source_extent[d];
        to.x_stride = x.strides[d] * x_lanes;
        to.padded_extent = padded_extent[d];
        if (mode != ReshapeMode::pad) {  // without folding every factor is 1, FastDivisor's default
            to.fold = make_fast_divisor(d >= 2 ? spec.fold[d - 2] : 1);
            to.block_weight = make_fast_divisor(block_weight[d]);
        }
    }
    // A dim outside the walk has index 0 in y: x index -pad_before, the same in every mode (for N and,
    // without folding, the spatial dims).
    for (int d = 0; d < nb_dims; ++d) {
        if (d == 1 || walked[d]) continue;
        const int64_t at = -static_cast<int64_t>(spec.pad_before[d]);
        if (at < 0 || at >= source_extent[d]) shape.all_padding = 1;
        shape.x_base += at * x.strides[d] * x_lanes;
    }
    shape.channel_pad_before = spec.pad_before[1];
    shape.x_channels = source_extent[1];
    shape.padded_channels = make_fast_divisor(std::max<int64_t>(1, padded_extent[1]));  // fold only
    shape.x_channel_stride = x.strides[1] * x_lanes;
    shape.x_lane_shift = static_cast<int>(make_fast_divisor(x_lanes).shift);  // log2 of 1, 4 or 32
    shape.x_lane_mask = x_lanes - 1;
    shape.count = y.element_count();
    shape.x = x_data;
    shape.y = y_data;
    shape.x_type = x_type;
    shape.y_type = y_type;
    shape.scalar_bytes = static_cast<int>(scalar_size(y_type));
    shape.raw_copy = x_type == y_type && alpha == 1.0 && beta == 0.0;
    shape.blend = beta != 0.0;

    // Double when either side is double, or int32 (whose values beyond 2^24 float would round).
    const bool in_double = x_type == ScalarType::f64 || y_type == ScalarType::f64 || x_type == ScalarType::i32 ||
                           y_type == ScalarType::i32;
    return in_double ? launch_reshape<double>(stream, shape, alpha, beta)
                     : launch_reshape<float>(stream, shape, alpha, beta);
}

}  // namespace librednn::cuda
