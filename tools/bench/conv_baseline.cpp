// librednn-conv-baseline: times the convolutions of a problem set on the two baselines LibreDNN's host
// backend is measured against (issue 13): oneDNN called directly (--onednn), as an application holding
// plain NCHW/NHWC tensors would call it, and LibreDNN's naive reference (--reference, src/reference/).
// The same set, --n, --dtype, --layout and --dir as librednn-bench, whose --host run gives LibreDNN's times.
#include "sets.hpp"

#include "host/common/onednn.hpp"
#include "ops/conv/problem.hpp"
#include "reference/convolution.hpp"
#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <vector>

namespace librednn::bench {
namespace {

using namespace host::onednn;

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::vector<int64_t> dims_of(const TensorGeometry &g) { return std::vector<int64_t>(g.dims, g.dims + g.nb_dims); }
std::vector<int64_t> strides_of(const TensorGeometry &g) {
    return std::vector<int64_t>(g.strides, g.strides + g.nb_dims);
}

// The span of elements a tensor's strides reach.
size_t span_of(const TensorGeometry &g) {
    int64_t last = 0;
    for (int i = 0; i < g.nb_dims; ++i) last += (g.dims[i] - 1) * g.strides[i];
    return static_cast<size_t>(last + 1);
}

// oneDNN, directly: the convolution with oneDNN's preferred layouts (format "any") and its first
// implementation, reorders from and to the caller's plain float tensors; the time covers all of them.
class DirectOnednn {
public:
    DirectOnednn(const Api &api, const ConvProblem &p) : api_(api) {
        dnnl_memory_desc_t user[3], any[3];
        const TensorGeometry *g[3] = {&p.x, &p.w, &p.y};
        for (int t = 0; t < 3; ++t) {
            int64_t dims[kMaxNdims] = {}, strides[kMaxNdims] = {};
            int nd = g[t]->nb_dims;
            if (t == 1 && p.groups > 1) {  // [G, K/G, C/G, ...]
                dims[0] = p.groups;
                strides[0] = g[t]->dims[0] / p.groups * g[t]->strides[0];
                for (int i = 0; i < nd; ++i) {
                    dims[i + 1] = i == 0 ? g[t]->dims[0] / p.groups : g[t]->dims[i];
                    strides[i + 1] = g[t]->strides[i];
                }
                ++nd;
            } else {
                for (int i = 0; i < nd; ++i) {
                    dims[i] = g[t]->dims[i];
                    strides[i] = g[t]->strides[i];
                }
            }
            api.memory_desc_init_by_strides(&user[t], nd, dims, dnnl_f32, strides);
            api.memory_desc_init_by_tag(&any[t], nd, dims, dnnl_f32, dnnl_format_tag_any);
            data_[t].assign(span_of(*g[t]), 0.0f);
        }
        std::mt19937 random(7);
        std::uniform_real_distribution<float> value(-1.0f, 1.0f);
        for (auto &d : data_)
            for (float &v : d) v = value(random);
        int64_t strides[kMaxNdims] = {}, dilates[kMaxNdims] = {}, pad[kMaxNdims] = {};
        for (int i = 0; i < p.spatial_dims; ++i) {
            strides[i] = p.stride[i];
            dilates[i] = p.dilation[i] - 1;
            pad[i] = p.pad[i];
        }
        dnnl_convolution_desc_t fwd{}, desc{};
        api.dilated_convolution_forward_desc_init(&fwd, dnnl_forward_training, dnnl_convolution_direct, &any[0],
                                                  &any[1], nullptr, &any[2], strides, dilates, pad, pad);
        PrimitiveDesc hint = nullptr;
        if (p.direction != ConvDirection::forward) hint = first(&fwd, nullptr);
        int query[3] = {};
        int args[3] = {};
        switch (p.direction) {
            case ConvDirection::forward:
                api.dilated_convolution_forward_desc_init(&desc, dnnl_forward_inference, dnnl_convolution_direct,
                                                          &any[0], &any[1], nullptr, &any[2], strides, dilates, pad,
                                                          pad);
                order_ = {0, 1, 2};
                query[0] = dnnl_query_src_md, query[1] = dnnl_query_weights_md, query[2] = dnnl_query_dst_md;
                args[0] = kArgSrc, args[1] = kArgWeights, args[2] = kArgDst;
                break;
            case ConvDirection::backward_data:
                api.dilated_convolution_backward_data_desc_init(&desc, dnnl_convolution_direct, &any[0], &any[1],
                                                                &any[2], strides, dilates, pad, pad);
                order_ = {2, 1, 0};
                query[0] = dnnl_query_diff_dst_md, query[1] = dnnl_query_weights_md, query[2] = dnnl_query_diff_src_md;
                args[0] = kArgDiffDst, args[1] = kArgWeights, args[2] = kArgDiffSrc;
                break;
            case ConvDirection::backward_filter:
                api.dilated_convolution_backward_weights_desc_init(&desc, dnnl_convolution_direct, &any[0], &any[1],
                                                                   nullptr, &any[2], strides, dilates, pad, pad);
                order_ = {0, 2, 1};
                query[0] = dnnl_query_src_md, query[1] = dnnl_query_diff_dst_md, query[2] = dnnl_query_diff_weights_md;
                args[0] = kArgSrc, args[1] = kArgDiffDst, args[2] = kArgDiffWeights;
                break;
        }
        PrimitiveDesc conv = first(&desc, hint);
        if (hint) api.primitive_desc_destroy(hint);
        if (conv == nullptr) return;
        const char *name = nullptr;
        api.primitive_desc_query(conv, dnnl_query_impl_info_str, 0, &name);
        implementation_ = name ? name : "?";
        api.primitive_create(&conv_, conv);
        api.stream_create(&stream_, api.engine, dnnl_stream_default_flags);
        // Role r (inputs 0, 1, output 2) is tensor order_[r] of x, w, y.
        for (int r = 0; r < 3; ++r) {
            const dnnl_memory_desc_t *inner = api.primitive_desc_query_md(conv, query[r], 0);
            Memory user_memory = nullptr, inner_memory = nullptr;
            api.memory_create(&user_memory, &user[order_[r]], api.engine, data_[order_[r]].data());
            memories_.push_back(user_memory);
            if (api.memory_desc_equal(inner, &user[order_[r]])) {
                conv_args_.push_back({args[r], user_memory});
                continue;
            }
            inner_data_[r].assign(api.memory_desc_get_size(inner) / sizeof(float) + 1, 0.0f);
            api.memory_create(&inner_memory, inner, api.engine, inner_data_[r].data());
            memories_.push_back(inner_memory);
            PrimitiveDesc reorder = nullptr;
            const bool output = r == 2;
            api.reorder_primitive_desc_create(&reorder, output ? inner : &user[order_[r]], api.engine,
                                              output ? &user[order_[r]] : inner, api.engine, nullptr);
            Primitive primitive = nullptr;
            api.primitive_create(&primitive, reorder);
            api.primitive_desc_destroy(reorder);
            (output ? after_ : before_)
                .push_back({primitive, output ? inner_memory : user_memory, output ? user_memory : inner_memory});
            conv_args_.push_back({args[r], inner_memory});
        }
        api.primitive_desc_destroy(conv);
        ok_ = true;
    }

    ~DirectOnednn() {
        for (auto &r : before_) api_.primitive_destroy(r.primitive);
        for (auto &r : after_) api_.primitive_destroy(r.primitive);
        if (conv_) api_.primitive_destroy(conv_);
        for (Memory m : memories_) api_.memory_destroy(m);
        if (stream_) api_.stream_destroy(stream_);
    }

    bool ok() const { return ok_; }
    const std::string &implementation() const { return implementation_; }

    void run() {
        for (auto &r : before_) reorder(r);
        api_.primitive_execute(conv_, stream_, static_cast<int>(conv_args_.size()), conv_args_.data());
        for (auto &r : after_) reorder(r);
        api_.stream_wait(stream_);
    }

private:
    struct Reorder {
        Primitive primitive;
        Memory from, to;
    };

    PrimitiveDesc first(const dnnl_convolution_desc_t *desc, PrimitiveDesc hint) {
        PrimitiveDescIterator iterator = nullptr;
        if (api_.primitive_desc_iterator_create(&iterator, desc, nullptr, api_.engine, hint) != dnnl_success)
            return nullptr;
        PrimitiveDesc found = api_.primitive_desc_iterator_fetch(iterator);
        api_.primitive_desc_iterator_destroy(iterator);
        return found;
    }

    void reorder(const Reorder &r) {
        dnnl_exec_arg_t args[2] = {{kArgFrom, r.from}, {kArgTo, r.to}};
        api_.primitive_execute(r.primitive, stream_, 2, args);
    }

    const Api &api_;
    bool ok_ = false;
    std::string implementation_;
    std::vector<float> data_[3], inner_data_[3];
    std::vector<int> order_;
    Primitive conv_ = nullptr;
    Stream stream_ = nullptr;
    std::vector<Memory> memories_;
    std::vector<dnnl_exec_arg_t> conv_args_;
    std::vector<Reorder> before_, after_;
};

// The reference, on double copies (as the op tests run it).
struct ReferenceRun {
    ConvProblem p;
    reference::ConvolutionGeometry geometry;
    std::vector<double> data[3];
    reference::TensorView views[3];

    explicit ReferenceRun(const ConvProblem &problem) : p(problem) {
        for (int i = 0; i < p.spatial_dims; ++i) {
            geometry.padding.push_back(p.pad[i]);
            geometry.stride.push_back(p.stride[i]);
            geometry.dilation.push_back(p.dilation[i]);
        }
        geometry.groups = p.groups;
        geometry.mode = p.mode;
        const TensorGeometry *g[3] = {&p.x, &p.w, &p.y};
        for (int t = 0; t < 3; ++t) {
            data[t].assign(span_of(*g[t]), 0.5);
            views[t].type = CUDNN_DATA_DOUBLE;
            views[t].dims = dims_of(*g[t]);
            views[t].strides = strides_of(*g[t]);
            views[t].data = data[t].data();
        }
    }

    void run() {
        switch (p.direction) {
            case ConvDirection::forward:
                reference::convolution_forward(geometry, 1.0, views[0], views[1], 0.0, views[2]);
                break;
            case ConvDirection::backward_data:
                reference::convolution_backward_data(geometry, 1.0, views[1], views[2], 0.0, views[0]);
                break;
            case ConvDirection::backward_filter:
                reference::convolution_backward_filter(geometry, 1.0, views[0], views[2], 0.0, views[1]);
                break;
        }
    }
};

const char kUsage[] =
    "usage: librednn-conv-baseline (--onednn | --reference) (--set FILE | --problem STRING)... [--n N]\n"
    "       [--dtype float] [--layout nchw|nhwc] [--dir fwd,bwd_data,bwd_filter] [--runs R] [--warmup W]\n"
    "Times each convolution on oneDNN called directly (tensors in the caller's layout, reordered to and from\n"
    "oneDNN's preferred one, all timed) or on LibreDNN's naive reference, and prints one line per problem:\n"
    "direction, name, count, the fastest run in ms, GFLOP/s, and oneDNN's implementation. Threads: oneDNN's\n"
    "OpenMP default (OMP_NUM_THREADS), the reference one.\n";

int run(int argc, char **argv) {
    std::string mode, error;
    std::vector<std::string> sets, problems, dirs = {"fwd"};
    ProblemDefaults defaults;
    int runs = 10, warmup = 2;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--onednn" || arg == "--reference") {
            mode = arg.substr(2);
        } else if (arg == "--set") {
            sets.push_back(value());
        } else if (arg == "--problem") {
            problems.push_back(value());
        } else if (arg == "--n") {
            defaults.n = std::stoll(value());
        } else if (arg == "--dtype") {
            defaults.dtype = value();
        } else if (arg == "--layout") {
            defaults.layout = value();
        } else if (arg == "--dir") {
            dirs.clear();
            std::stringstream list(value());
            for (std::string d; std::getline(list, d, ',');) dirs.push_back(d);
        } else if (arg == "--runs") {
            runs = std::max(1, std::stoi(value()));
        } else if (arg == "--warmup") {
            warmup = std::max(0, std::stoi(value()));
        } else {
            std::cerr << kUsage;
            return arg == "--help" ? 0 : 2;
        }
    }
    if (mode.empty() || (sets.empty() && problems.empty())) {
        std::cerr << kUsage;
        return 2;
    }
    std::vector<ProblemSource> sources;
    for (const std::string &text : problems) {
        ProblemSource source;
        if (!ProblemString::parse(text, &source.text, &error)) throw std::runtime_error(error);
        sources.push_back(std::move(source));
    }
    for (const std::string &path : sets)
        if (!read_problem_set(path, &sources, &error)) throw std::runtime_error(error);
    std::vector<Case> cases;
    if (!build_cases(sources, dirs, defaults, &cases, &error)) throw std::runtime_error(error);

    const Api *api = nullptr;
    if (mode == "onednn") {
        std::string why;
        api = host::onednn::api(&why);
        if (api == nullptr) throw std::runtime_error(why);
        std::printf("# %s, direct; %d runs after %d warm-up, the fastest\n", api->description.c_str(), runs, warmup);
    } else {
        std::printf("# LibreDNN's reference (src/reference/), double copies; %d runs after %d warm-up, the fastest\n",
                    runs, warmup);
    }
    std::printf("dir\tname\tcount\tms\tgflops\timplementation\n");
    for (const Case &entry : cases) {
        ConvProblem p;
        ProblemString text;
        if (!ProblemString::parse(entry.problem->text(), &text, &error) || !parse_conv_problem(text, &p, &error))
            throw std::runtime_error(entry.name + ": " + error);
        std::unique_ptr<DirectOnednn> direct;
        std::unique_ptr<ReferenceRun> reference;
        std::string implementation = "reference";
        if (api) {
            direct = std::make_unique<DirectOnednn>(*api, p);
            if (!direct->ok()) {
                std::printf("%s\t%s\t%lld\t-\t-\tno oneDNN convolution\n", conv_direction_name(p.direction),
                            entry.name.c_str(), static_cast<long long>(entry.count));
                continue;
            }
            implementation = direct->implementation();
        } else {
            reference = std::make_unique<ReferenceRun>(p);
        }
        double best = 1e300;
        for (int r = 0; r < warmup + runs; ++r) {
            const double start = now_ms();
            if (direct) {
                direct->run();
            } else {
                reference->run();
            }
            const double elapsed = now_ms() - start;
            if (r >= warmup) best = std::min(best, elapsed);
        }
        std::printf("%s\t%s\t%lld\t%.4f\t%.2f\t%s\n", conv_direction_name(p.direction), entry.name.c_str(),
                    static_cast<long long>(entry.count), best, p.flops() / best * 1e-6, implementation.c_str());
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace
}  // namespace librednn::bench

int main(int argc, char **argv) {
    try {
        return librednn::bench::run(argc, argv);
    } catch (const std::exception &e) {
        std::cerr << "librednn-conv-baseline: " << e.what() << "\n";
        return 2;
    }
}
