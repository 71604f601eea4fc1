// Walking N same-shaped operands through memory row by row: the host's generic strided loop. Dims
// are ordered by the first operand's strides (so its innermost dim becomes the row), dims of extent
// 1 are dropped and dims every operand lays out contiguously are merged, so packed tensors of one
// layout walk as a single row. A broadcast operand carries stride 0 on its broadcast dims.
#pragma once

#include "ops/common/tensor_geometry.hpp"

#include <cstdint>
#include <utility>

namespace librednn::host {

template <int N>
struct StridedWalk {
    int nb_dims = 0;  // after dropping and merging; 0 for a single element
    int64_t dims[kMaxDims] = {};
    int64_t strides[N][kMaxDims] = {};
};

// `strides[k]` are operand k's strides (in elements) over `dims`.
template <int N>
StridedWalk<N> make_walk(int nb_dims, const int64_t *dims, const int64_t *const (&strides)[N]) {
    int order[kMaxDims];
    int count = 0;
    for (int i = 0; i < nb_dims; ++i) {
        if (dims[i] > 1) order[count++] = i;
    }
    // Outermost first: larger strides of operand 0 first; ties keep the NCHW order (a stable
    // insertion sort: at most eight dims).
    for (int i = 1; i < count; ++i) {
        for (int j = i; j > 0 && strides[0][order[j]] > strides[0][order[j - 1]]; --j)
            std::swap(order[j], order[j - 1]);
    }

    StridedWalk<N> walk;
    for (int position = 0; position < count; ++position) {
        const int dim = order[position];
        if (walk.nb_dims > 0) {
            // Merge into the previous (outer) dim when it continues exactly where this one ends.
            const int last = walk.nb_dims - 1;
            bool mergeable = true;
            for (int k = 0; k < N; ++k) mergeable = mergeable && walk.strides[k][last] == strides[k][dim] * dims[dim];
            if (mergeable) {
                walk.dims[last] *= dims[dim];
                for (int k = 0; k < N; ++k) walk.strides[k][last] = strides[k][dim];
                continue;
            }
        }
        walk.dims[walk.nb_dims] = dims[dim];
        for (int k = 0; k < N; ++k) walk.strides[k][walk.nb_dims] = strides[k][dim];
        ++walk.nb_dims;
    }
    return walk;
}

// Calls row(offsets, count, steps) for every row: element j of the row is at offsets[k] + j *
// steps[k] in operand k.
template <int N, class Row>
void for_each_row(const StridedWalk<N> &walk, Row &&row) {
    int64_t offsets[N] = {};
    int64_t steps[N] = {};
    if (walk.nb_dims == 0) {
        row(offsets, int64_t{1}, steps);
        return;
    }
    const int inner = walk.nb_dims - 1;
    for (int k = 0; k < N; ++k) steps[k] = walk.strides[k][inner];
    int64_t index[kMaxDims] = {};
    while (true) {
        row(offsets, walk.dims[inner], steps);
        // Advance the outer dims like an odometer, keeping the offsets in step.
        int dim = inner - 1;
        for (; dim >= 0; --dim) {
            for (int k = 0; k < N; ++k) offsets[k] += walk.strides[k][dim];
            if (++index[dim] < walk.dims[dim]) break;
            for (int k = 0; k < N; ++k) offsets[k] -= walk.strides[k][dim] * walk.dims[dim];
            index[dim] = 0;
        }
        if (dim < 0) return;
    }
}

}  // namespace librednn::host
