// cudnnCreate/Set/Get/DestroyFilterDescriptor and cudnnGetFilterSizeInBytes.
#include "descriptors/filter.hpp"
#include "api/entry.hpp"
#include "descriptors/tensor.hpp"

#include <algorithm>

using librednn::Status;
using librednn::api::Call;

namespace {
const char *const kKcrsNames[CUDNN_DIM_MAX] = {"k", "c", "h", "w", "?", "?", "?", "?"};
}

cudnnStatus_t CUDNNWINAPI cudnnCreateFilterDescriptor(cudnnFilterDescriptor_t *filterDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("filterDesc", static_cast<const void *>(filterDesc));
        LIBREDNN_REQUIRE_NOT_NULL(filterDesc);
        *filterDesc = new cudnnFilterStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyFilterDescriptor(cudnnFilterDescriptor_t filterDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("filterDesc", filterDesc);
        delete filterDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetFilter4dDescriptor(cudnnFilterDescriptor_t filterDesc, cudnnDataType_t dataType,
                                                     cudnnTensorFormat_t format, int k, int c, int h, int w) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("filterDesc", filterDesc).arg("dataType", dataType).arg("format", format);
        call.arg("k", k).arg("c", c).arg("h", h).arg("w", w);
        LIBREDNN_REQUIRE_NOT_NULL(filterDesc);
        const int dims[4] = {k, c, h, w};
        return librednn::set_filter(filterDesc, dataType, format, 4, dims, kKcrsNames);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetFilter4dDescriptor(const cudnnFilterDescriptor_t filterDesc,
                                                     cudnnDataType_t *dataType, cudnnTensorFormat_t *format, int *k,
                                                     int *c, int *h, int *w) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("filterDesc", filterDesc).arg("dataType", static_cast<const void *>(dataType));
        call.arg("format", static_cast<const void *>(format)).arg("k", static_cast<const void *>(k));
        call.arg("c", static_cast<const void *>(c)).arg("h", static_cast<const void *>(h));
        call.arg("w", static_cast<const void *>(w));
        LIBREDNN_CHECK(librednn::require_filter_set(filterDesc, "filterDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(dataType);
        LIBREDNN_REQUIRE_NOT_NULL(format);
        LIBREDNN_REQUIRE_NOT_NULL(k);
        LIBREDNN_REQUIRE_NOT_NULL(c);
        LIBREDNN_REQUIRE_NOT_NULL(h);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        if (filterDesc->nb_dims != 4) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "filterDesc has %d dims (%s), cudnnGetFilter4dDescriptor needs 4; use "
                                  "cudnnGetFilterNdDescriptor",
                                  filterDesc->nb_dims, librednn::filter_to_string(*filterDesc).c_str());
        }
        *dataType = filterDesc->data_type;
        *format = filterDesc->format;
        *k = filterDesc->dims[0];
        *c = filterDesc->dims[1];
        *h = filterDesc->dims[2];
        *w = filterDesc->dims[3];
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetFilterNdDescriptor(cudnnFilterDescriptor_t filterDesc, cudnnDataType_t dataType,
                                                     cudnnTensorFormat_t format, int nbDims, const int filterDimA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("filterDesc", filterDesc).arg("dataType", dataType).arg("format", format).arg("nbDims", nbDims);
        call.array("filterDimA", filterDimA, nbDims, CUDNN_DIM_MAX);
        LIBREDNN_REQUIRE_NOT_NULL(filterDesc);
        LIBREDNN_CHECK(librednn::check_nb_dims(nbDims, "nbDims"));
        LIBREDNN_REQUIRE_NOT_NULL(filterDimA);
        return librednn::set_filter(filterDesc, dataType, format, nbDims, filterDimA);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetFilterNdDescriptor(const cudnnFilterDescriptor_t filterDesc, int nbDimsRequested,
                                                     cudnnDataType_t *dataType, cudnnTensorFormat_t *format,
                                                     int *nbDims, int filterDimA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("filterDesc", filterDesc).arg("nbDimsRequested", nbDimsRequested);
        call.arg("dataType", static_cast<const void *>(dataType)).arg("format", static_cast<const void *>(format));
        call.arg("nbDims", static_cast<const void *>(nbDims));
        call.arg("filterDimA", static_cast<const void *>(filterDimA));
        LIBREDNN_CHECK(librednn::require_filter_set(filterDesc, "filterDesc"));
        if (nbDimsRequested < 0) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "nbDimsRequested is %d, must not be negative",
                                  nbDimsRequested);
        }
        LIBREDNN_REQUIRE_NOT_NULL(dataType);
        LIBREDNN_REQUIRE_NOT_NULL(format);
        LIBREDNN_REQUIRE_NOT_NULL(nbDims);
        // filterDimA holds nbDimsRequested values; the first min(nbDimsRequested, nbDims) are written.
        const int count = std::min(nbDimsRequested, filterDesc->nb_dims);
        if (count > 0) LIBREDNN_REQUIRE_NOT_NULL(filterDimA);
        *dataType = filterDesc->data_type;
        *format = filterDesc->format;
        *nbDims = filterDesc->nb_dims;
        for (int i = 0; i < count; ++i) filterDimA[i] = filterDesc->dims[i];
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetFilterSizeInBytes(const cudnnFilterDescriptor_t filterDesc, size_t *size) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("filterDesc", filterDesc).arg("size", static_cast<const void *>(size));
        LIBREDNN_CHECK(librednn::require_filter_set(filterDesc, "filterDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(size);
        *size = librednn::filter_size_in_bytes(*filterDesc);
        return CUDNN_STATUS_SUCCESS;
    });
}
