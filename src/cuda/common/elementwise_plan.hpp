// Element-wise tensor operations as the CUDA kernels see them (copy/scale, set, activation forward and
// backward, op tensor), and the plan that picks a kernel path for one call: flat (output packed in the
// order the kernel walks it, 16-byte vectors), transpose (a packed copy between NCHW-like and NHWC-like
// orders through shared-memory tiles) or strided (any strides, any mix of types).
#pragma once

#include "core/status.hpp"
#include "cuda/common/scalar_type.hpp"
#include "cuda/common/strided_layout.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

#ifdef __CUDACC__
#define LIBREDNN_HOST_DEVICE __host__ __device__
#else
#define LIBREDNN_HOST_DEVICE
#endif

namespace librednn::cuda {

enum class ElementwiseKind : int {
    copy,                 // out = alpha * in0 (+ beta * out)
    set,                  // out = value (never reads anything)
    activation_forward,   // out = alpha * f(in0) (+ beta * out)
    activation_backward,  // out = alpha * f'(in0 = y, in1 = dy, in2 = x) (+ beta * out)
    binary,               // out = op(alpha * in0, alpha2 * in1) (+ beta * out)
};

// Which inputs an operation reads (bit k: input k): a mode that needs only dy and x never loads y.
LIBREDNN_HOST_DEVICE constexpr int inputs_used_by(ElementwiseKind kind, int mode) {
    switch (kind) {
        case ElementwiseKind::set: return 0;
        case ElementwiseKind::copy:
        case ElementwiseKind::activation_forward: return 1;
        case ElementwiseKind::binary: return mode == CUDNN_OP_TENSOR_SQRT || mode == CUDNN_OP_TENSOR_NOT ? 1 : 3;
        case ElementwiseKind::activation_backward:
            switch (mode) {
                case CUDNN_ACTIVATION_SIGMOID:
                case CUDNN_ACTIVATION_TANH: return 1 | 2;
                case CUDNN_ACTIVATION_IDENTITY: return 2;
                default: return 2 | 4;  // relu, clipped relu, elu, swish: dy and x
            }
    }
    return 0;
}

struct ElementwiseCall {
    ElementwiseKind kind = ElementwiseKind::copy;
    int mode = 0;  // cudnnActivationMode_t or cudnnOpTensorOp_t
    bool propagate_nan = false;
    double alpha = 1, alpha2 = 1, beta = 0;
    double coef = 0;        // clipped relu ceiling, elu alpha
    double swish_beta = 1;  // swish: x * sigmoid(swish_beta * x)
    double set_value = 0;
    bool compute_double = false;  // compute in double whatever the types
    TensorGeometry output;
    void *output_data = nullptr;
    TensorGeometry inputs[3];  // the roles of ElementwiseKind; unread inputs may be left empty
    const void *input_data[3] = {};
};

enum class ElementwisePath { flat, transpose, strided };

struct ElementwisePlan {
    ElementwisePath path = ElementwisePath::strided;
    int64_t count = 0;
    ScalarType output_type = ScalarType::f32;
    ScalarType input_types[3] = {ScalarType::f32, ScalarType::f32, ScalarType::f32};
    int inputs_used = 0;
    bool compute_double = false;  // double for double or int32 data (exact), else float
    bool blend = false;           // beta != 0: the output is read
    bool raw_copy = false;        // a copy between equal types with alpha 1, no blend: bits move unchanged
    uint64_t set_bits = 0;        // set: the value as one scalar of the output type
    StridedLayout layout;         // operand 0 the output, operand k + 1 input k; outer to inner
    // Flat path: input k sits at the output's position (bit k), else it is gathered through the layout.
    int input_flat_mask = 0;
    // Every flat operand is 16-byte aligned, and no vector straddles an innermost row when an input
    // is gathered.
    bool vectorized = false;
    // Transpose path: out[b][p][q] = in0[b][q][p], both packed.
    int64_t batch = 1, rows = 1, columns = 1;
};

// Checks types and shapes and picks the path. CUDNN_STATUS_NOT_SUPPORTED (with a reason) for element
// types the kernels do not handle or shapes that do not broadcast.
Status plan_elementwise(const ElementwiseCall &call, ElementwisePlan *plan);

// The strided path: any layouts, any supported types (elementwise_strided.cu).
Status launch_strided_elementwise(cudaStream_t stream, const ElementwiseCall &call, const ElementwisePlan &plan);

}  // namespace librednn::cuda
