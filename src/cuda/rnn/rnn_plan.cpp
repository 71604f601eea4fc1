// The CUDA RNN passes' shared plan: workspace pieces, weight and reserve places, the sequence tables.
#include "cuda/rnn/rnn_plan.hpp"

#include "cuda/common/gemm_simt.hpp"
#include "cuda/rnn/rnn_cluster_backward.hpp"
#include "cuda/rnn/rnn_products.hpp"
#include "ops/common/dispatch.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace librednn::cuda {

namespace {

size_t align_up(size_t bytes) { return (bytes + 255) & ~size_t{255}; }

}  // namespace

RnnCudaWorkspace rnn_cuda_workspace(const RnnProblem &p) {
    const RnnNetwork &net = p.net;
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
    const int64_t H = net.hidden_size, P = net.proj_size, gH = net.gates() * H;
    // Every piece a whole number of 8 elements: each starts 32-byte aligned where the workspace does (the kernels'
    // 16- and 32-byte copies).
    const auto whole = [](int64_t elements) { return (elements + 7) / 8 * 8; };
    RnnCudaWorkspace w;
    w.weights = whole(rnn_weight_elements(net));
    w.sequences = whole(rnn_turned_row(steps) * std::max<int64_t>(net.input_size, p.y_size()));
    w.gates = whole(rnn_turned_row(steps) * gH);
    // Forward: h, the new h, c, full h, pre-activations. Backward data: dh, dc, d(full h), d(previous h),
    // the step's recurrent gate gradients, the previous h, the GRU's R_h h + b, its z * dh.
    w.state_per_sequence = std::max(2 * P + 2 * H + gH, 3 * P + 4 * H + gH);
    w.state = whole(static_cast<int64_t>(p.batch_size) * w.state_per_sequence);
    // A step's products have batch rows and at most gates * hidden columns; larger batches fill the GPU
    // without splitting k. Backward data's cluster kernel exchanges two steps' gate gradients there.
    if (p.batch_size <= 64)
        w.split = whole(std::max(kGemmMaxSplit * static_cast<int64_t>(p.batch_size) * gH,
                                 rnn_cluster_backward_exchange_elements(net)));
    if (net.cell == CUDNN_GRU && !p.inference() && rnn_tf32_input_gradient_wanted(p)) w.rounded = whole(steps * gH);
    const size_t element = net.data_type == CUDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
    w.table_offset =
        align_up(static_cast<size_t>(w.weights + 2 * w.sequences + w.gates + w.state + w.split + w.rounded) * element);
    w.maxima_offset = align_up(w.table_offset + align_up(sizeof(int) * static_cast<size_t>(p.batch_size)) +
                               sizeof(int64_t) * static_cast<size_t>(steps));
    const size_t maxima_end = w.maxima_offset + kRnnOperandMaxima * sizeof(uint32_t);
    w.product_offset = align_up(maxima_end);
    w.product_bytes = rnn_product_workspace_bytes(p);
    w.bytes = w.product_bytes > 0 ? w.product_offset + w.product_bytes : maxima_end;
    return w;
}

Status rnn_upload_tables(cudaStream_t stream, const RnnProblem &p, int *lengths, int64_t *rows) {
    const int T = p.max_seq_length, N = p.batch_size;
    std::vector<int64_t> table(static_cast<size_t>(T) * N, -1);
    int64_t packed = 0;
    for (int t = 0; t < T; ++t)
        for (int n = 0; n < N; ++n) {
            const bool valid = t < p.seq_lengths[static_cast<size_t>(n)];
            int64_t row = -1;
            switch (p.layout) {
                case CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED: row = static_cast<int64_t>(t) * N + n; break;
                case CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED: row = static_cast<int64_t>(n) * T + t; break;
                default: row = valid ? packed++ : -1; break;  // step t holds the sequences longer than t
            }
            table[static_cast<size_t>(t) * N + n] = row;
        }
    cudaError_t error = cudaMemcpyAsync(lengths, p.seq_lengths.data(), sizeof(int) * static_cast<size_t>(N),
                                        cudaMemcpyHostToDevice, stream);
    if (error == cudaSuccess)
        error = cudaMemcpyAsync(rows, table.data(), sizeof(int64_t) * table.size(), cudaMemcpyHostToDevice, stream);
    if (error != cudaSuccess)
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "copying the RNN's sequence tables to the GPU failed: %s",
                    cudaGetErrorString(error));
    return CUDNN_STATUS_SUCCESS;
}

bool rnn_has_short_sequences(const RnnProblem &p) {
    return std::any_of(p.seq_lengths.begin(), p.seq_lengths.end(),
                       [&](int length) { return length < p.max_seq_length; });
}

RnnLayerPlaces rnn_layer_places(const RnnNetwork &net, int pseudo_layer) {
    const int g = net.gates();
    RnnLayerPlaces places;
    const RnnWeightEntry w = rnn_matrix_entry(net, pseudo_layer, 0), r = rnn_matrix_entry(net, pseudo_layer, g);
    const RnnWeightEntry projection = rnn_matrix_entry(net, pseudo_layer, 2 * g);
    const RnnWeightEntry bw = rnn_bias_entry(net, pseudo_layer, 0), br = rnn_bias_entry(net, pseudo_layer, g);
    // The gates' matrices (and biases) of one side follow each other in linLayerID order: one block each.
    if (w.present) places.input_matrices = w.offset;
    places.recurrent_matrices = r.offset;
    if (projection.present) places.projection = projection.offset;
    if (bw.present) places.input_biases = bw.offset;
    if (br.present) places.recurrent_biases = br.offset;
    places.width = net.layer_input_size(pseudo_layer);
    return places;
}

void rnn_log_steps(const RnnProblem &p, const char *what, int pseudo_layer, std::initializer_list<RnnStepsWay> ways) {
    if (!DispatchLog::wanted()) return;  // every pseudo-layer of every call comes here: no text unless logging
    const std::string family = std::string(what) + " of pseudo-layer " + std::to_string(pseudo_layer);
    DispatchLog log(family.c_str());
    for (const RnnStepsWay &way : ways) {
        if (way.declined == nullptr) {
            log.chose(way.name);
            break;
        }
        log.skipped(way.name, way.declined);
    }
    log.finish(Backend::cuda, true, to_problem_string(p).to_string());
}

}  // namespace librednn::cuda
