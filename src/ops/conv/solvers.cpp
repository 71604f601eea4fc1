// The convolution solver lists, as the backends registered them (ops/common/registry.hpp).
#include "ops/conv/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const ConvSolver *> &conv_solvers(ConvDirection direction) {
    const SolverRegistry &registry = solver_registry();
    switch (direction) {
        case ConvDirection::forward: return registry.conv_forward;
        case ConvDirection::backward_data: return registry.conv_backward_data;
        case ConvDirection::backward_filter: break;
    }
    return registry.conv_backward_filter;
}

const std::vector<const Im2ColSolver *> &im2col_solvers() { return solver_registry().im2col; }

int64_t im2col_rows(const ConvProblem &problem) { return problem.batch() * problem.output_size(); }

int64_t im2col_columns(const ConvProblem &problem) { return problem.input_channels() * problem.filter_size(); }

}  // namespace librednn
