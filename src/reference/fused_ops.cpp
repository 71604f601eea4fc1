// The reference fused ops: the element-wise prologue, per-channel sums and the batch-norm finalization,
// in double, composed with the reference convolution.
#include "reference/fused_ops.hpp"

#include <cmath>

namespace librednn::reference {

namespace {

Index channel_index(const TensorView &per_channel, int64_t c) {
    Index index(per_channel.dims.size(), 0);
    index[1] = c;
    return index;
}

double per_channel(const TensorView *view, int64_t c, double fallback) {
    return view ? view->read(channel_index(*view, c)) : fallback;
}

}  // namespace

Status fused_scale_bias_activation(const TensorView &x, const TensorView *scale, const TensorView *bias, bool relu,
                                   const TensorView &out) {
    for_each_index(x.dims, [&](const Index &i) {
        double value = x.read(i) * per_channel(scale, i[1], 1.0) + per_channel(bias, i[1], 0.0);
        if (relu && value < 0.0) value = 0.0;
        out.write(i, value);
    });
    return CUDNN_STATUS_SUCCESS;
}

Status fused_channel_sums(const TensorView &y, const TensorView *sum, const TensorView *square_sum) {
    std::vector<double> sums(static_cast<size_t>(y.dims[1]), 0.0), squares(sums.size(), 0.0);
    for_each_index(y.dims, [&](const Index &i) {
        const double v = y.read(i);
        sums[static_cast<size_t>(i[1])] += v;
        squares[static_cast<size_t>(i[1])] += v * v;
    });
    for (int64_t k = 0; k < y.dims[1]; ++k) {
        if (sum) sum->write(channel_index(*sum, k), sums[static_cast<size_t>(k)]);
        if (square_sum) square_sum->write(channel_index(*square_sum, k), squares[static_cast<size_t>(k)]);
    }
    return CUDNN_STATUS_SUCCESS;
}

Status fused_conv_bnstats(const ConvolutionGeometry &conv, const TensorView &x, const TensorView *scale,
                          const TensorView *bias, bool relu, const TensorView &x_prime, const TensorView &w,
                          const TensorView &y, const TensorView *sum, const TensorView *square_sum) {
    LIBREDNN_CHECK(fused_scale_bias_activation(x, scale, bias, relu, x_prime));
    LIBREDNN_CHECK(convolution_forward(conv, 1.0, x_prime, w, 0.0, y));
    return fused_channel_sums(y, sum, square_sum);
}

Status fused_wgrad(const ConvolutionGeometry &conv, const TensorView &x, const TensorView *scale,
                   const TensorView *bias, bool relu, const TensorView &x_prime, const TensorView &dy,
                   const TensorView &dw) {
    LIBREDNN_CHECK(fused_scale_bias_activation(x, scale, bias, relu, x_prime));
    return convolution_backward_filter(conv, 1.0, x_prime, dy, 0.0, dw);
}

Status bn_finalize_training(const TensorView &sum, const TensorView &square_sum, int64_t count, const TensorView &scale,
                            const TensorView &bias, double epsilon, double factor, const TensorView &eq_scale,
                            const TensorView &eq_bias, const BnFinalizeTrainingOutputs &outputs) {
    const double m = static_cast<double>(count);
    for (int64_t c = 0; c < scale.dims[1]; ++c) {
        const double mean = sum.read(channel_index(sum, c)) / m;
        const double variance = square_sum.read(channel_index(square_sum, c)) / m - mean * mean;
        const double invstd = 1.0 / std::sqrt(variance + epsilon);
        const double s = scale.read(channel_index(scale, c)) * invstd;
        eq_scale.write(channel_index(eq_scale, c), s);
        eq_bias.write(channel_index(eq_bias, c), bias.read(channel_index(bias, c)) - mean * s);
        const Index p = channel_index(scale, c);
        if (outputs.saved_mean) outputs.saved_mean->write(p, mean);
        if (outputs.saved_invstd) outputs.saved_invstd->write(p, invstd);
        if (outputs.running_mean)
            outputs.running_mean->write(p, (1.0 - factor) * outputs.running_mean->read(p) + factor * mean);
        if (outputs.running_var)
            outputs.running_var->write(
                p, (1.0 - factor) * outputs.running_var->read(p) + factor * variance * m / (m - 1.0));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status bn_finalize_inference(const TensorView &scale, const TensorView &bias, const TensorView &running_mean,
                             const TensorView &running_var, double epsilon, const TensorView &eq_scale,
                             const TensorView &eq_bias) {
    for (int64_t c = 0; c < scale.dims[1]; ++c) {
        const Index p = channel_index(scale, c);
        const double s = scale.read(p) / std::sqrt(running_var.read(p) + epsilon);
        eq_scale.write(channel_index(eq_scale, c), s);
        eq_bias.write(channel_index(eq_bias, c), bias.read(p) - running_mean.read(p) * s);
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
