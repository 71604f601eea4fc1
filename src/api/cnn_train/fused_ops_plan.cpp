// cudnnMakeFusedOpsPlan (validate the constant pack, choose the solver, report the workspace) and
// cudnnFusedOpsExecute (read the variant pack, run the plan). docs/FUSED_OPS.md has the semantics.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/fused_ops_problem.hpp"
#include "ops/common/dispatch.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnMakeFusedOpsPlan(cudnnHandle_t handle, cudnnFusedOpsPlan_t plan,
                                                const cudnnFusedOpsConstParamPack_t constPack,
                                                size_t *workspaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("plan", plan).arg("constPack", constPack);
        call.arg("workspaceSizeInBytes", static_cast<const void *>(workspaceSizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(plan);
        LIBREDNN_REQUIRE_NOT_NULL(constPack);
        LIBREDNN_REQUIRE_NOT_NULL(workspaceSizeInBytes);
        if (plan->ops != constPack->ops)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "plan was created for %s but constPack for %s; both must name the same fusion",
                                  librednn::fused_ops_name(plan->ops), librednn::fused_ops_name(constPack->ops));
        librednn::FusedOpsProblem problem;
        std::vector<librednn::FusedOpsPointer> pointers;
        LIBREDNN_CHECK(librednn::api::fused_ops_problem_of(*constPack, &problem, &pointers));
        const librednn::FusedOpsSolver *solver = nullptr;
        LIBREDNN_CHECK(
            librednn::select_solver(librednn::fused_ops_solvers(), handle->backend, problem, "fused ops", &solver));
        // A plan made again forgets what it was first: it is made only when everything above succeeded.
        plan->problem = problem;
        plan->solver = solver;
        plan->pointers = pointers;
        plan->workspace_size_in_bytes = solver->workspace_bytes(problem);
        plan->is_made = true;
        *workspaceSizeInBytes = plan->workspace_size_in_bytes;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFusedOpsExecute(cudnnHandle_t handle, const cudnnFusedOpsPlan_t plan,
                                               cudnnFusedOpsVariantParamPack_t varPack) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("plan", plan).arg("varPack", varPack);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(plan);
        LIBREDNN_REQUIRE_NOT_NULL(varPack);
        if (!plan->is_made)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "plan (%s) has not been made; call cudnnMakeFusedOpsPlan with it first",
                                  librednn::fused_ops_name(plan->ops));
        if (varPack->ops != plan->ops)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "varPack was created for %s but plan for %s; both must name the same fusion",
                                  librednn::fused_ops_name(varPack->ops), librednn::fused_ops_name(plan->ops));
        if (plan->solver->backend() != handle->backend)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "plan was made with a handle of another backend (%s); make it with this handle",
                                  plan->solver->name());
        librednn::FusedOpsBuffers buffers;
        LIBREDNN_CHECK(librednn::api::fused_ops_buffers_of(*plan, *varPack, &buffers));
        librednn::ExecutionContext context = librednn::context_of(*handle);
        context.workspace = varPack->pointers[CUDNN_PTR_WORKSPACE];
        context.workspace_bytes = varPack->workspace_size_in_bytes;
        return plan->solver->run(context, plan->problem, buffers);
    });
}
