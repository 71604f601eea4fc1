// Host convolutions on oneDNN (loaded at run time, host/common/onednn.hpp): for each problem, a plan of
// oneDNN primitives — the convolution in the layouts oneDNN prefers, reorders from and to the caller's
// strided tensors, and alpha/beta applied by the last reorder — built once and kept in a bounded cache.
// Only oneDNN's direct (jit) convolutions are planned: never its im2col + GEMM ("gemm:") or reference
// ("ref:") implementations, so that the algorithms these plans run under stay honest (docs/HOST_ONEDNN.md).
#pragma once

#include "ops/conv/problem.hpp"
#include "ops/conv/solvers.hpp"

#include <cstddef>
#include <memory>
#include <string>

namespace librednn::host::conv {

struct OnednnConvPlan;

// The plan for `problem` (from the cache, or built now), or nullptr with *why saying why oneDNN cannot
// run it: oneDNN not loaded, a problem it has no direct convolution for, a type it lacks (half runs on
// float copies; double and int8 do not run).
std::shared_ptr<const OnednnConvPlan> onednn_conv_plan(const ConvProblem &problem, std::string *why);

// What the plan needs from the workspace: oneDNN's scratchpad and the tensors in oneDNN's layouts.
size_t onednn_conv_workspace_bytes(const OnednnConvPlan &plan);

// oneDNN's name of the implementation the plan runs ("jit:avx512_core", "brgconv:avx512_core", ...).
const std::string &onednn_conv_implementation(const OnednnConvPlan &plan);

// Runs the plan on the call's buffers, with `workspace` of at least onednn_conv_workspace_bytes(plan).
Status run_onednn_conv(const OnednnConvPlan &plan, const ConvProblem &problem, const ConvBuffers &buffers,
                       void *workspace);

}  // namespace librednn::host::conv
