// RNN problems: the weight-space and reserve layouts, data offsets, and the problem string both ways.
#include "ops/rnn/problem.hpp"

#include "core/checked_math.hpp"
#include "core/data_type.hpp"
#include "ops/common/problem_tensors.hpp"

#include <algorithm>

namespace librednn {

namespace {

const char *const kCellNames[] = {"relu", "tanh", "lstm", "gru"};
const char *const kBiasNames[] = {"none", "single_inp", "double", "single_rec"};
const char *const kLayoutNames[] = {"seq_major_unpacked", "seq_major_packed", "batch_major_unpacked"};
const char *const kAlgoNames[] = {"standard", "persist_static", "persist_dynamic", "persist_static_small_h"};
const char *const kMathTypeNames[] = {"default", "tensor_op", "tensor_op_allow_conversion", "fma"};

bool read_enum(const ProblemString &text, const char *key, const char *const *names, int count, const char *fallback,
               int *value, std::string *error) {
    std::string word;
    if (!text.get(key, &word, fallback, error)) return false;
    if (!enum_from_name(word, names, count, value)) {
        *error = std::string(key) + "=" + word + " is not one of its values";
        return false;
    }
    return true;
}

bool read_positive(const ProblemString &text, const char *key, int64_t fallback, int *value, std::string *error) {
    int64_t v = 0;
    if (!text.get_int(key, &v, fallback, error)) return false;
    if (v <= 0 || v > (int64_t{1} << 30)) {
        *error = std::string(key) + " must be positive";
        return false;
    }
    *value = static_cast<int>(v);
    return true;
}

}  // namespace

int RnnNetwork::gates() const {
    switch (cell) {
        case CUDNN_LSTM: return 4;
        case CUDNN_GRU: return 3;
        default: return 1;
    }
}

int RnnNetwork::lin_layer_ids() const { return 2 * gates() + (cell == CUDNN_LSTM && projection() ? 1 : 0); }

int RnnNetwork::layer_input_size(int pseudo_layer) const {
    return pseudo_layer < directions() ? input_size : proj_size * directions();
}

namespace {

// The matrix shape of linLayerID `id` in `pseudo_layer`, and whether it exists.
RnnWeightEntry matrix_shape(const RnnNetwork &net, int pseudo_layer, int id) {
    RnnWeightEntry e;
    const int g = net.gates();
    if (id < 0 || id >= net.lin_layer_ids()) return e;
    if (id < g) {
        if (net.skip_input && pseudo_layer < net.directions()) return e;
        e = {true, 0, net.hidden_size, net.layer_input_size(pseudo_layer)};
    } else if (id < 2 * g) {
        e = {true, 0, net.hidden_size, net.proj_size};
    } else {
        e = {true, 0, net.proj_size, net.hidden_size};  // the recurrent projection
    }
    return e;
}

bool bias_present(const RnnNetwork &net, int id) {
    const int g = net.gates();
    if (id < 0 || id >= 2 * g) return false;  // the projection has no bias
    switch (net.bias_mode) {
        case CUDNN_RNN_NO_BIAS: return false;
        case CUDNN_RNN_SINGLE_INP_BIAS: return id < g;
        case CUDNN_RNN_SINGLE_REC_BIAS: return id >= g;
        default: return true;
    }
}

// Elements of the matrices of one pseudo-layer.
int64_t pseudo_layer_matrices(const RnnNetwork &net, int pseudo_layer) {
    int64_t total = 0;
    for (int id = 0; id < net.lin_layer_ids(); ++id)
        total = saturating_add(total, matrix_shape(net, pseudo_layer, id).elements());
    return total;
}

// Elements of the matrices of pseudo-layers 0 ... pseudo_layer - 1, saturating at INT64_MAX. Only the
// first layer's pseudo-layers differ (their input); the later ones are alike, so the count is a product,
// not a walk over numLayers (which may be 2^30).
int64_t matrices_before(const RnnNetwork &net, int pseudo_layer) {
    const int first = std::min(pseudo_layer, net.directions());
    const int64_t later = pseudo_layer - first;
    const int64_t before_later = saturating_mul(first, pseudo_layer_matrices(net, 0));
    if (later == 0) return before_later;
    return saturating_add(before_later, saturating_mul(later, pseudo_layer_matrices(net, net.directions())));
}

// Bias vectors a pseudo-layer has.
int biases_per_pseudo_layer(const RnnNetwork &net) {
    int count = 0;
    for (int id = 0; id < net.lin_layer_ids(); ++id) count += bias_present(net, id) ? 1 : 0;
    return count;
}

}  // namespace

RnnWeightEntry rnn_matrix_entry(const RnnNetwork &net, int pseudo_layer, int id) {
    RnnWeightEntry e = matrix_shape(net, pseudo_layer, id);
    if (!e.present || pseudo_layer < 0 || pseudo_layer >= net.pseudo_layers()) return RnnWeightEntry{};
    e.offset = matrices_before(net, pseudo_layer);
    for (int before = 0; before < id; ++before) e.offset += matrix_shape(net, pseudo_layer, before).elements();
    return e;
}

RnnWeightEntry rnn_bias_entry(const RnnNetwork &net, int pseudo_layer, int id) {
    if (!bias_present(net, id) || pseudo_layer < 0 || pseudo_layer >= net.pseudo_layers()) return RnnWeightEntry{};
    // After every matrix of every pseudo-layer.
    RnnWeightEntry e{true, matrices_before(net, net.pseudo_layers()), net.hidden_size, 1};
    e.offset += static_cast<int64_t>(pseudo_layer) * biases_per_pseudo_layer(net) * net.hidden_size;
    for (int before = 0; before < id; ++before)
        if (bias_present(net, before)) e.offset += net.hidden_size;
    return e;
}

int64_t rnn_weight_elements(const RnnNetwork &net) {
    const int64_t biases = saturating_mul(int64_t{net.pseudo_layers()} * biases_per_pseudo_layer(net), net.hidden_size);
    return saturating_add(matrices_before(net, net.pseudo_layers()), biases);
}

size_t rnn_weight_space_bytes(const RnnNetwork &net) {
    return static_cast<size_t>(
        saturating_mul(rnn_weight_elements(net), static_cast<int64_t>(data_type_size(net.data_type))));
}

cudnnDataType_t rnn_compute_type(const RnnNetwork &net) {
    return net.data_type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
}

int64_t rnn_data_offset(const RnnProblem &p, int vector_size, int t, int n, int i) {
    const int64_t v = vector_size;
    switch (p.layout) {
        case CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED: return (static_cast<int64_t>(t) * p.batch_size + n) * v + i;
        case CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED:
            return (static_cast<int64_t>(n) * p.max_seq_length + t) * v + i;
        case CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED: {
            // Time step t holds the sequences longer than t, in batch order (lengths descend).
            if (t >= p.seq_lengths[n]) return -1;
            int64_t row = 0;
            for (int s = 0; s < t; ++s)
                for (int b = 0; b < p.batch_size; ++b) row += p.seq_lengths[b] > s ? 1 : 0;
            for (int b = 0; b < n; ++b) row += p.seq_lengths[b] > t ? 1 : 0;
            return row * v + i;
        }
    }
    return -1;
}

int64_t rnn_data_elements(const RnnProblem &p, int vector_size) {
    if (p.layout != CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED)
        return static_cast<int64_t>(p.max_seq_length) * p.batch_size * vector_size;
    int64_t rows = 0;
    for (int length : p.seq_lengths) rows += length;
    return rows * vector_size;
}

int64_t rnn_reserve_forward_block(const RnnNetwork &net) {
    int64_t block = static_cast<int64_t>(net.gates()) * net.hidden_size;
    if (net.cell == CUDNN_LSTM) block += net.hidden_size;
    if (net.projection()) block += net.hidden_size;
    return block;
}

int64_t rnn_reserve_gradient_block(const RnnNetwork &net) {
    return 2 * static_cast<int64_t>(net.gates()) * net.hidden_size + (net.projection() ? net.proj_size : 0);
}

int64_t rnn_reserve_gradient_start(const RnnProblem &p) {
    const RnnNetwork &net = p.net;
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
    return steps *
           (rnn_reserve_forward_block(net) * net.pseudo_layers() + static_cast<int64_t>(p.y_size()) * net.layers);
}

int64_t rnn_reserve_dropout_start(const RnnProblem &p) {
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
    return rnn_reserve_gradient_start(p) + steps * rnn_reserve_gradient_block(p.net) * p.net.pseudo_layers();
}

int64_t rnn_reserve_elements(const RnnProblem &p) {
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
    const int64_t masks = p.dropout_between_layers() ? steps * p.y_size() * (p.net.layers - 1) : 0;
    return rnn_reserve_dropout_start(p) + masks;
}

size_t rnn_reserve_bytes(const RnnProblem &p) {
    return static_cast<size_t>(rnn_reserve_elements(p)) * data_type_size(rnn_compute_type(p.net));
}

bool RnnProblem::operator==(const RnnProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const RnnProblem &p) {
    ProblemString out;
    out.set("op", "rnn");
    out.set("dir", p.direction == RnnDirection::forward         ? "fwd"
                   : p.direction == RnnDirection::backward_data ? "bwd_data"
                                                                : "bwd_weights");
    out.set("cell", kCellNames[p.net.cell]);
    out.set("algo", kAlgoNames[p.net.algo]);
    out.set("dirs", p.net.directions());
    out.set("layers", p.net.layers);
    out.set("input", p.net.input_size);
    out.set("hidden", p.net.hidden_size);
    out.set("proj", p.net.proj_size);
    out.set("input_mode", p.net.skip_input ? "skip" : "linear");
    out.set("bias", kBiasNames[p.net.bias_mode]);
    out.set("dtype", data_type_short_name(p.net.data_type));
    out.set("math", data_type_short_name(p.net.math_prec));
    out.set("math_type", kMathTypeNames[p.net.math_type]);
    out.set("layout", kLayoutNames[p.layout]);
    out.set("seq", p.max_seq_length);
    out.set("batch", p.batch_size);
    out.set_dims("lengths", std::vector<int64_t>(p.seq_lengths.begin(), p.seq_lengths.end()));
    out.set("fill", p.padding_fill);
    out.set("train", p.training ? "yes" : "no");
    if (p.dropout != 0.0f) out.set("dropout", static_cast<double>(p.dropout));
    if (p.clipping) {
        out.set("clip", "yes");
        out.set("lclip", p.lclip);
        out.set("rclip", p.rclip);
        out.set("clip_nan", p.clip_propagate_nan ? "propagate" : "not_propagate");
    }
    out.set("hx", p.has_hx ? "yes" : "no");
    out.set("cx", p.has_cx ? "yes" : "no");
    out.set("hy", p.has_hy ? "yes" : "no");
    out.set("cy", p.has_cy ? "yes" : "no");
    return out;
}

bool parse_rnn_problem(const ProblemString &text, RnnProblem *problem, std::string *error) {
    RnnProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "rnn") {
        *error = "op=" + value + " is not an RNN problem (op=rnn)";
        return false;
    }
    if (!text.get("dir", &value, "fwd", error)) return false;
    if (value == "fwd") {
        p.direction = RnnDirection::forward;
    } else if (value == "bwd_data") {
        p.direction = RnnDirection::backward_data;
    } else if (value == "bwd_weights") {
        p.direction = RnnDirection::backward_weights;
    } else {
        *error = "dir=" + value + " must be fwd, bwd_data or bwd_weights";
        return false;
    }
    int cell = 0, bias = 0, layout = 0, dirs = 1, algo = 0, math_type = 0;
    if (!read_enum(text, "cell", kCellNames, 4, "lstm", &cell, error) ||
        !read_enum(text, "algo", kAlgoNames, 4, "standard", &algo, error) ||
        !read_enum(text, "math_type", kMathTypeNames, 4, "default", &math_type, error) ||
        !read_enum(text, "bias", kBiasNames, 4, "double", &bias, error) ||
        !read_enum(text, "layout", kLayoutNames, 3, "seq_major_unpacked", &layout, error))
        return false;
    p.net.cell = static_cast<cudnnRNNMode_t>(cell);
    p.net.bias_mode = static_cast<cudnnRNNBiasMode_t>(bias);
    p.net.algo = static_cast<cudnnRNNAlgo_t>(algo);
    p.net.math_type = static_cast<cudnnMathType_t>(math_type);
    p.layout = static_cast<cudnnRNNDataLayout_t>(layout);
    if (!read_positive(text, "dirs", 1, &dirs, error) || !read_positive(text, "layers", 1, &p.net.layers, error) ||
        !read_positive(text, "input", 1, &p.net.input_size, error) ||
        !read_positive(text, "hidden", 1, &p.net.hidden_size, error) ||
        !read_positive(text, "proj", p.net.hidden_size, &p.net.proj_size, error) ||
        !read_positive(text, "seq", 1, &p.max_seq_length, error) ||
        !read_positive(text, "batch", 1, &p.batch_size, error))
        return false;
    if (dirs > 2) {
        *error = "dirs must be 1 or 2";
        return false;
    }
    p.net.bidirectional = dirs == 2;
    if (!text.get("input_mode", &value, "linear", error)) return false;
    if (value != "linear" && value != "skip") {
        *error = "input_mode=" + value + " must be linear or skip";
        return false;
    }
    p.net.skip_input = value == "skip";
    if (!text.get("dtype", &value, "float", error)) return false;
    if (!data_type_from_short_name(value, &p.net.data_type)) {
        *error = "dtype=" + value + " is not a data type";
        return false;
    }
    if (!text.get("math", &value, p.net.data_type == CUDNN_DATA_DOUBLE ? "double" : "float", error)) return false;
    if (!data_type_from_short_name(value, &p.net.math_prec)) {
        *error = "math=" + value + " is not a data type";
        return false;
    }
    std::vector<int64_t> lengths;
    if (text.has("lengths")) {
        if (!text.get_dims("lengths", &lengths, error)) return false;
    } else {
        lengths.assign(static_cast<size_t>(p.batch_size), p.max_seq_length);
    }
    if (lengths.size() != static_cast<size_t>(p.batch_size)) {
        *error = "lengths must hold batch values";
        return false;
    }
    for (int64_t length : lengths) {
        if (length < 0 || length > p.max_seq_length) {
            *error = "lengths must lie between 0 and seq";
            return false;
        }
        p.seq_lengths.push_back(static_cast<int>(length));
    }
    double number = 0;
    if (!text.get_double("fill", &p.padding_fill, 0.0, error) || !text.get_double("dropout", &number, 0.0, error))
        return false;
    p.dropout = static_cast<float>(number);
    if (!read_yes_no(text, "train", &p.training, error) || !read_yes_no(text, "clip", &p.clipping, error) ||
        !read_yes_no(text, "hx", &p.has_hx, error) || !read_yes_no(text, "cx", &p.has_cx, error) ||
        !read_yes_no(text, "hy", &p.has_hy, error) || !read_yes_no(text, "cy", &p.has_cy, error))
        return false;
    if (!text.get_double("lclip", &p.lclip, 0.0, error) || !text.get_double("rclip", &p.rclip, 0.0, error) ||
        !text.get("clip_nan", &value, "not_propagate", error))
        return false;
    if (value != "propagate" && value != "not_propagate") {
        *error = "clip_nan=" + value + " must be propagate or not_propagate";
        return false;
    }
    p.clip_propagate_nan = value == "propagate";
    if (!(p.lclip <= p.rclip)) {
        *error = "lclip must not exceed rclip";
        return false;
    }
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

}  // namespace librednn
