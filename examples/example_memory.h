/* Memory for the examples: device memory (cudaMalloc) when built with -DEXAMPLE_CUDA and linked with the
 * CUDA runtime, as any cuDNN program uses it; otherwise host memory, which LibreDNN's host backend takes
 * (LIBREDNN_BACKEND=host) and NVIDIA's cuDNN does not. */
#ifndef EXAMPLE_MEMORY_H
#define EXAMPLE_MEMORY_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifdef EXAMPLE_CUDA
#include <cuda_runtime_api.h>
static void *example_alloc(size_t bytes) {
    void *p = NULL;
    return cudaMalloc(&p, bytes ? bytes : 1) == cudaSuccess ? p : NULL;
}
static void example_free(void *p) { cudaFree(p); }
static void example_upload(void *to, const void *from, size_t bytes) {
    cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice);
}
static void example_download(void *to, const void *from, size_t bytes) {
    cudaDeviceSynchronize();
    cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost);
}
#else
static void *example_alloc(size_t bytes) { return calloc(1, bytes ? bytes : 1); }
static void example_free(void *p) { free(p); }
static void example_upload(void *to, const void *from, size_t bytes) { memcpy(to, from, bytes); }
static void example_download(void *to, const void *from, size_t bytes) { memcpy(to, from, bytes); }
#endif

/* Deterministic values in [-scale, scale): a small linear congruential generator. */
static float example_random(unsigned *state, float scale) {
    *state = *state * 1664525u + 1013904223u;
    return scale * ((float)(*state >> 8) / 8388608.0f - 1.0f);
}

#endif
