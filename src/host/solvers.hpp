// The host backend's solvers, registered family by family.
#pragma once

namespace librednn {

struct SolverRegistry;

// Adds every host solver to the registry (called once, by src/backends/install.cpp).
void register_host_solvers(SolverRegistry &registry);

}  // namespace librednn
