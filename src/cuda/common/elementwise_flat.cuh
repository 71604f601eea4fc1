// The flat element-wise kernel: the output is packed in the order the kernel walks it, so thread
// positions are memory positions. Inputs in the same order load as 16-byte vectors; the others (a
// broadcast bias, a differently strided operand) are gathered per lane through the layout. One kernel
// per element type, op family and whether the call gathers (picked on the host); the mode is a runtime
// switch outside the loop, so each loop body is specialised for its operation.
#pragma once

#include "cuda/common/elementwise_math.cuh"
#include "cuda/common/launch_util.hpp"

namespace librednn::cuda {

template <class T, class C>
struct FlatArgs {
    int64_t count;
    T *output;
    const T *inputs[3];
    int64_t inner_strides[3];  // gathered input k: its stride along the innermost dim
    int input_flat_mask;       // bit k: input k sits at the output's position
    int vectorized;
    int raw_copy;
    ElementwiseParams<C> params;
    DeviceLayout layout;
};

constexpr int kFlatBlock = 256;
// Vectors in flight per thread per pass: two for 4- and 8-byte types; one for smaller types, whose 8 or
// 16 lanes per vector already need the registers.
template <class T>
constexpr int kFlatUnrollOf = sizeof(T) >= 2 ? 2 : 1;
// Resident blocks per SM the register budget must allow: 4 (64 registers a thread) keeps half the SM's
// threads resident; 2-byte types, with two vectors of 8 lanes in flight, get 3 (85 registers) rather
// than spill.
template <class T>
constexpr int kFlatMinBlocksOf = sizeof(T) == 2 ? 3 : 4;

// Input k's value at the output positions first .. first + lanes - 1, gathered through the layout.
// The vector lies within one innermost row (the plan vectorises only then): one split of the position,
// then a step per lane (0 for a broadcast bias along the row, 1 for a bias along NHWC channels).
template <class T, class C>
__device__ __forceinline__ void gather_lanes(const FlatArgs<T, C> &a, int k, int64_t first, Vector16<T> &out) {
    constexpr int kLanes = Vector16<T>::kLanes;
    const T *base = a.inputs[k];
    const int64_t offset = offset_of(a.layout, k + 1, first);
    const int64_t step = a.inner_strides[k];
    if (step == 0) {  // a bias constant along the row (NCHW): one load
        const T value = base[offset];
#pragma unroll
        for (int j = 0; j < kLanes; ++j) out.lane[j] = value;
        return;
    }
#pragma unroll
    for (int j = 0; j < kLanes; ++j) out.lane[j] = base[offset + j * step];
}

template <class T, class C, bool Gather>
__device__ __forceinline__ T load_input(const FlatArgs<T, C> &a, int k, int64_t position) {
    if (!Gather || ((a.input_flat_mask >> k) & 1)) return a.inputs[k][position];
    return a.inputs[k][offset_of(a.layout, k + 1, position)];
}

template <class T, class C, int Kind, int Mode>
__device__ __forceinline__ C flat_value(const ElementwiseParams<C> &p, T in0, T in1, T in2) {
    constexpr int kUsed = inputs_used_by(static_cast<ElementwiseKind>(Kind), Mode);
    return evaluate<C>(Kind, Mode, p, kUsed & 1 ? to_compute<C>(in0) : C(0), kUsed & 2 ? to_compute<C>(in1) : C(0),
                       kUsed & 4 ? to_compute<C>(in2) : C(0));
}

// Gather: whether some input sits off the output's order (the host picks the kernel; calls that gather
// nothing run loops without any index arithmetic).
template <class T, class C, int Kind, int Mode, bool Gather>
__device__ __forceinline__ void flat_loop(const FlatArgs<T, C> &a) {
    constexpr int kUsed = inputs_used_by(static_cast<ElementwiseKind>(Kind), Mode);
    constexpr int kLanes = Vector16<T>::kLanes;
    // Gathering loops wait on the split of each position before their loads. Copies (add tensor's bias)
    // of 4-byte types keep twice the vectors in flight: the float NCHW bias add stalled on those loads at 2
    // a thread. Elsewhere it was not measured to help, and double copies and op tensor's gathering loops
    // would need more registers for it (op tensor double spilled).
    constexpr bool kMoreInFlight = Gather && Kind == static_cast<int>(ElementwiseKind::copy) && sizeof(T) == 4;
    constexpr int kFlatUnroll = kMoreInFlight ? 2 * kFlatUnrollOf<T> : kFlatUnrollOf<T>;
    const int64_t thread = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    const int64_t vectors = a.vectorized ? a.count / kLanes : 0;
    const bool blend = a.params.blend;
    const bool raw = Kind == static_cast<int>(ElementwiseKind::copy) && a.raw_copy;
    Vector16<T> *out = reinterpret_cast<Vector16<T> *>(a.output);

    for (int64_t base = thread; base < vectors; base += kFlatUnroll * threads) {
        // All loads of the pass first, so that each thread keeps several 16-byte requests in flight.
        Vector16<T> in[kFlatUnroll][3];
        Vector16<T> old[kFlatUnroll];
#pragma unroll
        for (int u = 0; u < kFlatUnroll; ++u) {
            const int64_t v = base + u * threads;
            if (v >= vectors) continue;
#pragma unroll
            for (int k = 0; k < 3; ++k) {
                if (!((kUsed >> k) & 1)) continue;
                if (!Gather || ((a.input_flat_mask >> k) & 1)) {
                    in[u][k] = reinterpret_cast<const Vector16<T> *>(a.inputs[k])[v];
                } else {
                    gather_lanes(a, k, v * kLanes, in[u][k]);
                }
            }
            if (blend) old[u] = out[v];
        }
#pragma unroll
        for (int u = 0; u < kFlatUnroll; ++u) {
            const int64_t v = base + u * threads;
            if (v >= vectors) continue;
            Vector16<T> result;
            if (raw) {
                result = in[u][0];
            } else {
#pragma unroll
                for (int j = 0; j < kLanes; ++j) {
                    C value =
                        flat_value<T, C, Kind, Mode>(a.params, in[u][0].lane[j], in[u][1].lane[j], in[u][2].lane[j]);
                    if (blend) value += a.params.beta * to_compute<C>(old[u].lane[j]);
                    result.lane[j] = from_compute<T>(value);
                }
            }
            out[v] = result;
        }
    }

    // What the vectors leave (everything when a pointer is not 16-byte aligned), one element at a time.
    for (int64_t i = vectors * kLanes + thread; i < a.count; i += threads) {
        T in[3] = {};
#pragma unroll
        for (int k = 0; k < 3; ++k) {
            if ((kUsed >> k) & 1) in[k] = load_input<T, C, Gather>(a, k, i);
        }
        if (raw) {
            a.output[i] = in[0];
            continue;
        }
        C value = flat_value<T, C, Kind, Mode>(a.params, in[0], in[1], in[2]);
        if (blend) value += a.params.beta * to_compute<C>(a.output[i]);
        a.output[i] = from_compute<T>(value);
    }
}

// Family: a struct with `template <class T> static constexpr bool accepts()` (the element types it
// instantiates), `static constexpr bool kGathers` (whether it takes calls that gather inputs; without
// it they go to the strided kernel), `static constexpr const char *kName`, and `template <class T,
// class C, bool Gather> __device__ static void run(const FlatArgs<T, C> &)` that switches over its modes
// to flat_loop. Gather is a kernel parameter rather than a branch inside one kernel, so the calls that
// gather nothing (the common case) keep the registers of a loop without gather code.
template <class T, class C, class Family, bool Gather>
__global__ void __launch_bounds__(kFlatBlock, kFlatMinBlocksOf<T>)
    flat_elementwise_kernel(const __grid_constant__ FlatArgs<T, C> args) {
    Family::template run<T, C, Gather>(args);
}

// One launch of the flat kernel: one wave of the blocks the SMs hold at once (a grid-stride loop; a
// grid counted in threads per SM gave part waves, with idle SMs at the end, where registers hold the
// kernel below that: scale of half NHWC 3733 GB/s at 5 blocks an SM against 3854 at 4).
template <class T, class C, class Family, bool Gather>
Status launch_flat_kernel(cudaStream_t stream, const FlatArgs<T, C> &args, const ElementwisePlan &plan) {
    const auto kernel = flat_elementwise_kernel<T, C, Family, Gather>;
    static const ResidentBlocks resident(reinterpret_cast<const void *>(kernel), kFlatBlock);
    const int64_t lanes = Vector16<T>::kLanes;
    const int grid = plan.vectorized
                         ? grid_size(resident, plan.count / lanes + 1, int64_t{kFlatBlock} * kFlatUnrollOf<T>)
                         : grid_size(resident, plan.count, kFlatBlock);
    kernel<<<grid, kFlatBlock, 0, stream>>>(args);
    return check_launch(Family::kName);
}

template <class T, class C, class Family>
Status launch_flat_typed(cudaStream_t stream, const ElementwiseCall &call, const ElementwisePlan &plan) {
    if constexpr (!Family::template accepts<T>()) {
        return launch_strided_elementwise(stream, call, plan);
    } else {
        const bool gathers = (plan.input_flat_mask & plan.inputs_used) != plan.inputs_used;
        if (gathers && !Family::kGathers) return launch_strided_elementwise(stream, call, plan);
        FlatArgs<T, C> args;
        args.count = plan.count;
        args.output = static_cast<T *>(call.output_data);
        for (int k = 0; k < 3; ++k) {
            args.inputs[k] = static_cast<const T *>(call.input_data[k]);
            args.inner_strides[k] = plan.layout.rank > 0 ? plan.layout.strides[k + 1][plan.layout.rank - 1] : 0;
        }
        args.input_flat_mask = plan.input_flat_mask;
        args.vectorized = plan.vectorized ? 1 : 0;
        args.raw_copy = plan.raw_copy ? 1 : 0;
        args.params = make_elementwise_params<C>(call, plan);
        args.layout = to_device_layout(plan.layout);
        if constexpr (Family::kGathers) {
            if (gathers) return launch_flat_kernel<T, C, Family, true>(stream, args, plan);
        }
        return launch_flat_kernel<T, C, Family, false>(stream, args, plan);
    }
}

// Launches the flat kernel of `Family` for the plan's element type (compute type: double for double
// and int32, else float).
template <class Family>
Status launch_flat_elementwise(cudaStream_t stream, const ElementwiseCall &call, const ElementwisePlan &plan) {
    switch (plan.output_type) {
        case ScalarType::f32: return launch_flat_typed<float, float, Family>(stream, call, plan);
        case ScalarType::f64: return launch_flat_typed<double, double, Family>(stream, call, plan);
        case ScalarType::f16: return launch_flat_typed<__half, float, Family>(stream, call, plan);
        case ScalarType::bf16: return launch_flat_typed<__nv_bfloat16, float, Family>(stream, call, plan);
        case ScalarType::i8: return launch_flat_typed<int8_t, float, Family>(stream, call, plan);
        case ScalarType::u8: return launch_flat_typed<uint8_t, float, Family>(stream, call, plan);
        case ScalarType::i32: return launch_flat_typed<int32_t, double, Family>(stream, call, plan);
    }
    return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA tensor kernels do not handle this element type");
}

}  // namespace librednn::cuda
