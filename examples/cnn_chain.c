/* A small CNN through cuDNN's documented API only, checked against the same arithmetic in plain C:
 *   inference:     conv 8 x 3x3 pad 1 -> batch norm (inference) -> ReLU -> max pool 2x2 -> LRN (n 5)
 *                  -> conv 10 x 8x4x4 (the fully connected layer) -> softmax
 *   training step: batch norm's training forward on the first convolution's output (batch statistics,
 *                  running averages, saved mean and inverse deviation) and its backward pass
 * on a batch of 2 pseudo-random 3x8x8 images. Build against any cuDNN 8 (LibreDNN's or NVIDIA's):
 *   nvcc -DEXAMPLE_CUDA cnn_chain.c -I PREFIX/include -L PREFIX/lib -lcudnn -o cnn_chain      (GPU)
 *   cc -std=c99 cnn_chain.c -I PREFIX/include -L PREFIX/lib -lcudnn -lm -o cnn_chain         (CPU:
 *   LibreDNN's host backend, LIBREDNN_BACKEND=host)
 * Exit status 0 when every result matches the plain-C one. */
#include <cudnn.h>

#include <math.h>
#include <stdio.h>

#include "example_memory.h"

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudnnStatus_t status_ = (call);                                                         \
        if (status_ != CUDNN_STATUS_SUCCESS) {                                                  \
            fprintf(stderr, "cnn_chain: %s failed: %s\n", #call, cudnnGetErrorString(status_)); \
            return 1;                                                                           \
        }                                                                                       \
    } while (0)

enum { N = 2, C = 3, H = 8, W = 8, K = 8, P = 4, CLASSES = 10 };
enum { LRN_N = 5 };
static const double kEpsilon = 1e-5, kLrnAlpha = 1e-2, kLrnBeta = 0.75, kLrnK = 2.0;

/* --- the plain-C network, in double ---------------------------------------------------------------- */

/* out[n][k][p][q] = sum over c, r, s of w[k][c][r][s] * in[n][c][p - pad + r][q - pad + s] (stride 1). */
static void plain_conv(int n, int c, int h, int w, const double *in, int k, int r, int s, int pad, const float *wt,
                       double *out) {
    const int oh = h + 2 * pad - r + 1, ow = w + 2 * pad - s + 1;
    for (int b = 0; b < n; ++b)
        for (int o = 0; o < k; ++o)
            for (int p = 0; p < oh; ++p)
                for (int q = 0; q < ow; ++q) {
                    double sum = 0;
                    for (int i = 0; i < c; ++i)
                        for (int y = 0; y < r; ++y)
                            for (int x = 0; x < s; ++x) {
                                const int iy = p - pad + y, ix = q - pad + x;
                                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                                sum += (double)wt[((o * c + i) * r + y) * s + x] * in[((b * c + i) * h + iy) * w + ix];
                            }
                    out[((b * k + o) * oh + p) * ow + q] = sum;
                }
}

/* --- helpers ------------------------------------------------------------------------------------------- */

static double largest_difference(const float *got, const double *want, int count) {
    double worst = 0;
    for (int i = 0; i < count; ++i) {
        const double d = fabs(got[i] - want[i]);
        worst = d > worst ? d : worst;
    }
    return worst;
}

static void *device_copy(const float *host, int count) {
    void *d = example_alloc(sizeof(float) * count);
    example_upload(d, host, sizeof(float) * count);
    return d;
}

int main(void) {
    unsigned seed = 7;
    static float x[N * C * H * W], w1[K * C * 3 * 3], w2[CLASSES * K * P * P], dy[N * K * H * W];
    float scale[K], bias[K], mean[K], variance[K];
    for (int i = 0; i < N * C * H * W; ++i) x[i] = example_random(&seed, 1.0f);
    for (int i = 0; i < K * C * 9; ++i) w1[i] = example_random(&seed, 0.4f);
    for (int i = 0; i < CLASSES * K * P * P; ++i) w2[i] = example_random(&seed, 0.2f);
    for (int i = 0; i < N * K * H * W; ++i) dy[i] = example_random(&seed, 1.0f);
    for (int k = 0; k < K; ++k) {
        scale[k] = 1.0f + example_random(&seed, 0.3f);
        bias[k] = example_random(&seed, 0.2f);
        mean[k] = example_random(&seed, 0.1f);
        variance[k] = 0.5f + example_random(&seed, 0.25f) + 0.25f;
    }

    /* Plain C: inference. */
    static double xd[N * C * H * W], a[N * K * H * W], pooled[N * K * P * P], normed[N * K * P * P];
    double logits[N * CLASSES], expected[N * CLASSES];
    for (int i = 0; i < N * C * H * W; ++i) xd[i] = x[i];
    plain_conv(N, C, H, W, xd, K, 3, 3, 1, w1, a);
    static double conv_out[N * K * H * W];
    for (int i = 0; i < N * K * H * W; ++i) conv_out[i] = a[i];
    for (int b = 0; b < N; ++b)
        for (int k = 0; k < K; ++k)
            for (int i = 0; i < H * W; ++i) {
                double *v = &a[(b * K + k) * H * W + i];
                *v = scale[k] * (*v - mean[k]) / sqrt(variance[k] + kEpsilon) + bias[k];
                *v = *v > 0 ? *v : 0;
            }
    for (int b = 0; b < N; ++b)
        for (int k = 0; k < K; ++k)
            for (int p = 0; p < P; ++p)
                for (int q = 0; q < P; ++q) {
                    double best = -INFINITY;
                    for (int y = 0; y < 2; ++y)
                        for (int z = 0; z < 2; ++z) {
                            const double v = a[((b * K + k) * H + 2 * p + y) * W + 2 * q + z];
                            best = v > best ? v : best;
                        }
                    pooled[((b * K + k) * P + p) * P + q] = best;
                }
    for (int b = 0; b < N; ++b)
        for (int k = 0; k < K; ++k)
            for (int i = 0; i < P * P; ++i) {
                double squares = 0;
                for (int c = k - (LRN_N - 1) / 2; c <= k + LRN_N - 1 - (LRN_N - 1) / 2; ++c) {
                    if (c < 0 || c >= K) continue;
                    const double v = pooled[(b * K + c) * P * P + i];
                    squares += v * v;
                }
                normed[(b * K + k) * P * P + i] =
                    pooled[(b * K + k) * P * P + i] * pow(kLrnK + kLrnAlpha / LRN_N * squares, -kLrnBeta);
            }
    plain_conv(N, K, P, P, normed, CLASSES, P, P, 0, w2, logits);
    for (int b = 0; b < N; ++b) {
        double top = logits[b * CLASSES], total = 0;
        for (int i = 1; i < CLASSES; ++i) top = logits[b * CLASSES + i] > top ? logits[b * CLASSES + i] : top;
        for (int i = 0; i < CLASSES; ++i) total += expected[b * CLASSES + i] = exp(logits[b * CLASSES + i] - top);
        for (int i = 0; i < CLASSES; ++i) expected[b * CLASSES + i] /= total;
    }

    /* Plain C: batch norm's training forward and backward on the convolution's output. */
    static double train_y[N * K * H * W], train_dx[N * K * H * W];
    double batch_mean[K], batch_inv[K], dscale[K], dbias[K];
    const int M = N * H * W;
    for (int k = 0; k < K; ++k) {
        double sum = 0, squares = 0;
        for (int b = 0; b < N; ++b)
            for (int i = 0; i < H * W; ++i) sum += conv_out[(b * K + k) * H * W + i];
        batch_mean[k] = sum / M;
        for (int b = 0; b < N; ++b)
            for (int i = 0; i < H * W; ++i) {
                const double d = conv_out[(b * K + k) * H * W + i] - batch_mean[k];
                squares += d * d;
            }
        batch_inv[k] = 1 / sqrt(squares / M + kEpsilon);
        double g = 0, gx = 0;
        for (int b = 0; b < N; ++b)
            for (int i = 0; i < H * W; ++i) {
                const int at = (b * K + k) * H * W + i;
                const double x_hat = (conv_out[at] - batch_mean[k]) * batch_inv[k];
                train_y[at] = scale[k] * x_hat + bias[k];
                g += dy[at];
                gx += dy[at] * x_hat;
            }
        dbias[k] = g;
        dscale[k] = gx;
        for (int b = 0; b < N; ++b)
            for (int i = 0; i < H * W; ++i) {
                const int at = (b * K + k) * H * W + i;
                const double x_hat = (conv_out[at] - batch_mean[k]) * batch_inv[k];
                train_dx[at] = scale[k] * batch_inv[k] * (dy[at] - g / M - x_hat * gx / M);
            }
    }

    /* The same through cuDNN. */
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t x_desc, a_desc, p_desc, l_desc, bn_desc;
    cudnnFilterDescriptor_t w1_desc, w2_desc;
    cudnnConvolutionDescriptor_t conv1, conv2;
    cudnnActivationDescriptor_t relu;
    cudnnPoolingDescriptor_t pool;
    cudnnLRNDescriptor_t lrn;
    const float one = 1.0f, zero = 0.0f;
    CHECK(cudnnCreate(&handle));
    CHECK(cudnnCreateTensorDescriptor(&x_desc));
    CHECK(cudnnCreateTensorDescriptor(&a_desc));
    CHECK(cudnnCreateTensorDescriptor(&p_desc));
    CHECK(cudnnCreateTensorDescriptor(&l_desc));
    CHECK(cudnnCreateTensorDescriptor(&bn_desc));
    CHECK(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
    CHECK(cudnnSetTensor4dDescriptor(a_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, H, W));
    CHECK(cudnnSetTensor4dDescriptor(p_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, P, P));
    CHECK(cudnnSetTensor4dDescriptor(l_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, CLASSES, 1, 1));
    CHECK(cudnnDeriveBNTensorDescriptor(bn_desc, a_desc, CUDNN_BATCHNORM_SPATIAL));
    CHECK(cudnnCreateFilterDescriptor(&w1_desc));
    CHECK(cudnnCreateFilterDescriptor(&w2_desc));
    CHECK(cudnnSetFilter4dDescriptor(w1_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, 3, 3));
    CHECK(cudnnSetFilter4dDescriptor(w2_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CLASSES, K, P, P));
    CHECK(cudnnCreateConvolutionDescriptor(&conv1));
    CHECK(cudnnCreateConvolutionDescriptor(&conv2));
    CHECK(cudnnSetConvolution2dDescriptor(conv1, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    CHECK(cudnnSetConvolution2dDescriptor(conv2, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    CHECK(cudnnSetConvolutionMathType(conv1, CUDNN_FMA_MATH)); /* plain fp32, to compare with plain C */
    CHECK(cudnnSetConvolutionMathType(conv2, CUDNN_FMA_MATH));
    CHECK(cudnnCreateActivationDescriptor(&relu));
    CHECK(cudnnSetActivationDescriptor(relu, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    CHECK(cudnnCreatePoolingDescriptor(&pool));
    CHECK(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
    CHECK(cudnnCreateLRNDescriptor(&lrn));
    CHECK(cudnnSetLRNDescriptor(lrn, LRN_N, kLrnAlpha, kLrnBeta, kLrnK));

    void *xd_ = device_copy(x, N * C * H * W), *w1d = device_copy(w1, K * C * 9);
    void *w2d = device_copy(w2, CLASSES * K * P * P), *dyd = device_copy(dy, N * K * H * W);
    void *scaled = device_copy(scale, K), *biasd = device_copy(bias, K), *meand = device_copy(mean, K);
    void *vard = device_copy(variance, K);
    void *conv_d = example_alloc(sizeof(float) * N * K * H * W), *act = example_alloc(sizeof(float) * N * K * H * W);
    void *pooled_d = example_alloc(sizeof(float) * N * K * P * P),
         *normed_d = example_alloc(sizeof(float) * N * K * P * P);
    void *logits_d = example_alloc(sizeof(float) * N * CLASSES);
    size_t bytes1 = 0, bytes2 = 0;
    const cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    CHECK(cudnnGetConvolutionForwardWorkspaceSize(handle, x_desc, w1_desc, conv1, a_desc, algo, &bytes1));
    CHECK(cudnnGetConvolutionForwardWorkspaceSize(handle, p_desc, w2_desc, conv2, l_desc, algo, &bytes2));
    void *workspace = example_alloc(bytes1 > bytes2 ? bytes1 : bytes2);
    CHECK(cudnnConvolutionForward(handle, &one, x_desc, xd_, w1_desc, w1d, conv1, algo, workspace, bytes1, &zero,
                                  a_desc, conv_d));
    CHECK(cudnnBatchNormalizationForwardInference(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, a_desc, conv_d, a_desc,
                                                  act, bn_desc, scaled, biasd, meand, vard, kEpsilon));
    CHECK(cudnnActivationForward(handle, relu, &one, a_desc, act, &zero, a_desc, act));
    CHECK(cudnnPoolingForward(handle, pool, &one, a_desc, act, &zero, p_desc, pooled_d));
    CHECK(cudnnLRNCrossChannelForward(handle, lrn, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, p_desc, pooled_d, &zero, p_desc,
                                      normed_d));
    CHECK(cudnnConvolutionForward(handle, &one, p_desc, normed_d, w2_desc, w2d, conv2, algo, workspace, bytes2, &zero,
                                  l_desc, logits_d));
    CHECK(cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, l_desc, logits_d,
                              &zero, l_desc, logits_d));
    float probabilities[N * CLASSES];
    example_download(probabilities, logits_d, sizeof probabilities);

    /* The training step's batch norm: forward with this batch's statistics, then backward. */
    void *running_mean = device_copy(mean, K), *running_var = device_copy(variance, K);
    void *saved_mean = example_alloc(sizeof(float) * K), *saved_inv = example_alloc(sizeof(float) * K);
    void *train_y_d = example_alloc(sizeof(float) * N * K * H * W),
         *dx_d = example_alloc(sizeof(float) * N * K * H * W);
    void *dscale_d = example_alloc(sizeof(float) * K), *dbias_d = example_alloc(sizeof(float) * K);
    CHECK(cudnnBatchNormalizationForwardTraining(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, a_desc, conv_d, a_desc,
                                                 train_y_d, bn_desc, scaled, biasd, 0.1, running_mean, running_var,
                                                 kEpsilon, saved_mean, saved_inv));
    CHECK(cudnnBatchNormalizationBackward(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, &one, &zero, a_desc, conv_d,
                                          a_desc, dyd, a_desc, dx_d, bn_desc, scaled, dscale_d, dbias_d, kEpsilon,
                                          saved_mean, saved_inv));
    static float got_y[N * K * H * W], got_dx[N * K * H * W];
    float got_mean[K], got_inv[K], got_dscale[K], got_dbias[K], got_running[K];
    example_download(got_y, train_y_d, sizeof got_y);
    example_download(got_dx, dx_d, sizeof got_dx);
    example_download(got_mean, saved_mean, sizeof got_mean);
    example_download(got_inv, saved_inv, sizeof got_inv);
    example_download(got_dscale, dscale_d, sizeof got_dscale);
    example_download(got_dbias, dbias_d, sizeof got_dbias);
    example_download(got_running, running_mean, sizeof got_running);
    double want_running[K];
    for (int k = 0; k < K; ++k) want_running[k] = 0.9 * mean[k] + 0.1 * batch_mean[k];

    /* Float sums of at most 128 terms of magnitude below 10: 1e-4 absolute is ample everywhere. */
    const double worst_probability = largest_difference(probabilities, expected, N * CLASSES);
    const double worst_train = fmax(
        fmax(largest_difference(got_y, train_y, N * K * H * W), largest_difference(got_dx, train_dx, N * K * H * W)),
        fmax(fmax(largest_difference(got_mean, batch_mean, K), largest_difference(got_inv, batch_inv, K)),
             fmax(fmax(largest_difference(got_dscale, dscale, K), largest_difference(got_dbias, dbias, K)),
                  largest_difference(got_running, want_running, K))));
    printf("cnn_chain: inference probabilities differ by at most %.2e, the batch-norm training step by %.2e\n",
           worst_probability, worst_train);

    void *buffers[] = {xd_,        w1d,       w2d,       dyd,      scaled,   biasd,     meand,        vard,
                       conv_d,     act,       pooled_d,  normed_d, logits_d, workspace, running_mean, running_var,
                       saved_mean, saved_inv, train_y_d, dx_d,     dscale_d, dbias_d};
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; ++i) example_free(buffers[i]);
    CHECK(cudnnDestroyLRNDescriptor(lrn));
    CHECK(cudnnDestroyPoolingDescriptor(pool));
    CHECK(cudnnDestroyActivationDescriptor(relu));
    CHECK(cudnnDestroyConvolutionDescriptor(conv1));
    CHECK(cudnnDestroyConvolutionDescriptor(conv2));
    CHECK(cudnnDestroyFilterDescriptor(w1_desc));
    CHECK(cudnnDestroyFilterDescriptor(w2_desc));
    CHECK(cudnnDestroyTensorDescriptor(x_desc));
    CHECK(cudnnDestroyTensorDescriptor(a_desc));
    CHECK(cudnnDestroyTensorDescriptor(p_desc));
    CHECK(cudnnDestroyTensorDescriptor(l_desc));
    CHECK(cudnnDestroyTensorDescriptor(bn_desc));
    CHECK(cudnnDestroy(handle));
    const int ok = worst_probability < 1e-5 && worst_train < 1e-4;
    printf("cnn_chain: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
