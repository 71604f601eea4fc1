// What the API entry points use to turn their C arguments into problem parts: tensor and filter
// descriptors into geometries, the handle into an execution context, alpha/beta pointers into
// numbers. Only the API layer includes this; solvers see geometries, never descriptors.
#pragma once

#include "core/handle.hpp"
#include "descriptors/filter.hpp"
#include "descriptors/tensor.hpp"
#include "ops/common/solver.hpp"
#include "ops/common/tensor_geometry.hpp"

namespace librednn {

TensorGeometry geometry_of(const cudnnTensorStruct &tensor);

// A filter is packed in its format: KCRS (NCHW), KRSC (NHWC) or KCRS_VECT_C.
TensorGeometry geometry_of(const cudnnFilterStruct &filter);

ExecutionContext context_of(const cudnnContext &handle);

// cuDNN's scaling parameters (alpha, beta) point to a double when the computation is in double and
// to a float otherwise (half, bfloat16, float and integer data).
double read_scaling_factor(const void *pointer, bool in_double);

}  // namespace librednn
