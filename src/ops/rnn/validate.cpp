// The RNN rules.
#include "ops/rnn/validate.hpp"

#include "core/checked_math.hpp"
#include "ops/common/buffer_alignment.hpp"
#include "ops/common/type_rules.hpp"

#include <algorithm>
#include <climits>

namespace librednn {

Status validate_rnn_network(const RnnNetwork &net) {
    const int directions = net.bidirectional ? 2 : 1;
    if (net.layers > INT_MAX / directions)
        return fail(CUDNN_STATUS_BAD_PARAM, "numLayers is %d: with %d directions the pseudo-layers pass INT_MAX",
                    net.layers, directions);
    if (net.proj_size > INT_MAX / directions)
        return fail(CUDNN_STATUS_BAD_PARAM, "projSize is %d: with %d directions the output vector passes INT_MAX",
                    net.proj_size, directions);
    // The largest matrices: the input ones (hiddenSize x the widest layer input), the recurrent ones and
    // the projection (hiddenSize x projSize).
    const int64_t widest_input = std::max<int64_t>(net.input_size, int64_t{net.proj_size} * directions);
    const int64_t largest = int64_t{net.hidden_size} * std::max<int64_t>(widest_input, net.proj_size);
    if (largest > INT_MAX)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "a weight matrix of hiddenSize %d x %lld has %lld elements, more than the int strides of the "
                    "tensor describing it hold (cuDNN's 2 Giga-element limit, %d)",
                    net.hidden_size, static_cast<long long>(largest / net.hidden_size), static_cast<long long>(largest),
                    INT_MAX);
    if (rnn_weight_space_bytes(net) >= static_cast<size_t>(INT64_MAX))
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the weights of %d layers of hiddenSize %d need 2^63 bytes or more (numLayers, hiddenSize "
                    "and inputSize too large)",
                    net.layers, net.hidden_size);
    return CUDNN_STATUS_SUCCESS;
}

Status validate_rnn(const RnnProblem &p) {
    const RnnNetwork &net = p.net;
    if (net.data_type != CUDNN_DATA_FLOAT && net.data_type != CUDNN_DATA_DOUBLE && net.data_type != CUDNN_DATA_HALF)
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the RNN data type is %s; RNNs take half, float and double",
                    type_name(net.data_type));
    if (static_cast<int>(p.seq_lengths.size()) != p.batch_size)
        return fail(CUDNN_STATUS_BAD_PARAM, "%zu sequence lengths for a batch of %d", p.seq_lengths.size(),
                    p.batch_size);
    for (int n = 0; n < p.batch_size; ++n) {
        const int length = p.seq_lengths[static_cast<size_t>(n)];
        if (length < 0 || length > p.max_seq_length)
            return fail(CUDNN_STATUS_BAD_PARAM, "sequence %d has length %d, outside 0 to maxSeqLength %d", n, length,
                        p.max_seq_length);
        if (p.layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED && n > 0 && length > p.seq_lengths[n - 1u])
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "sequence %d (length %d) is longer than sequence %d (length %d): the packed layout needs "
                        "lengths in descending order",
                        n, length, n - 1, p.seq_lengths[n - 1u]);
    }
    if (net.skip_input && net.input_size != net.hidden_size)
        return fail(CUDNN_STATUS_BAD_PARAM, "CUDNN_SKIP_INPUT needs inputSize (%d) == hiddenSize (%d)", net.input_size,
                    net.hidden_size);
    if (net.proj_size < net.hidden_size && net.cell != CUDNN_LSTM)
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "a recurrent projection (projSize %d < hiddenSize %d) needs LSTM cells",
                    net.proj_size, net.hidden_size);
    if (!(p.dropout >= 0.0f && p.dropout <= 1.0f))
        return fail(CUDNN_STATUS_BAD_PARAM, "the dropout probability is %g", static_cast<double>(p.dropout));
    // Every work and reserve buffer is [T][N] rows of at most this many values (the reserve's blocks of
    // every pseudo-layer, two layer outputs, the widest layer input, W x + b_W), in 8-byte values at most:
    // beyond 2^60 bytes their sizes would wrap.
    const int64_t gates_hidden = int64_t{net.gates()} * net.hidden_size, y_size = p.y_size();
    int64_t row = saturating_mul(rnn_reserve_forward_block(net) + rnn_reserve_gradient_block(net), net.pseudo_layers());
    row = saturating_add(row, saturating_mul(2 * y_size, net.layers));
    row = saturating_add(row, std::max<int64_t>(net.input_size, y_size) + gates_hidden);
    const int64_t values = saturating_mul(saturating_mul(p.max_seq_length, p.batch_size), row);
    if (values > (int64_t{1} << 57))
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "maxSeqLength %d x batchSize %d steps of %lld values each (the reserve and work space of %d "
                    "pseudo-layers of hiddenSize %d) need more than 2^60 bytes",
                    p.max_seq_length, p.batch_size, static_cast<long long>(row), net.pseudo_layers(), net.hidden_size);
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const RnnProblem &p, const RnnBuffers &b) {
    const cudnnDataType_t type = p.net.data_type;
    LIBREDNN_CHECK(require_aligned({{"x", b.x, type},
                                    {"y", b.y, type},
                                    {"hx", b.hx, type},
                                    {"hy", b.hy, type},
                                    {"cx", b.cx, type},
                                    {"cy", b.cy, type},
                                    {"weightSpace", b.weights, type},
                                    {"dy", b.dy, type},
                                    {"dx", b.dx, type},
                                    {"dhy", b.dhy, type},
                                    {"dhx", b.dhx, type},
                                    {"dcy", b.dcy, type},
                                    {"dcx", b.dcx, type},
                                    {"dweightSpace", b.dweights, type}}));
    LIBREDNN_CHECK(require_space_aligned("reserveSpace", b.reserve));
    return require_space_aligned("the dropout descriptor's states", b.dropout_states);
}

}  // namespace librednn
