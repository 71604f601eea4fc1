// Transform rules: y's dims follow from x's, padding and folding; one scalar type (tensors); padding
// with zeros and folding only with alpha = 1 and beta = 0; never in place.
#include "ops/transform/validate.hpp"

#include "core/checked_math.hpp"
#include "ops/common/buffer_alignment.hpp"
#include "ops/common/element_access.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

bool transform_supports(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_FLOAT:
        case CUDNN_DATA_DOUBLE:
        case CUDNN_DATA_HALF:
        case CUDNN_DATA_BFLOAT16:
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_INT32:
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_UINT8x4:
        case CUDNN_DATA_INT8x32: return true;
        default: return false;
    }
}

bool transform_output_dims(const TransformProblem &problem, int64_t *dims, std::string *reason) {
    const TensorGeometry &x = problem.x;
    // Fold factors are any uint32 the caller gave: every product saturates, and a saturated dim can
    // match no descriptor's.
    int64_t fold_product = 1;
    for (int i = 2; i < x.nb_dims; ++i) fold_product = saturating_mul(fold_product, problem.fold[i - 2]);
    int64_t unpadded[kMaxDims];
    for (int i = 0; i < x.nb_dims; ++i) unpadded[i] = x.dims[i];
    if (problem.unfold && fold_product > 1) {
        if (x.dims[1] % fold_product != 0) {
            *reason = "x has " + std::to_string(x.dims[1]) + " channels, not a multiple of the fold product " +
                      std::to_string(fold_product);
            return false;
        }
        unpadded[1] = x.dims[1] / fold_product;
        for (int i = 2; i < x.nb_dims; ++i) unpadded[i] = saturating_mul(x.dims[i], problem.fold[i - 2]);
    }
    for (int i = 0; i < x.nb_dims; ++i) {
        dims[i] = saturating_add(unpadded[i], int64_t{problem.pad_before[i]} + problem.pad_after[i]);
        if (dims[i] <= 0) {
            *reason = "padding leaves dim " + std::to_string(i) + " empty";
            return false;
        }
    }
    if (!problem.unfold && fold_product > 1) {
        dims[1] = saturating_mul(dims[1], fold_product);
        for (int i = 2; i < x.nb_dims; ++i) dims[i] = (dims[i] + problem.fold[i - 2] - 1) / problem.fold[i - 2];
    }
    return true;
}

Status validate_transform(const TransformProblem &problem, const TransformBuffers &buffers, bool converts_types) {
    const TensorGeometry &x = problem.x, &y = problem.y;
    const char *x_name = converts_types ? "srcDesc" : "xDesc";
    const char *y_name = converts_types ? "destDesc" : "yDesc";
    if (x.nb_dims != y.nb_dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has %d dims and %s %d: they must have as many", x_name, x.nb_dims,
                    y_name, y.nb_dims);
    }
    int64_t expected[kMaxDims];
    std::string reason;
    if (!transform_output_dims(problem, expected, &reason)) return fail(CUDNN_STATUS_BAD_PARAM, "%s", reason.c_str());
    for (int i = 0; i < y.nb_dims; ++i) {
        if (y.dims[i] != expected[i]) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s, but %s transformed is %s", y_name,
                        join_dims(y.dims, y.nb_dims).c_str(), x_name, join_dims(expected, y.nb_dims).c_str());
        }
    }
    if (!converts_types && scalar_type_of(x.dtype) != scalar_type_of(y.dtype)) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s holds %s and %s holds %s: a tensor transform changes the layout, not the data type", x_name,
                    type_name(x.dtype), y_name, type_name(y.dtype));
    }
    for (const TensorGeometry *g : {&x, &y}) {
        if (!transform_supports(g->dtype)) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "%s holds %s: transforms move float, double, half, bfloat16, int8, uint8 and int32 data",
                        g == &x ? x_name : y_name, type_name(g->dtype));
        }
    }
    // Transforms that take every y element from one x element blend: layout changes, unfolding and
    // cropping (the last step of a folded backward-data convolution). Padding with zeros and folding
    // write y outright.
    if (problem.writes_outright() && (problem.alpha != 1.0 || problem.beta != 0.0)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "padding and folding transforms need alpha = 1 and beta = 0, got alpha = %g and beta = %g "
                    "(only layout changes, unfolding and cropping blend)",
                    problem.alpha, problem.beta);
    }
    if (buffers.x == buffers.y) {
        return fail(CUDNN_STATUS_BAD_PARAM, "x and y are the same memory: a transform cannot run in place");
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const TransformProblem &p, const TransformBuffers &b) {
    return require_aligned({{"x", b.x, p.x.dtype}, {"y", b.y, p.y.dtype}});
}

}  // namespace librednn
