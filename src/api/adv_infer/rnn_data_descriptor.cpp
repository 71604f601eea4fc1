// The RNN data descriptor's entry points: create, destroy, set and get.
#include "api/entry.hpp"
#include "core/data_type.hpp"
#include "descriptors/rnn_data.hpp"

#include <algorithm>
#include <cstring>

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateRNNDataDescriptor(cudnnRNNDataDescriptor_t *rnnDataDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDataDesc", static_cast<const void *>(rnnDataDesc));
        LIBREDNN_REQUIRE_NOT_NULL(rnnDataDesc);
        *rnnDataDesc = new cudnnRNNDataStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyRNNDataDescriptor(cudnnRNNDataDescriptor_t rnnDataDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDataDesc", rnnDataDesc);
        delete rnnDataDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetRNNDataDescriptor(cudnnRNNDataDescriptor_t rnnDataDesc, cudnnDataType_t dataType,
                                                    cudnnRNNDataLayout_t layout, int maxSeqLength, int batchSize,
                                                    int vectorSize, const int seqLengthArray[], void *paddingFill) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDataDesc", static_cast<const void *>(rnnDataDesc))
            .arg("dataType", dataType)
            .arg("layout", layout)
            .arg("maxSeqLength", maxSeqLength)
            .arg("batchSize", batchSize)
            .arg("vectorSize", vectorSize)
            .array("seqLengthArray", seqLengthArray, batchSize, batchSize)
            .arg("paddingFill", static_cast<const void *>(paddingFill));
        LIBREDNN_REQUIRE_NOT_NULL(rnnDataDesc);
        return librednn::set_rnn_data(rnnDataDesc, dataType, layout, maxSeqLength, batchSize, vectorSize,
                                      seqLengthArray, paddingFill);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNDataDescriptor(cudnnRNNDataDescriptor_t rnnDataDesc, cudnnDataType_t *dataType,
                                                    cudnnRNNDataLayout_t *layout, int *maxSeqLength, int *batchSize,
                                                    int *vectorSize, int arrayLengthRequested, int seqLengthArray[],
                                                    void *paddingFill) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("rnnDataDesc", rnnDataDesc)
            .arg("dataType", dataType)
            .arg("layout", layout)
            .arg("maxSeqLength", maxSeqLength)
            .arg("batchSize", batchSize)
            .arg("vectorSize", vectorSize)
            .arg("arrayLengthRequested", arrayLengthRequested)
            .arg("seqLengthArray", static_cast<const void *>(seqLengthArray))
            .arg("paddingFill", static_cast<const void *>(paddingFill));
        LIBREDNN_REQUIRE_NOT_NULL(rnnDataDesc);
        LIBREDNN_REQUIRE_NOT_NULL(dataType);
        LIBREDNN_REQUIRE_NOT_NULL(layout);
        LIBREDNN_REQUIRE_NOT_NULL(maxSeqLength);
        LIBREDNN_REQUIRE_NOT_NULL(batchSize);
        LIBREDNN_REQUIRE_NOT_NULL(vectorSize);
        LIBREDNN_REQUIRE_NOT_NULL(seqLengthArray);
        if (arrayLengthRequested < 0)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "arrayLengthRequested is %d, must not be negative",
                                  arrayLengthRequested);
        LIBREDNN_CHECK(librednn::require_rnn_data_set(*rnnDataDesc, "rnnDataDesc"));
        const cudnnRNNDataStruct &data = *rnnDataDesc;
        *dataType = data.data_type;
        *layout = data.layout;
        *maxSeqLength = data.max_seq_length;
        *batchSize = data.batch_size;
        *vectorSize = data.vector_size;
        const int copied = std::min(arrayLengthRequested, data.batch_size);
        std::copy(data.seq_lengths.begin(), data.seq_lengths.begin() + copied, seqLengthArray);
        // paddingFill is optional: one value of dataType (zero when the setter got none).
        if (paddingFill != nullptr)
            std::memcpy(paddingFill, data.padding_fill, librednn::data_type_size(data.data_type));
        return CUDNN_STATUS_SUCCESS;
    });
}
