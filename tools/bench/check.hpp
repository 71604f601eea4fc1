// Check mode: how far one library's outputs are from a reference (the --vs library's outputs, or
// LibreDNN's host reference for the problem), as ‖out − ref‖ / ‖ref‖ and the largest element error.
#pragma once

#include "outcome.hpp"
#include "problem.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace librednn::bench {

struct ErrorStats {
    double relative = 0;        // ‖out − ref‖₂ / ‖ref‖₂ (‖out‖₂ when ref is all zeros)
    double max_abs = 0;         // max |out − ref|
    size_t nan_mismatches = 0;  // elements where exactly one side is NaN (relative is then infinite)
    size_t nan_both = 0;        // elements NaN on both sides: agreement, but suspicious (an output
                                // left unwritten stays NaN in check mode), so reported
};

ErrorStats compare(const std::vector<double> &out, const std::vector<double> &ref);

// Tensors as doubles, in the order Problem::tensors() lists them.
using HostTensors = std::vector<std::vector<double>>;

// LibreDNN's host reference for a problem: given every tensor (inputs as the library read them), it
// fills the outputs. `compute` is empty when there is none yet, and `unavailable` says so.
struct Reference {
    std::function<Outcome(HostTensors *tensors)> compute;
    std::string unavailable;
};

// The hook for src/reference/: act, softmax, op_tensor, add_tensor, transform, reduce, set_tensor and
// scale_tensor run LibreDNN's references (reference_ops.hpp); every other problem answers "no reference
// yet" and check mode compares against the --vs library only.
Reference reference_for(const Problem &problem);

}  // namespace librednn::bench
