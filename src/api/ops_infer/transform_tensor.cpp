// cudnnTransformTensor (layout changes), cudnnTransformTensorEx (with a transform descriptor: layout,
// padding, folding) and cudnnTransformFilter (the same for filters, with type conversion).
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "descriptors/filter.hpp"
#include "descriptors/tensor_transform.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/transform/solvers.hpp"
#include "ops/transform/validate.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

// The scaling factors are doubles when both sides hold double data, else floats.
void read_scaling(librednn::TransformProblem *problem, const void *alpha, const void *beta) {
    const bool in_double = problem->x.dtype == CUDNN_DATA_DOUBLE && problem->y.dtype == CUDNN_DATA_DOUBLE;
    problem->alpha = librednn::read_scaling_factor(alpha, in_double);
    problem->beta = librednn::read_scaling_factor(beta, in_double);
}

void apply_descriptor(const cudnnTensorTransformStruct &transform, librednn::TransformProblem *problem) {
    for (uint32_t i = 0; i < transform.nb_dims; ++i) {
        problem->pad_before[i] = transform.pad_before[i];
        problem->pad_after[i] = transform.pad_after[i];
    }
    for (uint32_t i = 0; i + 2 < transform.nb_dims; ++i) problem->fold[i] = transform.fold[i];
    problem->unfold = transform.direction == CUDNN_TRANSFORM_UNFOLD;
}

Status require_transform_set(const cudnnTensorTransformStruct *transform) {
    if (transform == nullptr) return librednn::api::null_argument("transDesc");
    if (!transform->is_set) {
        return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                              "transDesc has not been set (call cudnnSetTensorTransformDescriptor first)");
    }
    return CUDNN_STATUS_SUCCESS;
}

Status run(cudnnHandle_t handle, const librednn::TransformProblem &problem, const librednn::TransformBuffers &buffers) {
    return librednn::dispatch_and_run(librednn::transform_solvers(), librednn::context_of(*handle), problem, buffers,
                                      "transform");
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnTransformTensor(cudnnHandle_t handle, const void *alpha,
                                               const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
                                               const cudnnTensorDescriptor_t yDesc, void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("alpha", alpha).arg("xDesc", xDesc).arg("x", x).arg("beta", beta);
        call.arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_tensor_set(xDesc, "xDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(yDesc, "yDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);

        librednn::TransformProblem problem;
        problem.x = librednn::geometry_of(*xDesc);
        problem.y = librednn::geometry_of(*yDesc);
        librednn::TransformBuffers buffers;
        buffers.x = x;
        buffers.y = y;
        LIBREDNN_CHECK(librednn::validate_transform(problem, buffers, false));
        read_scaling(&problem, alpha, beta);
        return run(handle, problem, buffers);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnTransformTensorEx(cudnnHandle_t handle, const cudnnTensorTransformDescriptor_t transDesc,
                                                 const void *alpha, const cudnnTensorDescriptor_t srcDesc,
                                                 const void *srcData, const void *beta,
                                                 const cudnnTensorDescriptor_t destDesc, void *destData) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("transDesc", transDesc).arg("alpha", alpha).arg("srcDesc", srcDesc);
        call.arg("srcData", srcData).arg("beta", beta).arg("destDesc", destDesc).arg("destData", destData);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(require_transform_set(transDesc));
        LIBREDNN_CHECK(librednn::require_tensor_set(srcDesc, "srcDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(destDesc, "destDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(srcData);
        LIBREDNN_REQUIRE_NOT_NULL(destData);
        if (srcDesc->nb_dims != destDesc->nb_dims) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "srcDesc has %d dims and destDesc %d: they must have as many",
                                  srcDesc->nb_dims, destDesc->nb_dims);
        }
        // The descriptor's own rules (as cudnnInitTransformDest applies them): 4d, vector widths, ...
        cudnnTensorStruct expected;
        LIBREDNN_CHECK(librednn::transform_destination(*transDesc, *srcDesc, &expected));

        librednn::TransformProblem problem;
        problem.x = librednn::geometry_of(*srcDesc);
        problem.y = librednn::geometry_of(*destDesc);
        apply_descriptor(*transDesc, &problem);
        librednn::TransformBuffers buffers;
        buffers.x = srcData;
        buffers.y = destData;
        read_scaling(&problem, alpha, beta);
        LIBREDNN_CHECK(librednn::validate_transform(problem, buffers, false));
        return run(handle, problem, buffers);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnTransformFilter(cudnnHandle_t handle, const cudnnTensorTransformDescriptor_t transDesc,
                                               const void *alpha, const cudnnFilterDescriptor_t srcDesc,
                                               const void *srcData, const void *beta,
                                               const cudnnFilterDescriptor_t destDesc, void *destData) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("transDesc", transDesc).arg("alpha", alpha).arg("srcDesc", srcDesc);
        call.arg("srcData", srcData).arg("beta", beta).arg("destDesc", destDesc).arg("destData", destData);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(require_transform_set(transDesc));
        LIBREDNN_CHECK(librednn::require_filter_set(srcDesc, "srcDesc"));
        LIBREDNN_CHECK(librednn::require_filter_set(destDesc, "destDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(srcData);
        LIBREDNN_REQUIRE_NOT_NULL(destData);
        if (static_cast<int>(transDesc->nb_dims) != srcDesc->nb_dims || srcDesc->nb_dims != destDesc->nb_dims) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "transDesc is set for %u dims, srcDesc has %d and destDesc %d: they must agree",
                                  transDesc->nb_dims, srcDesc->nb_dims, destDesc->nb_dims);
        }
        // Filters are packed in their format (KCRS, KRSC, KCRS_VECT_C), and may change data type.
        librednn::TransformProblem problem;
        problem.x = librednn::geometry_of(*srcDesc);
        problem.y = librednn::geometry_of(*destDesc);
        apply_descriptor(*transDesc, &problem);
        librednn::TransformBuffers buffers;
        buffers.x = srcData;
        buffers.y = destData;
        read_scaling(&problem, alpha, beta);
        LIBREDNN_CHECK(librednn::validate_transform(problem, buffers, true));
        return run(handle, problem, buffers);
    });
}
