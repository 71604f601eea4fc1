// cudnnGetRNNWeightSpaceSize and cudnnGetRNNWeightParams: LibreDNN's weight-space layout
// (ops/rnn/problem.hpp, docs/RNN.md), the same on every backend.
#include "api/entry.hpp"
#include "api/rnn_problem.hpp"
#include "core/data_type.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

// A 3-d {1, rows, cols} packed descriptor, as cuDNN describes one matrix or bias ({1, rows, 1}).
Status describe_entry(cudnnTensorStruct *desc, cudnnDataType_t type, const librednn::RnnWeightEntry &entry) {
    const int dims[3] = {1, entry.rows, entry.cols};
    const int strides[3] = {entry.rows * entry.cols, entry.cols, 1};
    return librednn::set_tensor_strided(desc, type, 3, dims, strides);
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetRNNWeightSpaceSize(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                                     size_t *weightSpaceSize) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("weightSpaceSize", static_cast<const void *>(weightSpaceSize));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(weightSpaceSize);
        librednn::RnnNetwork net;
        LIBREDNN_CHECK(librednn::api::rnn_network_of(rnnDesc, &net));
        *weightSpaceSize = librednn::rnn_weight_space_bytes(net);
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNWeightParams(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                                  int32_t pseudoLayer, size_t weightSpaceSize, const void *weightSpace,
                                                  int32_t linLayerID, cudnnTensorDescriptor_t mDesc, void **mAddr,
                                                  cudnnTensorDescriptor_t bDesc, void **bAddr) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("pseudoLayer", pseudoLayer);
        call.arg("weightSpaceSize", weightSpaceSize).arg("weightSpace", weightSpace).arg("linLayerID", linLayerID);
        call.arg("mDesc", mDesc).arg("mAddr", static_cast<const void *>(mAddr));
        call.arg("bDesc", bDesc).arg("bAddr", static_cast<const void *>(bAddr));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnNetwork net;
        LIBREDNN_CHECK(librednn::api::rnn_network_of(rnnDesc, &net));
        if (pseudoLayer < 0 || pseudoLayer >= net.pseudo_layers())
            return librednn::fail(
                CUDNN_STATUS_BAD_PARAM, "pseudoLayer is %d; the network has %d (numLayers %d times %d direction%s)",
                pseudoLayer, net.pseudo_layers(), net.layers, net.directions(), net.bidirectional ? "s" : "");
        // An LSTM always has linLayerID 8 (the projection); without one it answers NULL, as NVIDIA's does.
        const int ids = net.cell == CUDNN_LSTM ? 9 : net.lin_layer_ids();
        if (linLayerID < 0 || linLayerID >= ids)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "linLayerID is %d; this cell has linLayerIDs 0 to %d",
                                  linLayerID, ids - 1);
        const size_t needed = librednn::rnn_weight_space_bytes(net);
        if (weightSpaceSize < needed)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "weightSpaceSize is %zu, the network's weights need %zu (cudnnGetRNNWeightSpaceSize)",
                                  weightSpaceSize, needed);
        LIBREDNN_REQUIRE_NOT_NULL(weightSpace);
        const size_t element = librednn::data_type_size(net.data_type);
        const auto *base = static_cast<const unsigned char *>(weightSpace);
        const librednn::RnnWeightEntry matrix = librednn::rnn_matrix_entry(net, pseudoLayer, linLayerID);
        const librednn::RnnWeightEntry bias = librednn::rnn_bias_entry(net, pseudoLayer, linLayerID);
        // An absent matrix or bias gets a NULL address; its descriptor is left as it was.
        if (mDesc != nullptr && matrix.present) LIBREDNN_CHECK(describe_entry(mDesc, net.data_type, matrix));
        if (bDesc != nullptr && bias.present) LIBREDNN_CHECK(describe_entry(bDesc, net.data_type, bias));
        if (mAddr != nullptr)
            *mAddr = matrix.present ? const_cast<unsigned char *>(base + matrix.offset * element) : nullptr;
        if (bAddr != nullptr)
            *bAddr = bias.present ? const_cast<unsigned char *>(base + bias.offset * element) : nullptr;
        return CUDNN_STATUS_SUCCESS;
    });
}
