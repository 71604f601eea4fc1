// Reference transforms in double: layout changes, padding, folding and unfolding.
#include "reference/transform.hpp"

#include "ops/common/element_access.hpp"

namespace librednn::reference {

namespace {

// The offset of a spatial block position as one number, row-major over the spatial dims (the last
// fastest): k = ((o[2] * f[3]) + o[3]) * f[4] + o[4] ...
int64_t block_position(const int64_t *offsets, const uint32_t *fold, int nb_dims) {
    int64_t k = 0;
    for (int i = 2; i < nb_dims; ++i) k = k * fold[i - 2] + offsets[i];
    return k;
}

}  // namespace

bool transform_source_index(const TransformProblem &problem, const int64_t *y_index, int64_t *x_index) {
    const TensorGeometry &x = problem.x;
    const int nb_dims = x.nb_dims;
    const bool folding = problem.folds();
    int64_t fold_product = 1;
    for (int i = 2; i < nb_dims; ++i) fold_product *= problem.fold[i - 2];

    if (folding && problem.unfold) {
        // y is the unfolded x, padded: undo the padding, then find the folded element.
        const int64_t channels = x.dims[1] / fold_product;
        int64_t unpadded[kMaxDims] = {}, offsets[kMaxDims] = {};
        for (int i = 0; i < nb_dims; ++i) {
            unpadded[i] = y_index[i] - problem.pad_before[i];
            const int64_t extent = i == 1 ? channels : (i >= 2 ? x.dims[i] * problem.fold[i - 2] : x.dims[i]);
            if (unpadded[i] < 0 || unpadded[i] >= extent) return false;
        }
        for (int i = 2; i < nb_dims; ++i) offsets[i] = unpadded[i] % problem.fold[i - 2];
        x_index[0] = unpadded[0];
        x_index[1] = block_position(offsets, problem.fold, nb_dims) * channels + unpadded[1];
        for (int i = 2; i < nb_dims; ++i) x_index[i] = unpadded[i] / problem.fold[i - 2];
        return true;
    }

    // y is the padded x, folded: find the padded element, then undo the padding.
    int64_t padded[kMaxDims] = {};
    for (int i = 0; i < nb_dims; ++i) padded[i] = y_index[i];
    if (folding) {
        const int64_t padded_channels = x.dims[1] + problem.pad_before[1] + problem.pad_after[1];
        int64_t k = y_index[1] / padded_channels;
        padded[1] = y_index[1] % padded_channels;
        for (int i = nb_dims - 1; i >= 2; --i) {
            const int64_t f = problem.fold[i - 2];
            padded[i] = y_index[i] * f + k % f;
            k /= f;
            // Folding rounds the padded extent up to whole blocks: the rest is zero.
            if (padded[i] >= x.dims[i] + problem.pad_before[i] + problem.pad_after[i]) return false;
        }
    }
    for (int i = 0; i < nb_dims; ++i) {
        x_index[i] = padded[i] - problem.pad_before[i];
        if (x_index[i] < 0 || x_index[i] >= x.dims[i]) return false;
    }
    return true;
}

void transform(const TransformProblem &problem, const TransformBuffers &buffers) {
    const TensorGeometry &x = problem.x, &y = problem.y;
    int64_t index[kMaxDims] = {};
    do {
        int64_t source[kMaxDims];
        const double value =
            transform_source_index(problem, index, source) ? load_scalar(buffers.x, x.dtype, x.offset(source)) : 0.0;
        const int64_t at = y.offset(index);
        double result = problem.alpha * value;
        if (problem.beta != 0.0) result += problem.beta * load_scalar(buffers.y, y.dtype, at);
        store_scalar(buffers.y, y.dtype, at, result);
    } while (next_index(index, y.dims, y.nb_dims));
}

}  // namespace librednn::reference
