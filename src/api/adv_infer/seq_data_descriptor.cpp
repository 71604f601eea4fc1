// The sequence data descriptor's entry points: create, destroy, set and get.
#include "api/entry.hpp"
#include "core/data_type.hpp"
#include "descriptors/seq_data.hpp"

#include <algorithm>
#include <cstring>

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateSeqDataDescriptor(cudnnSeqDataDescriptor_t *seqDataDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("seqDataDesc", static_cast<const void *>(seqDataDesc));
        LIBREDNN_REQUIRE_NOT_NULL(seqDataDesc);
        *seqDataDesc = new cudnnSeqDataStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroySeqDataDescriptor(cudnnSeqDataDescriptor_t seqDataDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("seqDataDesc", seqDataDesc);
        delete seqDataDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetSeqDataDescriptor(cudnnSeqDataDescriptor_t seqDataDesc, cudnnDataType_t dataType,
                                                    int nbDims, const int dimA[], const cudnnSeqDataAxis_t axes[],
                                                    size_t seqLengthArraySize, const int seqLengthArray[],
                                                    void *paddingFill) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("seqDataDesc", static_cast<const void *>(seqDataDesc))
            .arg("dataType", dataType)
            .arg("nbDims", nbDims)
            .array("dimA", dimA, nbDims, CUDNN_SEQDATA_DIM_COUNT)
            .array("axes", axes, nbDims, CUDNN_SEQDATA_DIM_COUNT)
            .arg("seqLengthArraySize", seqLengthArraySize)
            .array("seqLengthArray", seqLengthArray, static_cast<long long>(seqLengthArraySize),
                   static_cast<long long>(seqLengthArraySize))
            .arg("paddingFill", static_cast<const void *>(paddingFill));
        LIBREDNN_REQUIRE_NOT_NULL(seqDataDesc);
        return librednn::set_seq_data(seqDataDesc, dataType, nbDims, dimA, axes, seqLengthArraySize, seqLengthArray,
                                      paddingFill);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetSeqDataDescriptor(const cudnnSeqDataDescriptor_t seqDataDesc,
                                                    cudnnDataType_t *dataType, int *nbDims, int nbDimsRequested,
                                                    int dimA[], cudnnSeqDataAxis_t axes[], size_t *seqLengthArraySize,
                                                    size_t seqLengthSizeRequested, int seqLengthArray[],
                                                    void *paddingFill) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("seqDataDesc", seqDataDesc)
            .arg("dataType", dataType)
            .arg("nbDims", nbDims)
            .arg("nbDimsRequested", nbDimsRequested)
            .arg("dimA", static_cast<const void *>(dimA))
            .arg("axes", static_cast<const void *>(axes))
            .arg("seqLengthArraySize", seqLengthArraySize)
            .arg("seqLengthSizeRequested", seqLengthSizeRequested)
            .arg("seqLengthArray", static_cast<const void *>(seqLengthArray))
            .arg("paddingFill", static_cast<const void *>(paddingFill));
        LIBREDNN_REQUIRE_NOT_NULL(seqDataDesc);
        if (nbDimsRequested < 0)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "nbDimsRequested is %d, must not be negative",
                                  nbDimsRequested);
        LIBREDNN_CHECK(librednn::require_seq_data_set(*seqDataDesc, "seqDataDesc"));
        // cuDNN documents every output as optional: a NULL pointer (or array) is simply not written.
        const cudnnSeqDataStruct &seq = *seqDataDesc;
        if (dataType != nullptr) *dataType = seq.data_type;
        if (nbDims != nullptr) *nbDims = CUDNN_SEQDATA_DIM_COUNT;
        const int dims_copied = std::min(nbDimsRequested, static_cast<int>(CUDNN_SEQDATA_DIM_COUNT));
        if (dimA != nullptr) std::copy(seq.dims, seq.dims + dims_copied, dimA);
        if (axes != nullptr) std::copy(seq.axes, seq.axes + dims_copied, axes);
        if (seqLengthArraySize != nullptr) *seqLengthArraySize = seq.seq_lengths.size();
        if (seqLengthArray != nullptr) {
            const size_t copied = std::min(seqLengthSizeRequested, seq.seq_lengths.size());
            std::copy(seq.seq_lengths.begin(), seq.seq_lengths.begin() + static_cast<std::ptrdiff_t>(copied),
                      seqLengthArray);
        }
        // The setter accepts no fill value, so the one reported is zero.
        if (paddingFill != nullptr) std::memset(paddingFill, 0, librednn::data_type_size(seq.data_type));
        return CUDNN_STATUS_SUCCESS;
    });
}
