// The CUDA RNN's products on tensor cores: the kernel choice, the 1x1 convolution of each product on the
// implicit GEMM, and backward weights' workspace (rnn_products.hpp).
#include "cuda/rnn/rnn_products.hpp"

#include "cuda/common/gemm_tf32.hpp"
#include "cuda/common/gemm_tf32_tma.hpp"
#include "cuda/common/launch_util.hpp"
#include "cuda/conv/implicit_gemm.hpp"
#include "cuda/rnn/rnn_plan.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace librednn::cuda {

namespace {

// A matrix [rows][cols] as a 4-d tensor of one-pixel images: rows the images, cols the channels. The pixel's
// dims have extent 1; their strides 0 keep the implicit GEMM's 16-byte runs possible wherever the row stride
// allows them.
TensorGeometry matrix_geometry(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
    TensorGeometry g;
    g.dtype = CUDNN_DATA_FLOAT;
    g.nb_dims = 4;
    g.dims[0] = rows, g.dims[1] = cols, g.dims[2] = 1, g.dims[3] = 1;
    g.strides[0] = row_stride, g.strides[1] = col_stride, g.strides[2] = 0, g.strides[3] = 0;
    return g;
}

// LIBREDNN_RNN_STEP_PRODUCTS (read once): "simt" keeps a step's products on gemm_simt, "implicit" on the split
// implicit GEMM even where gemm_tf32 takes them; measurement switches (docs/RNN.md).
enum class StepProducts { chosen, simt, implicit };

StepProducts step_products_switch() {
    static const StepProducts kept = [] {
        const char *value = std::getenv("LIBREDNN_RNN_STEP_PRODUCTS");
        if (value != nullptr && std::strcmp(value, "simt") == 0) return StepProducts::simt;
        if (value != nullptr && std::strcmp(value, "implicit") == 0) return StepProducts::implicit;
        return StepProducts::chosen;
    }();
    return kept;
}

// A step's product walked as backward_filter, k split over blocks into the operands' scratch; false (nothing
// run) where the scratch cannot hold the parts or the implicit GEMM turns the geometry down.
bool split_step_product(cudaStream_t stream, const RnnProblem &p, const GemmOperands<float> &o, Status *status) {
    GemmOperands<float> walked = o;
    walked.bias = nullptr;
    walked.accumulate = o.accumulate || o.bias != nullptr;  // C = bias (or C + bias) first, then C += A B
    const ConvProblem problem = rnn_product_problem(walked, RnnProductShape::backward_filter, p.net.math_type);
    ConvMath math = ConvMath::f32_fma;
    const char *reason = nullptr;
    const size_t scratch_bytes = o.scratch != nullptr ? static_cast<size_t>(o.scratch_elements) * sizeof(float) : 0;
    if (!implicit_gemm_math(problem, &math, &reason) || implicit_gemm_workspace_bytes(problem) > scratch_bytes)
        return false;
    if (o.bias != nullptr) {
        GemmOperands<float> bias = o;
        bias.k = 0;  // gemm_simt writes (or adds) the bias alone
        *status = gemm_simt(stream, bias);
        if (*status != CUDNN_STATUS_SUCCESS) return true;
    }
    ConvBuffers buffers;
    buffers.y = o.a, buffers.x = o.b, buffers.result = o.c;
    *status = implicit_gemm(stream, problem, buffers, o.scratch, scratch_bytes);
    return true;
}

}  // namespace

RnnProductKernel rnn_product_kernel(const RnnProblem &p, RnnProductScope scope, int64_t m, int64_t n, int64_t k) {
    if (rnn_compute_type(p.net) != CUDNN_DATA_FLOAT || p.net.math_type == CUDNN_FMA_MATH) return RnnProductKernel::simt;
    if (m < 1 || n < 1 || k < 1) return RnnProductKernel::simt;
    if (scope == RnnProductScope::all_steps) return RnnProductKernel::tensor_cores;
    // A step's product of m rows (the batch): a few rows waste most of a 128-row tile, where gemm_simt's
    // warp per column suits them. Tune here by measurement (bench/results/, docs/RNN.md).
    return m >= kRnnTensorCoreStepBatch && step_products_switch() != StepProducts::simt ? RnnProductKernel::tensor_cores
                                                                                        : RnnProductKernel::simt;
}

bool rnn_prepares_tf32_operands(const RnnProblem &p) {
    static const int64_t min_steps = [] {
        const char *value = std::getenv("LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS");
        const long long wanted = value != nullptr ? std::atoll(value) : 0;
        return wanted >= 1 ? static_cast<int64_t>(wanted) : int64_t{512};
    }();
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
    const int64_t gH = static_cast<int64_t>(p.net.gates()) * p.net.hidden_size;
    return steps >= min_steps && gemm_tf32_tma_available() &&
           rnn_product_kernel(p, RnnProductScope::all_steps, gH, p.net.proj_size, steps) ==
               RnnProductKernel::tensor_cores;
}

bool rnn_f16_weight_products(const RnnProblem &p) {
    static const bool off = switched_off("LIBREDNN_RNN_F16_WEIGHTS");
    return !off && p.net.data_type == CUDNN_DATA_HALF && rnn_prepares_tf32_operands(p);
}

bool rnn_tf32_input_gradient_wanted(const RnnProblem &p) {
    static const bool off = switched_off("LIBREDNN_RNN_TF32_INPUT_GRADIENT");
    return !off && rnn_prepares_tf32_operands(p);
}

bool rnn_tf32_input_gradient(const RnnProblem &p, int width) {
    const RnnNetwork &net = p.net;
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
    const int64_t gH = static_cast<int64_t>(net.gates()) * net.hidden_size;
    return rnn_tf32_input_gradient_wanted(p) && width <= rnn_turned_row(steps) && rnn_turn_fits(width) && gH % 4 == 0 &&
           rnn_reserve_gradient_block(net) % 4 == 0;
}

ConvProblem rnn_product_problem(const GemmOperands<float> &o, RnnProductShape shape, cudnnMathType_t math_type) {
    ConvProblem c;
    c.filter_format = CUDNN_TENSOR_NCHW;
    c.spatial_dims = 2;
    for (int d = 0; d < 2; ++d) c.pad[d] = 0, c.stride[d] = 1, c.dilation[d] = 1;
    c.groups = 1;
    c.mode = CUDNN_CROSS_CORRELATION;
    c.compute_type = CUDNN_DATA_FLOAT;
    c.math_type = math_type;
    c.alpha = 1.0;
    c.beta = o.accumulate ? 1.0 : 0.0;
    switch (shape) {
        case RnnProductShape::forward:
            c.direction = ConvDirection::forward;
            c.x = matrix_geometry(o.m, o.k, o.a_row, o.a_col);
            c.w = matrix_geometry(o.n, o.k, o.b_col, o.b_row);
            c.y = matrix_geometry(o.m, o.n, o.c_row, 1);
            if (o.bias != nullptr) {
                c.beta = 0.0;  // the fused epilogue has no beta (rnn_product_on_tensor_cores never fuses one)
                c.epilogue.fused = true;
                c.epilogue.z = c.y;
                c.epilogue.bias = matrix_geometry(1, o.n, o.n, 1);
                c.epilogue.activation = CUDNN_ACTIVATION_IDENTITY;
            }
            break;
        case RnnProductShape::backward_data:
            c.direction = ConvDirection::backward_data;
            c.y = matrix_geometry(o.m, o.k, o.a_row, o.a_col);
            c.w = matrix_geometry(o.k, o.n, o.b_row, o.b_col);
            c.x = matrix_geometry(o.m, o.n, o.c_row, 1);
            break;
        case RnnProductShape::backward_filter:
            c.direction = ConvDirection::backward_filter;
            c.y = matrix_geometry(o.k, o.m, o.a_col, o.a_row);
            c.x = matrix_geometry(o.k, o.n, o.b_row, o.b_col);
            c.w = matrix_geometry(o.m, o.n, o.c_row, 1);
            break;
    }
    return c;
}

size_t rnn_product_workspace_bytes(const RnnProblem &p) {
    if (p.inference()) return 0;  // inference runs no backward weights
    const RnnNetwork &net = p.net;
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
    const int64_t H = net.hidden_size, P = net.proj_size, gH = net.gates() * H;
    size_t most = 0;
    // Backward weights' products (rnn_backward_weights.cu): m gradient rows by n columns, summed over steps.
    const auto consider = [&](int64_t m, int64_t n) {
        if (rnn_product_kernel(p, RnnProductScope::all_steps, m, n, steps) != RnnProductKernel::tensor_cores) return;
        most = std::max(most, gemm_tf32_workspace_bytes(m, n, steps));
        GemmOperands<float> o;
        o.m = m, o.n = n, o.k = steps;
        o.a_row = 1, o.a_col = m, o.b_row = n, o.b_col = 1, o.c_row = n;
        most = std::max(most, implicit_gemm_workspace_bytes(
                                  rnn_product_problem(o, RnnProductShape::backward_filter, net.math_type)));
    };
    for (int pl = 0; pl < net.pseudo_layers(); ++pl) {
        const RnnLayerPlaces places = rnn_layer_places(net, pl);
        if (places.input_matrices >= 0) consider(gH, places.width);
        consider(gH, P);
        if (places.projection >= 0) consider(P, H);
    }
    return most;
}

Status rnn_product_on_tensor_cores(cudaStream_t stream, const RnnProblem &p, RnnProductScope scope,
                                   RnnProductShape shape, const GemmOperands<float> &o, void *workspace,
                                   size_t workspace_bytes) {
    // gemm_tf32 where it takes the operands: over all steps with the workspace for its split parts, a step's
    // product with the operands' scratch for them.
    if (gemm_tf32_takes(o, nullptr) &&
        (scope == RnnProductScope::all_steps || step_products_switch() != StepProducts::implicit)) {
        if (scope == RnnProductScope::all_steps) return gemm_tf32(stream, o, workspace, workspace_bytes);
        return gemm_tf32(stream, o, o.scratch, static_cast<size_t>(o.scratch_elements) * sizeof(float));
    }
    Status split = CUDNN_STATUS_SUCCESS;
    if (scope == RnnProductScope::one_step && split_step_product(stream, p, o, &split)) return split;
    const bool fused_bias = o.bias != nullptr && shape == RnnProductShape::forward && !o.accumulate;
    if (o.bias != nullptr && !fused_bias) return gemm_simt(stream, o);  // no epilogue adds a bias and blends
    const ConvProblem problem = rnn_product_problem(o, shape, p.net.math_type);
    ConvMath math = ConvMath::f32_fma;
    const char *reason = nullptr;
    // Tensors of 2^31 elements or more, or more split sums than the workspace holds: gemm_simt takes any.
    if (!implicit_gemm_math(problem, &math, &reason) || implicit_gemm_workspace_bytes(problem) > workspace_bytes)
        return gemm_simt(stream, o);
    ConvBuffers buffers;
    switch (shape) {
        case RnnProductShape::forward: buffers.x = o.a, buffers.w = o.b, buffers.bias = o.bias; break;
        case RnnProductShape::backward_data: buffers.y = o.a, buffers.w = o.b; break;
        case RnnProductShape::backward_filter: buffers.y = o.a, buffers.x = o.b; break;
    }
    buffers.result = o.c;
    return implicit_gemm(stream, problem, buffers, workspace, workspace_bytes);
}

bool rnn_reads_weights_in_place(const RnnProblem &p, const void *weights) {
    static const bool off = switched_off("LIBREDNN_RNN_WEIGHTS_IN_PLACE");
    const cudnnDataType_t compute = rnn_compute_type(p.net);
    return !off && weights != nullptr && p.net.data_type == compute && reinterpret_cast<uintptr_t>(weights) % 32 == 0 &&
           !(compute == CUDNN_DATA_FLOAT && rnn_prepares_tf32_operands(p));
}

}  // namespace librednn::cuda
