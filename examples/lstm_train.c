/* A few training steps of a 2-layer LSTM through cuDNN's documented v8 RNN API only, each checked against
 * a plain-C LSTM in double:
 *   y = LSTM(x; hx, cx, weights), loss = 0.5 * sum (y - target)^2, dy = y - target,
 *   cudnnRNNForward (training) -> y, hy, cy and the reserve space; cudnnRNNBackwardData_v8 -> dx, dhx, dcx;
 *   cudnnRNNBackwardWeights_v8 (ADD, into a zeroed gradient) -> dweights; weights -= lr * dweights
 *   (cudnnAddTensor over the whole weight space, seen as a 1 x W x 1 x 1 tensor).
 * The plain-C side finds each matrix and bias through cudnnGetRNNWeightParams, so it assumes nothing about
 * the weight-space layout. Build like train_step.c (nvcc or cc with -DEXAMPLE_CUDA and the CUDA runtime for
 * the GPU; cc -std=c99 ... -lcudnn -lm for LibreDNN's host backend). Exit status 0 when every step's y and
 * weight gradients match the plain-C LSTM and the loss went down. */
#include <cudnn.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "example_memory.h"

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudnnStatus_t status_ = (call);                                                          \
        if (status_ != CUDNN_STATUS_SUCCESS) {                                                   \
            fprintf(stderr, "lstm_train: %s failed: %s\n", #call, cudnnGetErrorString(status_)); \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

/* Layers, input width, hidden width, time steps, batch, gates, training steps. */
enum { L = 2, I = 5, H = 6, T = 4, N = 3, G = 4, STEPS = 3 };
#define X_COUNT (T * N * I)
#define Y_COUNT (T * N * H)
#define S_COUNT (L * N * H) /* hx, cx, hy, cy: [layer][n][h] */
#define MAX_WEIGHTS 4096

/* Where each matrix and bias lies in the weight space, in floats: [layer][linLayerID] (0-3 W_i W_f W_g W_o,
 * 4-7 R_i R_f R_g R_o), from cudnnGetRNNWeightParams. */
static long matrix_at[L][2 * G], bias_at[L][2 * G];

static float x[X_COUNT], target[Y_COUNT], hx[S_COUNT], cx[S_COUNT], weights[MAX_WEIGHTS];

static double sigmoid(double v) { return 1.0 / (1.0 + exp(-v)); }

/* The plain-C LSTM of one layer over all steps and sequences, in double, keeping what backpropagation needs:
 * gates [t][n][G][H] (after their activations), c [t + 1][n][H] and h [t + 1][n][H] (index 0: the initial
 * state). `in` is [t][n][width]. */
static void layer_forward(const float *w, int layer, int width, const double *in, const float *h0, const float *c0,
                          double *gates, double *c, double *h) {
    for (int n = 0; n < N; ++n)
        for (int j = 0; j < H; ++j) {
            h[n * H + j] = h0[(layer * N + n) * H + j];
            c[n * H + j] = c0[(layer * N + n) * H + j];
        }
    for (int t = 0; t < T; ++t)
        for (int n = 0; n < N; ++n) {
            const double *xt = in + (t * N + n) * width, *hp = h + (t * N + n) * H, *cp = c + (t * N + n) * H;
            double *gt = gates + ((t * N + n) * G) * H;
            for (int k = 0; k < G; ++k)
                for (int j = 0; j < H; ++j) {
                    double a = w[bias_at[layer][k] + j] + w[bias_at[layer][G + k] + j];
                    for (int i = 0; i < width; ++i) a += w[matrix_at[layer][k] + j * width + i] * xt[i];
                    for (int i = 0; i < H; ++i) a += w[matrix_at[layer][G + k] + j * H + i] * hp[i];
                    gt[k * H + j] = k == 2 ? tanh(a) : sigmoid(a); /* i, f, o: sigmoid; g: tanh */
                }
            for (int j = 0; j < H; ++j) {
                const double i_ = gt[j], f = gt[H + j], g = gt[2 * H + j], o = gt[3 * H + j];
                const double cn = f * cp[j] + i_ * g;
                c[((t + 1) * N + n) * H + j] = cn;
                h[((t + 1) * N + n) * H + j] = o * tanh(cn);
            }
        }
}

/* Backpropagation through time of one layer: `dout` [t][n][H] is the loss gradient of its outputs; adds
 * the weight gradients into dw (laid out as the weight space) and writes the input gradient `din`. No
 * gradient flows in through hy and cy (dhy, dcy are NULL). */
static void layer_backward(const float *w, int layer, int width, const double *in, const double *gates, const double *c,
                           const double *h, const double *dout, double *dw, double *din) {
    static double dh_next[N * H], dc_next[N * H];
    for (int i = 0; i < N * H; ++i) dh_next[i] = dc_next[i] = 0;
    for (int i = 0; i < T * N * width; ++i) din[i] = 0;
    for (int t = T - 1; t >= 0; --t)
        for (int n = 0; n < N; ++n) {
            const double *gt = gates + ((t * N + n) * G) * H, *xt = in + (t * N + n) * width;
            const double *hp = h + (t * N + n) * H, *cp = c + (t * N + n) * H, *ct = c + ((t + 1) * N + n) * H;
            double da[G * H], dh_prev[H];
            for (int j = 0; j < H; ++j) {
                const double i_ = gt[j], f = gt[H + j], g = gt[2 * H + j], o = gt[3 * H + j], tc = tanh(ct[j]);
                const double dh = dout[(t * N + n) * H + j] + dh_next[n * H + j];
                const double dc = dc_next[n * H + j] + dh * o * (1 - tc * tc);
                da[j] = dc * g * i_ * (1 - i_);
                da[H + j] = dc * cp[j] * f * (1 - f);
                da[2 * H + j] = dc * i_ * (1 - g * g);
                da[3 * H + j] = dh * tc * o * (1 - o);
                dc_next[n * H + j] = dc * f;
                dh_prev[j] = 0;
            }
            for (int k = 0; k < G; ++k)
                for (int j = 0; j < H; ++j) {
                    const double a = da[k * H + j];
                    dw[bias_at[layer][k] + j] += a;
                    dw[bias_at[layer][G + k] + j] += a;
                    for (int i = 0; i < width; ++i) {
                        dw[matrix_at[layer][k] + j * width + i] += a * xt[i];
                        din[(t * N + n) * width + i] += a * w[matrix_at[layer][k] + j * width + i];
                    }
                    for (int i = 0; i < H; ++i) {
                        dw[matrix_at[layer][G + k] + j * H + i] += a * hp[i];
                        dh_prev[i] += a * w[matrix_at[layer][G + k] + j * H + i];
                    }
                }
            for (int i = 0; i < H; ++i) dh_next[n * H + i] = dh_prev[i];
        }
}

/* The largest |got - want| relative to the largest |want|, over `count` elements. */
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
    unsigned seed = 11;
    for (int i = 0; i < X_COUNT; ++i) x[i] = example_random(&seed, 1.0f);
    for (int i = 0; i < Y_COUNT; ++i) target[i] = example_random(&seed, 0.5f);
    for (int i = 0; i < S_COUNT; ++i) hx[i] = example_random(&seed, 0.5f);
    for (int i = 0; i < S_COUNT; ++i) cx[i] = example_random(&seed, 0.5f);
    const float lr = 0.05f;

    cudnnHandle_t handle;
    cudnnDropoutDescriptor_t dropout;
    cudnnRNNDescriptor_t rnn;
    cudnnRNNDataDescriptor_t x_desc, y_desc;
    cudnnTensorDescriptor_t h_desc, c_desc, w_as_tensor, m_desc, b_desc;
    CHECK(cudnnCreate(&handle));
    CHECK(cudnnCreateDropoutDescriptor(&dropout));
    CHECK(cudnnCreateRNNDescriptor(&rnn));
    CHECK(cudnnCreateRNNDataDescriptor(&x_desc));
    CHECK(cudnnCreateRNNDataDescriptor(&y_desc));
    CHECK(cudnnCreateTensorDescriptor(&h_desc));
    CHECK(cudnnCreateTensorDescriptor(&c_desc));
    CHECK(cudnnCreateTensorDescriptor(&w_as_tensor));
    CHECK(cudnnCreateTensorDescriptor(&m_desc));
    CHECK(cudnnCreateTensorDescriptor(&b_desc));

    /* No dropout: probability 0, with the generator states cuDNN asks for. */
    size_t state_bytes = 0;
    CHECK(cudnnDropoutGetStatesSize(handle, &state_bytes));
    void *states = example_alloc(state_bytes);
    CHECK(cudnnSetDropoutDescriptor(dropout, handle, 0.0f, states, state_bytes, 1234ull));
    /* FP32 data and math without tensor cores, so that the plain-C comparison can be tight. */
    CHECK(cudnnSetRNNDescriptor_v8(rnn, CUDNN_RNN_ALGO_STANDARD, CUDNN_LSTM, CUDNN_RNN_DOUBLE_BIAS,
                                   CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT,
                                   CUDNN_FMA_MATH, I, H, H, L, dropout, CUDNN_RNN_PADDED_IO_ENABLED));
    int lengths[N];
    for (int n = 0; n < N; ++n) lengths[n] = T;
    CHECK(cudnnSetRNNDataDescriptor(x_desc, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, T, N, I,
                                    lengths, NULL));
    CHECK(cudnnSetRNNDataDescriptor(y_desc, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, T, N, H,
                                    lengths, NULL));
    const int state_dims[3] = {L, N, H}, state_strides[3] = {N * H, H, 1};
    CHECK(cudnnSetTensorNdDescriptor(h_desc, CUDNN_DATA_FLOAT, 3, state_dims, state_strides));
    CHECK(cudnnSetTensorNdDescriptor(c_desc, CUDNN_DATA_FLOAT, 3, state_dims, state_strides));

    size_t weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
    CHECK(cudnnGetRNNWeightSpaceSize(handle, rnn, &weight_bytes));
    CHECK(cudnnGetRNNTempSpaceSizes(handle, rnn, CUDNN_FWD_MODE_TRAINING, x_desc, &work_bytes, &reserve_bytes));
    const int weight_count = (int)(weight_bytes / sizeof(float));
    if (weight_count > MAX_WEIGHTS) {
        fprintf(stderr, "lstm_train: the weight space holds %d floats, more than the %d expected\n", weight_count,
                MAX_WEIGHTS);
        return 1;
    }
    CHECK(cudnnSetTensor4dDescriptor(w_as_tensor, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, weight_count, 1, 1));

    void *xd = example_alloc(sizeof x), *yd = example_alloc(sizeof target), *dyd = example_alloc(sizeof target);
    void *dxd = example_alloc(sizeof x), *hxd = example_alloc(sizeof hx), *cxd = example_alloc(sizeof cx);
    void *hyd = example_alloc(sizeof hx), *cyd = example_alloc(sizeof cx), *dhxd = example_alloc(sizeof hx);
    void *dcxd = example_alloc(sizeof cx), *wd = example_alloc(weight_bytes), *dwd = example_alloc(weight_bytes);
    void *work = example_alloc(work_bytes), *reserve = example_alloc(reserve_bytes);
    void *lengths_d = example_alloc(sizeof lengths); /* devSeqLengths: where the library's kernels read them */

    /* Every matrix and bias, found through the API; the whole space starts random. */
    for (int layer = 0; layer < L; ++layer)
        for (int id = 0; id < 2 * G; ++id) {
            void *m = NULL, *b = NULL;
            CHECK(cudnnGetRNNWeightParams(handle, rnn, layer, weight_bytes, wd, id, m_desc, &m, b_desc, &b));
            if (m == NULL || b == NULL) {
                fprintf(stderr, "lstm_train: no matrix or bias for layer %d, linLayerID %d\n", layer, id);
                return 1;
            }
            matrix_at[layer][id] = (long)(((char *)m - (char *)wd) / (long)sizeof(float));
            bias_at[layer][id] = (long)(((char *)b - (char *)wd) / (long)sizeof(float));
        }
    for (int i = 0; i < weight_count; ++i) weights[i] = example_random(&seed, 0.4f);
    example_upload(wd, weights, weight_bytes);
    example_upload(xd, x, sizeof x);
    example_upload(hxd, hx, sizeof hx);
    example_upload(cxd, cx, sizeof cx);
    example_upload(lengths_d, lengths, sizeof lengths);

    static double in1[Y_COUNT], gates[L][T * N * G * H], c[L][(T + 1) * N * H], h[L][(T + 1) * N * H];
    static double x_double[X_COUNT], dy_double[Y_COUNT], dw_ref[MAX_WEIGHTS],
        din[X_COUNT > Y_COUNT ? X_COUNT : Y_COUNT];
    static double dout0[Y_COUNT];
    static float y_got[Y_COUNT], dy[Y_COUNT], dw_got[MAX_WEIGHTS], zeros[MAX_WEIGHTS];
    for (int i = 0; i < X_COUNT; ++i) x_double[i] = x[i];
    const float one = 1.0f, minus_lr = -lr;
    double first_loss = 0, last_loss = 0;
    int ok = 1;
    for (int step = 0; step < STEPS; ++step) {
        /* The library's step. */
        CHECK(cudnnRNNForward(handle, rnn, CUDNN_FWD_MODE_TRAINING, (const int32_t *)lengths_d, x_desc, xd, y_desc, yd,
                              h_desc, hxd, hyd, c_desc, cxd, cyd, weight_bytes, wd, work_bytes, work, reserve_bytes,
                              reserve));
        example_download(y_got, yd, sizeof y_got);
        double loss = 0;
        for (int i = 0; i < Y_COUNT; ++i) {
            dy[i] = y_got[i] - target[i];
            loss += 0.5 * (double)dy[i] * dy[i];
        }
        example_upload(dyd, dy, sizeof dy);
        CHECK(cudnnRNNBackwardData_v8(handle, rnn, (const int32_t *)lengths_d, y_desc, yd, dyd, x_desc, dxd, h_desc,
                                      hxd, NULL, dhxd, c_desc, cxd, NULL, dcxd, weight_bytes, wd, work_bytes, work,
                                      reserve_bytes, reserve));
        example_upload(dwd, zeros, weight_bytes); /* ADD accumulates: start from zero */
        CHECK(cudnnRNNBackwardWeights_v8(handle, rnn, CUDNN_WGRAD_MODE_ADD, (const int32_t *)lengths_d, x_desc, xd,
                                         h_desc, hxd, y_desc, yd, weight_bytes, dwd, work_bytes, work, reserve_bytes,
                                         reserve));
        example_download(dw_got, dwd, weight_bytes);

        /* The plain-C step from the same weights, and with the same dy (the library's y minus the target),
         * so that the gradients compare the backward passes alone. */
        layer_forward(weights, 0, I, x_double, hx, cx, gates[0], c[0], h[0]);
        for (int i = 0; i < Y_COUNT; ++i) in1[i] = h[0][N * H + i];
        layer_forward(weights, 1, H, in1, hx, cx, gates[1], c[1], h[1]);
        for (int i = 0; i < Y_COUNT; ++i) dy_double[i] = dy[i];
        for (int i = 0; i < weight_count; ++i) dw_ref[i] = 0;
        layer_backward(weights, 1, H, in1, gates[1], c[1], h[1], dy_double, dw_ref, din);
        for (int i = 0; i < Y_COUNT; ++i) dout0[i] = din[i];
        layer_backward(weights, 0, I, x_double, gates[0], c[0], h[0], dout0, dw_ref, din);

        /* float arithmetic against double: y passes through about 50 rounded operations (two layers of
         * 11-term sums and the cell), a weight gradient sums at most T * N = 12 products carried back through
         * 2 layers and 4 steps; unit roundoff 6e-8 makes 1e-5 of the largest value a bound with margin, which
         * an error in any gate, index or sign exceeds by orders of magnitude. */
        const double y_error = difference(y_got, h[1] + N * H, Y_COUNT);
        const double dw_error = difference(dw_got, dw_ref, weight_count);
        const int pass = y_error < 1e-5 && dw_error < 1e-5;
        ok = ok && pass;
        printf("lstm_train: step %d loss %.6f, y relative difference %.2e, dweights %.2e %s\n", step, loss, y_error,
               dw_error, pass ? "ok" : "TOO LARGE");
        if (step == 0) first_loss = loss;
        last_loss = loss;

        /* SGD on the whole weight space: weights += -lr * dweights. */
        CHECK(cudnnAddTensor(handle, &minus_lr, w_as_tensor, dwd, &one, w_as_tensor, wd));
        example_download(weights, wd, weight_bytes);
    }
    const int learned = last_loss < first_loss;
    printf("lstm_train: loss %.6f -> %.6f %s\n", first_loss, last_loss, learned ? "(down)" : "(NOT down)");
    ok = ok && learned;

    void *buffers[] = {xd, yd, dyd, dxd, hxd, cxd, hyd, cyd, dhxd, dcxd, wd, dwd, work, reserve, lengths_d, states};
    for (int i = 0; i < 16; ++i) example_free(buffers[i]);
    CHECK(cudnnDestroyTensorDescriptor(b_desc));
    CHECK(cudnnDestroyTensorDescriptor(m_desc));
    CHECK(cudnnDestroyTensorDescriptor(w_as_tensor));
    CHECK(cudnnDestroyTensorDescriptor(c_desc));
    CHECK(cudnnDestroyTensorDescriptor(h_desc));
    CHECK(cudnnDestroyRNNDataDescriptor(y_desc));
    CHECK(cudnnDestroyRNNDataDescriptor(x_desc));
    CHECK(cudnnDestroyRNNDescriptor(rnn));
    CHECK(cudnnDestroyDropoutDescriptor(dropout));
    CHECK(cudnnDestroy(handle));
    printf("lstm_train: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
