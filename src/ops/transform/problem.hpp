// A transform problem (cudnnTransformTensor, cudnnTransformTensorEx, cudnnTransformFilter) as a value:
// y = alpha * T(x) + beta * y, where T changes the layout, pads and folds. Its problem string:
// "op=transform dtype=int8 dims=... xstrides=... ytype=int8x32 ystrides=... pad_before=... fold=2x2".
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cstdint>
#include <string>

namespace librednn {

struct TransformProblem {
    // x and y hold the same scalar type (INT8 and INT8x4 count as one), except for filter transforms,
    // which convert between types.
    TensorGeometry x, y;
    // Padding (per dim, negative crops) and folding (per spatial dim) of cudnnTransformTensorEx and
    // cudnnTransformFilter; none for cudnnTransformTensor. Folding pads x, then moves each fold x fold
    // block of spatial positions into channels: y channel k * C + c holds x channel c at offset k of the
    // block (k counts the block's positions in row-major order). Unfolding is its inverse, then pads.
    int32_t pad_before[kMaxDims] = {};
    int32_t pad_after[kMaxDims] = {};
    uint32_t fold[kMaxDims] = {1, 1, 1, 1, 1, 1, 1, 1};  // per spatial dim: fold[0] is dim 2
    bool unfold = false;
    double alpha = 1.0, beta = 0.0;

    // True when the problem pads or folds (else y's element i is x's element i).
    bool reshapes() const;
    bool folds() const;
    // True when some y elements take no x element (padding with zeros, folding's round-up): then y is
    // written outright (alpha 1, beta 0). Layout changes, unfolding and cropping map every y element
    // from one x element, and blend.
    bool writes_outright() const;
    bool operator==(const TransformProblem &other) const;
};

struct TransformBuffers {
    const void *x = nullptr;
    void *y = nullptr;  // read too when beta != 0
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const TransformProblem &problem, const TransformBuffers &buffers);

ProblemString to_problem_string(const TransformProblem &problem);
bool parse_transform_problem(const ProblemString &text, TransformProblem *problem, std::string *error);

}  // namespace librednn
