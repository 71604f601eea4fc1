/* The public headers as a C99 program sees them (compiled with -std=c99 -pedantic -Werror). */
#include <cudnn.h>
#include <cudnn_backend.h>
#include <cudnn_version.h>

#ifdef LIBREDNN_NO_CUDA_RUNTIME_H
#define librednn_c99_uses_types librednn_c99_uses_types_without_cuda
#endif

/* One use of each struct so that a broken layout or a missing type fails here. */
int librednn_c99_uses_types(void);
int librednn_c99_uses_types(void) {
    cudnnDebug_t debug;
    cudnnConvolutionFwdAlgoPerf_t perf;
    cudnnAlgorithm_t algorithm;
    cudnnFraction_t fraction;
    debug.cudnn_version = CUDNN_VERSION;
    perf.algo = CUDNN_CONVOLUTION_FWD_ALGO_GEMM;
    algorithm.algo.convFwdAlgo = CUDNN_CONVOLUTION_FWD_ALGO_FFT;
    fraction.numerator = 1;
    return (int)debug.cudnn_version + (int)perf.algo + (int)algorithm.algo.convFwdAlgo + (int)fraction.numerator +
           CUDNN_DIM_MAX + (int)CUDNN_SEV_INFO_EN;
}
