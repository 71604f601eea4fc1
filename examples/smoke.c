/* The drop-in smoke test: a plain C99 program that uses cuDNN through cudnn.h and -lcudnn only.
 * Build it against any cuDNN 8 (LibreDNN's or NVIDIA's):
 *   cc -std=c99 smoke.c -I PREFIX/include -L PREFIX/lib -lcudnn -o smoke && LD_LIBRARY_PATH=PREFIX/lib ./smoke */
#include <cudnn.h>

#include <stdio.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudnnStatus_t status_ = (call);                                                     \
        if (status_ != CUDNN_STATUS_SUCCESS) {                                              \
            fprintf(stderr, "smoke: %s failed: %s\n", #call, cudnnGetErrorString(status_)); \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

int main(void) {
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t x;
    cudnnFilterDescriptor_t w;
    cudnnConvolutionDescriptor_t conv;
    int n, c, h, wd;
    size_t bytes = 0;

    printf("cuDNN version %zu (headers %d), CUDA runtime %zu\n", cudnnGetVersion(), CUDNN_VERSION,
           cudnnGetCudartVersion());
    CHECK(cudnnCreate(&handle));
    CHECK(cudnnCreateTensorDescriptor(&x));
    CHECK(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 32, 3, 224, 224));
    CHECK(cudnnGetTensorSizeInBytes(x, &bytes));
    CHECK(cudnnCreateFilterDescriptor(&w));
    CHECK(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 64, 3, 7, 7));
    CHECK(cudnnCreateConvolutionDescriptor(&conv));
    CHECK(cudnnSetConvolution2dDescriptor(conv, 3, 3, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    CHECK(cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &c, &h, &wd));
    printf("input 32x3x224x224 (%zu bytes), 7x7/2 convolution to %dx%dx%dx%d\n", bytes, n, c, h, wd);
    printf("error string of a bad call: %s\n",
           cudnnGetErrorString(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, -1, 3, 8, 8)));
    CHECK(cudnnDestroyConvolutionDescriptor(conv));
    CHECK(cudnnDestroyFilterDescriptor(w));
    CHECK(cudnnDestroyTensorDescriptor(x));
    CHECK(cudnnDestroy(handle));
    printf("smoke: OK\n");
    return 0;
}
