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
    LIBREDNN_CHECK(validate_rnn_network(n));
    *net = n;
    return CUDNN_STATUS_SUCCESS;
}

namespace {

// What every forward problem takes from the RNN descriptor besides the network: the mode, dropout and
// clipping; then the states the call passes (v8: one descriptor for h, one for c) and cuDNN's rules.
Status finish_problem(const cudnnRNNStruct &rnn, bool training, const RnnStates &states, RnnProblem *p) {
    p->training = training;
    if (rnn.dropout != nullptr && rnn.dropout->is_set) p->dropout = rnn.dropout->probability;
    p->clipping = rnn.clip_mode != CUDNN_RNN_CLIP_NONE && p->net.cell == CUDNN_LSTM;
    if (p->clipping) {
        p->lclip = rnn.lclip;
        p->rclip = rnn.rclip;
        p->clip_propagate_nan = rnn.clip_nan_opt == CUDNN_PROPAGATE_NAN;
    }
    const bool lstm = p->net.cell == CUDNN_LSTM;
    p->has_hx = states.has_hx;
    p->has_hy = states.has_hy;
    p->has_cx = lstm && states.has_cx;
    p->has_cy = lstm && states.has_cy;
    if (p->has_hx || p->has_hy) LIBREDNN_CHECK(check_state(states.h, "hDesc", p->net, p->batch_size, p->net.proj_size));
    if (p->has_cx || p->has_cy)
        LIBREDNN_CHECK(check_state(states.c, "cDesc", p->net, p->batch_size, p->net.hidden_size));
    return validate_rnn(*p);
}

// The problem of RNN data descriptors x and y (NULL: not given) for `net`.
Status data_problem_of(const cudnnRNNStruct &rnn, const RnnNetwork &net, bool training, const cudnnRNNDataStruct &x,
                       const cudnnRNNDataStruct *y, const RnnStates &states, RnnProblem *problem) {
    RnnProblem p;
    p.net = net;
    if (x.data_type != p.net.data_type)
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc holds %s, the RNN descriptor's dataType is %s",
                    type_name(x.data_type), type_name(p.net.data_type));
    if (x.vector_size != p.net.input_size)
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc's vectorSize is %d, the RNN descriptor's inputSize %d",
                    x.vector_size, p.net.input_size);
    if (y != nullptr) {
        LIBREDNN_CHECK(require_rnn_data_set(*y, "yDesc"));
        LIBREDNN_CHECK(check_same_data(x, *y));
        const int width = p.net.proj_size * p.net.directions();
        if (y->vector_size != width)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "yDesc's vectorSize is %d; the network writes %d (projSize %d times %d direction%s)",
                        y->vector_size, width, p.net.proj_size, p.net.directions(), p.net.bidirectional ? "s" : "");
        p.padding_fill = rnn_data_padding_value(*y);
    }
    p.layout = x.layout;
    p.max_seq_length = x.max_seq_length;
    p.batch_size = x.batch_size;
    p.seq_lengths = x.seq_lengths;
    LIBREDNN_CHECK(finish_problem(rnn, training, states, &p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

// One legacy per-step tensor: set, 3-d or more, {batch, width, 1, ...}, fully packed, of `type`.
Status check_step(const cudnnTensorStruct *desc, const char *array, int t, cudnnDataType_t type, int width,
                  int *batch) {
    if (desc == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "%s[%d] is NULL", array, t);
    if (!desc->is_set) return fail(CUDNN_STATUS_BAD_PARAM, "%s[%d] has not been set", array, t);
    bool shaped = desc->nb_dims >= 3 && desc->dims[1] == width && desc->strides[1] == 1 && desc->strides[0] == width;
    for (int d = 2; shaped && d < desc->nb_dims; ++d) shaped = desc->dims[d] == 1;
    if (!shaped)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s[%d] is %s; it must be a fully packed {batch, %d, 1}", array, t,
                    tensor_to_string(*desc).c_str(), width);
    if (desc->data_type != type)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s[%d] holds %s, %s[0] %s: every step must hold the same type", array, t,
                    type_name(desc->data_type), array, type_name(type));
    *batch = desc->dims[0];
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

Status rnn_forward_problem_of(const cudnnRNNStruct *rnn, cudnnForwardMode_t mode, const cudnnRNNDataStruct *x,
                              const cudnnRNNDataStruct *y, const RnnStates &states, RnnProblem *problem) {
    RnnNetwork net;
    LIBREDNN_CHECK(rnn_network_of(rnn, &net));
    if (mode != CUDNN_FWD_MODE_INFERENCE && mode != CUDNN_FWD_MODE_TRAINING)
        return fail(CUDNN_STATUS_BAD_PARAM, "fwdMode is %d, not CUDNN_FWD_MODE_INFERENCE or CUDNN_FWD_MODE_TRAINING",
                    static_cast<int>(mode));
    if (x == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "xDesc is NULL");
    LIBREDNN_CHECK(require_rnn_data_set(*x, "xDesc"));
    return data_problem_of(*rnn, net, mode == CUDNN_FWD_MODE_TRAINING, *x, y, states, problem);
}

Status rnn_dropout_states_of(const cudnnRNNStruct &rnn, const RnnProblem &problem, void **states) {
    *states = nullptr;
    if (!problem.dropout_between_layers()) return CUDNN_STATUS_SUCCESS;
    if (rnn.dropout->states == nullptr)
        return fail(
            CUDNN_STATUS_BAD_PARAM,
            "the RNN descriptor's dropout descriptor has probability %g but no states (cudnnSetDropoutDescriptor "
            "was called with states NULL); dropout between layers in training draws from them",
            static_cast<double>(problem.dropout));
    *states = rnn.dropout->states;
    return CUDNN_STATUS_SUCCESS;
}

Status rnn_legacy_network_of(const cudnnRNNStruct *rnn, int input_size, cudnnDataType_t data_type, const char *what,
                             RnnNetwork *net) {
    if (rnn == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "rnnDesc is NULL");
    LIBREDNN_CHECK(require_rnn_set(*rnn, "rnnDesc"));
    if (rnn->set_by_v6) {
        // The legacy setter knows neither: they are the data's.
        cudnnRNNStruct with_data = *rnn;
        if (rnn->input_mode == CUDNN_SKIP_INPUT && input_size != rnn->hidden_size)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "%s's vectors have %d values but inputMode is CUDNN_SKIP_INPUT, which needs hiddenSize (%d)",
                        what, input_size, rnn->hidden_size);
        if (data_type != CUDNN_DATA_HALF && data_type != CUDNN_DATA_FLOAT && data_type != CUDNN_DATA_DOUBLE)
            return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s holds %s; RNNs take half, float and double", what,
                        type_name(data_type));
        if (!rnn_math_precision_fits(data_type, rnn->math_prec))
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "%s holds %s but the descriptor's mathPrec is %s; half data computes in half or float, "
                        "float data in float, double data in double",
                        what, type_name(data_type), type_name(rnn->math_prec));
        with_data.input_size = input_size;
        with_data.data_type = data_type;
        return rnn_network_of(&with_data, net);
    }
    LIBREDNN_CHECK(rnn_network_of(rnn, net));
    if (data_type != net->data_type)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s holds %s, the RNN descriptor's dataType is %s", what,
                    type_name(data_type), type_name(net->data_type));
    if (input_size != net->input_size)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s's vectors have %d values, the RNN descriptor's inputSize is %d", what,
                    input_size, net->input_size);
    return CUDNN_STATUS_SUCCESS;
}

Status rnn_legacy_problem_of(const cudnnRNNStruct *rnn, bool training, int seq_length,
                             const cudnnTensorStruct *const *x, const char *x_name, const cudnnTensorStruct *const *y,
                             const char *y_name, RnnProblem *problem) {
    if (rnn == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "rnnDesc is NULL");
    if (seq_length < 1) return fail(CUDNN_STATUS_BAD_PARAM, "seqLength is %d, must be at least 1", seq_length);
    if (x == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "%s is NULL", x_name);
    if (x[0] == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "%s[0] is NULL", x_name);
    if (!x[0]->is_set || x[0]->nb_dims < 3)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s[0] is %s; it must be a fully packed {batch, inputSize, 1}", x_name,
                    tensor_to_string(*x[0]).c_str());
    RnnProblem p;
    const std::string first = std::string(x_name) + "[0]";
    LIBREDNN_CHECK(rnn_legacy_network_of(rnn, x[0]->dims[1], x[0]->data_type, first.c_str(), &p.net));
    p.layout = CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED;
    p.max_seq_length = seq_length;
    std::vector<int> batches(static_cast<size_t>(seq_length));
    for (int t = 0; t < seq_length; ++t) {
        int &batch = batches[static_cast<size_t>(t)];
        LIBREDNN_CHECK(check_step(x[t], x_name, t, p.net.data_type, p.net.input_size, &batch));
        if (t > 0 && batch > batches[t - 1u])
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "%s[%d] has a batch of %d, more than %s[%d]'s %d: the batch may only shrink from step to step",
                        x_name, t, batch, x_name, t - 1, batches[t - 1u]);
    }
    if (y != nullptr) {
        for (int t = 0; t < seq_length; ++t) {
            int batch = 0;
            LIBREDNN_CHECK(check_step(y[t], y_name, t, p.net.data_type, p.y_size(), &batch));
            if (batch != batches[static_cast<size_t>(t)])
                return fail(CUDNN_STATUS_BAD_PARAM, "%s[%d] has a batch of %d, %s[%d] %d: they must be the same",
                            y_name, t, batch, x_name, t, batches[static_cast<size_t>(t)]);
        }
    }
    // Sequence n lasts as long as the steps' batches exceed n: the batches never grow, so the sequences from
    // batches[t + 1] up to batches[t] last t + 1 steps. The problem keeps a length a sequence on the host, which the
    // caller of the legacy API never wrote out (unlike the v8 API's seqLengthArray): a batch from a descriptor's dims
    // alone (2^30 made a size query allocate 4 GB and count for minutes) is refused past kMaxLegacyRnnBatch.
    p.batch_size = batches[0];
    if (p.batch_size > kMaxLegacyRnnBatch)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "%s[0] has a batch of %d sequences; LibreDNN's legacy RNN API takes at most %d (a length a "
                    "sequence kept on the host)",
                    x_name, p.batch_size, kMaxLegacyRnnBatch);
    p.seq_lengths.assign(static_cast<size_t>(p.batch_size), 0);
    for (int t = 0; t < seq_length; ++t) {
        const int longer = t + 1 < seq_length ? batches[static_cast<size_t>(t) + 1] : 0;
        for (int n = longer; n < batches[static_cast<size_t>(t)]; ++n) p.seq_lengths[static_cast<size_t>(n)] = t + 1;
    }
    LIBREDNN_CHECK(finish_problem(*rnn, training, RnnStates{}, &p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

Status rnn_ex_problem_of(const cudnnRNNStruct *rnn, bool training, const cudnnRNNDataStruct *x,
                         const cudnnRNNDataStruct *y, RnnProblem *problem) {
    if (rnn == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "rnnDesc is NULL");
    if (x == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "xDesc is NULL");
    LIBREDNN_CHECK(require_rnn_data_set(*x, "xDesc"));
    RnnNetwork net;
    LIBREDNN_CHECK(rnn_legacy_network_of(rnn, x->vector_size, x->data_type, "xDesc", &net));
    return data_problem_of(*rnn, net, training, *x, y, RnnStates{}, problem);
}

Status apply_rnn_states(std::initializer_list<RnnStateTensor> tensors, RnnProblem *problem) {
    RnnProblem &p = *problem;
    const bool lstm = p.net.cell == CUDNN_LSTM;
    for (const RnnStateTensor &tensor : tensors) {
        const bool cell = tensor.state == RnnState::cx || tensor.state == RnnState::cy;
        if (tensor.data == nullptr || (cell && !lstm)) continue;
        LIBREDNN_CHECK(
            check_state(tensor.desc, tensor.name, p.net, p.batch_size, cell ? p.net.hidden_size : p.net.proj_size));
        switch (tensor.state) {
            case RnnState::hx: p.has_hx = true; break;
            case RnnState::cx: p.has_cx = true; break;
            case RnnState::hy: p.has_hy = true; break;
            case RnnState::cy: p.has_cy = true; break;
        }
    }
    return CUDNN_STATUS_SUCCESS;
}

Status check_rnn_weight_filter(const cudnnFilterStruct *filter, const char *name, const RnnNetwork &net) {
    LIBREDNN_CHECK(require_filter_set(filter, name));
    if (filter->data_type != net.data_type)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s holds %s, the network's data type is %s", name,
                    type_name(filter->data_type), type_name(net.data_type));
    const size_t needed = rnn_weight_space_bytes(net);
    if (filter_size_in_bytes(*filter) < needed)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s (%s) holds %zu bytes, the network's weights need %zu (cudnnGetRNNParamsSize)", name,
                    filter_to_string(*filter).c_str(), filter_size_in_bytes(*filter), needed);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
