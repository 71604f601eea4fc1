// cudnnReduceTensor (C = alpha * reduce(A) + beta * C) and its size queries,
// cudnnGetReductionIndicesSize and cudnnGetReductionWorkspaceSize.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "core/handle.hpp"
#include "descriptors/reduce_tensor.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/reduce/solvers.hpp"
#include "ops/reduce/validate.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

// The problem the descriptors describe (scaling factors aside), with the checks every reduction
// function makes: descriptors set, C's dims A's or 1, 32-bit indices.
Status describe_problem(const cudnnReduceTensorStruct *reduce, const cudnnTensorStruct *aDesc,
                        const cudnnTensorStruct *cDesc, librednn::ReduceProblem *problem) {
    LIBREDNN_REQUIRE_NOT_NULL(reduce);
    LIBREDNN_CHECK(librednn::require_reduce_tensor_set(*reduce, "reduceTensorDesc"));
    LIBREDNN_CHECK(librednn::require_tensor_set(aDesc, "aDesc"));
    LIBREDNN_CHECK(librednn::require_tensor_set(cDesc, "cDesc"));
    problem->op = reduce->op;
    problem->compute = reduce->comp_type;
    problem->nan_opt = reduce->nan_opt;
    // MIN, MAX and AMAX give indices when asked; the other ops ignore the request.
    problem->indices =
        reduce->indices == CUDNN_REDUCE_TENSOR_FLATTENED_INDICES && librednn::reduce_op_has_indices(reduce->op);
    problem->a = librednn::geometry_of(*aDesc);
    problem->c = librednn::geometry_of(*cDesc);
    if (!librednn::broadcasts_to(problem->c, problem->a)) {
        return librednn::fail(
            CUDNN_STATUS_BAD_PARAM,
            "aDesc is %s and cDesc is %s: each dim of C must be A's or 1 (and both need as many dims)",
            librednn::join_dims(problem->a.dims, problem->a.nb_dims).c_str(),
            librednn::join_dims(problem->c.dims, problem->c.nb_dims).c_str());
    }
    if (problem->indices && reduce->indices_type != CUDNN_32BIT_INDICES) {
        return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED,
                              "reduceTensorDesc asks for %s indices: only CUDNN_32BIT_INDICES are supported",
                              librednn::enum_name(reduce->indices_type));
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetReductionIndicesSize(cudnnHandle_t handle,
                                                       const cudnnReduceTensorDescriptor_t reduceTensorDesc,
                                                       const cudnnTensorDescriptor_t aDesc,
                                                       const cudnnTensorDescriptor_t cDesc, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("reduceTensorDesc", reduceTensorDesc).arg("aDesc", aDesc).arg("cDesc", cDesc);
        call.arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::ReduceProblem problem;
        LIBREDNN_CHECK(describe_problem(reduceTensorDesc, aDesc, cDesc, &problem));
        *sizeInBytes = librednn::reduce_indices_bytes(problem);
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetReductionWorkspaceSize(cudnnHandle_t handle,
                                                         const cudnnReduceTensorDescriptor_t reduceTensorDesc,
                                                         const cudnnTensorDescriptor_t aDesc,
                                                         const cudnnTensorDescriptor_t cDesc, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("reduceTensorDesc", reduceTensorDesc).arg("aDesc", aDesc).arg("cDesc", cDesc);
        call.arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::ReduceProblem problem;
        LIBREDNN_CHECK(describe_problem(reduceTensorDesc, aDesc, cDesc, &problem));
        *sizeInBytes = librednn::dispatch_workspace_bytes(librednn::reduce_solvers(), handle->backend, problem);
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnReduceTensor(cudnnHandle_t handle, const cudnnReduceTensorDescriptor_t reduceTensorDesc,
                                            void *indices, size_t indicesSizeInBytes, void *workspace,
                                            size_t workspaceSizeInBytes, const void *alpha,
                                            const cudnnTensorDescriptor_t aDesc, const void *A, const void *beta,
                                            const cudnnTensorDescriptor_t cDesc, void *C) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("reduceTensorDesc", reduceTensorDesc).arg("indices", indices);
        call.arg("indicesSizeInBytes", indicesSizeInBytes).arg("workspace", workspace);
        call.arg("workspaceSizeInBytes", workspaceSizeInBytes).arg("alpha", alpha).arg("aDesc", aDesc).arg("A", A);
        call.arg("beta", beta).arg("cDesc", cDesc).arg("C", C);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::ReduceProblem problem;
        LIBREDNN_CHECK(describe_problem(reduceTensorDesc, aDesc, cDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(A);
        LIBREDNN_REQUIRE_NOT_NULL(C);
        LIBREDNN_CHECK(librednn::validate_reduce(problem));

        const size_t indices_needed = librednn::reduce_indices_bytes(problem);
        if (indices_needed > 0) {
            LIBREDNN_REQUIRE_NOT_NULL(indices);
            if (indicesSizeInBytes < indices_needed) {
                return librednn::fail(CUDNN_STATUS_INVALID_VALUE,
                                      "indicesSizeInBytes is %zu, the indices need %zu "
                                      "(cudnnGetReductionIndicesSize)",
                                      indicesSizeInBytes, indices_needed);
            }
        }
        librednn::ExecutionContext context = librednn::context_of(*handle);
        const size_t workspace_needed =
            librednn::dispatch_workspace_bytes(librednn::reduce_solvers(), context.backend, problem);
        if (workspace_needed > 0 && (workspace == nullptr || workspaceSizeInBytes < workspace_needed)) {
            return librednn::fail(CUDNN_STATUS_INVALID_VALUE,
                                  "workspaceSizeInBytes is %zu, the reduction needs %zu "
                                  "(cudnnGetReductionWorkspaceSize)",
                                  workspace == nullptr ? size_t{0} : workspaceSizeInBytes, workspace_needed);
        }
        context.workspace = workspace;
        context.workspace_bytes = workspaceSizeInBytes;

        const bool in_double = problem.compute == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::ReduceBuffers buffers;
        buffers.a = A;
        buffers.c = C;
        buffers.indices = indices_needed > 0 ? indices : nullptr;
        return librednn::dispatch_and_run(librednn::reduce_solvers(), context, problem, buffers, "reduce");
    });
}
