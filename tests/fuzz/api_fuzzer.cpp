// libFuzzer target: the public C API on the host backend, driven by fuzz bytes (issue 16).
//
// The input is a program: each step picks an operation with one byte and reads its arguments from the
// bytes after it. Descriptor setters take arbitrary values (negative, zero, huge, overflowing products,
// wrong enums, wrong types); operations run on the descriptors as they stand, on buffers exactly as
// large as the descriptors claim (skipped when a claim is too large to be quick). The contract: each
// call returns a status (any), and nothing crashes, hangs, leaks, or reads or writes outside its
// buffers (AddressSanitizer and UndefinedBehaviorSanitizer watch). docs/FUZZING.md says how to run it.
#include <cudnn.h>

#include <algorithm>
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
// Workspaces and reserve spaces larger than this are not allocated either.
constexpr size_t kMaxWorkBytes = 4 * kMaxBytes;
// The legacy RNN calls take one tensor descriptor per step: at most this many.
constexpr int kMaxSteps = 8;
// An RNN pass is skipped when its rows (steps times sequences) times its weight bytes pass this: each row
// meets each weight a few times per pass.
constexpr int64_t kMaxRnnWork = int64_t{1} << 22;

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

// How far the buffers of the step running now lie past their allocation's alignment: 0 mostly; 1, 2, 4 or 8
// bytes after a `misalign` step (case 55), for the step after it only. A pointer off its type's alignment
// must be refused with a status, never read (UndefinedBehaviorSanitizer reports a misaligned access; the
// GPU faults).
size_t g_misalignment = 0;

// Memory exactly `bytes` long (so that AddressSanitizer sees one byte past it), `g_misalignment` bytes past
// new[]'s alignment, filled with small values in every type.
class Buffer {
public:
    explicit Buffer(size_t bytes)
        : memory_(new uint8_t[(bytes ? bytes : 1) + g_misalignment]), data_(memory_.get() + g_misalignment) {
        for (size_t i = 0; i < bytes; ++i) data_[i] = static_cast<uint8_t>(i % 7 == 0 ? 0x3c : 0x01);
    }
    void *get() { return data_; }

private:
    std::unique_ptr<uint8_t[]> memory_;
    uint8_t *data_;
};

// ---- Fused ops (cudnnFusedOps*: constant and variant packs, plans, execution) ----

// The variant pack's pointer labels: CUDNN_PTR_XDATA (0) to CUDNN_PTR_BN_DBIAS (23).
constexpr int kFusedPointers = CUDNN_PTR_BN_DBIAS + 1;
constexpr int kNoLabel = -1;

// The constant-pack descriptor that describes each pointer's buffer (CUDNN_PTR_WORKSPACE: the plan's size).
constexpr int kPointerDescriptor[kFusedPointers] = {
    CUDNN_PARAM_XDESC,
    CUDNN_PARAM_BN_EQSCALEBIAS_DESC,
    CUDNN_PARAM_BN_EQSCALEBIAS_DESC,
    CUDNN_PARAM_WDESC,
    CUDNN_PARAM_DWDESC,
    CUDNN_PARAM_YDESC,
    CUDNN_PARAM_DYDESC,
    CUDNN_PARAM_YSTATS_DESC,
    CUDNN_PARAM_YSTATS_DESC,
    kNoLabel,
    CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
    CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
    CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
    CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
    CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
    CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
    CUDNN_PARAM_ZDESC,
    CUDNN_PARAM_BN_Z_EQSCALEBIAS_DESC,
    CUDNN_PARAM_BN_Z_EQSCALEBIAS_DESC,
    CUDNN_PARAM_ACTIVATION_BITMASK_DESC,
    CUDNN_PARAM_DXDESC,
    CUDNN_PARAM_DZDESC,
    CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
    CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
};

// The placeholder that says whether a plan uses each pointer.
constexpr int kPointerPlaceholder[kFusedPointers] = {
    CUDNN_PARAM_XDATA_PLACEHOLDER,           CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER,
    CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER,       CUDNN_PARAM_WDATA_PLACEHOLDER,
    CUDNN_PARAM_DWDATA_PLACEHOLDER,          CUDNN_PARAM_YDATA_PLACEHOLDER,
    CUDNN_PARAM_DYDATA_PLACEHOLDER,          CUDNN_PARAM_YSUM_PLACEHOLDER,
    CUDNN_PARAM_YSQSUM_PLACEHOLDER,          kNoLabel,
    CUDNN_PARAM_BN_SCALE_PLACEHOLDER,        CUDNN_PARAM_BN_BIAS_PLACEHOLDER,
    CUDNN_PARAM_BN_SAVED_MEAN_PLACEHOLDER,   CUDNN_PARAM_BN_SAVED_INVSTD_PLACEHOLDER,
    CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER, CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER,
    CUDNN_PARAM_ZDATA_PLACEHOLDER,           CUDNN_PARAM_BN_Z_EQSCALE_PLACEHOLDER,
    CUDNN_PARAM_BN_Z_EQBIAS_PLACEHOLDER,     CUDNN_PARAM_ACTIVATION_BITMASK_PLACEHOLDER,
    CUDNN_PARAM_DXDATA_PLACEHOLDER,          CUDNN_PARAM_DZDATA_PLACEHOLDER,
    CUDNN_PARAM_BN_DSCALE_PLACEHOLDER,       CUDNN_PARAM_BN_DBIAS_PLACEHOLDER,
};

// What `param` points to for a constant-pack label (cudnn_cnn_train.h). The library cannot see the type
// behind a `const void *`: the harness passes the kind the label names, never another (that would be the
// caller's type confusion, as a float scaling factor for double data is).
enum class FusedParam { tensor, filter, convolution, activation, placeholder, batch_norm_mode };

FusedParam fused_param_kind(int label) {
    switch (label) {
        case CUDNN_PARAM_WDESC:
        case CUDNN_PARAM_DWDESC: return FusedParam::filter;
        case CUDNN_PARAM_CONV_DESC: return FusedParam::convolution;
        case CUDNN_PARAM_ACTIVATION_DESC: return FusedParam::activation;
        case CUDNN_PARAM_BN_MODE: return FusedParam::batch_norm_mode;
        default: break;
    }
    for (int descriptor : kPointerDescriptor)
        if (label == descriptor) return FusedParam::tensor;
    return FusedParam::placeholder;  // and labels that are no label: the call must refuse before reading
}

// A tensor's or filter's description, read back from a constant pack when a plan is made.
struct FusedShape {
    int64_t bytes = -1;  // -1: no descriptor, or one claiming more than the harness allocates
    int64_t elements = 0;
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    int nb = 0, dims[8] = {}, strides[8] = {};
};

// A plan slot, with what its last successful cudnnMakeFusedOpsPlan was made from: the plan keeps its own
// copy of the constant pack's descriptors, so the buffers of an execution are sized from this record, not
// from the pack as it stands later.
struct FusedPlan {
    cudnnFusedOpsPlan_t plan = nullptr;
    cudnnFusedOps_t ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
    bool made = false;
    size_t workspace = 0;
    FusedShape shapes[kFusedPointers];
    bool used[kFusedPointers] = {};  // placeholder not CUDNN_PTR_NULL
    int64_t conv_products = 0;       // (x + y elements) times filter elements, for the convolution fusions
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
    cudnnTensorTransformDescriptor_t transform = nullptr;
    // What the last successful cudnnSetSpatialTransformerNdDescriptor set: the sizes of theta and the grid.
    int st_dims[4] = {0, 0, 0, 0};
    size_t st_scalar = 0;  // bytes a scalar of its data type; 0 before a successful set
    cudnnRNNDescriptor_t rnn = nullptr;
    cudnnRNNDataDescriptor_t rnn_data[2] = {};  // x and y of the v8 and Ex calls
    // The legacy calls' step descriptors: x[t] and y[t] (dy and dx too).
    cudnnTensorDescriptor_t steps[2][kMaxSteps] = {};
    cudnnCTCLossDescriptor_t ctc = nullptr;
    // Fused ops: two constant packs, two variant packs and two plans, each for the fusion it was created for
    // (NULL before a create step, or after a create the library refused).
    cudnnFusedOpsConstParamPack_t const_packs[2] = {};
    cudnnFusedOps_t const_ops[2] = {};
    cudnnFusedOpsVariantParamPack_t variant_packs[2] = {};
    FusedPlan plans[2];
    // Descriptors never set (a constant pack must refuse them) and the ones its getter copies into.
    cudnnTensorDescriptor_t unset_tensor = nullptr, fused_tensor = nullptr;
    cudnnFilterDescriptor_t unset_filter = nullptr, fused_filter = nullptr;
    cudnnConvolutionDescriptor_t unset_conv = nullptr, fused_conv = nullptr;
    cudnnActivationDescriptor_t unset_act = nullptr, fused_act = nullptr;

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
        cudnnCreateTensorTransformDescriptor(&transform);
        cudnnCreateRNNDescriptor(&rnn);
        for (auto &d : rnn_data) cudnnCreateRNNDataDescriptor(&d);
        for (auto &array : steps)
            for (auto &t : array) cudnnCreateTensorDescriptor(&t);
        cudnnCreateCTCLossDescriptor(&ctc);
        for (auto *t : {&unset_tensor, &fused_tensor}) cudnnCreateTensorDescriptor(t);
        for (auto *f : {&unset_filter, &fused_filter}) cudnnCreateFilterDescriptor(f);
        for (auto *c : {&unset_conv, &fused_conv}) cudnnCreateConvolutionDescriptor(c);
        for (auto *a : {&unset_act, &fused_act}) cudnnCreateActivationDescriptor(a);
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
        cudnnDestroyTensorTransformDescriptor(transform);
        cudnnDestroyRNNDescriptor(rnn);
        for (auto &d : rnn_data) cudnnDestroyRNNDataDescriptor(d);
        for (auto &array : steps)
            for (auto &t : array) cudnnDestroyTensorDescriptor(t);
        cudnnDestroyCTCLossDescriptor(ctc);
        for (auto pack : const_packs)
            if (pack) cudnnDestroyFusedOpsConstParamPack(pack);
        for (auto pack : variant_packs)
            if (pack) cudnnDestroyFusedOpsVariantParamPack(pack);
        for (auto &p : plans)
            if (p.plan) cudnnDestroyFusedOpsPlan(p.plan);
        for (auto t : {unset_tensor, fused_tensor}) cudnnDestroyTensorDescriptor(t);
        for (auto f : {unset_filter, fused_filter}) cudnnDestroyFilterDescriptor(f);
        for (auto c : {unset_conv, fused_conv}) cudnnDestroyConvolutionDescriptor(c);
        for (auto a : {unset_act, fused_act}) cudnnDestroyActivationDescriptor(a);
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

// ---- RNN (v8 and legacy) and CTC loss ----

// value - 1, or INT_MIN for INT_MIN (maxSeqLength and batch sizes may be any int).
int one_less(int value) { return value == INT_MIN ? value : value - 1; }

size_t rnn_element_bytes(cudnnDataType_t type) {
    return type == CUDNN_DATA_DOUBLE ? 8 : type == CUDNN_DATA_FLOAT ? 4 : type == CUDNN_DATA_HALF ? 2 : 0;
}

// What an RNN data descriptor holds, read back through its getter.
struct RnnData {
    std::vector<int32_t> lengths;  // one per sequence: the devSeqLengths of the v8 calls
    int64_t rows = 0;              // steps times sequences the layout stores
    std::unique_ptr<Buffer> buffer;
};

// A buffer exactly as large as the data descriptor's layout stores (the packed layout: the sum of the
// lengths), or nothing when the descriptor is unset or claims too much.
RnnData rnn_data_buffer(cudnnRNNDataDescriptor_t d) {
    RnnData data;
    cudnnDataType_t type;
    cudnnRNNDataLayout_t layout;
    int max_seq = 0, batch = 0, vector = 0, none = 0;
    if (cudnnGetRNNDataDescriptor(d, &type, &layout, &max_seq, &batch, &vector, 0, &none, nullptr) !=
            CUDNN_STATUS_SUCCESS ||
        max_seq > kMaxElements || batch > kMaxElements || int64_t{max_seq} * batch > kMaxElements)
        return data;
    std::vector<int> lengths(static_cast<size_t>(batch));
    cudnnGetRNNDataDescriptor(d, &type, &layout, &max_seq, &batch, &vector, batch, lengths.data(), nullptr);
    data.lengths.assign(lengths.begin(), lengths.end());
    data.rows = int64_t{max_seq} * batch;
    if (layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED) {
        data.rows = 0;
        for (int length : lengths) data.rows += length;
    }
    const int64_t bytes = data.rows * vector * static_cast<int64_t>(rnn_element_bytes(type));
    if (bytes > int64_t{kMaxBytes} || data.rows * vector > kMaxElements) return data;
    data.buffer = std::make_unique<Buffer>(static_cast<size_t>(bytes));
    return data;
}

// The legacy calls' x (or y): the steps' tensors one after the other, as large as their descriptors
// claim together; `rows` is the sum of their first dims.
std::unique_ptr<Buffer> steps_buffer(const cudnnTensorDescriptor_t *steps, int count, int64_t *rows) {
    size_t total = 0;
    int64_t elements = 0;
    *rows = 0;
    for (int t = 0; t < count; ++t) {
        size_t bytes = 0;
        cudnnDataType_t type;
        int nb = 0, dims[8], strides[8];
        if (cudnnGetTensorSizeInBytes(steps[t], &bytes) != CUDNN_STATUS_SUCCESS ||
            cudnnGetTensorNdDescriptor(steps[t], 8, &type, &nb, dims, strides) != CUDNN_STATUS_SUCCESS)
            return nullptr;
        total += bytes;
        elements += element_count(nb, dims);
        *rows += dims[0];
        if (total > kMaxBytes || elements > kMaxElements) return nullptr;
    }
    return std::make_unique<Buffer>(total);
}

// The legacy calls' seqLength: 1 to kMaxSteps mostly (the descriptor arrays hold that many), sometimes
// one the calls must refuse.
int sequence_length(Bytes &in) {
    const uint8_t tag = in.u8();
    static const int kInvalid[] = {0, -1, INT_MIN};
    return tag < 240 ? 1 + tag % kMaxSteps : kInvalid[tag % 3];
}

// A weight-params call answered an address: it must lie, with the entry its descriptor describes, in
// the weights the caller passed. Anything else is a finding.
void check_inside(const void *address, size_t entry_bytes, const void *weights, size_t weight_bytes) {
    if (address == nullptr) return;
    const auto *p = static_cast<const uint8_t *>(address), *base = static_cast<const uint8_t *>(weights);
    if (p < base || p + entry_bytes > base + weight_bytes) std::abort();
}

void rnn_set(State &s, Bytes &in) {
    switch (in.u8() % 6) {
        case 0: {
            const auto algo = in.pick<cudnnRNNAlgo_t>(5);
            const auto cell = in.pick<cudnnRNNMode_t>(4);
            const auto bias = in.pick<cudnnRNNBiasMode_t>(4);
            const auto dir = in.pick<cudnnDirectionMode_t>(2);
            const auto input = in.pick<cudnnRNNInputMode_t>(2);
            const cudnnDataType_t type = data_type(in), math_prec = data_type(in);
            const auto math = in.pick<cudnnMathType_t>(4);
            int sizes[9];
            integers(in, 4, sizes);
            const cudnnDropoutDescriptor_t dropout = in.u8() % 2 ? s.dropout : nullptr;
            const uint8_t flags = in.u8();
            cudnnSetRNNDescriptor_v8(s.rnn, algo, cell, bias, dir, input, type, math_prec, math, sizes[0], sizes[1],
                                     sizes[2], sizes[3], dropout, flags < 200 ? flags % 2 : flags);
            break;
        }
        case 1: {
            int sizes[9];
            integers(in, 2, sizes);
            const cudnnDropoutDescriptor_t dropout = in.u8() % 2 ? s.dropout : nullptr;
            const auto input = in.pick<cudnnRNNInputMode_t>(2);
            const auto dir = in.pick<cudnnDirectionMode_t>(2);
            const auto cell = in.pick<cudnnRNNMode_t>(4);
            const auto algo = in.pick<cudnnRNNAlgo_t>(5);
            cudnnSetRNNDescriptor_v6(s.handle, s.rnn, sizes[0], sizes[1], dropout, input, dir, cell, algo,
                                     data_type(in));
            break;
        }
        case 2: cudnnSetRNNBiasMode(s.rnn, in.pick<cudnnRNNBiasMode_t>(4)); break;
        case 3: {
            const int rec = in.integer(), out = in.integer();
            cudnnSetRNNProjectionLayers(s.handle, s.rnn, rec, out);
            break;
        }
        case 4:
            cudnnSetRNNMatrixMathType(s.rnn, in.pick<cudnnMathType_t>(4));
            cudnnSetRNNPaddingMode(s.rnn, in.u8() % 3);
            break;
        default: {
            const auto mode = in.pick<cudnnRNNClipMode_t>(2);
            const auto nan = in.pick<cudnnNanPropagation_t>(2);
            const double left = in.real(), right = in.real();
            cudnnRNNSetClip_v8(s.rnn, mode, nan, left, right);
            break;
        }
    }
}

// An RNN data descriptor with arbitrary sizes, a length array of batchSize entries (NULL when the batch is
// too large to hold one) and a padding fill or none.
void rnn_data_set(State &s, Bytes &in) {
    const cudnnRNNDataDescriptor_t d = s.rnn_data[in.u8() % 2];
    const cudnnDataType_t type = data_type(in);
    const auto layout = in.pick<cudnnRNNDataLayout_t>(3);
    const int max_seq = in.integer(), batch = in.integer(), vector = in.integer();
    std::vector<int> lengths;
    if (batch > 0 && batch <= 256) {
        // Mostly maxSeqLength or one shorter than the last, so that the packed layout's order holds.
        int length = max_seq;
        for (int i = 0; i < batch; ++i) {
            const uint8_t tag = in.u8();
            length = tag < 128 ? length : tag < 224 ? one_less(length) : in.integer();
            lengths.push_back(length);
        }
    }
    const double fill = 0.25;
    cudnnSetRNNDataDescriptor(d, type, layout, max_seq, batch, vector, lengths.empty() ? nullptr : lengths.data(),
                              in.u8() % 2 ? const_cast<double *>(&fill) : nullptr);
}

// Sizes and weight addresses of the v8 API; the addresses must lie in the weight space.
void rnn_queries(State &s, Bytes &in) {
    size_t weight_bytes = 0, work = 0, reserve = 0;
    cudnnGetRNNTempSpaceSizes(s.handle, s.rnn, in.pick<cudnnForwardMode_t>(2), s.rnn_data[in.u8() % 2], &work,
                              &reserve);
    if (cudnnGetRNNWeightSpaceSize(s.handle, s.rnn, &weight_bytes) != CUDNN_STATUS_SUCCESS || weight_bytes > kMaxBytes)
        return;
    Buffer weights(weight_bytes);
    const int pseudo_layer = in.integer(), lin_layer_id = in.integer();
    cudnnTensorDescriptor_t m = s.tensor(in), b = s.tensor(in);
    void *m_address = nullptr, *b_address = nullptr;
    if (cudnnGetRNNWeightParams(s.handle, s.rnn, pseudo_layer, weight_bytes, weights.get(), lin_layer_id, m, &m_address,
                                b, &b_address) != CUDNN_STATUS_SUCCESS)
        return;
    size_t m_bytes = 0, b_bytes = 0;
    if (m_address != nullptr && cudnnGetTensorSizeInBytes(m, &m_bytes) != CUDNN_STATUS_SUCCESS) std::abort();
    if (b_address != nullptr && cudnnGetTensorSizeInBytes(b, &b_bytes) != CUDNN_STATUS_SUCCESS) std::abort();
    check_inside(m_address, m_bytes, weights.get(), weight_bytes);
    check_inside(b_address, b_bytes, weights.get(), weight_bytes);
}

// The v8 passes: inference or training forward; or training forward, backward data and backward weights
// on its reserve space. Every buffer as large as the queries say; hx, cx, hy, cy (and their gradients)
// given or NULL.
void rnn_v8(State &s, Bytes &in) {
    const bool backward = in.u8() % 2;
    const auto mode = backward ? CUDNN_FWD_MODE_TRAINING : in.pick<cudnnForwardMode_t>(2);
    RnnData x = rnn_data_buffer(s.rnn_data[0]), y = rnn_data_buffer(s.rnn_data[1]);
    if (!x.buffer || !y.buffer) return;
    size_t weight_bytes = 0, work = 0, reserve = 0;
    if (cudnnGetRNNWeightSpaceSize(s.handle, s.rnn, &weight_bytes) != CUDNN_STATUS_SUCCESS ||
        weight_bytes > kMaxBytes || std::max(x.rows, y.rows) * static_cast<int64_t>(weight_bytes) > kMaxRnnWork)
        return;
    if (cudnnGetRNNTempSpaceSizes(s.handle, s.rnn, mode, s.rnn_data[0], &work, &reserve) != CUDNN_STATUS_SUCCESS ||
        work > kMaxWorkBytes || reserve > kMaxWorkBytes)
        return;
    Buffer weights(weight_bytes), workspace(work), reserve_space(reserve);
    const cudnnTensorDescriptor_t h = s.tensor(in), c = s.tensor(in);
    const uint8_t given = in.u8();  // which of the states are passed
    std::unique_ptr<Buffer> states[8];
    for (int i = 0; i < 8; ++i) states[i] = (given >> i) & 1 ? tensor_buffer(i % 2 ? c : h) : nullptr;
    auto state = [&](int i) { return states[i] ? states[i]->get() : nullptr; };
    // Sometimes a copy of the lengths, as cuDNN 8.9 asks (devSeqLengths), sometimes none.
    const int32_t *lengths = in.u8() % 8 ? x.lengths.data() : nullptr;
    if (cudnnRNNForward(s.handle, s.rnn, mode, lengths, s.rnn_data[0], x.buffer->get(), s.rnn_data[1], y.buffer->get(),
                        h, state(0), state(2), c, state(1), state(3), weight_bytes, weights.get(), work,
                        workspace.get(), reserve, reserve_space.get()) != CUDNN_STATUS_SUCCESS ||
        !backward)
        return;
    RnnData dx = rnn_data_buffer(s.rnn_data[0]), dy = rnn_data_buffer(s.rnn_data[1]);
    if (cudnnRNNBackwardData_v8(s.handle, s.rnn, lengths, s.rnn_data[1], y.buffer->get(), dy.buffer->get(),
                                s.rnn_data[0], dx.buffer->get(), h, state(0), state(4), state(6), c, state(1), state(5),
                                state(7), weight_bytes, weights.get(), work, workspace.get(), reserve,
                                reserve_space.get()) != CUDNN_STATUS_SUCCESS)
        return;
    Buffer dweights(weight_bytes);
    cudnnRNNBackwardWeights_v8(s.handle, s.rnn, in.pick<cudnnWgradMode_t>(2), lengths, s.rnn_data[0], x.buffer->get(),
                               h, state(0), s.rnn_data[1], y.buffer->get(), weight_bytes, dweights.get(), work,
                               workspace.get(), reserve, reserve_space.get());
}

// The legacy step descriptors: `count` 3-d {batch_t, width, 1} tensors (sometimes 2-d or 4-d), the batch
// mostly kept or shrinking by one, sometimes arbitrary.
void rnn_steps_set(State &s, Bytes &in) {
    cudnnTensorDescriptor_t *steps = s.steps[in.u8() % 2];
    const int count = 1 + in.u8() % kMaxSteps;
    const cudnnDataType_t type = data_type(in);
    const int width = in.integer();
    int batch = in.integer();
    for (int t = 0; t < count; ++t) {
        const uint8_t tag = in.u8();
        batch = tag < 128 ? batch : tag < 224 ? one_less(batch) : in.integer();
        const int nb = tag % 16 == 15 ? 2 + in.u8() % 3 : 3;
        const int dims[4] = {batch, width, 1, 1}, strides[4] = {width, 1, 1, 1};
        cudnnSetTensorNdDescriptor(steps[t], type, nb, dims, strides);
    }
}

// The legacy sizes and LinLayer addresses; the addresses must lie in w.
void rnn_legacy_queries(State &s, Bytes &in) {
    const int length = sequence_length(in);
    size_t bytes = 0;
    cudnnGetRNNWorkspaceSize(s.handle, s.rnn, length, s.steps[0], &bytes);
    cudnnGetRNNTrainingReserveSize(s.handle, s.rnn, length, s.steps[0], &bytes);
    cudnnGetRNNParamsSize(s.handle, s.rnn, s.steps[0][0], &bytes, data_type(in));
    const cudnnFilterDescriptor_t w = s.filter(in);
    auto bw = filter_buffer(w);
    if (!bw) return;
    size_t w_bytes = 0;
    cudnnGetFilterSizeInBytes(w, &w_bytes);
    cudnnFilterDescriptor_t entry = nullptr;
    if (cudnnCreateFilterDescriptor(&entry) != CUDNN_STATUS_SUCCESS) return;
    const int pseudo_layer = in.integer(), lin_layer_id = in.integer();
    void *address = nullptr;
    const cudnnStatus_t status = in.u8() % 2
                                     ? cudnnGetRNNLinLayerMatrixParams(s.handle, s.rnn, pseudo_layer, s.steps[0][0], w,
                                                                       bw->get(), lin_layer_id, entry, &address)
                                     : cudnnGetRNNLinLayerBiasParams(s.handle, s.rnn, pseudo_layer, s.steps[0][0], w,
                                                                     bw->get(), lin_layer_id, entry, &address);
    if (status == CUDNN_STATUS_SUCCESS && address != nullptr) {
        size_t entry_bytes = 0;
        if (cudnnGetFilterSizeInBytes(entry, &entry_bytes) != CUDNN_STATUS_SUCCESS) std::abort();
        check_inside(address, entry_bytes, bw->get(), w_bytes);
    }
    cudnnDestroyFilterDescriptor(entry);
}

// The legacy passes over the step descriptors: inference, or training forward, backward data and
// backward weights on its reserve space.
void rnn_legacy(State &s, Bytes &in) {
    const int length = sequence_length(in);
    const bool training = in.u8() % 2;
    const int steps = length > 0 ? length : 1;
    int64_t x_rows = 0, y_rows = 0;
    auto x = steps_buffer(s.steps[0], steps, &x_rows), y = steps_buffer(s.steps[1], steps, &y_rows);
    const cudnnFilterDescriptor_t w = s.filter(in);
    auto bw = filter_buffer(w);
    if (!x || !y || !bw) return;
    size_t w_bytes = 0, work = 0, reserve = 0;
    cudnnGetFilterSizeInBytes(w, &w_bytes);
    if (std::max(x_rows, y_rows) * static_cast<int64_t>(w_bytes) > kMaxRnnWork) return;
    if (cudnnGetRNNWorkspaceSize(s.handle, s.rnn, length, s.steps[0], &work) != CUDNN_STATUS_SUCCESS ||
        work > kMaxWorkBytes)
        return;
    if (training &&
        (cudnnGetRNNTrainingReserveSize(s.handle, s.rnn, length, s.steps[0], &reserve) != CUDNN_STATUS_SUCCESS ||
         reserve > kMaxWorkBytes))
        return;
    Buffer workspace(work), reserve_space(reserve);
    const cudnnTensorDescriptor_t h = s.tensor(in), c = s.tensor(in);
    const uint8_t given = in.u8();
    std::unique_ptr<Buffer> states[8];
    for (int i = 0; i < 8; ++i) states[i] = (given >> i) & 1 ? tensor_buffer(i % 2 ? c : h) : nullptr;
    auto state = [&](int i) { return states[i] ? states[i]->get() : nullptr; };
    if (!training) {
        cudnnRNNForwardInference(s.handle, s.rnn, length, s.steps[0], x->get(), h, state(0), c, state(1), w, bw->get(),
                                 s.steps[1], y->get(), h, state(2), c, state(3), workspace.get(), work);
        return;
    }
    if (cudnnRNNForwardTraining(s.handle, s.rnn, length, s.steps[0], x->get(), h, state(0), c, state(1), w, bw->get(),
                                s.steps[1], y->get(), h, state(2), c, state(3), workspace.get(), work,
                                reserve_space.get(), reserve) != CUDNN_STATUS_SUCCESS)
        return;
    auto dx = steps_buffer(s.steps[0], steps, &x_rows), dy = steps_buffer(s.steps[1], steps, &y_rows);
    if (cudnnRNNBackwardData(s.handle, s.rnn, length, s.steps[1], y->get(), s.steps[1], dy->get(), h, state(4), c,
                             state(5), w, bw->get(), h, state(0), c, state(1), s.steps[0], dx->get(), h, state(6), c,
                             state(7), workspace.get(), work, reserve_space.get(), reserve) != CUDNN_STATUS_SUCCESS)
        return;
    auto dw = filter_buffer(w);
    cudnnRNNBackwardWeights(s.handle, s.rnn, length, s.steps[0], x->get(), h, state(0), s.steps[1], y->get(),
                            workspace.get(), work, w, dw->get(), reserve_space.get(), reserve);
}

// The legacy Ex passes over the RNN data descriptors, the reserved attention arguments NULL or (rarely)
// not.
void rnn_legacy_ex(State &s, Bytes &in) {
    const bool training = in.u8() % 2;
    RnnData x = rnn_data_buffer(s.rnn_data[0]), y = rnn_data_buffer(s.rnn_data[1]);
    const cudnnFilterDescriptor_t w = s.filter(in);
    auto bw = filter_buffer(w);
    if (!x.buffer || !y.buffer || !bw) return;
    size_t w_bytes = 0, work = 0, reserve = 0;
    cudnnGetFilterSizeInBytes(w, &w_bytes);
    if (std::max(x.rows, y.rows) * static_cast<int64_t>(w_bytes) > kMaxRnnWork) return;
    // The v8 query's sizes; where it refuses (a descriptor set by the v6 setter has no inputSize of its
    // own), the largest the harness allocates, which the calls must take as large enough or refuse.
    if (cudnnGetRNNTempSpaceSizes(s.handle, s.rnn, training ? CUDNN_FWD_MODE_TRAINING : CUDNN_FWD_MODE_INFERENCE,
                                  s.rnn_data[0], &work, &reserve) != CUDNN_STATUS_SUCCESS)
        work = reserve = kMaxWorkBytes;
    if (work > kMaxWorkBytes || reserve > kMaxWorkBytes) return;
    Buffer workspace(work), reserve_space(reserve);
    const cudnnTensorDescriptor_t h = s.tensor(in), c = s.tensor(in);
    const uint8_t given = in.u8();
    std::unique_ptr<Buffer> states[8];
    for (int i = 0; i < 8; ++i) states[i] = (given >> i) & 1 ? tensor_buffer(i % 2 ? c : h) : nullptr;
    auto state = [&](int i) { return states[i] ? states[i]->get() : nullptr; };
    Buffer reserved(16);
    void *attention = in.u8() % 16 == 0 ? reserved.get() : nullptr;
    const cudnnRNNDataDescriptor_t xd = s.rnn_data[0], yd = s.rnn_data[1];
    if (!training) {
        cudnnRNNForwardInferenceEx(s.handle, s.rnn, xd, x.buffer->get(), h, state(0), c, state(1), w, bw->get(), yd,
                                   y.buffer->get(), h, state(2), c, state(3), nullptr, attention, nullptr, nullptr,
                                   nullptr, nullptr, nullptr, nullptr, workspace.get(), work);
        return;
    }
    if (cudnnRNNForwardTrainingEx(s.handle, s.rnn, xd, x.buffer->get(), h, state(0), c, state(1), w, bw->get(), yd,
                                  y.buffer->get(), h, state(2), c, state(3), nullptr, attention, nullptr, nullptr,
                                  nullptr, nullptr, nullptr, nullptr, workspace.get(), work, reserve_space.get(),
                                  reserve) != CUDNN_STATUS_SUCCESS)
        return;
    RnnData dx = rnn_data_buffer(xd), dy = rnn_data_buffer(yd);
    if (cudnnRNNBackwardDataEx(s.handle, s.rnn, yd, y.buffer->get(), yd, dy.buffer->get(), nullptr, nullptr, h,
                               state(4), c, state(5), w, bw->get(), h, state(0), c, state(1), xd, dx.buffer->get(), h,
                               state(6), c, state(7), nullptr, nullptr, workspace.get(), work, reserve_space.get(),
                               reserve) != CUDNN_STATUS_SUCCESS)
        return;
    auto dw = filter_buffer(w);
    cudnnRNNBackwardWeightsEx(s.handle, s.rnn, xd, x.buffer->get(), h, state(0), yd, y.buffer->get(), workspace.get(),
                              work, w, dw->get(), reserve_space.get(), reserve);
}

void ctc_set(State &s, Bytes &in) {
    const cudnnDataType_t type = data_type(in);
    switch (in.u8() % 4) {
        case 0: cudnnSetCTCLossDescriptor(s.ctc, type); break;
        case 1: {
            const auto norm = in.pick<cudnnLossNormalizationMode_t>(2);
            cudnnSetCTCLossDescriptorEx(s.ctc, type, norm, in.pick<cudnnNanPropagation_t>(2));
            break;
        }
        case 2: {
            const auto norm = in.pick<cudnnLossNormalizationMode_t>(2);
            const auto grad = in.pick<cudnnNanPropagation_t>(2);
            cudnnSetCTCLossDescriptor_v8(s.ctc, type, norm, grad, in.integer());
            break;
        }
        default: {
            cudnnDataType_t got_type;
            cudnnLossNormalizationMode_t norm;
            cudnnNanPropagation_t grad;
            int max_label = 0;
            cudnnGetCTCLossDescriptor_v8(s.ctc, &got_type, &norm, &grad, &max_label);
            break;
        }
    }
}

// CTC loss (the host-array call or _v8) with label and input lengths from the input, one per sequence
// of probsDesc, and the labels those lengths (each clamped to 0 ... 256, the most the calls take) add
// up to; gradients given or NULL; the workspace the query gives.
void ctc_loss(State &s, Bytes &in) {
    const cudnnTensorDescriptor_t probs = s.tensor(in), gradients = s.tensor(in);
    auto bp = tensor_buffer(probs), bg = tensor_buffer(gradients);
    if (!bp) return;
    cudnnDataType_t type;
    int nb = 0, dims[8], strides[8];
    cudnnGetTensorNdDescriptor(probs, 8, &type, &nb, dims, strides);
    const int sequences = nb == 3 ? dims[1] : 1;
    if (sequences > 256) return;  // the calls read one length of each array per sequence
    std::vector<int> label_lengths(static_cast<size_t>(sequences)), input_lengths(label_lengths.size());
    size_t label_count = 0;
    for (int n = 0; n < sequences; ++n) {
        label_lengths[n] = in.integer();
        input_lengths[n] = in.u8() % 4 ? dims[0] : in.integer();
        label_count += static_cast<size_t>(std::min(std::max(label_lengths[n], 0), 256));
    }
    // Exactly as many labels as the lengths add up to (one when none, so that the array is not NULL).
    std::unique_ptr<int[]> labels(new int[label_count ? label_count : 1]());
    const int classes = nb == 3 ? dims[2] : 2;
    for (size_t i = 0; i < label_count; ++i) {
        const uint8_t tag = in.u8();
        labels[i] = tag < 240 ? 1 + tag % std::max(classes - 1, 1) : in.integer();
    }
    Buffer costs(static_cast<size_t>(sequences) * sizeof(float));
    const auto algo = in.pick<cudnnCTCLossAlgo_t>(2);
    const bool v8 = in.u8() % 2;
    void *g = bg && in.u8() % 4 ? bg->get() : nullptr;
    size_t work = 0;
    const cudnnStatus_t status =
        v8 ? cudnnGetCTCLossWorkspaceSize_v8(s.handle, algo, s.ctc, probs, gradients, &work)
           : cudnnGetCTCLossWorkspaceSize(s.handle, probs, gradients, labels.get(), label_lengths.data(),
                                          input_lengths.data(), algo, s.ctc, &work);
    if (status != CUDNN_STATUS_SUCCESS || work > kMaxWorkBytes) return;
    Buffer workspace(work);
    if (v8) {
        cudnnCTCLoss_v8(s.handle, algo, s.ctc, probs, bp->get(), labels.get(), label_lengths.data(),
                        input_lengths.data(), costs.get(), gradients, g, work, workspace.get());
    } else {
        cudnnCTCLoss(s.handle, probs, bp->get(), labels.get(), label_lengths.data(), input_lengths.data(), costs.get(),
                     gradients, g, algo, s.ctc, workspace.get(), work);
    }
}

// The fused-ops calls answer SUCCESS, BAD_PARAM or NOT_SUPPORTED (docs/FUSED_OPS.md); any other status is a
// finding.
cudnnStatus_t documented(cudnnStatus_t status) {
    if (status != CUDNN_STATUS_SUCCESS && status != CUDNN_STATUS_BAD_PARAM && status != CUDNN_STATUS_NOT_SUPPORTED)
        std::abort();
    return status;
}

bool is_floating(cudnnDataType_t type) {
    return type == CUDNN_DATA_FLOAT || type == CUDNN_DATA_DOUBLE || type == CUDNN_DATA_HALF ||
           type == CUDNN_DATA_BFLOAT16;
}

size_t floating_bytes(cudnnDataType_t type) { return type == CUDNN_DATA_DOUBLE ? 8 : type == CUDNN_DATA_FLOAT ? 4 : 2; }

// Small exact values (multiples of 0.5 in [-2, 2]) in a floating type, element by element from `seed`, so
// that the sums the harness checks are exact; other types are left as they are (zeros).
void fill_values(uint8_t *data, size_t bytes, cudnnDataType_t type, uint8_t seed) {
    if (!is_floating(type)) return;
    static const uint16_t kHalf[] = {0xc000, 0xbe00, 0xbc00, 0xb800, 0x0000, 0x3800, 0x3c00, 0x3e00, 0x4000};
    const size_t size = floating_bytes(type);
    for (size_t i = 0; i + size <= bytes; i += size) {
        const int k = static_cast<int>((i / size * 5 + seed) % 9);
        const double value = 0.5 * (k - 4);
        if (type == CUDNN_DATA_DOUBLE) {
            std::memcpy(data + i, &value, 8);
        } else if (type == CUDNN_DATA_FLOAT) {
            const float f = static_cast<float>(value);
            std::memcpy(data + i, &f, 4);
        } else if (type == CUDNN_DATA_HALF) {
            std::memcpy(data + i, &kHalf[k], 2);
        } else {
            const float f = static_cast<float>(value);
            uint32_t bits;
            std::memcpy(&bits, &f, 4);
            const uint16_t top = static_cast<uint16_t>(bits >> 16);  // exact for these values
            std::memcpy(data + i, &top, 2);
        }
    }
}

double load_floating(const uint8_t *data, cudnnDataType_t type, int64_t element) {
    if (type == CUDNN_DATA_DOUBLE) {
        double v;
        std::memcpy(&v, data + element * 8, 8);
        return v;
    }
    float v;
    std::memcpy(&v, data + element * 4, 4);
    return v;
}

// Reads a tensor or filter label of `pack` back through the getter; bytes stay -1 when the pack holds none
// there or the descriptor claims more than the harness allocates.
FusedShape read_shape(State &s, cudnnFusedOpsConstParamPack_t pack, int label) {
    FusedShape shape;
    const auto l = static_cast<cudnnFusedOpsConstParamLabel_t>(label);
    int is_null = 1;
    size_t bytes = 0;
    if (fused_param_kind(label) == FusedParam::filter) {
        cudnnTensorFormat_t format;
        if (documented(cudnnGetFusedOpsConstParamPackAttribute(pack, l, s.fused_filter, &is_null)) !=
                CUDNN_STATUS_SUCCESS ||
            is_null || cudnnGetFilterSizeInBytes(s.fused_filter, &bytes) != CUDNN_STATUS_SUCCESS ||
            cudnnGetFilterNdDescriptor(s.fused_filter, 8, &shape.type, &format, &shape.nb, shape.dims) !=
                CUDNN_STATUS_SUCCESS)
            return shape;
    } else {
        if (documented(cudnnGetFusedOpsConstParamPackAttribute(pack, l, s.fused_tensor, &is_null)) !=
                CUDNN_STATUS_SUCCESS ||
            is_null || cudnnGetTensorSizeInBytes(s.fused_tensor, &bytes) != CUDNN_STATUS_SUCCESS ||
            cudnnGetTensorNdDescriptor(s.fused_tensor, 8, &shape.type, &shape.nb, shape.dims, shape.strides) !=
                CUDNN_STATUS_SUCCESS)
            return shape;
    }
    shape.elements = element_count(shape.nb, shape.dims);
    if (bytes <= kMaxBytes && shape.elements <= kMaxElements) shape.bytes = static_cast<int64_t>(bytes);
    return shape;
}

bool convolves(cudnnFusedOps_t ops) {
    return ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS || ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_WGRAD;
}

// Fills `p` from the constant pack a cudnnMakeFusedOpsPlan has just succeeded on.
void record_plan(State &s, cudnnFusedOpsConstParamPack_t pack, size_t workspace, FusedPlan &p) {
    p.made = true;
    p.workspace = workspace;
    for (int l = 0; l < kFusedPointers; ++l) {
        p.shapes[l] = FusedShape();
        p.used[l] = false;
        if (kPointerDescriptor[l] == kNoLabel) continue;
        p.shapes[l] = read_shape(s, pack, kPointerDescriptor[l]);
        cudnnFusedOpsPointerPlaceHolder_t placeholder = CUDNN_PTR_NULL;
        int is_null = 0;
        documented(cudnnGetFusedOpsConstParamPackAttribute(
            pack, static_cast<cudnnFusedOpsConstParamLabel_t>(kPointerPlaceholder[l]), &placeholder, &is_null));
        p.used[l] = placeholder != CUDNN_PTR_NULL;
    }
    // Each output of x or y meets each weight once or so: the bound on the convolution's work. Each count is
    // at most kMaxElements + 1, so the product cannot overflow.
    const bool forward = p.ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
    const FusedShape &x = p.shapes[CUDNN_PTR_XDATA], &w = p.shapes[forward ? CUDNN_PTR_WDATA : CUDNN_PTR_DWDATA],
                     &y = p.shapes[forward ? CUDNN_PTR_YDATA : CUDNN_PTR_DYDATA];
    p.conv_products = (x.elements + y.elements) * w.elements;
}

// Creates (after destroying what the slot held) a constant pack, a variant pack or a plan for any
// cudnnFusedOps_t, the reserved and invalid ones too; a refused create leaves the slot NULL. Rarely the
// output pointer is NULL.
void fused_create(State &s, Bytes &in) {
    const uint8_t what = in.u8();
    const int slot = in.u8() % 2;
    const auto ops = in.pick<cudnnFusedOps_t>(7);
    const bool null_out = what >= 240;
    switch (what % 3) {
        case 0:
            if (s.const_packs[slot]) cudnnDestroyFusedOpsConstParamPack(s.const_packs[slot]);
            s.const_packs[slot] = nullptr;
            s.const_ops[slot] = ops;
            documented(cudnnCreateFusedOpsConstParamPack(null_out ? nullptr : &s.const_packs[slot], ops));
            break;
        case 1:
            if (s.variant_packs[slot]) cudnnDestroyFusedOpsVariantParamPack(s.variant_packs[slot]);
            s.variant_packs[slot] = nullptr;
            documented(cudnnCreateFusedOpsVariantParamPack(null_out ? nullptr : &s.variant_packs[slot], ops));
            break;
        default: {
            FusedPlan &p = s.plans[slot];
            if (p.plan) cudnnDestroyFusedOpsPlan(p.plan);
            p = FusedPlan();
            p.ops = ops;
            documented(cudnnCreateFusedOpsPlan(null_out ? nullptr : &p.plan, ops));
            break;
        }
    }
}

// One constant-pack attribute: any label (invalid ones too), with the harness's descriptor of the kind the
// label takes, NULL or one never set; placeholders and BN modes valid or out of range, or a NULL param.
void fused_set(State &s, Bytes &in) {
    const cudnnFusedOpsConstParamPack_t pack = s.const_packs[in.u8() % 2];
    const auto label = in.pick<cudnnFusedOpsConstParamLabel_t>(39);
    const uint8_t which = in.u8();
    // An int, not the enum: a C caller may store any int there, and the library must read it as such.
    const int value = which < 240 ? which % 3 : which;
    const void *param = nullptr;
    switch (fused_param_kind(label)) {
        case FusedParam::tensor:
            param = which < 200 ? s.tensors[which % 4] : which < 228 ? nullptr : s.unset_tensor;
            break;
        case FusedParam::filter:
            param = which < 200 ? s.filters[which % 2] : which < 228 ? nullptr : s.unset_filter;
            break;
        case FusedParam::convolution: param = which < 200 ? s.conv : which < 228 ? nullptr : s.unset_conv; break;
        case FusedParam::activation: param = which < 200 ? s.act : which < 228 ? nullptr : s.unset_act; break;
        default: param = which < 250 ? &value : nullptr; break;
    }
    documented(cudnnSetFusedOpsConstParamPackAttribute(pack, label, param));
}

// One constant-pack attribute read back into a descriptor of the label's kind (or an int), param or isNULL
// sometimes NULL.
void fused_get(State &s, Bytes &in) {
    const cudnnFusedOpsConstParamPack_t pack = s.const_packs[in.u8() % 2];
    const auto label = in.pick<cudnnFusedOpsConstParamLabel_t>(39);
    const uint8_t which = in.u8();
    int value = 0, is_null = 0;
    void *param = &value;
    switch (fused_param_kind(label)) {
        case FusedParam::tensor: param = s.fused_tensor; break;
        case FusedParam::filter: param = s.fused_filter; break;
        case FusedParam::convolution: param = s.fused_conv; break;
        case FusedParam::activation: param = s.fused_act; break;
        default: break;
    }
    documented(cudnnGetFusedOpsConstParamPackAttribute(pack, label, which >= 240 ? nullptr : param,
                                                       which % 16 == 15 ? nullptr : &is_null));
}

// One variant-pack attribute, set or read back: pointer labels (an address never dereferenced: each execution
// sets every pointer first), the four scalars with values from the input, invalid labels; ptr sometimes NULL.
void fused_variant(State &s, Bytes &in) {
    const cudnnFusedOpsVariantParamPack_t pack = s.variant_packs[in.u8() % 2];
    const uint8_t tag = in.u8(), how = in.u8();
    const int label = tag < 160 ? tag % kFusedPointers : tag < 240 ? 100 + tag % 4 : tag % 2 ? 24 + tag : -1;
    const auto l = static_cast<cudnnFusedOpsVariantParamLabel_t>(label);
    const bool get = how % 2;
    size_t size = 0;
    int64_t count = 0;
    double real = 0.0;
    void *pointer = reinterpret_cast<void *>(uintptr_t{how} << 4);
    void *ptr = &size;  // invalid labels too: the call must refuse before reading it
    if (label >= 0 && label < kFusedPointers) {
        ptr = get ? &pointer : pointer;  // the getter writes a void *; the setter takes the address itself
    } else if (label == CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES) {
        if (!get) size = static_cast<size_t>(static_cast<int64_t>(in.integer()));
    } else if (label == CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT) {
        if (!get) count = in.integer();
        ptr = &count;
    } else if (label == CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR || label == CUDNN_SCALAR_DOUBLE_BN_EPSILON) {
        if (!get) real = in.real();
        ptr = &real;
    }
    if (how >= 240 && (get || label < 0 || label >= kFusedPointers)) ptr = nullptr;
    if (get) {
        documented(cudnnGetFusedOpsVariantParamPackAttribute(pack, l, ptr));
    } else {
        documented(cudnnSetFusedOpsVariantParamPackAttribute(pack, l, ptr));
    }
}

// cudnnMakeFusedOpsPlan on a plan slot and a constant pack slot (either NULL, of different fusions, or
// incomplete: refused); the handle or the size pointer rarely NULL.
void fused_make(State &s, Bytes &in) {
    FusedPlan &p = s.plans[in.u8() % 2];
    const cudnnFusedOpsConstParamPack_t pack = s.const_packs[in.u8() % 2];
    const uint8_t nulls = in.u8();
    size_t workspace = 0;
    if (documented(cudnnMakeFusedOpsPlan(nulls == 254 ? nullptr : s.handle, p.plan, pack,
                                         nulls == 255 ? nullptr : &workspace)) != CUDNN_STATUS_SUCCESS)
        return;
    if (p.plan == nullptr || pack == nullptr || nulls >= 254) std::abort();  // made from NULL arguments
    record_plan(s, pack, workspace, p);
}

// Sets a constant pack up for its fusion in one step from the harness's descriptors (the fuzzer seldom
// assembles the dozen labels a fusion needs one at a time): the data descriptors, per-channel descriptors as
// they stand or derived (cudnnDeriveBNTensorDescriptor, SPATIAL) from x or y, the convolution, the
// activation or none, the BN mode, and the placeholders: the required ones element- or 16-byte-aligned
// (a bit of the input each), the optional ones on or off (a bit each).
void fused_recipe(State &s, Bytes &in) {
    const int slot = in.u8() % 2;
    const uint8_t optional = in.u8(), sixteen = in.u8(), derive = in.u8();
    const cudnnTensorDescriptor_t a = s.tensor(in), b = s.tensor(in), c = s.tensor(in), d = s.tensor(in);
    const cudnnFilterDescriptor_t f = s.filter(in);
    const cudnnFusedOpsConstParamPack_t pack = s.const_packs[slot];
    if (pack == nullptr) return;
    auto set = [&](cudnnFusedOpsConstParamLabel_t label, const void *param) {
        documented(cudnnSetFusedOpsConstParamPackAttribute(pack, label, param));
    };
    auto place = [&](cudnnFusedOpsConstParamLabel_t label, bool on, int bit) {
        const cudnnFusedOpsPointerPlaceHolder_t placeholder = !on                    ? CUDNN_PTR_NULL
                                                              : (sixteen >> bit) & 1 ? CUDNN_PTR_16B_ALIGNED
                                                                                     : CUDNN_PTR_ELEM_ALIGNED;
        set(label, &placeholder);
    };
    const cudnnFusedOps_t ops = s.const_ops[slot];
    if (convolves(ops)) {
        // a: x, b: y (or dy), c: eqScale and eqBias, d: ySum and ySqSum.
        const bool forward = ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
        if (derive & 1) cudnnDeriveBNTensorDescriptor(c, a, CUDNN_BATCHNORM_SPATIAL);
        if (derive & 2) cudnnDeriveBNTensorDescriptor(d, b, CUDNN_BATCHNORM_SPATIAL);
        set(CUDNN_PARAM_XDESC, a);
        set(forward ? CUDNN_PARAM_WDESC : CUDNN_PARAM_DWDESC, f);
        set(forward ? CUDNN_PARAM_YDESC : CUDNN_PARAM_DYDESC, b);
        set(CUDNN_PARAM_CONV_DESC, s.conv);
        set(CUDNN_PARAM_BN_EQSCALEBIAS_DESC, c);
        set(CUDNN_PARAM_ACTIVATION_DESC, optional & 16 ? s.act : nullptr);
        place(CUDNN_PARAM_XDATA_PLACEHOLDER, true, 0);
        place(forward ? CUDNN_PARAM_WDATA_PLACEHOLDER : CUDNN_PARAM_DWDATA_PLACEHOLDER, true, 1);
        place(forward ? CUDNN_PARAM_YDATA_PLACEHOLDER : CUDNN_PARAM_DYDATA_PLACEHOLDER, true, 2);
        place(CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER, optional & 1, 3);
        place(CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER, optional & 2, 4);
        if (forward) {
            set(CUDNN_PARAM_YSTATS_DESC, d);
            place(CUDNN_PARAM_YSUM_PLACEHOLDER, optional & 4, 5);
            place(CUDNN_PARAM_YSQSUM_PLACEHOLDER, optional & 8, 6);
        }
    } else if (ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING ||
               ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE) {
        // a: scale, bias, means and variances; b: eqScale and eqBias; c: ySum and ySqSum; d: what they are
        // derived from. Mostly a spatial mode, sometimes per activation (refused) or out of range.
        if (derive & 1) cudnnDeriveBNTensorDescriptor(a, d, CUDNN_BATCHNORM_SPATIAL);
        if (derive & 2) cudnnDeriveBNTensorDescriptor(b, d, CUDNN_BATCHNORM_SPATIAL);
        if (derive & 4) cudnnDeriveBNTensorDescriptor(c, d, CUDNN_BATCHNORM_SPATIAL);
        const int mode = derive < 192 ? 1 + (derive >> 3) % 2 : derive < 248 ? CUDNN_BATCHNORM_PER_ACTIVATION : derive;
        set(CUDNN_PARAM_BN_MODE, &mode);
        set(CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC, a);
        set(CUDNN_PARAM_BN_EQSCALEBIAS_DESC, b);
        place(CUDNN_PARAM_BN_SCALE_PLACEHOLDER, true, 0);
        place(CUDNN_PARAM_BN_BIAS_PLACEHOLDER, true, 1);
        place(CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER, true, 2);
        place(CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER, true, 3);
        if (ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING) {
            set(CUDNN_PARAM_YSTATS_DESC, c);
            place(CUDNN_PARAM_YSUM_PLACEHOLDER, true, 4);
            place(CUDNN_PARAM_YSQSUM_PLACEHOLDER, true, 5);
            place(CUDNN_PARAM_BN_SAVED_MEAN_PLACEHOLDER, optional & 1, 6);
            place(CUDNN_PARAM_BN_SAVED_INVSTD_PLACEHOLDER, optional & 2, 7);
            place(CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER, optional & 4, 0);
            place(CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER, optional & 8, 1);
        } else {
            place(CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER, true, 4);
            place(CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER, true, 5);
        }
    } else {
        // The reserved fusions: x and its placeholder; the plan must be refused.
        set(CUDNN_PARAM_XDESC, a);
        place(CUDNN_PARAM_XDATA_PLACEHOLDER, true, 0);
    }
}

// Within `tolerance` of `want`, relative to `scale`; a result the harness cannot predict (non-finite, or
// beyond float) passes.
bool close_to(double got, double want, double scale, cudnnDataType_t type) {
    const bool in_float = type == CUDNN_DATA_FLOAT;
    if (!std::isfinite(want) || !std::isfinite(scale) || (in_float && std::fabs(scale) > 1e38)) return true;
    const double tolerance = in_float ? 1e-6 : 1e-12, floor = in_float ? 1e-37 : 1e-300;
    return std::fabs(got - want) <= tolerance * std::fabs(scale) + floor;
}

// What a successful execution wrote, where the harness can say what it must be: the per-channel sums of
// CONV_BNSTATS against the y it wrote, and the inference finalization's eqScale and eqBias against
// docs/FUSED_OPS.md's formulas (float and double data; the values are small multiples of 0.5).
void check_fused_result(const FusedPlan &p, uint8_t *const *data, double epsilon) {
    if (p.ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS) {
        const FusedShape &y = p.shapes[CUDNN_PTR_YDATA], &stats = p.shapes[CUDNN_PTR_YSUM];
        if (y.type != CUDNN_DATA_FLOAT && y.type != CUDNN_DATA_DOUBLE) return;
        if (stats.type != CUDNN_DATA_FLOAT && stats.type != CUDNN_DATA_DOUBLE) return;
        if (y.nb < 2 || stats.nb < 2) return;
        std::vector<double> sum(static_cast<size_t>(y.dims[1])), square(sum.size()), magnitude(sum.size());
        for (int64_t e = 0; e < y.elements; ++e) {
            int64_t position = e, offset = 0, channel = 0;
            for (int axis = y.nb - 1; axis >= 0; --axis) {
                const int64_t index = position % y.dims[axis];
                position /= y.dims[axis];
                offset += index * y.strides[axis];
                if (axis == 1) channel = index;
            }
            const double v = load_floating(data[CUDNN_PTR_YDATA], y.type, offset);
            sum[channel] += v;
            square[channel] += v * v;
            magnitude[channel] += std::fabs(v);
        }
        for (size_t k = 0; k < sum.size(); ++k) {
            const int64_t at = static_cast<int64_t>(k) * stats.strides[1];
            if (p.used[CUDNN_PTR_YSUM] &&
                !close_to(load_floating(data[CUDNN_PTR_YSUM], stats.type, at), sum[k], magnitude[k], stats.type))
                std::abort();
            if (p.used[CUDNN_PTR_YSQSUM] &&
                !close_to(load_floating(data[CUDNN_PTR_YSQSUM], stats.type, at), square[k], square[k], stats.type))
                std::abort();
        }
    } else if (p.ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE) {
        const FusedShape &param = p.shapes[CUDNN_PTR_BN_SCALE], &eq = p.shapes[CUDNN_PTR_BN_EQSCALE];
        if (eq.type != CUDNN_DATA_FLOAT && eq.type != CUDNN_DATA_DOUBLE) return;
        if (param.nb < 2 || eq.nb < 2) return;
        for (int64_t c = 0; c < param.dims[1]; ++c) {
            const int64_t po = c * param.strides[1], eo = c * eq.strides[1];
            const double scale = load_floating(data[CUDNN_PTR_BN_SCALE], param.type, po);
            const double bias = load_floating(data[CUDNN_PTR_BN_BIAS], param.type, po);
            const double mean = load_floating(data[CUDNN_PTR_BN_RUNNING_MEAN], param.type, po);
            const double variance = load_floating(data[CUDNN_PTR_BN_RUNNING_VAR], param.type, po);
            const double eq_scale = scale / std::sqrt(variance + epsilon);
            const double eq_bias = bias - mean * eq_scale;
            if (!close_to(load_floating(data[CUDNN_PTR_BN_EQSCALE], eq.type, eo), eq_scale, eq_scale, eq.type) ||
                !close_to(load_floating(data[CUDNN_PTR_BN_EQBIAS], eq.type, eo), eq_bias,
                          std::fabs(bias) + std::fabs(mean * eq_scale), eq.type))
                std::abort();
        }
    }
}

// cudnnFusedOpsExecute with every pointer label set to a buffer as large as the plan's descriptors claimed
// when it was made (floating data filled with small values), one of them sometimes NULL or off by 1 to 8
// bytes; the workspace the plan asked for, or less (the scalar says what was given), or NULL; the BN scalars
// from the input; rarely a NULL handle or plan. A plan not made must be refused; a success is checked.
void fused_execute(State &s, Bytes &in) {
    FusedPlan &p = s.plans[in.u8() % 2];
    const cudnnFusedOpsVariantParamPack_t pack = s.variant_packs[in.u8() % 2];
    const uint8_t fault = in.u8(), seed = in.u8(), space = in.u8(), nulls = in.u8();
    const int faulty = fault >= 224 ? in.u8() % kFusedPointers : -1;
    static const size_t kOffsets[] = {0, 1, 2, 4, 8};
    const size_t offset = kOffsets[fault % 5];  // 0 for the faulty pointer: NULL
    const uint8_t count_tag = in.u8();
    const int64_t count = count_tag < 224 ? 1 + count_tag % 64 : in.integer();
    const double factor = in.real(), epsilon = in.real();
    if (p.made && convolves(p.ops) && p.conv_products > (int64_t{1} << 24)) return;
    // The workspace: the plan's size mostly; sometimes that size with a NULL pointer, or 1 byte off its
    // alignment; sometimes less than the plan's size.
    size_t work = p.made ? p.workspace : 0;
    if (space >= 192) {
        const int kind = space % 4;
        work = kind == 0   ? 0
               : kind == 1 ? (work ? work - 1 : 0)
               : kind == 2 ? work / 2
                           : std::min<size_t>(work, in.u8());
    }
    if (work > kMaxWorkBytes) return;

    std::unique_ptr<uint8_t[]> memory[kFusedPointers + 1];
    uint8_t *data[kFusedPointers + 1] = {};
    for (int l = 0; l < kFusedPointers; ++l) {
        const FusedShape &shape = p.shapes[l];
        if (l == CUDNN_PTR_WORKSPACE || !p.made || shape.bytes < 0 || (l == faulty && offset == 0)) continue;
        const size_t extra = l == faulty ? offset : 0, bytes = static_cast<size_t>(shape.bytes);
        memory[l].reset(new uint8_t[bytes + extra]());
        data[l] = memory[l].get() + extra;
        fill_values(data[l], bytes, shape.type, static_cast<uint8_t>(seed + l));
    }
    const size_t work_extra = space >= 160 && space < 176 ? 1 : 0;
    memory[kFusedPointers].reset(new uint8_t[work + work_extra]());
    data[CUDNN_PTR_WORKSPACE] = space >= 176 && space < 192 ? nullptr : memory[kFusedPointers].get() + work_extra;

    for (int l = 0; l < kFusedPointers; ++l)
        documented(
            cudnnSetFusedOpsVariantParamPackAttribute(pack, static_cast<cudnnFusedOpsVariantParamLabel_t>(l), data[l]));
    documented(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES, &work));
    documented(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT,
                                                         const_cast<int64_t *>(&count)));
    documented(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR,
                                                         const_cast<double *>(&factor)));
    documented(cudnnSetFusedOpsVariantParamPackAttribute(pack, CUDNN_SCALAR_DOUBLE_BN_EPSILON,
                                                         const_cast<double *>(&epsilon)));
    const cudnnStatus_t status =
        documented(cudnnFusedOpsExecute(nulls == 255 ? nullptr : s.handle, nulls == 254 ? nullptr : p.plan, pack));
    // Every pointer of the pack is reset before the buffers go: the next execution sets them all again anyway.
    for (int l = 0; l < kFusedPointers && pack; ++l)
        cudnnSetFusedOpsVariantParamPackAttribute(pack, static_cast<cudnnFusedOpsVariantParamLabel_t>(l), nullptr);
    if (status != CUDNN_STATUS_SUCCESS) return;
    if (!p.made || nulls >= 254) std::abort();  // ran a plan never made, or NULL arguments
    check_fused_result(p, data, epsilon);
}

// Bytes of one element of `type` as the harness allocates them (the vectorised types: one vector); 0 for
// values that are no type.
size_t type_bytes(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_DOUBLE:
        case CUDNN_DATA_INT64: return 8;
        case CUDNN_DATA_FLOAT:
        case CUDNN_DATA_INT32:
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_UINT8x4: return 4;
        case CUDNN_DATA_HALF:
        case CUDNN_DATA_BFLOAT16: return 2;
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_BOOLEAN: return 1;
        case CUDNN_DATA_INT8x32: return 32;
        default: return 0;
    }
}

// The convolution's work bounded as step 13 bounds it: (x + y elements) times filter elements.
bool conv_work_small(cudnnTensorDescriptor_t x, cudnnTensorDescriptor_t y, cudnnFilterDescriptor_t f, int64_t limit) {
    return (tensor_elements(x) + tensor_elements(y)) * filter_elements(f) <= limit;
}

// cudnnConvolutionBiasActivationForward (y = act(alpha1 * conv(x, w) + alpha2 * z + bias)) with any
// algorithm, z in y's memory or its own, and the workspace the forward query gives.
void conv_bias_activation(State &s, Bytes &in, const void *one, const void *zero) {
    auto x = s.tensor(in), y = s.tensor(in), z = s.tensor(in), bias = s.tensor(in);
    auto f = s.filter(in);
    const auto algo = static_cast<cudnnConvolutionFwdAlgo_t>(in.u8() % 9);
    const bool z_is_y = in.u8() % 2;
    auto bx = tensor_buffer(x), by = tensor_buffer(y), bz = tensor_buffer(z), bb = tensor_buffer(bias);
    auto bw = filter_buffer(f);
    if (!bx || !by || !bz || !bb || !bw || !conv_work_small(x, y, f, int64_t{1} << 24)) return;
    size_t bytes = 0;
    if (cudnnGetConvolutionForwardWorkspaceSize(s.handle, x, f, s.conv, y, algo, &bytes) != CUDNN_STATUS_SUCCESS ||
        bytes > kMaxWorkBytes)
        return;
    Buffer workspace(bytes);
    const void *alpha2 = in.u8() % 2 ? one : zero;
    cudnnConvolutionBiasActivationForward(s.handle, one, x, bx->get(), f, bw->get(), s.conv, algo, workspace.get(),
                                          bytes, alpha2, z_is_y ? y : z, z_is_y ? by->get() : bz->get(), bias,
                                          bb->get(), s.act, y, by->get());
}

// The convolution's other calls: cudnnConvolutionBackwardBias, cudnnIm2Col (the column matrix sized from the
// output dims), cudnnReorderFilterAndBias and cudnnGetFoldedConvBackwardDataDescriptors.
void conv_others(State &s, Bytes &in, const void *one, const void *zero) {
    switch (in.u8() % 4) {
        case 0: {
            auto dy = s.tensor(in), db = s.tensor(in);
            auto bdy = tensor_buffer(dy), bdb = tensor_buffer(db);
            if (!bdy || !bdb) return;
            cudnnConvolutionBackwardBias(s.handle, one, dy, bdy->get(), zero, db, bdb->get());
            return;
        }
        case 1: {
            auto x = s.tensor(in);
            auto f = s.filter(in);
            auto bx = tensor_buffer(x);
            if (!bx) return;
            cudnnDataType_t type, filter_type;
            cudnnTensorFormat_t format;
            int nb = 0, dims[8], strides[8], filter_nb = 0, filter_dims[8], out[8];
            if (cudnnGetTensorNdDescriptor(x, 8, &type, &nb, dims, strides) != CUDNN_STATUS_SUCCESS ||
                cudnnGetFilterNdDescriptor(f, 8, &filter_type, &format, &filter_nb, filter_dims) !=
                    CUDNN_STATUS_SUCCESS ||
                cudnnGetConvolutionNdForwardOutputDim(s.conv, x, f, nb, out) != CUDNN_STATUS_SUCCESS || nb < 3 ||
                filter_nb != nb)
                return;
            // Rows: images times output positions; columns: x's channels times filter taps.
            int64_t rows = out[0], columns = dims[1];
            for (int i = 2; i < nb; ++i) {
                rows *= out[i];
                columns *= filter_dims[i];
            }
            const int64_t elements = rows * columns;
            if (rows <= 0 || columns <= 0 || elements > kMaxElements || type_bytes(type) == 0) return;
            Buffer col(static_cast<size_t>(elements) * type_bytes(type));
            cudnnIm2Col(s.handle, x, bx->get(), f, s.conv, col.get());
            return;
        }
        case 2: {
            auto f = s.filter(in);
            auto bw = filter_buffer(f), reordered = filter_buffer(f);
            if (!bw) return;
            cudnnDataType_t type;
            cudnnTensorFormat_t format;
            int nb = 0, dims[8];
            if (cudnnGetFilterNdDescriptor(f, 8, &type, &format, &nb, dims) != CUDNN_STATUS_SUCCESS || nb < 1 ||
                dims[0] <= 0 || dims[0] > kMaxElements)
                return;
            // The bias: one float per output channel.
            Buffer bias(static_cast<size_t>(dims[0]) * sizeof(float)),
                reordered_bias(static_cast<size_t>(dims[0]) * sizeof(float));
            const auto type_tag = in.pick<cudnnReorderType_t>(2);
            const int with_bias = in.u8() % 2;
            cudnnReorderFilterAndBias(s.handle, f, type_tag, bw->get(), reordered->get(), with_bias, bias.get(),
                                      reordered_bias.get());
            return;
        }
        default: {
            cudnnFilterDescriptor_t folded_filter = nullptr;
            cudnnTensorDescriptor_t padded_diff = nullptr, folded_grad = nullptr;
            cudnnConvolutionDescriptor_t folded_conv = nullptr;
            cudnnTensorTransformDescriptor_t filter_transform = nullptr, diff_pad = nullptr, grad_fold = nullptr,
                                             grad_unfold = nullptr;
            cudnnCreateFilterDescriptor(&folded_filter);
            for (auto *t : {&padded_diff, &folded_grad}) cudnnCreateTensorDescriptor(t);
            cudnnCreateConvolutionDescriptor(&folded_conv);
            for (auto *t : {&filter_transform, &diff_pad, &grad_fold, &grad_unfold})
                cudnnCreateTensorTransformDescriptor(t);
            // Arguments read in order (a call's arguments are evaluated in no set order).
            auto w = s.filter(in);
            auto dy = s.tensor(in), dx = s.tensor(in);
            const auto format = in.pick<cudnnTensorFormat_t>(3);
            cudnnGetFoldedConvBackwardDataDescriptors(s.handle, w, dy, s.conv, dx, format, folded_filter, padded_diff,
                                                      folded_conv, folded_grad, filter_transform, diff_pad, grad_fold,
                                                      grad_unfold);
            cudnnDestroyFilterDescriptor(folded_filter);
            for (auto t : {padded_diff, folded_grad}) cudnnDestroyTensorDescriptor(t);
            cudnnDestroyConvolutionDescriptor(folded_conv);
            for (auto t : {filter_transform, diff_pad, grad_fold, grad_unfold})
                cudnnDestroyTensorTransformDescriptor(t);
            return;
        }
    }
}

// The Find calls of each direction: the allocating ones and the Ex ones on buffers sized from the
// descriptors and a workspace of a size from the input (0 to 4 KiB); at most 2^20 products, every
// algorithm timed four times.
void conv_find(State &s, Bytes &in) {
    auto x = s.tensor(in), y = s.tensor(in);
    auto f = s.filter(in);
    const int direction = in.u8() % 3, requested = in.u8() % 10;
    const bool ex = in.u8() % 2;
    const size_t work = static_cast<size_t>(in.u8()) * 16;
    auto bx = tensor_buffer(x), by = tensor_buffer(y);
    auto bw = filter_buffer(f);
    if (!bx || !by || !bw || !conv_work_small(x, y, f, int64_t{1} << 20)) return;
    Buffer workspace(work);
    int returned = -1;
    if (direction == 0) {
        cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
        if (ex)
            cudnnFindConvolutionForwardAlgorithmEx(s.handle, x, bx->get(), f, bw->get(), s.conv, y, by->get(),
                                                   requested, &returned, perf, workspace.get(), work);
        else
            cudnnFindConvolutionForwardAlgorithm(s.handle, x, f, s.conv, y, requested, &returned, perf);
    } else if (direction == 1) {
        cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
        if (ex)
            cudnnFindConvolutionBackwardDataAlgorithmEx(s.handle, f, bw->get(), y, by->get(), s.conv, x, bx->get(),
                                                        requested % 7, &returned, perf, workspace.get(), work);
        else
            cudnnFindConvolutionBackwardDataAlgorithm(s.handle, f, y, s.conv, x, requested % 7, &returned, perf);
    } else {
        cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
        if (ex)
            cudnnFindConvolutionBackwardFilterAlgorithmEx(s.handle, x, bx->get(), y, by->get(), s.conv, f, bw->get(),
                                                          requested % 8, &returned, perf, workspace.get(), work);
        else
            cudnnFindConvolutionBackwardFilterAlgorithm(s.handle, x, y, s.conv, f, requested % 8, &returned, perf);
    }
}

// The Ex batch-norm calls (training forward and backward with bnOps, z, the activation, workspace and
// reserve space from their queries, or a reserve space of a size from the input) and the normalization
// API's inference, training and backward (PER_CHANNEL / PER_ACTIVATION, groupCnt from the input).
void batch_norm_ex(State &s, Bytes &in, const void *one, const void *zero) {
    auto x = s.tensor(in), y = s.tensor(in), z = s.tensor(in), p = s.tensor(in);
    const int which = in.u8() % 5;
    const uint8_t mode_tag = in.u8();
    if (in.u8() % 2) cudnnDeriveBNTensorDescriptor(p, x, static_cast<cudnnBatchNormMode_t>(mode_tag % 3));
    const double epsilon = in.real(), factor = in.real();
    const uint8_t ops_tag = in.u8(), reserve_tag = in.u8(), group_tag = in.u8();
    auto bx = tensor_buffer(x), by = tensor_buffer(y), bz = tensor_buffer(z), bdx = tensor_buffer(x);
    std::unique_ptr<Buffer> params[8];
    for (auto &b : params) b = tensor_buffer(p);
    if (!bx || !by || !bz || !params[0]) return;
    if (which < 2) {
        const auto mode = static_cast<cudnnBatchNormMode_t>(mode_tag < 250 ? mode_tag % 3 : mode_tag);
        const auto ops = static_cast<cudnnBatchNormOps_t>(ops_tag < 250 ? ops_tag % 3 : ops_tag);
        size_t work = 0, reserve = 0;
        const cudnnStatus_t sizes = which == 0 ? cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
                                                     s.handle, mode, ops, x, z, y, p, s.act, &work)
                                               : cudnnGetBatchNormalizationBackwardExWorkspaceSize(
                                                     s.handle, mode, ops, x, y, y, z, x, p, s.act, &work);
        if (sizes != CUDNN_STATUS_SUCCESS ||
            cudnnGetBatchNormalizationTrainingExReserveSpaceSize(s.handle, mode, ops, s.act, x, &reserve) !=
                CUDNN_STATUS_SUCCESS ||
            work > kMaxWorkBytes || reserve > kMaxWorkBytes)
            return;
        if (reserve_tag >= 224) reserve = reserve_tag % 32;
        Buffer workspace(work), reserve_space(reserve);
        if (which == 0) {
            cudnnBatchNormalizationForwardTrainingEx(
                s.handle, mode, ops, one, zero, x, bx->get(), z, bz->get(), y, by->get(), p, params[0]->get(),
                params[1]->get(), factor, params[2]->get(), params[3]->get(), epsilon, params[4]->get(),
                params[5]->get(), s.act, workspace.get(), work, reserve_space.get(), reserve);
        } else {
            auto bdz = tensor_buffer(z);
            cudnnBatchNormalizationBackwardEx(
                s.handle, mode, ops, one, zero, one, zero, x, bx->get(), y, by->get(), y, by->get(), z, bdz->get(), x,
                bdx->get(), p, params[0]->get(), params[1]->get(), params[2]->get(), params[3]->get(), epsilon,
                params[4]->get(), params[5]->get(), s.act, workspace.get(), work, reserve_space.get(), reserve);
        }
        return;
    }
    const auto mode = static_cast<cudnnNormMode_t>(mode_tag < 250 ? mode_tag % 2 : mode_tag);
    const auto ops = static_cast<cudnnNormOps_t>(ops_tag < 250 ? ops_tag % 3 : ops_tag);
    const auto algo = static_cast<cudnnNormAlgo_t>(reserve_tag % 2);
    const int groups = group_tag < 240 ? 1 + group_tag % 2 : static_cast<int>(group_tag) - 250;
    if (which == 2) {
        cudnnNormalizationForwardInference(s.handle, mode, ops, algo, one, zero, x, bx->get(), p, params[0]->get(),
                                           params[1]->get(), p, params[2]->get(), params[3]->get(), z, bz->get(), s.act,
                                           y, by->get(), epsilon, groups);
        return;
    }
    size_t work = 0, reserve = 0;
    const cudnnStatus_t sizes = which == 3 ? cudnnGetNormalizationForwardTrainingWorkspaceSize(
                                                 s.handle, mode, ops, algo, x, z, y, p, s.act, p, &work, groups)
                                           : cudnnGetNormalizationBackwardWorkspaceSize(
                                                 s.handle, mode, ops, algo, x, y, y, z, x, p, s.act, p, &work, groups);
    if (sizes != CUDNN_STATUS_SUCCESS ||
        cudnnGetNormalizationTrainingReserveSpaceSize(s.handle, mode, ops, algo, s.act, x, &reserve, groups) !=
            CUDNN_STATUS_SUCCESS ||
        work > kMaxWorkBytes || reserve > kMaxWorkBytes)
        return;
    Buffer workspace(work), reserve_space(reserve);
    if (which == 3) {
        cudnnNormalizationForwardTraining(s.handle, mode, ops, algo, one, zero, x, bx->get(), p, params[0]->get(),
                                          params[1]->get(), factor, p, params[2]->get(), params[3]->get(), epsilon,
                                          params[4]->get(), params[5]->get(), s.act, z, bz->get(), y, by->get(),
                                          workspace.get(), work, reserve_space.get(), reserve, groups);
    } else {
        auto bdz = tensor_buffer(z);
        cudnnNormalizationBackward(s.handle, mode, ops, algo, one, zero, one, zero, x, bx->get(), y, by->get(), y,
                                   by->get(), z, bdz->get(), x, bdx->get(), p, params[0]->get(), params[1]->get(),
                                   params[2]->get(), params[3]->get(), epsilon, p, params[4]->get(), params[5]->get(),
                                   s.act, workspace.get(), work, reserve_space.get(), reserve, groups);
    }
}

// The tensor transform descriptor (any dims, pads, folds, format and direction), cudnnInitTransformDest,
// then cudnnTransformTensorEx between two tensors or cudnnTransformFilter between the two filters.
void transform_ex(State &s, Bytes &in, const void *one, const void *zero) {
    int pad_before[9], pad_after[9];
    unsigned fold[9];
    const unsigned nb = in.u8() % 10;
    for (unsigned i = 0; i < nb; ++i) {
        pad_before[i] = in.integer();
        pad_after[i] = in.integer();
        fold[i] = static_cast<unsigned>(in.integer());
    }
    const auto format = in.pick<cudnnTensorFormat_t>(3);
    const auto direction = in.pick<cudnnFoldingDirection_t>(2);
    cudnnSetTensorTransformDescriptor(s.transform, nb, format, pad_before, pad_after, fold, direction);
    const int which = in.u8() % 3;
    if (which == 0) {
        size_t bytes = 0;
        auto x = s.tensor(in), y = s.tensor(in);
        cudnnInitTransformDest(s.transform, x, y, &bytes);
    } else if (which == 1) {
        auto x = s.tensor(in), y = s.tensor(in);
        auto bx = tensor_buffer(x), by = tensor_buffer(y);
        if (!bx || !by) return;
        cudnnTransformTensorEx(s.handle, s.transform, one, x, bx->get(), zero, y, by->get());
    } else {
        auto f = s.filter(in), g = s.filter(in);
        auto bf = filter_buffer(f), bg = filter_buffer(g);
        if (!bf || !bg) return;
        cudnnTransformFilter(s.handle, s.transform, one, f, bf->get(), zero, g, bg->get());
    }
}

// Set by a `misalign` step: the next step's g_misalignment.
size_t next_misalignment = 0;

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
    switch (in.u8() % 56) {
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
        case 32: rnn_set(s, in); break;
        case 33: rnn_data_set(s, in); break;
        case 34: rnn_queries(s, in); break;
        case 35: rnn_v8(s, in); break;
        case 36: rnn_steps_set(s, in); break;
        case 37: rnn_legacy_queries(s, in); break;
        case 38: rnn_legacy(s, in); break;
        case 39: rnn_legacy_ex(s, in); break;
        case 40: ctc_set(s, in); break;
        case 41: ctc_loss(s, in); break;
        case 48: fused_create(s, in); break;
        case 49: fused_set(s, in); break;
        case 50: fused_get(s, in); break;
        case 51: fused_variant(s, in); break;
        case 52: fused_make(s, in); break;
        case 53: fused_recipe(s, in); break;
        case 54: fused_execute(s, in); break;
        case 42: conv_bias_activation(s, in, one, zero); break;
        case 43: conv_others(s, in, one, zero); break;
        case 44: conv_find(s, in); break;
        case 45: batch_norm_ex(s, in, one, zero); break;
        case 46: transform_ex(s, in, one, zero); break;
        case 55: {
            static const size_t kOffsets[] = {1, 2, 4, 8};
            next_misalignment = kOffsets[in.u8() % 4];
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
    next_misalignment = 0;
    for (int steps = 0; steps < 64 && !in.empty(); ++steps) {
        g_misalignment = next_misalignment;
        next_misalignment = 0;
        step(state, in);
    }
    g_misalignment = 0;
    return 0;
}
