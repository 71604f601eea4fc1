// Loading oneDNN 2.x at run time: dlopen() once, look up every entry point the host backend calls, and
// create the CPU engine; any failure leaves the host backend on its own code, with the reason kept.
#include "host/common/onednn.hpp"

#include "core/logging.hpp"
#include "host/common/parallel.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace librednn::host::onednn {

namespace {

struct Loaded {
    Api api{};
    bool ok = false;
    std::string why;
};

// Finds `name` in the library (or the libraries it loaded, for the OpenMP calls) into `slot`.
template <class F>
bool find(void *handle, const char *name, F *slot, std::string *missing) {
    *slot = reinterpret_cast<F>(dlsym(handle, name));
    if (*slot != nullptr) return true;
    if (!missing->empty()) *missing += ", ";
    *missing += name;
    return false;
}

Loaded load() {
    Loaded loaded;
    const char *setting = std::getenv("LIBREDNN_ONEDNN");
    if (setting != nullptr && std::strcmp(setting, "0") == 0) {
        loaded.why = "switched off by LIBREDNN_ONEDNN=0";
        return loaded;
    }
    // The versioned name first: libdnnl.so (the development link) may point at an incompatible 3.x.
    const char *names[] = {"libdnnl.so.2", "libdnnl.so"};
    void *handle = nullptr;
    std::string errors;
    for (const char *name : names) {
        handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (handle != nullptr) {
            loaded.api.description = name;
            break;
        }
        const char *error = dlerror();
        errors += std::string(errors.empty() ? "" : "; ") + (error ? error : name);
    }
    if (handle == nullptr) {
        loaded.why = "oneDNN could not be loaded (" + errors + "); Debian and Ubuntu ship it as libdnnl2";
        return loaded;
    }
    Api &a = loaded.api;
    std::string missing;
    find(handle, "dnnl_version", &a.version, &missing);
    if (a.version != nullptr && a.version()->major != 2) {
        loaded.why =
            a.description + " is oneDNN " + std::to_string(a.version()->major) + ".x; LibreDNN calls the 2.x API";
        return loaded;  // never unloaded: other code in the process may hold it too
    }
    find(handle, "dnnl_engine_create", &a.engine_create, &missing);
    find(handle, "dnnl_stream_create", &a.stream_create, &missing);
    find(handle, "dnnl_stream_wait", &a.stream_wait, &missing);
    find(handle, "dnnl_stream_destroy", &a.stream_destroy, &missing);
    find(handle, "dnnl_memory_desc_init_by_strides", &a.memory_desc_init_by_strides, &missing);
    find(handle, "dnnl_memory_desc_init_by_tag", &a.memory_desc_init_by_tag, &missing);
    find(handle, "dnnl_memory_desc_equal", &a.memory_desc_equal, &missing);
    find(handle, "dnnl_memory_desc_get_size", &a.memory_desc_get_size, &missing);
    find(handle, "dnnl_memory_create", &a.memory_create, &missing);
    find(handle, "dnnl_memory_destroy", &a.memory_destroy, &missing);
    find(handle, "dnnl_dilated_convolution_forward_desc_init", &a.dilated_convolution_forward_desc_init, &missing);
    find(handle, "dnnl_dilated_convolution_backward_data_desc_init", &a.dilated_convolution_backward_data_desc_init,
         &missing);
    find(handle, "dnnl_dilated_convolution_backward_weights_desc_init",
         &a.dilated_convolution_backward_weights_desc_init, &missing);
    find(handle, "dnnl_primitive_desc_iterator_create", &a.primitive_desc_iterator_create, &missing);
    find(handle, "dnnl_primitive_desc_iterator_next", &a.primitive_desc_iterator_next, &missing);
    find(handle, "dnnl_primitive_desc_iterator_fetch", &a.primitive_desc_iterator_fetch, &missing);
    find(handle, "dnnl_primitive_desc_iterator_destroy", &a.primitive_desc_iterator_destroy, &missing);
    find(handle, "dnnl_primitive_desc_query", &a.primitive_desc_query, &missing);
    find(handle, "dnnl_primitive_desc_query_md", &a.primitive_desc_query_md, &missing);
    find(handle, "dnnl_primitive_desc_destroy", &a.primitive_desc_destroy, &missing);
    find(handle, "dnnl_reorder_primitive_desc_create", &a.reorder_primitive_desc_create, &missing);
    find(handle, "dnnl_primitive_create", &a.primitive_create, &missing);
    find(handle, "dnnl_primitive_execute", &a.primitive_execute, &missing);
    find(handle, "dnnl_primitive_destroy", &a.primitive_destroy, &missing);
    find(handle, "dnnl_primitive_attr_create", &a.primitive_attr_create, &missing);
    find(handle, "dnnl_primitive_attr_destroy", &a.primitive_attr_destroy, &missing);
    find(handle, "dnnl_primitive_attr_set_scratchpad_mode", &a.primitive_attr_set_scratchpad_mode, &missing);
    find(handle, "dnnl_primitive_attr_set_output_scales", &a.primitive_attr_set_output_scales, &missing);
    find(handle, "dnnl_primitive_attr_set_post_ops", &a.primitive_attr_set_post_ops, &missing);
    find(handle, "dnnl_post_ops_create", &a.post_ops_create, &missing);
    find(handle, "dnnl_post_ops_destroy", &a.post_ops_destroy, &missing);
    find(handle, "dnnl_post_ops_append_sum", &a.post_ops_append_sum, &missing);
    if (!missing.empty()) {
        loaded.why = a.description + " lacks " + missing;
        return loaded;
    }
    // Optional: a oneDNN built on another threading runtime has no OpenMP below it, and then sets its
    // own thread count.
    std::string no_openmp;
    find(handle, "omp_get_max_threads", &a.omp_get_max_threads, &no_openmp);
    find(handle, "omp_set_num_threads", &a.omp_set_num_threads, &no_openmp);
    if (a.omp_get_max_threads == nullptr || a.omp_set_num_threads == nullptr) {
        a.omp_get_max_threads = nullptr;
        a.omp_set_num_threads = nullptr;
    }
    if (a.engine_create(&a.engine, dnnl_cpu, 0) != dnnl_success) {
        loaded.why = a.description + " could not create its CPU engine";
        return loaded;
    }
    const dnnl_version_t *v = a.version();
    a.description = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                    std::to_string(v->patch) + " (" + a.description + ")";
    loaded.ok = true;
    return loaded;
}

}  // namespace

const Api *api(std::string *why) {
    static std::once_flag once;
    static Loaded *loaded = nullptr;  // never freed: the engine lives as long as the process
    std::call_once(once, [] {
        loaded = new Loaded(load());
        // Once per process and library, where dispatch is logged (as DispatchLog writes it).
        const std::string text = loaded->ok
                                     ? "LibreDNN host backend: float, bfloat16 and half convolutions on " +
                                           loaded->api.description + ", other convolutions on LibreDNN's own solvers"
                                     : "LibreDNN host backend: oneDNN not used (" + loaded->why +
                                           "): convolutions on LibreDNN's own solvers";
        if (log_enabled(CUDNN_SEV_INFO)) {
            log_info(text);
        } else if (environment_flag("LIBREDNN_LOG_DISPATCH")) {
            std::fprintf(stderr, "%s\n", text.c_str());
        }
    });
    if (loaded->ok) return &loaded->api;
    if (why != nullptr) *why = loaded->why;
    return nullptr;
}

ThreadScope::ThreadScope(const Api &api) : api_(api) {
    if (api_.omp_set_num_threads == nullptr) return;
    previous_ = api_.omp_get_max_threads();
    api_.omp_set_num_threads(host_thread_count());
}

ThreadScope::~ThreadScope() {
    if (api_.omp_set_num_threads != nullptr) api_.omp_set_num_threads(previous_);
}

}  // namespace librednn::host::onednn
