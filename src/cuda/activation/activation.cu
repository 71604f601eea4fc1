// Activation forward and backward kernels: the flat family specialised per mode, the strided kernel
// for everything else.
#include "cuda/activation/activation.hpp"
#include "cuda/common/elementwise_flat.cuh"

namespace librednn::cuda {

namespace {

struct ActivationFamily {
    static constexpr const char *kName = "flat_activation_kernel";
    // x, y, dy and dx of one call have the same dims; differing layouts are rare enough for the strided
    // kernel, and the loops stay free of index arithmetic.
    static constexpr bool kGathers = false;
    template <class T>
    static constexpr bool accepts() {
        return std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, __half> ||
               std::is_same_v<T, __nv_bfloat16>;
    }
    template <int Kind, class T, class C>
    __device__ static void run_mode(const FlatArgs<T, C> &a) {
        switch (a.params.mode) {
            case CUDNN_ACTIVATION_SIGMOID: flat_loop<T, C, Kind, CUDNN_ACTIVATION_SIGMOID, false>(a); break;
            case CUDNN_ACTIVATION_RELU: flat_loop<T, C, Kind, CUDNN_ACTIVATION_RELU, false>(a); break;
            case CUDNN_ACTIVATION_TANH: flat_loop<T, C, Kind, CUDNN_ACTIVATION_TANH, false>(a); break;
            case CUDNN_ACTIVATION_CLIPPED_RELU: flat_loop<T, C, Kind, CUDNN_ACTIVATION_CLIPPED_RELU, false>(a); break;
            case CUDNN_ACTIVATION_ELU: flat_loop<T, C, Kind, CUDNN_ACTIVATION_ELU, false>(a); break;
            case CUDNN_ACTIVATION_SWISH: flat_loop<T, C, Kind, CUDNN_ACTIVATION_SWISH, false>(a); break;
            default: flat_loop<T, C, Kind, CUDNN_ACTIVATION_IDENTITY, false>(a); break;
        }
    }
    template <class T, class C, bool Gather>
    __device__ static void run(const FlatArgs<T, C> &a) {
        static_assert(!Gather, "activation calls that gather run the strided kernel");
        if (a.params.kind == static_cast<int>(ElementwiseKind::activation_forward)) {
            run_mode<static_cast<int>(ElementwiseKind::activation_forward)>(a);
        } else {
            run_mode<static_cast<int>(ElementwiseKind::activation_backward)>(a);
        }
    }
};

bool is_activation_type(cudnnDataType_t type) {
    return type == CUDNN_DATA_FLOAT || type == CUDNN_DATA_DOUBLE || type == CUDNN_DATA_HALF ||
           type == CUDNN_DATA_BFLOAT16;
}

bool is_activation_mode(cudnnActivationMode_t mode) {
    return mode == CUDNN_ACTIVATION_SIGMOID || mode == CUDNN_ACTIVATION_RELU || mode == CUDNN_ACTIVATION_TANH ||
           mode == CUDNN_ACTIVATION_CLIPPED_RELU || mode == CUDNN_ACTIVATION_ELU || mode == CUDNN_ACTIVATION_IDENTITY ||
           mode == CUDNN_ACTIVATION_SWISH;
}

Status run_activation(cudaStream_t stream, const ElementwiseCall &call) {
    if (!is_activation_mode(static_cast<cudnnActivationMode_t>(call.mode))) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA activation kernels do not handle activation mode %d",
                    call.mode);
    }
    const int used = inputs_used_by(call.kind, call.mode);
    if (!is_activation_type(call.output.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the CUDA activation kernels handle float, double, half and bfloat16, not %s",
                    data_type_short_name(call.output.dtype));
    }
    for (int k = 0; k < 3; ++k) {
        if (((used >> k) & 1) && call.inputs[k].dtype != call.output.dtype) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "the CUDA activation kernels need every tensor of one type, got %s and %s",
                        data_type_short_name(call.inputs[k].dtype), data_type_short_name(call.output.dtype));
        }
        if (((used >> k) & 1) && !same_dims(call.inputs[k], call.output)) {
            return fail(CUDNN_STATUS_BAD_PARAM, "activation needs tensors of equal dims, got %s and %s",
                        geometry_to_string(call.inputs[k]).c_str(), geometry_to_string(call.output).c_str());
        }
    }
    ElementwisePlan plan;
    LIBREDNN_CHECK(plan_elementwise(call, &plan));
    if (plan.count == 0) return CUDNN_STATUS_SUCCESS;
    if (plan.path == ElementwisePath::flat) return launch_flat_elementwise<ActivationFamily>(stream, call, plan);
    return launch_strided_elementwise(stream, call, plan);
}

ElementwiseCall activation_call(const ActivationSpec &spec, double alpha, double beta) {
    ElementwiseCall call;
    call.mode = spec.mode;
    call.propagate_nan = spec.nan == CUDNN_PROPAGATE_NAN;
    call.coef = spec.coef;
    call.swish_beta = spec.swish_beta;
    call.alpha = alpha;
    call.beta = beta;
    return call;
}

}  // namespace

Status activation_forward(cudaStream_t stream, const ActivationSpec &spec, double alpha, const TensorGeometry &x,
                          const void *x_data, double beta, const TensorGeometry &y, void *y_data) {
    ElementwiseCall call = activation_call(spec, alpha, beta);
    call.kind = ElementwiseKind::activation_forward;
    call.output = y;
    call.output_data = y_data;
    call.inputs[0] = x;
    call.input_data[0] = x_data;
    return run_activation(stream, call);
}

Status activation_backward(cudaStream_t stream, const ActivationSpec &spec, double alpha, const TensorGeometry &y,
                           const void *y_data, const TensorGeometry &dy, const void *dy_data, const TensorGeometry &x,
                           const void *x_data, double beta, const TensorGeometry &dx, void *dx_data) {
    ElementwiseCall call = activation_call(spec, alpha, beta);
    call.kind = ElementwiseKind::activation_backward;
    call.output = dx;
    call.output_data = dx_data;
    call.inputs[0] = y;
    call.input_data[0] = y_data;
    call.inputs[1] = dy;
    call.input_data[1] = dy_data;
    call.inputs[2] = x;
    call.input_data[2] = x_data;
    return run_activation(stream, call);
}

}  // namespace librednn::cuda
