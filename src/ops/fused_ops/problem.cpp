// Fused-ops problems: names, comparison and the problem string.
#include "ops/fused_ops/problem.hpp"

#include "core/data_type.hpp"

namespace librednn {

namespace {

const char *const kShortNames[] = {"conv_bnstats",
                                   "wgrad",
                                   "bn_finalize_training",
                                   "bn_finalize_inference",
                                   "conv_scale_bias_add_act",
                                   "scale_bias_add_act_gen_bitmask",
                                   "dact_fork_dbn"};

const char *yes_no(bool value) { return value ? "yes" : "no"; }

}  // namespace

const char *fused_ops_short_name(cudnnFusedOps_t ops) {
    const int value = static_cast<int>(ops);
    return value >= 0 && value < 7 ? kShortNames[value] : nullptr;
}

bool FusedOpsProblem::operator==(const FusedOpsProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const FusedOpsProblem &p) {
    ProblemString out;
    out.set("op", "fused");
    const char *name = fused_ops_short_name(p.ops);
    out.set("ops", name ? std::string(name) : std::to_string(static_cast<int>(p.ops)));
    if (p.convolves()) {
        // The convolution's own tokens (librednn-bench's conv grammar), then what the fusion adds.
        const ProblemString conv = to_problem_string(p.conv);
        for (const auto &[key, value] : conv.entries())
            if (key != "op") out.set(key, value);
        out.set("scale", yes_no(p.has_scale));
        out.set("bias", yes_no(p.has_bias));
        out.set("act", p.activation == CUDNN_ACTIVATION_RELU ? "relu" : "none");
        if (p.has_scale || p.has_bias) out.set("eqtype", data_type_short_name(p.eq_scale_bias.dtype));
        if (p.ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS) {
            out.set("sum", yes_no(p.has_sum));
            out.set("sqsum", yes_no(p.has_square_sum));
            if (p.has_sum || p.has_square_sum) out.set("statstype", data_type_short_name(p.stats.dtype));
        }
        return out;
    }
    out.set("c", static_cast<long long>(p.channels()));
    out.set("bnmode", p.bn_mode == CUDNN_BATCHNORM_SPATIAL_PERSISTENT ? "spatial_persistent" : "spatial");
    out.set("ptype", data_type_short_name(p.bn_parameters.dtype));
    out.set("eqtype", data_type_short_name(p.eq_scale_bias.dtype));
    if (p.ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING) {
        out.set("statstype", data_type_short_name(p.stats.dtype));
        out.set("saved", std::string(yes_no(p.has_saved_mean)) + "x" + yes_no(p.has_saved_invstd));
        out.set("running", std::string(yes_no(p.has_running_mean)) + "x" + yes_no(p.has_running_var));
    }
    return out;
}

}  // namespace librednn
