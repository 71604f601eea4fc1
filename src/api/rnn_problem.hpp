// The problem builders the v8 RNN entry points share: the network of an RNN descriptor and the forward
// problem of its data and state descriptors, validated, with cuDNN's statuses and one log line each.
#pragma once

#include "descriptors/rnn.hpp"
#include "descriptors/rnn_data.hpp"
#include "descriptors/tensor.hpp"
#include "ops/rnn/problem.hpp"

namespace librednn::api {

// The network an RNN descriptor describes: BAD_PARAM when it is NULL, unset, or a legacy (v6)
// descriptor that does not know its input size.
Status rnn_network_of(const cudnnRNNStruct *rnn, RnnNetwork *net);

// The forward problem of xDesc (and yDesc, unless NULL: cudnnGetRNNTempSpaceSizes has none): the data
// descriptors must agree with each other and the network (BAD_PARAM naming what differs); hDesc and
// cDesc (checked when the state they describe is passed: has_h, has_c) must be
// [layers * directions, batch, projSize or hiddenSize], packed, of the network's type.
struct RnnStates {
    const cudnnTensorStruct *h = nullptr;
    bool has_hx = false, has_hy = false;
    const cudnnTensorStruct *c = nullptr;
    bool has_cx = false, has_cy = false;
};
Status rnn_forward_problem_of(const cudnnRNNStruct *rnn, cudnnForwardMode_t mode, const cudnnRNNDataStruct *x,
                              const cudnnRNNDataStruct *y, const RnnStates &states, RnnProblem *problem);

}  // namespace librednn::api
