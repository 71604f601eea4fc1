// The registry instance, filled once by the backends.
#include "ops/common/registry.hpp"

namespace librednn {

const SolverRegistry &solver_registry() {
    static const SolverRegistry registry = [] {
        SolverRegistry filled;
        install_backend_solvers(filled);
        return filled;
    }();
    return registry;
}

}  // namespace librednn
