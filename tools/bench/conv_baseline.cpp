// librednn-conv-baseline: times the convolutions of a problem set on the two baselines LibreDNN's host
// backend is measured against (issue 13): oneDNN called directly (--onednn), as an application holding
// plain NCHW/NHWC tensors would call it, and LibreDNN's naive reference (--reference, src/reference/).
// The same set, --n, --dtype, --layout and --dir as librednn-bench, whose --host run gives LibreDNN's times.
#include "sets.hpp"

#include "host/common/onednn.hpp"
#include "ops/conv/problem.hpp"
#include "reference/convolution.hpp"
#include "timing.hpp"

#include <unistd.h>

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
    // `copies` sets of the caller's tensors, rotated through so that no run finds its data in the cache
    // (as librednn-bench does); oneDNN's own buffers are one set, as an application would keep them.
    DirectOnednn(const Api &api, const ConvProblem &p, int copies) : api_(api), copies_(copies) {
        dnnl_memory_desc_t any[3];
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
            api.memory_desc_init_by_strides(&user_[t], nd, dims, dnnl_f32, strides);
            api.memory_desc_init_by_tag(&any[t], nd, dims, dnnl_f32, dnnl_format_tag_any);
            data_[t].assign(span_of(*g[t]) * static_cast<size_t>(copies), 0.0f);
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
        // Per role (inputs 0 and 1, output 2): which of x, w, y it is, its query and its argument.
        int order[3] = {}, query[3] = {}, args[3] = {};
        switch (p.direction) {
            case ConvDirection::forward:
                api.dilated_convolution_forward_desc_init(&desc, dnnl_forward_inference, dnnl_convolution_direct,
                                                          &any[0], &any[1], nullptr, &any[2], strides, dilates, pad,
                                                          pad);
                order[0] = 0, order[1] = 1, order[2] = 2;
                query[0] = dnnl_query_src_md, query[1] = dnnl_query_weights_md, query[2] = dnnl_query_dst_md;
                args[0] = kArgSrc, args[1] = kArgWeights, args[2] = kArgDst;
                break;
            case ConvDirection::backward_data:
                api.dilated_convolution_backward_data_desc_init(&desc, dnnl_convolution_direct, &any[0], &any[1],
                                                                &any[2], strides, dilates, pad, pad);
                order[0] = 2, order[1] = 1, order[2] = 0;
                query[0] = dnnl_query_diff_dst_md, query[1] = dnnl_query_weights_md, query[2] = dnnl_query_diff_src_md;
                args[0] = kArgDiffDst, args[1] = kArgWeights, args[2] = kArgDiffSrc;
                break;
            case ConvDirection::backward_filter:
                api.dilated_convolution_backward_weights_desc_init(&desc, dnnl_convolution_direct, &any[0], &any[1],
                                                                   nullptr, &any[2], strides, dilates, pad, pad);
                order[0] = 0, order[1] = 2, order[2] = 1;
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
        for (int r = 0; r < 3; ++r) {
            const int t = order[r];
            const dnnl_memory_desc_t *inner = api.primitive_desc_query_md(conv, query[r], 0);
            roles_[r].arg = args[r];
            for (int c = 0; c < copies; ++c) {
                Memory user_memory = nullptr;
                api.memory_create(&user_memory, &user_[t], api.engine,
                                  data_[t].data() + data_[t].size() / static_cast<size_t>(copies) * c);
                memories_.push_back(user_memory);
                roles_[r].user.push_back(user_memory);
            }
            if (api.memory_desc_equal(inner, &user_[t])) continue;
            inner_data_[r].assign(api.memory_desc_get_size(inner) / sizeof(float) + 1, 0.0f);
            api.memory_create(&roles_[r].inner, inner, api.engine, inner_data_[r].data());
            memories_.push_back(roles_[r].inner);
            PrimitiveDesc reorder = nullptr;
            const bool output = r == 2;
            api.reorder_primitive_desc_create(&reorder, output ? inner : &user_[t], api.engine,
                                              output ? &user_[t] : inner, api.engine, nullptr);
            api.primitive_create(&roles_[r].reorder, reorder);
            api.primitive_desc_destroy(reorder);
        }
        api.primitive_desc_destroy(conv);
        ok_ = true;
    }

    ~DirectOnednn() {
        for (const Role &role : roles_)
            if (role.reorder) api_.primitive_destroy(role.reorder);
        if (conv_) api_.primitive_destroy(conv_);
        for (Memory m : memories_) api_.memory_destroy(m);
        if (stream_) api_.stream_destroy(stream_);
    }

    bool ok() const { return ok_; }
    const std::string &implementation() const { return implementation_; }

    void run(int run_number) {
        const size_t copy = static_cast<size_t>(run_number % copies_);
        dnnl_exec_arg_t conv_args[3];
        for (int r = 0; r < 3; ++r) {
            const Role &role = roles_[r];
            conv_args[r] = {role.arg, role.reorder ? role.inner : role.user[copy]};
            if (role.reorder && r < 2) reorder(role.reorder, role.user[copy], role.inner);
        }
        api_.primitive_execute(conv_, stream_, 3, conv_args);
        if (roles_[2].reorder) reorder(roles_[2].reorder, roles_[2].inner, roles_[2].user[copy]);
        api_.stream_wait(stream_);
    }

private:
    struct Role {
        int arg = 0;
        std::vector<Memory> user;  // one per copy
        Memory inner = nullptr;
        Primitive reorder = nullptr;
    };

    PrimitiveDesc first(const dnnl_convolution_desc_t *desc, PrimitiveDesc hint) {
        PrimitiveDescIterator iterator = nullptr;
        if (api_.primitive_desc_iterator_create(&iterator, desc, nullptr, api_.engine, hint) != dnnl_success)
            return nullptr;
        PrimitiveDesc found = api_.primitive_desc_iterator_fetch(iterator);
        api_.primitive_desc_iterator_destroy(iterator);
        return found;
    }

    void reorder(Primitive primitive, Memory from, Memory to) {
        dnnl_exec_arg_t args[2] = {{kArgFrom, from}, {kArgTo, to}};
        api_.primitive_execute(primitive, stream_, 2, args);
    }

    const Api &api_;
    int copies_ = 1;
    bool ok_ = false;
    std::string implementation_;
    dnnl_memory_desc_t user_[3] = {};
    std::vector<float> data_[3], inner_data_[3];
    Role roles_[3];
    Primitive conv_ = nullptr;
    Stream stream_ = nullptr;
    std::vector<Memory> memories_;
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
    "oneDNN's preferred one, all timed; the caller's tensors rotated through copies beyond the cache, as\n"
    "librednn-bench does) or on LibreDNN's naive reference, and prints one line per problem: direction, name,\n"
    "count, the fastest and the median run in ms, GFLOP/s of the fastest, and oneDNN's implementation.\n"
    "Threads: oneDNN's OpenMP default (OMP_NUM_THREADS), the reference one.\n";

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
    std::printf("dir\tname\tcount\tmin_ms\tmedian_ms\tgflops\timplementation\n");
    for (const Case &entry : cases) {
        ConvProblem p;
        ProblemString text;
        if (!ProblemString::parse(entry.problem->text(), &text, &error) || !parse_conv_problem(text, &p, &error))
            throw std::runtime_error(entry.name + ": " + error);
        std::unique_ptr<DirectOnednn> direct;
        std::unique_ptr<ReferenceRun> reference;
        std::string implementation = "reference";
        if (api) {
            size_t bytes = 0;
            for (const TensorGeometry *g : {&p.x, &p.w, &p.y}) bytes += span_of(*g) * sizeof(float);
            const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
            const size_t cache = l3 > 0 ? static_cast<size_t>(l3) : size_t(32) << 20;
            direct = std::make_unique<DirectOnednn>(*api, p, rotation_copies(bytes, cache, size_t(1) << 30));
            if (!direct->ok()) {
                std::printf("%s\t%s\t%lld\t-\t-\t-\tno oneDNN convolution\n", conv_direction_name(p.direction),
                            entry.name.c_str(), static_cast<long long>(entry.count));
                continue;
            }
            implementation = direct->implementation();
        } else {
            reference = std::make_unique<ReferenceRun>(p);
        }
        std::vector<double> times;
        for (int r = 0; r < warmup + runs; ++r) {
            const double start = now_ms();
            if (direct) {
                direct->run(r);
            } else {
                reference->run();
            }
            if (r >= warmup) times.push_back(now_ms() - start);
        }
        const double best = *std::min_element(times.begin(), times.end());
        std::printf("%s\t%s\t%lld\t%.4f\t%.4f\t%.2f\t%s\n", conv_direction_name(p.direction), entry.name.c_str(),
                    static_cast<long long>(entry.count), best, median(times), p.flops() / best * 1e-6,
                    implementation.c_str());
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
