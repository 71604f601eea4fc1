// The tensor-op references of check mode: each family's problem parsed by LibreDNN and run on the host
// copies of the tensors (encoded back into their element types, so that the reference reads the same
// bytes the library read and rounds its results as the library must).
#include "reference_ops.hpp"

#include "ops/activation/problem.hpp"
#include "ops/reduce/problem.hpp"
#include "ops/softmax/problem.hpp"
#include "ops/tensor/add_tensor_problem.hpp"
#include "ops/tensor/op_tensor_problem.hpp"
#include "ops/tensor/set_tensor_problem.hpp"
#include "ops/transform/problem.hpp"
#include "reference/activation.hpp"
#include "reference/reduce.hpp"
#include "reference/softmax.hpp"
#include "reference/tensor_ops.hpp"
#include "reference/transform.hpp"

#include <memory>
#include <utility>

namespace librednn::bench {

namespace {

// Memory of every tensor of a problem, in Problem::tensors() order, as the library saw it.
using TensorBytes = std::vector<std::vector<uint8_t>>;

// Runs `run` (which calls one reference on the tensors' bytes) and decodes what it wrote back into
// `tensors`. Inputs are left as they are.
template <typename Run>
Reference reference_over_bytes(std::vector<TensorSpec> specs, Run run) {
    Reference reference;
    reference.compute = [specs = std::move(specs), run](HostTensors *tensors) -> Outcome {
        if (tensors->size() != specs.size())
            return Outcome::failed("the reference got " + std::to_string(tensors->size()) + " tensors, not " +
                                   std::to_string(specs.size()));
        TensorBytes bytes(specs.size());
        for (size_t i = 0; i < specs.size(); ++i) {
            if ((*tensors)[i].size() != static_cast<size_t>(specs[i].elements))
                return Outcome::failed("tensor " + specs[i].name + " has the wrong element count");
            bytes[i].assign(specs[i].bytes(), 0);
            encode(specs[i].type, (*tensors)[i].data(), (*tensors)[i].size(), bytes[i].data());
        }
        run(bytes);
        for (size_t i = 0; i < specs.size(); ++i)
            if (specs[i].role != Role::input)
                decode(specs[i].type, bytes[i].data(), (*tensors)[i].size(), (*tensors)[i].data());
        return Outcome::success();
    };
    return reference;
}

// Parses `text` with LibreDNN's parser of `Value`; on failure says why in *reason.
template <typename Value, typename Parse>
bool parse_as(const std::string &text, Parse parse, Value *value, std::string *reason) {
    ProblemString parsed;
    std::string error;
    if (!ProblemString::parse(text, &parsed, &error) || !parse(parsed, value, &error)) {
        *reason = "no reference: LibreDNN's parser rejects the problem (" + error + ")";
        return false;
    }
    return true;
}

Reference unavailable(const std::string &reason) {
    Reference reference;
    reference.unavailable = reason;
    return reference;
}

}  // namespace

Reference tensor_op_reference(const Problem &problem) {
    const ProblemString described = problem.describe();
    std::string op;
    for (const auto &entry : described.entries())
        if (entry.first == "op") op = entry.second;
    const std::string text = described.to_string();
    const std::vector<TensorSpec> specs = problem.tensors();
    std::string reason;

    if (op == "act") {
        // Tensors: forward x y; backward y dy x dx.
        ActivationProblem value;
        if (!parse_as(text, parse_activation_problem, &value, &reason)) return unavailable(reason);
        const bool forward = value.direction == Direction::forward;
        return reference_over_bytes(specs, [value, forward](TensorBytes &t) {
            ActivationBuffers buffers;
            if (forward) {
                buffers.x = t[0].data();
                buffers.result = t[1].data();
            } else {
                buffers.y = t[0].data();
                buffers.dy = t[1].data();
                buffers.x = t[2].data();
                buffers.result = t[3].data();
            }
            reference::activation(value, buffers);
        });
    }
    if (op == "softmax") {
        // Tensors: forward x y; backward y dy dx.
        SoftmaxProblem value;
        if (!parse_as(text, parse_softmax_problem, &value, &reason)) return unavailable(reason);
        const bool forward = value.direction == Direction::forward;
        return reference_over_bytes(specs, [value, forward](TensorBytes &t) {
            SoftmaxBuffers buffers;
            if (forward) {
                buffers.x = t[0].data();
                buffers.result = t[1].data();
            } else {
                buffers.y = t[0].data();
                buffers.dy = t[1].data();
                buffers.result = t[2].data();
            }
            reference::softmax(value, buffers);
        });
    }
    if (op == "op_tensor") {
        OpTensorProblem value;
        if (!parse_as(text, parse_op_tensor_problem, &value, &reason)) return unavailable(reason);
        return reference_over_bytes(specs, [value](TensorBytes &t) {
            OpTensorBuffers buffers;
            buffers.a = t[0].data();
            buffers.b = t[1].data();
            buffers.c = t[2].data();
            reference::op_tensor(value, buffers);
        });
    }
    if (op == "add_tensor") {
        AddTensorProblem value;
        if (!parse_as(text, parse_add_tensor_problem, &value, &reason)) return unavailable(reason);
        return reference_over_bytes(specs, [value](TensorBytes &t) {
            AddTensorBuffers buffers;
            buffers.a = t[0].data();
            buffers.c = t[1].data();
            reference::add_tensor(value, buffers);
        });
    }
    if (op == "transform") {
        TransformProblem value;
        if (!parse_as(text, parse_transform_problem, &value, &reason)) return unavailable(reason);
        return reference_over_bytes(specs, [value](TensorBytes &t) {
            TransformBuffers buffers;
            buffers.x = t[0].data();
            buffers.y = t[1].data();
            reference::transform(value, buffers);
        });
    }
    if (op == "reduce") {
        // Tensors: a c, then indices when the problem asks for them (one uint32 per element of C, which
        // the bench holds as int32: positions stay far below 2^31).
        ReduceProblem value;
        if (!parse_as(text, parse_reduce_problem, &value, &reason)) return unavailable(reason);
        return reference_over_bytes(specs, [value](TensorBytes &t) {
            ReduceBuffers buffers;
            buffers.a = t[0].data();
            buffers.c = t[1].data();
            if (value.indices) buffers.indices = t[2].data();
            reference::reduce(value, buffers);
        });
    }
    if (op == "set_tensor" || op == "scale_tensor") {
        SetTensorProblem value;
        if (!parse_as(text, parse_set_tensor_problem, &value, &reason)) return unavailable(reason);
        return reference_over_bytes(specs, [value](TensorBytes &t) {
            SetTensorBuffers buffers;
            buffers.y = t[0].data();
            reference::set_tensor(value, buffers);
        });
    }
    if (op == "copy") {
        // The bench's own copy: y is x.
        Reference reference;
        reference.compute = [](HostTensors *tensors) -> Outcome {
            if (tensors->size() != 2)
                return Outcome::failed("the copy reference got " + std::to_string(tensors->size()) + " tensors, not 2");
            (*tensors)[1] = (*tensors)[0];
            return Outcome::success();
        };
        return reference;
    }
    return unavailable("no reference yet");
}

}  // namespace librednn::bench
