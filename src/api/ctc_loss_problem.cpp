// CTC loss descriptors and label arrays to a validated problem, and the checked run.
#include "api/ctc_loss_problem.hpp"

#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/ctc_loss/validate.hpp"

#include <algorithm>

namespace librednn::api {

Status ctc_loss_problem_of(const cudnnContext &handle, cudnnCTCLossAlgo_t algo, const cudnnCTCLossStruct *ctc,
                           const cudnnTensorStruct *probs, const cudnnTensorStruct *gradients, bool on_device,
                           const CtcLabelArrays &arrays, CtcLossProblem *problem) {
    if (ctc == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "ctcLossDesc is NULL");
    LIBREDNN_CHECK(require_ctc_loss_set(*ctc));
    LIBREDNN_CHECK(require_tensor_set(probs, "probsDesc"));
    if (gradients != nullptr) LIBREDNN_CHECK(require_tensor_set(gradients, "gradientsDesc"));
    CtcLossProblem p;
    p.probs = geometry_of(*probs);
    if (gradients != nullptr) p.gradients = geometry_of(*gradients);
    p.compute_type = ctc->comp_type;
    p.normalization = ctc->norm_mode;
    p.grad_mode = ctc->grad_mode;
    p.algorithm = algo;
    p.lengths_on_device = on_device;
    if (p.probs.nb_dims == 3 && !on_device) {
        if (arrays.labels == nullptr) return null_argument("labels");
        if (arrays.label_lengths == nullptr) return null_argument("labelLengths");
        if (arrays.input_lengths == nullptr) return null_argument("inputLengths");
        const size_t n = static_cast<size_t>(p.probs.dims[1]);
        p.label_lengths.assign(arrays.label_lengths, arrays.label_lengths + n);
        p.input_lengths.assign(arrays.input_lengths, arrays.input_lengths + n);
        p.max_label_length = 0;
        for (int length : p.label_lengths) p.max_label_length = std::max(p.max_label_length, length);
    } else {
        p.max_label_length = ctc->max_label_length;
    }
    LIBREDNN_CHECK(validate_ctc_loss(p));
    if (!on_device) {
        LIBREDNN_CHECK(validate_ctc_labels(p, arrays.labels, arrays.label_lengths, arrays.input_lengths));
    } else if (handle.backend == Backend::host && arrays.labels != nullptr) {
        // The _v8 arrays are host memory on the host backend: check them as the host arrays are.
        if (arrays.label_lengths == nullptr) return null_argument("labelLengths");
        if (arrays.input_lengths == nullptr) return null_argument("inputLengths");
        LIBREDNN_CHECK(validate_ctc_labels(p, arrays.labels, arrays.label_lengths, arrays.input_lengths));
    }
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

Status ctc_loss_solver_for(const cudnnContext &handle, const CtcLossProblem &problem, const CtcLossSolver **solver) {
    return select_solver_for_algorithm(ctc_loss_solvers(), handle.backend, problem, static_cast<int>(problem.algorithm),
                                       problem.algorithm == CUDNN_CTC_LOSS_ALGO_DETERMINISTIC
                                           ? "CUDNN_CTC_LOSS_ALGO_DETERMINISTIC"
                                           : "CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC",
                                       "ctc_loss", solver);
}

Status run_ctc_loss(const cudnnContext &handle, const CtcLossProblem &problem, const CtcLossBuffers &buffers,
                    void *workspace, size_t workspace_bytes) {
    const CtcLossSolver *solver = nullptr;
    LIBREDNN_CHECK(ctc_loss_solver_for(handle, problem, &solver));
    const size_t needed = solver->workspace_bytes(problem);
    if (workspace_bytes < needed) {
        return fail(CUDNN_STATUS_BAD_PARAM, "workSpaceSizeInBytes is %zu, this problem needs %zu (%s)", workspace_bytes,
                    needed,
                    problem.lengths_on_device ? "cudnnGetCTCLossWorkspaceSize_v8" : "cudnnGetCTCLossWorkspaceSize");
    }
    if (needed > 0 && workspace == nullptr) return null_argument("workspace");
    ExecutionContext context = context_of(handle);
    context.workspace = workspace;
    context.workspace_bytes = workspace_bytes;
    LIBREDNN_CHECK(checked_buffers(problem, buffers, workspace, needed));
    return solver->run(context, problem, buffers);
}

}  // namespace librednn::api
