// What the CUDA tensor-op solvers share: the element types their kernels take, asked the way
// applicable() answers (yes, or a reason naming the tensor and its type).
#pragma once

#include "cuda/common/scalar_type.hpp"
#include "ops/common/solver.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn::cuda {

// Float, double, half and bfloat16: what the activation, softmax and reduction kernels compute on.
inline Applicability require_floating(const TensorGeometry &tensor, const char *name) {
    if (is_floating_point(tensor.dtype)) return Applicability::yes();
    return Applicability::no_format("%s holds %s: the CUDA kernels take float, double, half and bfloat16", name,
                                    type_name(tensor.dtype));
}

// Any type the element-wise kernels read and write (float, double, half, bfloat16, int8, uint8, int32 and
// the vectorised int8 types).
inline Applicability require_element_type(const TensorGeometry &tensor, const char *name) {
    ScalarType scalar;
    if (scalar_type_of(tensor.dtype, &scalar)) return Applicability::yes();
    return Applicability::no_format(
        "%s holds %s: the CUDA kernels take float, double, half, bfloat16, int8, "
        "uint8 and int32 (and vectorised int8)",
        name, type_name(tensor.dtype));
}

}  // namespace librednn::cuda
