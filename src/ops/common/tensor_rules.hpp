// Rules several op families apply to their tensors, each failing with cuDNN's status and a reason
// that names the descriptors: same dims, same data type, in place only with one layout.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <initializer_list>

namespace librednn {

// A tensor as the caller named it ("xDesc").
struct NamedTensor {
    const char *name;
    const TensorGeometry *geometry;
};

// BAD_PARAM unless every tensor has the dims of the first.
Status require_same_dims(std::initializer_list<NamedTensor> tensors);

// BAD_PARAM unless every tensor has the data type of the first.
Status require_same_type(std::initializer_list<NamedTensor> tensors);

// BAD_PARAM when `input` and `output` are the same memory but laid out differently: an element would
// be overwritten before it is read.
Status require_in_place_layout(const NamedTensor &input, const void *input_data, const NamedTensor &output,
                               const void *output_data);

}  // namespace librednn
