// Planning and running host convolutions on oneDNN: descriptors from the ConvProblem, the first direct
// implementation oneDNN offers, reorders between the caller's tensors and oneDNN's layouts, a bounded
// cache of plans.
#include "host/conv/onednn_conv.hpp"

#include "host/common/onednn.hpp"
#include "ops/conv/validate.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace librednn::host::conv {

using namespace host::onednn;

namespace {

constexpr size_t kAlign = 64;
constexpr size_t kCachedPlans = 256;

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// One primitive with the scratchpad it wants.
struct Step {
    Primitive primitive = nullptr;
    dnnl_memory_desc_t scratchpad{};
    size_t scratchpad_bytes = 0;
};

// One tensor of the convolution: as the call holds it (`user`) and as the convolution reads or writes it
// (`inner`); a reorder between them where they differ, through a buffer at `offset` in the workspace.
struct PlannedTensor {
    int arg = 0;  // the convolution's DNNL_ARG_*
    dnnl_memory_desc_t user{}, inner{};
    bool reordered = false;
    Step reorder;
    size_t offset = 0, bytes = 0;
    // CUDNN_CONVOLUTION's filter: staged packed row-major with each row's taps reversed, at `staged_offset`
    // (oneDNN only cross-correlates). An input filter is copied there reversed, in the call's type, and
    // reordered from there; the filter gradient is reordered there from oneDNN's layout (`to_staged`), in
    // float, reversed in place, then reordered into the call's tensor with alpha and beta.
    bool flipped = false;
    dnnl_memory_desc_t staged{};
    size_t staged_offset = 0;
    Step to_staged;
    TensorGeometry geometry;
    size_t element = 0;  // bytes of one element of the call's filter
};

}  // namespace

struct OnednnConvPlan {
    const Api *api = nullptr;
    Step convolution;
    std::string implementation;
    PlannedTensor inputs[2], output;
    size_t workspace_bytes = 0;

    OnednnConvPlan() = default;
    OnednnConvPlan(const OnednnConvPlan &) = delete;
    OnednnConvPlan &operator=(const OnednnConvPlan &) = delete;
    ~OnednnConvPlan() {
        for (Primitive p : {convolution.primitive, inputs[0].reorder.primitive, inputs[1].reorder.primitive,
                            output.reorder.primitive, output.to_staged.primitive}) {
            if (p != nullptr) api->primitive_destroy(p);
        }
    }
};

namespace {

// Frees oneDNN objects on every path out of plan building.
struct Owned {
    const Api &api;
    std::vector<PrimitiveDesc> descs;
    std::vector<Attr> attrs;
    std::vector<PostOps> post_ops;
    ~Owned() {
        for (PrimitiveDesc d : descs) api.primitive_desc_destroy(d);
        for (Attr a : attrs) api.primitive_attr_destroy(a);
        for (PostOps p : post_ops) api.post_ops_destroy(p);
    }
};

// The tensor's dims as oneDNN numbers them: the filter of a grouped convolution gains a leading group
// dim, [G, K/G, C/G, spatial...].
int dims_of(const ConvProblem &problem, const TensorGeometry &g, bool filter, int64_t *dims, int64_t *strides) {
    if (!filter || problem.groups == 1) {
        for (int i = 0; i < g.nb_dims; ++i) {
            dims[i] = g.dims[i];
            if (strides) strides[i] = g.strides[i];
        }
        return g.nb_dims;
    }
    const int64_t per_group = g.dims[0] / problem.groups;
    dims[0] = problem.groups;
    if (strides) strides[0] = per_group * g.strides[0];
    for (int i = 0; i < g.nb_dims; ++i) {
        dims[i + 1] = i == 0 ? per_group : g.dims[i];
        if (strides) strides[i + 1] = g.strides[i];
    }
    return g.nb_dims + 1;
}

Attr new_attr(Owned &owned, double alpha = 1.0, double beta = 0.0) {
    const Api &api = owned.api;
    Attr attr = nullptr;
    if (api.primitive_attr_create(&attr) != dnnl_success) return nullptr;
    owned.attrs.push_back(attr);
    if (api.primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) != dnnl_success) return nullptr;
    if (alpha != 1.0) {
        const float scale = static_cast<float>(alpha);
        if (api.primitive_attr_set_output_scales(attr, 1, 0, &scale) != dnnl_success) return nullptr;
    }
    if (beta != 0.0) {
        PostOps post_ops = nullptr;
        if (api.post_ops_create(&post_ops) != dnnl_success) return nullptr;
        owned.post_ops.push_back(post_ops);
        if (api.post_ops_append_sum(post_ops, static_cast<float>(beta)) != dnnl_success ||
            api.primitive_attr_set_post_ops(attr, post_ops) != dnnl_success)
            return nullptr;
    }
    return attr;
}

bool make_step(const Api &api, PrimitiveDesc desc, Step *step) {
    if (api.primitive_create(&step->primitive, desc) != dnnl_success) return false;
    const dnnl_memory_desc_t *scratchpad = api.primitive_desc_query_md(desc, dnnl_query_scratchpad_md, 0);
    if (scratchpad != nullptr) {
        step->scratchpad = *scratchpad;
        step->scratchpad_bytes = api.memory_desc_get_size(scratchpad);
    }
    return true;
}

// The first implementation `iterator` offers that is a direct convolution (not "gemm:", not "ref:"); every
// other one's name is appended to *passed. For the filter gradient the AMX kernels are passed over too: on a
// Xeon with AMX (the CI machine of 2026-12-02), oneDNN's jit:avx512_core_amx_bf16 backward-weights kernel
// wrote values like 6e-16 into filter taps that see only padding, whose gradient is exactly 0
// (Convolution.OnednnAlgorithmsMatchReferenceOnFloatBfloat16AndHalf, seed 1; the AVX-512 BF16 kernel that
// ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16 selects instead passes).
PrimitiveDesc first_direct(const Api &api, PrimitiveDescIterator iterator, bool filter_gradient, std::string *passed) {
    do {
        PrimitiveDesc desc = api.primitive_desc_iterator_fetch(iterator);
        if (desc == nullptr) break;
        const char *name = nullptr;
        api.primitive_desc_query(desc, dnnl_query_impl_info_str, 0, &name);
        const std::string impl = name ? name : "?";
        const bool amx = impl.find("amx") != std::string::npos;
        if (impl.rfind("gemm", 0) != 0 && impl.rfind("ref", 0) != 0 && !(filter_gradient && amx)) return desc;
        api.primitive_desc_destroy(desc);
        *passed += (passed->empty() ? "" : ", ") + impl;
    } while (api.primitive_desc_iterator_next(iterator) == dnnl_success);
    return nullptr;
}

// Creates the convolution's op descriptor of `direction` over `mds` (src, weights, dst in forward
// terms).
bool init_desc(const Api &api, const ConvProblem &problem, ConvDirection direction, dnnl_prop_kind_t forward_kind,
               const dnnl_memory_desc_t *src, const dnnl_memory_desc_t *weights, const dnnl_memory_desc_t *dst,
               dnnl_convolution_desc_t *desc) {
    int64_t strides[kMaxNdims] = {}, dilates[kMaxNdims] = {}, pad[kMaxNdims] = {};
    for (int i = 0; i < problem.spatial_dims; ++i) {
        strides[i] = problem.stride[i];
        dilates[i] = problem.dilation[i] - 1;  // oneDNN counts the gaps between taps; cuDNN the step
        pad[i] = problem.pad[i];
    }
    // cuDNN pads both sides alike; the output size it implies is oneDNN's with the same right padding.
    switch (direction) {
        case ConvDirection::forward:
            return api.dilated_convolution_forward_desc_init(desc, forward_kind, dnnl_convolution_direct, src, weights,
                                                             nullptr, dst, strides, dilates, pad, pad) == dnnl_success;
        case ConvDirection::backward_data:
            return api.dilated_convolution_backward_data_desc_init(desc, dnnl_convolution_direct, src, weights, dst,
                                                                   strides, dilates, pad, pad) == dnnl_success;
        case ConvDirection::backward_filter:
            return api.dilated_convolution_backward_weights_desc_init(desc, dnnl_convolution_direct, src, weights,
                                                                      nullptr, dst, strides, dilates, pad,
                                                                      pad) == dnnl_success;
    }
    return false;
}

// The first direct implementation for `direction` with every tensor's layout left to oneDNN; backward
// directions are planned with a forward one as their hint, as oneDNN asks.
PrimitiveDesc direct_convolution(Owned &owned, const ConvProblem &problem, dnnl_data_type_t type, Attr attr,
                                 std::string *why) {
    const Api &api = owned.api;
    dnnl_memory_desc_t any[3], hint_any[3];  // hint_any: all of the data type, for the forward hint
    const TensorGeometry *geometry[3] = {&problem.x, &problem.w, &problem.y};
    // The written tensor is summed into in float whatever the data type, so that bfloat16 results round
    // once, in the reorder that applies alpha and beta.
    const int written = problem.direction == ConvDirection::forward         ? 2
                        : problem.direction == ConvDirection::backward_data ? 0
                                                                            : 1;
    for (int t = 0; t < 3; ++t) {
        int64_t dims[kMaxNdims] = {};
        const int ndims = dims_of(problem, *geometry[t], t == 1, dims, nullptr);
        if (api.memory_desc_init_by_tag(&any[t], ndims, dims, t == written ? dnnl_f32 : type, dnnl_format_tag_any) !=
                dnnl_success ||
            api.memory_desc_init_by_tag(&hint_any[t], ndims, dims, type, dnnl_format_tag_any) != dnnl_success) {
            *why = "oneDNN rejected the tensor dims";
            return nullptr;
        }
    }
    PrimitiveDesc hint = nullptr;
    std::string passed;
    auto first = [&](ConvDirection direction, dnnl_prop_kind_t kind, Attr with, PrimitiveDesc hint_desc) {
        const dnnl_memory_desc_t *mds = hint_desc == nullptr && direction != problem.direction ? hint_any : any;
        dnnl_convolution_desc_t desc{};
        if (!init_desc(api, problem, direction, kind, &mds[0], &mds[1], &mds[2], &desc)) return PrimitiveDesc(nullptr);
        PrimitiveDescIterator iterator = nullptr;
        if (api.primitive_desc_iterator_create(&iterator, &desc, with, api.engine, hint_desc) != dnnl_success)
            return PrimitiveDesc(nullptr);
        PrimitiveDesc found = first_direct(api, iterator, direction == ConvDirection::backward_filter, &passed);
        api.primitive_desc_iterator_destroy(iterator);
        if (found != nullptr) owned.descs.push_back(found);
        return found;
    };
    if (problem.direction != ConvDirection::forward) {
        hint = first(ConvDirection::forward, dnnl_forward_training, nullptr, nullptr);
        if (hint == nullptr) {
            *why = "oneDNN has no direct forward convolution for this problem" +
                   (passed.empty() ? std::string() : " (it offers " + passed + ")");
            return nullptr;
        }
        passed.clear();
    }
    PrimitiveDesc found = first(problem.direction, dnnl_forward_inference, attr, hint);
    if (found == nullptr) {
        *why = "oneDNN has no direct convolution for this problem" +
               (passed.empty() ? std::string() : " (it offers only " + passed + ")");
    }
    return found;
}

std::shared_ptr<const OnednnConvPlan> build_plan(const Api &api, const ConvProblem &problem, std::string *why) {
    ConvTypeConfig config = ConvTypeConfig::float_config;
    Status ignored = CUDNN_STATUS_SUCCESS;
    if (!conv_type_config(problem, &config, &ignored)) clear_failure_reason();
    // `type` is the call's data type; the convolution runs on it where oneDNN has such convolutions
    // (float, bfloat16), and on float copies that the reorders convert to and from where it has not
    // (half: oneDNN 2.x convolves half only on AVX512-FP16 CPUs; the sums are float either way).
    dnnl_data_type_t type = dnnl_f32;
    switch (config) {
        case ConvTypeConfig::float_config: break;
        case ConvTypeConfig::pseudo_bfloat16: type = dnnl_bf16; break;
        case ConvTypeConfig::pseudo_half:
        case ConvTypeConfig::true_half: type = dnnl_f16; break;
        default:
            *why = std::string("oneDNN has no ") + conv_type_config_name(config) +
                   " convolution on the CPU; float, bfloat16 and half (converted to float) only";
            return nullptr;
    }
    Owned owned{api, {}, {}, {}};
    Attr conv_attr = new_attr(owned);
    if (conv_attr == nullptr) {
        *why = "oneDNN could not create primitive attributes";
        return nullptr;
    }
    PrimitiveDesc conv = nullptr;
    if (type != dnnl_f16) conv = direct_convolution(owned, problem, type, conv_attr, why);
    if (conv == nullptr && type != dnnl_f32) {  // on float copies
        conv = direct_convolution(owned, problem, dnnl_f32, conv_attr, why);
    }
    if (conv == nullptr) return nullptr;

    auto plan = std::make_shared<OnednnConvPlan>();
    plan->api = &api;
    const char *name = nullptr;
    api.primitive_desc_query(conv, dnnl_query_impl_info_str, 0, &name);
    plan->implementation = name ? name : "?";
    if (!make_step(api, conv, &plan->convolution)) {
        *why = "oneDNN could not create the " + plan->implementation + " convolution";
        return nullptr;
    }
    // The direction's tensors: inputs then output, with the convolution's argument and query for each.
    struct Role {
        const TensorGeometry *geometry = nullptr;
        bool filter = false;
        int arg = 0;
        dnnl_query_t query = 0;
    };
    Role roles[3] = {};
    switch (problem.direction) {
        case ConvDirection::forward:
            roles[0] = {&problem.x, false, kArgSrc, dnnl_query_src_md};
            roles[1] = {&problem.w, true, kArgWeights, dnnl_query_weights_md};
            roles[2] = {&problem.y, false, kArgDst, dnnl_query_dst_md};
            break;
        case ConvDirection::backward_data:
            roles[0] = {&problem.y, false, kArgDiffDst, dnnl_query_diff_dst_md};
            roles[1] = {&problem.w, true, kArgWeights, dnnl_query_weights_md};
            roles[2] = {&problem.x, false, kArgDiffSrc, dnnl_query_diff_src_md};
            break;
        case ConvDirection::backward_filter:
            roles[0] = {&problem.x, false, kArgSrc, dnnl_query_src_md};
            roles[1] = {&problem.y, false, kArgDiffDst, dnnl_query_diff_dst_md};
            roles[2] = {&problem.w, true, kArgDiffWeights, dnnl_query_diff_weights_md};
            break;
    }
    size_t scratchpad = plan->convolution.scratchpad_bytes, buffers = 0;
    for (int t = 0; t < 3; ++t) {
        PlannedTensor &tensor = t < 2 ? plan->inputs[t] : plan->output;
        tensor.arg = roles[t].arg;
        int64_t dims[kMaxNdims] = {}, strides[kMaxNdims] = {};
        if (roles[t].geometry == nullptr) return nullptr;
        const int ndims = dims_of(problem, *roles[t].geometry, roles[t].filter, dims, strides);
        if (api.memory_desc_init_by_strides(&tensor.user, ndims, dims, type, strides) != dnnl_success) {
            *why = "oneDNN cannot describe the strides of the call's tensors";
            return nullptr;
        }
        const dnnl_memory_desc_t *inner = api.primitive_desc_query_md(conv, roles[t].query, 0);
        if (inner == nullptr) {
            *why = "oneDNN's " + plan->implementation + " convolution does not say its layouts";
            return nullptr;
        }
        tensor.inner = *inner;
        const bool output = t == 2;
        const bool blend = output && (problem.alpha != 1.0 || problem.beta != 0.0);
        if (problem.mode == CUDNN_CONVOLUTION && roles[t].filter) {
            tensor.flipped = true;
            tensor.geometry = *roles[t].geometry;
            tensor.element = type == dnnl_f32 ? 4 : 2;
            int64_t packed[kMaxNdims] = {};
            packed[ndims - 1] = 1;
            for (int d = ndims - 2; d >= 0; --d) packed[d] = packed[d + 1] * dims[d + 1];
            if (api.memory_desc_init_by_strides(&tensor.staged, ndims, dims, output ? dnnl_f32 : type, packed) !=
                dnnl_success) {
                *why = "oneDNN cannot describe the reversed filter";
                return nullptr;
            }
            tensor.staged_offset = buffers;
            buffers += aligned(api.memory_desc_get_size(&tensor.staged));
        }
        // The side of the reorder away from the convolution: the call's tensor, or the staged filter.
        const dnnl_memory_desc_t *outside = tensor.flipped ? &tensor.staged : &tensor.user;
        tensor.reordered = blend || (output && tensor.flipped) || api.memory_desc_equal(outside, &tensor.inner) == 0;
        // The output's buffer is always reserved: the workspace query knows no alpha and beta, and must
        // give what any run of the problem uses.
        if (output) {
            tensor.bytes = api.memory_desc_get_size(&tensor.inner);
            tensor.offset = buffers;
            buffers += aligned(tensor.bytes);
        }
        if (!tensor.reordered) continue;
        // Inputs go user -> inner; the output inner -> user, as alpha * result + beta * user (the sum
        // post-op, only where beta != 0, so that beta == 0 never reads the call's tensor).
        if (output && tensor.flipped) {
            PrimitiveDesc staging = nullptr;
            Attr plain = new_attr(owned);
            if (plain == nullptr ||
                api.reorder_primitive_desc_create(&staging, &tensor.inner, api.engine, &tensor.staged, api.engine,
                                                  plain) != dnnl_success) {
                *why = "oneDNN has no reorder from its filter gradient's layout to a packed one";
                return nullptr;
            }
            owned.descs.push_back(staging);
            if (!make_step(api, staging, &tensor.to_staged)) {
                *why = "oneDNN could not create a reorder";
                return nullptr;
            }
            scratchpad = std::max(scratchpad, tensor.to_staged.scratchpad_bytes);
        }
        Attr attr = output ? new_attr(owned, problem.alpha, problem.beta) : new_attr(owned);
        PrimitiveDesc reorder = nullptr;
        const dnnl_memory_desc_t *from = output ? (tensor.flipped ? &tensor.staged : &tensor.inner) : outside;
        const dnnl_memory_desc_t *to = output ? &tensor.user : &tensor.inner;
        if (attr == nullptr ||
            api.reorder_primitive_desc_create(&reorder, from, api.engine, to, api.engine, attr) != dnnl_success) {
            *why = "oneDNN has no reorder between the call's layout and its convolution's" +
                   std::string(blend ? " with alpha and beta" : "");
            return nullptr;
        }
        owned.descs.push_back(reorder);
        if (!make_step(api, reorder, &tensor.reorder)) {
            *why = "oneDNN could not create a reorder";
            return nullptr;
        }
        scratchpad = std::max(scratchpad, tensor.reorder.scratchpad_bytes);
        if (output) continue;
        tensor.bytes = api.memory_desc_get_size(&tensor.inner);
        tensor.offset = buffers;
        buffers += aligned(tensor.bytes);
    }
    // A run with other alpha and beta (the workspace query knows neither) reorders the output with scales
    // and a sum: its scratchpad counts too.
    PrimitiveDesc blend = nullptr;
    Attr blend_attr = new_attr(owned, 2.0, 2.0);
    if (blend_attr == nullptr ||
        api.reorder_primitive_desc_create(&blend, plan->output.flipped ? &plan->output.staged : &plan->output.inner,
                                          api.engine, &plan->output.user, api.engine, blend_attr) != dnnl_success) {
        *why = "oneDNN has no reorder with alpha and beta between its convolution's layout and the call's";
        return nullptr;
    }
    owned.descs.push_back(blend);
    const dnnl_memory_desc_t *blend_scratchpad = api.primitive_desc_query_md(blend, dnnl_query_scratchpad_md, 0);
    if (blend_scratchpad != nullptr) scratchpad = std::max(scratchpad, api.memory_desc_get_size(blend_scratchpad));
    // Layout: alignment slack, the scratchpad (shared: the steps run one after another), the buffers.
    const size_t scratch = aligned(scratchpad);
    for (PlannedTensor *tensor : {&plan->inputs[0], &plan->inputs[1], &plan->output}) {
        tensor->offset += scratch;
        tensor->staged_offset += scratch;
    }
    plan->workspace_bytes = kAlign + scratch + buffers;
    return plan;
}

struct CacheEntry {
    std::shared_ptr<const OnednnConvPlan> plan;
    std::string why;
};

class PlanCache {
public:
    std::shared_ptr<const OnednnConvPlan> get(const ConvProblem &problem, std::string *why) {
        std::string loaded_why;
        const Api *api = onednn::api(&loaded_why);
        if (api == nullptr) {
            *why = loaded_why;
            return nullptr;
        }
        const std::string key = to_problem_string(problem).to_string();
        std::lock_guard<std::mutex> lock(mutex_);
        auto found = entries_.find(key);
        if (found == entries_.end()) {
            CacheEntry entry;
            entry.plan = build_plan(*api, problem, &entry.why);
            if (order_.size() >= kCachedPlans) {  // the oldest goes; a run holding its plan keeps it alive
                entries_.erase(order_.front());
                order_.pop_front();
            }
            order_.push_back(key);
            found = entries_.emplace(key, std::move(entry)).first;
        }
        if (!found->second.plan) *why = found->second.why;
        return found->second.plan;
    }

private:
    std::mutex mutex_;
    std::unordered_map<std::string, CacheEntry> entries_;
    std::deque<std::string> order_;
};

// Copies the call's filter (`g`, elements of `element` bytes) into `staged` packed row-major, each row's
// taps reversed: what CUDNN_CONVOLUTION multiplies with.
void stage_reversed(const TensorGeometry &g, const void *filter, void *staged, size_t element) {
    const int64_t rows = g.dims[0] * g.dims[1];
    int64_t taps = 1;
    for (int i = 2; i < g.nb_dims; ++i) taps *= g.dims[i];
    const auto *from = static_cast<const unsigned char *>(filter);
    auto *to = static_cast<unsigned char *>(staged);
    for (int64_t row = 0; row < rows; ++row) {
        const int64_t row_offset = row / g.dims[1] * g.strides[0] + row % g.dims[1] * g.strides[1];
        for (int64_t tap = 0; tap < taps; ++tap) {
            int64_t offset = row_offset, rest = tap;
            for (int i = g.nb_dims - 1; i >= 2; --i) {
                offset += rest % g.dims[i] * g.strides[i];
                rest /= g.dims[i];
            }
            std::memcpy(to + static_cast<size_t>(row * taps + taps - 1 - tap) * element,
                        from + static_cast<size_t>(offset) * element, element);
        }
    }
}

// Reverses each row's taps of a packed float filter in place.
void reverse_rows(const TensorGeometry &g, float *filter) {
    const int64_t rows = g.dims[0] * g.dims[1];
    int64_t taps = 1;
    for (int i = 2; i < g.nb_dims; ++i) taps *= g.dims[i];
    for (int64_t row = 0; row < rows; ++row) std::reverse(filter + row * taps, filter + (row + 1) * taps);
}

// The call's pointer for one of the planned tensors.
void *user_pointer(const ConvProblem &problem, const ConvBuffers &buffers, const PlannedTensor &tensor) {
    switch (tensor.arg) {
        case kArgSrc: return const_cast<void *>(buffers.x);
        case kArgWeights: return const_cast<void *>(buffers.w);
        case kArgDiffDst: return const_cast<void *>(buffers.y);
        default: (void)problem; return buffers.result;  // dst, diff_src, diff_weights
    }
}

}  // namespace

std::shared_ptr<const OnednnConvPlan> onednn_conv_plan(const ConvProblem &problem, std::string *why) {
    static PlanCache *cache = new PlanCache;  // never destroyed: plans may run from other static destructors
    return cache->get(problem, why);
}

size_t onednn_conv_workspace_bytes(const OnednnConvPlan &plan) { return plan.workspace_bytes; }

const std::string &onednn_conv_implementation(const OnednnConvPlan &plan) { return plan.implementation; }

Status run_onednn_conv(const OnednnConvPlan &plan, const ConvProblem &problem, const ConvBuffers &buffers,
                       void *workspace) {
    const Api &api = *plan.api;
    unsigned char *base = static_cast<unsigned char *>(workspace);
    base += (kAlign - reinterpret_cast<uintptr_t>(base) % kAlign) % kAlign;

    std::vector<Memory> memories;
    Stream stream = nullptr;
    bool ok = true;
    auto memory = [&](const dnnl_memory_desc_t &md, void *data) {
        Memory m = nullptr;
        if (ok && api.memory_create(&m, &md, api.engine, data) == dnnl_success) {
            memories.push_back(m);
            return m;
        }
        ok = false;
        return Memory(nullptr);
    };
    auto execute = [&](const Step &step, std::vector<dnnl_exec_arg_t> args) {
        if (step.scratchpad_bytes > 0) args.push_back({kArgScratchpad, memory(step.scratchpad, base)});
        if (ok)
            ok = api.primitive_execute(step.primitive, stream, static_cast<int>(args.size()), args.data()) ==
                 dnnl_success;
    };
    {
        ThreadScope threads(api);
        ok = api.stream_create(&stream, api.engine, dnnl_stream_default_flags) == dnnl_success;
        std::vector<dnnl_exec_arg_t> conv_args;
        Memory output_user = nullptr;
        Memory output_staged = nullptr;
        for (const PlannedTensor *tensor : {&plan.inputs[0], &plan.inputs[1], &plan.output}) {
            void *data = user_pointer(problem, buffers, *tensor);
            Memory user = memory(tensor->user, data);
            Memory outside = user;
            if (tensor->flipped) {
                outside = memory(tensor->staged, base + tensor->staged_offset);
                if (tensor != &plan.output)
                    stage_reversed(tensor->geometry, data, base + tensor->staged_offset, tensor->element);
            }
            Memory used = outside;
            if (tensor == &plan.output) {
                output_user = user;
                output_staged = outside;
                used = user;
            }
            if (tensor->reordered) {
                used = memory(tensor->inner, base + tensor->offset);
                if (tensor != &plan.output) execute(tensor->reorder, {{kArgFrom, outside}, {kArgTo, used}});
            }
            conv_args.push_back({tensor->arg, used});
        }
        execute(plan.convolution, conv_args);
        if (plan.output.flipped) {
            execute(plan.output.to_staged, {{kArgFrom, conv_args[2].memory}, {kArgTo, output_staged}});
            if (ok && api.stream_wait(stream) != dnnl_success) ok = false;
            if (ok) reverse_rows(plan.output.geometry, reinterpret_cast<float *>(base + plan.output.staged_offset));
            execute(plan.output.reorder, {{kArgFrom, output_staged}, {kArgTo, output_user}});
        } else if (plan.output.reordered) {
            execute(plan.output.reorder, {{kArgFrom, conv_args[2].memory}, {kArgTo, output_user}});
        }
        if (stream != nullptr && api.stream_wait(stream) != dnnl_success) ok = false;
    }
    for (Memory m : memories) api.memory_destroy(m);
    if (stream != nullptr) api.stream_destroy(stream);
    if (!ok) {
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "oneDNN's %s convolution failed to run %s",
                    plan.implementation.c_str(), to_problem_string(problem).to_string().c_str());
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::host::conv
