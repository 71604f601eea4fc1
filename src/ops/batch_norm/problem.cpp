// Batch-normalisation problems: names, sizes, comparison and the problem string both ways.
#include "ops/batch_norm/problem.hpp"

#include "ops/common/problem_tensors.hpp"

namespace librednn {

namespace {

// Indexed by cudnnBatchNormMode_t.
const char *const kModeNames[] = {"per_activation", "spatial", "spatial_persistent"};
const char *const kPhaseNames[] = {"inference", "train_fwd", "bwd"};
const char *const kOpsNames[] = {"bn", "bn_act", "bn_add_act"};  // indexed by cudnnBatchNormOps_t

// The parameter geometry cudnnDeriveBNTensorDescriptor gives for `x`: packed NCHW, float (double for
// double data).
TensorGeometry derived_parameters(cudnnBatchNormMode_t mode, const TensorGeometry &x) {
    int64_t dims[kMaxDims];
    batch_norm_parameter_dims(mode, x.nb_dims, x.dims, dims);
    return packed_geometry(x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT, x.nb_dims, dims,
                           PackedLayout::nchw);
}

bool same_geometry(const TensorGeometry &a, const TensorGeometry &b) {
    if (a.dtype != b.dtype || a.nb_dims != b.nb_dims) return false;
    for (int i = 0; i < a.nb_dims; ++i) {
        if (a.dims[i] != b.dims[i] || (a.dims[i] > 1 && a.strides[i] != b.strides[i])) return false;
    }
    return true;
}

}  // namespace

const char *batch_norm_mode_name(cudnnBatchNormMode_t mode) {
    const int index = static_cast<int>(mode);
    return index >= 0 && index < 3 ? kModeNames[index] : nullptr;
}

const char *batch_norm_ops_name(cudnnBatchNormOps_t ops) {
    const int index = static_cast<int>(ops);
    return index >= 0 && index < 3 ? kOpsNames[index] : nullptr;
}

const char *batch_norm_phase_name(BatchNormPhase phase) { return kPhaseNames[static_cast<int>(phase)]; }

void batch_norm_parameter_dims(cudnnBatchNormMode_t mode, int nb_dims, const int64_t *x, int64_t *parameters) {
    for (int i = 0; i < nb_dims; ++i) {
        parameters[i] = i == 1 || (i > 1 && mode == CUDNN_BATCHNORM_PER_ACTIVATION) ? x[i] : 1;
    }
}

int64_t BatchNormProblem::parameter_count() const { return parameters.element_count(); }

int64_t BatchNormProblem::values_per_parameter() const {
    const int64_t parameter_elements = parameter_count();
    return parameter_elements > 0 ? x.element_count() / parameter_elements : 0;
}

bool BatchNormProblem::operator==(const BatchNormProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const BatchNormProblem &p) {
    ProblemString out;
    out.set("op", "bn");
    const char *mode = batch_norm_mode_name(p.mode);
    out.set("mode", mode ? mode : std::to_string(static_cast<int>(p.mode)));
    out.set("phase", batch_norm_phase_name(p.phase));
    write_main_tensor(&out, p.x);
    write_tensor(&out, "x", p.x, p.x);
    if (p.phase == BatchNormPhase::backward) {
        write_tensor(&out, "dy", p.dy, p.x);
        write_tensor(&out, "dx", p.dx, p.x);
        if (p.activation()) write_tensor(&out, "y", p.y, p.x);
        if (p.adds()) write_tensor(&out, "dz", p.z, p.x);
    } else {
        write_tensor(&out, "y", p.y, p.x);
        if (p.adds()) write_tensor(&out, "z", p.z, p.x);
    }
    // The parameters are written only when they are not the derived descriptor's (LibreDNN's key).
    if (!same_geometry(p.parameters, derived_parameters(p.mode, p.x))) write_tensor(&out, "p", p.parameters, p.x);
    out.set("eps", p.epsilon);
    if (p.phase == BatchNormPhase::training) out.set("factor", p.factor);
    out.set("alpha", p.alpha);
    out.set("beta", p.beta);
    // LibreDNN's keys, written when not their defaults (the bench runs with the defaults).
    if (p.phase == BatchNormPhase::backward && (p.param_alpha != 1.0 || p.param_beta != 0.0)) {
        out.set("palpha", p.param_alpha);
        out.set("pbeta", p.param_beta);
    }
    if (p.ops != CUDNN_BATCHNORM_OPS_BN) {
        const char *ops = batch_norm_ops_name(p.ops);
        out.set("ops", ops ? ops : std::to_string(static_cast<int>(p.ops)));
    }
    if (p.phase == BatchNormPhase::training && !p.running) out.set("running", "none");
    if (p.phase != BatchNormPhase::inference && !p.saved) out.set("saved", "none");
    return out;
}

bool parse_batch_norm_problem(const ProblemString &text, BatchNormProblem *problem, std::string *error) {
    BatchNormProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "bn") {
        *error = "op=" + value + " is not a batch-norm problem (op=bn)";
        return false;
    }
    int number = 0;
    text.get("mode", &value, "spatial", error);
    if (!enum_from_name(value, kModeNames, 3, &number)) {
        *error = "mode=" + value + " must be spatial, per_activation or spatial_persistent";
        return false;
    }
    p.mode = static_cast<cudnnBatchNormMode_t>(number);
    if (!text.get("phase", &value, error)) return false;
    if (!enum_from_name(value, kPhaseNames, 3, &number)) {
        *error = "phase=" + value + " must be inference, train_fwd or bwd";
        return false;
    }
    p.phase = static_cast<BatchNormPhase>(number);
    text.get("ops", &value, "bn", error);
    if (!enum_from_name(value, kOpsNames, 3, &number)) {
        *error = "ops=" + value + " must be bn, bn_act or bn_add_act";
        return false;
    }
    p.ops = static_cast<cudnnBatchNormOps_t>(number);
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "x", main, &p.x, error)) return false;
    if (p.phase == BatchNormPhase::backward) {
        if (!read_tensor(text, "dy", main, &p.dy, error) || !read_tensor(text, "dx", main, &p.dx, error)) return false;
        if (p.activation() && !read_tensor(text, "y", main, &p.y, error)) return false;
        if (p.adds() && !read_tensor(text, "dz", main, &p.z, error)) return false;
    } else {
        if (!read_tensor(text, "y", main, &p.y, error)) return false;
        if (p.adds() && !read_tensor(text, "z", main, &p.z, error)) return false;
    }
    p.parameters = derived_parameters(p.mode, p.x);
    if (text.has("pstrides") || text.has("ptype") || text.has("pdims")) {
        TensorGeometry declared = p.parameters;
        if (!read_tensor(text, "p", declared, &p.parameters, error)) return false;
    }
    if (!text.get_double("eps", &p.epsilon, 1e-5, error)) return false;
    if (p.phase == BatchNormPhase::training && !text.get_double("factor", &p.factor, 0.1, error)) return false;
    if (!text.get_double("alpha", &p.alpha, 1.0, error) || !text.get_double("beta", &p.beta, 0.0, error)) return false;
    if (p.phase == BatchNormPhase::backward) {
        if (!text.get_double("palpha", &p.param_alpha, 1.0, error) ||
            !text.get_double("pbeta", &p.param_beta, 0.0, error))
            return false;
    }
    if (p.phase == BatchNormPhase::training) {
        text.get("running", &value, "given", error);
        if (value != "given" && value != "none") {
            *error = "running=" + value + " must be given or none";
            return false;
        }
        p.running = value == "given";
    }
    if (p.phase != BatchNormPhase::inference) {
        text.get("saved", &value, "given", error);
        if (value != "given" && value != "none") {
            *error = "saved=" + value + " must be given or none";
            return false;
        }
        p.saved = value == "given";
    }
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

}  // namespace librednn
