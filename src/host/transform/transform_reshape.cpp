// Host transform with padding or folding: the reference runs it.
#include "host/transform/solvers.hpp"
#include "reference/transform.hpp"

namespace librednn {

namespace {

class HostTransformReshape final : public TransformSolver {
public:
    const char *name() const override { return "host_transform_reshape"; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const TransformProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const TransformProblem &problem,
               const TransformBuffers &buffers) const override {
        reference::transform(problem, buffers);
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const TransformSolver &host_transform_reshape_solver() {
    static const HostTransformReshape solver;
    return solver;
}

}  // namespace librednn
