// Spatial transformer descriptors to a validated problem, and running one.
#include "api/spatial_tf_problem.hpp"

#include "api/from_descriptors.hpp"
#include "core/cuda_failure.hpp"
#include "core/cuda_runtime.hpp"
#include "core/fault_injection.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/spatial_tf/solvers.hpp"
#include "ops/spatial_tf/validate.hpp"

namespace librednn::api {

Status spatial_tf_problem_of(SpatialTfStage stage, Direction direction, const cudnnSpatialTransformerStruct *st,
                             const cudnnTensorStruct *x, const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                             const cudnnTensorStruct *dy, SpatialTfProblem *problem) {
    if (st == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "stDesc is NULL");
    if (!st->is_set) {
        return fail(CUDNN_STATUS_BAD_PARAM, "stDesc was never set (cudnnSetSpatialTransformerNdDescriptor)");
    }
    // cudnnSetSpatialTransformerNdDescriptor takes nothing else; checked again for the kernels' sake.
    if (st->nb_dims != kSpatialTransformerDims || st->sampler != CUDNN_SAMPLER_BILINEAR) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "stDesc must be a 4-d CUDNN_SAMPLER_BILINEAR transformer");
    }
    SpatialTfProblem p;
    p.stage = stage;
    p.direction = direction;
    p.dtype = st->data_type;
    p.n = st->dims[0];
    p.c = st->dims[1];
    p.h = st->dims[2];
    p.w = st->dims[3];
    if (stage == SpatialTfStage::sampler) {
        LIBREDNN_CHECK(require_tensor_set(x, "xDesc"));
        p.x = geometry_of(*x);
        if (direction == Direction::forward) {
            LIBREDNN_CHECK(require_tensor_set(y, "yDesc"));
            p.y = geometry_of(*y);
        } else {
            LIBREDNN_CHECK(require_tensor_set(dx, "dxDesc"));
            LIBREDNN_CHECK(require_tensor_set(dy, "dyDesc"));
            p.dx = geometry_of(*dx);
            p.dy = geometry_of(*dy);
        }
    }
    LIBREDNN_CHECK(validate_spatial_tf(p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

Status run_spatial_tf(const cudnnContext &handle, const SpatialTfProblem &problem, const SpatialTfBuffers &buffers) {
    ExecutionContext context = context_of(handle);
    const size_t workspace_bytes = dispatch_workspace_bytes(spatial_tf_solvers(), context.backend, problem);
    if (workspace_bytes == 0) {
        return dispatch_and_run(spatial_tf_solvers(), context, problem, buffers, "spatial transformer");
    }
#if LIBREDNN_HAVE_CUDA
    if (context.backend == Backend::cuda) {
        void *workspace = nullptr;
        const cudaError_t err =
            LIBREDNN_CUDA_SITE(device_allocation, cudaMallocAsync(&workspace, workspace_bytes, context.stream));
        if (err != cudaSuccess) {
            return cuda_failure(err, "allocating the %zu bytes of scratch the sampler needs", workspace_bytes);
        }
        context.workspace = workspace;
        context.workspace_bytes = workspace_bytes;
        const Status status = dispatch_and_run(spatial_tf_solvers(), context, problem, buffers, "spatial transformer");
        cudaFreeAsync(workspace, context.stream);
        return status;
    }
#endif
    return fail(CUDNN_STATUS_INTERNAL_ERROR, "a host spatial transformer solver asked for %zu bytes of workspace",
                workspace_bytes);
}

}  // namespace librednn::api
