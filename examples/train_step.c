/* One training step of a convolution layer through cuDNN's documented API only, checked against plain C:
 *   y = conv(x, w) + b, loss = 0.5 * sum (y - target)^2, dy = y - target,
 *   dw = cudnnConvolutionBackwardFilter(x, dy), db = cudnnConvolutionBackwardBias(dy),
 *   dx = cudnnConvolutionBackwardData(w, dy), then w -= lr * dw and b -= lr * db (cudnnAddTensor).
 * Build like lenet_inference.c (nvcc -DEXAMPLE_CUDA ... for the GPU; cc -std=c99 ... -lm for LibreDNN's
 * host backend). Exit status 0 when every tensor matches the plain-C step. */
#include <cudnn.h>

#include <math.h>
#include <stdio.h>

#include "example_memory.h"

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudnnStatus_t status_ = (call);                                                          \
        if (status_ != CUDNN_STATUS_SUCCESS) {                                                   \
            fprintf(stderr, "train_step: %s failed: %s\n", #call, cudnnGetErrorString(status_)); \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

enum { N = 4, C = 3, H = 9, W = 8, K = 5, R = 3, S = 3, PAD = 1, P = H, Q = W };
#define X_COUNT (N * C * H * W)
#define W_COUNT (K * C * R * S)
#define Y_COUNT (N * K * P * Q)

static float x[X_COUNT], w[W_COUNT], b[K], target[Y_COUNT];

/* The largest |got - want| relative to the largest |want|. */
static double difference(const float *got, const double *want, int count) {
    double worst = 0.0, scale = 1e-30;
    for (int i = 0; i < count; ++i) {
        const double d = fabs(got[i] - want[i]);
        worst = d > worst ? d : worst;
        scale = fabs(want[i]) > scale ? fabs(want[i]) : scale;
    }
    return worst / scale;
}

int main(void) {
    unsigned seed = 7;
    for (int i = 0; i < X_COUNT; ++i) x[i] = example_random(&seed, 1.0f);
    for (int i = 0; i < W_COUNT; ++i) w[i] = example_random(&seed, 0.3f);
    for (int i = 0; i < K; ++i) b[i] = example_random(&seed, 0.1f);
    for (int i = 0; i < Y_COUNT; ++i) target[i] = example_random(&seed, 1.0f);
    const float lr = 0.05f;

    /* --- plain C, in double --- */
    static double y_ref[Y_COUNT], dy_ref[Y_COUNT], dw_ref[W_COUNT], db_ref[K], dx_ref[X_COUNT], w_new[W_COUNT],
        b_new[K];
#define XI(n, c, h, ww) (((n)*C + (c)) * H + (h)) * W + (ww)
#define WI(k, c, r, s) (((k)*C + (c)) * R + (r)) * S + (s)
#define YI(n, k, p, q) (((n)*K + (k)) * P + (p)) * Q + (q)
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k)
            for (int p = 0; p < P; ++p)
                for (int q = 0; q < Q; ++q) {
                    double sum = b[k];
                    for (int c = 0; c < C; ++c)
                        for (int r = 0; r < R; ++r)
                            for (int s = 0; s < S; ++s) {
                                const int h = p - PAD + r, ww = q - PAD + s;
                                if (h >= 0 && h < H && ww >= 0 && ww < W)
                                    sum += (double)w[WI(k, c, r, s)] * x[XI(n, c, h, ww)];
                            }
                    y_ref[YI(n, k, p, q)] = sum;
                    dy_ref[YI(n, k, p, q)] = (float)((float)sum - target[YI(n, k, p, q)]);
                }
    for (int k = 0; k < K; ++k) {
        db_ref[k] = 0;
        for (int c = 0; c < C; ++c)
            for (int r = 0; r < R; ++r)
                for (int s = 0; s < S; ++s) dw_ref[WI(k, c, r, s)] = 0;
    }
    for (int i = 0; i < X_COUNT; ++i) dx_ref[i] = 0;
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k)
            for (int p = 0; p < P; ++p)
                for (int q = 0; q < Q; ++q) {
                    const double g = dy_ref[YI(n, k, p, q)];
                    db_ref[k] += g;
                    for (int c = 0; c < C; ++c)
                        for (int r = 0; r < R; ++r)
                            for (int s = 0; s < S; ++s) {
                                const int h = p - PAD + r, ww = q - PAD + s;
                                if (h < 0 || h >= H || ww < 0 || ww >= W) continue;
                                dw_ref[WI(k, c, r, s)] += g * x[XI(n, c, h, ww)];
                                dx_ref[XI(n, c, h, ww)] += g * w[WI(k, c, r, s)];
                            }
                }
    for (int i = 0; i < W_COUNT; ++i) w_new[i] = w[i] - lr * dw_ref[i];
    for (int i = 0; i < K; ++i) b_new[i] = b[i] - lr * db_ref[i];

    /* --- cuDNN --- */
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t x_desc, y_desc, b_desc, w_as_tensor;
    cudnnFilterDescriptor_t w_desc;
    cudnnConvolutionDescriptor_t conv;
    const float one = 1.0f, zero = 0.0f, minus_one = -1.0f, minus_lr = -lr;
    CHECK(cudnnCreate(&handle));
    CHECK(cudnnCreateTensorDescriptor(&x_desc));
    CHECK(cudnnCreateTensorDescriptor(&y_desc));
    CHECK(cudnnCreateTensorDescriptor(&b_desc));
    CHECK(cudnnCreateTensorDescriptor(&w_as_tensor));
    CHECK(cudnnCreateFilterDescriptor(&w_desc));
    CHECK(cudnnCreateConvolutionDescriptor(&conv));
    CHECK(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
    CHECK(cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, P, Q));
    CHECK(cudnnSetTensor4dDescriptor(b_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, K, 1, 1));
    CHECK(cudnnSetTensor4dDescriptor(w_as_tensor, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, K, C, R, S));
    CHECK(cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, R, S));
    CHECK(cudnnSetConvolution2dDescriptor(conv, PAD, PAD, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    CHECK(cudnnSetConvolutionMathType(conv, CUDNN_FMA_MATH));

    /* The first algorithm each query ranks, and one workspace for all three. */
    cudnnConvolutionFwdAlgoPerf_t fwd[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    cudnnConvolutionBwdDataAlgoPerf_t bwd_data[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    cudnnConvolutionBwdFilterAlgoPerf_t bwd_filter[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
    int returned = 0;
    CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, x_desc, w_desc, conv, y_desc, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                 &returned, fwd));
    CHECK(fwd[0].status);
    CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, w_desc, y_desc, conv, x_desc,
                                                      CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &returned, bwd_data));
    CHECK(bwd_data[0].status);
    CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
        handle, x_desc, y_desc, conv, w_desc, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &returned, bwd_filter));
    CHECK(bwd_filter[0].status);
    size_t bytes = fwd[0].memory;
    bytes = bwd_data[0].memory > bytes ? bwd_data[0].memory : bytes;
    bytes = bwd_filter[0].memory > bytes ? bwd_filter[0].memory : bytes;

    void *xd = example_alloc(sizeof x), *wd = example_alloc(sizeof w), *bd = example_alloc(sizeof b);
    void *td = example_alloc(sizeof target), *yd = example_alloc(sizeof target), *dyd = example_alloc(sizeof target);
    void *dwd = example_alloc(sizeof w), *dbd = example_alloc(sizeof b), *dxd = example_alloc(sizeof x);
    void *ws = example_alloc(bytes);
    example_upload(xd, x, sizeof x);
    example_upload(wd, w, sizeof w);
    example_upload(bd, b, sizeof b);
    example_upload(td, target, sizeof target);

    CHECK(
        cudnnConvolutionForward(handle, &one, x_desc, xd, w_desc, wd, conv, fwd[0].algo, ws, bytes, &zero, y_desc, yd));
    CHECK(cudnnAddTensor(handle, &one, b_desc, bd, &one, y_desc, yd));
    /* dy = y - target: copy y, then add -1 x target. */
    CHECK(cudnnTransformTensor(handle, &one, y_desc, yd, &zero, y_desc, dyd));
    CHECK(cudnnAddTensor(handle, &minus_one, y_desc, td, &one, y_desc, dyd));
    CHECK(cudnnConvolutionBackwardFilter(handle, &one, x_desc, xd, y_desc, dyd, conv, bwd_filter[0].algo, ws, bytes,
                                         &zero, w_desc, dwd));
    CHECK(cudnnConvolutionBackwardBias(handle, &one, y_desc, dyd, &zero, b_desc, dbd));
    CHECK(cudnnConvolutionBackwardData(handle, &one, w_desc, wd, y_desc, dyd, conv, bwd_data[0].algo, ws, bytes, &zero,
                                       x_desc, dxd));
    CHECK(cudnnAddTensor(handle, &minus_lr, w_as_tensor, dwd, &one, w_as_tensor, wd));
    CHECK(cudnnAddTensor(handle, &minus_lr, b_desc, dbd, &one, b_desc, bd));

    static float y_got[Y_COUNT], dw_got[W_COUNT], db_got[K], dx_got[X_COUNT], w_got[W_COUNT], b_got[K];
    example_download(y_got, yd, sizeof y_got);
    example_download(dw_got, dwd, sizeof dw_got);
    example_download(db_got, dbd, sizeof db_got);
    example_download(dx_got, dxd, sizeof dx_got);
    example_download(w_got, wd, sizeof w_got);
    example_download(b_got, bd, sizeof b_got);
    const double errors[] = {difference(y_got, y_ref, Y_COUNT), difference(dw_got, dw_ref, W_COUNT),
                             difference(db_got, db_ref, K),     difference(dx_got, dx_ref, X_COUNT),
                             difference(w_got, w_new, W_COUNT), difference(b_got, b_new, K)};
    const char *names[] = {"y", "dw", "db", "dx", "updated w", "updated b"};
    int ok = 1;
    for (int i = 0; i < 6; ++i) {
        /* float sums of at most 288 (dw: 4 x 72) products: 1e-5 of the largest value is ample. */
        const int pass = errors[i] < 1e-5;
        ok = ok && pass;
        printf("train_step: %-9s relative difference %.2e %s\n", names[i], errors[i], pass ? "ok" : "TOO LARGE");
    }
    void *buffers[] = {xd, wd, bd, td, yd, dyd, dwd, dbd, dxd, ws};
    for (int i = 0; i < 10; ++i) example_free(buffers[i]);
    CHECK(cudnnDestroyConvolutionDescriptor(conv));
    CHECK(cudnnDestroyFilterDescriptor(w_desc));
    CHECK(cudnnDestroyTensorDescriptor(w_as_tensor));
    CHECK(cudnnDestroyTensorDescriptor(b_desc));
    CHECK(cudnnDestroyTensorDescriptor(y_desc));
    CHECK(cudnnDestroyTensorDescriptor(x_desc));
    CHECK(cudnnDestroy(handle));
    printf("train_step: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
