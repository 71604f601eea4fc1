// Convolution forward, backward data and backward filter (cudnnConvolution*) and the fused
// cudnnConvolutionBiasActivationForward, in 1 to 6 spatial dims, grouped, dilated, with packed or strided
// tensors, with the algorithm chosen by the heuristic (cudnnGet…Algorithm_v7), by cudnnFind…AlgorithmEx,
// or named. Every problem is LibreDNN's ConvProblem: the bench's 2-d keys (n c h w k r s ...) build one, and
// a string with LibreDNN's other keys (dims=, d=, xstrides=, wlayout=, fused=, ...) is read by LibreDNN's
// own parser, so that a convolution its dispatch log prints re-runs as it is (docs/PROBLEMS.md).
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

#include "ops/common/problem_tensors.hpp"  // data_type_from_short_name
#include "ops/conv/problem.hpp"            // LibreDNN's convolution problem string (the bench links its core)

#include <algorithm>

namespace librednn::bench {

namespace {

using Direction = ConvDirection;

const char *const kForwardAlgos[] = {"implicit_gemm", "implicit_precomp_gemm", "gemm", "direct", "fft", "fft_tiling",
                                     "winograd",      "winograd_nonfused"};
const char *const kBackwardDataAlgos[] = {"algo_0", "algo_1", "fft", "fft_tiling", "winograd", "winograd_nonfused"};
const char *const kBackwardFilterAlgos[] = {"algo_0",    "algo_1", "fft", "algo_3", "winograd", "winograd_nonfused",
                                            "fft_tiling"};
const char *const kMathNames[] = {"default", "tensor_op", "tensor_op_allow_conversion", "fma"};

int algo_count(Direction dir) { return dir == Direction::forward ? 8 : dir == Direction::backward_data ? 6 : 7; }

const char *algo_name(Direction dir, int algo) {
    if (algo < 0 || algo >= algo_count(dir)) return "unknown";
    return dir == Direction::forward         ? kForwardAlgos[algo]
           : dir == Direction::backward_data ? kBackwardDataAlgos[algo]
                                             : kBackwardFilterAlgos[algo];
}

struct ConvParams {
    ConvProblem problem;             // LibreDNN's value; its `algorithm` is the named one, else -1
    std::string algo = "heuristic";  // heuristic, find, or a number
    Direction dir() const { return problem.direction; }
};

// The element type the bench fills a tensor of `type` with: the scalar of a vector type.
cudnnDataType_t scalar_type(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_INT8x32: return CUDNN_DATA_INT8;
        case CUDNN_DATA_UINT8x4: return CUDNN_DATA_UINT8;
        default: return type;
    }
}

// Where each argument of the call lies in tensors(); -1 where the call has none (z when alpha2 is 0:
// y's buffer is passed, which cuDNN allows and does not read).
struct ConvSlots {
    int x = -1, w = -1, y = -1, z = -1, bias = -1;
};

// Each tensor is allocated by its span, so that strided tensors fit; only its elements count as moved.
std::vector<TensorSpec> conv_tensors(const ConvParams &p, ConvSlots *slots) {
    const ConvProblem &q = p.problem;
    std::vector<TensorSpec> specs;
    const auto add = [&](int *slot, const char *name, Role role, const TensorGeometry &geometry) {
        *slot = static_cast<int>(specs.size());
        TensorSpec spec;
        spec.name = name;
        spec.role = role;
        spec.type = scalar_type(geometry.dtype);
        spec.elements = geometry.span_elements();
        if (spec.elements != geometry.element_count()) spec.needed = geometry.element_count();
        if (spec.type == CUDNN_DATA_UINT8) spec.fill = Fill::positive;
        specs.push_back(spec);
    };
    const Role written = q.beta != 0 ? Role::inout : Role::output;
    switch (q.direction) {
        case Direction::forward:
            add(&slots->x, "x", Role::input, q.x);
            add(&slots->w, "w", Role::input, q.w);
            if (q.epilogue.fused && q.epilogue.alpha2 != 0) add(&slots->z, "z", Role::input, q.epilogue.z);
            if (q.epilogue.fused) add(&slots->bias, "bias", Role::input, q.epilogue.bias);
            add(&slots->y, "y", written, q.y);
            break;
        case Direction::backward_data:
            add(&slots->w, "w", Role::input, q.w);
            add(&slots->y, "dy", Role::input, q.y);
            add(&slots->x, "dx", written, q.x);
            break;
        case Direction::backward_filter:
            add(&slots->x, "x", Role::input, q.x);
            add(&slots->y, "dy", Role::input, q.y);
            add(&slots->w, "dw", written, q.w);
            break;
    }
    return specs;
}

std::vector<int> int_values(const int64_t *values, int count) { return std::vector<int>(values, values + count); }

// A tensor descriptor for `geometry`: its dims and strides (cudnnSetTensorNdDescriptor), or for a
// vectorised type its packed NCHW_VECT_C layout (cudnnSetTensorNdDescriptorEx; strides cannot say it).
Outcome make_tensor(const Library &library, const TensorGeometry &geometry, TensorDescriptor *descriptor) {
    BENCH_TRY(create(library, descriptor));
    const std::vector<int> dims = int_values(geometry.dims, geometry.nb_dims);
    if (geometry.vector() > 1)
        return BENCH_CALL(library, cudnnSetTensorNdDescriptorEx, descriptor->get(), CUDNN_TENSOR_NCHW_VECT_C,
                          geometry.dtype, geometry.nb_dims, dims.data());
    const std::vector<int> strides = int_values(geometry.strides, geometry.nb_dims);
    return BENCH_CALL(library, cudnnSetTensorNdDescriptor, descriptor->get(), geometry.dtype, geometry.nb_dims,
                      dims.data(), strides.data());
}

class ConvOperation : public Operation {
public:
    ConvOperation(const ConvParams &params, const Context &context) : p_(params), context_(context) {
        conv_tensors(p_, &slots_);
    }

    Outcome bind() {
        const Library &library = *context_.library;
        const ConvProblem &q = p_.problem;
        BENCH_TRY(make_tensor(library, q.x, &x_desc_));
        BENCH_TRY(make_tensor(library, q.y, &y_desc_));
        BENCH_TRY(create(library, &w_desc_));
        const std::vector<int> w_dims = int_values(q.w.dims, q.w.nb_dims);
        BENCH_TRY(BENCH_CALL(library, cudnnSetFilterNdDescriptor, w_desc_.get(), q.w.dtype, q.filter_format,
                             q.w.nb_dims, w_dims.data()));
        BENCH_TRY(create(library, &conv_desc_));
        const std::vector<int> pad = int_values(q.pad, q.spatial_dims), stride = int_values(q.stride, q.spatial_dims),
                               dilation = int_values(q.dilation, q.spatial_dims);
        BENCH_TRY(BENCH_CALL(library, cudnnSetConvolutionNdDescriptor, conv_desc_.get(), q.spatial_dims, pad.data(),
                             stride.data(), dilation.data(), q.mode, q.compute_type));
        if (q.groups != 1)
            BENCH_TRY(BENCH_CALL(library, cudnnSetConvolutionGroupCount, conv_desc_.get(), static_cast<int>(q.groups)));
        if (q.epilogue.fused) {
            BENCH_TRY(make_tensor(library, q.epilogue.z, &z_desc_));
            BENCH_TRY(make_tensor(library, q.epilogue.bias, &bias_desc_));
            BENCH_TRY(create(library, &activation_desc_));
            BENCH_TRY(BENCH_CALL(library, cudnnSetActivationDescriptor, activation_desc_.get(), q.epilogue.activation,
                                 q.epilogue.nan_opt, q.epilogue.coef));
        }
        math_ = static_cast<int>(q.math_type);
        return BENCH_CALL(library, cudnnSetConvolutionMathType, conv_desc_.get(), q.math_type);
    }

    Outcome choose(const TensorPointers &tensors) override {
        if (p_.algo == "heuristic") {
            BENCH_TRY(ask_heuristic());
        } else if (p_.algo == "find") {
            BENCH_TRY(search(tensors));
        } else {
            algo_ = std::stoi(p_.algo);
        }
        return query_workspace();
    }

    size_t workspace_bytes() const override { return workspace_; }

    Outcome run(const TensorPointers &t, void *workspace, size_t workspace_bytes) override {
        const Library &library = *context_.library;
        const ConvProblem &q = p_.problem;
        const Scalar alpha(q.alpha, q.x.dtype), beta(q.beta, q.x.dtype);
        const ConvSlots &s = slots_;
        switch (p_.dir()) {
            case Direction::forward:
                if (q.epilogue.fused) {
                    const Scalar alpha2(q.epilogue.alpha2, q.x.dtype);
                    return BENCH_CALL(library, cudnnConvolutionBiasActivationForward, context_.handle, alpha.get(),
                                      x_desc_.get(), t[s.x], w_desc_.get(), t[s.w], conv_desc_.get(),
                                      static_cast<cudnnConvolutionFwdAlgo_t>(algo_), workspace, workspace_bytes,
                                      alpha2.get(), z_desc_.get(), s.z >= 0 ? t[s.z] : t[s.y], bias_desc_.get(),
                                      t[s.bias], activation_desc_.get(), y_desc_.get(), t[s.y]);
                }
                return BENCH_CALL(library, cudnnConvolutionForward, context_.handle, alpha.get(), x_desc_.get(), t[s.x],
                                  w_desc_.get(), t[s.w], conv_desc_.get(),
                                  static_cast<cudnnConvolutionFwdAlgo_t>(algo_), workspace, workspace_bytes, beta.get(),
                                  y_desc_.get(), t[s.y]);
            case Direction::backward_data:
                return BENCH_CALL(library, cudnnConvolutionBackwardData, context_.handle, alpha.get(), w_desc_.get(),
                                  t[s.w], y_desc_.get(), t[s.y], conv_desc_.get(),
                                  static_cast<cudnnConvolutionBwdDataAlgo_t>(algo_), workspace, workspace_bytes,
                                  beta.get(), x_desc_.get(), t[s.x]);
            case Direction::backward_filter:
                return BENCH_CALL(library, cudnnConvolutionBackwardFilter, context_.handle, alpha.get(), x_desc_.get(),
                                  t[s.x], y_desc_.get(), t[s.y], conv_desc_.get(),
                                  static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo_), workspace, workspace_bytes,
                                  beta.get(), w_desc_.get(), t[s.w]);
        }
        return Outcome::failed("unknown convolution direction");
    }

    std::string choice() const override {
        if (algo_ < 0) return "";
        std::string text = std::to_string(algo_) + " " + algo_name(p_.dir(), algo_);
        if (math_ != static_cast<int>(p_.problem.math_type)) text += " math=" + std::string(kMathNames[math_]);
        return text;
    }

private:
    // Takes the first algorithm a ranked list offers that can run (status SUCCESS). Tensor-op results
    // may come back with the default math type (the algorithm has no tensor-op variant): the run then
    // uses the math type the library ranked it with, as frameworks do; default and fma requests stay.
    template <class Perf>
    Outcome take_first(const char *source, const Perf *results, int count) {
        for (int i = 0; i < count; ++i) {
            if (results[i].status != CUDNN_STATUS_SUCCESS) continue;
            algo_ = static_cast<int>(results[i].algo);
            const int ranked_math = static_cast<int>(results[i].mathType);
            if (ranked_math != math_ && (p_.problem.math_type == CUDNN_TENSOR_OP_MATH ||
                                         p_.problem.math_type == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)) {
                math_ = ranked_math;
                BENCH_TRY(BENCH_CALL(*context_.library, cudnnSetConvolutionMathType, conv_desc_.get(),
                                     static_cast<cudnnMathType_t>(math_)));
            }
            return Outcome::success();
        }
        return Outcome::unsupported(std::string("not supported: ") + source +
                                    " offers no algorithm that can run this problem");
    }

    // Room for every algorithm the library may rank (its …AlgorithmMaxCount, else the enum's count).
    template <class Perf, class MaxCountFunction>
    void size_ranked_list(MaxCountFunction max_count, std::vector<Perf> *results) const {
        int count = algo_count(p_.dir());
        int reported = 0;
        if (max_count != nullptr && max_count(context_.handle, &reported) == CUDNN_STATUS_SUCCESS && reported > 0)
            count = reported;
        results->assign(static_cast<size_t>(count), Perf{});
    }

    Outcome ask_heuristic() {
        const Library &library = *context_.library;
        const CudnnApi &api = library.api();
        int returned = 0;
        switch (p_.dir()) {
            case Direction::forward: {
                std::vector<cudnnConvolutionFwdAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionForwardAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionForwardAlgorithm_v7, context_.handle, x_desc_.get(),
                                     w_desc_.get(), conv_desc_.get(), y_desc_.get(), static_cast<int>(results.size()),
                                     &returned, results.data()));
                return take_first("cudnnGetConvolutionForwardAlgorithm_v7", results.data(), returned);
            }
            case Direction::backward_data: {
                std::vector<cudnnConvolutionBwdDataAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionBackwardDataAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionBackwardDataAlgorithm_v7, context_.handle,
                                     w_desc_.get(), y_desc_.get(), conv_desc_.get(), x_desc_.get(),
                                     static_cast<int>(results.size()), &returned, results.data()));
                return take_first("cudnnGetConvolutionBackwardDataAlgorithm_v7", results.data(), returned);
            }
            case Direction::backward_filter: {
                std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionBackwardFilterAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionBackwardFilterAlgorithm_v7, context_.handle,
                                     x_desc_.get(), y_desc_.get(), conv_desc_.get(), w_desc_.get(),
                                     static_cast<int>(results.size()), &returned, results.data()));
                return take_first("cudnnGetConvolutionBackwardFilterAlgorithm_v7", results.data(), returned);
            }
        }
        return Outcome::failed("unknown convolution direction");
    }

    // The workspace one algorithm asks for; false when the library refuses the algorithm.
    bool workspace_of(int algo, size_t *bytes) const {
        const CudnnApi &api = context_.library->api();
        cudnnStatus_t status = CUDNN_STATUS_NOT_SUPPORTED;
        switch (p_.dir()) {
            case Direction::forward:
                if (api.cudnnGetConvolutionForwardWorkspaceSize)
                    status = api.cudnnGetConvolutionForwardWorkspaceSize(
                        context_.handle, x_desc_.get(), w_desc_.get(), conv_desc_.get(), y_desc_.get(),
                        static_cast<cudnnConvolutionFwdAlgo_t>(algo), bytes);
                break;
            case Direction::backward_data:
                if (api.cudnnGetConvolutionBackwardDataWorkspaceSize)
                    status = api.cudnnGetConvolutionBackwardDataWorkspaceSize(
                        context_.handle, w_desc_.get(), y_desc_.get(), conv_desc_.get(), x_desc_.get(),
                        static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), bytes);
                break;
            case Direction::backward_filter:
                if (api.cudnnGetConvolutionBackwardFilterWorkspaceSize)
                    status = api.cudnnGetConvolutionBackwardFilterWorkspaceSize(
                        context_.handle, x_desc_.get(), y_desc_.get(), conv_desc_.get(), w_desc_.get(),
                        static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo), bytes);
                break;
        }
        return status == CUDNN_STATUS_SUCCESS;
    }

    // cudnnFind…AlgorithmEx times every algorithm on the real buffers; it gets the largest workspace
    // any algorithm asks for, up to half the free memory and 4 GiB (algorithms wanting more are skipped).
    Outcome search(const TensorPointers &t) {
        const Library &library = *context_.library;
        const CudnnApi &api = library.api();
        size_t wanted = 0;
        for (int algo = 0; algo < algo_count(p_.dir()); ++algo) {
            size_t bytes = 0;
            if (workspace_of(algo, &bytes)) wanted = std::max(wanted, bytes);
        }
        const size_t limit = std::min(free_memory(context_.memory) / 2, size_t(4) << 30);
        Buffer workspace;
        BENCH_TRY(Buffer::allocate(context_.memory, std::min(wanted, limit), &workspace));
        int returned = 0;
        switch (p_.dir()) {
            case Direction::forward: {
                std::vector<cudnnConvolutionFwdAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionForwardAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnFindConvolutionForwardAlgorithmEx, context_.handle, x_desc_.get(),
                                     t[0], w_desc_.get(), t[1], conv_desc_.get(), y_desc_.get(), t[2],
                                     static_cast<int>(results.size()), &returned, results.data(), workspace.data(),
                                     workspace.bytes()));
                return take_first("cudnnFindConvolutionForwardAlgorithmEx", results.data(), returned);
            }
            case Direction::backward_data: {
                std::vector<cudnnConvolutionBwdDataAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionBackwardDataAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnFindConvolutionBackwardDataAlgorithmEx, context_.handle,
                                     w_desc_.get(), t[0], y_desc_.get(), t[1], conv_desc_.get(), x_desc_.get(), t[2],
                                     static_cast<int>(results.size()), &returned, results.data(), workspace.data(),
                                     workspace.bytes()));
                return take_first("cudnnFindConvolutionBackwardDataAlgorithmEx", results.data(), returned);
            }
            case Direction::backward_filter: {
                std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionBackwardFilterAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnFindConvolutionBackwardFilterAlgorithmEx, context_.handle,
                                     x_desc_.get(), t[0], y_desc_.get(), t[1], conv_desc_.get(), w_desc_.get(), t[2],
                                     static_cast<int>(results.size()), &returned, results.data(), workspace.data(),
                                     workspace.bytes()));
                return take_first("cudnnFindConvolutionBackwardFilterAlgorithmEx", results.data(), returned);
            }
        }
        return Outcome::failed("unknown convolution direction");
    }

    Outcome query_workspace() {
        const Library &library = *context_.library;
        size_t bytes = 0;
        switch (p_.dir()) {
            case Direction::forward:
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionForwardWorkspaceSize, context_.handle, x_desc_.get(),
                                     w_desc_.get(), conv_desc_.get(), y_desc_.get(),
                                     static_cast<cudnnConvolutionFwdAlgo_t>(algo_), &bytes));
                break;
            case Direction::backward_data:
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionBackwardDataWorkspaceSize, context_.handle,
                                     w_desc_.get(), y_desc_.get(), conv_desc_.get(), x_desc_.get(),
                                     static_cast<cudnnConvolutionBwdDataAlgo_t>(algo_), &bytes));
                break;
            case Direction::backward_filter:
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionBackwardFilterWorkspaceSize, context_.handle,
                                     x_desc_.get(), y_desc_.get(), conv_desc_.get(), w_desc_.get(),
                                     static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo_), &bytes));
                break;
        }
        workspace_ = bytes;
        return Outcome::success();
    }

    ConvParams p_;
    Context context_;
    ConvSlots slots_;
    TensorDescriptor x_desc_, y_desc_;  // x and y, or dx and dy
    TensorDescriptor z_desc_, bias_desc_;
    FilterDescriptor w_desc_;
    ConvolutionDescriptor conv_desc_;
    ActivationDescriptor activation_desc_;
    int algo_ = -1;  // none chosen yet
    int math_ = 0;
    size_t workspace_ = 0;
};

class ConvBenchProblem : public Problem {
public:
    explicit ConvBenchProblem(const ConvParams &params) : p_(params) {}

    // LibreDNN's string, with algo= where LibreDNN prints it also when the bench chooses (heuristic, find).
    ProblemString describe() const override {
        ConvProblem shown = p_.problem;
        if (shown.algorithm < 0) shown.algorithm = 0;  // holds the key's place
        ProblemString text = to_problem_string(shown);
        text.set("algo", p_.algo);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        ConvSlots slots;
        return conv_tensors(p_, &slots);
    }

    // 2 * N * K * output size * (C / groups) * filter size: one multiply-add per filter tap and output, in
    // every direction (the fused bias and activation are not counted).
    double flops() const override { return p_.problem.flops(); }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<ConvOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    ConvParams p_;
};

// Keys of LibreDNN's convolution string beyond the bench's 2-d grammar.
const char *const kLibraryOnlyKeys[] = {"dims",  "wdims", "d",     "t",   "xstrides", "ystrides", "wlayout",
                                        "wtype", "ytype", "fused", "act", "coef",     "alpha2",   "biastype"};

// Whether LibreDNN's parser reads `text`: it has a key of LibreDNN's beyond the bench's, or a vectorised
// layout or a type only LibreDNN's grammar names (int8x4, uint8, ...).
bool needs_library_grammar(const ProblemString &text) {
    for (const char *key : kLibraryOnlyKeys)
        if (text.has(key)) return true;
    std::string value, ignored;
    if (text.has("layout") && text.get("layout", &value, &ignored) && value == "nchw_vect_c") return true;
    if (!text.has("dtype") || !text.get("dtype", &value, &ignored)) return false;
    const char *const bench_types[] = {"float", "double", "half", "bfloat16", "int8"};
    cudnnDataType_t type;
    return std::find(std::begin(bench_types), std::end(bench_types), value) == std::end(bench_types) &&
           data_type_from_short_name(value, &type);
}

// The bench's 2-d grammar: n c h w k r s pad stride dil g ..., with the command line's defaults.
bool parse_bench_grammar(const ProblemString &text, const ProblemDefaults &defaults, const std::string &dir,
                         ConvParams *params, std::string *error) {
    KeyReader keys(text, "conv");
    ConvProblem &q = params->problem;
    const cudnnDataType_t type = keys.data_type("dtype", defaults.dtype);
    const Layout layout = keys.layout("layout", defaults.layout);
    const Shape x = keys.shape(defaults.n);
    const int64_t k = keys.integer("k", 0, 1);
    if (!text.has("k")) keys.fail("missing key 'k' (the number of filters)");
    const int64_t r = keys.integer("r", 1, 1);
    const int64_t s = keys.integer("s", r, 1);
    const auto pad = keys.pair("pad", {0, 0}, 0);
    const auto stride = keys.pair("stride", {1, 1}, 1);
    const auto dilation = keys.pair("dil", {1, 1}, 1);
    q.groups = keys.integer("g", 1, 1);
    q.mode = keys.choice("mode", {"xcorr", "conv"}, "xcorr") == "conv" ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION;
    const std::string compute =
        keys.choice("compute", {"float", "double", "half", "int32"}, data_type_name(compute_type_for(type)));
    parse_data_type(compute, &q.compute_type);
    const std::string math =
        keys.choice("math", {"default", "tensor_op", "tensor_op_allow_conversion", "fma"}, defaults.math);
    q.math_type = static_cast<cudnnMathType_t>(std::find(std::begin(kMathNames), std::end(kMathNames), math) -
                                               std::begin(kMathNames));
    params->algo = defaults.algo;
    if (text.has("algo")) {
        std::string ignored;
        text.get("algo", &params->algo, &ignored);
    }
    q.alpha = keys.number("alpha", 1);
    q.beta = keys.number("beta", 0);
    if (!keys.failed()) {
        if (x.c % q.groups != 0 || k % q.groups != 0)
            keys.fail("c=" + std::to_string(x.c) + " and k=" + std::to_string(k) +
                      " must both be divisible by g=" + std::to_string(q.groups));
        else if (x.h + 2 * pad.first < dilation.first * (r - 1) + 1 ||
                 x.w + 2 * pad.second < dilation.second * (s - 1) + 1)
            keys.fail("the filter (with dilation) does not fit the padded input: the output would be empty");
    }
    if (!keys.finish(error)) return false;
    q.direction = dir == "fwd"        ? Direction::forward
                  : dir == "bwd_data" ? Direction::backward_data
                                      : Direction::backward_filter;
    q.spatial_dims = 2;
    q.pad[0] = pad.first, q.pad[1] = pad.second;
    q.stride[0] = stride.first, q.stride[1] = stride.second;
    q.dilation[0] = dilation.first, q.dilation[1] = dilation.second;
    q.filter_format = tensor_format(layout);
    const PackedLayout packed = layout == Layout::nhwc ? PackedLayout::nhwc : PackedLayout::nchw;
    const int64_t x_dims[] = {x.n, x.c, x.h, x.w}, w_dims[] = {k, x.c / q.groups, r, s};
    int64_t y_dims[4] = {};
    conv_output_dims(q, x_dims, w_dims, y_dims);
    // int8 convolutions write int8 (cuDNN's INT8_CONFIG); every other type writes its own type.
    q.x = packed_geometry(type, 4, x_dims, packed);
    q.w = packed_geometry(type, 4, w_dims, packed);
    q.y = packed_geometry(type, 4, y_dims, packed);
    return true;
}

// LibreDNN's own string (what its dispatch log prints), with the command line's defaults for the keys
// it leaves out.
bool parse_library_grammar(const ProblemString &text, const ProblemDefaults &defaults, const std::string &dir,
                           ConvParams *params, std::string *error) {
    ProblemString library_text;
    for (const auto &[key, value] : text.entries()) library_text.set(key, value);
    library_text.set("dir", dir);
    if (!text.has("dtype")) library_text.set("dtype", defaults.dtype);
    if (!text.has("layout")) library_text.set("layout", defaults.layout);
    if (!text.has("math")) library_text.set("math", defaults.math);
    // The bench's default compute type (int32 for int8 data, as cuDNN requires), not LibreDNN's parser's.
    cudnnDataType_t dtype = CUDNN_DATA_FLOAT;
    std::string dtype_name, ignored;
    library_text.get("dtype", &dtype_name, &ignored);
    if (!text.has("compute") && data_type_from_short_name(dtype_name, &dtype))
        library_text.set("compute", data_type_short_name(compute_type_for(scalar_type(dtype))));
    if (!text.has("dims") && !text.has("n")) library_text.set("n", static_cast<long long>(defaults.n));
    params->algo = defaults.algo;
    if (text.has("algo")) {
        text.get("algo", &params->algo, &ignored);
    } else {
        library_text.set("algo", params->algo);
    }
    if (!parse_conv_problem(library_text, &params->problem, error)) {
        *error = "op=conv: " + *error;
        return false;
    }
    const ConvProblem &q = params->problem;
    std::string problem;
    if (q.output_channels() % q.groups != 0) {
        problem = "k=" + std::to_string(q.output_channels()) + " must be divisible by g=" + std::to_string(q.groups);
    } else if (q.epilogue.fused && q.direction != Direction::forward) {
        problem = "fused=bias_act is a forward convolution (cudnnConvolutionBiasActivationForward): dir must be fwd";
    } else {
        for (const TensorGeometry *geometry : {&q.x, &q.w, &q.y, &q.epilogue.bias}) {
            if (geometry->nb_dims == 0) continue;
            if (data_type_size(scalar_type(geometry->dtype)) == 0)
                problem = std::string("the bench does not fill ") + data_type_short_name(geometry->dtype) + " tensors";
        }
    }
    if (!problem.empty()) {
        *error = "op=conv: " + problem;
        return false;
    }
    return true;
}

}  // namespace

ParseResult parse_convolution(const ProblemString &text, const ProblemDefaults &defaults,
                              std::unique_ptr<Problem> *problem, std::string *error) {
    std::string dir = defaults.dir == "inference" ? "fwd" : defaults.dir;
    if (!text.has("dir") && dir != "fwd" && dir != "bwd_data" && dir != "bwd_filter")
        return ParseResult::not_applicable;
    if (text.has("dir")) {
        std::string ignored;
        text.get("dir", &dir, &ignored);
        if (dir != "fwd" && dir != "bwd_data" && dir != "bwd_filter") {
            *error = "op=conv: key 'dir' must be one of fwd|bwd_data|bwd_filter; got '" + dir + "'";
            return ParseResult::error;
        }
    }
    ConvParams p;
    const bool parsed = needs_library_grammar(text) ? parse_library_grammar(text, defaults, dir, &p, error)
                                                    : parse_bench_grammar(text, defaults, dir, &p, error);
    if (!parsed) return ParseResult::error;
    if (p.algo != "heuristic" && p.algo != "find") {
        const int count = algo_count(p.dir());
        const bool number = !p.algo.empty() && p.algo.size() <= 2 &&
                            std::all_of(p.algo.begin(), p.algo.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!number || std::stoi(p.algo) >= count) {
            *error = "op=conv: key 'algo' must be heuristic, find or an algorithm number 0.." +
                     std::to_string(count - 1) + " for dir=" + dir + "; got '" + p.algo + "'";
            return ParseResult::error;
        }
        p.problem.algorithm = std::stoi(p.algo);
    } else {
        p.problem.algorithm = -1;
    }
    if (p.problem.y.element_count() > 2147483647LL) {
        *error = "op=conv: the output has more than 2^31-1 elements";
        return ParseResult::error;
    }
    *problem = std::make_unique<ConvBenchProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
