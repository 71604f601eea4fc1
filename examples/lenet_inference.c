/* A LeNet-style digit classifier's inference through cuDNN's documented API only, checked against the
 * same network written in plain C. The network (28x28 input, all-convolutional: strided convolutions in
 * place of pooling):
 *   conv 6 x 5x5 pad 2, bias, ReLU -> conv 16 x 5x5 stride 2, bias, ReLU -> conv 10 x 16x12x12 (the
 *   fully connected layer), bias -> softmax
 * on a drawn "7" with fixed pseudo-random weights. Build against any cuDNN 8 (LibreDNN's or NVIDIA's):
 *   nvcc -DEXAMPLE_CUDA lenet_inference.c -I PREFIX/include -L PREFIX/lib -lcudnn -o lenet      (GPU)
 *   cc -std=c99 lenet_inference.c -I PREFIX/include -L PREFIX/lib -lcudnn -lm -o lenet         (CPU:
 *   LibreDNN's host backend, LIBREDNN_BACKEND=host)
 * Exit status 0 when cuDNN's probabilities match the plain-C network's. */
#include <cudnn.h>

#include <math.h>
#include <stdio.h>

#include "example_memory.h"

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudnnStatus_t status_ = (call);                                                     \
        if (status_ != CUDNN_STATUS_SUCCESS) {                                              \
            fprintf(stderr, "lenet: %s failed: %s\n", #call, cudnnGetErrorString(status_)); \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

typedef struct {
    int k, c, r, s, pad, stride;
    float *w, *b; /* host copies */
} Layer;

/* --- the plain-C network --------------------------------------------------------------------------- */

/* out[k][p][q] = b[k] + sum over c, r, s of w[k][c][r][s] * in[c][p * stride - pad + r][q * stride - pad + s] */
static void plain_conv(const Layer *l, int h, int w, const double *in, double *out, int *oh, int *ow) {
    *oh = (h + 2 * l->pad - l->r) / l->stride + 1;
    *ow = (w + 2 * l->pad - l->s) / l->stride + 1;
    for (int k = 0; k < l->k; ++k)
        for (int p = 0; p < *oh; ++p)
            for (int q = 0; q < *ow; ++q) {
                double sum = l->b[k];
                for (int c = 0; c < l->c; ++c)
                    for (int r = 0; r < l->r; ++r)
                        for (int s = 0; s < l->s; ++s) {
                            const int y = p * l->stride - l->pad + r, x = q * l->stride - l->pad + s;
                            if (y < 0 || y >= h || x < 0 || x >= w) continue;
                            sum += (double)l->w[((k * l->c + c) * l->r + r) * l->s + s] * in[(c * h + y) * w + x];
                        }
                out[(k * *oh + p) * *ow + q] = sum;
            }
}

/* --- cuDNN --------------------------------------------------------------------------------------------- */

/* y = conv(x, layer) + bias, optionally ReLU'd in place, with the algorithm cuDNN ranks first. */
static int cudnn_layer(cudnnHandle_t handle, const Layer *l, cudnnTensorDescriptor_t x_desc, const void *x, int n,
                       int h, int w, int relu, cudnnTensorDescriptor_t y_desc, void **y, int *oh, int *ow) {
    cudnnFilterDescriptor_t w_desc;
    cudnnConvolutionDescriptor_t conv;
    cudnnTensorDescriptor_t b_desc;
    cudnnActivationDescriptor_t act;
    const float one = 1.0f, zero = 0.0f;
    int yn, yc;
    CHECK(cudnnCreateFilterDescriptor(&w_desc));
    CHECK(cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, l->k, l->c, l->r, l->s));
    CHECK(cudnnCreateConvolutionDescriptor(&conv));
    CHECK(cudnnSetConvolution2dDescriptor(conv, l->pad, l->pad, l->stride, l->stride, 1, 1, CUDNN_CROSS_CORRELATION,
                                          CUDNN_DATA_FLOAT));
    CHECK(cudnnSetConvolutionMathType(conv, CUDNN_FMA_MATH)); /* plain fp32, to compare with the C network */
    CHECK(cudnnGetConvolution2dForwardOutputDim(conv, x_desc, w_desc, &yn, &yc, oh, ow));
    CHECK(cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, yn, yc, *oh, *ow));
    (void)n;
    (void)h;
    (void)w;

    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0, chosen = -1;
    CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, x_desc, w_desc, conv, y_desc, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                 &returned, perf));
    for (int i = 0; i < returned && chosen < 0; ++i)
        if (perf[i].status == CUDNN_STATUS_SUCCESS) chosen = i;
    if (chosen < 0) {
        fprintf(stderr, "lenet: no convolution algorithm for layer %dx%dx%dx%d\n", l->k, l->c, l->r, l->s);
        return 1;
    }
    size_t bytes = 0;
    CHECK(cudnnGetConvolutionForwardWorkspaceSize(handle, x_desc, w_desc, conv, y_desc, perf[chosen].algo, &bytes));

    const size_t w_bytes = sizeof(float) * l->k * l->c * l->r * l->s, b_bytes = sizeof(float) * l->k;
    void *wd = example_alloc(w_bytes), *bd = example_alloc(b_bytes), *ws = example_alloc(bytes);
    *y = example_alloc(sizeof(float) * yn * yc * *oh * *ow);
    example_upload(wd, l->w, w_bytes);
    example_upload(bd, l->b, b_bytes);
    CHECK(cudnnConvolutionForward(handle, &one, x_desc, x, w_desc, wd, conv, perf[chosen].algo, ws, bytes, &zero,
                                  y_desc, *y));
    CHECK(cudnnCreateTensorDescriptor(&b_desc));
    CHECK(cudnnSetTensor4dDescriptor(b_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, l->k, 1, 1));
    CHECK(cudnnAddTensor(handle, &one, b_desc, bd, &one, y_desc, *y));
    if (relu) {
        CHECK(cudnnCreateActivationDescriptor(&act));
        CHECK(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
        CHECK(cudnnActivationForward(handle, act, &one, y_desc, *y, &zero, y_desc, *y));
        CHECK(cudnnDestroyActivationDescriptor(act));
    }
    example_free(wd);
    example_free(bd);
    example_free(ws);
    CHECK(cudnnDestroyTensorDescriptor(b_desc));
    CHECK(cudnnDestroyConvolutionDescriptor(conv));
    CHECK(cudnnDestroyFilterDescriptor(w_desc));
    return 0;
}

int main(void) {
    enum { H = 28, W = 28 };
    static float image[H * W];
    /* A "7": a bar across the top and a stroke down to the lower left. */
    for (int x = 6; x < 22; ++x) image[5 * W + x] = image[6 * W + x] = 1.0f;
    for (int y = 6; y < 24; ++y) {
        const int x = 21 - (y - 6) * 12 / 18;
        image[y * W + x] = image[y * W + x - 1] = 1.0f;
    }
    Layer layers[3] = {{6, 1, 5, 5, 2, 1, 0, 0}, {16, 6, 5, 5, 0, 2, 0, 0}, {10, 16, 12, 12, 0, 1, 0, 0}};
    unsigned seed = 2026;
    for (int i = 0; i < 3; ++i) {
        Layer *l = &layers[i];
        const int count = l->k * l->c * l->r * l->s;
        const float scale = 1.0f / sqrtf((float)(l->c * l->r * l->s));
        l->w = malloc(sizeof(float) * count);
        l->b = malloc(sizeof(float) * l->k);
        for (int j = 0; j < count; ++j) l->w[j] = example_random(&seed, 2.0f * scale);
        for (int k = 0; k < l->k; ++k) l->b[k] = example_random(&seed, 0.1f);
    }

    /* The plain-C network in double. */
    static double a[6 * 28 * 28], b[16 * 12 * 12], logits[10];
    double in[H * W];
    for (int i = 0; i < H * W; ++i) in[i] = image[i];
    int h = H, w = W, oh, ow;
    plain_conv(&layers[0], h, w, in, a, &oh, &ow);
    for (int i = 0; i < 6 * oh * ow; ++i) a[i] = a[i] > 0 ? a[i] : 0;
    plain_conv(&layers[1], oh, ow, a, b, &h, &w);
    for (int i = 0; i < 16 * h * w; ++i) b[i] = b[i] > 0 ? b[i] : 0;
    plain_conv(&layers[2], h, w, b, logits, &oh, &ow);
    double expected[10], top = logits[0], total = 0;
    for (int k = 1; k < 10; ++k) top = logits[k] > top ? logits[k] : top;
    for (int k = 0; k < 10; ++k) total += expected[k] = exp(logits[k] - top);
    for (int k = 0; k < 10; ++k) expected[k] /= total;

    /* The same through cuDNN. */
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t desc[4];
    void *data[4];
    const float one = 1.0f, zero = 0.0f;
    CHECK(cudnnCreate(&handle));
    for (int i = 0; i < 4; ++i) CHECK(cudnnCreateTensorDescriptor(&desc[i]));
    CHECK(cudnnSetTensor4dDescriptor(desc[0], CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, H, W));
    data[0] = example_alloc(sizeof image);
    example_upload(data[0], image, sizeof image);
    h = H;
    w = W;
    for (int i = 0; i < 3; ++i) {
        if (cudnn_layer(handle, &layers[i], desc[i], data[i], 1, h, w, i < 2, desc[i + 1], &data[i + 1], &oh, &ow))
            return 1;
        h = oh;
        w = ow;
    }
    CHECK(cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one, desc[3], data[3],
                              &zero, desc[3], data[3]));
    float probabilities[10];
    example_download(probabilities, data[3], sizeof probabilities);

    int best = 0;
    double worst = 0.0;
    for (int k = 0; k < 10; ++k) {
        if (probabilities[k] > probabilities[best]) best = k;
        const double error = fabs(probabilities[k] - expected[k]);
        worst = error > worst ? error : worst;
    }
    int expected_best = 0;
    for (int k = 1; k < 10; ++k) expected_best = expected[k] > expected[expected_best] ? k : expected_best;
    printf("lenet: class %d with probability %.6f (plain C: class %d, %.6f); largest difference %.2e\n", best,
           probabilities[best], expected_best, expected[expected_best], worst);
    for (int i = 0; i < 4; ++i) {
        example_free(data[i]);
        CHECK(cudnnDestroyTensorDescriptor(desc[i]));
    }
    CHECK(cudnnDestroy(handle));
    for (int i = 0; i < 3; ++i) {
        free(layers[i].w);
        free(layers[i].b);
    }
    /* float sums of at most 2304 products of magnitude < 0.05, through softmax: 1e-5 is ample. */
    const int ok = best == expected_best && worst < 1e-5;
    printf("lenet: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
