// The op registry, layouts, and what every problem shares.
#include "problem.hpp"

#include "problems/families.hpp"

namespace librednn::bench {

namespace {

struct OpFamily {
    const char *op;
    ProblemParser parse;
};

const OpFamily kFamilies[] = {
    {"conv", parse_convolution},
    {"bn", parse_batch_norm},
    {"act", parse_activation},
    {"softmax", parse_softmax},
    {"pool", parse_pooling},
    {"lrn", parse_lrn},
    {"divnorm", parse_divnorm},
    {"spatial_tf", parse_spatial_tf},
    {"op_tensor", parse_op_tensor},
    {"add_tensor", parse_add_tensor},
    {"transform", parse_transform},
    {"reduce", parse_reduce},
    {"set_tensor", parse_set_tensor},
    {"scale_tensor", parse_scale_tensor},
    {"add", parse_add_tensor},  // the name for cudnnAddTensor; prints as add_tensor
    {"copy", parse_copy},       // not a cuDNN call: the run's own copy ceiling
    {"rnn", parse_rnn},
    {"ctc_loss", parse_ctc_loss},
};

std::string op_list() {
    std::string list;
    for (const std::string &op : known_ops()) list += (list.empty() ? "" : "|") + op;
    return list;
}

}  // namespace

const char *layout_name(Layout layout) { return layout == Layout::nhwc ? "nhwc" : "nchw"; }

bool parse_layout(const std::string &name, Layout *layout) {
    if (name == "nchw" || name == "nhwc") {
        *layout = name == "nhwc" ? Layout::nhwc : Layout::nchw;
        return true;
    }
    return false;
}

double bytes_moved(const std::vector<TensorSpec> &tensors) {
    double bytes = 0;
    for (const TensorSpec &tensor : tensors) {
        if (!tensor.moved) continue;
        const double touched =
            tensor.needed >= 0 && tensor.needed < tensor.elements
                ? static_cast<double>(tensor.needed) * static_cast<double>(data_type_size(tensor.type))
                : static_cast<double>(tensor.bytes());
        bytes += touched * (tensor.role == Role::inout ? 2 : 1);
    }
    return bytes;
}

bool forward_or_backward(const ProblemString &text, const ProblemDefaults &defaults, std::string *dir) {
    if (text.has("dir")) {
        std::string ignored;
        text.get("dir", dir, &ignored);  // validated by the op's own read of the key
        return true;
    }
    if (defaults.dir == "fwd" || defaults.dir == "inference") {
        *dir = "fwd";
        return true;
    }
    if (defaults.dir == "bwd") {
        *dir = "bwd";
        return true;
    }
    return false;
}

std::vector<std::string> known_ops() {
    std::vector<std::string> ops;
    for (const OpFamily &family : kFamilies)
        if (std::string(family.op) != "add") ops.push_back(family.op);
    return ops;
}

ParseResult parse_problem(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                          std::string *error) {
    std::string op, ignored;
    if (!text.get("op", &op, &ignored)) {
        *error = "the problem has no 'op' key (one of " + op_list() + ")";
        return ParseResult::error;
    }
    for (const OpFamily &family : kFamilies)
        if (op == family.op) return family.parse(text, defaults, problem, error);
    *error = "unknown op '" + op + "' (one of " + op_list() + ")";
    return ParseResult::error;
}

ParseResult parse_problem(const std::string &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                          std::string *error) {
    ProblemString parsed;
    if (!ProblemString::parse(text, &parsed, error)) return ParseResult::error;
    return parse_problem(parsed, defaults, problem, error);
}

}  // namespace librednn::bench
