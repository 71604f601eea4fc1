// libFuzzer target: the public C API on the host backend, driven by fuzz bytes (issue 16).
//
// The input is a program: each step picks an operation with one byte and reads its arguments from the
// bytes after it. Descriptor setters take arbitrary values (negative, zero, huge, overflowing products,
// wrong enums, wrong types); operations run on the descriptors as they stand, on buffers exactly as
// large as the descriptors claim (skipped when a claim is too large to be quick). The contract: each
// call returns a status (any), and nothing crashes, hangs, leaks, or reads or writes outside its
// buffers (AddressSanitizer and UndefinedBehaviorSanitizer watch). docs/FUZZING.md says how to run it.
#include <cudnn.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

// Buffers larger than this are not allocated: the step is skipped. Small enough that every operation on
// such buffers ends in milliseconds.
constexpr size_t kMaxBytes = 16 * 1024;

class Bytes {
public:
    Bytes(const uint8_t *data, size_t size) : data_(data), size_(size) {}
    bool empty() const { return at_ >= size_; }
    uint8_t u8() { return at_ < size_ ? data_[at_++] : 0; }
    // Mostly small values, sometimes the edges that break arithmetic.
    int integer() {
        const uint8_t tag = u8();
        static const int kEdges[] = {0, -1, INT_MAX, INT_MIN, 65536, 1 << 30, -65536, 46341};
        if (tag < 200) return tag % 9;
        if (tag < 240) return tag % 40;
        return kEdges[tag % 8];
    }
    double real() {
        static const double kValues[] = {0.0, 1.0, -1.0, 0.5, 1e-5, 2.0, 1e30, -1e30, 1e-300, 0.75, 6.0, 1e-4};
        const uint8_t tag = u8();
        return tag < 250 ? kValues[tag % 12] : (tag % 2 ? HUGE_VAL : -HUGE_VAL);
    }
    template <class Enum>
    Enum pick(int count) {
        const uint8_t tag = u8();
        return static_cast<Enum>(tag < 250 ? tag % count : tag);  // sometimes out of range
    }

private:
    const uint8_t *data_;
    size_t size_;
    size_t at_ = 0;
};

cudnnDataType_t data_type(Bytes &in) {
    static const cudnnDataType_t kTypes[] = {
        CUDNN_DATA_FLOAT, CUDNN_DATA_HALF,   CUDNN_DATA_DOUBLE, CUDNN_DATA_BFLOAT16, CUDNN_DATA_INT8,
        CUDNN_DATA_INT32, CUDNN_DATA_INT8x4, CUDNN_DATA_UINT8,  CUDNN_DATA_INT8x32,  CUDNN_DATA_INT64};
    const uint8_t tag = in.u8();
    return tag < 250 ? kTypes[tag % 10] : static_cast<cudnnDataType_t>(tag);
}

// Memory exactly `bytes` long (so that AddressSanitizer sees one byte past it), filled with small
// values in every type.
class Buffer {
public:
    explicit Buffer(size_t bytes) : data_(new uint8_t[bytes ? bytes : 1]) {
        for (size_t i = 0; i < bytes; ++i) data_[i] = static_cast<uint8_t>(i % 7 == 0 ? 0x3c : 0x01);
    }
    void *get() { return data_.get(); }

private:
    std::unique_ptr<uint8_t[]> data_;
};

struct State {
    cudnnHandle_t handle = nullptr;
    cudnnTensorDescriptor_t tensors[4] = {};
    cudnnFilterDescriptor_t filters[2] = {};
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnPoolingDescriptor_t pool = nullptr;
    cudnnActivationDescriptor_t act = nullptr;
    cudnnLRNDescriptor_t lrn = nullptr;
    cudnnOpTensorDescriptor_t op = nullptr;
    cudnnReduceTensorDescriptor_t reduce = nullptr;
    cudnnDropoutDescriptor_t dropout = nullptr;
    Buffer states{64};  // the dropout states (cudnnDropoutGetStatesSize: 64 bytes)
    cudnnSpatialTransformerDescriptor_t st = nullptr;
    // What the last successful cudnnSetSpatialTransformerNdDescriptor set: the sizes of theta and the grid.
    int st_dims[4] = {0, 0, 0, 0};
    size_t st_scalar = 0;  // bytes a scalar of its data type; 0 before a successful set

    State() {
        cudnnCreate(&handle);
        for (auto &t : tensors) cudnnCreateTensorDescriptor(&t);
        for (auto &f : filters) cudnnCreateFilterDescriptor(&f);
        cudnnCreateConvolutionDescriptor(&conv);
        cudnnCreatePoolingDescriptor(&pool);
        cudnnCreateActivationDescriptor(&act);
        cudnnCreateLRNDescriptor(&lrn);
        cudnnCreateOpTensorDescriptor(&op);
        cudnnCreateReduceTensorDescriptor(&reduce);
        cudnnCreateDropoutDescriptor(&dropout);
        cudnnCreateSpatialTransformerDescriptor(&st);
    }
    ~State() {
        for (auto &t : tensors) cudnnDestroyTensorDescriptor(t);
        for (auto &f : filters) cudnnDestroyFilterDescriptor(f);
        cudnnDestroyConvolutionDescriptor(conv);
        cudnnDestroyPoolingDescriptor(pool);
        cudnnDestroyActivationDescriptor(act);
        cudnnDestroyLRNDescriptor(lrn);
        cudnnDestroyOpTensorDescriptor(op);
        cudnnDestroyReduceTensorDescriptor(reduce);
        cudnnDestroyDropoutDescriptor(dropout);
        cudnnDestroySpatialTransformerDescriptor(st);
        cudnnDestroy(handle);
    }
    cudnnTensorDescriptor_t tensor(Bytes &in) { return tensors[in.u8() % 4]; }
    cudnnFilterDescriptor_t filter(Bytes &in) { return filters[in.u8() % 2]; }
};

// Elements a descriptor's dims hold (overlapping strides make them many more than its bytes), capped.
constexpr int64_t kMaxElements = 1 << 14;

int64_t element_count(int nb, const int *dims) {
    int64_t count = 1;
    for (int i = 0; i < nb; ++i) {
        count *= dims[i] < 0 ? 0 : dims[i];
        if (count > kMaxElements) return kMaxElements + 1;
    }
    return count;
}

// A buffer for tensor `t` as large as it claims, or null when it claims too much (bytes or elements:
// the work an operation does) or is unset.
std::unique_ptr<Buffer> tensor_buffer(cudnnTensorDescriptor_t t) {
    size_t bytes = 0;
    if (cudnnGetTensorSizeInBytes(t, &bytes) != CUDNN_STATUS_SUCCESS || bytes > kMaxBytes) return nullptr;
    cudnnDataType_t type;
    int nb = 0, dims[8], strides[8];
    if (cudnnGetTensorNdDescriptor(t, 8, &type, &nb, dims, strides) != CUDNN_STATUS_SUCCESS ||
        element_count(nb, dims) > kMaxElements)
        return nullptr;
    return std::make_unique<Buffer>(bytes);
}

std::unique_ptr<Buffer> filter_buffer(cudnnFilterDescriptor_t f) {
    size_t bytes = 0;
    if (cudnnGetFilterSizeInBytes(f, &bytes) != CUDNN_STATUS_SUCCESS || bytes > kMaxBytes) return nullptr;
    cudnnDataType_t type;
    cudnnTensorFormat_t format;
    int nb = 0, dims[8];
    if (cudnnGetFilterNdDescriptor(f, 8, &type, &format, &nb, dims) != CUDNN_STATUS_SUCCESS ||
        element_count(nb, dims) > kMaxElements)
        return nullptr;
    return std::make_unique<Buffer>(bytes);
}

// The elements of a tensor or filter, for bounding a convolution's work (x * w / K products and more).
int64_t tensor_elements(cudnnTensorDescriptor_t t) {
    cudnnDataType_t type;
    int nb = 0, dims[8], strides[8];
    if (cudnnGetTensorNdDescriptor(t, 8, &type, &nb, dims, strides) != CUDNN_STATUS_SUCCESS) return kMaxElements + 1;
    return element_count(nb, dims);
}

int64_t filter_elements(cudnnFilterDescriptor_t f) {
    cudnnDataType_t type;
    cudnnTensorFormat_t format;
    int nb = 0, dims[8];
    if (cudnnGetFilterNdDescriptor(f, 8, &type, &format, &nb, dims) != CUDNN_STATUS_SUCCESS) return kMaxElements + 1;
    return element_count(nb, dims);
}

// Up to 9 integers (one more than cuDNN's 8 dims: the setters must refuse, not read past the array).
void integers(Bytes &in, int count, int *out) {
    for (int i = 0; i < 9; ++i) out[i] = i < count ? in.integer() : 0;
}

void step(State &s, Bytes &in) {
    // Scaling factors of either width: the library reads a double for double data, a float otherwise.
    // Each lies in 8 bytes, so that reading the other width (the caller's mistake, which no library
    // can see) stays inside it.
    struct Factor {
        float value, padding;
    };
    const double one_d = 1.0, zero_d = 0.0;
    const Factor one_f = {1.0f, 0.0f}, zero_f = {0.0f, 0.0f};
    const void *one = in.u8() % 2 ? static_cast<const void *>(&one_d) : &one_f;
    const void *zero = in.u8() % 2 ? static_cast<const void *>(&zero_d) : &zero_f;
    int a[9], b[9], c[9];
    switch (in.u8() % 32) {
        case 0: {
            auto t = s.tensor(in);
            const cudnnDataType_t type = data_type(in);
            const int nb = in.u8() % 10;
            integers(in, nb, a);
            integers(in, nb, b);
            cudnnSetTensorNdDescriptor(t, type, nb, a, b);
            break;
        }
        case 1: {
            auto t = s.tensor(in);
            const auto format = in.pick<cudnnTensorFormat_t>(3);
            const cudnnDataType_t type = data_type(in);
            integers(in, 4, a);
            cudnnSetTensor4dDescriptor(t, format, type, a[0], a[1], a[2], a[3]);
            break;
        }
        case 2: {
            auto f = s.filter(in);
            const cudnnDataType_t type = data_type(in);
            const auto format = in.pick<cudnnTensorFormat_t>(3);
            const int nb = in.u8() % 10;
            integers(in, nb, a);
            cudnnSetFilterNdDescriptor(f, type, format, nb, a);
            break;
        }
        case 3: {
            const int nb = in.u8() % 5;
            integers(in, nb, a);
            integers(in, nb, b);
            integers(in, nb, c);
            cudnnSetConvolutionNdDescriptor(s.conv, nb, a, b, c, in.pick<cudnnConvolutionMode_t>(2), data_type(in));
            cudnnSetConvolutionGroupCount(s.conv, in.integer());
            cudnnSetConvolutionMathType(s.conv, in.pick<cudnnMathType_t>(4));
            break;
        }
        case 4: {
            const int nb = in.u8() % 5;
            integers(in, nb, a);
            integers(in, nb, b);
            integers(in, nb, c);
            cudnnSetPoolingNdDescriptor(s.pool, in.pick<cudnnPoolingMode_t>(4), in.pick<cudnnNanPropagation_t>(2), nb,
                                        a, b, c);
            break;
        }
        case 5:
            cudnnSetActivationDescriptor(s.act, in.pick<cudnnActivationMode_t>(7), in.pick<cudnnNanPropagation_t>(2),
                                         in.real());
            break;
        case 6:
            cudnnSetLRNDescriptor(s.lrn, static_cast<unsigned>(in.integer()), in.real(), in.real(), in.real());
            break;
        case 7: {
            auto x = s.tensor(in);
            auto f = s.filter(in);
            int dims[9];
            cudnnGetConvolutionNdForwardOutputDim(s.conv, x, f, in.u8() % 10, dims);
            break;
        }
        case 8: {
            auto x = s.tensor(in);
            int dims[9];
            cudnnGetPoolingNdForwardOutputDim(s.pool, x, in.u8() % 10, dims);
            break;
        }
        case 9: {
            auto x = s.tensor(in), y = s.tensor(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y);
            if (!bx || !by) break;
            if (in.u8() % 2) {
                cudnnActivationForward(s.handle, s.act, one, x, bx->get(), zero, y, by->get());
            } else {
                auto bdx = tensor_buffer(x);
                cudnnActivationBackward(s.handle, s.act, one, y, by->get(), y, by->get(), x, bx->get(), zero, x,
                                        bdx->get());
            }
            break;
        }
        case 10: {
            auto x = s.tensor(in), y = s.tensor(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y);
            if (!bx || !by) break;
            cudnnSoftmaxForward(s.handle, in.pick<cudnnSoftmaxAlgorithm_t>(3), in.pick<cudnnSoftmaxMode_t>(2), one, x,
                                bx->get(), zero, y, by->get());
            break;
        }
        case 11: {
            auto x = s.tensor(in), y = s.tensor(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y);
            if (!bx || !by) break;
            cudnnAddTensor(s.handle, one, x, bx->get(), one, y, by->get());
            break;
        }
        case 12: {
            auto x = s.tensor(in), y = s.tensor(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y);
            if (!bx || !by) break;
            if (in.u8() % 2) {
                cudnnPoolingForward(s.handle, s.pool, one, x, bx->get(), zero, y, by->get());
            } else {
                auto bdy = tensor_buffer(y), bdx = tensor_buffer(x);
                cudnnPoolingBackward(s.handle, s.pool, one, y, by->get(), y, bdy->get(), x, bx->get(), zero, x,
                                     bdx->get());
            }
            break;
        }
        case 13: {
            auto x = s.tensor(in), y = s.tensor(in);
            auto f = s.filter(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y);
            auto bw = filter_buffer(f);
            if (!bx || !by || !bw) break;
            // At most 2^24 products however the dims fall (each output of x or y meets each weight).
            if ((tensor_elements(x) + tensor_elements(y)) * filter_elements(f) > (int64_t{1} << 24)) break;
            const int algo = in.u8() % 9;
            const int direction = in.u8() % 3;
            size_t bytes = 0;
            cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
            if (direction == 0) {
                status = cudnnGetConvolutionForwardWorkspaceSize(s.handle, x, f, s.conv, y,
                                                                 static_cast<cudnnConvolutionFwdAlgo_t>(algo), &bytes);
            } else if (direction == 1) {
                status = cudnnGetConvolutionBackwardDataWorkspaceSize(
                    s.handle, f, y, s.conv, x, static_cast<cudnnConvolutionBwdDataAlgo_t>(algo % 6), &bytes);
            } else {
                status = cudnnGetConvolutionBackwardFilterWorkspaceSize(
                    s.handle, x, y, s.conv, f, static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo % 7), &bytes);
            }
            if (status != CUDNN_STATUS_SUCCESS || bytes > 4 * kMaxBytes) break;
            Buffer workspace(bytes);
            if (direction == 0) {
                cudnnConvolutionForward(s.handle, one, x, bx->get(), f, bw->get(), s.conv,
                                        static_cast<cudnnConvolutionFwdAlgo_t>(algo), workspace.get(), bytes, zero, y,
                                        by->get());
            } else if (direction == 1) {
                cudnnConvolutionBackwardData(s.handle, one, f, bw->get(), y, by->get(), s.conv,
                                             static_cast<cudnnConvolutionBwdDataAlgo_t>(algo % 6), workspace.get(),
                                             bytes, zero, x, bx->get());
            } else {
                cudnnConvolutionBackwardFilter(s.handle, one, x, bx->get(), y, by->get(), s.conv,
                                               static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo % 7), workspace.get(),
                                               bytes, zero, f, bw->get());
            }
            break;
        }
        case 14:
        case 15:
        case 16: {
            // Batch norm: inference, training, backward, with derived (or fuzzed) parameter descriptors.
            auto x = s.tensor(in), y = s.tensor(in), p = s.tensor(in);
            const auto mode = in.pick<cudnnBatchNormMode_t>(3);
            if (in.u8() % 2) cudnnDeriveBNTensorDescriptor(p, x, mode);
            auto bx = tensor_buffer(x), by = tensor_buffer(y), b1 = tensor_buffer(p), b2 = tensor_buffer(p);
            auto b3 = tensor_buffer(p), b4 = tensor_buffer(p);
            if (!bx || !by || !b1) break;
            const double epsilon = in.real();
            const int which = in.u8() % 3;
            if (which == 0) {
                cudnnBatchNormalizationForwardInference(s.handle, mode, one, zero, x, bx->get(), y, by->get(), p,
                                                        b1->get(), b2->get(), b3->get(), b4->get(), epsilon);
            } else if (which == 1) {
                auto b5 = tensor_buffer(p), b6 = tensor_buffer(p);
                cudnnBatchNormalizationForwardTraining(s.handle, mode, one, zero, x, bx->get(), y, by->get(), p,
                                                       b1->get(), b2->get(), in.real(), b3->get(), b4->get(), epsilon,
                                                       b5->get(), b6->get());
            } else {
                auto bdx = tensor_buffer(x), b5 = tensor_buffer(p);
                cudnnBatchNormalizationBackward(s.handle, mode, one, zero, one, zero, x, bx->get(), y, by->get(), x,
                                                bdx->get(), p, b1->get(), b2->get(), b3->get(), epsilon,
                                                in.u8() % 2 ? b4->get() : nullptr, in.u8() % 2 ? b5->get() : nullptr);
            }
            break;
        }
        case 17: {
            auto x = s.tensor(in), y = s.tensor(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y);
            if (!bx || !by) break;
            if (in.u8() % 2) {
                cudnnLRNCrossChannelForward(s.handle, s.lrn, in.pick<cudnnLRNMode_t>(1), one, x, bx->get(), zero, y,
                                            by->get());
            } else {
                auto bdy = tensor_buffer(y), bdx = tensor_buffer(x);
                cudnnLRNCrossChannelBackward(s.handle, s.lrn, in.pick<cudnnLRNMode_t>(1), one, y, by->get(), y,
                                             bdy->get(), x, bx->get(), zero, x, bdx->get());
            }
            break;
        }
        case 18: {
            auto x = s.tensor(in), y = s.tensor(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y);
            if (!bx || !by) break;
            cudnnTransformTensor(s.handle, one, x, bx->get(), zero, y, by->get());
            break;
        }
        case 19: {
            auto y = s.tensor(in);
            auto by = tensor_buffer(y);
            if (!by) break;
            if (in.u8() % 2) {
                cudnnSetTensor(s.handle, y, by->get(), one);
            } else {
                cudnnScaleTensor(s.handle, y, by->get(), one);
            }
            break;
        }
        case 20:
            cudnnSetOpTensorDescriptor(s.op, in.pick<cudnnOpTensorOp_t>(6), data_type(in),
                                       in.pick<cudnnNanPropagation_t>(2));
            break;
        case 21: {
            auto a_ = s.tensor(in), b_ = s.tensor(in), c_ = s.tensor(in);
            auto ba = tensor_buffer(a_), bb = tensor_buffer(b_), bc = tensor_buffer(c_);
            if (!ba || !bb || !bc) break;
            cudnnOpTensor(s.handle, s.op, one, a_, ba->get(), one, b_, bb->get(), zero, c_, bc->get());
            break;
        }
        case 22:
            cudnnSetReduceTensorDescriptor(s.reduce, in.pick<cudnnReduceTensorOp_t>(9), data_type(in),
                                           in.pick<cudnnNanPropagation_t>(2), in.pick<cudnnReduceTensorIndices_t>(2),
                                           in.pick<cudnnIndicesType_t>(4));
            break;
        case 23: {
            auto a_ = s.tensor(in), c_ = s.tensor(in);
            auto ba = tensor_buffer(a_), bc = tensor_buffer(c_);
            if (!ba || !bc) break;
            size_t workspace_bytes = 0, indices_bytes = 0;
            if (cudnnGetReductionWorkspaceSize(s.handle, s.reduce, a_, c_, &workspace_bytes) != CUDNN_STATUS_SUCCESS ||
                cudnnGetReductionIndicesSize(s.handle, s.reduce, a_, c_, &indices_bytes) != CUDNN_STATUS_SUCCESS ||
                workspace_bytes > kMaxBytes || indices_bytes > kMaxBytes)
                break;
            Buffer workspace(workspace_bytes), indices(indices_bytes);
            cudnnReduceTensor(s.handle, s.reduce, indices.get(), indices_bytes, workspace.get(), workspace_bytes, one,
                              a_, ba->get(), zero, c_, bc->get());
            break;
        }
        case 24: {
            auto x = s.tensor(in), y = s.tensor(in);
            cudnnDeriveBNTensorDescriptor(y, x, in.pick<cudnnBatchNormMode_t>(3));
            break;
        }
        case 25: {
            // Queries on whatever the descriptors hold.
            auto t = s.tensor(in);
            cudnnDataType_t type;
            int nb = 0, dims[9], strides[9];
            cudnnGetTensorNdDescriptor(t, in.u8() % 10, &type, &nb, dims, strides);
            size_t bytes = 0;
            cudnnGetTensorSizeInBytes(t, &bytes);
            cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
            int returned = 0;
            cudnnGetConvolutionForwardAlgorithm_v7(s.handle, s.tensor(in), s.filter(in), s.conv, s.tensor(in),
                                                   in.u8() % (CUDNN_CONVOLUTION_FWD_ALGO_COUNT + 1), &returned, perf);
            break;
        }
        case 26: {
            // Dropout descriptors: set (states of the right size, too small, or none), restore, get.
            const float p = in.real();
            const int how = in.u8() % 4;
            const size_t size = how == 1 ? in.u8() % 64 : 64;
            if (how == 3) {
                cudnnRestoreDropoutDescriptor(s.dropout, s.handle, p, s.states.get(), size, in.u8());
            } else {
                cudnnSetDropoutDescriptor(s.dropout, s.handle, p, how == 2 ? nullptr : s.states.get(), size, in.u8());
            }
            float got_p;
            void *got_states;
            unsigned long long seed;
            cudnnGetDropoutDescriptor(s.dropout, s.handle, &got_p, &got_states, &seed);
            break;
        }
        case 27: {
            // Dropout forward and backward on whatever the descriptors hold, with a reserve space of the
            // size the query gives or of a size from the input.
            auto x = s.tensor(in), y = s.tensor(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y);
            if (!bx || !by) break;
            size_t reserve_bytes = 0;
            if (cudnnDropoutGetReserveSpaceSize(x, &reserve_bytes) != CUDNN_STATUS_SUCCESS || reserve_bytes > kMaxBytes)
                break;
            if (in.u8() % 4 == 0) reserve_bytes = in.u8();
            Buffer reserve(reserve_bytes);
            if (in.u8() % 2) {
                cudnnDropoutForward(s.handle, s.dropout, x, bx->get(), y, in.u8() % 4 ? by->get() : bx->get(),
                                    reserve.get(), reserve_bytes);
            } else {
                cudnnDropoutBackward(s.handle, s.dropout, x, bx->get(), y, by->get(), reserve.get(), reserve_bytes);
            }
            break;
        }
        case 28: {
            // Spatial transformers: set the descriptor, or run one of the four calls with theta and grid
            // buffers of the sizes the last successful set implies (a few bytes before any).
            const int what = in.u8() % 5;
            if (what == 0) {
                const auto sampler = in.pick<cudnnSamplerType_t>(1);
                const cudnnDataType_t type = data_type(in);
                const int nb = in.u8() % 10;
                integers(in, nb, a);
                if (cudnnSetSpatialTransformerNdDescriptor(s.st, sampler, type, nb, a) == CUDNN_STATUS_SUCCESS) {
                    for (int i = 0; i < 4; ++i) s.st_dims[i] = a[i];
                    s.st_scalar = type == CUDNN_DATA_DOUBLE ? 8 : type == CUDNN_DATA_FLOAT ? 4 : 2;
                }
                break;
            }
            // Each dim bounded first, so that the products below cannot overflow (a set may take 2^30).
            if (s.st_dims[0] > 4096 || s.st_dims[2] > 4096 || s.st_dims[3] > 4096) break;
            const int64_t images = s.st_dims[0], positions = int64_t{s.st_dims[2]} * s.st_dims[3];
            if (images * 6 * 8 > int64_t{kMaxBytes} || images * positions * 2 * 8 > int64_t{kMaxBytes}) break;
            Buffer theta(static_cast<size_t>(images * 6) * s.st_scalar),
                grid(static_cast<size_t>(images * positions * 2) * s.st_scalar);
            if (what == 1) {
                cudnnSpatialTfGridGeneratorForward(s.handle, s.st, theta.get(), grid.get());
            } else if (what == 2) {
                cudnnSpatialTfGridGeneratorBackward(s.handle, s.st, grid.get(), theta.get());
            } else {
                auto x = s.tensor(in), y = s.tensor(in);
                auto bx = tensor_buffer(x), by = tensor_buffer(y);
                if (!bx || !by) break;
                if (what == 3) {
                    cudnnSpatialTfSamplerForward(s.handle, s.st, one, x, bx->get(), grid.get(), zero, y, by->get());
                } else {
                    auto bdx = tensor_buffer(x), bdy = tensor_buffer(y);
                    Buffer dgrid(static_cast<size_t>(images * positions * 2) * s.st_scalar);
                    cudnnSpatialTfSamplerBackward(s.handle, s.st, one, x, bx->get(), zero, x, bdx->get(), one, y,
                                                  bdy->get(), grid.get(), zero, dgrid.get());
                }
            }
            break;
        }
        case 29: {
            // Divisive normalisation on the LRN descriptor as it stands, means and dMeans given or not,
            // sometimes in place.
            auto x = s.tensor(in), y = s.tensor(in);
            auto bx = tensor_buffer(x), by = tensor_buffer(y), means = tensor_buffer(x);
            auto temp = tensor_buffer(x), temp2 = tensor_buffer(x);
            if (!bx || !by || !means || !temp || !temp2) break;
            const auto mode = in.pick<cudnnDivNormMode_t>(1);
            const void *m = in.u8() % 2 ? means->get() : nullptr;
            if (in.u8() % 2) {
                cudnnDivisiveNormalizationForward(s.handle, s.lrn, mode, one, x, bx->get(), m, temp->get(),
                                                  temp2->get(), zero, y, in.u8() % 4 ? by->get() : bx->get());
            } else {
                auto dy = tensor_buffer(x), dmeans = tensor_buffer(y);
                cudnnDivisiveNormalizationBackward(s.handle, s.lrn, mode, one, x, bx->get(), m, dy->get(), temp->get(),
                                                   temp2->get(), zero, y, by->get(),
                                                   in.u8() % 2 ? dmeans->get() : nullptr);
            }
            break;
        }
        default: {
            // A descriptor's whole life in one step: create, set, use in a query, destroy.
            cudnnTensorDescriptor_t t = nullptr;
            if (cudnnCreateTensorDescriptor(&t) != CUDNN_STATUS_SUCCESS) break;
            integers(in, 4, a);
            cudnnSetTensor4dDescriptorEx(t, data_type(in), a[0], a[1], a[2], a[3], in.integer(), in.integer(),
                                         in.integer(), in.integer());
            size_t bytes = 0;
            cudnnGetTensorSizeInBytes(t, &bytes);
            cudnnDestroyTensorDescriptor(t);
            break;
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    setenv("LIBREDNN_BACKEND", "host", 1);
    setenv("LIBREDNN_HOST_THREADS", "1", 1);  // one thread: the fuzzer measures one path per input
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Bytes in(data, size);
    State state;
    for (int steps = 0; steps < 64 && !in.empty(); ++steps) step(state, in);
    return 0;
}
