// The reference dropout (cudnnDropoutForward/Backward), over TensorViews.
//
// Forward, for the `call`-th call with the states' `key` (descriptors/dropout.hpp, "The draw"): element
// e (row-major position in x's dims) is dropped when word e % 4 of the Philox draw for e / 4 is below
// floor(p * 2^32). Then y_e = x_e / (1 - p) where kept and 0 where dropped (y's element e is the e-th in
// row-major order of y's dims), and mask[e] = 1 where kept, 0 where dropped. Backward: dx_e = dy_e /
// (1 - p) where mask[e] is 1, else 0. The divisions are in double and each result is rounded once.
// Both return CUDNN_STATUS_SUCCESS, or CUDNN_STATUS_BAD_PARAM (reason recorded by librednn::fail()) when
// the views hold different element counts; then nothing is written.
#pragma once

#include "reference/tensor_view.hpp"

#include <cstdint>
#include <vector>

namespace librednn::reference {

Status dropout_forward(float probability, const uint32_t key[2], uint64_t call, const TensorView &x,
                       const TensorView &y, std::vector<uint8_t> *mask);

Status dropout_backward(float probability, const std::vector<uint8_t> &mask, const TensorView &dy,
                        const TensorView &dx);

}  // namespace librednn::reference
