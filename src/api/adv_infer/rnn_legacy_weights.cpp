// The legacy API's weight calls: cudnnGetRNNParamsSize and cudnnGetRNNLinLayerMatrixParams /
// cudnnGetRNNLinLayerBiasParams, on the same layout as cudnnGetRNNWeightSpaceSize and
// cudnnGetRNNWeightParams (docs/RNN.md), the same on every backend.
#include "api/entry.hpp"
#include "api/rnn_problem.hpp"
#include "core/data_type.hpp"
#include "ops/common/type_rules.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

// The network of a legacy call's xDesc (one step's input, {batch, inputSize, 1}).
Status network_of(cudnnRNNDescriptor_t rnn, cudnnTensorDescriptor_t x, librednn::RnnNetwork *net) {
    if (rnn == nullptr) return librednn::fail(CUDNN_STATUS_BAD_PARAM, "rnnDesc is NULL");
    if (x == nullptr) return librednn::fail(CUDNN_STATUS_BAD_PARAM, "xDesc is NULL");
    LIBREDNN_CHECK(librednn::require_tensor_set(x, "xDesc"));
    if (x->nb_dims < 2)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM, "xDesc is %s; it must be {batch, inputSize, 1}",
                              librednn::tensor_to_string(*x).c_str());
    return librednn::api::rnn_legacy_network_of(rnn, x->dims[1], x->data_type, "xDesc", net);
}

// A matrix or bias of the weight space as the legacy API describes it: a 3-d NCHW filter {1, rows, cols}
// (a bias {1, rows, 1}), the shape cudnnGetRNNWeightParams gives its tensor descriptors; the address the
// same as that call's. `matrix` picks the matrix or the bias of linLayerID.
Status lin_layer_params(cudnnRNNDescriptor_t rnnDesc, int pseudoLayer, cudnnTensorDescriptor_t xDesc,
                        cudnnFilterDescriptor_t wDesc, const void *w, int linLayerID, bool matrix,
                        cudnnFilterDescriptor_t desc, void **address) {
    librednn::RnnNetwork net;
    LIBREDNN_CHECK(network_of(rnnDesc, xDesc, &net));
    LIBREDNN_CHECK(librednn::api::check_rnn_weight_filter(wDesc, "wDesc", net));
    if (pseudoLayer < 0 || pseudoLayer >= net.pseudo_layers())
        return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                              "pseudoLayer is %d; the network has %d (numLayers %d times %d direction%s)", pseudoLayer,
                              net.pseudo_layers(), net.layers, net.directions(), net.bidirectional ? "s" : "");
    // As cudnnGetRNNWeightParams: an LSTM always has linLayerID 8 (the projection), NULL without one.
    const int ids = net.cell == CUDNN_LSTM ? 9 : net.lin_layer_ids();
    if (linLayerID < 0 || linLayerID >= ids)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM, "linLayerID is %d; this cell has linLayerIDs 0 to %d", linLayerID,
                              ids - 1);
    LIBREDNN_REQUIRE_NOT_NULL(w);
    LIBREDNN_REQUIRE_NOT_NULL(address);
    const librednn::RnnWeightEntry entry = matrix ? librednn::rnn_matrix_entry(net, pseudoLayer, linLayerID)
                                                  : librednn::rnn_bias_entry(net, pseudoLayer, linLayerID);
    // An absent matrix or bias gets a NULL address; its descriptor is left as it was.
    if (!entry.present) {
        *address = nullptr;
        return CUDNN_STATUS_SUCCESS;
    }
    const int dims[3] = {1, entry.rows, entry.cols};
    LIBREDNN_CHECK(librednn::set_filter(desc, net.data_type, CUDNN_TENSOR_NCHW, 3, dims));
    const auto *base = static_cast<const unsigned char *>(w);
    *address = const_cast<unsigned char *>(base + entry.offset * librednn::data_type_size(net.data_type));
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetRNNParamsSize(cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc,
                                                const cudnnTensorDescriptor_t xDesc, size_t *sizeInBytes,
                                                cudnnDataType_t dataType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("xDesc", xDesc);
        call.arg("sizeInBytes", static_cast<const void *>(sizeInBytes)).arg("dataType", dataType);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::RnnNetwork net;
        LIBREDNN_CHECK(network_of(rnnDesc, xDesc, &net));
        if (dataType != net.data_type)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "dataType is %s, xDesc holds %s: they must agree",
                                  librednn::type_name(dataType), librednn::type_name(net.data_type));
        *sizeInBytes = librednn::rnn_weight_space_bytes(net);
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNLinLayerMatrixParams(cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc,
                                                          const int pseudoLayer, const cudnnTensorDescriptor_t xDesc,
                                                          const cudnnFilterDescriptor_t wDesc, const void *w,
                                                          const int linLayerID, cudnnFilterDescriptor_t linLayerMatDesc,
                                                          void **linLayerMat) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("pseudoLayer", pseudoLayer).arg("xDesc", xDesc);
        call.arg("wDesc", wDesc).arg("w", w).arg("linLayerID", linLayerID);
        call.arg("linLayerMatDesc", static_cast<const void *>(linLayerMatDesc));
        call.arg("linLayerMat", static_cast<const void *>(linLayerMat));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(linLayerMatDesc);
        return lin_layer_params(rnnDesc, pseudoLayer, xDesc, wDesc, w, linLayerID, true, linLayerMatDesc, linLayerMat);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNLinLayerBiasParams(cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc,
                                                        const int pseudoLayer, const cudnnTensorDescriptor_t xDesc,
                                                        const cudnnFilterDescriptor_t wDesc, const void *w,
                                                        const int linLayerID, cudnnFilterDescriptor_t linLayerBiasDesc,
                                                        void **linLayerBias) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("pseudoLayer", pseudoLayer).arg("xDesc", xDesc);
        call.arg("wDesc", wDesc).arg("w", w).arg("linLayerID", linLayerID);
        call.arg("linLayerBiasDesc", static_cast<const void *>(linLayerBiasDesc));
        call.arg("linLayerBias", static_cast<const void *>(linLayerBias));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(linLayerBiasDesc);
        return lin_layer_params(rnnDesc, pseudoLayer, xDesc, wDesc, w, linLayerID, false, linLayerBiasDesc,
                                linLayerBias);
    });
}
