// cudnnReorderFilterAndBias: cuDNN keeps INT8x32 filters (and their float bias) in a reordered layout
// for its IMPLICIT_PRECOMP_GEMM kernels: under CUDNN_DEFAULT_REORDER a convolution reorders the filter it
// is given on every call, under CUDNN_NO_REORDER it takes one this function already reordered. The
// layout is cuDNN's own (undocumented). LibreDNN's convolutions (host and CUDA) read INT8x32 filters as
// stored, so its reordered layout is the stored one: the call copies (both reorder types), and the
// convolutions read the filter the same under both reorder types.
#include "api/entry.hpp"
#include "core/cuda_failure.hpp"
#include "core/cuda_runtime.hpp"
#include "core/fault_injection.hpp"
#include "core/handle.hpp"
#include "descriptors/convolution.hpp"
#include "descriptors/filter.hpp"

#include <cstring>

using librednn::Status;
using librednn::api::Call;

namespace {

Status copy(const cudnnContext &handle, void *to, const void *from, size_t bytes) {
#if LIBREDNN_HAVE_CUDA
    if (handle.backend == librednn::Backend::cuda) {
        const cudaError_t err =
            LIBREDNN_CUDA_SITE(async_copy, cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, handle.stream));
        if (err != cudaSuccess) return librednn::cuda_failure(err, "copying the %zu bytes of the filter", bytes);
        return CUDNN_STATUS_SUCCESS;
    }
#endif
    if (to != from) std::memmove(to, from, bytes);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnReorderFilterAndBias(cudnnHandle_t handle, const cudnnFilterDescriptor_t filterDesc,
                                                    cudnnReorderType_t reorderType, const void *filterData,
                                                    void *reorderedFilterData, int reorderBias, const void *biasData,
                                                    void *reorderedBiasData) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("filterDesc", filterDesc).arg("reorderType", reorderType);
        call.arg("filterData", filterData).arg("reorderedFilterData", reorderedFilterData);
        call.arg("reorderBias", reorderBias).arg("biasData", biasData).arg("reorderedBiasData", reorderedBiasData);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_filter_set(filterDesc, "filterDesc"));
        LIBREDNN_CHECK(librednn::check_reorder_type(reorderType));
        if (filterDesc->data_type != CUDNN_DATA_INT8x32 || filterDesc->format != CUDNN_TENSOR_NCHW_VECT_C) {
            return librednn::fail(
                CUDNN_STATUS_BAD_PARAM,
                "filterDesc must hold CUDNN_DATA_INT8x32 in CUDNN_TENSOR_NCHW_VECT_C to be reordered");
        }
        LIBREDNN_REQUIRE_NOT_NULL(filterData);
        LIBREDNN_REQUIRE_NOT_NULL(reorderedFilterData);
        LIBREDNN_CHECK(copy(*handle, reorderedFilterData, filterData, librednn::filter_size_in_bytes(*filterDesc)));
        if (reorderBias) {
            LIBREDNN_REQUIRE_NOT_NULL(biasData);
            LIBREDNN_REQUIRE_NOT_NULL(reorderedBiasData);
            LIBREDNN_CHECK(
                copy(*handle, reorderedBiasData, biasData, static_cast<size_t>(filterDesc->dims[0]) * sizeof(float)));
        }
        return CUDNN_STATUS_SUCCESS;
    });
}
