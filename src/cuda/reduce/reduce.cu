// Reduction kernels. The reduced dims and the kept dims are each walked in a's memory order (dims sorted
// by a's strides, contiguous neighbours merged); a second "operand" of each layout carries the row-major
// NCHW numbering that flattened indices and the indices array use. Two main kernels:
//  - row: the reduction runs along contiguous memory (the innermost reduced dim has the smaller stride:
//    reduce over W, over C*H*W, argmax of long rows, NCHW per-channel sums over N and H*W). A group of
//    4..32 lanes of a warp reduces one (output, split) item: it walks the item's runs (the innermost
//    reduced dim) with 16-byte loads, several per lane in flight;
//  - column: the kept dims run along contiguous memory (NHWC per-channel sums, reduce over N): a block
//    takes a slab of reduced positions for up to 32 columns; each thread owns a 16-byte vector of
//    neighbouring outputs (8 halves, 4 floats) and walks rows of the slab, neighbouring threads on
//    neighbouring addresses; the block's rows combine through shared memory.
// Long reductions with few outputs are split into (output, split) items that write partial results to
// the workspace; a finalize kernel combines each output's partials in split order: deterministic for a
// given workspace size, no atomics.
#include "cuda/common/dependent_launch.cuh"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/reduce/reduce.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <type_traits>

namespace librednn::cuda {

namespace {

constexpr int kReduceBlock = 256;
// Resident blocks per SM the register budget must allow: 4 (64 registers a thread), 3 (85) for int8 data,
// whose 16-lane vectors need more. The split planning counts on at least this many, so that its items
// fill the GPU.
template <class T>
constexpr int kReduceMinBlocksOf = sizeof(T) == 1 ? 3 : 4;
int reduce_min_blocks(ScalarType a_type) { return scalar_size(a_type) == 1 ? 3 : 4; }
constexpr int kColumnMaxWidth = 32;  // threads along the kept dims in a column block, unless the reduction is short
constexpr uint32_t kNoIndex = 0xffffffffu;

// How a kernel accumulates: sums and products; a max (MIN, MAX, AMAX) of values only; a max that keeps
// the index of the element it chose (asked for indices). The op's details are runtime flags.
enum ReduceMode : int { kSumMode, kMaxValueMode, kMaxIndexMode };

template <class C>
struct ReduceAcc {
    C value;
    uint32_t index;
};

template <class C>
struct ReduceArgs {
    const void *a;
    void *c;
    uint32_t *indices;
    ReduceAcc<C> *partials;  // [split][output] when splits > 1
    ScalarType c_type;
    int64_t outputs, length;
    int64_t chunk;  // reduced positions per split
    int64_t items;  // splits * (outputs for the row kernel, column groups for the column kernel)
    int splits;
    FastDivisor items_per_split;
    // Row kernel: `reduced` holds the dims outside the innermost reduced one, whose runs of
    // `run_length` elements lie `run_stride` apart in memory, `run_index_step` apart in flattened index.
    FastDivisor run_length;
    int64_t run_stride;
    uint32_t run_index_step;
    int group_threads;     // row kernel: lanes per item (4..32, a power of 2)
    int finalize_threads;  // lanes per output in the finalize (1..32 or 256, a power of 2)
    // The element-to-thread assignment uses 16-byte vectors (a property of the geometry only, so that the
    // result does not depend on where a sits); `aligned`: they load as 16-byte vectors, else lane by lane.
    int vector_shape, aligned;
    // What the op does around a sum/product or a max: MIN is -max(-a); AMAX max |a|; NORM1 sum |a|;
    // NORM2 sqrt(sum a^2); AVG sum / length; MUL_NO_ZEROS multiplies zeros as ones.
    int is_mul, negate, absolute, square, zero_as_one, average, root;
    int propagate_nan, blend;
    int write_indices;  // indexed maxima: indices were asked for (double maxima use the indexed kernels anyway)
    C alpha, beta;
    DeviceLayout kept;     // operand 0: a, 1: c, 2: slot in the indices array
    DeviceLayout reduced;  // operand 0: a, 1: flattened index within the slice
};

// --- accumulation -----------------------------------------------------------------------------------

template <class C, int Mode>
__device__ __forceinline__ ReduceAcc<C> start(const ReduceArgs<C> &a) {
    if constexpr (Mode == kSumMode) {
        return {a.is_mul ? C(1) : C(0), kNoIndex};
    } else if constexpr (Mode == kMaxValueMode) {
        // Without propagation NaN is the identity of fmax, and a slice of only NaNs stays NaN.
        return {a.propagate_nan ? -C(INFINITY) : C(NAN), kNoIndex};
    } else {
        return {-C(INFINITY), kNoIndex};
    }
}

// True when (v, k) should replace (current, current_k) in a max: larger, or equal with a smaller index;
// a NaN wins with PROPAGATE_NAN and never enters otherwise.
template <class C>
__device__ __forceinline__ bool prefer(C v, uint32_t k, C current, uint32_t current_k, int propagate_nan) {
    const bool v_nan = math_isnan(v), current_nan = math_isnan(current);
    if (v_nan) return propagate_nan && (!current_nan || k < current_k);
    if (current_nan) return false;
    return v > current || (v == current && k < current_k);
}

// The max of values only: with propagation a NaN wins, without it NaNs are skipped (fmax).
template <class C>
__device__ __forceinline__ C max_value(C current, C v, int propagate_nan) {
    if (propagate_nan) return v > current || math_isnan(v) ? v : current;
    return math_fmax(current, v);
}

// What a max compares: -a for MIN, |a| for AMAX, a for MAX. On the bits of a word holding one float or
// two 16-bit lanes (`sign`: the sign bits), (bits & keep) ^ flip does either in one instruction.
template <class C>
struct MaxOperandMasks {
    uint32_t keep, flip;
    __device__ __forceinline__ MaxOperandMasks(const ReduceArgs<C> &a, uint32_t sign)
        : keep(a.absolute ? ~sign : 0xffffffffu), flip(a.negate ? sign : 0u) {}
    __device__ __forceinline__ uint32_t operator()(uint32_t bits) const { return (bits & keep) ^ flip; }
};
constexpr uint32_t kFloatSign = 0x80000000u, kPairSigns = 0x80008000u;

template <class C>
__device__ __forceinline__ C max_operand(C v, const ReduceArgs<C> &a) {
    if constexpr (std::is_same_v<C, float>) {
        return __uint_as_float(MaxOperandMasks<C>(a, kFloatSign)(__float_as_uint(v)));
    } else {
        if (a.negate) v = -v;
        if (a.absolute) v = math_abs(v);
        return v;
    }
}

template <class C, int Mode>
__device__ __forceinline__ void accumulate(ReduceAcc<C> &acc, C v, uint32_t k, const ReduceArgs<C> &a) {
    if constexpr (Mode == kSumMode) {
        if (a.absolute) v = math_abs(v);
        if (a.square) v = v * v;
        if (a.zero_as_one && v == C(0)) v = C(1);
        acc.value = a.is_mul ? acc.value * v : acc.value + v;
    } else {
        v = max_operand(v, a);
        if constexpr (Mode == kMaxValueMode) {
            acc.value = max_value(acc.value, v, a.propagate_nan);
        } else if (prefer(v, k, acc.value, acc.index, a.propagate_nan)) {
            acc = {v, k};
        }
    }
}

template <class C, int Mode>
__device__ __forceinline__ void combine(ReduceAcc<C> &acc, const ReduceAcc<C> &other, const ReduceArgs<C> &a) {
    if constexpr (Mode == kSumMode) {
        acc.value = a.is_mul ? acc.value * other.value : acc.value + other.value;
    } else if constexpr (Mode == kMaxValueMode) {
        acc.value = max_value(acc.value, other.value, a.propagate_nan);
    } else if (prefer(other.value, other.index, acc.value, acc.index, a.propagate_nan)) {
        acc = other;
    }
}

// Butterfly over the `width` lanes (a power of 2 up to 32) of this thread's group: lane 0 of the group
// ends with the combination in a fixed order, whatever the visiting order was. Every lane of the group
// must call it; the other groups of the warp may be elsewhere.
template <class C, int Mode>
__device__ __forceinline__ ReduceAcc<C> group_reduce(ReduceAcc<C> acc, const ReduceArgs<C> &a, int width) {
    const unsigned lane = threadIdx.x & 31u;
    const unsigned mask =
        width >= 32 ? 0xffffffffu : ((1u << width) - 1u) << (lane & ~static_cast<unsigned>(width - 1));
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        if (offset < width) {
            ReduceAcc<C> other;
            other.value = __shfl_xor_sync(mask, acc.value, offset);
            if constexpr (Mode == kMaxIndexMode) other.index = __shfl_xor_sync(mask, acc.index, offset);
            combine<C, Mode>(acc, other, a);
        }
    }
    return acc;
}

template <class C, int Mode>
__device__ __forceinline__ void write_result(const ReduceArgs<C> &a, int64_t output, const ReduceAcc<C> &acc) {
    C result = acc.value;
    // An indexed max that chose nothing saw only NaN (without propagation): the result is NaN, the index 0.
    if (Mode == kMaxIndexMode && acc.index == kNoIndex) result = C(NAN);
    if (a.negate) result = -result;
    if (a.average) result /= static_cast<C>(a.length);
    if (a.root) result = math_sqrt(result);
    int64_t offsets[3];
    offsets_of(a.kept, output, offsets);
    C value = a.alpha * result;
    if (a.blend) value += a.beta * load_as<C>(a.c, a.c_type, offsets[1]);
    store_as<C>(a.c, a.c_type, offsets[1], value);
    if constexpr (Mode == kMaxIndexMode) {
        if (a.write_indices) a.indices[offsets[2]] = acc.index == kNoIndex ? 0u : acc.index;
    }
}

template <class C, int Mode>
__device__ __forceinline__ void finish_item(const ReduceArgs<C> &a, int64_t split, int64_t output,
                                            const ReduceAcc<C> &acc) {
    if (a.splits == 1) {
        write_result<C, Mode>(a, output, acc);
    } else {
        a.partials[split * a.outputs + output] = acc;
    }
}

// --- loads ------------------------------------------------------------------------------------------

// `Lanes` neighbouring elements: a 16-byte vector, or one element.
template <class T, int Lanes>
struct alignas(Lanes * sizeof(T)) Pack {
    T lane[Lanes];
};

// Loads the pack at `p`: one 16-byte streaming load (the data is read once).
template <class T, int Lanes>
__device__ __forceinline__ Pack<T, Lanes> load_vector(const T *p) {
    static_assert(Lanes * sizeof(T) == 16, "a vector is 16 bytes");
    const uint4 bits = __ldcs(reinterpret_cast<const uint4 *>(p));
    Pack<T, Lanes> pack;
    memcpy(&pack, &bits, sizeof bits);
    return pack;
}

// Loads the pack at `p` lane by lane (p need not be aligned).
template <class T, int Lanes>
__device__ __forceinline__ Pack<T, Lanes> load_lanes(const T *p) {
    Pack<T, Lanes> pack;
#pragma unroll
    for (int j = 0; j < Lanes; ++j) pack.lane[j] = p[j];
    return pack;
}

// Lane j of a pack in the compute type. bfloat16 lanes widen by a shift of their bits (the library
// conversion's inline assembly kept the register allocator from scheduling them well: spills).
template <class C, class T, int Lanes>
__device__ __forceinline__ C lane_value(const Pack<T, Lanes> &x, int j) {
    if constexpr (std::is_same_v<T, __nv_bfloat16>) {
        return static_cast<C>(__uint_as_float(static_cast<uint32_t>(__bfloat16_as_ushort(x.lane[j])) << 16));
    } else {
        return to_compute<C>(x.lane[j]);
    }
}

// A max that lets NaN win (PTX max.NaN on sm_80 and later).
__device__ __forceinline__ float max_with_nan(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return a != a || b != b ? NAN : fmaxf(a, b);
#endif
}

// Values-only maxima (MIN, MAX, AMAX without indices) of whole 16-byte packs, lane by lane, with the NaN
// option fixed: half and bfloat16 lanes two at a time in their own type (exact: a max is one of its
// inputs), the others in float. Lane j of the state is the max of lane j of every pack added.
template <class T, bool Propagate>
struct PackMax {
    static constexpr int kLanes = Vector16<T>::kLanes;
    static constexpr bool kPaired = sizeof(T) == 2;
    using Pair = PairOf<T>;
    uint32_t pairs[kPaired ? kLanes / 2 : 1];
    float lanes[kPaired ? 1 : kLanes];

    // Without propagation NaN is the identity of the max and a lane that saw only NaNs stays NaN; with
    // it, -infinity.
    __device__ __forceinline__ void init() {
        if constexpr (kPaired) {
            constexpr uint32_t kStart = Propagate ? kMinusInfinityPairBits<T> : 0x7fff7fffu;
#pragma unroll
            for (int i = 0; i < kLanes / 2; ++i) pairs[i] = kStart;
        } else {
#pragma unroll
            for (int j = 0; j < kLanes; ++j) lanes[j] = Propagate ? -INFINITY : NAN;
        }
    }

    template <class C>
    __device__ __forceinline__ void add(const Pack<T, kLanes> &x, const ReduceArgs<C> &a) {
        if constexpr (kPaired) {
            const MaxOperandMasks<C> operand_of(a, kPairSigns);  // both lanes' sign bits
            uint32_t words[kLanes / 2];
            memcpy(words, &x, sizeof words);
#pragma unroll
            for (int i = 0; i < kLanes / 2; ++i) {
                const uint32_t operand_bits = operand_of(words[i]);
                Pair current, operand;
                memcpy(&current, &pairs[i], 4);
                memcpy(&operand, &operand_bits, 4);
                const Pair larger = Propagate ? __hmax2_nan(current, operand) : __hmax2(current, operand);
                memcpy(&pairs[i], &larger, 4);
            }
        } else {
#pragma unroll
            for (int j = 0; j < kLanes; ++j) {
                const float v = max_operand(to_compute<float>(x.lane[j]), a);
                lanes[j] = Propagate ? max_with_nan(lanes[j], v) : fmaxf(lanes[j], v);
            }
        }
    }

    __device__ __forceinline__ float lane(int j) const {
        if constexpr (kPaired) {
            const uint32_t bits = (j & 1) ? pairs[j / 2] >> 16 : pairs[j / 2] & 0xffffu;
            return std::is_same_v<T, __half> ? __half2float(__ushort_as_half(static_cast<unsigned short>(bits)))
                                             : __uint_as_float(bits << 16);
        } else {
            return lanes[j];
        }
    }
};

// The largest of a pack's max operands (see max_operand), NaN when any is NaN: half and bfloat16 lanes
// two at a time in their own type.
template <class T>
__device__ __forceinline__ float pack_max_operand(const Pack<T, Vector16<T>::kLanes> &x, const ReduceArgs<float> &a) {
    constexpr int kLanes = Vector16<T>::kLanes;
    if constexpr (sizeof(T) == 2) {
        using Pair = PairOf<T>;
        const MaxOperandMasks<float> operand_of(a, kPairSigns);
        uint32_t words[kLanes / 2];
        memcpy(words, &x, sizeof words);
        Pair pairs[kLanes / 2];
#pragma unroll
        for (int i = 0; i < kLanes / 2; ++i) {
            const uint32_t bits = operand_of(words[i]);
            memcpy(&pairs[i], &bits, 4);
        }
        const Pair larger = __hmax2_nan(__hmax2_nan(pairs[0], pairs[1]), __hmax2_nan(pairs[2], pairs[3]));
        return max_with_nan(static_cast<float>(larger.x), static_cast<float>(larger.y));
    } else {
        float m = max_operand(to_compute<float>(x.lane[0]), a);
#pragma unroll
        for (int j = 1; j < kLanes; ++j) m = max_with_nan(m, max_operand(to_compute<float>(x.lane[j]), a));
        return m;
    }
}

// An indexed max over one pack: the pack's largest operand is compared with `bar` first, and the exact
// comparison with indices, lane by lane, runs only when it reaches `bar`. `bar` is a value the max has
// already seen (this thread's, or its group's, running max), so operands strictly below it cannot win;
// ties and NaNs always take the exact path.
template <class T>
__device__ __forceinline__ void accumulate_indexed_pack(ReduceAcc<float> &acc, const Pack<T, Vector16<T>::kLanes> &x,
                                                        uint32_t index, uint32_t step, float bar,
                                                        const ReduceArgs<float> &a) {
    if (pack_max_operand<T>(x, a) < bar) return;  // false for NaN on either side
#pragma unroll
    for (int j = 0; j < Vector16<T>::kLanes; ++j) {
        const float operand = max_operand(lane_value<float>(x, j), a);
        const uint32_t k = index + j * step;
        if (prefer(operand, k, acc.value, acc.index, a.propagate_nan)) acc = {operand, k};
    }
}

// --- row kernel -------------------------------------------------------------------------------------

// 16-byte vectors (or elements, without vectors) each lane has in flight per pass: fewer where more would
// spill (int8, whose 16 lanes a vector need the registers; indexed maxima of half and bfloat16).
template <class T, int Mode = kSumMode>
constexpr int kRowUnroll = sizeof(T) == 1                            ? 1
                           : sizeof(T) == 2 && Mode == kMaxIndexMode ? 3
                                                                     : 4;

// What a thread keeps besides its accumulator while it walks packs: the per-lane maxima of a values-only
// max, nothing otherwise.
struct NoPackState {};
template <class T, int Mode, bool Propagate>
using PackState = std::conditional_t<Mode == kMaxValueMode, PackMax<T, Propagate>, NoPackState>;

// Indexed float maxima screen their packs (accumulate_indexed_pack); double ones, rare, compare lane by
// lane (their operands would not fit the registers).
template <class C, int Mode>
constexpr bool kScreenedMax = (Mode == kMaxIndexMode) && std::is_same_v<C, float>;

// The largest running max of the `width` lanes of this thread's group (NaNs left out), for every lane.
template <class C>
__device__ __forceinline__ C group_bar(C value, int width) {
    const unsigned lane = threadIdx.x & 31u;
    const unsigned mask =
        width >= 32 ? 0xffffffffu : ((1u << width) - 1u) << (lane & ~static_cast<unsigned>(width - 1));
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        if (offset < width) value = math_fmax(value, __shfl_xor_sync(mask, value, offset));
    }
    return value;
}

// Adds one pack whose lane j has flattened index index + j * step (`bar`: see accumulate_indexed_pack).
template <class T, class C, int Mode, class State>
__device__ __forceinline__ void accumulate_pack(const ReduceArgs<C> &a, ReduceAcc<C> &acc, State &state,
                                                const Pack<T, Vector16<T>::kLanes> &x, uint32_t index, uint32_t step,
                                                C bar) {
    constexpr int kLanes = Vector16<T>::kLanes;
    if constexpr (Mode == kMaxValueMode) {
        state.add(x, a);
    } else if constexpr (kScreenedMax<C, Mode>) {
        accumulate_indexed_pack<T>(acc, x, index, step, bar, a);
    } else {
#pragma unroll
        for (int j = 0; j < kLanes; ++j) accumulate<C, Mode>(acc, lane_value<C>(x, j), index + j * step, a);
    }
}

// Accumulates the `count` (< 2^31) elements of one run from `run`, `stride` apart, their flattened indices
// from `index` on, a.run_index_step apart. The `width` lanes of the group share them: element by element
// without vectors; with vectors, a head up to the first element offset (from a) that is a multiple of the
// vector, then vectors lane by lane, then a tail. Which lane takes which element depends on the offsets
// only, not on a's alignment: misaligned data loads the same vectors element by element, one at a time.
template <class T, class C, int Mode, class State>
__device__ __forceinline__ void reduce_run(const ReduceArgs<C> &a, ReduceAcc<C> &acc, State &state, const T *run,
                                           int64_t offset, int count, int64_t stride, uint32_t index, int lane,
                                           int width) {
    constexpr int kLanes = Vector16<T>::kLanes;
    const uint32_t step = a.run_index_step;
    if (!a.vector_shape) {
        for (int i = lane; i < count; i += width * kRowUnroll<T, Mode>) {
            T x[kRowUnroll<T, Mode>];
#pragma unroll
            for (int u = 0; u < kRowUnroll<T, Mode>; ++u) {
                if (i + u * width < count) x[u] = run[(i + u * width) * stride];
            }
#pragma unroll
            for (int u = 0; u < kRowUnroll<T, Mode>; ++u) {
                const int at = i + u * width;
                if (at < count) accumulate<C, Mode>(acc, to_compute<C>(x[u]), index + at * step, a);
            }
        }
        return;
    }
    // Vector shape: stride is 1.
    const int misalignment = static_cast<int>((offset % kLanes + kLanes) % kLanes);
    const int head = min(count, (kLanes - misalignment) % kLanes);
    for (int i = lane; i < head; i += width) accumulate<C, Mode>(acc, to_compute<C>(run[i]), index + i * step, a);
    const int vectors = (count - head) / kLanes;
    const T *first = run + head;
    const uint32_t first_index = index + head * step;
    const uint32_t vector_step = kLanes * step;
    if (a.aligned) {
        // The trip count is the group's (lanes past the end load nothing), so that indexed maxima can share
        // their running max across the group once a pass, while the pass's loads are in flight.
        // (The other modes start each lane at its own first vector.)
        for (int pass = kScreenedMax<C, Mode> ? 0 : lane; pass < vectors; pass += width * kRowUnroll<T, Mode>) {
            const int v = kScreenedMax<C, Mode> ? pass + lane : pass;
            Pack<T, kLanes> x[kRowUnroll<T, Mode>];
#pragma unroll
            for (int u = 0; u < kRowUnroll<T, Mode>; ++u) {
                if (v + u * width < vectors) x[u] = load_vector<T, kLanes>(first + (v + u * width) * kLanes);
            }
            C bar = acc.value;
            if constexpr (kScreenedMax<C, Mode>) bar = group_bar(bar, width);
#pragma unroll
            for (int u = 0; u < kRowUnroll<T, Mode>; ++u) {
                const int at = v + u * width;
                if (at < vectors)
                    accumulate_pack<T, C, Mode>(a, acc, state, x[u], first_index + at * vector_step, step, bar);
            }
        }
    } else {
        for (int v = lane; v < vectors; v += width) {
            accumulate_pack<T, C, Mode>(a, acc, state, load_lanes<T, kLanes>(first + v * kLanes),
                                        first_index + v * vector_step, step, acc.value);
        }
    }
    for (int i = head + vectors * kLanes + lane; i < count; i += width) {
        accumulate<C, Mode>(acc, to_compute<C>(run[i]), index + i * step, a);
    }
}

template <class T, class C, int Mode, bool Propagate>
__device__ __forceinline__ void row_items(const ReduceArgs<C> &a) {
    const int width = a.group_threads;
    const int lane = static_cast<int>(threadIdx.x) & (width - 1);
    const int groups_per_block = kReduceBlock / width;
    const T *data = static_cast<const T *>(a.a);
    const int64_t run_length = a.run_length.divisor;
    // Every lane of a group runs the same items and runs, so the group's shuffles meet.
    for (int64_t item = static_cast<int64_t>(blockIdx.x) * groups_per_block + threadIdx.x / width; item < a.items;
         item += static_cast<int64_t>(gridDim.x) * groups_per_block) {
        const int64_t split = divide(a.items_per_split, item);
        const int64_t output = item - split * a.outputs;
        const int64_t kept_base = offset_of(a.kept, 0, output);
        const int64_t k_end = min(a.length, (split + 1) * a.chunk);
        ReduceAcc<C> acc = start<C, Mode>(a);
        PackState<T, Mode, Propagate> state;
        if constexpr (Mode == kMaxValueMode) state.init();
        for (int64_t k = split * a.chunk; k < k_end;) {
            const int64_t run = divide(a.run_length, k);
            const int64_t within = k - run * run_length;
            // Pieces of at most 2^30 elements keep the loops over a run in 32 bits.
            const int64_t count = min(min(run_length - within, k_end - k), int64_t{1} << 30);
            int64_t at[2];
            offsets_of(a.reduced, run, at);
            const int64_t offset = kept_base + at[0] + within * a.run_stride;
            reduce_run<T, C, Mode>(a, acc, state, data + offset, offset, static_cast<int>(count), a.run_stride,
                                   static_cast<uint32_t>(at[1] + within * a.run_index_step), lane, width);
            k += count;
        }
        if constexpr (Mode == kMaxValueMode) {
#pragma unroll
            for (int j = 0; j < Vector16<T>::kLanes; ++j) {
                combine<C, Mode>(acc, {static_cast<C>(state.lane(j)), kNoIndex}, a);
            }
        }
        acc = group_reduce<C, Mode>(acc, a, width);
        if (lane == 0) finish_item<C, Mode>(a, split, output, acc);
    }
}

template <class T, class C, int Mode>
__global__ void __launch_bounds__(kReduceBlock, kReduceMinBlocksOf<T>)
    row_reduce_kernel(const __grid_constant__ ReduceArgs<C> a) {
    allow_dependent_launch();
    // The NaN option is a compile-time choice where it shapes the inner loop (values-only maxima).
    if constexpr (Mode == kMaxValueMode) {
        if (a.propagate_nan) {
            row_items<T, C, Mode, true>(a);
            return;
        }
    }
    row_items<T, C, Mode, false>(a);
}

// --- column kernel ----------------------------------------------------------------------------------

// Rows each thread has in flight per pass: as many as the registers allow next to its Lanes accumulators
// (ptxas -v shows no spills with these).
template <class C, int Mode, int Lanes>
struct ColumnUnroll {
    static constexpr int kAccumulatorWords =
        Lanes * (static_cast<int>(sizeof(C)) / 4 + (Mode == kMaxIndexMode ? 1 : 0));
    // int8 vectors (16 lanes) one at a time: their conversions otherwise spill.
    static constexpr int value = Lanes == 1                               ? 8
                                 : Lanes == 16 || kAccumulatorWords >= 24 ? 1
                                 : kAccumulatorWords >= 12                ? 2
                                                                          : 4;
};

// One thread's share of the column items: `Lanes` neighbouring outputs (a 16-byte vector, or one) over
// the rows ty, ty + blockDim.y, ... of each item's slab of reduced positions.
template <class T, class C, int Mode, bool Propagate, int Lanes>
__device__ __forceinline__ void column_items(const ReduceArgs<C> &a, C *shared_values, uint32_t *shared_indices) {
    constexpr int kUnroll = ColumnUnroll<C, Mode, Lanes>::value;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int width = blockDim.x, rows = blockDim.y;
    const int pitch = width * Lanes;  // outputs per group
    const T *data = static_cast<const T *>(a.a);
    const bool aligned = a.aligned;
    for (int64_t item = blockIdx.x; item < a.items; item += gridDim.x) {
        const int64_t split = divide(a.items_per_split, item);
        const int64_t group = item - split * a.items_per_split.divisor;
        const int64_t group_first = group * pitch;
        const int64_t first_output = group_first + int64_t{tx} * Lanes;
        ReduceAcc<C> acc[Lanes];
#pragma unroll
        for (int j = 0; j < Lanes; ++j) acc[j] = start<C, Mode>(a);
        // Values-only maxima of whole vectors keep their lanes in a PackMax.
        constexpr bool kPackMax = Mode == kMaxValueMode && Lanes > 1;
        PackState<T, kPackMax ? kMaxValueMode : kSumMode, Propagate> state;
        if constexpr (kPackMax) state.init();
        if (first_output < a.outputs) {
            const T *column = data + offset_of(a.kept, 0, first_output);
            const int64_t r_end = min(a.length, (split + 1) * a.chunk);
            const int64_t r_begin = split * a.chunk + ty;
            if (Lanes == 1 || aligned) {
                for (int64_t r = r_begin; r < r_end; r += int64_t{rows} * kUnroll) {
                    Pack<T, Lanes> x[kUnroll];
                    uint32_t k[kUnroll];
#pragma unroll
                    for (int u = 0; u < kUnroll; ++u) {
                        if (r + u * rows < r_end) {
                            int64_t at[2];
                            offsets_of(a.reduced, r + u * rows, at);
                            if constexpr (Lanes == 1) {
                                x[u].lane[0] = column[at[0]];
                            } else {
                                x[u] = load_vector<T, Lanes>(column + at[0]);
                            }
                            k[u] = static_cast<uint32_t>(at[1]);
                        }
                    }
#pragma unroll
                    for (int u = 0; u < kUnroll; ++u) {
                        if (r + u * rows < r_end) {
                            if constexpr (kPackMax) {
                                state.add(x[u], a);
                            } else {
#pragma unroll
                                for (int j = 0; j < Lanes; ++j)
                                    accumulate<C, Mode>(acc[j], lane_value<C>(x[u], j), k[u], a);
                            }
                        }
                    }
                }
            } else {
                // Misaligned vectors: the same rows in the same order, element by element.
                for (int64_t r = r_begin; r < r_end; r += rows) {
                    int64_t at[2];
                    offsets_of(a.reduced, r, at);
                    const Pack<T, Lanes> x = load_lanes<T, Lanes>(column + at[0]);
                    if constexpr (kPackMax) {
                        state.add(x, a);
                    } else {
#pragma unroll
                        for (int j = 0; j < Lanes; ++j)
                            accumulate<C, Mode>(acc[j], lane_value<C>(x, j), static_cast<uint32_t>(at[1]), a);
                    }
                }
            }
        }
        if constexpr (kPackMax) {
#pragma unroll
            for (int j = 0; j < Lanes; ++j) acc[j].value = static_cast<C>(state.lane(j));
        }
        // The block's rows combine in a fixed tree (row y takes row y + half), ending in row 0.
        const int slot = ty * pitch + tx * Lanes;
        int half = 1;
        while (half * 2 < rows) half *= 2;
        if (rows == 1) half = 0;
        for (; half > 0; half >>= 1) {
#pragma unroll
            for (int j = 0; j < Lanes; ++j) {
                shared_values[slot + j] = acc[j].value;
                if constexpr (Mode == kMaxIndexMode) shared_indices[slot + j] = acc[j].index;
            }
            __syncthreads();
            if (ty < half && ty + half < rows) {
                const int partner = slot + half * pitch;
#pragma unroll
                for (int j = 0; j < Lanes; ++j) {
                    ReduceAcc<C> other = {shared_values[partner + j], kNoIndex};
                    if constexpr (Mode == kMaxIndexMode) other.index = shared_indices[partner + j];
                    combine<C, Mode>(acc[j], other, a);
                }
            }
            __syncthreads();  // before the next level (or item) overwrites the shared arrays
        }
        if (ty == 0 && first_output < a.outputs) {
#pragma unroll
            for (int j = 0; j < Lanes; ++j) finish_item<C, Mode>(a, split, first_output + j, acc[j]);
        }
    }
}

template <class T, class C, int Mode>
__global__ void __launch_bounds__(kReduceBlock, kReduceMinBlocksOf<T>)
    column_reduce_kernel(const __grid_constant__ ReduceArgs<C> a) {
    allow_dependent_launch();
    constexpr int kLanes = Vector16<T>::kLanes;
    __shared__ C shared_values[kReduceBlock * kLanes];
    __shared__ uint32_t shared_indices[Mode == kMaxIndexMode ? kReduceBlock * kLanes : 1];
    // The NaN option is a compile-time choice where it shapes the inner loop (values-only maxima).
    if constexpr (Mode == kMaxValueMode) {
        if (a.vector_shape && a.propagate_nan) {
            column_items<T, C, Mode, true, kLanes>(a, shared_values, shared_indices);
            return;
        }
    }
    if (a.vector_shape) {
        column_items<T, C, Mode, false, kLanes>(a, shared_values, shared_indices);
    } else {
        column_items<T, C, Mode, false, 1>(a, shared_values, shared_indices);
    }
}

// --- finalize ---------------------------------------------------------------------------------------

// Combines each output's partial results in a fixed order: a group of finalize_threads lanes per output
// strides over the splits, then a butterfly (and, for groups of a whole block, the warps in order).
template <class C, int Mode>
__global__ void __launch_bounds__(kReduceBlock) finalize_reduce_kernel(const __grid_constant__ ReduceArgs<C> a) {
    __shared__ ReduceAcc<C> warp_results[kReduceBlock / 32];
    const int width = a.finalize_threads;
    const int lane = static_cast<int>(threadIdx.x) & (width - 1);
    const int per_block = kReduceBlock / width;
    wait_for_prerequisite_grid();
    // With a block per output the trip count is the same for the whole block (it syncs below).
    for (int64_t output = static_cast<int64_t>(blockIdx.x) * per_block + threadIdx.x / width; output < a.outputs;
         output += static_cast<int64_t>(gridDim.x) * per_block) {
        ReduceAcc<C> acc = start<C, Mode>(a);
#pragma unroll 4
        for (int s = lane; s < a.splits; s += width) combine<C, Mode>(acc, a.partials[s * a.outputs + output], a);
        acc = group_reduce<C, Mode>(acc, a, min(width, 32));
        if (width > 32) {
            if (threadIdx.x % 32 == 0) warp_results[threadIdx.x / 32] = acc;
            __syncthreads();
            if (threadIdx.x == 0) {
                for (int w = 1; w < kReduceBlock / 32; ++w) combine<C, Mode>(acc, warp_results[w], a);
            }
            __syncthreads();
        }
        if (lane == 0) write_result<C, Mode>(a, output, acc);
    }
}

// --- planning ---------------------------------------------------------------------------------------

struct ReducePlan {
    ScalarType a_type = ScalarType::f32, c_type = ScalarType::f32;
    bool row = true;
    int64_t outputs = 1, length = 1;
    StridedLayout kept, reduced;  // reduced: the row kernel's keeps only the dims outside its runs
    int64_t run_length = 1, run_stride = 1, run_index_step = 0;
    bool vector_shape = false;
    int vector_lanes = 1;
    int group_threads = 32;         // row kernel
    int block_x = 32, block_y = 8;  // column kernel
    int64_t items_per_split = 1;    // outputs (row) or column groups (column)
    int splits = 1;
    int64_t chunk = 1;
    int finalize_threads = 1;
    size_t workspace = 0;  // for the split
};

// int8 data (cuDNN takes int8 A and C, computing in float) reads through the float kernels' loads and
// stores (rounded to nearest even, saturated); no other integer type reaches a reduction.
bool is_reduce_type(ScalarType type) { return is_floating(type) || type == ScalarType::i8; }

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t round_up(int64_t a, int64_t multiple) { return ceil_div(a, multiple) * multiple; }

int power_of_two_at_least(int64_t n) {
    int p = 1;
    while (p < n && p < (1 << 30)) p *= 2;
    return p;
}

// Time estimates for choosing splits, in loads per thread with a few in flight: each item costs its
// loads plus a fixed cost (reduction, result), each run of a row item a pipeline restart, and a split
// the finalize launch.
constexpr int64_t kItemCost = 4;
constexpr int64_t kRunCost = 2;
constexpr int64_t kSplitCost = 12;

// Splits the reduction of `per_split` items into chunks so that the items fill the GPU's `slots`
// (groups that run at once) in whole rounds. `cost(chunk)` estimates one item's time; chunks are
// rounded by `round_chunk` and never shorter than `min_chunk`; at most `max_splits`.
template <class Cost, class Round>
void choose_splits(int64_t length, int64_t per_split, int64_t slots, int64_t min_chunk, int64_t max_splits,
                   const Cost &cost, const Round &round_chunk, int *splits_out, int64_t *chunk_out) {
    const int64_t limit =
        std::max<int64_t>(1, std::min({max_splits, length / std::max<int64_t>(1, min_chunk), int64_t{1} << 20}));
    int64_t candidates[2 + 2 * 4] = {1};
    int count = 1;
    for (int64_t rounds = 1; rounds <= 4; ++rounds) {
        candidates[count++] = std::max<int64_t>(1, rounds * slots / per_split);
        candidates[count++] = ceil_div(rounds * slots, per_split);
    }
    int best_splits = 1;
    int64_t best_chunk = length, best_cost = INT64_MAX;
    for (int i = 0; i < count; ++i) {
        const int64_t wanted = std::min(candidates[i], limit);
        const int64_t chunk = wanted <= 1 ? length : round_chunk(ceil_div(length, wanted));
        const int64_t splits = ceil_div(length, chunk);
        const int64_t rounds = ceil_div(splits * per_split, slots);
        const int64_t total = rounds * cost(chunk) + (splits > 1 ? kSplitCost : 0);
        if (total < best_cost || (total == best_cost && splits < best_splits)) {
            best_cost = total;
            best_splits = static_cast<int>(splits);
            best_chunk = chunk;
        }
    }
    *splits_out = best_splits;
    *chunk_out = best_chunk;
}

// Builds the layouts, picks the kernel and the split. `workspace_bytes` caps the split (SIZE_MAX to ask
// what the problem wants). The plan depends on the geometry, the device's SM count and the workspace
// only, never on where the data sits: same inputs and workspace size, same bits.
Status plan_reduce(const ReduceSpec &spec, const TensorGeometry &a, const TensorGeometry &c, size_t workspace_bytes,
                   ReducePlan *plan) {
    ReducePlan p;
    if (a.vector() != 1 || c.vector() != 1 || !scalar_type_of(a.dtype, &p.a_type) ||
        !scalar_type_of(c.dtype, &p.c_type) || !is_reduce_type(p.a_type) || !is_reduce_type(p.c_type)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the CUDA reduction kernels handle float, double, half, bfloat16 and int8 tensors, got %s and %s",
                    data_type_short_name(a.dtype), data_type_short_name(c.dtype));
    }
    if ((p.a_type == ScalarType::i8 && p.c_type == ScalarType::f64) ||
        (p.a_type == ScalarType::f64 && p.c_type == ScalarType::i8)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "int8 reductions compute in float and double ones in double: a %s and c %s do not mix",
                    data_type_short_name(a.dtype), data_type_short_name(c.dtype));
    }
    if (spec.op < CUDNN_REDUCE_TENSOR_ADD || spec.op > CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA reduction kernels do not handle reduce op %d",
                    static_cast<int>(spec.op));
    }
    if (a.nb_dims != c.nb_dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "reduction needs a and c of equal rank, got %s and %s",
                    geometry_to_string(a).c_str(), geometry_to_string(c).c_str());
    }
    // Row-major NCHW numbering: of the c elements (indices array) and within a reduced slice.
    int64_t c_weight[kMaxDims], reduced_weight[kMaxDims];
    int64_t c_next = 1, reduced_next = 1;
    for (int i = a.nb_dims - 1; i >= 0; --i) {
        if (c.dims[i] != a.dims[i] && c.dims[i] != 1) {
            return fail(CUDNN_STATUS_BAD_PARAM, "reduction needs each dim of c equal to a's or 1, got %s and %s",
                        geometry_to_string(a).c_str(), geometry_to_string(c).c_str());
        }
        c_weight[i] = c_next;
        c_next *= c.dims[i];
        const bool reduced = c.dims[i] == 1 && a.dims[i] != 1;
        reduced_weight[i] = reduced ? reduced_next : 0;
        if (reduced) reduced_next *= a.dims[i];
    }
    const bool with_indices =
        spec.compute_indices && (spec.op == CUDNN_REDUCE_TENSOR_MIN || spec.op == CUDNN_REDUCE_TENSOR_MAX ||
                                 spec.op == CUDNN_REDUCE_TENSOR_AMAX);
    p.kept.operands = 3;
    p.reduced.operands = 2;
    for (int i = 0; i < a.nb_dims; ++i) {
        if (c.dims[i] == 1 && a.dims[i] != 1) {
            const int d = p.reduced.rank++;
            p.reduced.extents[d] = a.dims[i];
            p.reduced.strides[0][d] = a.strides[i];
            // Without indices the numbering is free, so it never blocks a merge of dims.
            p.reduced.strides[1][d] = with_indices ? reduced_weight[i] : 0;
        } else {
            const int d = p.kept.rank++;
            p.kept.extents[d] = a.dims[i];
            p.kept.strides[0][d] = a.strides[i];
            p.kept.strides[1][d] = c.strides[i];
            p.kept.strides[2][d] = c_weight[i];
        }
    }
    for (StridedLayout *layout : {&p.kept, &p.reduced}) {
        layout->drop_unit_dims();
        layout->order_by(0);
        layout->coalesce();
    }
    p.outputs = p.kept.element_count();
    p.length = p.reduced.element_count();
    if (p.outputs == 0 || p.length == 0) {
        *plan = p;
        return CUDNN_STATUS_SUCCESS;
    }

    const DeviceLimits limits = current_device_limits();
    const int64_t sms = std::max(1, limits.sm_count);
    const int lanes = static_cast<int>(16 / scalar_size(p.a_type));
    const bool in_double = p.a_type == ScalarType::f64 || p.c_type == ScalarType::f64;
    const int64_t acc_bytes = in_double ? sizeof(ReduceAcc<double>) : sizeof(ReduceAcc<float>);
    // The most splits the workspace holds (the partials of every output per split).
    const int64_t split_bytes = p.outputs * acc_bytes;
    const int64_t max_splits = workspace_bytes == SIZE_MAX
                                   ? INT64_MAX
                                   : static_cast<int64_t>(std::min<size_t>(workspace_bytes / split_bytes, INT64_MAX));

    const int64_t kept_inner = p.kept.rank > 0 ? p.kept.strides[0][p.kept.rank - 1] : INT64_MAX;
    const int64_t reduced_inner = p.reduced.rank > 0 ? p.reduced.strides[0][p.reduced.rank - 1] : INT64_MAX;
    p.row = p.length >= 32 && (p.outputs == 1 || reduced_inner <= kept_inner);
    if (p.row) {
        // Runs: the innermost reduced dim; `reduced` keeps the dims outside it.
        const int last = p.reduced.rank - 1;
        p.run_length = p.reduced.extents[last];
        p.run_stride = p.reduced.strides[0][last];
        p.run_index_step = p.reduced.strides[1][last];
        p.reduced.rank = last;
        p.vector_shape = p.run_stride == 1 && lanes > 1;
        p.vector_lanes = p.vector_shape ? lanes : 1;
        // Short slices share a warp: enough lanes for two vectors (or elements) each.
        const int64_t per_lane = 2 * int64_t{p.vector_lanes};
        p.group_threads = std::min(32, std::max(4, power_of_two_at_least(ceil_div(p.length, per_lane))));
        p.items_per_split = p.outputs;
        const int64_t slots = sms * reduce_min_blocks(p.a_type) * (kReduceBlock / p.group_threads);
        const int64_t lane_elements = int64_t{p.group_threads} * p.vector_lanes;
        const int64_t run_length = p.run_length;
        auto cost = [&](int64_t chunk) {
            return ceil_div(chunk, lane_elements) + kItemCost +
                   kRunCost * std::min(chunk, ceil_div(chunk, run_length) + 1);
        };
        // Whole runs per split where runs are shorter than a split, whole vectors otherwise.
        const int64_t vector_lanes = p.vector_lanes;
        auto round_chunk = [&](int64_t chunk) {
            return chunk >= run_length ? round_up(chunk, run_length) : round_up(chunk, vector_lanes);
        };
        choose_splits(p.length, p.items_per_split, slots, lane_elements * 4, max_splits, cost, round_chunk, &p.splits,
                      &p.chunk);
    } else {
        // Vectors of neighbouring outputs when the kept dims end in a contiguous run of whole vectors.
        p.vector_shape =
            p.kept.rank > 0 && kept_inner == 1 && lanes > 1 && p.kept.extents[p.kept.rank - 1] % lanes == 0;
        p.vector_lanes = p.vector_shape ? lanes : 1;
        const int64_t columns = p.outputs / p.vector_lanes;
        // Up to 32 threads along the outputs (a warp's loads of one row coalesce), the others on rows; a
        // short reduction gives its surplus rows to more outputs.
        p.block_x = static_cast<int>(std::min<int64_t>(kColumnMaxWidth, columns));
        p.block_y = kReduceBlock / p.block_x;
        while (p.block_y > 1 && p.block_y >= 2 * ceil_div(p.length, 4) && 2 * int64_t{p.block_x} <= columns) {
            p.block_x *= 2;
            p.block_y = kReduceBlock / p.block_x;
        }
        p.items_per_split = ceil_div(columns, p.block_x);
        const int64_t slots = sms * reduce_min_blocks(p.a_type);
        const int64_t rows = p.block_y;
        auto cost = [&](int64_t chunk) { return ceil_div(chunk, rows) + 2 * kItemCost; };
        auto round_chunk = [&](int64_t chunk) { return round_up(chunk, rows); };
        choose_splits(p.length, p.items_per_split, slots, rows * 4, max_splits, cost, round_chunk, &p.splits, &p.chunk);
    }
    if (p.splits > 1) {
        p.workspace = static_cast<size_t>(p.splits) * static_cast<size_t>(split_bytes);
        p.finalize_threads = p.splits >= 128 ? kReduceBlock : std::min(32, power_of_two_at_least(p.splits));
    } else {
        p.chunk = p.length;
    }
    *plan = p;
    return CUDNN_STATUS_SUCCESS;
}

template <class T, class C, int Mode>
Status launch_reduce(cudaStream_t stream, const ReducePlan &plan, const ReduceArgs<C> &args) {
    // Grids of at most one wave: the items are balanced over the blocks by the grid-stride loops.
    if (plan.row) {
        static const ResidentBlocks resident(reinterpret_cast<const void *>(row_reduce_kernel<T, C, Mode>),
                                             kReduceBlock);
        const int grid = grid_size(resident, args.items, kReduceBlock / plan.group_threads);
        row_reduce_kernel<T, C, Mode><<<grid, kReduceBlock, 0, stream>>>(args);
        LIBREDNN_CHECK(check_launch("row_reduce_kernel"));
    } else {
        // Column blocks are block_x * block_y = kReduceBlock threads, one item each.
        static const ResidentBlocks resident(reinterpret_cast<const void *>(column_reduce_kernel<T, C, Mode>),
                                             kReduceBlock);
        const int grid = grid_size(resident, args.items, 1);
        column_reduce_kernel<T, C, Mode><<<grid, dim3(plan.block_x, plan.block_y), 0, stream>>>(args);
        LIBREDNN_CHECK(check_launch("column_reduce_kernel"));
    }
    if (plan.splits > 1) {
        const int64_t per_block = kReduceBlock / plan.finalize_threads;
        // Launched as a programmatic dependent of the main kernel, which it waits for itself: only where the
        // finalize as loaded is sm_90 code (compiled for an older architecture it has no wait, and must
        // start after the main kernel as usual).
        static const bool dependent = built_for_sm90(reinterpret_cast<const void *>(finalize_reduce_kernel<C, Mode>));
        const dim3 grid(static_cast<unsigned>(grid_size(plan.outputs, per_block, kReduceBlock)));
        LIBREDNN_CHECK(launch_maybe_dependent(stream, finalize_reduce_kernel<C, Mode>, args, grid, kReduceBlock, 0,
                                              dependent, "finalize_reduce_kernel"));
    }
    return CUDNN_STATUS_SUCCESS;
}

// True when every vector the column kernel loads sits on a 16-byte boundary: a is aligned and every
// stride outside the vectors' run is a multiple of the vector.
bool column_vectors_aligned(const ReducePlan &plan, const void *a_data) {
    if ((reinterpret_cast<uintptr_t>(a_data) & 15u) != 0) return false;
    for (int d = 0; d + 1 < plan.kept.rank; ++d) {
        if (plan.kept.strides[0][d] % plan.vector_lanes != 0) return false;
    }
    for (int d = 0; d < plan.reduced.rank; ++d) {
        if (plan.reduced.strides[0][d] % plan.vector_lanes != 0) return false;
    }
    return true;
}

template <class T, class C>
Status launch_reduce_typed(cudaStream_t stream, const ReduceSpec &spec, const ReducePlan &plan, void *workspace,
                           uint32_t *indices, double alpha, const void *a_data, double beta, void *c_data) {
    ReduceArgs<C> args{};
    args.a = a_data;
    args.c = c_data;
    args.indices = indices;
    args.partials = static_cast<ReduceAcc<C> *>(workspace);
    args.c_type = plan.c_type;
    args.outputs = plan.outputs;
    args.length = plan.length;
    args.chunk = plan.chunk;
    args.splits = plan.splits;
    args.items = plan.items_per_split * plan.splits;
    args.items_per_split = make_fast_divisor(plan.items_per_split);
    args.run_length = make_fast_divisor(plan.run_length);
    args.run_stride = plan.run_stride;
    args.run_index_step = static_cast<uint32_t>(plan.run_index_step);
    args.group_threads = plan.group_threads;
    args.finalize_threads = plan.finalize_threads;
    args.vector_shape = plan.vector_shape ? 1 : 0;
    // The row kernel finds vector boundaries from element offsets, which are 16-byte boundaries when a is.
    args.aligned = plan.vector_shape &&
                   (plan.row ? (reinterpret_cast<uintptr_t>(a_data) & 15u) == 0 : column_vectors_aligned(plan, a_data));
    const cudnnReduceTensorOp_t op = spec.op;
    args.is_mul = op == CUDNN_REDUCE_TENSOR_MUL || op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
    args.negate = op == CUDNN_REDUCE_TENSOR_MIN;
    args.absolute = op == CUDNN_REDUCE_TENSOR_AMAX || op == CUDNN_REDUCE_TENSOR_NORM1;
    args.square = op == CUDNN_REDUCE_TENSOR_NORM2;
    args.zero_as_one = op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS;
    args.average = op == CUDNN_REDUCE_TENSOR_AVG;
    args.root = op == CUDNN_REDUCE_TENSOR_NORM2;
    args.propagate_nan = spec.nan == CUDNN_PROPAGATE_NAN;
    args.blend = beta != 0.0;
    args.alpha = static_cast<C>(alpha);
    args.beta = static_cast<C>(beta);
    args.kept = to_device_layout(plan.kept);
    args.reduced = to_device_layout(plan.reduced);
    const bool max_kind =
        op == CUDNN_REDUCE_TENSOR_MIN || op == CUDNN_REDUCE_TENSOR_MAX || op == CUDNN_REDUCE_TENSOR_AMAX;
    if (!max_kind) return launch_reduce<T, C, kSumMode>(stream, plan, args);
    args.write_indices = spec.compute_indices && indices != nullptr;
    // Double computations are rare: their values-only maxima go through the indexed kernels.
    if constexpr (std::is_same_v<C, double>) {
        return launch_reduce<T, C, kMaxIndexMode>(stream, plan, args);
    } else {
        return args.write_indices ? launch_reduce<T, C, kMaxIndexMode>(stream, plan, args)
                                  : launch_reduce<T, C, kMaxValueMode>(stream, plan, args);
    }
}

}  // namespace

size_t reduce_workspace_bytes(const ReduceSpec &spec, const TensorGeometry &a, const TensorGeometry &c) {
    ReducePlan plan;
    if (plan_reduce(spec, a, c, SIZE_MAX, &plan) != CUDNN_STATUS_SUCCESS) return 0;
    return plan.workspace;
}

Status reduce_tensor(cudaStream_t stream, const ReduceSpec &spec, void *workspace, size_t workspace_bytes,
                     uint32_t *indices, double alpha, const TensorGeometry &a, const void *a_data, double beta,
                     const TensorGeometry &c, void *c_data) {
    ReducePlan plan;
    // Partial results need a 16-byte aligned workspace (cudaMalloc gives 256).
    const bool usable = workspace != nullptr && (reinterpret_cast<uintptr_t>(workspace) & 15u) == 0;
    LIBREDNN_CHECK(plan_reduce(spec, a, c, usable ? workspace_bytes : 0, &plan));
    if (plan.outputs == 0 || plan.length == 0) return CUDNN_STATUS_SUCCESS;
    const bool in_double = plan.c_type == ScalarType::f64;  // a double c asks for double precision
    switch (plan.a_type) {
        case ScalarType::f32:
            if (in_double)
                return launch_reduce_typed<float, double>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                          c_data);
            return launch_reduce_typed<float, float>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                     c_data);
        case ScalarType::f64:
            return launch_reduce_typed<double, double>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                       c_data);
        case ScalarType::f16:
            if (in_double)
                return launch_reduce_typed<__half, double>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                           c_data);
            return launch_reduce_typed<__half, float>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                      c_data);
        case ScalarType::bf16:
            if (in_double)
                return launch_reduce_typed<__nv_bfloat16, double>(stream, spec, plan, workspace, indices, alpha, a_data,
                                                                  beta, c_data);
            return launch_reduce_typed<__nv_bfloat16, float>(stream, spec, plan, workspace, indices, alpha, a_data,
                                                             beta, c_data);
        case ScalarType::i8:
            // cuDNN computes int8 reductions in float (plan_reduce keeps double c away).
            return launch_reduce_typed<int8_t, float>(stream, spec, plan, workspace, indices, alpha, a_data, beta,
                                                      c_data);
        default: break;
    }
    return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA reduction kernels do not handle %s tensors",
                data_type_short_name(a.dtype));
}

}  // namespace librednn::cuda
