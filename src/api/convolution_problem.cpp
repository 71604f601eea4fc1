// Building, checking, running, ranking and timing convolution problems for the C API.
#include "api/convolution_problem.hpp"

#include "api/from_descriptors.hpp"
#include "api/solver_timing.hpp"
#include "core/cuda_runtime.hpp"
#include "core/fault_injection.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/common/element_access.hpp"
#include "ops/conv/algorithms.hpp"
#include "ops/conv/validate.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace librednn::api {

namespace {

const char *family_of(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::forward: return "convolution forward";
        case ConvDirection::backward_data: return "convolution backward data";
        case ConvDirection::backward_filter: return "convolution backward filter";
    }
    return "convolution";
}

// The math a solver's result is reported with: the host computes with plain multiply-adds (FMA where
// the caller asked for it, DEFAULT otherwise: it never uses tensor cores).
cudnnMathType_t reported_math(const ConvSolver &solver, const ConvProblem &problem) {
    if (solver.backend() == Backend::host) {
        return problem.math_type == CUDNN_FMA_MATH ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH;
    }
    return problem.math_type;
}

// `problem` (forward, no epilogue) as cudnnConvolutionBiasActivationForward would take it with a ReLU and a bias of
// y's channels: false where the fused call takes no such problem.
bool with_fused_epilogue(const ConvProblem &problem, ConvProblem *fused) {
    if (problem.direction != ConvDirection::forward || problem.epilogue.fused) return false;
    ConvProblem f = problem;
    ConvEpilogue &e = f.epilogue;
    e.fused = true;
    e.z = problem.y;
    const int nb_dims = problem.y.nb_dims;
    int64_t bias_dims[kMaxDims];
    for (int i = 0; i < nb_dims; ++i) bias_dims[i] = i == 1 ? problem.y.dims[1] : 1;
    const cudnnDataType_t y_type = problem.y.dtype;
    const bool integer_y = y_type == CUDNN_DATA_INT8 || y_type == CUDNN_DATA_INT8x4 || y_type == CUDNN_DATA_INT8x32 ||
                           y_type == CUDNN_DATA_UINT8 || y_type == CUDNN_DATA_UINT8x4;
    e.bias = packed_geometry(integer_y ? CUDNN_DATA_FLOAT : y_type, nb_dims, bias_dims, PackedLayout::nchw);
    e.activation = CUDNN_ACTIVATION_RELU;
    f.beta = 0.0;
    if (validate_convolution(f) != CUDNN_STATUS_SUCCESS) {
        clear_failure_reason();
        return false;
    }
    *fused = f;
    return true;
}

ConvAlgorithmResult result_of(const cudnnContext &handle, const ConvSolver &solver, const ConvProblem &problem) {
    ConvAlgorithmResult r;
    r.algorithm = solver.algorithm();
    r.status = CUDNN_STATUS_SUCCESS;
    r.memory = conv_workspace_bytes(handle, problem, solver);
    r.determinism = solver.deterministic() ? CUDNN_DETERMINISTIC : CUDNN_NON_DETERMINISTIC;
    r.math_type = reported_math(solver, problem);
    return r;
}

// Memory of the handle's backend, freed with it.
class BackendBuffer {
public:
    BackendBuffer(const cudnnContext &handle, size_t bytes) : backend_(handle.backend) {
        if (bytes == 0) return;
#if LIBREDNN_HAVE_CUDA
        if (backend_ == Backend::cuda) {
            if (LIBREDNN_CUDA_SITE(device_allocation, cudaMalloc(&data_, bytes)) != cudaSuccess) {
                cudaGetLastError();
                data_ = nullptr;
            }
            return;
        }
#endif
        if (LIBREDNN_FAULT(host_allocation)) return;
        host_.reset(new (std::nothrow) unsigned char[bytes]());
        data_ = host_.get();
    }
    ~BackendBuffer() {
#if LIBREDNN_HAVE_CUDA
        if (backend_ == Backend::cuda && data_ != nullptr) cudaFree(data_);
#endif
    }
    BackendBuffer(const BackendBuffer &) = delete;
    BackendBuffer &operator=(const BackendBuffer &) = delete;
    void *get() const { return data_; }

private:
    [[maybe_unused]] Backend backend_;  // read only where the CUDA backend is built
    void *data_ = nullptr;
    std::unique_ptr<unsigned char[]> host_;
};

size_t bytes_of(const TensorGeometry &g) { return static_cast<size_t>(g.span_elements()) * scalar_size_of(g.dtype); }

}  // namespace

ConvArgumentNames conv_argument_names(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::forward: return {"xDesc", "wDesc", "yDesc"};
        case ConvDirection::backward_data: return {"dxDesc", "wDesc", "dyDesc"};
        case ConvDirection::backward_filter: return {"xDesc", "dwDesc", "dyDesc"};
    }
    return {"x", "w", "y"};
}

Status convolution_problem_of(ConvDirection direction, const cudnnTensorStruct *x, const cudnnFilterStruct *w,
                              const cudnnConvolutionStruct *conv, const cudnnTensorStruct *y, ConvProblem *problem) {
    const ConvArgumentNames names = conv_argument_names(direction);
    LIBREDNN_CHECK(require_tensor_set(x, names.x));
    LIBREDNN_CHECK(require_filter_set(w, names.w));
    if (conv == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "convDesc is NULL");
    LIBREDNN_CHECK(require_convolution_set(*conv, "convDesc"));
    LIBREDNN_CHECK(require_tensor_set(y, names.y));
    ConvProblem p;
    p.direction = direction;
    p.x = geometry_of(*x);
    p.w = geometry_of(*w);
    p.y = geometry_of(*y);
    p.filter_format = w->format;
    p.spatial_dims = conv->spatial_dims;
    for (int i = 0; i < conv->spatial_dims; ++i) {
        p.pad[i] = conv->pads[i];
        p.stride[i] = conv->strides[i];
        p.dilation[i] = conv->dilations[i];
    }
    p.groups = conv->group_count;
    p.mode = conv->mode;
    p.compute_type = conv->compute_type;
    p.math_type = conv->math_type;
    LIBREDNN_CHECK(validate_convolution(p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

Status add_bias_activation(const cudnnTensorStruct *z, const cudnnTensorStruct *bias,
                           const cudnnActivationStruct *activation, double alpha2, ConvProblem *problem) {
    LIBREDNN_CHECK(require_tensor_set(z, "zDesc"));
    LIBREDNN_CHECK(require_tensor_set(bias, "biasDesc"));
    if (activation == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "activationDesc is NULL");
    LIBREDNN_CHECK(require_activation_set(*activation, "activationDesc"));
    ConvEpilogue &e = problem->epilogue;
    e.fused = true;
    e.alpha2 = alpha2;
    e.z = geometry_of(*z);
    e.bias = geometry_of(*bias);
    e.activation = activation->mode;
    e.nan_opt = activation->nan_opt;
    e.coef = activation->coef;
    problem->beta = 0.0;
    if (e.z.dtype != problem->y.dtype) {
        return fail(CUDNN_STATUS_BAD_PARAM, "zDesc holds %s and yDesc %s: they must hold one type",
                    data_type_short_name(e.z.dtype), data_type_short_name(problem->y.dtype));
    }
    return validate_convolution(*problem);
}

bool conv_scaling_in_double(const ConvProblem &problem) { return problem.x.dtype == CUDNN_DATA_DOUBLE; }

Status check_conv_algorithm(ConvDirection direction, int algorithm) {
    if (conv_algorithm_name(direction, algorithm) != nullptr) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "algo is %d, not one of the %d %s algorithms", algorithm,
                conv_algorithm_count(direction), family_of(direction));
}

Status conv_solver_for(const cudnnContext &handle, const ConvProblem &problem, int algorithm,
                       const ConvSolver **solver) {
    LIBREDNN_CHECK(check_conv_algorithm(problem.direction, algorithm));
    ConvProblem asked = problem;  // logged with the algorithm, as the call would re-run
    asked.algorithm = algorithm;
    return select_solver_for_algorithm(conv_solvers(problem.direction), handle.backend, asked, algorithm,
                                       conv_algorithm_name(problem.direction, algorithm), family_of(problem.direction),
                                       solver);
}

size_t conv_workspace_bytes(const cudnnContext &handle, const ConvProblem &problem, const ConvSolver &solver) {
    size_t bytes = solver.workspace_bytes(problem);
    // cuDNN has one forward workspace query for cudnnConvolutionForward and the fused
    // cudnnConvolutionBiasActivationForward, and the epilogue alone can move a problem to another solver of the same
    // algorithm (oneDNN's take none): the query answers for both.
    ConvProblem fused;
    const ConvSolver *fused_solver = nullptr;
    if (with_fused_epilogue(problem, &fused)) {
        if (conv_solver_for(handle, fused, solver.algorithm(), &fused_solver) == CUDNN_STATUS_SUCCESS) {
            bytes = std::max(bytes, fused_solver->workspace_bytes(fused));
        } else {
            clear_failure_reason();  // the fused call would fail with its own reason; this query does not
        }
    }
    return bytes;
}

Status run_convolution(const cudnnContext &handle, const ConvProblem &problem, int algorithm,
                       const ConvBuffers &buffers, void *workspace, size_t workspace_bytes) {
    const ConvSolver *solver = nullptr;
    LIBREDNN_CHECK(conv_solver_for(handle, problem, algorithm, &solver));
    const size_t needed = solver->workspace_bytes(problem);
    if (workspace_bytes < needed) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "workSpaceSizeInBytes is %zu, but %s needs %zu bytes for this problem (the size its "
                    "Get...WorkspaceSize query gives)",
                    workspace_bytes, conv_algorithm_name(problem.direction, algorithm), needed);
    }
    if (needed > 0 && workspace == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM, "workSpace is NULL, but %s needs %zu bytes of workspace",
                    conv_algorithm_name(problem.direction, algorithm), needed);
    }
    LIBREDNN_CHECK(checked_buffers(problem, buffers, workspace, needed));
    ExecutionContext context = context_of(handle);
    context.workspace = workspace;
    context.workspace_bytes = workspace_bytes;
    return solver->run(context, problem, buffers);
}

std::vector<ConvAlgorithmResult> rank_conv_algorithms(const cudnnContext &handle, const ConvProblem &problem) {
    const int count = conv_algorithm_count(problem.direction);
    std::vector<bool> listed(static_cast<size_t>(count), false);
    std::vector<ConvAlgorithmResult> results;
    const auto ranking = rank_solvers(conv_solvers(problem.direction), handle.backend, problem);
    // With dispatch logging, the ranking explains itself too: the heuristic's first choice and why each
    // solver ranked below it cannot run (a oneDNN solver skipped for a CUDNN_CONVOLUTION problem, ...).
    const std::string family = std::string(family_of(problem.direction)) + " ranking";  // outlives `log`
    DispatchLog log(family.c_str());
    if (log.enabled()) {
        // The line's problem string names the algorithm the ranking puts first, so that it reruns that choice
        // (and reads back unchanged in librednn-bench).
        ConvProblem first = problem;
        for (const auto &ranked : ranking) {
            if (ranked.answer.ok() && !log.has_chosen()) {
                log.chose(ranked.solver->name());
                first.algorithm = ranked.solver->algorithm();
            }
            if (!ranked.answer.ok()) log.skipped(ranked.solver->name(), ranked.answer.reason());
        }
        if (log.has_chosen()) log.finish(handle.backend, true, to_problem_string(first).to_string());
    }
    for (const auto &ranked : ranking) {
        const int algorithm = ranked.solver->algorithm();
        if (!ranked.answer.ok() || algorithm < 0 || algorithm >= count || listed[static_cast<size_t>(algorithm)])
            continue;
        listed[static_cast<size_t>(algorithm)] = true;
        results.push_back(result_of(handle, *ranked.solver, problem));
    }
    for (int algorithm = 0; algorithm < count; ++algorithm) {
        if (listed[static_cast<size_t>(algorithm)]) continue;
        ConvAlgorithmResult r;
        r.algorithm = algorithm;
        r.status = CUDNN_STATUS_NOT_SUPPORTED;
        results.push_back(r);
    }
    return results;
}

std::vector<ConvAlgorithmResult> find_conv_algorithms(const cudnnContext &handle, const ConvProblem &problem,
                                                      const ConvBuffers &buffers, void *workspace,
                                                      size_t workspace_bytes) {
    std::vector<ConvAlgorithmResult> timed, rest;
    for (ConvAlgorithmResult r : rank_conv_algorithms(handle, problem)) {
        if (r.status != CUDNN_STATUS_SUCCESS) {
            rest.push_back(r);
            continue;
        }
        if (r.memory > workspace_bytes || (r.memory > 0 && workspace == nullptr)) {
            r.status = CUDNN_STATUS_ALLOC_FAILED;
            rest.push_back(r);
            continue;
        }
        const ConvSolver *solver = nullptr;
        // The ranking found it applicable; selecting it again only fails if the environment changed.
        if (conv_solver_for(handle, problem, r.algorithm, &solver) != CUDNN_STATUS_SUCCESS) {
            r.status = CUDNN_STATUS_NOT_SUPPORTED;
            rest.push_back(r);
            continue;
        }
        float best = 0.0f;
        Status status = checked_buffers(problem, buffers, workspace, r.memory);  // once, not once a run
        for (int run = 0; run < 4 && status == CUDNN_STATUS_SUCCESS; ++run) {
            float milliseconds = 0.0f;
            status = time_solver_run(handle, *solver, problem, buffers, workspace, workspace_bytes, &milliseconds);
            if (run == 1 || (run > 1 && milliseconds < best)) best = milliseconds;  // run 0 warms up
        }
        r.status = status;
        r.time = status == CUDNN_STATUS_SUCCESS ? best : -1.0f;
        (status == CUDNN_STATUS_SUCCESS ? timed : rest).push_back(r);
    }
    std::stable_sort(timed.begin(), timed.end(),
                     [](const ConvAlgorithmResult &a, const ConvAlgorithmResult &b) { return a.time < b.time; });
    timed.insert(timed.end(), rest.begin(), rest.end());
    clear_failure_reason();
    return timed;
}

Status find_conv_algorithms_allocating(const cudnnContext &handle, const ConvProblem &problem,
                                       std::vector<ConvAlgorithmResult> *results) {
    size_t workspace_bytes = 0;
    for (const ConvAlgorithmResult &r : rank_conv_algorithms(handle, problem)) {
        if (r.status == CUDNN_STATUS_SUCCESS) workspace_bytes = std::max(workspace_bytes, r.memory);
    }
    BackendBuffer x(handle, bytes_of(problem.x)), w(handle, bytes_of(problem.w)), y(handle, bytes_of(problem.y));
    BackendBuffer workspace(handle, workspace_bytes);
    if (x.get() == nullptr || w.get() == nullptr || y.get() == nullptr ||
        (workspace_bytes > 0 && workspace.get() == nullptr)) {
        return fail(CUDNN_STATUS_ALLOC_FAILED,
                    "could not allocate the tensors and %zu bytes of workspace to time the algorithms",
                    workspace_bytes);
    }
    ConvBuffers buffers;
    buffers.x = x.get();
    buffers.w = w.get();
    buffers.y = y.get();
    buffers.result = problem.direction == ConvDirection::forward         ? y.get()
                     : problem.direction == ConvDirection::backward_data ? x.get()
                                                                         : w.get();
    ConvProblem timed = problem;
    timed.alpha = 1.0;
    timed.beta = 0.0;  // the buffers hold zeros: nothing to blend
    *results = find_conv_algorithms(handle, timed, buffers, workspace.get(), workspace_bytes);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
