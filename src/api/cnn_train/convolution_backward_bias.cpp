// cudnnConvolutionBackwardBias: db[1, K, 1...] = alpha * (dy summed over N and every spatial position)
// + beta * db. A reduction: it runs on the reduction solvers (ops/reduce), whose CUDA kernels may split
// a long sum through a workspace; cuDNN's call takes none, so that one is allocated on the stream.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "core/cuda_failure.hpp"
#include "core/cuda_runtime.hpp"
#include "core/fault_injection.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/reduce/solvers.hpp"
#include "ops/reduce/validate.hpp"
#include "ops/tensor/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnConvolutionBackwardBias(cudnnHandle_t handle, const void *alpha,
                                                       const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                                       const void *beta, const cudnnTensorDescriptor_t dbDesc,
                                                       void *db) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("alpha", alpha).arg("dyDesc", dyDesc).arg("dy", dy).arg("beta", beta);
        call.arg("dbDesc", dbDesc).arg("db", db);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_tensor_set(dyDesc, "dyDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(dbDesc, "dbDesc"));
        librednn::ReduceProblem problem;
        problem.a = librednn::geometry_of(*dyDesc);
        problem.c = librednn::geometry_of(*dbDesc);
        const librednn::TensorGeometry &a = problem.a, &c = problem.c;
        bool bias_shape = a.nb_dims == c.nb_dims && c.dims[1] == a.dims[1];
        for (int i = 0; i < c.nb_dims && bias_shape; ++i) bias_shape = i == 1 || c.dims[i] == 1;
        if (!bias_shape) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "dbDesc is %s: for dyDesc %s it must be 1 x %lld x 1...",
                                  librednn::join_dims(c.dims, c.nb_dims).c_str(),
                                  librednn::join_dims(a.dims, a.nb_dims).c_str(), static_cast<long long>(a.dims[1]));
        }
        if (a.dtype != c.dtype) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "dyDesc holds %s and dbDesc %s: they must hold one type",
                                  librednn::data_type_short_name(a.dtype), librednn::data_type_short_name(c.dtype));
        }
        if (a.dtype != CUDNN_DATA_FLOAT && a.dtype != CUDNN_DATA_DOUBLE && a.dtype != CUDNN_DATA_HALF &&
            a.dtype != CUDNN_DATA_BFLOAT16) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED,
                                  "dyDesc holds %s: the bias gradient takes half, bfloat16, float and double data",
                                  librednn::data_type_short_name(a.dtype));
        }
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(db);
        // Named as the caller knows them (the reduction's own check would say A and C).
        LIBREDNN_CHECK(librednn::require_aligned({{"dy", dy, a.dtype}, {"db", db, c.dtype}}));
        problem.op = CUDNN_REDUCE_TENSOR_ADD;
        const bool in_double = a.dtype == CUDNN_DATA_DOUBLE;
        problem.compute = in_double ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::ExecutionContext context = librednn::context_of(*handle);
        bool reduces = false;
        for (int i = 0; i < a.nb_dims; ++i) reduces = reduces || problem.reduced(i);
        if (!reduces) {
            // One image of one position: db = alpha * dy + beta * db, an element-wise blend.
            librednn::AddTensorProblem blend;
            blend.a = a;
            blend.c = c;
            blend.alpha = problem.alpha;
            blend.beta = problem.beta;
            return librednn::dispatch_and_run(librednn::add_tensor_solvers(), context, blend,
                                              librednn::AddTensorBuffers{dy, db}, "bias gradient");
        }
        LIBREDNN_CHECK(librednn::validate_reduce(problem));
        const size_t workspace_bytes =
            librednn::dispatch_workspace_bytes(librednn::reduce_solvers(), context.backend, problem);
        librednn::ReduceBuffers buffers;
        buffers.a = dy;
        buffers.c = db;
        if (workspace_bytes == 0) {
            return librednn::dispatch_and_run(librednn::reduce_solvers(), context, problem, buffers, "bias gradient");
        }
#if LIBREDNN_HAVE_CUDA
        if (context.backend == librednn::Backend::cuda) {
            void *workspace = nullptr;
            const cudaError_t err =
                LIBREDNN_CUDA_SITE(device_allocation, cudaMallocAsync(&workspace, workspace_bytes, context.stream));
            if (err != cudaSuccess) {
                return librednn::cuda_failure(err, "allocating the %zu bytes the bias gradient's split sum needs",
                                              workspace_bytes);
            }
            context.workspace = workspace;
            context.workspace_bytes = workspace_bytes;
            const Status status =
                librednn::dispatch_and_run(librednn::reduce_solvers(), context, problem, buffers, "bias gradient");
            cudaFreeAsync(workspace, context.stream);
            return status;
        }
#endif
        return librednn::fail(CUDNN_STATUS_INTERNAL_ERROR, "the host reduction asked for %zu bytes of workspace",
                              workspace_bytes);
    });
}
