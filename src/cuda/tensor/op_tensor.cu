// Op-tensor kernels: the flat family specialised per operator, the strided kernel for the rest.
#include "cuda/common/elementwise_flat.cuh"
#include "cuda/tensor/op_tensor.hpp"

namespace librednn::cuda {

namespace {

struct OpTensorFamily {
    static constexpr const char *kName = "flat_op_tensor_kernel";
    static constexpr bool kGathers = true;  // b broadcasts
    template <class T>
    static constexpr bool accepts() {
        return std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, __half> ||
               std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, int8_t>;
    }
    template <class T, class C, bool Gather>
    __device__ static void run(const FlatArgs<T, C> &a) {
        constexpr int kBinary = static_cast<int>(ElementwiseKind::binary);
        switch (a.params.mode) {
            case CUDNN_OP_TENSOR_ADD: flat_loop<T, C, kBinary, CUDNN_OP_TENSOR_ADD, Gather>(a); break;
            case CUDNN_OP_TENSOR_MUL: flat_loop<T, C, kBinary, CUDNN_OP_TENSOR_MUL, Gather>(a); break;
            case CUDNN_OP_TENSOR_MIN: flat_loop<T, C, kBinary, CUDNN_OP_TENSOR_MIN, Gather>(a); break;
            case CUDNN_OP_TENSOR_MAX: flat_loop<T, C, kBinary, CUDNN_OP_TENSOR_MAX, Gather>(a); break;
            case CUDNN_OP_TENSOR_SQRT: flat_loop<T, C, kBinary, CUDNN_OP_TENSOR_SQRT, Gather>(a); break;
            default: flat_loop<T, C, kBinary, CUDNN_OP_TENSOR_NOT, Gather>(a); break;
        }
    }
};

}  // namespace

Status op_tensor(cudaStream_t stream, const OpTensorSpec &spec, double alpha1, const TensorGeometry &a,
                 const void *a_data, double alpha2, const TensorGeometry &b, const void *b_data, double beta,
                 const TensorGeometry &c, void *c_data) {
    if (spec.op < CUDNN_OP_TENSOR_ADD || spec.op > CUDNN_OP_TENSOR_NOT) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CUDA op-tensor kernels do not handle operator %d",
                    static_cast<int>(spec.op));
    }
    if (!same_dims(a, c)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "op tensor needs a with c's dims, got %s and %s",
                    geometry_to_string(a).c_str(), geometry_to_string(c).c_str());
    }
    ElementwiseCall call;
    call.kind = ElementwiseKind::binary;
    call.mode = spec.op;
    call.propagate_nan = spec.nan == CUDNN_PROPAGATE_NAN;
    call.compute_double = spec.compute_type == CUDNN_DATA_DOUBLE;
    call.alpha = alpha1;
    call.alpha2 = alpha2;
    call.beta = beta;
    call.output = c;
    call.output_data = c_data;
    call.inputs[0] = a;
    call.input_data[0] = a_data;
    call.inputs[1] = b;
    call.input_data[1] = b_data;
    ElementwisePlan plan;
    LIBREDNN_CHECK(plan_elementwise(call, &plan));
    if (plan.count == 0) return CUDNN_STATUS_SUCCESS;
    if (plan.path == ElementwisePath::flat) return launch_flat_elementwise<OpTensorFamily>(stream, call, plan);
    return launch_strided_elementwise(stream, call, plan);
}

}  // namespace librednn::cuda
