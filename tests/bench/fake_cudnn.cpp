// A tiny host-only stand-in for a cuDNN library, so that the bench's timing, comparison and reporting
// paths run in CI before LibreDNN's operations exist. It offers handles, tensor and activation
// descriptors, activation forward/backward (float), bias add, and a max reduction over the last dim
// that asks for a workspace and index memory (also without indices) and breaks ties as LibreDNN does
// not (the last maximum, not the first);
// cudnnTransformTensor answers NOT_SUPPORTED (logging why) and everything else is simply absent. Built
// in variants:
//   FAKE_CUDNN_VERSION       what cudnnGetVersion returns (8907, or 91900 for cuDNN 9's status numbers)
//   FAKE_CUDNN_OUTPUT_SCALE  every output is multiplied by it (1.001: a library that is slightly off)
//   FAKE_CUDNN_INDEX_BYTES   index memory the reduction asks for per element of C (4; 8: more than the
//                            bench's indices tensor holds, so that they go to a buffer of its own)
#include <cudnn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#ifndef FAKE_CUDNN_VERSION
#define FAKE_CUDNN_VERSION 8907
#endif
#ifndef FAKE_CUDNN_OUTPUT_SCALE
#define FAKE_CUDNN_OUTPUT_SCALE 1.0
#endif
#ifndef FAKE_CUDNN_INDEX_BYTES
#define FAKE_CUDNN_INDEX_BYTES 4
#endif

// The bench lets only LibreDNN builds compute on host memory; it recognises them by their name.
extern "C" __attribute__((used)) const char fake_cudnn_identity[] = "LibreDNN test double (tests/bench/fake_cudnn.cpp)";

struct cudnnContext {
    int unused;
};
struct cudnnTensorStruct {
    cudnnDataType_t type;
    cudnnTensorFormat_t format;
    int n, c, h, w;
};
struct cudnnActivationStruct {
    cudnnActivationMode_t mode;
    double coef;
};
struct cudnnReduceTensorStruct {
    cudnnReduceTensorOp_t op;
    cudnnReduceTensorIndices_t indices;
};

namespace {

constexpr bool kVersion9 = FAKE_CUDNN_VERSION >= 10000;
const cudnnStatus_t kBadParam = static_cast<cudnnStatus_t>(kVersion9 ? 2000 : 3);
const cudnnStatus_t kNotSupported = static_cast<cudnnStatus_t>(kVersion9 ? 3000 : 9);
// The scratch memory the fake's reduction insists on, so that the bench's workspace path runs.
constexpr size_t kReduceWorkspaceBytes = 64;

cudnnCallback_t g_callback = nullptr;
void *g_callback_data = nullptr;
unsigned g_callback_mask = 0;

cudnnStatus_t refuse(const char *function, cudnnStatus_t status, const char *status_name, const char *reason) {
    if (g_callback && (g_callback_mask & (1u << CUDNN_SEV_ERROR))) {
        char message[512];
        std::snprintf(message, sizeof message, "E! fake function %s() failed: %s: %s", function, status_name, reason);
        g_callback(CUDNN_SEV_ERROR, g_callback_data, nullptr, message);
    }
    return status;
}

long elements(const cudnnTensorStruct *t) { return static_cast<long>(t->n) * t->c * t->h * t->w; }

bool same_shape(const cudnnTensorStruct *a, const cudnnTensorStruct *b) {
    return a->n == b->n && a->c == b->c && a->h == b->h && a->w == b->w && a->type == b->type;
}

int channel_of(const cudnnTensorStruct *t, long index) {
    return t->format == CUDNN_TENSOR_NHWC ? static_cast<int>(index % t->c)
                                          : static_cast<int>((index / (static_cast<long>(t->h) * t->w)) % t->c);
}

}  // namespace

extern "C" {

size_t cudnnGetVersion(void) { return FAKE_CUDNN_VERSION; }

cudnnStatus_t cudnnSetCallback(unsigned mask, void *udata, cudnnCallback_t fptr) {
    g_callback_mask = mask;
    g_callback_data = udata;
    g_callback = fptr;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnCreate(cudnnHandle_t *handle) {
    if (handle == nullptr) return kBadParam;
    *handle = new (std::nothrow) cudnnContext{0};
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroy(cudnnHandle_t handle) {
    delete handle;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t *desc) {
    *desc = new (std::nothrow) cudnnTensorStruct{};
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t desc, cudnnTensorFormat_t format, cudnnDataType_t type,
                                         int n, int c, int h, int w) {
    if (n < 1 || c < 1 || h < 1 || w < 1) return kBadParam;
    *desc = cudnnTensorStruct{type, format, n, c, h, w};
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t desc) {
    delete desc;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnCreateActivationDescriptor(cudnnActivationDescriptor_t *desc) {
    *desc = new (std::nothrow) cudnnActivationStruct{};
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetActivationDescriptor(cudnnActivationDescriptor_t desc, cudnnActivationMode_t mode,
                                           cudnnNanPropagation_t, double coef) {
    desc->mode = mode;
    desc->coef = coef;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyActivationDescriptor(cudnnActivationDescriptor_t desc) {
    delete desc;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnActivationForward(cudnnHandle_t, cudnnActivationDescriptor_t activation, const void *alpha,
                                     const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
                                     const cudnnTensorDescriptor_t yDesc, void *y) {
    if (!same_shape(xDesc, yDesc)) return kBadParam;
    if (xDesc->type != CUDNN_DATA_FLOAT)
        return refuse("cudnnActivationForward", kNotSupported, "CUDNN_STATUS_NOT_SUPPORTED",
                      "the fake computes float only");
    if (activation->mode != CUDNN_ACTIVATION_RELU && activation->mode != CUDNN_ACTIVATION_SIGMOID)
        return refuse("cudnnActivationForward", kBadParam, "CUDNN_STATUS_BAD_PARAM", "the fake knows relu and sigmoid");
    const float a = *static_cast<const float *>(alpha), b = *static_cast<const float *>(beta);
    const float *in = static_cast<const float *>(x);
    float *out = static_cast<float *>(y);
    for (long i = 0; i < elements(xDesc); ++i) {
        const float f =
            activation->mode == CUDNN_ACTIVATION_RELU ? (in[i] > 0 ? in[i] : 0.0f) : 1.0f / (1.0f + std::exp(-in[i]));
        out[i] = static_cast<float>(FAKE_CUDNN_OUTPUT_SCALE * (a * f + (b != 0 ? b * out[i] : 0.0f)));
    }
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnActivationBackward(cudnnHandle_t, cudnnActivationDescriptor_t activation, const void *alpha,
                                      const cudnnTensorDescriptor_t yDesc, const void *y,
                                      const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                      const cudnnTensorDescriptor_t, const void *, const void *beta,
                                      const cudnnTensorDescriptor_t dxDesc, void *dx) {
    if (!same_shape(yDesc, dyDesc) || !same_shape(yDesc, dxDesc)) return kBadParam;
    if (yDesc->type != CUDNN_DATA_FLOAT || activation->mode != CUDNN_ACTIVATION_RELU)
        return refuse("cudnnActivationBackward", kNotSupported, "CUDNN_STATUS_NOT_SUPPORTED",
                      "the fake knows float relu");
    const float a = *static_cast<const float *>(alpha), b = *static_cast<const float *>(beta);
    const float *out = static_cast<const float *>(y), *grad = static_cast<const float *>(dy);
    float *result = static_cast<float *>(dx);
    for (long i = 0; i < elements(yDesc); ++i)
        result[i] = static_cast<float>(FAKE_CUDNN_OUTPUT_SCALE *
                                       (a * (out[i] > 0 ? grad[i] : 0.0f) + (b != 0 ? b * result[i] : 0.0f)));
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnAddTensor(cudnnHandle_t, const void *alpha, const cudnnTensorDescriptor_t aDesc, const void *A,
                             const void *beta, const cudnnTensorDescriptor_t cDesc, void *C) {
    if (aDesc->type != CUDNN_DATA_FLOAT || cDesc->type != CUDNN_DATA_FLOAT)
        return refuse("cudnnAddTensor", kNotSupported, "CUDNN_STATUS_NOT_SUPPORTED", "the fake computes float only");
    const bool bias = elements(aDesc) == aDesc->c && aDesc->c == cDesc->c;
    if (!bias && !same_shape(aDesc, cDesc)) return kBadParam;
    const float a = *static_cast<const float *>(alpha), b = *static_cast<const float *>(beta);
    const float *in = static_cast<const float *>(A);
    float *out = static_cast<float *>(C);
    for (long i = 0; i < elements(cDesc); ++i)
        out[i] = static_cast<float>(FAKE_CUDNN_OUTPUT_SCALE * (a * in[bias ? channel_of(cDesc, i) : i] + b * out[i]));
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnCreateReduceTensorDescriptor(cudnnReduceTensorDescriptor_t *desc) {
    *desc = new (std::nothrow) cudnnReduceTensorStruct{};
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetReduceTensorDescriptor(cudnnReduceTensorDescriptor_t desc, cudnnReduceTensorOp_t op,
                                             cudnnDataType_t, cudnnNanPropagation_t, cudnnReduceTensorIndices_t indices,
                                             cudnnIndicesType_t) {
    desc->op = op;
    desc->indices = indices;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyReduceTensorDescriptor(cudnnReduceTensorDescriptor_t desc) {
    delete desc;
    return CUDNN_STATUS_SUCCESS;
}

// Index memory is wanted even without indices (a library may use it as scratch), so that the bench's
// path for index memory the problem does not ask for runs.
cudnnStatus_t cudnnGetReductionIndicesSize(cudnnHandle_t, cudnnReduceTensorDescriptor_t, cudnnTensorDescriptor_t,
                                           cudnnTensorDescriptor_t cDesc, size_t *bytes) {
    *bytes = elements(cDesc) * FAKE_CUDNN_INDEX_BYTES;
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnGetReductionWorkspaceSize(cudnnHandle_t, cudnnReduceTensorDescriptor_t, cudnnTensorDescriptor_t,
                                             cudnnTensorDescriptor_t, size_t *bytes) {
    *bytes = kReduceWorkspaceBytes;
    return CUDNN_STATUS_SUCCESS;
}

// Max over w of NCHW float or int8 tensors; with indices, the position of the last maximum.
cudnnStatus_t cudnnReduceTensor(cudnnHandle_t, cudnnReduceTensorDescriptor_t desc, void *indices, size_t indicesBytes,
                                void *workspace, size_t workspaceBytes, const void *alpha,
                                cudnnTensorDescriptor_t aDesc, const void *A, const void *beta,
                                cudnnTensorDescriptor_t cDesc, void *C) {
    if (desc->op != CUDNN_REDUCE_TENSOR_MAX)
        return refuse("cudnnReduceTensor", kNotSupported, "CUDNN_STATUS_NOT_SUPPORTED",
                      "the fake reduces with max only");
    const bool float_data = aDesc->type == CUDNN_DATA_FLOAT;
    if ((!float_data && aDesc->type != CUDNN_DATA_INT8) || cDesc->type != aDesc->type ||
        aDesc->format != CUDNN_TENSOR_NCHW || cDesc->format != CUDNN_TENSOR_NCHW || cDesc->n != aDesc->n ||
        cDesc->c != aDesc->c || cDesc->h != aDesc->h || cDesc->w != 1)
        return refuse("cudnnReduceTensor", kNotSupported, "CUDNN_STATUS_NOT_SUPPORTED",
                      "the fake reduces the w dim of NCHW float or int8 tensors");
    if (workspace == nullptr || workspaceBytes < kReduceWorkspaceBytes)
        return refuse("cudnnReduceTensor", kBadParam, "CUDNN_STATUS_BAD_PARAM", "the workspace is too small");
    const bool with_indices = desc->indices == CUDNN_REDUCE_TENSOR_FLATTENED_INDICES;
    if (indices == nullptr || indicesBytes < elements(cDesc) * FAKE_CUDNN_INDEX_BYTES)
        return refuse("cudnnReduceTensor", kBadParam, "CUDNN_STATUS_BAD_PARAM", "the index memory is too small");
    const float a = *static_cast<const float *>(alpha), b = *static_cast<const float *>(beta);
    const auto load = [&](const void *data, long i) {
        return float_data ? static_cast<const float *>(data)[i]
                          : static_cast<float>(static_cast<const int8_t *>(data)[i]);
    };
    for (long row = 0; row < elements(cDesc); ++row) {
        float best = load(A, row * aDesc->w);
        uint32_t chosen = 0;
        for (int j = 1; j < aDesc->w; ++j) {
            const float value = load(A, row * aDesc->w + j);
            if (value >= best) {
                best = value;
                chosen = static_cast<uint32_t>(j);
            }
        }
        const float result =
            static_cast<float>(FAKE_CUDNN_OUTPUT_SCALE * (a * best + (b != 0 ? b * load(C, row) : 0.0f)));
        if (float_data)
            static_cast<float *>(C)[row] = result;
        else
            static_cast<int8_t *>(C)[row] =
                static_cast<int8_t>(std::fmax(-128.0f, std::fmin(127.0f, std::nearbyint(result))));
        if (with_indices) static_cast<uint32_t *>(indices)[row] = chosen;
    }
    return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnTransformTensor(cudnnHandle_t, const void *, const cudnnTensorDescriptor_t, const void *,
                                   const void *, const cudnnTensorDescriptor_t, void *) {
    return refuse("cudnnTransformTensor", kNotSupported, "CUDNN_STATUS_NOT_SUPPORTED", "the fake has no transform");
}

}  // extern "C"
