// The strided element-wise kernel: any strides for every operand, any supported element type per
// operand, the operation chosen at run time. Iterates in the output's memory order (dims sorted by
// its strides), so that stores coalesce; every operand's offset comes from one split of the position.
#include "cuda/common/elementwise_math.cuh"
#include "cuda/common/launch_util.hpp"

namespace librednn::cuda {

namespace {

template <class C>
struct StridedArgs {
    int64_t count;
    void *output;
    const void *inputs[3];
    ScalarType output_type;
    ScalarType input_types[3];
    int inputs_used;
    int raw_copy;
    int output_size;  // bytes of one output scalar
    uint64_t set_bits;
    ElementwiseParams<C> params;
    DeviceLayout layout;
};

constexpr int kStridedBlock = 256;

template <class C>
__global__ void __launch_bounds__(kStridedBlock) strided_elementwise_kernel(const __grid_constant__ StridedArgs<C> a) {
    const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
    const bool is_set = a.params.kind == static_cast<int>(ElementwiseKind::set);
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < a.count; i += threads) {
        int64_t offsets[4];
        offsets_of(a.layout, i, offsets);
        if (is_set) {
            store_bits(a.output, a.output_size, offsets[0], a.set_bits);
            continue;
        }
        if (a.raw_copy) {
            store_bits(a.output, a.output_size, offsets[0], load_bits(a.inputs[0], a.output_size, offsets[1]));
            continue;
        }
        C in[3] = {C(0), C(0), C(0)};
#pragma unroll
        for (int k = 0; k < 3; ++k) {
            if ((a.inputs_used >> k) & 1) in[k] = load_as<C>(a.inputs[k], a.input_types[k], offsets[k + 1]);
        }
        C value = evaluate<C>(a.params.kind, a.params.mode, a.params, in[0], in[1], in[2]);
        if (a.params.blend) value += a.params.beta * load_as<C>(a.output, a.output_type, offsets[0]);
        store_as<C>(a.output, a.output_type, offsets[0], value);
    }
}

template <class C>
Status launch_strided(cudaStream_t stream, const ElementwiseCall &call, const ElementwisePlan &plan) {
    StridedArgs<C> args;
    args.count = plan.count;
    args.output = call.output_data;
    for (int k = 0; k < 3; ++k) {
        args.inputs[k] = call.input_data[k];
        args.input_types[k] = plan.input_types[k];
    }
    args.output_type = plan.output_type;
    args.inputs_used = plan.inputs_used;
    args.raw_copy = plan.raw_copy ? 1 : 0;
    args.output_size = static_cast<int>(scalar_size(plan.output_type));
    args.set_bits = plan.set_bits;
    args.params = make_elementwise_params<C>(call, plan);
    args.layout = to_device_layout(plan.layout);
    const int grid = grid_size(plan.count, kStridedBlock, kStridedBlock);
    strided_elementwise_kernel<C><<<grid, kStridedBlock, 0, stream>>>(args);
    return check_launch("strided_elementwise_kernel");
}

}  // namespace

Status launch_strided_elementwise(cudaStream_t stream, const ElementwiseCall &call, const ElementwisePlan &plan) {
    if (plan.count == 0) return CUDNN_STATUS_SUCCESS;
    return plan.compute_double ? launch_strided<double>(stream, call, plan) : launch_strided<float>(stream, call, plan);
}

}  // namespace librednn::cuda
