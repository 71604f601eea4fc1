// oneDNN 2.x, opened at run time: the part of its C API the host backend calls, declared here from the
// 2.x ABI (no oneDNN header or library is needed to build), and the loader that dlopen()s libdnnl.so.2
// once. Where it cannot be loaded, or LIBREDNN_ONEDNN=0, api() says why and the host's own code runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace librednn::host::onednn {

// --- ABI facts of oneDNN 2.x (dnnl_types.h) --------------------------------------------------------------

using dnnl_status_t = int;
constexpr dnnl_status_t dnnl_success = 0;
constexpr dnnl_status_t dnnl_iterator_ends = 4;

using dnnl_data_type_t = int;
constexpr dnnl_data_type_t dnnl_f16 = 1;
constexpr dnnl_data_type_t dnnl_bf16 = 2;
constexpr dnnl_data_type_t dnnl_f32 = 3;

using dnnl_format_tag_t = int;
constexpr dnnl_format_tag_t dnnl_format_tag_any = 1;

using dnnl_prop_kind_t = int;
constexpr dnnl_prop_kind_t dnnl_forward_training = 64;
constexpr dnnl_prop_kind_t dnnl_forward_inference = 96;
constexpr dnnl_prop_kind_t dnnl_backward_data = 160;
constexpr dnnl_prop_kind_t dnnl_backward_weights = 192;

using dnnl_alg_kind_t = int;
constexpr dnnl_alg_kind_t dnnl_convolution_direct = 1;

using dnnl_query_t = int;
constexpr dnnl_query_t dnnl_query_impl_info_str = 8;
constexpr dnnl_query_t dnnl_query_src_md = 129;
constexpr dnnl_query_t dnnl_query_diff_src_md = 130;
constexpr dnnl_query_t dnnl_query_weights_md = 131;
constexpr dnnl_query_t dnnl_query_diff_weights_md = 132;
constexpr dnnl_query_t dnnl_query_dst_md = 133;
constexpr dnnl_query_t dnnl_query_diff_dst_md = 134;
constexpr dnnl_query_t dnnl_query_scratchpad_md = 136;

// Execution argument indices (DNNL_ARG_*).
constexpr int kArgSrc = 1, kArgFrom = 1;
constexpr int kArgDst = 17, kArgTo = 17;
constexpr int kArgWeights = 33;
constexpr int kArgScratchpad = 80;
constexpr int kArgDiffSrc = 129;
constexpr int kArgDiffDst = 145;
constexpr int kArgDiffWeights = 161;

constexpr int dnnl_cpu = 1;                   // dnnl_engine_kind_t
constexpr int dnnl_stream_default_flags = 1;  // dnnl_stream_flags_t
constexpr int dnnl_scratchpad_mode_user = 1;  // dnnl_scratchpad_mode_t

constexpr int kMaxNdims = 12;  // DNNL_MAX_NDIMS
using dnnl_dims_t = int64_t[kMaxNdims];

// dnnl_memory_desc_t and dnnl_convolution_desc_t are plain structs the caller owns; only their size and
// alignment matter here (the library fills and reads them).
struct alignas(8) dnnl_memory_desc_t {
    unsigned char bytes[696];
};
struct alignas(8) dnnl_convolution_desc_t {
    unsigned char bytes[5976];
};
static_assert(sizeof(dnnl_memory_desc_t) == 696, "oneDNN 2.x dnnl_memory_desc_t");
static_assert(sizeof(dnnl_convolution_desc_t) == 5976, "oneDNN 2.x dnnl_convolution_desc_t");

struct dnnl_exec_arg_t {
    int arg;
    void *memory;  // dnnl_memory_t
};
static_assert(sizeof(dnnl_exec_arg_t) == 16, "oneDNN 2.x dnnl_exec_arg_t");

struct dnnl_version_t {
    int major, minor, patch;
    const char *hash;
    unsigned cpu_runtime, gpu_runtime;
};

// Opaque handles.
using Engine = void *;
using Stream = void *;
using PrimitiveDesc = void *;
using PrimitiveDescIterator = void *;
using Primitive = void *;
using Memory = void *;
using Attr = void *;
using PostOps = void *;

// --- the entry points the host backend uses ---------------------------------------------------------------

struct Api {
    const dnnl_version_t *(*version)();
    dnnl_status_t (*engine_create)(Engine *, int kind, size_t index);
    dnnl_status_t (*stream_create)(Stream *, Engine, unsigned flags);
    dnnl_status_t (*stream_wait)(Stream);
    dnnl_status_t (*stream_destroy)(Stream);
    dnnl_status_t (*memory_desc_init_by_strides)(dnnl_memory_desc_t *, int ndims, const int64_t *dims, dnnl_data_type_t,
                                                 const int64_t *strides);
    dnnl_status_t (*memory_desc_init_by_tag)(dnnl_memory_desc_t *, int ndims, const int64_t *dims, dnnl_data_type_t,
                                             dnnl_format_tag_t);
    int (*memory_desc_equal)(const dnnl_memory_desc_t *, const dnnl_memory_desc_t *);
    size_t (*memory_desc_get_size)(const dnnl_memory_desc_t *);
    dnnl_status_t (*memory_create)(Memory *, const dnnl_memory_desc_t *, Engine, void *handle);
    dnnl_status_t (*memory_destroy)(Memory);
    dnnl_status_t (*dilated_convolution_forward_desc_init)(
        dnnl_convolution_desc_t *, dnnl_prop_kind_t, dnnl_alg_kind_t, const dnnl_memory_desc_t *src,
        const dnnl_memory_desc_t *weights, const dnnl_memory_desc_t *bias, const dnnl_memory_desc_t *dst,
        const int64_t *strides, const int64_t *dilates, const int64_t *padding_l, const int64_t *padding_r);
    dnnl_status_t (*dilated_convolution_backward_data_desc_init)(dnnl_convolution_desc_t *, dnnl_alg_kind_t,
                                                                 const dnnl_memory_desc_t *diff_src,
                                                                 const dnnl_memory_desc_t *weights,
                                                                 const dnnl_memory_desc_t *diff_dst,
                                                                 const int64_t *strides, const int64_t *dilates,
                                                                 const int64_t *padding_l, const int64_t *padding_r);
    dnnl_status_t (*dilated_convolution_backward_weights_desc_init)(
        dnnl_convolution_desc_t *, dnnl_alg_kind_t, const dnnl_memory_desc_t *src,
        const dnnl_memory_desc_t *diff_weights, const dnnl_memory_desc_t *diff_bias, const dnnl_memory_desc_t *diff_dst,
        const int64_t *strides, const int64_t *dilates, const int64_t *padding_l, const int64_t *padding_r);
    dnnl_status_t (*primitive_desc_iterator_create)(PrimitiveDescIterator *, const void *op_desc, Attr, Engine,
                                                    PrimitiveDesc hint_forward);
    dnnl_status_t (*primitive_desc_iterator_next)(PrimitiveDescIterator);
    PrimitiveDesc (*primitive_desc_iterator_fetch)(PrimitiveDescIterator);
    dnnl_status_t (*primitive_desc_iterator_destroy)(PrimitiveDescIterator);
    dnnl_status_t (*primitive_desc_query)(PrimitiveDesc, dnnl_query_t, int index, void *result);
    const dnnl_memory_desc_t *(*primitive_desc_query_md)(PrimitiveDesc, dnnl_query_t, int index);
    dnnl_status_t (*primitive_desc_destroy)(PrimitiveDesc);
    dnnl_status_t (*reorder_primitive_desc_create)(PrimitiveDesc *, const dnnl_memory_desc_t *src, Engine,
                                                   const dnnl_memory_desc_t *dst, Engine, Attr);
    dnnl_status_t (*primitive_create)(Primitive *, PrimitiveDesc);
    dnnl_status_t (*primitive_execute)(Primitive, Stream, int nargs, const dnnl_exec_arg_t *args);
    dnnl_status_t (*primitive_destroy)(Primitive);
    dnnl_status_t (*primitive_attr_create)(Attr *);
    dnnl_status_t (*primitive_attr_destroy)(Attr);
    dnnl_status_t (*primitive_attr_set_scratchpad_mode)(Attr, int mode);
    dnnl_status_t (*primitive_attr_set_output_scales)(Attr, int64_t count, int mask, const float *scales);
    dnnl_status_t (*primitive_attr_set_post_ops)(Attr, PostOps);
    dnnl_status_t (*post_ops_create)(PostOps *);
    dnnl_status_t (*post_ops_destroy)(PostOps);
    dnnl_status_t (*post_ops_append_sum)(PostOps, float scale);
    // From the OpenMP runtime libdnnl.so.2 runs on (Debian builds it with OpenMP), when present: how
    // many threads oneDNN's parallel regions use.
    int (*omp_get_max_threads)();
    void (*omp_set_num_threads)(int);

    Engine engine = nullptr;
    std::string description;  // "oneDNN 2.6.3 (libdnnl.so.2)"
};

// The loaded library, or nullptr with *why saying why not ("LIBREDNN_ONEDNN=0", "libdnnl.so.2 not
// found: ..."). Loads once per process, thread-safely; never unloads.
const Api *api(std::string *why);

// While alive, oneDNN's parallel regions started from this thread use LIBREDNN_HOST_THREADS threads
// (host_thread_count()); the thread's previous OpenMP setting comes back afterwards.
class ThreadScope {
public:
    explicit ThreadScope(const Api &api);
    ~ThreadScope();
    ThreadScope(const ThreadScope &) = delete;
    ThreadScope &operator=(const ThreadScope &) = delete;

private:
    const Api &api_;
    int previous_ = 0;
};

}  // namespace librednn::host::onednn
