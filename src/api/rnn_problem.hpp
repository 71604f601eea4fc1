// The problem builders the RNN entry points share: the network of an RNN descriptor and the forward
// problem of its data and state descriptors (the v8 API's RNN data descriptors, the legacy API's arrays
// of per-step tensor descriptors), validated, with cuDNN's statuses and one log line each.
#pragma once

#include "descriptors/filter.hpp"
#include "descriptors/rnn.hpp"
#include "descriptors/rnn_data.hpp"
#include "descriptors/tensor.hpp"
#include "ops/rnn/problem.hpp"

#include <initializer_list>

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

// The dropout states a training forward of `problem` draws its mask from (RnnBuffers::dropout_states):
// the RNN descriptor's dropout descriptor's, NULL when the problem has no dropout between layers.
// BAD_PARAM when it has and the dropout descriptor has no states (set with states NULL).
Status rnn_dropout_states_of(const cudnnRNNStruct &rnn, const RnnProblem &problem, void **states);

// ---- The legacy API ------------------------------------------------------------------------------------

// The network for a legacy call whose input vectors are `input_size` wide and of `data_type`: a descriptor
// set by cudnnSetRNNDescriptor_v6 takes both from the data (its mathPrec must suit the type), one set by
// cudnnSetRNNDescriptor_v8 must agree with them (BAD_PARAM naming `what`, "xDesc[0]", otherwise).
Status rnn_legacy_network_of(const cudnnRNNStruct *rnn, int input_size, cudnnDataType_t data_type, const char *what,
                             RnnNetwork *net);

// The forward problem of the legacy calls (cudnnRNNForwardInference ...): `seq_length` tensor
// descriptors x[t], each {batch_t, inputSize, 1} and fully packed, batch_t never growing with t, are the
// packed sequence-major layout (sequence n lasts while batch_t > n); y[t] (unless `y` is NULL) must be
// {batch_t, projSize * directions, 1}. `x_name`, `y_name` name the arrays in messages. No state is
// passed yet: apply_rnn_states adds them. A batch above kMaxLegacyRnnBatch is NOT_SUPPORTED (the problem keeps a
// length a sequence, built from the batches).
constexpr int kMaxLegacyRnnBatch = 1 << 24;
Status rnn_legacy_problem_of(const cudnnRNNStruct *rnn, bool training, int seq_length,
                             const cudnnTensorStruct *const *x, const char *x_name, const cudnnTensorStruct *const *y,
                             const char *y_name, RnnProblem *problem);

// The forward problem of the Ex calls (cudnnRNNForwardInferenceEx ...): as rnn_forward_problem_of, with the
// network of rnn_legacy_network_of (a v6 descriptor takes inputSize and the data type from x), no state.
Status rnn_ex_problem_of(const cudnnRNNStruct *rnn, bool training, const cudnnRNNDataStruct *x,
                         const cudnnRNNDataStruct *y, RnnProblem *problem);

// One state tensor of a legacy call, which has a descriptor for each: hx and dhx stand for the problem's
// hx, hy and dhy for its hy, and the same for c. Passed (data not NULL), its descriptor must be
// [layers * directions, batch, projSize (h) or hiddenSize (c)], packed, of the network's type. The c
// states of a cell other than LSTM are ignored.
enum class RnnState { hx, cx, hy, cy };
struct RnnStateTensor {
    RnnState state;
    const cudnnTensorStruct *desc;
    const char *name;  // "hxDesc"
    const void *data;  // NULL: not passed
};
Status apply_rnn_states(std::initializer_list<RnnStateTensor> tensors, RnnProblem *problem);

// The legacy API's weight filter (wDesc, dwDesc): set, of the network's data type, and at least as large as
// the weight space (cudnnGetRNNParamsSize); BAD_PARAM naming `name` otherwise.
Status check_rnn_weight_filter(const cudnnFilterStruct *filter, const char *name, const RnnNetwork &net);

}  // namespace librednn::api
