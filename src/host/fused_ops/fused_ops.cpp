// The host's fused-ops solver: the per-channel steps around the host's convolution solvers (the
// composition is ops/fused_ops/solvers.hpp's). The prologue computes in float (double for double data)
// and rounds once to x's type; sums and the batch-norm finalization accumulate in double.
#include "host/fused_ops/solvers.hpp"

#include "host/common/parallel.hpp"
#include "ops/common/element_access.hpp"
#include "ops/common/registry.hpp"

#include <cmath>
#include <vector>

namespace librednn {

namespace {

bool floating(cudnnDataType_t type) {
    return type == CUDNN_DATA_FLOAT || type == CUDNN_DATA_DOUBLE || type == CUDNN_DATA_HALF ||
           type == CUDNN_DATA_BFLOAT16;
}

// Element `position` of a row-major walk of `g`'s dims: its offset, and its channel (dim 1).
int64_t offset_of(const TensorGeometry &g, int64_t position, int64_t *channel) {
    int64_t offset = 0;
    for (int axis = g.nb_dims - 1; axis >= 0; --axis) {
        const int64_t index = position % g.dims[axis];
        position /= g.dims[axis];
        offset += index * g.strides[axis];
        if (axis == 1) *channel = index;
    }
    return offset;
}

// The per-channel element c of a [1, C, 1...] tensor.
int64_t channel_offset(const TensorGeometry &g, int64_t c) { return c * g.strides[1]; }

class HostFusedOps final : public ComposedFusedOpsSolver {
public:
    const char *name() const override { return "host_fused_ops"; }
    SolverId id() const override { return SolverId::host_fused_ops; }
    Backend backend() const override { return Backend::host; }

protected:
    const char *steps_unsupported_reason(const FusedOpsProblem &problem) const override {
        if (problem.convolves() && !floating(problem.conv.x.dtype))
            return "the host's fused ops take float, double, half or bfloat16 x";
        return nullptr;
    }

    Status scale_bias_activation(const ExecutionContext &, const FusedOpsProblem &p, const void *x, const void *scale,
                                 const void *bias, void *out) const override {
        const TensorGeometry &g = p.conv.x;
        const bool in_double = g.dtype == CUDNN_DATA_DOUBLE;
        host::parallel_for(g.element_count(), 4096, [&](int64_t begin, int64_t end, int) {
            for (int64_t e = begin; e < end; ++e) {
                int64_t c = 0;
                const int64_t offset = offset_of(g, e, &c);
                const double s =
                    scale ? load_scalar(scale, p.eq_scale_bias.dtype, channel_offset(p.eq_scale_bias, c)) : 1.0;
                const double b =
                    bias ? load_scalar(bias, p.eq_scale_bias.dtype, channel_offset(p.eq_scale_bias, c)) : 0.0;
                const double v = load_scalar(x, g.dtype, offset);
                double result;
                if (in_double) {
                    result = std::fma(v, s, b);
                } else {
                    // One fused multiply-add in float, as the CUDA backend computes it: the same bits.
                    result = std::fma(static_cast<float>(v), static_cast<float>(s), static_cast<float>(b));
                }
                if (p.activation == CUDNN_ACTIVATION_RELU && result < 0.0) result = 0.0;
                store_scalar(out, g.dtype, offset, result);
            }
        });
        return CUDNN_STATUS_SUCCESS;
    }

    Status channel_sums(const ExecutionContext &, const FusedOpsProblem &p, const void *y, void *sum,
                        void *square_sum) const override {
        const TensorGeometry &g = p.conv.y;
        const int64_t channels = g.dims[1];
        const int64_t per_channel = g.element_count() / channels;
        host::parallel_for(channels, 1, [&](int64_t begin, int64_t end, int) {
            for (int64_t k = begin; k < end; ++k) {
                // Walk the channel's elements: every index with dim 1 fixed at k.
                double total = 0.0, squares = 0.0;
                TensorGeometry others = g;
                others.dims[1] = 1;
                for (int64_t e = 0; e < per_channel; ++e) {
                    int64_t unused = 0;
                    const int64_t offset = offset_of(others, e, &unused) + k * g.strides[1];
                    const double v = load_scalar(y, g.dtype, offset);
                    total += v;
                    squares += v * v;
                }
                if (sum) store_scalar(sum, p.stats.dtype, channel_offset(p.stats, k), total);
                if (square_sum) store_scalar(square_sum, p.stats.dtype, channel_offset(p.stats, k), squares);
            }
        });
        return CUDNN_STATUS_SUCCESS;
    }

    Status bn_finalize(const ExecutionContext &, const FusedOpsProblem &p, const FusedOpsBuffers &b) const override {
        const TensorGeometry &param = p.bn_parameters;
        const TensorGeometry &eq = p.eq_scale_bias;
        const bool training = p.ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING;
        const double m = static_cast<double>(b.accumulation_count);
        const double factor = b.exp_avg_factor;
        for (int64_t c = 0; c < p.channels(); ++c) {
            const int64_t po = channel_offset(param, c);
            const double scale = load_scalar(b.bn_scale, param.dtype, po);
            const double bias = load_scalar(b.bn_bias, param.dtype, po);
            double mean, invstd;
            if (training) {
                const int64_t so = channel_offset(p.stats, c);
                mean = load_scalar(b.y_sum, p.stats.dtype, so) / m;
                const double variance = load_scalar(b.y_square_sum, p.stats.dtype, so) / m - mean * mean;
                invstd = 1.0 / std::sqrt(variance + b.epsilon);
                if (p.has_saved_mean) store_scalar(b.saved_mean, param.dtype, po, mean);
                if (p.has_saved_invstd) store_scalar(b.saved_invstd, param.dtype, po, invstd);
                if (p.has_running_mean) {
                    const double old = load_scalar(b.running_mean, param.dtype, po);
                    store_scalar(b.running_mean, param.dtype, po, (1.0 - factor) * old + factor * mean);
                }
                if (p.has_running_var) {
                    const double old = load_scalar(b.running_var, param.dtype, po);
                    const double unbiased = variance * m / (m - 1.0);
                    store_scalar(b.running_var, param.dtype, po, (1.0 - factor) * old + factor * unbiased);
                }
            } else {
                mean = load_scalar(b.running_mean, param.dtype, po);
                invstd = 1.0 / std::sqrt(load_scalar(b.running_var, param.dtype, po) + b.epsilon);
            }
            const double eq_scale = scale * invstd;
            store_scalar(b.eq_scale, eq.dtype, channel_offset(eq, c), eq_scale);
            store_scalar(b.eq_bias, eq.dtype, channel_offset(eq, c), bias - mean * eq_scale);
        }
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

void register_host_fused_ops_solvers(SolverRegistry &registry) {
    static const HostFusedOps solver;
    registry.fused_ops.push_back(&solver);
}

}  // namespace librednn
