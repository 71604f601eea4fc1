// The one place that knows which backends this build has: each registers its solvers, CUDA's before
// the host's (dispatch only ever considers the handle's backend, so the order between backends is
// only the order logs list them in).
#include "host/solvers.hpp"
#include "ops/common/registry.hpp"

#if LIBREDNN_HAVE_CUDA
#include "cuda/solvers.hpp"
#endif

namespace librednn {

void install_backend_solvers(SolverRegistry &registry) {
#if LIBREDNN_HAVE_CUDA
    register_cuda_solvers(registry);
#endif
    register_host_solvers(registry);
}

}  // namespace librednn
