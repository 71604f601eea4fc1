// RNN descriptors to validated problems.
#include "api/rnn_problem.hpp"

#include "core/enum_names.gen.hpp"
#include "descriptors/dropout.hpp"
#include "ops/common/type_rules.hpp"
#include "ops/rnn/validate.hpp"

namespace librednn::api {

namespace {

Status check_state(const cudnnTensorStruct *desc, const char *name, const RnnNetwork &net, int batch, int width) {
    if (desc == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "%s is NULL but its state is passed", name);
    LIBREDNN_CHECK(require_tensor_set(desc, name));
    const int expected[3] = {net.pseudo_layers(), batch, width};
    bool same = desc->nb_dims == 3;
    for (int i = 0; same && i < 3; ++i) same = desc->dims[i] == expected[i];
    if (!same)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s; the network needs %dx%dx%d (layers * directions, batch, %s)",
                    name, tensor_to_string(*desc).c_str(), expected[0], expected[1], expected[2],
                    width == net.proj_size ? "projSize" : "hiddenSize");
    if (desc->strides[2] != 1 || desc->strides[1] != width || desc->strides[0] != batch * width)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s must be fully packed, its strides are %dx%dx%d", name, desc->strides[0],
                    desc->strides[1], desc->strides[2]);
    if (desc->data_type != net.data_type)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s holds %s, the RNN descriptor's dataType is %s", name,
                    type_name(desc->data_type), type_name(net.data_type));
    return CUDNN_STATUS_SUCCESS;
}

Status check_same_data(const cudnnRNNDataStruct &x, const cudnnRNNDataStruct &y) {
    if (x.data_type != y.data_type)
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc holds %s and yDesc %s: they must agree", type_name(x.data_type),
                    type_name(y.data_type));
    if (x.layout != y.layout || x.max_seq_length != y.max_seq_length || x.batch_size != y.batch_size)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "xDesc (%s) and yDesc (%s) must have the same layout, maxSeqLength and batchSize",
                    rnn_data_to_string(x).c_str(), rnn_data_to_string(y).c_str());
    for (int n = 0; n < x.batch_size; ++n)
        if (x.seq_lengths[static_cast<size_t>(n)] != y.seq_lengths[static_cast<size_t>(n)])
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "sequence %d has length %d in xDesc and %d in yDesc: the lengths must be the same", n,
                        x.seq_lengths[static_cast<size_t>(n)], y.seq_lengths[static_cast<size_t>(n)]);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

Status rnn_network_of(const cudnnRNNStruct *rnn, RnnNetwork *net) {
    if (rnn == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "rnnDesc is NULL");
    LIBREDNN_CHECK(require_rnn_set(*rnn, "rnnDesc"));
    if (rnn->input_size <= 0)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "rnnDesc was set by cudnnSetRNNDescriptor_v6 with CUDNN_LINEAR_INPUT and has no input size; the "
                    "v8 calls need cudnnSetRNNDescriptor_v8");
    RnnNetwork n;
    n.cell = rnn->cell_mode;
    n.bidirectional = rnn->dir_mode == CUDNN_BIDIRECTIONAL;
    n.layers = rnn->num_layers;
    n.input_size = rnn->input_size;
    n.hidden_size = rnn->hidden_size;
    n.proj_size = rnn->proj_size > 0 ? rnn->proj_size : rnn->hidden_size;
    n.skip_input = rnn->input_mode == CUDNN_SKIP_INPUT;
    n.bias_mode = rnn->bias_mode;
    n.data_type = rnn->data_type;
    n.math_prec = rnn->math_prec;
    n.algo = rnn->algo;
    n.math_type = rnn->math_type;
    *net = n;
    return CUDNN_STATUS_SUCCESS;
}

Status rnn_forward_problem_of(const cudnnRNNStruct *rnn, cudnnForwardMode_t mode, const cudnnRNNDataStruct *x,
                              const cudnnRNNDataStruct *y, const RnnStates &states, RnnProblem *problem) {
    RnnProblem p;
    LIBREDNN_CHECK(rnn_network_of(rnn, &p.net));
    if (mode != CUDNN_FWD_MODE_INFERENCE && mode != CUDNN_FWD_MODE_TRAINING)
        return fail(CUDNN_STATUS_BAD_PARAM, "fwdMode is %d, not CUDNN_FWD_MODE_INFERENCE or CUDNN_FWD_MODE_TRAINING",
                    static_cast<int>(mode));
    if (x == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "xDesc is NULL");
    LIBREDNN_CHECK(require_rnn_data_set(*x, "xDesc"));
    if (x->data_type != p.net.data_type)
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc holds %s, the RNN descriptor's dataType is %s",
                    type_name(x->data_type), type_name(p.net.data_type));
    if (x->vector_size != p.net.input_size)
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc's vectorSize is %d, the RNN descriptor's inputSize %d",
                    x->vector_size, p.net.input_size);
    if (y != nullptr) {
        LIBREDNN_CHECK(require_rnn_data_set(*y, "yDesc"));
        LIBREDNN_CHECK(check_same_data(*x, *y));
        const int width = p.net.proj_size * p.net.directions();
        if (y->vector_size != width)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "yDesc's vectorSize is %d; the network writes %d (projSize %d times %d direction%s)",
                        y->vector_size, width, p.net.proj_size, p.net.directions(), p.net.bidirectional ? "s" : "");
        p.padding_fill = rnn_data_padding_value(*y);
    }
    p.training = mode == CUDNN_FWD_MODE_TRAINING;
    if (rnn->dropout != nullptr && rnn->dropout->is_set) p.dropout = rnn->dropout->probability;
    p.clipping = rnn->clip_mode != CUDNN_RNN_CLIP_NONE && p.net.cell == CUDNN_LSTM;
    p.layout = x->layout;
    p.max_seq_length = x->max_seq_length;
    p.batch_size = x->batch_size;
    p.seq_lengths = x->seq_lengths;
    const bool lstm = p.net.cell == CUDNN_LSTM;
    p.has_hx = states.has_hx;
    p.has_hy = states.has_hy;
    p.has_cx = lstm && states.has_cx;
    p.has_cy = lstm && states.has_cy;
    if (p.has_hx || p.has_hy) LIBREDNN_CHECK(check_state(states.h, "hDesc", p.net, p.batch_size, p.net.proj_size));
    if (p.has_cx || p.has_cy) LIBREDNN_CHECK(check_state(states.c, "cDesc", p.net, p.batch_size, p.net.hidden_size));
    LIBREDNN_CHECK(validate_rnn(p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
