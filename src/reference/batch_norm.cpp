// The reference batch normalisation: per parameter element, two passes over the values it normalises.
#include "reference/batch_norm.hpp"

#include <cmath>

namespace librednn::reference {

namespace {

// Which x elements each parameter element normalises: x index = p + r for p within parameter_dims and
// r within reduction_dims (each axis is either kept, in p, or reduced, in r; the other one is 0).
struct Normalisation {
    std::vector<int64_t> parameter_dims;
    std::vector<int64_t> reduction_dims;
    int64_t count = 1;  // M: values per parameter element
};

Normalisation normalisation_of(cudnnBatchNormMode_t mode, const std::vector<int64_t> &x_dims) {
    Normalisation norm;
    norm.parameter_dims = batch_norm_parameter_dims(mode, x_dims);
    for (size_t axis = 0; axis < x_dims.size(); ++axis) {
        norm.reduction_dims.push_back(norm.parameter_dims[axis] == 1 ? x_dims[axis] : 1);
        norm.count *= norm.reduction_dims.back();
    }
    return norm;
}

// Calls visit(x_index) for every x element that parameter element `p` normalises.
template <typename Visit>
void for_each_normalised(const Normalisation &norm, const Index &p, Visit &&visit) {
    Index x_index(p.size());
    for_each_index(norm.reduction_dims, [&](const Index &r) {
        for (size_t axis = 0; axis < p.size(); ++axis) x_index[axis] = p[axis] + r[axis];
        visit(static_cast<const Index &>(x_index));
    });
}

struct Statistics {
    double mean = 0;
    double variance = 0;  // biased: divided by M
};

// Two passes, so the variance is not a difference of large sums.
Statistics batch_statistics(const Normalisation &norm, const TensorView &x, const Index &p) {
    Statistics stats;
    double sum = 0;
    for_each_normalised(norm, p, [&](const Index &i) { sum += x.read(i); });
    stats.mean = sum / static_cast<double>(norm.count);
    double squares = 0;
    for_each_normalised(norm, p, [&](const Index &i) {
        const double deviation = x.read(i) - stats.mean;
        squares += deviation * deviation;
    });
    stats.variance = squares / static_cast<double>(norm.count);
    return stats;
}

Status check_mode_and_x(cudnnBatchNormMode_t mode, const TensorView &x, const char *x_name) {
    if (mode != CUDNN_BATCHNORM_PER_ACTIVATION && mode != CUDNN_BATCHNORM_SPATIAL &&
        mode != CUDNN_BATCHNORM_SPATIAL_PERSISTENT) {
        return fail(CUDNN_STATUS_BAD_PARAM, "mode is %d, not a cudnnBatchNormMode_t", static_cast<int>(mode));
    }
    LIBREDNN_CHECK(check_view(x, x_name));
    if (x.rank() < 2) return fail(CUDNN_STATUS_BAD_PARAM, "%s has %d dims; needs N, C and more", x_name, x.rank());
    return CUDNN_STATUS_SUCCESS;
}

// `view` is usable and has `dims`; `role` says what those dims are in the reason.
Status check_dims(const TensorView &view, const char *name, const std::vector<int64_t> &dims, const char *role) {
    LIBREDNN_CHECK(check_view(view, name));
    if (view.dims != dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s; it must be %s (%s)", name, dims_to_string(view.dims).c_str(),
                    dims_to_string(dims).c_str(), role);
    }
    return CUDNN_STATUS_SUCCESS;
}

// Two optional tensors that come as a pair: both or neither, each with the parameter dims.
Status check_optional_pair(const TensorView *first, const char *first_name, const TensorView *second,
                           const char *second_name, const std::vector<int64_t> &dims) {
    if (!first && !second) return CUDNN_STATUS_SUCCESS;
    if (!first || !second) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s but %s is %s; give both or neither", first_name,
                    first ? "given" : "null", second_name, second ? "given" : "null");
    }
    LIBREDNN_CHECK(check_dims(*first, first_name, dims, "the parameter dims"));
    return check_dims(*second, second_name, dims, "the parameter dims");
}

}  // namespace

std::vector<int64_t> batch_norm_parameter_dims(cudnnBatchNormMode_t mode, const std::vector<int64_t> &x_dims) {
    if (x_dims.size() < 2) return {};
    std::vector<int64_t> dims(x_dims.size(), 1);
    dims[1] = x_dims[1];
    switch (mode) {
        case CUDNN_BATCHNORM_SPATIAL:
        case CUDNN_BATCHNORM_SPATIAL_PERSISTENT: return dims;
        case CUDNN_BATCHNORM_PER_ACTIVATION:
            for (size_t axis = 2; axis < x_dims.size(); ++axis) dims[axis] = x_dims[axis];
            return dims;
    }
    return {};
}

Status batch_norm_forward_inference(cudnnBatchNormMode_t mode, double alpha, double beta, const TensorView &x,
                                    const TensorView &y, const TensorView &scale, const TensorView &bias,
                                    const TensorView &estimated_mean, const TensorView &estimated_variance,
                                    double epsilon) {
    LIBREDNN_CHECK(check_mode_and_x(mode, x, "x"));
    const Normalisation norm = normalisation_of(mode, x.dims);
    LIBREDNN_CHECK(check_dims(y, "y", x.dims, "the dims of x"));
    LIBREDNN_CHECK(check_dims(scale, "scale", norm.parameter_dims, "the parameter dims"));
    LIBREDNN_CHECK(check_dims(bias, "bias", norm.parameter_dims, "the parameter dims"));
    LIBREDNN_CHECK(check_dims(estimated_mean, "estimated_mean", norm.parameter_dims, "the parameter dims"));
    LIBREDNN_CHECK(check_dims(estimated_variance, "estimated_variance", norm.parameter_dims, "the parameter dims"));

    for_each_index(norm.parameter_dims, [&](const Index &p) {
        const double mean = estimated_mean.read(p);
        const double inv_std = 1 / std::sqrt(estimated_variance.read(p) + epsilon);
        const double gamma = scale.read(p), shift = bias.read(p);
        for_each_normalised(norm, p, [&](const Index &i) {
            store_blended(y, i, alpha * (gamma * (x.read(i) - mean) * inv_std + shift), beta);
        });
    });
    return CUDNN_STATUS_SUCCESS;
}

Status batch_norm_forward_training(cudnnBatchNormMode_t mode, double alpha, double beta, const TensorView &x,
                                   const TensorView &y, const TensorView &scale, const TensorView &bias,
                                   double exponential_average_factor, const TensorView *running_mean,
                                   const TensorView *running_variance, double epsilon, const TensorView *saved_mean,
                                   const TensorView *saved_inv_variance) {
    LIBREDNN_CHECK(check_mode_and_x(mode, x, "x"));
    const Normalisation norm = normalisation_of(mode, x.dims);
    LIBREDNN_CHECK(check_dims(y, "y", x.dims, "the dims of x"));
    LIBREDNN_CHECK(check_dims(scale, "scale", norm.parameter_dims, "the parameter dims"));
    LIBREDNN_CHECK(check_dims(bias, "bias", norm.parameter_dims, "the parameter dims"));
    LIBREDNN_CHECK(
        check_optional_pair(running_mean, "running_mean", running_variance, "running_variance", norm.parameter_dims));
    LIBREDNN_CHECK(
        check_optional_pair(saved_mean, "saved_mean", saved_inv_variance, "saved_inv_variance", norm.parameter_dims));

    const double factor = exponential_average_factor;
    const double m = static_cast<double>(norm.count);
    for_each_index(norm.parameter_dims, [&](const Index &p) {
        const Statistics stats = batch_statistics(norm, x, p);
        const double inv_std = 1 / std::sqrt(stats.variance + epsilon);
        const double gamma = scale.read(p), shift = bias.read(p);
        for_each_normalised(norm, p, [&](const Index &i) {
            store_blended(y, i, alpha * (gamma * (x.read(i) - stats.mean) * inv_std + shift), beta);
        });
        if (running_mean) {
            const double unbiased_variance = stats.variance * m / (m - 1);
            store_blended(*running_mean, p, factor * stats.mean, 1 - factor);
            store_blended(*running_variance, p, factor * unbiased_variance, 1 - factor);
        }
        if (saved_mean) {
            saved_mean->write(p, stats.mean);
            saved_inv_variance->write(p, inv_std);
        }
    });
    return CUDNN_STATUS_SUCCESS;
}

Status batch_norm_backward(cudnnBatchNormMode_t mode, double alpha_data, double beta_data, double alpha_param,
                           double beta_param, const TensorView &x, const TensorView &dy, const TensorView &dx,
                           const TensorView &scale, const TensorView &dscale, const TensorView &dbias, double epsilon,
                           const TensorView *saved_mean, const TensorView *saved_inv_variance) {
    LIBREDNN_CHECK(check_mode_and_x(mode, x, "x"));
    const Normalisation norm = normalisation_of(mode, x.dims);
    LIBREDNN_CHECK(check_dims(dy, "dy", x.dims, "the dims of x"));
    LIBREDNN_CHECK(check_dims(dx, "dx", x.dims, "the dims of x"));
    LIBREDNN_CHECK(check_dims(scale, "scale", norm.parameter_dims, "the parameter dims"));
    LIBREDNN_CHECK(check_dims(dscale, "dscale", norm.parameter_dims, "the parameter dims"));
    LIBREDNN_CHECK(check_dims(dbias, "dbias", norm.parameter_dims, "the parameter dims"));
    LIBREDNN_CHECK(
        check_optional_pair(saved_mean, "saved_mean", saved_inv_variance, "saved_inv_variance", norm.parameter_dims));

    const double m = static_cast<double>(norm.count);
    for_each_index(norm.parameter_dims, [&](const Index &p) {
        double mean, inv_std;
        if (saved_mean) {
            mean = saved_mean->read(p);
            inv_std = saved_inv_variance->read(p);
        } else {
            const Statistics stats = batch_statistics(norm, x, p);
            mean = stats.mean;
            inv_std = 1 / std::sqrt(stats.variance + epsilon);
        }
        double bias_gradient = 0, scale_gradient = 0;
        for_each_normalised(norm, p, [&](const Index &i) {
            bias_gradient += dy.read(i);
            scale_gradient += dy.read(i) * (x.read(i) - mean) * inv_std;
        });
        const double gamma = scale.read(p);
        for_each_normalised(norm, p, [&](const Index &i) {
            const double x_hat = (x.read(i) - mean) * inv_std;
            const double gradient = gamma * inv_std * (dy.read(i) - bias_gradient / m - x_hat * scale_gradient / m);
            store_blended(dx, i, alpha_data * gradient, beta_data);
        });
        store_blended(dscale, p, alpha_param * scale_gradient, beta_param);
        store_blended(dbias, p, alpha_param * bias_gradient, beta_param);
    });
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
