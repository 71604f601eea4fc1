// cudnnBatchNormalizationForwardInference, ForwardTraining and Backward against the reference on random
// shapes (4-d and 5-d), modes, layouts (also strided parameters), types, epsilons, averaging factors,
// optional running and saved statistics, and alpha/beta; the backward pass also against central
// differences of the training forward in double; and the rejections.
#include "reference/batch_norm.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/batch_norm/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace librednn;
using namespace librednn::test;

const std::vector<cudnnDataType_t> kTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16};
const std::vector<cudnnBatchNormMode_t> kModes = {CUDNN_BATCHNORM_PER_ACTIVATION, CUDNN_BATCHNORM_SPATIAL,
                                                  CUDNN_BATCHNORM_SPATIAL_PERSISTENT};

cudnnDataType_t parameter_type(cudnnDataType_t type) {
    return type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
}

BatchNormProblem random_problem(Random &rng, BatchNormPhase phase) {
    BatchNormProblem p;
    p.phase = phase;
    p.mode = rng.pick(kModes);
    const cudnnDataType_t type = rng.pick(kTypes);
    const int nb_dims = static_cast<int>(rng.pick<int64_t>({4, 4, 5}));
    std::vector<int64_t> dims = {rng.integer(1, 4), rng.integer(1, 6)};
    for (int i = 2; i < nb_dims; ++i) dims.push_back(rng.integer(1, 6));
    p.x = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    if (phase == BatchNormPhase::backward) {
        p.dy = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
        p.dx = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    } else {
        p.y = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    }
    int64_t parameter_dims[kMaxDims];
    batch_norm_parameter_dims(p.mode, nb_dims, dims.data(), parameter_dims);
    p.parameters =
        make_geometry(rng, parameter_type(type), std::vector<int64_t>(parameter_dims, parameter_dims + nb_dims),
                      rng.coin() ? LayoutKind::nchw : LayoutKind::padded);
    {
        p.ops =
            rng.pick<cudnnBatchNormOps_t>({CUDNN_BATCHNORM_OPS_BN, CUDNN_BATCHNORM_OPS_BN,
                                           CUDNN_BATCHNORM_OPS_BN_ACTIVATION, CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION});
        if (p.adds()) p.z = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
        if (phase == BatchNormPhase::backward && p.activation())
            p.y = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    }
    p.epsilon = rng.pick<double>({1e-5, 1e-3, 0.25});
    p.factor = rng.pick<double>({1.0, 0.1, rng.uniform(0.0, 1.0)});
    p.running = rng.integer(0, 3) != 0;
    p.saved = rng.integer(0, 3) != 0;
    const bool in_double = type == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    p.param_alpha = Scalar(random_alpha(rng), in_double).value();
    p.param_beta = Scalar(random_beta(rng), in_double).value();
    return p;
}

std::vector<int64_t> dims_of(const TensorGeometry &g) { return std::vector<int64_t>(g.dims, g.dims + g.nb_dims); }

reference::HostTensor double_copy(const HostTensor &t) {
    reference::HostTensor copy(CUDNN_DATA_DOUBLE, dims_of(t.geometry));
    copy.set_values(element_values(t));
    return copy;
}

// What the error bounds need of one parameter element: its statistics as the solver uses them, how far
// a float (double) solver's may be from them, and the magnitudes of its sums.
struct ParameterStats {
    double count = 0, mean = 0, variance = 0, inv_std = 0;
    double abs_sum = 0, squares = 0;                                    // sum |x|, sum (x - mean)^2
    double mean_error = 0;                                              // |computed mean - mean|
    double variance_error = 0;                                          // |computed variance - variance|
    double inv_std_error = 0;                                           // relative
    double dy_abs = 0, dy_centred_abs = 0, dy_sum = 0, dy_centred = 0;  // backward sums
};

class Case {
public:
    Case(Random &rng, const BatchNormProblem &p) : p_(p), text_(to_problem_string(p).to_string()) {
        const bool backward = p.phase == BatchNormPhase::backward;
        // The Ex calls for every bnOps but BN, and for BN half of the time.
        // Fused ops go through the Ex or the cudnnNormalization* calls (inference: the latter only); plain
        // BN through any of the three.
        const int pick = static_cast<int>(rng.integer(0, 2));
        if (p.phase == BatchNormPhase::inference) {
            normalization_ = p.activation() || pick == 0;
        } else {
            normalization_ = pick == 0;
            ex_ = !normalization_ && (p.activation() || pick == 1);
        }
        x_ = HostTensor(p.x);
        // Sometimes far from zero: the statistics must not be differences of large sums.
        if (rng.coin()) {
            fill_uniform(x_, rng, -2.0, 2.0);
        } else {
            fill_uniform(x_, rng, 3.0, 7.0);
        }
        dy_ = HostTensor(backward ? p.dy : p.x);
        fill_uniform(dy_, rng, -2.0, 2.0);
        // The gradient the normalisation sees: dy, masked by the forward's y > 0 after an activation.
        gradient_ = dy_;
        if (backward && p.activation()) {
            mask_ = HostTensor(p.y);
            fill_uniform(mask_, rng, -1.0, 1.0);
            int64_t index[kMaxDims] = {};
            do {
                if (!(mask_.at(index) > 0.0)) gradient_.set(index, 0.0);
            } while (next_index(index, p.x.dims, p.x.nb_dims));
        }
        if (p.adds()) {
            z_ = HostTensor(p.z);
            if (backward) {
                poison(z_);  // dz, an output
            } else {
                fill_uniform(z_, rng, -1.0, 1.0);
            }
        }
        initial_ = HostTensor(p.result());
        if (p.beta == 0.0) {
            poison(initial_);
        } else {
            fill_uniform(initial_, rng, -2.0, 2.0);
        }
        for (HostTensor *t : {&scale_, &bias_, &mean_, &variance_, &running_mean_, &running_variance_, &saved_mean_,
                              &saved_inv_, &dscale_, &dbias_})
            *t = HostTensor(p.parameters);
        fill_uniform(scale_, rng, -1.5, 1.5);
        fill_uniform(bias_, rng, -1.0, 1.0);
        if (p.phase == BatchNormPhase::inference) {
            fill_uniform(mean_, rng, -1.0, 1.0);
            fill_uniform(variance_, rng, 0.1, 2.0);
        }
        // A factor of 1 must not read the old running values: poison them.
        if (p.factor == 1.0) {
            poison(running_mean_);
            poison(running_variance_);
        } else {
            fill_uniform(running_mean_, rng, -1.0, 1.0);
            fill_uniform(running_variance_, rng, 0.1, 2.0);
        }
        if (backward && p.saved) {
            // Any saved values define a gradient (the bench passes random ones too).
            fill_uniform(saved_mean_, rng, -0.5, 0.5);
            fill_uniform(saved_inv_, rng, 0.5, 2.0);
        } else {
            poison(saved_mean_);
            poison(saved_inv_);
        }
        if (p.param_beta == 0.0) {
            poison(dscale_);
            poison(dbias_);
        } else {
            fill_uniform(dscale_, rng, -2.0, 2.0);
            fill_uniform(dbias_, rng, -2.0, 2.0);
        }
    }

    void run_and_check() {
        SCOPED_TRACE(text_);
        const bool in_double = p_.x.dtype == CUDNN_DATA_DOUBLE;
        const Scalar alpha(p_.alpha, in_double), beta(p_.beta, in_double);
        const Scalar param_alpha(p_.param_alpha, in_double), param_beta(p_.param_beta, in_double);
        Handle handle;
        TensorDescriptor x_desc(p_.x), p_desc(p_.parameters);
        DeviceBuffer x(x_.bytes), dy(dy_.bytes), out(initial_.bytes), scale(scale_.bytes), bias(bias_.bytes);
        DeviceBuffer mean(mean_.bytes), variance(variance_.bytes), running_mean(running_mean_.bytes);
        DeviceBuffer running_variance(running_variance_.bytes), saved_mean(saved_mean_.bytes);
        DeviceBuffer saved_inv(saved_inv_.bytes), dscale(dscale_.bytes), dbias(dbias_.bytes);
        DeviceBuffer z(z_.bytes), mask(mask_.bytes);
        cudnnActivationDescriptor_t relu = nullptr;
        ASSERT_EQ(cudnnCreateActivationDescriptor(&relu), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0),
                  CUDNN_STATUS_SUCCESS);
        const cudnnActivationDescriptor_t activation = p_.activation() ? relu : nullptr;
        const bool masks = p_.phase == BatchNormPhase::backward && p_.activation();
        TensorDescriptor z_desc(p_.adds() ? p_.z : p_.x), mask_desc(masks ? p_.y : p_.x);
        const cudnnTensorDescriptor_t z_or_null = p_.adds() ? z_desc.get() : nullptr;
        cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
        // The cudnnNormalization* spelling of the mode.
        const cudnnNormMode_t norm_mode =
            p_.mode == CUDNN_BATCHNORM_PER_ACTIVATION ? CUDNN_NORM_PER_ACTIVATION : CUDNN_NORM_PER_CHANNEL;
        const cudnnNormAlgo_t algo =
            p_.mode == CUDNN_BATCHNORM_SPATIAL_PERSISTENT ? CUDNN_NORM_ALGO_PERSIST : CUDNN_NORM_ALGO_STANDARD;
        const cudnnNormOps_t norm_ops = static_cast<cudnnNormOps_t>(p_.ops);
        switch (p_.phase) {
            case BatchNormPhase::inference: {
                TensorDescriptor y_desc(p_.y);
                if (normalization_) {
                    status = cudnnNormalizationForwardInference(
                        handle, norm_mode, norm_ops, algo, alpha.get(), beta.get(), x_desc, x.get(), p_desc,
                        scale.get(), bias.get(), p_desc, mean.get(), variance.get(), z_or_null,
                        p_.adds() ? z.get() : nullptr, activation, y_desc, out.get(), p_.epsilon, 1);
                    break;
                }
                status = cudnnBatchNormalizationForwardInference(handle, p_.mode, alpha.get(), beta.get(), x_desc,
                                                                 x.get(), y_desc, out.get(), p_desc, scale.get(),
                                                                 bias.get(), mean.get(), variance.get(), p_.epsilon);
                break;
            }
            case BatchNormPhase::training: {
                TensorDescriptor y_desc(p_.y);
                if (normalization_) {
                    size_t workspace = 1, reserve = 1;
                    ASSERT_EQ(cudnnGetNormalizationForwardTrainingWorkspaceSize(handle, norm_mode, norm_ops, algo,
                                                                                x_desc, z_or_null, y_desc, p_desc,
                                                                                activation, p_desc, &workspace, 1),
                              CUDNN_STATUS_SUCCESS);
                    ASSERT_EQ(cudnnGetNormalizationTrainingReserveSpaceSize(handle, norm_mode, norm_ops, algo,
                                                                            activation, x_desc, &reserve, 1),
                              CUDNN_STATUS_SUCCESS);
                    EXPECT_EQ(workspace + reserve, 0u);
                    status = cudnnNormalizationForwardTraining(
                        handle, norm_mode, norm_ops, algo, alpha.get(), beta.get(), x_desc, x.get(), p_desc,
                        scale.get(), bias.get(), p_.factor, p_desc, p_.running ? running_mean.get() : nullptr,
                        p_.running ? running_variance.get() : nullptr, p_.epsilon,
                        p_.saved ? saved_mean.get() : nullptr, p_.saved ? saved_inv.get() : nullptr, activation,
                        z_or_null, p_.adds() ? z.get() : nullptr, y_desc, out.get(), nullptr, 0, nullptr, 0, 1);
                    break;
                }
                if (ex_) {
                    size_t workspace = 1, reserve = 1;
                    ASSERT_EQ(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
                                  handle, p_.mode, p_.ops, x_desc, z_or_null, y_desc, p_desc, activation, &workspace),
                              CUDNN_STATUS_SUCCESS);
                    ASSERT_EQ(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(handle, p_.mode, p_.ops, activation,
                                                                                   x_desc, &reserve),
                              CUDNN_STATUS_SUCCESS);
                    EXPECT_EQ(workspace + reserve, 0u);
                    status = cudnnBatchNormalizationForwardTrainingEx(
                        handle, p_.mode, p_.ops, alpha.get(), beta.get(), x_desc, x.get(), z_or_null,
                        p_.adds() ? z.get() : nullptr, y_desc, out.get(), p_desc, scale.get(), bias.get(), p_.factor,
                        p_.running ? running_mean.get() : nullptr, p_.running ? running_variance.get() : nullptr,
                        p_.epsilon, p_.saved ? saved_mean.get() : nullptr, p_.saved ? saved_inv.get() : nullptr,
                        activation, nullptr, 0, nullptr, 0);
                    break;
                }
                status = cudnnBatchNormalizationForwardTraining(
                    handle, p_.mode, alpha.get(), beta.get(), x_desc, x.get(), y_desc, out.get(), p_desc, scale.get(),
                    bias.get(), p_.factor, p_.running ? running_mean.get() : nullptr,
                    p_.running ? running_variance.get() : nullptr, p_.epsilon, p_.saved ? saved_mean.get() : nullptr,
                    p_.saved ? saved_inv.get() : nullptr);
                break;
            }
            case BatchNormPhase::backward: {
                TensorDescriptor dy_desc(p_.dy), dx_desc(p_.dx);
                const cudnnTensorDescriptor_t mask_or_null = masks ? mask_desc.get() : nullptr;
                if (normalization_) {
                    size_t workspace = 1;
                    ASSERT_EQ(cudnnGetNormalizationBackwardWorkspaceSize(handle, norm_mode, norm_ops, algo, x_desc,
                                                                         mask_or_null, dy_desc, z_or_null, dx_desc,
                                                                         p_desc, activation, p_desc, &workspace, 1),
                              CUDNN_STATUS_SUCCESS);
                    EXPECT_EQ(workspace, 0u);
                    status = cudnnNormalizationBackward(
                        handle, norm_mode, norm_ops, algo, alpha.get(), beta.get(), param_alpha.get(), param_beta.get(),
                        x_desc, x.get(), mask_or_null, masks ? mask.get() : nullptr, dy_desc, dy.get(), z_or_null,
                        p_.adds() ? z.get() : nullptr, dx_desc, out.get(), p_desc, scale.get(),
                        masks ? bias.get() : nullptr, dscale.get(), dbias.get(), p_.epsilon,
                        p_.saved ? p_desc.get() : nullptr, p_.saved ? saved_mean.get() : nullptr,
                        p_.saved ? saved_inv.get() : nullptr, activation, nullptr, 0, nullptr, 0, 1);
                    break;
                }
                if (ex_) {
                    size_t workspace = 1;
                    ASSERT_EQ(cudnnGetBatchNormalizationBackwardExWorkspaceSize(
                                  handle, p_.mode, p_.ops, x_desc, mask_or_null, dy_desc, z_or_null, dx_desc, p_desc,
                                  activation, &workspace),
                              CUDNN_STATUS_SUCCESS);
                    EXPECT_EQ(workspace, 0u);
                    // For BN as PyTorch calls it: no y, dz, bias or activation.
                    status = cudnnBatchNormalizationBackwardEx(
                        handle, p_.mode, p_.ops, alpha.get(), beta.get(), param_alpha.get(), param_beta.get(), x_desc,
                        x.get(), mask_or_null, masks ? mask.get() : nullptr, dy_desc, dy.get(), z_or_null,
                        p_.adds() ? z.get() : nullptr, dx_desc, out.get(), p_desc, scale.get(),
                        masks ? bias.get() : nullptr, dscale.get(), dbias.get(), p_.epsilon,
                        p_.saved ? saved_mean.get() : nullptr, p_.saved ? saved_inv.get() : nullptr, activation,
                        nullptr, 0, nullptr, 0);
                    break;
                }
                status = cudnnBatchNormalizationBackward(
                    handle, p_.mode, alpha.get(), beta.get(), param_alpha.get(), param_beta.get(), x_desc, x.get(),
                    dy_desc, dy.get(), dx_desc, out.get(), p_desc, scale.get(), dscale.get(), dbias.get(), p_.epsilon,
                    p_.saved ? saved_mean.get() : nullptr, p_.saved ? saved_inv.get() : nullptr);
                break;
            }
        }
        cudnnDestroyActivationDescriptor(relu);
        ASSERT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
        compute_reference();
        compute_statistics();
        check("y/dx", out, initial_, p_.result(), ref_result_,
              [&](size_t e, const int64_t *index) { return result_bound(e, index); });
        if (p_.phase == BatchNormPhase::training && p_.running) {
            check_parameters("running mean", running_mean, running_mean_, ref_running_mean_, Quantity::running_mean);
            check_parameters("running variance", running_variance, running_variance_, ref_running_variance_,
                             Quantity::running_variance);
        }
        if (p_.phase == BatchNormPhase::training && p_.saved) {
            check_parameters("saved mean", saved_mean, saved_mean_, ref_saved_mean_, Quantity::saved_mean);
            check_parameters("saved inverse deviation", saved_inv, saved_inv_, ref_saved_inv_, Quantity::saved_inv);
        }
        if (p_.phase == BatchNormPhase::backward && p_.adds()) {
            // dz is the masked gradient itself.
            check("dz", z, z_, p_.z, ref_result_, [&](size_t, const int64_t *index) {
                ElementBound bound;
                bound.exact = gradient_.at(index);
                return bound;
            });
        }
        if (p_.phase == BatchNormPhase::backward) {
            check_parameters("dscale", dscale, dscale_, ref_dscale_, Quantity::dscale);
            check_parameters("dbias", dbias, dbias_, ref_dbias_, Quantity::dbias);
        }
    }

private:
    enum class Quantity { running_mean, running_variance, saved_mean, saved_inv, dscale, dbias };

    // The parameter element of x element `index`, in next_index() order over the parameter dims.
    int64_t parameter_of(const int64_t *index) const {
        int64_t linear = 0;
        for (int i = 0; i < p_.x.nb_dims; ++i)
            linear = linear * p_.parameters.dims[i] + (p_.parameters.dims[i] == 1 ? 0 : index[i]);
        return linear;
    }

    double u() const { return accumulation_roundoff(p_.x.dtype); }
    double step() const { return tolerance_for(parameter_type(p_.x.dtype)).compute_eps; }

    void compute_reference() {
        const std::vector<int64_t> x_dims = dims_of(p_.x), p_dims = dims_of(p_.parameters);
        reference::HostTensor x = double_copy(x_), dy = double_copy(gradient_);
        reference::HostTensor result(CUDNN_DATA_DOUBLE, x_dims);
        reference::HostTensor scale = double_copy(scale_), bias = double_copy(bias_);
        Status status = CUDNN_STATUS_SUCCESS;
        if (p_.phase == BatchNormPhase::inference) {
            status = reference::batch_norm_forward_inference(p_.mode, 1.0, 0.0, x, result, scale, bias,
                                                             double_copy(mean_), double_copy(variance_), p_.epsilon);
        } else if (p_.phase == BatchNormPhase::training) {
            reference::HostTensor rm = double_copy(running_mean_), rv = double_copy(running_variance_);
            reference::HostTensor sm(CUDNN_DATA_DOUBLE, p_dims), si(CUDNN_DATA_DOUBLE, p_dims);
            status = reference::batch_norm_forward_training(p_.mode, 1.0, 0.0, x, result, scale, bias, p_.factor,
                                                            &rm.view(), &rv.view(), p_.epsilon, &sm.view(), &si.view());
            ref_running_mean_ = rm.values();
            ref_running_variance_ = rv.values();
            ref_saved_mean_ = sm.values();
            ref_saved_inv_ = si.values();
        } else {
            reference::HostTensor ds(CUDNN_DATA_DOUBLE, p_dims), db(CUDNN_DATA_DOUBLE, p_dims);
            reference::HostTensor sm = double_copy(saved_mean_), si = double_copy(saved_inv_);
            status =
                reference::batch_norm_backward(p_.mode, 1.0, 0.0, 1.0, 0.0, x, dy, result, scale, ds, db, p_.epsilon,
                                               p_.saved ? &sm.view() : nullptr, p_.saved ? &si.view() : nullptr);
            ref_dscale_ = ds.values();
            ref_dbias_ = db.values();
        }
        ASSERT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
        ref_result_ = result.values();
        if (p_.phase != BatchNormPhase::backward && p_.activation()) {
            // The fused forward: + z, then ReLU.
            const std::vector<double> z = p_.adds() ? element_values(z_) : std::vector<double>(ref_result_.size(), 0.0);
            for (size_t e = 0; e < ref_result_.size(); ++e) ref_result_[e] = std::max(0.0, ref_result_[e] + z[e]);
        }
    }

    // The statistics the solver uses and, from the arithmetic, how far a solver's may be from them
    // (docs/NUMERICS.md, "Batch normalisation").
    void compute_statistics() {
        stats_.assign(static_cast<size_t>(p_.parameters.element_count()), ParameterStats());
        int64_t index[kMaxDims] = {};
        do {
            ParameterStats &s = stats_[static_cast<size_t>(parameter_of(index))];
            s.count += 1;
            s.mean += x_.at(index);
            s.abs_sum += std::fabs(x_.at(index));
        } while (next_index(index, p_.x.dims, p_.x.nb_dims));
        for (ParameterStats &s : stats_) s.mean /= s.count;
        do {
            ParameterStats &s = stats_[static_cast<size_t>(parameter_of(index))];
            const double deviation = x_.at(index) - s.mean;
            s.squares += deviation * deviation;
        } while (next_index(index, p_.x.dims, p_.x.nb_dims));
        const double u = this->u();
        const std::vector<double> given_mean =
            element_values(p_.phase == BatchNormPhase::inference ? mean_ : saved_mean_);
        const std::vector<double> given_second =
            element_values(p_.phase == BatchNormPhase::inference ? variance_ : saved_inv_);
        for (size_t k = 0; k < stats_.size(); ++k) {
            ParameterStats &s = stats_[k];
            s.variance = s.squares / s.count;
            if (p_.phase == BatchNormPhase::inference) {
                // Given statistics; 1 / sqrt(variance + epsilon) takes four roundings (epsilon's too).
                s.mean = given_mean[k];
                s.inv_std = 1.0 / std::sqrt(given_second[k] + p_.epsilon);
                s.inv_std_error = 4 * u;
            } else if (p_.phase == BatchNormPhase::backward && p_.saved) {
                s.mean = given_mean[k];
                s.inv_std = given_second[k];
            } else {
                // Two passes: the mean's sum and division; then M squared deviations from the computed
                // mean (3 roundings each, plus M times the mean's error squared) summed and divided.
                const double M = s.count;
                s.mean_error = (sum_error(M, s.abs_sum, u) + u * s.abs_sum) / M;
                const double squares = s.squares + M * s.mean_error * s.mean_error;
                s.variance_error =
                    (sum_error(M, squares, u) + 3 * u * squares) / M + s.mean_error * s.mean_error + u * s.variance;
                s.inv_std = 1.0 / std::sqrt(s.variance + p_.epsilon);
                s.inv_std_error = 0.5 * s.variance_error / (s.variance + p_.epsilon) + 4 * u;
            }
        }
        if (p_.phase != BatchNormPhase::backward) return;
        do {
            ParameterStats &s = stats_[static_cast<size_t>(parameter_of(index))];
            const double g = gradient_.at(index), centred = x_.at(index) - s.mean;
            s.dy_abs += std::fabs(g);
            s.dy_centred_abs += std::fabs(g * centred);
            s.dy_sum += g;
            s.dy_centred += g * centred;
        } while (next_index(index, p_.x.dims, p_.x.nb_dims));
    }

    // dbias = sum dy and dscale = inv_std * sum dy (x - mean), with the errors of their computation.
    void backward_sums(const ParameterStats &s, double *dbias, double *dbias_error, double *dscale,
                       double *dscale_error) const {
        const double u = this->u(), M = s.count;
        *dbias = s.dy_sum;
        *dbias_error = sum_error(M, s.dy_abs, u);
        const double centred_error =
            sum_error(M, s.dy_centred_abs, u) + 2 * u * s.dy_centred_abs + s.dy_abs * s.mean_error;
        *dscale = s.dy_centred * s.inv_std;
        *dscale_error = centred_error * s.inv_std + std::fabs(*dscale) * (s.inv_std_error + u);
    }

    ElementBound result_bound(size_t e, const int64_t *index) const {
        const ParameterStats &s = stats_[static_cast<size_t>(parameter_of(index))];
        const double u = this->u(), step = this->step();
        const double x = x_.at(index);
        const double scale = scale_.at(parameter_coordinates(index).data());
        const double before = p_.beta == 0.0 ? 0.0 : p_.beta * initial_.at(index);
        const double centred = std::fabs(x - s.mean);
        ElementBound bound;
        bound.exact = p_.alpha * ref_result_[e] + before;
        double inner_error = 0.0;
        if (p_.phase != BatchNormPhase::backward) {
            const double bias = bias_.at(parameter_coordinates(index).data());
            const double normalised = scale * s.inv_std * (x - s.mean);
            inner_error =
                std::fabs(scale) * s.inv_std * (centred * (s.inv_std_error + 2 * u) + s.mean_error * (1 + u)) +
                step * (std::fabs(normalised) + std::fabs(bias));
            // The add is one more step; ReLU moves nothing further than its input moved.
            if (p_.adds()) inner_error += step * (std::fabs(normalised + bias) + std::fabs(z_.at(index)));
        } else {
            double dbias, dbias_error, dscale, dscale_error;
            backward_sums(s, &dbias, &dbias_error, &dscale, &dscale_error);
            const double M = s.count, g = gradient_.at(index);
            const double bias_term = dbias / M, scale_term = dscale / M, x_hat = (x - s.mean) * s.inv_std;
            const double bias_term_error = dbias_error / M + u * std::fabs(bias_term);
            const double scale_term_error = dscale_error / M + u * std::fabs(scale_term);
            const double x_hat_error =
                (s.mean_error + u * centred) * s.inv_std + centred * s.inv_std * (s.inv_std_error + u);
            const double inner = g - bias_term - x_hat * scale_term;
            const double inner_terms = std::fabs(g) + std::fabs(bias_term) + std::fabs(x_hat * scale_term);
            const double gain = std::fabs(scale * s.inv_std);
            inner_error = gain * (bias_term_error + std::fabs(x_hat) * scale_term_error +
                                  x_hat_error * std::fabs(scale_term) + step * inner_terms) +
                          gain * std::fabs(inner) * (s.inv_std_error + u) + step * gain * std::fabs(inner);
        }
        bound.compute_error =
            std::fabs(p_.alpha) * inner_error + step * (std::fabs(p_.alpha * ref_result_[e]) + std::fabs(before));
        return bound;
    }

    std::vector<int64_t> parameter_coordinates(const int64_t *index) const {
        std::vector<int64_t> at(static_cast<size_t>(p_.x.nb_dims));
        for (int i = 0; i < p_.x.nb_dims; ++i) at[static_cast<size_t>(i)] = p_.parameters.dims[i] == 1 ? 0 : index[i];
        return at;
    }

    ElementBound parameter_bound(Quantity q, size_t k, double old, double reference) const {
        const ParameterStats &s = stats_[k];
        const double u = this->u(), step = this->step(), f = p_.factor;
        ElementBound bound;
        switch (q) {
            case Quantity::running_mean:
            case Quantity::running_variance: {
                const bool mean = q == Quantity::running_mean;
                const double M = s.count;
                const double value = mean ? s.mean : s.variance * M / (M - 1);
                const double error = mean ? s.mean_error : s.variance_error * M / (M - 1) + 2 * u * std::fabs(value);
                const double kept = f == 1.0 ? 0.0 : (1 - f) * old;
                bound.exact = reference;
                bound.compute_error = f * error + step * (std::fabs(f * value) + std::fabs(kept));
                break;
            }
            case Quantity::saved_mean:
                bound.exact = reference;
                bound.compute_error = s.mean_error;
                break;
            case Quantity::saved_inv:
                bound.exact = reference;
                bound.compute_error = s.inv_std_error * s.inv_std;
                break;
            case Quantity::dscale:
            case Quantity::dbias: {
                double dbias, dbias_error, dscale, dscale_error;
                backward_sums(s, &dbias, &dbias_error, &dscale, &dscale_error);
                const double error = q == Quantity::dscale ? dscale_error : dbias_error;
                const double before = p_.param_beta == 0.0 ? 0.0 : p_.param_beta * old;
                bound.exact = p_.param_alpha * reference + before;
                bound.compute_error = std::fabs(p_.param_alpha) * error +
                                      step * (std::fabs(p_.param_alpha * reference) + std::fabs(before));
                break;
            }
        }
        return bound;
    }

    template <class Bound>
    void check(const char *what, const DeviceBuffer &buffer, const HostTensor &initial, const TensorGeometry &g,
               const std::vector<double> &values, Bound &&bound_of) {
        HostTensor result(g);
        result.bytes = buffer.download();
        HostTensor ref = initial;
        std::vector<ElementBound> bounds(values.size());
        int64_t index[kMaxDims] = {};
        size_t e = 0;
        do {
            bounds[e] = bound_of(e, index);
            ref.set(index, bounds[e].exact);
            ++e;
        } while (next_index(index, g.dims, g.nb_dims));
        EXPECT_TRUE(matches_reference(result, ref, bounds, text_ + " [" + what + "]"));
    }

    void check_parameters(const char *what, const DeviceBuffer &buffer, const HostTensor &initial,
                          const std::vector<double> &values, Quantity q) {
        const std::vector<double> old = element_values(initial);
        check(what, buffer, initial, p_.parameters, values,
              [&](size_t k, const int64_t *) { return parameter_bound(q, k, old[k], values[k]); });
    }

    BatchNormProblem p_;
    std::string text_;
    bool ex_ = false, normalization_ = false;
    HostTensor z_, mask_, gradient_;
    HostTensor x_, dy_, initial_, scale_, bias_, mean_, variance_, running_mean_, running_variance_, saved_mean_,
        saved_inv_, dscale_, dbias_;
    std::vector<double> ref_result_, ref_running_mean_, ref_running_variance_, ref_saved_mean_, ref_saved_inv_,
        ref_dscale_, ref_dbias_;
    std::vector<ParameterStats> stats_;
};

TEST(BatchNorm, InferenceMatchesReferenceOnRandomShapesModesAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 120; ++trial) Case(rng, random_problem(rng, BatchNormPhase::inference)).run_and_check();
}

TEST(BatchNorm, TrainingMatchesReferenceOnRandomShapesModesAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 120; ++trial) Case(rng, random_problem(rng, BatchNormPhase::training)).run_and_check();
}

TEST(BatchNorm, BackwardMatchesReferenceOnRandomShapesModesAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 120; ++trial) Case(rng, random_problem(rng, BatchNormPhase::backward)).run_and_check();
}

TEST(BatchNorm, LongReductionsMatchReference) {
    // Thousands of values per channel, far from zero: a one-pass variance would lose the digits.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (BatchNormPhase phase : {BatchNormPhase::training, BatchNormPhase::backward}) {
        for (cudnnDataType_t type : {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF}) {
            BatchNormProblem p = random_problem(rng, phase);
            p.mode = CUDNN_BATCHNORM_SPATIAL;
            const std::vector<int64_t> dims = {8, 3, 24, 40};
            const PackedLayout layout = rng.coin() ? PackedLayout::nchw : PackedLayout::nhwc;
            p.x = p.y = p.dy = p.dx = p.z = packed_geometry(type, 4, dims.data(), layout);
            const int64_t parameter_dims[] = {1, 3, 1, 1};
            p.parameters = packed_geometry(CUDNN_DATA_FLOAT, 4, parameter_dims, PackedLayout::nchw);
            if (phase != BatchNormPhase::backward) p.y = p.x;
            Case(rng, p).run_and_check();
        }
    }
}

// A packed shape over which each thread of the CUDA element-wise kernels (a wave of blocks, at least 3 of 256 threads
// an SM on an H200) takes more vectors than it loads at once (channel_constants.cuh's walk_vectors loops): 5.2 M
// values, about 6 vectors of 16-bit types a thread. CUDA only: the host backend has no such loop, and the shape
// would cost CI's host runs half a minute.
const std::vector<int64_t> kBeyondAWave = {20, 64, 64, 64};

TEST(BatchNorm, InferenceOnPackedLayoutsMatchesReference) {
    // x and y packed alike, channels in whole 16-byte vectors: the CUDA backend's vector path. Planes of 40
    // are whole vectors; planes of 7 x 7 are not (NCHW: a vector holds the end of one channel's plane and
    // the start of the next). 256 channels: NCHW blocks whose ranges meet fewer planes than C (a block stages
    // only those channels, wrapping past the last); 40 and 24 channels: NHWC rows of 3, 5, 6 or 10 vectors
    // (the grid's stride a multiple of them). On CUDA also 20 x 64 x 64 x 64 (kBeyondAWave).
    LIBREDNN_SEEDED_RANDOM(rng);
    std::vector<std::vector<int64_t>> shapes = {
        {3, 16, 5, 8}, {2, 16, 7, 7}, {4, 256, 7, 7}, {3, 40, 6, 6}, {5, 24, 14, 14}};
    if (test_backend() == TestBackend::cuda) shapes.push_back(kBeyondAWave);
    for (cudnnDataType_t type : {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16}) {
        for (PackedLayout layout : {PackedLayout::nchw, PackedLayout::nhwc}) {
            for (const std::vector<int64_t> &dims : shapes) {
                BatchNormProblem p = random_problem(rng, BatchNormPhase::inference);
                p.mode = rng.coin() ? CUDNN_BATCHNORM_SPATIAL : CUDNN_BATCHNORM_SPATIAL_PERSISTENT;
                p.ops = CUDNN_BATCHNORM_OPS_BN;
                p.x = p.y = packed_geometry(type, 4, dims.data(), layout);
                const int64_t parameter_dims[] = {1, dims[1], 1, 1};
                p.parameters = packed_geometry(CUDNN_DATA_FLOAT, 4, parameter_dims, PackedLayout::nchw);
                Case(rng, p).run_and_check();
            }
        }
    }
}

// The backward pass is the gradient of the training forward: with dy = w, dx, dscale and dbias are
// the derivatives of L = sum w * y by x, scale and bias. Central differences in double with step h err
// by about h^2 |L'''| / 6 (under 1e-8 here) plus the rounding of L over h (about 1e-10); 1e-6 leaves
// room for both and still catches any wrong term (each is of order 0.1 to 1).
TEST(BatchNorm, TrainingAndBackwardOnPackedLayoutsMatchReference) {
    // x, y (dy, dx) packed alike in whole 16-byte vectors: the CUDA backend's packed training kernels.
    // NHWC: three passes (statistics of each part of a channel, a merge, an element-wise pass), in channel
    // counts that give tiles of 1 to 16 vectors. NCHW where a channel's N x H x W values fit a cluster's
    // registers (training_cluster.hpp): one cluster a channel, of one block (the random shapes, 3 x 16,
    // 1 x 3 and 20 x 40 of 7 x 7, 10 x 48 of 14 x 14) or several (200 x 6 x 7 x 7, 40 x 4 x 16 x 16), planes
    // walked a warp a plane (up to 64 units: 7 x 7, 9 x 16, 16 x 16, 14 x 14 floats) or flattened over the
    // block (7 x 143 and 48 x 48, longer than a block's threads; 20 x 20, 30 x 30). NCHW beyond a cluster (the last
    // four): one image of 160 x 160 (plane statistics in chunks of 128 vectors), 700 of 14 x 14 (chunks of
    // up to 64; 16-bit types: vectors across two channels' planes), 1400 of 7 x 7 (the forward's small-plane
    // statistics, 16 channels x 8 images a block: 3 channels, a tail, one element a thread where N x C x 49 is
    // not whole vectors; 16 channels, each image's stretch in whole vectors). 32 x 5632 x 1 x 3: more channels
    // than the packed kernels take. NHWC training forward with 16-bit types and channels a multiple of 16 where a
    // tile's rows fit a cluster (training_cluster_nhwc.hpp): 256 x 32 x 7 x 7 (7 blocks a tile, two tiles; the
    // random 4 x 64 x 30 x 30 takes 2 blocks, 5 x 16 x 9 x 16 one), 37 x 48 x 7 x 7 (one block, three tiles);
    // 400 x 16 x 7 x 7 is beyond a cluster (the three passes). On CUDA also kBeyondAWave in both layouts (beyond a
    // cluster: the three passes).
    LIBREDNN_SEEDED_RANDOM(rng);
    const std::vector<std::vector<int64_t>> shapes = {{3, 8, 48, 48}, {4, 64, 30, 30}, {2, 24, 20, 20}, {5, 16, 9, 16}};
    std::vector<std::vector<int64_t>> fixed = {{3, 16, 7, 7},    {1, 3, 7, 7},     {20, 40, 7, 7},  {32, 5632, 1, 3},
                                               {10, 48, 14, 14}, {200, 6, 7, 7},   {40, 4, 16, 16}, {9, 3, 7, 143},
                                               {1, 8, 160, 160}, {700, 2, 14, 14}, {1400, 3, 7, 7}, {1400, 16, 7, 7}};
    std::vector<std::vector<int64_t>> fixed_nhwc = {{256, 32, 7, 7}, {37, 48, 7, 7}, {400, 16, 7, 7}};
    if (test_backend() == TestBackend::cuda) {
        fixed.push_back(kBeyondAWave);
        fixed_nhwc.push_back(kBeyondAWave);
    }
    for (BatchNormPhase phase : {BatchNormPhase::training, BatchNormPhase::backward}) {
        for (cudnnDataType_t type : {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16}) {
            const int fixed_count = static_cast<int>(fixed.size());
            for (int shape = -2; shape < fixed_count + static_cast<int>(fixed_nhwc.size()); ++shape) {
                // NHWC, NCHW, the fixed NCHW shapes, then the fixed NHWC ones.
                const PackedLayout layout =
                    shape == -2 || shape >= fixed_count ? PackedLayout::nhwc : PackedLayout::nchw;
                BatchNormProblem p = random_problem(rng, phase);
                p.mode = rng.coin() ? CUDNN_BATCHNORM_SPATIAL : CUDNN_BATCHNORM_SPATIAL_PERSISTENT;
                p.ops = CUDNN_BATCHNORM_OPS_BN;
                if (phase == BatchNormPhase::backward) p.saved = true;
                const std::vector<int64_t> &dims = shape < 0 ? rng.pick(shapes)
                                                   : shape < fixed_count
                                                       ? fixed[static_cast<size_t>(shape)]
                                                       : fixed_nhwc[static_cast<size_t>(shape - fixed_count)];
                p.x = p.y = p.dy = p.dx = p.z = packed_geometry(type, 4, dims.data(), layout);
                const int64_t parameter_dims[] = {1, dims[1], 1, 1};
                p.parameters = packed_geometry(CUDNN_DATA_FLOAT, 4, parameter_dims, PackedLayout::nchw);
                Case(rng, p).run_and_check();
            }
        }
    }
}

TEST(BatchNorm, BackwardIsTheGradientOfTheTrainingForward) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (cudnnBatchNormMode_t mode : kModes) {
        SCOPED_TRACE(batch_norm_mode_name(mode));
        const int64_t dims[] = {3, 2, 2, 3};
        int64_t parameter_dims[4];
        batch_norm_parameter_dims(mode, 4, dims, parameter_dims);
        const TensorGeometry xg = packed_geometry(CUDNN_DATA_DOUBLE, 4, dims, PackedLayout::nchw);
        const TensorGeometry pg = packed_geometry(CUDNN_DATA_DOUBLE, 4, parameter_dims, PackedLayout::nchw);
        const size_t n = static_cast<size_t>(xg.element_count()), np = static_cast<size_t>(pg.element_count());
        std::vector<double> x(n), w(n), scale(np), bias(np);
        for (double &v : x) v = rng.uniform(-2, 2);
        for (double &v : w) v = rng.uniform(-1, 1);
        for (double &v : scale) v = rng.uniform(0.5, 1.5);
        for (double &v : bias) v = rng.uniform(-1, 1);
        const double epsilon = 1e-3, one = 1.0, zero = 0.0;
        Handle handle;
        TensorDescriptor x_desc(xg), p_desc(pg);
        auto loss = [&](const std::vector<double> &xs, const std::vector<double> &ss, const std::vector<double> &bs) {
            DeviceBuffer xb(bytes_of(xs)), yb(bytes_of(std::vector<double>(n))), sb(bytes_of(ss)), bb(bytes_of(bs));
            EXPECT_EQ(cudnnBatchNormalizationForwardTraining(handle, mode, &one, &zero, x_desc, xb.get(), x_desc,
                                                             yb.get(), p_desc, sb.get(), bb.get(), 1.0, nullptr,
                                                             nullptr, epsilon, nullptr, nullptr),
                      CUDNN_STATUS_SUCCESS);
            const std::vector<double> y = values_of<double>(yb.download());
            double l = 0;
            for (size_t i = 0; i < n; ++i) l += w[i] * y[i];
            return l;
        };
        DeviceBuffer xb(bytes_of(x)), wb(bytes_of(w)), sb(bytes_of(scale)), dxb(bytes_of(std::vector<double>(n)));
        DeviceBuffer dsb(bytes_of(std::vector<double>(np))), dbb(bytes_of(std::vector<double>(np)));
        ASSERT_EQ(cudnnBatchNormalizationBackward(handle, mode, &one, &zero, &one, &zero, x_desc, xb.get(), x_desc,
                                                  wb.get(), x_desc, dxb.get(), p_desc, sb.get(), dsb.get(), dbb.get(),
                                                  epsilon, nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> dx = values_of<double>(dxb.download()), ds = values_of<double>(dsb.download());
        const std::vector<double> db = values_of<double>(dbb.download());
        const double h = 1e-5, tolerance = 1e-6;
        auto l = [&] { return loss(x, scale, bias); };
        for (size_t i = 0; i < n; ++i)
            EXPECT_NEAR(dx[i], central_difference(x, i, h, l), tolerance) << "dx[" << i << "]";
        for (size_t i = 0; i < np; ++i) {
            EXPECT_NEAR(ds[i], central_difference(scale, i, h, l), tolerance) << "dscale[" << i << "]";
            EXPECT_NEAR(db[i], central_difference(bias, i, h, l), tolerance) << "dbias[" << i << "]";
        }
    }
}

TEST(BatchNormRejects, DocumentedMisuse) {
    Handle handle;
    const int64_t x_dims[] = {2, 3, 4, 4}, p_dims[] = {1, 3, 1, 1}, wrong_p[] = {1, 4, 1, 1};
    const int64_t small[] = {2, 3, 4}, small_p[] = {1, 3, 1}, y_wrong[] = {2, 3, 4, 5};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor y_bad(packed_geometry(CUDNN_DATA_FLOAT, 4, y_wrong, PackedLayout::nchw));
    TensorDescriptor half_y(packed_geometry(CUDNN_DATA_HALF, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor p(packed_geometry(CUDNN_DATA_FLOAT, 4, p_dims, PackedLayout::nchw));
    TensorDescriptor p_wrong(packed_geometry(CUDNN_DATA_FLOAT, 4, wrong_p, PackedLayout::nchw));
    TensorDescriptor p_half(packed_geometry(CUDNN_DATA_HALF, 4, p_dims, PackedLayout::nchw));
    TensorDescriptor x3(packed_geometry(CUDNN_DATA_FLOAT, 3, small, PackedLayout::nchw));
    TensorDescriptor p3(packed_geometry(CUDNN_DATA_FLOAT, 3, small_p, PackedLayout::nchw));
    TensorDescriptor int_x(packed_geometry(CUDNN_DATA_INT32, 4, x_dims, PackedLayout::nchw));
    std::vector<float> data(256, 1.0f);
    void *d = data.data();
    const float one = 1.0f, zero = 0.0f;
    const cudnnBatchNormMode_t spatial = CUDNN_BATCHNORM_SPATIAL;
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnBatchNormalizationForwardInference(handle, spatial, &one, &zero, x, d, y_bad, d, p, d, d, d, d, 1e-5),
        "same dims");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnBatchNormalizationForwardInference(handle, spatial, &one, &zero, x, d, half_y, d, p, d, d, d, d, 1e-5),
        "data type");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnBatchNormalizationForwardInference(handle, spatial, &one, &zero, x, d, x, d, p_wrong, d, d, d, d, 1e-5),
        "cudnnDeriveBNTensorDescriptor");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnBatchNormalizationForwardInference(handle, spatial, &one, &zero, x, d, x, d, p_half, d, d, d, d, 1e-5),
        "the parameters are CUDNN_DATA_FLOAT");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnBatchNormalizationForwardInference(handle, spatial, &one, &zero, x3, d, x3, d, p3, d, d, d, d, 1e-5),
        "4-d and 5-d");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnBatchNormalizationForwardInference(handle, spatial, &one, &zero, x, d, x, d, p, d, d, d, d, -1.0),
        "CUDNN_BN_MIN_EPSILON");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationForwardInference(handle, static_cast<cudnnBatchNormMode_t>(7), &one, &zero,
                                                            x, d, x, d, p, d, d, d, d, 1e-5),
                    "mode");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnBatchNormalizationForwardInference(handle, spatial, &one, &zero, x, d, x, d, p, d, d, nullptr, d, 1e-5),
        "estimatedMean is NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_NOT_SUPPORTED,
        cudnnBatchNormalizationForwardInference(handle, spatial, &one, &zero, int_x, d, int_x, d, p, d, d, d, d, 1e-5),
        "CUDNN_DATA_INT32");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationForwardTraining(handle, spatial, &one, &zero, x, d, x, d, p, d, d, 0.1, d,
                                                           nullptr, 1e-5, nullptr, nullptr),
                    "resultRunningVariance is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationForwardTraining(handle, spatial, &one, &zero, x, d, x, d, p, d, d, 0.1,
                                                           nullptr, nullptr, 1e-5, nullptr, d),
                    "resultSaveMean is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationBackward(handle, spatial, &one, &zero, &one, &zero, x, d, x, d, x, d, p, d,
                                                    d, d, 1e-5, d, nullptr),
                    "savedInvVariance is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationBackward(handle, spatial, &one, &zero, &one, &zero, x, d, y_bad, d, x, d, p,
                                                    d, d, d, 1e-5, nullptr, nullptr),
                    "same dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationBackward(handle, spatial, &one, &zero, &one, &zero, x, d, x, d, x, d, p, d,
                                                    nullptr, d, 1e-5, nullptr, nullptr),
                    "dBnScaleResult is NULL");
}

TEST(BatchNormRejects, ExMisuse) {
    Handle handle;
    const int64_t x_dims[] = {2, 3, 4, 4}, p_dims[] = {1, 3, 1, 1}, other[] = {2, 3, 4, 5};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_HALF, 4, x_dims, PackedLayout::nhwc));
    TensorDescriptor z_bad(packed_geometry(CUDNN_DATA_HALF, 4, other, PackedLayout::nhwc));
    TensorDescriptor p(packed_geometry(CUDNN_DATA_FLOAT, 4, p_dims, PackedLayout::nchw));
    cudnnActivationDescriptor_t relu = nullptr, tanh_act = nullptr;
    ASSERT_EQ(cudnnCreateActivationDescriptor(&relu), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateActivationDescriptor(&tanh_act), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetActivationDescriptor(tanh_act, CUDNN_ACTIVATION_TANH, CUDNN_NOT_PROPAGATE_NAN, 0.0),
              CUDNN_STATUS_SUCCESS);
    std::vector<float> data(256, 1.0f);
    void *d = data.data();
    const float one = 1.0f, zero = 0.0f;
    const cudnnBatchNormMode_t mode = CUDNN_BATCHNORM_SPATIAL_PERSISTENT;
    size_t size = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
                        handle, mode, CUDNN_BATCHNORM_OPS_BN_ACTIVATION, x, nullptr, x, p, nullptr, &size),
                    "activationDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
                        handle, mode, CUDNN_BATCHNORM_OPS_BN_ACTIVATION, x, nullptr, x, p, tanh_act, &size),
                    "CUDNN_ACTIVATION_RELU only");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
                        handle, mode, static_cast<cudnnBatchNormOps_t>(5), x, nullptr, x, p, relu, &size),
                    "bnOps is 5");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationForwardTrainingEx(handle, mode, CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION, &one,
                                                             &zero, x, d, nullptr, nullptr, x, d, p, d, d, 0.1, d, d,
                                                             1e-5, d, d, relu, nullptr, 0, nullptr, 0),
                    "zDesc");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationForwardTrainingEx(handle, mode, CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION, &one,
                                                             &zero, x, d, z_bad, d, x, d, p, d, d, 0.1, d, d, 1e-5, d,
                                                             d, relu, nullptr, 0, nullptr, 0),
                    "same dims");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnBatchNormalizationBackwardEx(handle, mode, CUDNN_BATCHNORM_OPS_BN_ACTIVATION, &one, &zero, &one, &zero, x,
                                          d, nullptr, nullptr, x, d, nullptr, nullptr, x, d, p, d, d, d, d, 1e-5,
                                          nullptr, nullptr, relu, nullptr, 0, nullptr, 0),
        "yDesc");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnBatchNormalizationBackwardEx(handle, mode, CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION, &one, &zero,
                                                      &one, &zero, x, d, x, d, x, d, x, nullptr, x, d, p, d, d, d, d,
                                                      1e-5, nullptr, nullptr, relu, nullptr, 0, nullptr, 0),
                    "dzData is NULL");
    cudnnDestroyActivationDescriptor(relu);
    cudnnDestroyActivationDescriptor(tanh_act);
}

TEST(BatchNormRejects, NormalizationMisuse) {
    Handle handle;
    const int64_t x_dims[] = {2, 3, 4, 4}, p_dims[] = {1, 3, 1, 1};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor p(packed_geometry(CUDNN_DATA_FLOAT, 4, p_dims, PackedLayout::nchw));
    TensorDescriptor p_double(packed_geometry(CUDNN_DATA_DOUBLE, 4, p_dims, PackedLayout::nchw));
    std::vector<float> data(256, 1.0f);
    void *d = data.data();
    const float one = 1.0f, zero = 0.0f;
    auto inference = [&](cudnnNormMode_t mode, cudnnNormAlgo_t algo, cudnnTensorDescriptor_t mean_var, int groups) {
        return cudnnNormalizationForwardInference(handle, mode, CUDNN_NORM_OPS_NORM, algo, &one, &zero, x, d, p, d, d,
                                                  mean_var, d, d, nullptr, nullptr, nullptr, x, d, 1e-5, groups);
    };
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, inference(CUDNN_NORM_PER_CHANNEL, CUDNN_NORM_ALGO_STANDARD, p, 2),
                    "groupCnt is 2");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, inference(CUDNN_NORM_PER_CHANNEL, CUDNN_NORM_ALGO_STANDARD, p, 0),
                    "groupCnt is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, inference(static_cast<cudnnNormMode_t>(4), CUDNN_NORM_ALGO_STANDARD, p, 1),
                    "mode is 4");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, inference(CUDNN_NORM_PER_CHANNEL, static_cast<cudnnNormAlgo_t>(3), p, 1),
                    "algo is 3");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    inference(CUDNN_NORM_PER_CHANNEL, CUDNN_NORM_ALGO_STANDARD, p_double, 1), "alike");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, inference(CUDNN_NORM_PER_ACTIVATION, CUDNN_NORM_ALGO_STANDARD, p, 1),
                    "cudnnDeriveBNTensorDescriptor");
}

TEST(BatchNormProblemString, RoundTrips) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 60; ++trial) {
        const BatchNormProblem p = random_problem(rng, static_cast<BatchNormPhase>(trial % 3));
        const ProblemString text = to_problem_string(p);
        BatchNormProblem back;
        std::string error;
        ASSERT_TRUE(parse_batch_norm_problem(text, &back, &error)) << text.to_string() << ": " << error;
        EXPECT_EQ(to_problem_string(back).to_string(), text.to_string());
    }
}

}  // namespace
