// The CUDA backend's solvers, registered family by family.
#pragma once

namespace librednn {

struct SolverRegistry;

// Adds every CUDA solver to the registry (called once, by src/backends/install.cpp).
void register_cuda_solvers(SolverRegistry &registry);

}  // namespace librednn
