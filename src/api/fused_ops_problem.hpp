// What cudnnMakeFusedOpsPlan and cudnnFusedOpsExecute share: the constant pack turned into a validated
// FusedOpsProblem (with the variant-pack pointers it will use), and the variant pack turned into buffers.
#pragma once

#include "descriptors/fused_ops.hpp"

#include <vector>

namespace librednn::api {

// `problem` for the constant pack, validated: BAD_PARAM for a missing or inconsistent piece,
// NOT_SUPPORTED for a fusion or a type cuDNN 8 does not implement (docs/FUSED_OPS.md). `pointers` lists
// the variant-pack pointers the problem reads or writes, with their placeholders.
Status fused_ops_problem_of(const cudnnFusedOpsConstParamStruct &pack, FusedOpsProblem *problem,
                            std::vector<FusedOpsPointer> *pointers);

// The buffers of one execution of `plan` from `pack`: every pointer the plan uses present and aligned as
// its placeholder promised, the scalars in range, the workspace large enough (BAD_PARAM otherwise).
Status fused_ops_buffers_of(const cudnnFusedOpsPlanStruct &plan, const cudnnFusedOpsVariantParamStruct &pack,
                            FusedOpsBuffers *buffers);

}  // namespace librednn::api
