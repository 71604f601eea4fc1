// Convolution forward, backward data and backward filter (cudnnConvolution*): 2-d, grouped, dilated,
// with the algorithm chosen by the heuristic (cudnnGet…Algorithm_v7), by cudnnFind…AlgorithmEx, or named.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

#include <algorithm>

namespace librednn::bench {

namespace {

enum class Direction { fwd, bwd_data, bwd_filter };

const char *const kForwardAlgos[] = {"implicit_gemm", "implicit_precomp_gemm", "gemm", "direct", "fft", "fft_tiling",
                                     "winograd",      "winograd_nonfused"};
const char *const kBackwardDataAlgos[] = {"algo_0", "algo_1", "fft", "fft_tiling", "winograd", "winograd_nonfused"};
const char *const kBackwardFilterAlgos[] = {"algo_0",    "algo_1", "fft", "algo_3", "winograd", "winograd_nonfused",
                                            "fft_tiling"};
const char *const kMathNames[] = {"default", "tensor_op", "tensor_op_allow_conversion", "fma"};

int algo_count(Direction dir) { return dir == Direction::fwd ? 8 : dir == Direction::bwd_data ? 6 : 7; }

const char *algo_name(Direction dir, int algo) {
    if (algo < 0 || algo >= algo_count(dir)) return "unknown";
    return dir == Direction::fwd        ? kForwardAlgos[algo]
           : dir == Direction::bwd_data ? kBackwardDataAlgos[algo]
                                        : kBackwardFilterAlgos[algo];
}

const char *direction_name(Direction dir) {
    return dir == Direction::fwd ? "fwd" : dir == Direction::bwd_data ? "bwd_data" : "bwd_filter";
}

struct ConvParams {
    Direction dir = Direction::fwd;
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    cudnnDataType_t compute = CUDNN_DATA_FLOAT;
    Layout layout = Layout::nchw;
    Shape x;
    int64_t k = 1, r = 1, s = 1;
    std::pair<int64_t, int64_t> pad{0, 0}, stride{1, 1}, dilation{1, 1};
    int64_t groups = 1;
    bool true_convolution = false;   // mode=conv flips the filter; mode=xcorr (the frameworks' choice) does not
    int math = 0;                    // cudnnMathType_t
    std::string algo = "heuristic";  // heuristic, find, or a number
    double alpha = 1, beta = 0;

    int64_t out_h() const { return (x.h + 2 * pad.first - dilation.first * (r - 1) - 1) / stride.first + 1; }
    int64_t out_w() const { return (x.w + 2 * pad.second - dilation.second * (s - 1) - 1) / stride.second + 1; }
    Shape y() const { return Shape{x.n, k, out_h(), out_w()}; }
    // int8 convolutions write int8 (cuDNN's INT8_CONFIG); every other type writes its own type.
    cudnnDataType_t output_type() const { return type; }
};

class ConvOperation : public Operation {
public:
    ConvOperation(const ConvParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.type, p_.layout, p_.x, &x_desc_));
        BENCH_TRY(make_tensor(library, p_.output_type(), p_.layout, p_.y(), &y_desc_));
        BENCH_TRY(create(library, &w_desc_));
        BENCH_TRY(BENCH_CALL(library, cudnnSetFilter4dDescriptor, w_desc_.get(), p_.type, tensor_format(p_.layout),
                             static_cast<int>(p_.k), static_cast<int>(p_.x.c / p_.groups), static_cast<int>(p_.r),
                             static_cast<int>(p_.s)));
        BENCH_TRY(create(library, &conv_desc_));
        BENCH_TRY(BENCH_CALL(library, cudnnSetConvolution2dDescriptor, conv_desc_.get(), static_cast<int>(p_.pad.first),
                             static_cast<int>(p_.pad.second), static_cast<int>(p_.stride.first),
                             static_cast<int>(p_.stride.second), static_cast<int>(p_.dilation.first),
                             static_cast<int>(p_.dilation.second),
                             p_.true_convolution ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION, p_.compute));
        if (p_.groups != 1)
            BENCH_TRY(
                BENCH_CALL(library, cudnnSetConvolutionGroupCount, conv_desc_.get(), static_cast<int>(p_.groups)));
        math_ = p_.math;
        return BENCH_CALL(library, cudnnSetConvolutionMathType, conv_desc_.get(), static_cast<cudnnMathType_t>(math_));
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
        const Scalar alpha(p_.alpha, p_.type), beta(p_.beta, p_.type);
        switch (p_.dir) {
            case Direction::fwd:
                return BENCH_CALL(library, cudnnConvolutionForward, context_.handle, alpha.get(), x_desc_.get(), t[0],
                                  w_desc_.get(), t[1], conv_desc_.get(), static_cast<cudnnConvolutionFwdAlgo_t>(algo_),
                                  workspace, workspace_bytes, beta.get(), y_desc_.get(), t[2]);
            case Direction::bwd_data:
                return BENCH_CALL(library, cudnnConvolutionBackwardData, context_.handle, alpha.get(), w_desc_.get(),
                                  t[0], y_desc_.get(), t[1], conv_desc_.get(),
                                  static_cast<cudnnConvolutionBwdDataAlgo_t>(algo_), workspace, workspace_bytes,
                                  beta.get(), x_desc_.get(), t[2]);
            case Direction::bwd_filter:
                return BENCH_CALL(library, cudnnConvolutionBackwardFilter, context_.handle, alpha.get(), x_desc_.get(),
                                  t[0], y_desc_.get(), t[1], conv_desc_.get(),
                                  static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo_), workspace, workspace_bytes,
                                  beta.get(), w_desc_.get(), t[2]);
        }
        return Outcome::failed("unknown convolution direction");
    }

    std::string choice() const override {
        if (algo_ < 0) return "";
        std::string text = std::to_string(algo_) + " " + algo_name(p_.dir, algo_);
        if (math_ != p_.math) text += " math=" + std::string(kMathNames[math_]);
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
            if (ranked_math != math_ &&
                (p_.math == CUDNN_TENSOR_OP_MATH || p_.math == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)) {
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
        int count = algo_count(p_.dir);
        int reported = 0;
        if (max_count != nullptr && max_count(context_.handle, &reported) == CUDNN_STATUS_SUCCESS && reported > 0)
            count = reported;
        results->assign(static_cast<size_t>(count), Perf{});
    }

    Outcome ask_heuristic() {
        const Library &library = *context_.library;
        const CudnnApi &api = library.api();
        int returned = 0;
        switch (p_.dir) {
            case Direction::fwd: {
                std::vector<cudnnConvolutionFwdAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionForwardAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionForwardAlgorithm_v7, context_.handle, x_desc_.get(),
                                     w_desc_.get(), conv_desc_.get(), y_desc_.get(), static_cast<int>(results.size()),
                                     &returned, results.data()));
                return take_first("cudnnGetConvolutionForwardAlgorithm_v7", results.data(), returned);
            }
            case Direction::bwd_data: {
                std::vector<cudnnConvolutionBwdDataAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionBackwardDataAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionBackwardDataAlgorithm_v7, context_.handle,
                                     w_desc_.get(), y_desc_.get(), conv_desc_.get(), x_desc_.get(),
                                     static_cast<int>(results.size()), &returned, results.data()));
                return take_first("cudnnGetConvolutionBackwardDataAlgorithm_v7", results.data(), returned);
            }
            case Direction::bwd_filter: {
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
        switch (p_.dir) {
            case Direction::fwd:
                if (api.cudnnGetConvolutionForwardWorkspaceSize)
                    status = api.cudnnGetConvolutionForwardWorkspaceSize(
                        context_.handle, x_desc_.get(), w_desc_.get(), conv_desc_.get(), y_desc_.get(),
                        static_cast<cudnnConvolutionFwdAlgo_t>(algo), bytes);
                break;
            case Direction::bwd_data:
                if (api.cudnnGetConvolutionBackwardDataWorkspaceSize)
                    status = api.cudnnGetConvolutionBackwardDataWorkspaceSize(
                        context_.handle, w_desc_.get(), y_desc_.get(), conv_desc_.get(), x_desc_.get(),
                        static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), bytes);
                break;
            case Direction::bwd_filter:
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
        for (int algo = 0; algo < algo_count(p_.dir); ++algo) {
            size_t bytes = 0;
            if (workspace_of(algo, &bytes)) wanted = std::max(wanted, bytes);
        }
        const size_t limit = std::min(free_memory(context_.memory) / 2, size_t(4) << 30);
        Buffer workspace;
        BENCH_TRY(Buffer::allocate(context_.memory, std::min(wanted, limit), &workspace));
        int returned = 0;
        switch (p_.dir) {
            case Direction::fwd: {
                std::vector<cudnnConvolutionFwdAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionForwardAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnFindConvolutionForwardAlgorithmEx, context_.handle, x_desc_.get(),
                                     t[0], w_desc_.get(), t[1], conv_desc_.get(), y_desc_.get(), t[2],
                                     static_cast<int>(results.size()), &returned, results.data(), workspace.data(),
                                     workspace.bytes()));
                return take_first("cudnnFindConvolutionForwardAlgorithmEx", results.data(), returned);
            }
            case Direction::bwd_data: {
                std::vector<cudnnConvolutionBwdDataAlgoPerf_t> results;
                size_ranked_list(api.cudnnGetConvolutionBackwardDataAlgorithmMaxCount, &results);
                BENCH_TRY(BENCH_CALL(library, cudnnFindConvolutionBackwardDataAlgorithmEx, context_.handle,
                                     w_desc_.get(), t[0], y_desc_.get(), t[1], conv_desc_.get(), x_desc_.get(), t[2],
                                     static_cast<int>(results.size()), &returned, results.data(), workspace.data(),
                                     workspace.bytes()));
                return take_first("cudnnFindConvolutionBackwardDataAlgorithmEx", results.data(), returned);
            }
            case Direction::bwd_filter: {
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
        switch (p_.dir) {
            case Direction::fwd:
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionForwardWorkspaceSize, context_.handle, x_desc_.get(),
                                     w_desc_.get(), conv_desc_.get(), y_desc_.get(),
                                     static_cast<cudnnConvolutionFwdAlgo_t>(algo_), &bytes));
                break;
            case Direction::bwd_data:
                BENCH_TRY(BENCH_CALL(library, cudnnGetConvolutionBackwardDataWorkspaceSize, context_.handle,
                                     w_desc_.get(), y_desc_.get(), conv_desc_.get(), x_desc_.get(),
                                     static_cast<cudnnConvolutionBwdDataAlgo_t>(algo_), &bytes));
                break;
            case Direction::bwd_filter:
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
    TensorDescriptor x_desc_, y_desc_;  // x and y, or dx and dy
    FilterDescriptor w_desc_;
    ConvolutionDescriptor conv_desc_;
    int algo_ = -1;  // none chosen yet
    int math_ = 0;
    size_t workspace_ = 0;
};

class ConvProblem : public Problem {
public:
    explicit ConvProblem(const ConvParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "conv");
        text.set("dir", direction_name(p_.dir));
        text.set("dtype", data_type_name(p_.type));
        text.set("layout", layout_name(p_.layout));
        text.set("n", static_cast<long long>(p_.x.n));
        text.set("c", static_cast<long long>(p_.x.c));
        text.set("h", static_cast<long long>(p_.x.h));
        text.set("w", static_cast<long long>(p_.x.w));
        text.set("k", static_cast<long long>(p_.k));
        text.set("r", static_cast<long long>(p_.r));
        text.set("s", static_cast<long long>(p_.s));
        text.set_dims("pad", {p_.pad.first, p_.pad.second});
        text.set_dims("stride", {p_.stride.first, p_.stride.second});
        text.set_dims("dil", {p_.dilation.first, p_.dilation.second});
        text.set("g", static_cast<long long>(p_.groups));
        text.set("mode", p_.true_convolution ? "conv" : "xcorr");
        text.set("compute", data_type_name(p_.compute));
        text.set("math", kMathNames[p_.math]);
        text.set("algo", p_.algo);
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        const int64_t x = p_.x.elements(), y = p_.y().elements(), w = p_.k * (p_.x.c / p_.groups) * p_.r * p_.s;
        switch (p_.dir) {
            case Direction::fwd:
                return {{"x", Role::input, p_.type, x},
                        {"w", Role::input, p_.type, w},
                        {"y", written, p_.output_type(), y}};
            case Direction::bwd_data:
                return {{"w", Role::input, p_.type, w}, {"dy", Role::input, p_.type, y}, {"dx", written, p_.type, x}};
            case Direction::bwd_filter:
                return {{"x", Role::input, p_.type, x}, {"dy", Role::input, p_.type, y}, {"dw", written, p_.type, w}};
        }
        return {};
    }

    // 2 * N * K * P * Q * (C / groups) * R * S: one multiply-add per filter tap and output, in every direction.
    double flops() const override {
        const Shape y = p_.y();
        return 2.0 * static_cast<double>(y.n) * static_cast<double>(p_.k) * static_cast<double>(y.h) *
               static_cast<double>(y.w) * static_cast<double>(p_.x.c / p_.groups) * static_cast<double>(p_.r) *
               static_cast<double>(p_.s);
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<ConvOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    ConvParams p_;
};

}  // namespace

ParseResult parse_convolution(const ProblemString &text, const ProblemDefaults &defaults,
                              std::unique_ptr<Problem> *problem, std::string *error) {
    std::string default_dir = defaults.dir == "inference" ? "fwd" : defaults.dir;
    if (!text.has("dir") && default_dir != "fwd" && default_dir != "bwd_data" && default_dir != "bwd_filter")
        return ParseResult::not_applicable;
    KeyReader keys(text, "conv");
    ConvParams p;
    const std::string dir = keys.choice("dir", {"fwd", "bwd_data", "bwd_filter"}, default_dir);
    p.dir = dir == "fwd" ? Direction::fwd : dir == "bwd_data" ? Direction::bwd_data : Direction::bwd_filter;
    p.type = keys.data_type("dtype", defaults.dtype);
    p.layout = keys.layout("layout", defaults.layout);
    p.x = keys.shape(defaults.n);
    p.k = keys.integer("k", 0, 1);
    if (!text.has("k")) keys.fail("missing key 'k' (the number of filters)");
    p.r = keys.integer("r", 1, 1);
    p.s = keys.integer("s", p.r, 1);
    p.pad = keys.pair("pad", {0, 0}, 0);
    p.stride = keys.pair("stride", {1, 1}, 1);
    p.dilation = keys.pair("dil", {1, 1}, 1);
    p.groups = keys.integer("g", 1, 1);
    p.true_convolution = keys.choice("mode", {"xcorr", "conv"}, "xcorr") == "conv";
    const std::string compute =
        keys.choice("compute", {"float", "double", "half", "int32"}, data_type_name(compute_type_for(p.type)));
    parse_data_type(compute, &p.compute);
    const std::string math =
        keys.choice("math", {"default", "tensor_op", "tensor_op_allow_conversion", "fma"}, defaults.math);
    p.math = static_cast<int>(std::find(std::begin(kMathNames), std::end(kMathNames), math) - std::begin(kMathNames));
    p.algo = defaults.algo;
    if (text.has("algo")) {
        std::string ignored;
        text.get("algo", &p.algo, &ignored);
    }
    if (p.algo != "heuristic" && p.algo != "find") {
        const int count = algo_count(p.dir);
        const bool number = !p.algo.empty() && p.algo.size() <= 2 &&
                            std::all_of(p.algo.begin(), p.algo.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!number || std::stoi(p.algo) >= count)
            keys.fail("key 'algo' must be heuristic, find or an algorithm number 0.." + std::to_string(count - 1) +
                      " for dir=" + dir + "; got '" + p.algo + "'");
    }
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.failed()) {
        if (p.x.c % p.groups != 0 || p.k % p.groups != 0)
            keys.fail("c=" + std::to_string(p.x.c) + " and k=" + std::to_string(p.k) +
                      " must both be divisible by g=" + std::to_string(p.groups));
        else if (p.x.h + 2 * p.pad.first < p.dilation.first * (p.r - 1) + 1 ||
                 p.x.w + 2 * p.pad.second < p.dilation.second * (p.s - 1) + 1)
            keys.fail("the filter (with dilation) does not fit the padded input: the output would be empty");
        else if (p.y().elements() > 2147483647LL)
            keys.fail("the output has more than 2^31-1 elements");
    }
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<ConvProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
