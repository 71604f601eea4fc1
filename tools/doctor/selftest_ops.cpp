// The self-test's operation checks and the timed ResNet stem (see selftest_ops.hpp).
#include "selftest_ops.hpp"

#include "selftest_reference.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>

namespace librednn::doctor {
namespace {

using reference::Conv2d;
using reference::Pool2d;
using reference::Shape4;

std::string scientific(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2g", value);
    return text;
}

std::vector<float> random_values(std::mt19937 &random, int64_t count, float low = -1, float high = 1) {
    std::uniform_real_distribution<float> distribution(low, high);
    std::vector<float> values(static_cast<size_t>(count));
    for (float &value : values) value = distribution(random);
    return values;
}

// One check's resources and its first failure. Every step returns false after recording why, so a
// check reads as a list of TRY(step) lines.
class Op {
public:
    explicit Op(OpEnvironment &environment) : env_(environment), api_(environment.api) {}
    ~Op() {
        for (auto action = cleanup_.rbegin(); action != cleanup_.rend(); ++action) (*action)();
    }
    Op(const Op &) = delete;
    Op &operator=(const Op &) = delete;

    const OpResult &result() const { return result_; }
    CudnnApi &api() { return api_; }
    cudnnHandle_t handle() { return env_.handle; }

    bool fail(std::string detail) {
        result_ = {OpResult::Kind::failed, std::move(detail)};
        return false;
    }
    // A status from the library: success, "not provided" (NOT_SUPPORTED), or a failure.
    bool call(cudnnStatus_t status, const char *function) {
        if (status == CUDNN_STATUS_SUCCESS) return true;
        const OpResult::Kind kind = api_.not_supported(status) ? OpResult::Kind::not_supported : OpResult::Kind::failed;
        result_ = {kind, std::string(function) + ": " + api_.describe(status)};
        return false;
    }
    bool has(const void *function, const char *name) {
        return function != nullptr || fail(std::string("the library does not export ") + name);
    }
    // Runs `action` when the check ends (descriptors the check made, in reverse order of making).
    void at_end(std::function<void()> action) { cleanup_.push_back(std::move(action)); }

    bool tensor(const Shape4 &shape, cudnnTensorDescriptor_t *descriptor) {
        if (!has(reinterpret_cast<void *>(api_.cudnnCreateTensorDescriptor), "cudnnCreateTensorDescriptor") ||
            !call(api_.cudnnCreateTensorDescriptor(descriptor), "cudnnCreateTensorDescriptor")) {
            return false;
        }
        const cudnnTensorDescriptor_t created = *descriptor;
        cleanup_.push_back([this, created] { api_.cudnnDestroyTensorDescriptor(created); });
        return call(api_.cudnnSetTensor4dDescriptor(created, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, shape.n, shape.c,
                                                    shape.h, shape.w),
                    "cudnnSetTensor4dDescriptor");
    }
    bool filter(const Shape4 &shape, cudnnFilterDescriptor_t *descriptor) {
        if (!call(api_.cudnnCreateFilterDescriptor(descriptor), "cudnnCreateFilterDescriptor")) return false;
        const cudnnFilterDescriptor_t created = *descriptor;
        cleanup_.push_back([this, created] { api_.cudnnDestroyFilterDescriptor(created); });
        return call(api_.cudnnSetFilter4dDescriptor(created, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, shape.n, shape.c,
                                                    shape.h, shape.w),
                    "cudnnSetFilter4dDescriptor");
    }
    bool convolution(const Conv2d &conv, cudnnConvolutionDescriptor_t *descriptor) {
        if (!call(api_.cudnnCreateConvolutionDescriptor(descriptor), "cudnnCreateConvolutionDescriptor")) return false;
        const cudnnConvolutionDescriptor_t created = *descriptor;
        cleanup_.push_back([this, created] { api_.cudnnDestroyConvolutionDescriptor(created); });
        if (!call(api_.cudnnSetConvolution2dDescriptor(created, conv.pad_h, conv.pad_w, conv.stride_h, conv.stride_w,
                                                       conv.dilation_h, conv.dilation_w, CUDNN_CROSS_CORRELATION,
                                                       CUDNN_DATA_FLOAT),
                  "cudnnSetConvolution2dDescriptor")) {
            return false;
        }
        // Plain fp32 arithmetic: TF32 tensor cores (the default on Ampere and later) round inputs
        // to 10 mantissa bits, beyond the tolerance this test holds fp32 to.
        return api_.cudnnSetConvolutionMathType == nullptr ||
               call(api_.cudnnSetConvolutionMathType(created, CUDNN_FMA_MATH), "cudnnSetConvolutionMathType");
    }
    bool activation(cudnnActivationDescriptor_t *descriptor) {
        if (!has(reinterpret_cast<void *>(api_.cudnnCreateActivationDescriptor), "cudnnCreateActivationDescriptor") ||
            !call(api_.cudnnCreateActivationDescriptor(descriptor), "cudnnCreateActivationDescriptor")) {
            return false;
        }
        const cudnnActivationDescriptor_t created = *descriptor;
        cleanup_.push_back([this, created] { api_.cudnnDestroyActivationDescriptor(created); });
        return call(api_.cudnnSetActivationDescriptor(created, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0),
                    "cudnnSetActivationDescriptor");
    }
    bool pooling(const Pool2d &pool, cudnnPoolingDescriptor_t *descriptor) {
        if (!has(reinterpret_cast<void *>(api_.cudnnCreatePoolingDescriptor), "cudnnCreatePoolingDescriptor") ||
            !call(api_.cudnnCreatePoolingDescriptor(descriptor), "cudnnCreatePoolingDescriptor")) {
            return false;
        }
        const cudnnPoolingDescriptor_t created = *descriptor;
        cleanup_.push_back([this, created] { api_.cudnnDestroyPoolingDescriptor(created); });
        return call(
            api_.cudnnSetPooling2dDescriptor(created, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, pool.window_h,
                                             pool.window_w, pool.pad_h, pool.pad_w, pool.stride_h, pool.stride_w),
            "cudnnSetPooling2dDescriptor");
    }

    // A buffer holding `values`, or (output) `count` floats poisoned with NaN, so that a result the
    // library never writes cannot pass.
    bool input(const std::vector<float> &values, void **data) { return buffer(values.size(), &values, data); }
    bool output(size_t count, void **data) {
        const std::vector<float> poison(count, std::numeric_limits<float>::quiet_NaN());
        return buffer(count, &poison, data);
    }
    bool workspace(size_t bytes, void **data) {
        if (bytes == 0) {
            *data = nullptr;
            return true;
        }
        return buffer((bytes + sizeof(float) - 1) / sizeof(float), nullptr, data);
    }
    bool read(void *data, std::vector<float> *values) {
        for (const auto &buffer : buffers_) {
            if (buffer->data() == data) {
                return buffer->read(values) || fail("copying a result back from the GPU failed");
            }
        }
        return fail("internal error: unknown buffer");
    }

    // Picks the first algorithm the heuristic finds usable; when the heuristic is missing or
    // fails, a fixed deterministic algorithm (the call itself then says whether it is provided).
    cudnnConvolutionFwdAlgo_t forward_algorithm(cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
                                                cudnnConvolutionDescriptor_t conv, cudnnTensorDescriptor_t y) {
        cudnnConvolutionFwdAlgoPerf_t results[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        int returned = 0;
        if (api_.cudnnGetConvolutionForwardAlgorithm_v7 &&
            api_.cudnnGetConvolutionForwardAlgorithm_v7(handle(), x, w, conv, y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                        &returned, results) == CUDNN_STATUS_SUCCESS) {
            for (int i = 0; i < returned; ++i) {
                if (results[i].status == CUDNN_STATUS_SUCCESS) return results[i].algo;
            }
        }
        return CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    }
    cudnnConvolutionBwdDataAlgo_t backward_data_algorithm(cudnnFilterDescriptor_t w, cudnnTensorDescriptor_t dy,
                                                          cudnnConvolutionDescriptor_t conv,
                                                          cudnnTensorDescriptor_t dx) {
        cudnnConvolutionBwdDataAlgoPerf_t results[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        int returned = 0;
        if (api_.cudnnGetConvolutionBackwardDataAlgorithm_v7 &&
            api_.cudnnGetConvolutionBackwardDataAlgorithm_v7(handle(), w, dy, conv, dx,
                                                             CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &returned,
                                                             results) == CUDNN_STATUS_SUCCESS) {
            for (int i = 0; i < returned; ++i) {
                if (results[i].status == CUDNN_STATUS_SUCCESS) return results[i].algo;
            }
        }
        return CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
    }
    cudnnConvolutionBwdFilterAlgo_t backward_filter_algorithm(cudnnTensorDescriptor_t x, cudnnTensorDescriptor_t dy,
                                                              cudnnConvolutionDescriptor_t conv,
                                                              cudnnFilterDescriptor_t dw) {
        cudnnConvolutionBwdFilterAlgoPerf_t results[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        int returned = 0;
        if (api_.cudnnGetConvolutionBackwardFilterAlgorithm_v7 &&
            api_.cudnnGetConvolutionBackwardFilterAlgorithm_v7(handle(), x, dy, conv, dw,
                                                               CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &returned,
                                                               results) == CUDNN_STATUS_SUCCESS) {
            for (int i = 0; i < returned; ++i) {
                if (results[i].status == CUDNN_STATUS_SUCCESS) return results[i].algo;
            }
        }
        return CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
    }

    // Sets the result to pass or mismatch; returns whether it passed.
    bool compare(const char *what, const std::vector<float> &out, const std::vector<double> &ref, double tolerance) {
        const double error = reference::relative_error(out, ref);
        std::string detail = std::string(what) + ": relative error " + scientific(error) + " (tolerance " +
                             (tolerance == 0 ? std::string("0, exact") : scientific(tolerance)) + ")";
        if (error <= tolerance) {
            if (result_.kind != OpResult::Kind::mismatch) {
                result_.kind = OpResult::Kind::pass;
                result_.detail += (result_.detail.empty() ? "" : "; ") + detail;
            }
            return true;
        }
        // Name the worst element, so that a wrong index pattern shows.
        size_t worst = 0;
        double worst_difference = -1;
        for (size_t i = 0; i < out.size() && i < ref.size(); ++i) {
            const double difference =
                std::isfinite(out[i]) ? std::fabs(out[i] - ref[i]) : std::numeric_limits<double>::infinity();
            if (difference > worst_difference) {
                worst_difference = difference;
                worst = i;
            }
        }
        if (worst < out.size() && worst < ref.size()) {
            detail += "; worst at element " + std::to_string(worst) + ": got " + std::to_string(out[worst]) +
                      ", expected " + std::to_string(ref[worst]);
        }
        result_ = {OpResult::Kind::mismatch, detail};
        return false;
    }

private:
    bool buffer(size_t count, const std::vector<float> *values, void **data) {
        auto made = std::make_unique<Buffer>(env_.memory, count);
        if (!made->ok()) return fail("allocating " + std::to_string(count * sizeof(float)) + " bytes failed");
        if (values != nullptr && !made->write(*values)) return fail("copying an input to the GPU failed");
        *data = made->data();
        buffers_.push_back(std::move(made));
        return true;
    }

    OpEnvironment &env_;
    CudnnApi &api_;
    OpResult result_;
    std::vector<std::function<void()>> cleanup_;
    std::vector<std::unique_ptr<Buffer>> buffers_;
};

#define TRY(step)                        \
    do {                                 \
        if (!(step)) return op.result(); \
    } while (0)

const float kOne = 1.0f, kZero = 0.0f;

OpResult check_convolution(OpEnvironment &env) {
    Op op(env);
    const Shape4 xs{2, 3, 13, 11}, ws{4, 3, 3, 3};
    const Conv2d conv{1, 1, 2, 2, 1, 1};
    const Shape4 ys = conv.output(xs, ws);
    const std::vector<float> x = random_values(env.random, xs.count()), w = random_values(env.random, ws.count());
    CudnnApi &api = op.api();
    TRY(op.has(reinterpret_cast<void *>(api.cudnnConvolutionForward), "cudnnConvolutionForward"));
    cudnnTensorDescriptor_t x_desc, y_desc;
    cudnnFilterDescriptor_t w_desc;
    cudnnConvolutionDescriptor_t conv_desc;
    TRY(op.tensor(xs, &x_desc) && op.tensor(ys, &y_desc) && op.filter(ws, &w_desc) && op.convolution(conv, &conv_desc));
    void *x_data, *w_data, *y_data, *workspace;
    TRY(op.input(x, &x_data) && op.input(w, &w_data) && op.output(ys.count(), &y_data));
    const cudnnConvolutionFwdAlgo_t algo = op.forward_algorithm(x_desc, w_desc, conv_desc, y_desc);
    size_t bytes = 0;
    TRY(op.call(
        api.cudnnGetConvolutionForwardWorkspaceSize(op.handle(), x_desc, w_desc, conv_desc, y_desc, algo, &bytes),
        "cudnnGetConvolutionForwardWorkspaceSize"));
    TRY(op.workspace(bytes, &workspace));
    TRY(op.call(api.cudnnConvolutionForward(op.handle(), &kOne, x_desc, x_data, w_desc, w_data, conv_desc, algo,
                                            workspace, bytes, &kZero, y_desc, y_data),
                "cudnnConvolutionForward"));
    std::vector<float> y;
    TRY(op.read(y_data, &y));
    op.compare("y", y, reference::convolution_forward(conv, xs, x, ws, w), reference::kConvolutionTolerance);
    return op.result();
}

OpResult check_batch_norm(OpEnvironment &env) {
    Op op(env);
    const Shape4 xs{2, 4, 5, 5}, ps{1, 4, 1, 1};
    const double epsilon = 1e-5;
    const std::vector<float> x = random_values(env.random, xs.count(), -2, 2);
    const std::vector<float> scale = random_values(env.random, 4, 0.5f, 1.5f), bias = random_values(env.random, 4);
    const std::vector<float> mean = random_values(env.random, 4), variance = random_values(env.random, 4, 0.1f, 2.0f);
    CudnnApi &api = op.api();
    TRY(op.has(reinterpret_cast<void *>(api.cudnnBatchNormalizationForwardInference),
               "cudnnBatchNormalizationForwardInference"));
    cudnnTensorDescriptor_t x_desc, p_desc;
    TRY(op.tensor(xs, &x_desc) && op.tensor(ps, &p_desc));
    void *x_data, *y_data, *scale_data, *bias_data, *mean_data, *variance_data;
    TRY(op.input(x, &x_data) && op.output(xs.count(), &y_data) && op.input(scale, &scale_data) &&
        op.input(bias, &bias_data) && op.input(mean, &mean_data) && op.input(variance, &variance_data));
    TRY(op.call(api.cudnnBatchNormalizationForwardInference(op.handle(), CUDNN_BATCHNORM_SPATIAL, &kOne, &kZero, x_desc,
                                                            x_data, x_desc, y_data, p_desc, scale_data, bias_data,
                                                            mean_data, variance_data, epsilon),
                "cudnnBatchNormalizationForwardInference"));
    std::vector<float> y;
    TRY(op.read(y_data, &y));
    op.compare("y", y, reference::batch_norm_inference(xs, x, scale, bias, mean, variance, epsilon),
               reference::kElementwiseTolerance);
    return op.result();
}

OpResult check_pooling(OpEnvironment &env) {
    Op op(env);
    const Shape4 xs{2, 3, 9, 9};
    const Pool2d pool{3, 3, 1, 1, 2, 2};
    const Shape4 ys = pool.output(xs);
    const std::vector<float> x = random_values(env.random, xs.count());
    CudnnApi &api = op.api();
    TRY(op.has(reinterpret_cast<void *>(api.cudnnPoolingForward), "cudnnPoolingForward"));
    cudnnTensorDescriptor_t x_desc, y_desc;
    cudnnPoolingDescriptor_t pool_desc;
    TRY(op.tensor(xs, &x_desc) && op.tensor(ys, &y_desc) && op.pooling(pool, &pool_desc));
    void *x_data, *y_data;
    TRY(op.input(x, &x_data) && op.output(ys.count(), &y_data));
    TRY(op.call(api.cudnnPoolingForward(op.handle(), pool_desc, &kOne, x_desc, x_data, &kZero, y_desc, y_data),
                "cudnnPoolingForward"));
    std::vector<float> y;
    TRY(op.read(y_data, &y));
    op.compare("y", y, reference::max_pooling(pool, xs, x), reference::kPoolingTolerance);
    return op.result();
}

OpResult check_softmax(OpEnvironment &env) {
    Op op(env);
    const Shape4 xs{2, 10, 3, 3};
    const std::vector<float> x = random_values(env.random, xs.count(), -4, 4);
    CudnnApi &api = op.api();
    TRY(op.has(reinterpret_cast<void *>(api.cudnnSoftmaxForward), "cudnnSoftmaxForward"));
    cudnnTensorDescriptor_t x_desc;
    TRY(op.tensor(xs, &x_desc));
    void *x_data, *y_data;
    TRY(op.input(x, &x_data) && op.output(xs.count(), &y_data));
    // Two cases: the accurate softmax over channels, and the log softmax over whole instances.
    TRY(op.call(api.cudnnSoftmaxForward(op.handle(), CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &kOne, x_desc,
                                        x_data, &kZero, x_desc, y_data),
                "cudnnSoftmaxForward (accurate, channel)"));
    std::vector<float> y;
    TRY(op.read(y_data, &y));
    TRY(op.compare("accurate/channel", y, reference::softmax(xs, x, true, false), reference::kElementwiseTolerance));
    void *log_data;
    TRY(op.output(xs.count(), &log_data));
    TRY(op.call(api.cudnnSoftmaxForward(op.handle(), CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE, &kOne, x_desc,
                                        x_data, &kZero, x_desc, log_data),
                "cudnnSoftmaxForward (log, instance)"));
    TRY(op.read(log_data, &y));
    op.compare("log/instance", y, reference::softmax(xs, x, false, true), reference::kElementwiseTolerance);
    return op.result();
}

// One SGD step of a one-layer network: a = relu(conv(x, w)), loss = sum (a - t)^2 / 2, then
// dy = relu'(conv(x, w)) * (a - t), dw = conv_backward_filter(x, dy), dx = conv_backward_data(w, dy)
// and w' = w - rate * dw. The library does every step but the loss gradient and the update.
OpResult check_training_step(OpEnvironment &env) {
    Op op(env);
    const Shape4 xs{2, 3, 8, 8}, ws{4, 3, 3, 3};
    const Conv2d conv{1, 1, 1, 1, 1, 1};
    const Shape4 ys = conv.output(xs, ws);
    const float rate = 0.01f;
    const std::vector<float> x = random_values(env.random, xs.count()), w = random_values(env.random, ws.count());
    const std::vector<float> target = random_values(env.random, ys.count());
    CudnnApi &api = op.api();
    for (const auto &[function, name] :
         {std::pair<const void *, const char *>{reinterpret_cast<void *>(api.cudnnConvolutionForward),
                                                "cudnnConvolutionForward"},
          {reinterpret_cast<void *>(api.cudnnActivationForward), "cudnnActivationForward"},
          {reinterpret_cast<void *>(api.cudnnActivationBackward), "cudnnActivationBackward"},
          {reinterpret_cast<void *>(api.cudnnConvolutionBackwardData), "cudnnConvolutionBackwardData"},
          {reinterpret_cast<void *>(api.cudnnConvolutionBackwardFilter), "cudnnConvolutionBackwardFilter"}}) {
        TRY(op.has(function, name));
    }
    cudnnTensorDescriptor_t x_desc, y_desc;
    cudnnFilterDescriptor_t w_desc;
    cudnnConvolutionDescriptor_t conv_desc;
    cudnnActivationDescriptor_t relu_desc;
    TRY(op.tensor(xs, &x_desc) && op.tensor(ys, &y_desc) && op.filter(ws, &w_desc) &&
        op.convolution(conv, &conv_desc) && op.activation(&relu_desc));
    void *x_data, *w_data, *y_data, *a_data, *da_data, *dy_data, *dw_data, *dx_data, *workspace;
    TRY(op.input(x, &x_data) && op.input(w, &w_data) && op.output(ys.count(), &y_data) &&
        op.output(ys.count(), &a_data));

    // Forward: y = conv(x, w), a = relu(y).
    const cudnnConvolutionFwdAlgo_t forward = op.forward_algorithm(x_desc, w_desc, conv_desc, y_desc);
    size_t bytes = 0;
    TRY(op.call(
        api.cudnnGetConvolutionForwardWorkspaceSize(op.handle(), x_desc, w_desc, conv_desc, y_desc, forward, &bytes),
        "cudnnGetConvolutionForwardWorkspaceSize"));
    TRY(op.workspace(bytes, &workspace));
    TRY(op.call(api.cudnnConvolutionForward(op.handle(), &kOne, x_desc, x_data, w_desc, w_data, conv_desc, forward,
                                            workspace, bytes, &kZero, y_desc, y_data),
                "cudnnConvolutionForward"));
    TRY(op.call(api.cudnnActivationForward(op.handle(), relu_desc, &kOne, y_desc, y_data, &kZero, y_desc, a_data),
                "cudnnActivationForward"));
    std::vector<float> y, a;
    TRY(op.read(y_data, &y) && op.read(a_data, &a));
    TRY(op.compare("forward", a, reference::relu(y), reference::kElementwiseTolerance));
    const std::vector<double> y_ref = reference::convolution_forward(conv, xs, x, ws, w);
    TRY(op.compare("convolution", y, y_ref, reference::kConvolutionTolerance));

    // The loss gradient, on the host, from the library's own activations.
    std::vector<float> da(a.size());
    for (size_t i = 0; i < a.size(); ++i) da[i] = a[i] - target[i];
    TRY(op.input(da, &da_data) && op.output(ys.count(), &dy_data));
    TRY(op.call(api.cudnnActivationBackward(op.handle(), relu_desc, &kOne, y_desc, a_data, y_desc, da_data, y_desc,
                                            y_data, &kZero, y_desc, dy_data),
                "cudnnActivationBackward"));
    std::vector<float> dy;
    TRY(op.read(dy_data, &dy));
    TRY(op.compare("relu backward", dy, reference::relu_backward(y, da), reference::kElementwiseTolerance));

    // Backward: dw and dx from the library's dy, compared with the reference's from the same dy.
    TRY(op.output(ws.count(), &dw_data) && op.output(xs.count(), &dx_data));
    const cudnnConvolutionBwdFilterAlgo_t filter_algo = op.backward_filter_algorithm(x_desc, y_desc, conv_desc, w_desc);
    TRY(op.call(api.cudnnGetConvolutionBackwardFilterWorkspaceSize(op.handle(), x_desc, y_desc, conv_desc, w_desc,
                                                                   filter_algo, &bytes),
                "cudnnGetConvolutionBackwardFilterWorkspaceSize"));
    TRY(op.workspace(bytes, &workspace));
    TRY(op.call(api.cudnnConvolutionBackwardFilter(op.handle(), &kOne, x_desc, x_data, y_desc, dy_data, conv_desc,
                                                   filter_algo, workspace, bytes, &kZero, w_desc, dw_data),
                "cudnnConvolutionBackwardFilter"));
    const cudnnConvolutionBwdDataAlgo_t data_algo = op.backward_data_algorithm(w_desc, y_desc, conv_desc, x_desc);
    TRY(op.call(api.cudnnGetConvolutionBackwardDataWorkspaceSize(op.handle(), w_desc, y_desc, conv_desc, x_desc,
                                                                 data_algo, &bytes),
                "cudnnGetConvolutionBackwardDataWorkspaceSize"));
    TRY(op.workspace(bytes, &workspace));
    TRY(op.call(api.cudnnConvolutionBackwardData(op.handle(), &kOne, w_desc, w_data, y_desc, dy_data, conv_desc,
                                                 data_algo, workspace, bytes, &kZero, x_desc, dx_data),
                "cudnnConvolutionBackwardData"));
    std::vector<float> dw, dx;
    TRY(op.read(dw_data, &dw) && op.read(dx_data, &dx));
    const std::vector<double> dw_ref = reference::convolution_backward_filter(conv, xs, x, ws, dy);
    TRY(op.compare("dw", dw, dw_ref, reference::kTrainingTolerance));
    TRY(op.compare("dx", dx, reference::convolution_backward_data(conv, xs, ws, w, dy), reference::kTrainingTolerance));

    // The update, checked as the weights a training step would produce.
    std::vector<float> updated(w.size());
    std::vector<double> updated_ref(w.size());
    for (size_t i = 0; i < w.size(); ++i) {
        updated[i] = w[i] - rate * dw[i];
        updated_ref[i] = w[i] - rate * dw_ref[i];
    }
    op.compare("updated weights", updated, updated_ref, reference::kTrainingTolerance);
    return op.result();
}

// The network the RNN checks run through cuDNN's v8 API: one layer, one direction, an LSTM or a GRU, input 5,
// hidden 4, two sequences of 3 and 2 steps (sequence-major, padded, fill 0), hx (and the LSTM's cx) given, both
// bias vectors. The weights
// are random values in the weight space, found again through cudnnGetRNNWeightParams for the reference, so that
// a check holds any library to its own layout. FMA math where the library takes it: TF32 would round beyond
// the tolerances.
struct RnnCase {
    static constexpr int kInput = 5, kHidden = 4, kSteps = 3, kBatch = 2;
    cudnnRNNMode_t cell = CUDNN_LSTM;
    reference::RnnLayer net;
    cudnnRNNDescriptor_t rnn = nullptr;
    cudnnRNNDataDescriptor_t x_desc = nullptr, y_desc = nullptr;
    cudnnTensorDescriptor_t h_desc = nullptr;
    size_t weight_bytes = 0;
    std::vector<float> weights, x, hx, cx;
    std::vector<int64_t> matrix_at, bias_at;  // each linLayerID's place in the weight space, in floats
    void *w_data = nullptr, *x_data = nullptr, *hx_data = nullptr, *cx_data = nullptr, *lengths_data = nullptr;

    int gates() const { return cell == CUDNN_LSTM ? 4 : 3; }
    int64_t matrix_count(int id) const { return int64_t{kHidden} * (id < gates() ? kInput : kHidden); }

    // The pieces of a weight-space image (the weights or their gradients) in linLayerID order: the matrices,
    // then the biases, one vector.
    std::vector<float> pieces(const std::vector<float> &space) const {
        std::vector<float> out;
        for (int id = 0; id < 2 * gates(); ++id)
            out.insert(out.end(), space.begin() + matrix_at[id], space.begin() + matrix_at[id] + matrix_count(id));
        for (int id = 0; id < 2 * gates(); ++id)
            out.insert(out.end(), space.begin() + bias_at[id], space.begin() + bias_at[id] + kHidden);
        return out;
    }
};

bool prepare_rnn(Op &op, OpEnvironment &env, cudnnRNNMode_t cell, RnnCase *c) {
    CudnnApi &api = op.api();
    constexpr int kInput = RnnCase::kInput, kHidden = RnnCase::kHidden;
    constexpr int kSteps = RnnCase::kSteps, kBatch = RnnCase::kBatch;
    c->cell = cell;
    c->net.input = kInput, c->net.hidden = kHidden, c->net.steps = kSteps, c->net.batch = kBatch;
    c->net.lengths = {3, 2};
    for (const auto &[function, name] :
         {std::pair<const void *, const char *>{reinterpret_cast<void *>(api.cudnnCreateRNNDescriptor),
                                                "cudnnCreateRNNDescriptor"},
          {reinterpret_cast<void *>(api.cudnnSetRNNDescriptor_v8), "cudnnSetRNNDescriptor_v8"},
          {reinterpret_cast<void *>(api.cudnnCreateRNNDataDescriptor), "cudnnCreateRNNDataDescriptor"},
          {reinterpret_cast<void *>(api.cudnnSetRNNDataDescriptor), "cudnnSetRNNDataDescriptor"},
          {reinterpret_cast<void *>(api.cudnnCreateDropoutDescriptor), "cudnnCreateDropoutDescriptor"},
          {reinterpret_cast<void *>(api.cudnnSetDropoutDescriptor), "cudnnSetDropoutDescriptor"},
          {reinterpret_cast<void *>(api.cudnnSetTensorNdDescriptor), "cudnnSetTensorNdDescriptor"},
          {reinterpret_cast<void *>(api.cudnnGetRNNWeightSpaceSize), "cudnnGetRNNWeightSpaceSize"},
          {reinterpret_cast<void *>(api.cudnnGetRNNTempSpaceSizes), "cudnnGetRNNTempSpaceSizes"},
          {reinterpret_cast<void *>(api.cudnnGetRNNWeightParams), "cudnnGetRNNWeightParams"},
          {reinterpret_cast<void *>(api.cudnnRNNForward), "cudnnRNNForward"}}) {
        if (!op.has(function, name)) return false;
    }
    cudnnDropoutDescriptor_t dropout;
    if (!op.call(api.cudnnCreateDropoutDescriptor(&dropout), "cudnnCreateDropoutDescriptor")) return false;
    op.at_end([&api, dropout] { api.cudnnDestroyDropoutDescriptor(dropout); });
    if (!op.call(api.cudnnSetDropoutDescriptor(dropout, op.handle(), 0.0f, nullptr, 0, 1), "cudnnSetDropoutDescriptor"))
        return false;
    if (!op.call(api.cudnnCreateRNNDescriptor(&c->rnn), "cudnnCreateRNNDescriptor")) return false;
    const cudnnRNNDescriptor_t rnn = c->rnn;
    op.at_end([&api, rnn] { api.cudnnDestroyRNNDescriptor(rnn); });
    const auto set_rnn = [&](cudnnMathType_t math) {
        return api.cudnnSetRNNDescriptor_v8(rnn, CUDNN_RNN_ALGO_STANDARD, cell, CUDNN_RNN_DOUBLE_BIAS,
                                            CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, CUDNN_DATA_FLOAT,
                                            CUDNN_DATA_FLOAT, math, kInput, kHidden, kHidden, 1, dropout,
                                            CUDNN_RNN_PADDED_IO_ENABLED);
    };
    if (set_rnn(CUDNN_FMA_MATH) != CUDNN_STATUS_SUCCESS &&
        !op.call(set_rnn(CUDNN_DEFAULT_MATH), "cudnnSetRNNDescriptor_v8")) {
        return false;
    }
    float fill = 0.0f;
    for (const auto &[descriptor, width] :
         {std::pair<cudnnRNNDataDescriptor_t *, int>{&c->x_desc, kInput}, {&c->y_desc, kHidden}}) {
        if (!op.call(api.cudnnCreateRNNDataDescriptor(descriptor), "cudnnCreateRNNDataDescriptor")) return false;
        const cudnnRNNDataDescriptor_t made = *descriptor;
        op.at_end([&api, made] { api.cudnnDestroyRNNDataDescriptor(made); });
        if (!op.call(api.cudnnSetRNNDataDescriptor(made, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED,
                                                   kSteps, kBatch, width, c->net.lengths.data(), &fill),
                     "cudnnSetRNNDataDescriptor")) {
            return false;
        }
    }
    if (!op.call(api.cudnnCreateTensorDescriptor(&c->h_desc), "cudnnCreateTensorDescriptor")) return false;
    const cudnnTensorDescriptor_t h_desc = c->h_desc;
    op.at_end([&api, h_desc] { api.cudnnDestroyTensorDescriptor(h_desc); });
    const int dims[3] = {1, kBatch, kHidden}, strides[3] = {kBatch * kHidden, kHidden, 1};
    if (!op.call(api.cudnnSetTensorNdDescriptor(h_desc, CUDNN_DATA_FLOAT, 3, dims, strides),
                 "cudnnSetTensorNdDescriptor") ||
        !op.call(api.cudnnGetRNNWeightSpaceSize(op.handle(), rnn, &c->weight_bytes), "cudnnGetRNNWeightSpaceSize")) {
        return false;
    }
    c->weights = random_values(env.random, static_cast<int64_t>(c->weight_bytes / sizeof(float)));
    c->x = random_values(env.random, int64_t{kSteps} * kBatch * kInput);
    c->hx = random_values(env.random, kBatch * kHidden);
    c->cx = random_values(env.random, kBatch * kHidden);
    // devSeqLengths: the lengths again, in the library's memory (their bits carried in a float buffer).
    std::vector<float> length_bits(c->net.lengths.size());
    std::memcpy(length_bits.data(), c->net.lengths.data(), length_bits.size() * sizeof(float));
    if (!(op.input(c->weights, &c->w_data) && op.input(c->x, &c->x_data) && op.input(c->hx, &c->hx_data) &&
          op.input(c->cx, &c->cx_data) && op.input(length_bits, &c->lengths_data))) {
        return false;
    }
    // Where the library keeps each matrix and bias of the layer: the first `gates` linLayerIDs act on x, the
    // others on h.
    cudnnTensorDescriptor_t m_desc, b_desc;
    if (!op.call(api.cudnnCreateTensorDescriptor(&m_desc), "cudnnCreateTensorDescriptor")) return false;
    op.at_end([&api, m_desc] { api.cudnnDestroyTensorDescriptor(m_desc); });
    if (!op.call(api.cudnnCreateTensorDescriptor(&b_desc), "cudnnCreateTensorDescriptor")) return false;
    op.at_end([&api, b_desc] { api.cudnnDestroyTensorDescriptor(b_desc); });
    const int64_t weight_count = static_cast<int64_t>(c->weights.size());
    for (int id = 0; id < 2 * c->gates(); ++id) {
        void *matrix = nullptr, *bias = nullptr;
        if (!op.call(api.cudnnGetRNNWeightParams(op.handle(), rnn, 0, c->weight_bytes, c->w_data, id, m_desc, &matrix,
                                                 b_desc, &bias),
                     "cudnnGetRNNWeightParams")) {
            return false;
        }
        const int64_t matrix_count = c->matrix_count(id);
        const int64_t m_at = (static_cast<char *>(matrix) - static_cast<char *>(c->w_data)) / int64_t{sizeof(float)};
        const int64_t b_at = (static_cast<char *>(bias) - static_cast<char *>(c->w_data)) / int64_t{sizeof(float)};
        if (matrix == nullptr || bias == nullptr || m_at < 0 || m_at + matrix_count > weight_count || b_at < 0 ||
            b_at + kHidden > weight_count) {
            return op.fail("cudnnGetRNNWeightParams placed linLayerID " + std::to_string(id) +
                           " outside the weight space");
        }
        c->matrix_at.push_back(m_at), c->bias_at.push_back(b_at);
        c->net.matrices.emplace_back(c->weights.begin() + m_at, c->weights.begin() + m_at + matrix_count);
        c->net.biases.emplace_back(c->weights.begin() + b_at, c->weights.begin() + b_at + kHidden);
    }
    return true;
}

// A forward in inference mode of `cell`: y, hy and (LSTM) cy against the reference. cuDNN's GRU applies the
// reset gate after the recurrent product, unlike some frameworks' formula; the check holds a library to cuDNN's.
OpResult check_rnn_inference(OpEnvironment &env, cudnnRNNMode_t cell) {
    Op op(env);
    CudnnApi &api = op.api();
    RnnCase c;
    TRY(prepare_rnn(op, env, cell, &c));
    const bool lstm = cell == CUDNN_LSTM;
    size_t work_bytes = 0, reserve_bytes = 0;
    TRY(op.call(api.cudnnGetRNNTempSpaceSizes(op.handle(), c.rnn, CUDNN_FWD_MODE_INFERENCE, c.x_desc, &work_bytes,
                                              &reserve_bytes),
                "cudnnGetRNNTempSpaceSizes"));
    void *y_data, *hy_data, *cy_data = nullptr, *workspace;
    TRY(op.output(c.x.size() / RnnCase::kInput * RnnCase::kHidden, &y_data) && op.output(c.hx.size(), &hy_data) &&
        (!lstm || op.output(c.cx.size(), &cy_data)) && op.workspace(work_bytes, &workspace));
    TRY(op.call(api.cudnnRNNForward(op.handle(), c.rnn, CUDNN_FWD_MODE_INFERENCE,
                                    static_cast<const int32_t *>(c.lengths_data), c.x_desc, c.x_data, c.y_desc, y_data,
                                    c.h_desc, c.hx_data, hy_data, c.h_desc, lstm ? c.cx_data : nullptr, cy_data,
                                    c.weight_bytes, c.w_data, work_bytes, workspace, 0, nullptr),
                "cudnnRNNForward"));
    std::vector<float> y, hy, cy;
    TRY(op.read(y_data, &y) && op.read(hy_data, &hy) && (!lstm || op.read(cy_data, &cy)));
    const reference::RnnOutputs want =
        lstm ? reference::lstm_forward(c.net, c.x, c.hx, c.cx) : reference::gru_forward(c.net, c.x, c.hx);
    TRY(op.compare("y", y, want.y, reference::kElementwiseTolerance));
    if (op.compare("hy", hy, want.hy, reference::kElementwiseTolerance) && lstm)
        op.compare("cy", cy, want.cy, reference::kElementwiseTolerance);
    return op.result();
}

OpResult check_lstm(OpEnvironment &env) { return check_rnn_inference(env, CUDNN_LSTM); }
OpResult check_gru(OpEnvironment &env) { return check_rnn_inference(env, CUDNN_GRU); }

// The LSTM's training step: the forward in training mode, cudnnRNNBackwardData_v8 from random dy, dhy, dcy, and
// cudnnRNNBackwardWeights_v8 adding into a zeroed gradient space: dx (at each sequence's steps), dhx, dcx and
// every weight's and bias's gradient (read where cudnnGetRNNWeightParams placed the weight) against the
// reference's back-propagation.
OpResult check_lstm_training(OpEnvironment &env) {
    Op op(env);
    CudnnApi &api = op.api();
    TRY(op.has(reinterpret_cast<void *>(api.cudnnRNNBackwardData_v8), "cudnnRNNBackwardData_v8") &&
        op.has(reinterpret_cast<void *>(api.cudnnRNNBackwardWeights_v8), "cudnnRNNBackwardWeights_v8"));
    RnnCase c;
    TRY(prepare_rnn(op, env, CUDNN_LSTM, &c));
    constexpr int kInput = RnnCase::kInput, kHidden = RnnCase::kHidden;
    size_t work_bytes = 0, reserve_bytes = 0;
    TRY(op.call(api.cudnnGetRNNTempSpaceSizes(op.handle(), c.rnn, CUDNN_FWD_MODE_TRAINING, c.x_desc, &work_bytes,
                                              &reserve_bytes),
                "cudnnGetRNNTempSpaceSizes"));
    const size_t y_count = c.x.size() / kInput * kHidden;
    const std::vector<float> dy = random_values(env.random, static_cast<int64_t>(y_count));
    const std::vector<float> dhy = random_values(env.random, static_cast<int64_t>(c.hx.size()));
    const std::vector<float> dcy = random_values(env.random, static_cast<int64_t>(c.cx.size()));
    void *y_data, *hy_data, *cy_data, *workspace, *reserve, *dy_data, *dhy_data, *dcy_data, *dx_data, *dhx_data,
        *dcx_data, *dw_data;
    TRY(op.output(y_count, &y_data) && op.output(c.hx.size(), &hy_data) && op.output(c.cx.size(), &cy_data) &&
        op.workspace(work_bytes, &workspace) && op.workspace(reserve_bytes, &reserve) && op.input(dy, &dy_data) &&
        op.input(dhy, &dhy_data) && op.input(dcy, &dcy_data) && op.output(c.x.size(), &dx_data) &&
        op.output(c.hx.size(), &dhx_data) && op.output(c.cx.size(), &dcx_data) &&
        op.input(std::vector<float>(c.weights.size(), 0.0f), &dw_data));
    const int32_t *lengths = static_cast<const int32_t *>(c.lengths_data);
    TRY(op.call(api.cudnnRNNForward(op.handle(), c.rnn, CUDNN_FWD_MODE_TRAINING, lengths, c.x_desc, c.x_data, c.y_desc,
                                    y_data, c.h_desc, c.hx_data, hy_data, c.h_desc, c.cx_data, cy_data, c.weight_bytes,
                                    c.w_data, work_bytes, workspace, reserve_bytes, reserve),
                "cudnnRNNForward (training)"));
    TRY(op.call(
        api.cudnnRNNBackwardData_v8(op.handle(), c.rnn, lengths, c.y_desc, y_data, dy_data, c.x_desc, dx_data, c.h_desc,
                                    c.hx_data, dhy_data, dhx_data, c.h_desc, c.cx_data, dcy_data, dcx_data,
                                    c.weight_bytes, c.w_data, work_bytes, workspace, reserve_bytes, reserve),
        "cudnnRNNBackwardData_v8"));
    TRY(op.call(api.cudnnRNNBackwardWeights_v8(op.handle(), c.rnn, CUDNN_WGRAD_MODE_ADD, lengths, c.x_desc, c.x_data,
                                               c.h_desc, c.hx_data, c.y_desc, y_data, c.weight_bytes, dw_data,
                                               work_bytes, workspace, reserve_bytes, reserve),
                "cudnnRNNBackwardWeights_v8"));
    std::vector<float> dx, dhx, dcx, dw;
    TRY(op.read(dx_data, &dx) && op.read(dhx_data, &dhx) && op.read(dcx_data, &dcx) && op.read(dw_data, &dw));
    const reference::LstmGradients want = reference::lstm_backward(c.net, c.x, c.hx, c.cx, dy, dhy, dcy);
    // dx where the sequences have steps (what a library writes past them is its own business).
    std::vector<float> dx_valid;
    std::vector<double> dx_want;
    for (int t = 0; t < RnnCase::kSteps; ++t)
        for (int n = 0; n < RnnCase::kBatch; ++n)
            if (t < c.net.lengths[n])
                for (int k = 0; k < kInput; ++k) {
                    const size_t at = (static_cast<size_t>(t) * RnnCase::kBatch + n) * kInput + k;
                    dx_valid.push_back(dx[at]), dx_want.push_back(want.dx[at]);
                }
    std::vector<double> dw_want;
    for (const auto &piece : want.matrices) dw_want.insert(dw_want.end(), piece.begin(), piece.end());
    for (const auto &piece : want.biases) dw_want.insert(dw_want.end(), piece.begin(), piece.end());
    TRY(op.compare("dx", dx_valid, dx_want, reference::kTrainingTolerance));
    TRY(op.compare("dhx", dhx, want.dhx, reference::kTrainingTolerance));
    TRY(op.compare("dcx", dcx, want.dcx, reference::kTrainingTolerance));
    op.compare("dw", c.pieces(dw), dw_want, reference::kTrainingTolerance);
    return op.result();
}

#undef TRY
#define TRY(step)                        \
    do {                                 \
        if (!(step)) {                   \
            timing.result = op.result(); \
            return timing;               \
        }                                \
    } while (0)

}  // namespace

const char *op_result_name(OpResult::Kind kind) {
    switch (kind) {
        case OpResult::Kind::pass: return "pass";
        case OpResult::Kind::mismatch: return "mismatch";
        case OpResult::Kind::not_supported: return "not_supported";
        case OpResult::Kind::failed: return "failed";
    }
    return "failed";
}

OpResult::Kind op_result_kind(const std::string &name) {
    if (name == "pass") return OpResult::Kind::pass;
    if (name == "mismatch") return OpResult::Kind::mismatch;
    if (name == "not_supported") return OpResult::Kind::not_supported;
    return OpResult::Kind::failed;
}

const std::vector<OpCheck> &op_checks() {
    static const std::vector<OpCheck> checks = {
        {"convolution", "convolution forward (x 2x3x13x11, w 4x3x3x3, pad 1, stride 2)", check_convolution},
        {"batch_norm", "batch norm inference (spatial, x 2x4x5x5)", check_batch_norm},
        {"pooling", "max pooling (3x3, pad 1, stride 2, x 2x3x9x9)", check_pooling},
        {"softmax", "softmax forward (accurate/channel and log/instance, x 2x10x3x3)", check_softmax},
        {"training_step", "a training step (conv, ReLU, their backward passes, SGD update)", check_training_step},
        {"lstm", "an LSTM forward (v8 API, input 5, hidden 4, sequences of 3 and 2 steps)", check_lstm},
        {"lstm_training", "the same LSTM's training step (forward, backward data, backward weights)",
         check_lstm_training},
        {"gru", "a GRU forward (v8 API, input 5, hidden 4, sequences of 3 and 2 steps)", check_gru},
    };
    return checks;
}

StemTiming time_resnet_stem(OpEnvironment &env, int batch, int warmups, int runs) {
    StemTiming timing;
    Op op(env);
    const Shape4 xs{batch, 3, 224, 224}, ws{64, 3, 7, 7}, ps{1, 64, 1, 1};
    const Conv2d conv{3, 3, 2, 2, 1, 1};
    const Pool2d pool{3, 3, 1, 1, 2, 2};
    const Shape4 ys = conv.output(xs, ws), zs = pool.output(ys);
    timing.flops = 2.0 * ys.count() * ws.c * ws.h * ws.w;
    CudnnApi &api = op.api();
    TRY(op.has(reinterpret_cast<void *>(api.cudnnConvolutionForward), "cudnnConvolutionForward") &&
        op.has(reinterpret_cast<void *>(api.cudnnBatchNormalizationForwardInference),
               "cudnnBatchNormalizationForwardInference") &&
        op.has(reinterpret_cast<void *>(api.cudnnActivationForward), "cudnnActivationForward") &&
        op.has(reinterpret_cast<void *>(api.cudnnPoolingForward), "cudnnPoolingForward"));
    cudnnTensorDescriptor_t x_desc, y_desc, p_desc, z_desc;
    cudnnFilterDescriptor_t w_desc;
    cudnnConvolutionDescriptor_t conv_desc;
    cudnnActivationDescriptor_t relu_desc;
    cudnnPoolingDescriptor_t pool_desc;
    TRY(op.tensor(xs, &x_desc) && op.tensor(ys, &y_desc) && op.tensor(ps, &p_desc) && op.tensor(zs, &z_desc) &&
        op.filter(ws, &w_desc) && op.convolution(conv, &conv_desc) && op.activation(&relu_desc) &&
        op.pooling(pool, &pool_desc));
    void *x_data, *w_data, *y_data, *b_data, *z_data, *scale, *bias, *mean, *variance, *workspace;
    TRY(op.input(random_values(env.random, xs.count()), &x_data) &&
        op.input(random_values(env.random, ws.count(), -0.1f, 0.1f), &w_data) && op.output(ys.count(), &y_data) &&
        op.output(ys.count(), &b_data) && op.output(zs.count(), &z_data) &&
        op.input(random_values(env.random, 64, 0.5f, 1.5f), &scale) && op.input(random_values(env.random, 64), &bias) &&
        op.input(random_values(env.random, 64), &mean) &&
        op.input(random_values(env.random, 64, 0.5f, 2.0f), &variance));
    const cudnnConvolutionFwdAlgo_t algo = op.forward_algorithm(x_desc, w_desc, conv_desc, y_desc);
    size_t bytes = 0;
    TRY(op.call(
        api.cudnnGetConvolutionForwardWorkspaceSize(op.handle(), x_desc, w_desc, conv_desc, y_desc, algo, &bytes),
        "cudnnGetConvolutionForwardWorkspaceSize"));
    TRY(op.workspace(bytes, &workspace));
    auto stem = [&]() {
        return op.call(api.cudnnConvolutionForward(op.handle(), &kOne, x_desc, x_data, w_desc, w_data, conv_desc, algo,
                                                   workspace, bytes, &kZero, y_desc, y_data),
                       "cudnnConvolutionForward") &&
               op.call(api.cudnnBatchNormalizationForwardInference(op.handle(), CUDNN_BATCHNORM_SPATIAL, &kOne, &kZero,
                                                                   y_desc, y_data, y_desc, b_data, p_desc, scale, bias,
                                                                   mean, variance, 1e-5),
                       "cudnnBatchNormalizationForwardInference") &&
               op.call(
                   api.cudnnActivationForward(op.handle(), relu_desc, &kOne, y_desc, b_data, &kZero, y_desc, b_data),
                   "cudnnActivationForward") &&
               op.call(api.cudnnPoolingForward(op.handle(), pool_desc, &kOne, y_desc, b_data, &kZero, z_desc, z_data),
                       "cudnnPoolingForward");
    };
    for (int i = 0; i < warmups; ++i) TRY(stem());
    TRY(env.memory.synchronize() || op.fail("waiting for the GPU failed"));
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        TRY(stem());
        TRY(env.memory.synchronize() || op.fail("waiting for the GPU failed"));
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    timing.milliseconds = times.empty() ? 0 : times[times.size() / 2];
    std::vector<float> z;
    TRY(op.read(z_data, &z));
    for (float value : z) timing.output_sum += value;
    timing.result = {OpResult::Kind::pass, ""};
    return timing;
}

}  // namespace librednn::doctor
