// RNNs through cuDNN's v8 API, which cuDNN 9 keeps: cudnnRNNForward (inference or training),
// cudnnRNNBackwardData_v8, cudnnRNNBackwardWeights_v8 (ADD), and the bench's own dir=step, a training step
// that times the three in a row. The keys are LibreDNN's: src/ops/rnn/problem.cpp reads and prints them
// here too, so a string LibreDNN logs re-runs as it is (docs/PROBLEMS.md).
#include "problems/descriptors.hpp"
#include "problems/families.hpp"

#include "ops/rnn/problem.hpp"  // LibreDNN's RNN problem string and weight-space size (the bench links its core)

#include <algorithm>
#include <cstdint>

namespace librednn::bench {

namespace {

// What one run calls: one of cuDNN's three RNN passes, or a whole training step.
enum class RnnMode { forward, backward_data, backward_weights, step };

const char *const kAlgoNames[] = {"standard", "persist_static", "persist_dynamic", "persist_static_small_h"};

struct RnnParams {
    RnnMode mode = RnnMode::forward;
    // LibreDNN's problem: for a step, its forward (training); for a backward pass, that pass.
    RnnProblem problem;

    bool runs_forward() const { return mode == RnnMode::forward || mode == RnnMode::step; }
    bool runs_backward_data() const { return mode == RnnMode::backward_data || mode == RnnMode::step; }
    bool runs_backward_weights() const { return mode == RnnMode::backward_weights || mode == RnnMode::step; }
};

// Where each argument of the calls lies in tensors(); -1 where the problem passes NULL.
struct RnnSlots {
    int x = -1, hx = -1, cx = -1, weights = -1, y = -1, hy = -1, cy = -1;
    int dy = -1, dhy = -1, dcy = -1, dx = -1, dhx = -1, dcx = -1, dweights = -1;
};

// The tensors every pass the mode runs reads and writes, in one order. A backward pass alone also gets what
// the training forward before it reads (x, the weights), which it does not count as moved. The state
// flags mean what LibreDNN's problem means by them: hx=yes passes hx (and dhx), cx=yes cx (and dcx),
// hy=yes hy (and dhy), cy=yes cy (and dcy).
std::vector<TensorSpec> rnn_tensors(const RnnParams &p, RnnSlots *slots) {
    const RnnProblem &q = p.problem;
    const RnnNetwork &net = q.net;
    const int64_t h_count = static_cast<int64_t>(net.pseudo_layers()) * q.batch_size * net.proj_size;
    const int64_t c_count = static_cast<int64_t>(net.pseudo_layers()) * q.batch_size * net.hidden_size;
    const int64_t x_count = rnn_data_elements(q, net.input_size), y_count = rnn_data_elements(q, q.y_size());
    const int64_t w_count = rnn_weight_elements(net);
    std::vector<TensorSpec> specs;
    const auto add = [&](int *slot, const char *name, Role role, int64_t count, bool moved = true,
                         Fill fill = Fill::symmetric) {
        *slot = static_cast<int>(specs.size());
        TensorSpec spec;
        spec.name = name;
        spec.role = role;
        spec.type = net.data_type;
        spec.elements = count;
        spec.fill = fill;
        spec.moved = moved;
        specs.push_back(spec);
    };
    const bool alone = !p.runs_forward();  // a backward pass timed without its forward
    add(&slots->x, "x", Role::input, x_count, p.mode != RnnMode::backward_data);
    if (q.has_hx) add(&slots->hx, "hx", Role::input, h_count);
    if (q.has_cx) add(&slots->cx, "cx", Role::input, c_count);
    add(&slots->weights, "weights", Role::input, w_count, p.mode != RnnMode::backward_weights, Fill::small);
    if (alone) add(&slots->y, "y", Role::input, y_count);  // the forward's, which the first run writes
    if (p.mode != RnnMode::forward) add(&slots->dy, "dy", Role::input, y_count, p.runs_backward_data());
    if (p.runs_backward_data() && q.has_hy) add(&slots->dhy, "dhy", Role::input, h_count);
    if (p.runs_backward_data() && q.has_cy) add(&slots->dcy, "dcy", Role::input, c_count);
    if (p.runs_forward()) {
        add(&slots->y, "y", Role::output, y_count);
        if (q.has_hy) add(&slots->hy, "hy", Role::output, h_count);
        if (q.has_cy) add(&slots->cy, "cy", Role::output, c_count);
    }
    if (p.runs_backward_data()) {
        add(&slots->dx, "dx", Role::output, x_count);
        if (q.has_hx) add(&slots->dhx, "dhx", Role::output, h_count);
        if (q.has_cx) add(&slots->dcx, "dcx", Role::output, c_count);
    }
    // ADD accumulates into what dweights holds; repeated perf runs let it grow, which no GPU's speed minds.
    if (p.runs_backward_weights()) add(&slots->dweights, "dweights", Role::inout, w_count);
    return specs;
}

// The matrix products of one forward, in floating-point operations: per step of each sequence and per
// layer and direction, 2 * gates * hidden * (layer input + proj) for W x and R h (no W x on layer 0 with
// CUDNN_SKIP_INPUT), plus 2 * proj * hidden for the recurrent projection. Backward data and backward
// weights each do as many (dx, dh through W and R; dW, dR), so a step does three times this. The
// element-wise gate arithmetic is not counted.
double forward_flops(const RnnProblem &q) {
    const RnnNetwork &net = q.net;
    double steps = 0;
    for (int length : q.seq_lengths) steps += length;
    double per_step = 0;
    for (int pseudo_layer = 0; pseudo_layer < net.pseudo_layers(); ++pseudo_layer) {
        const bool identity_input = net.skip_input && pseudo_layer < net.directions();
        const double inputs = identity_input ? 0.0 : net.layer_input_size(pseudo_layer);
        per_step += 2.0 * net.gates() * net.hidden_size * (inputs + net.proj_size);
        if (net.projection()) per_step += 2.0 * net.proj_size * net.hidden_size;
    }
    return per_step * steps;
}

class RnnOperation : public Operation {
public:
    RnnOperation(const RnnParams &params, const Context &context) : p_(params), context_(context) {
        rnn_tensors(p_, &slots_);
    }

    Outcome bind() {
        const Library &library = *context_.library;
        const RnnProblem &q = p_.problem;
        const RnnNetwork &net = q.net;
        // Dropout between layers needs the generator's states; without dropout none are allocated.
        BENCH_TRY(create(library, &dropout_));
        size_t state_bytes = 0;
        if (q.dropout > 0) {
            BENCH_TRY(BENCH_CALL(library, cudnnDropoutGetStatesSize, context_.handle, &state_bytes));
            BENCH_TRY(Buffer::allocate(context_.memory, state_bytes, &dropout_states_));
        }
        BENCH_TRY(BENCH_CALL(library, cudnnSetDropoutDescriptor, dropout_.get(), context_.handle, q.dropout,
                             q.dropout > 0 ? dropout_states_.data() : nullptr, state_bytes, 1ull));
        // The unpacked layouts need padded I/O; the packed one takes the default.
        const uint32_t aux_flags = q.layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED ? CUDNN_RNN_PADDED_IO_DISABLED
                                                                                      : CUDNN_RNN_PADDED_IO_ENABLED;
        BENCH_TRY(create(library, &rnn_));
        BENCH_TRY(BENCH_CALL(library, cudnnSetRNNDescriptor_v8, rnn_.get(), net.algo, net.cell, net.bias_mode,
                             net.bidirectional ? CUDNN_BIDIRECTIONAL : CUDNN_UNIDIRECTIONAL,
                             net.skip_input ? CUDNN_SKIP_INPUT : CUDNN_LINEAR_INPUT, net.data_type, net.math_prec,
                             net.math_type, net.input_size, net.hidden_size, net.proj_size, net.layers, dropout_.get(),
                             aux_flags));
        if (q.clipping)
            BENCH_TRY(BENCH_CALL(library, cudnnRNNSetClip_v8, rnn_.get(), CUDNN_RNN_CLIP_MINMAX,
                                 q.clip_propagate_nan ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN, q.lclip,
                                 q.rclip));
        BENCH_TRY(make_data(net.input_size, nullptr, &x_desc_));
        uint64_t fill = 0;  // the padding fill in the data type, as cudnnSetRNNDataDescriptor reads it
        encode(net.data_type, &q.padding_fill, 1, &fill);
        BENCH_TRY(make_data(q.y_size(), &fill, &y_desc_));
        BENCH_TRY(make_state(net.proj_size, &h_desc_));
        BENCH_TRY(make_state(net.hidden_size, &c_desc_));
        // The sequence lengths again, where the library's kernels read them (devSeqLengths).
        const size_t length_bytes = q.seq_lengths.size() * sizeof(int32_t);
        BENCH_TRY(Buffer::allocate(context_.memory, length_bytes, &lengths_));
        BENCH_TRY(lengths_.upload(q.seq_lengths.data(), length_bytes));
        if (net.algo == CUDNN_RNN_ALGO_PERSIST_DYNAMIC)
            BENCH_TRY(BENCH_CALL(library, cudnnBuildRNNDynamic, context_.handle, rnn_.get(), q.batch_size));

        // The weight space is a tensor of the problem, sized by NVIDIA's layout (docs/RNN.md). A library
        // that asks for more gets weights (and gradients) of its own, small random values it times on;
        // check mode then leaves dweights uncompared.
        weight_bytes_ = rnn_weight_space_bytes(net);
        size_t wanted = 0;
        BENCH_TRY(BENCH_CALL(library, cudnnGetRNNWeightSpaceSize, context_.handle, rnn_.get(), &wanted));
        if (wanted > weight_bytes_) {
            weight_bytes_ = wanted;
            const size_t count = wanted / data_type_size(net.data_type);
            std::vector<uint8_t> pattern(std::min<size_t>(count, 4096) * data_type_size(net.data_type));
            const std::vector<double> values =
                random_values(net.data_type, Fill::small, pattern.size() / data_type_size(net.data_type), 7);
            encode(net.data_type, values.data(), values.size(), pattern.data());
            BENCH_TRY(Buffer::allocate(context_.memory, wanted, &own_weights_));
            BENCH_TRY(own_weights_.fill_repeating(pattern));
            if (p_.runs_backward_weights()) {
                BENCH_TRY(Buffer::allocate(context_.memory, wanted, &own_dweights_));
                BENCH_TRY(own_dweights_.fill_repeating(std::vector<uint8_t>(pattern.size(), 0)));
            }
        }
        const bool inference = p_.mode == RnnMode::forward && !q.training;
        BENCH_TRY(BENCH_CALL(library, cudnnGetRNNTempSpaceSizes, context_.handle, rnn_.get(),
                             inference ? CUDNN_FWD_MODE_INFERENCE : CUDNN_FWD_MODE_TRAINING, x_desc_.get(), &workspace_,
                             &reserve_bytes_));
        if (inference) reserve_bytes_ = 0;
        if (reserve_bytes_ > 0) BENCH_TRY(Buffer::allocate(context_.memory, reserve_bytes_, &reserve_));
        // Backward weights alone still needs backward data before it; its dx goes here.
        if (p_.mode == RnnMode::backward_weights)
            BENCH_TRY(Buffer::allocate(
                context_.memory,
                static_cast<size_t>(rnn_data_elements(q, net.input_size)) * data_type_size(net.data_type),
                &scratch_dx_));
        return Outcome::success();
    }

    size_t workspace_bytes() const override { return workspace_; }

    std::string choice() const override {
        std::string text = kAlgoNames[p_.problem.net.algo];
        if (own_weights_.data())
            text += "; weights in a buffer of its own (it asked for " + std::to_string(weight_bytes_) + " bytes)";
        return text;
    }

    std::string unwritten(size_t tensor) const override {
        if (own_dweights_.data() && static_cast<int>(tensor) == slots_.dweights)
            return "writes its weight gradients to a weight space of its own (cudnnGetRNNWeightSpaceSize asked "
                   "for " +
                   std::to_string(weight_bytes_) + " bytes, more than docs/RNN.md's layout)";
        return "";
    }

    Outcome run(const TensorPointers &t, void *workspace, size_t workspace_bytes) override {
        const Space space{workspace, workspace_bytes};
        switch (p_.mode) {
            case RnnMode::forward:
                return forward(t, space, p_.problem.training ? CUDNN_FWD_MODE_TRAINING : CUDNN_FWD_MODE_INFERENCE);
            case RnnMode::backward_data:
            case RnnMode::backward_weights:
                // A backward pass reads the reserve space of a training forward with the same descriptors,
                // and backward weights what backward data leaves there: made once, on the first (untimed)
                // run, from the tensors it is given; later runs reuse them whatever their inputs.
                if (!prepared_) {
                    BENCH_TRY(forward(t, space, CUDNN_FWD_MODE_TRAINING));
                    if (p_.mode == RnnMode::backward_weights) BENCH_TRY(backward_data(t, space, scratch_dx_.data()));
                    prepared_ = true;
                }
                return p_.mode == RnnMode::backward_data ? backward_data(t, space, at(t, slots_.dx))
                                                         : backward_weights(t, space);
            case RnnMode::step:
                BENCH_TRY(forward(t, space, CUDNN_FWD_MODE_TRAINING));
                BENCH_TRY(backward_data(t, space, at(t, slots_.dx)));
                return backward_weights(t, space);
        }
        return Outcome::failed("unknown RNN mode");
    }

private:
    struct Space {
        void *data;
        size_t bytes;
    };

    static void *at(const TensorPointers &t, int slot) { return slot >= 0 ? t[static_cast<size_t>(slot)] : nullptr; }
    void *weights(const TensorPointers &t) const {
        return own_weights_.data() ? own_weights_.data() : at(t, slots_.weights);
    }
    void *dweights(const TensorPointers &t) const {
        return own_dweights_.data() ? own_dweights_.data() : at(t, slots_.dweights);
    }

    Outcome make_data(int vector_size, void *fill, RnnDataDescriptor *descriptor) {
        const Library &library = *context_.library;
        const RnnProblem &q = p_.problem;
        BENCH_TRY(create(library, descriptor));
        return BENCH_CALL(library, cudnnSetRNNDataDescriptor, descriptor->get(), q.net.data_type, q.layout,
                          q.max_seq_length, q.batch_size, vector_size, q.seq_lengths.data(), fill);
    }

    // [layers * directions, batch, width], packed.
    Outcome make_state(int width, TensorDescriptor *descriptor) {
        const Library &library = *context_.library;
        const RnnProblem &q = p_.problem;
        const int dims[3] = {q.net.pseudo_layers(), q.batch_size, width};
        const int strides[3] = {q.batch_size * width, width, 1};
        BENCH_TRY(create(library, descriptor));
        return BENCH_CALL(library, cudnnSetTensorNdDescriptor, descriptor->get(), q.net.data_type, 3, dims, strides);
    }

    Outcome forward(const TensorPointers &t, const Space &space, cudnnForwardMode_t mode) {
        const bool training = mode == CUDNN_FWD_MODE_TRAINING;
        return BENCH_CALL(*context_.library, cudnnRNNForward, context_.handle, rnn_.get(), mode,
                          static_cast<const int32_t *>(lengths_.data()), x_desc_.get(), at(t, slots_.x), y_desc_.get(),
                          at(t, slots_.y), h_desc_.get(), at(t, slots_.hx), at(t, slots_.hy), c_desc_.get(),
                          at(t, slots_.cx), at(t, slots_.cy), weight_bytes_, weights(t), space.bytes, space.data,
                          training ? reserve_bytes_ : 0, training ? reserve_.data() : nullptr);
    }

    Outcome backward_data(const TensorPointers &t, const Space &space, void *dx) {
        return BENCH_CALL(*context_.library, cudnnRNNBackwardData_v8, context_.handle, rnn_.get(),
                          static_cast<const int32_t *>(lengths_.data()), y_desc_.get(), at(t, slots_.y),
                          at(t, slots_.dy), x_desc_.get(), dx, h_desc_.get(), at(t, slots_.hx), at(t, slots_.dhy),
                          at(t, slots_.dhx), c_desc_.get(), at(t, slots_.cx), at(t, slots_.dcy), at(t, slots_.dcx),
                          weight_bytes_, weights(t), space.bytes, space.data, reserve_bytes_, reserve_.data());
    }

    Outcome backward_weights(const TensorPointers &t, const Space &space) {
        return BENCH_CALL(*context_.library, cudnnRNNBackwardWeights_v8, context_.handle, rnn_.get(),
                          CUDNN_WGRAD_MODE_ADD, static_cast<const int32_t *>(lengths_.data()), x_desc_.get(),
                          at(t, slots_.x), h_desc_.get(), at(t, slots_.hx), y_desc_.get(), at(t, slots_.y),
                          weight_bytes_, dweights(t), space.bytes, space.data, reserve_bytes_, reserve_.data());
    }

    RnnParams p_;
    Context context_;
    RnnSlots slots_;
    DropoutDescriptor dropout_;
    RnnDescriptor rnn_;
    RnnDataDescriptor x_desc_, y_desc_;
    TensorDescriptor h_desc_, c_desc_;
    Buffer dropout_states_, lengths_, reserve_, scratch_dx_, own_weights_, own_dweights_;
    size_t weight_bytes_ = 0, workspace_ = 0, reserve_bytes_ = 0;
    bool prepared_ = false;
};

class RnnBenchProblem : public Problem {
public:
    explicit RnnBenchProblem(const RnnParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text = to_problem_string(p_.problem);
        if (p_.mode == RnnMode::step) text.set("dir", "step");
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        RnnSlots slots;
        return rnn_tensors(p_, &slots);
    }

    double flops() const override { return forward_flops(p_.problem) * (p_.mode == RnnMode::step ? 3 : 1); }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<RnnOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    RnnParams p_;
};

// --dir as an RNN direction for a string without dir=: inference and fwd run cudnnRNNForward (fwd in
// training mode unless the string says train=no, as bn's fwd is its training forward), bwd_data and
// bwd_filter the backward passes, step all three. "" when the op has no such direction (bwd).
std::string rnn_dir_of(const std::string &dir) {
    if (dir == "inference" || dir == "fwd") return "fwd";
    if (dir == "bwd_data" || dir == "step") return dir;
    if (dir == "bwd_filter") return "bwd_weights";
    return "";
}

}  // namespace

ParseResult parse_rnn(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                      std::string *error) {
    std::string dir, ignored;
    if (text.has("dir"))
        text.get("dir", &dir, &ignored);
    else
        dir = rnn_dir_of(defaults.dir);
    if (dir.empty()) return ParseResult::not_applicable;
    RnnParams p;
    if (dir == "fwd") {
        p.mode = RnnMode::forward;
    } else if (dir == "bwd_data") {
        p.mode = RnnMode::backward_data;
    } else if (dir == "bwd_weights") {
        p.mode = RnnMode::backward_weights;
    } else if (dir == "step") {
        p.mode = RnnMode::step;
    } else {
        *error = "op=rnn: key 'dir' must be fwd, bwd_data, bwd_weights or step; got '" + dir + "'";
        return ParseResult::error;
    }
    std::string train;
    if (text.has("train")) text.get("train", &train, &ignored);
    if (p.mode != RnnMode::forward && text.has("train") && train != "yes") {
        *error = "op=rnn: dir=" + dir + " follows a training forward, so train must be yes; got '" + train + "'";
        return ParseResult::error;
    }
    // LibreDNN's parser reads the rest; it knows no dir=step (no single call is a step: its forward is).
    ProblemString library_text;
    for (const auto &[key, value] : text.entries()) library_text.set(key, value);
    library_text.set("dir", p.mode == RnnMode::step ? std::string("fwd") : dir);
    if (!text.has("train"))
        library_text.set("train",
                         p.mode != RnnMode::forward || (!text.has("dir") && defaults.dir == "fwd") ? "yes" : "no");
    if (!text.has("dtype")) library_text.set("dtype", defaults.dtype);
    if (!text.has("math_type")) library_text.set("math_type", defaults.math);
    if (!parse_rnn_problem(library_text, &p.problem, error)) {
        *error = "op=rnn: " + *error;
        return ParseResult::error;
    }
    RnnProblem &q = p.problem;
    if (p.mode == RnnMode::backward_weights && !text.has("dir")) {
        // A set row run under --dir bwd_filter: the states the other passes take do not apply.
        q.has_cx = q.has_hy = q.has_cy = false;
    } else if (p.mode == RnnMode::backward_weights && (q.has_cx || q.has_hy || q.has_cy)) {
        *error =
            "op=rnn: dir=bwd_weights passes hx alone (cudnnRNNBackwardWeights_v8 takes no cx, hy or cy): "
            "cx, hy and cy must be no";
        return ParseResult::error;
    }
    *problem = std::make_unique<RnnBenchProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
