// cudnnIm2Col: the matrix a GEMM forward convolution multiplies the filter with (ops/conv/solvers.hpp
// says its layout), computed by the handle's backend.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "descriptors/convolution.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/conv/solvers.hpp"
#include "ops/conv/validate.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnIm2Col(cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc, const void *x,
                                      const cudnnFilterDescriptor_t wDesc, const cudnnConvolutionDescriptor_t convDesc,
                                      void *colBuffer) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("xDesc", xDesc).arg("x", x).arg("wDesc", wDesc).arg("convDesc", convDesc);
        call.arg("colBuffer", colBuffer);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_tensor_set(xDesc, "xDesc"));
        LIBREDNN_CHECK(librednn::require_filter_set(wDesc, "wDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_CHECK(librednn::require_convolution_set(*convDesc, "convDesc"));
        int y_dims[CUDNN_DIM_MAX] = {};
        LIBREDNN_CHECK(librednn::convolution_forward_output_dims(*convDesc, *xDesc, *wDesc, y_dims));
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(colBuffer);

        librednn::ConvProblem problem;
        problem.x = librednn::geometry_of(*xDesc);
        problem.w = librednn::geometry_of(*wDesc);
        int64_t output_dims[CUDNN_DIM_MAX] = {};
        for (int i = 0; i < xDesc->nb_dims; ++i) output_dims[i] = y_dims[i];
        problem.y =
            librednn::packed_geometry(xDesc->data_type, xDesc->nb_dims, output_dims, librednn::PackedLayout::nchw);
        problem.filter_format = wDesc->format;
        problem.spatial_dims = convDesc->spatial_dims;
        for (int i = 0; i < convDesc->spatial_dims; ++i) {
            problem.pad[i] = convDesc->pads[i];
            problem.stride[i] = convDesc->strides[i];
            problem.dilation[i] = convDesc->dilations[i];
        }
        problem.groups = convDesc->group_count;
        problem.mode = convDesc->mode;
        problem.compute_type = convDesc->compute_type;
        problem.math_type = convDesc->math_type;
        LIBREDNN_CHECK(librednn::validate_im2col(problem));
        librednn::Im2ColBuffers buffers;
        buffers.x = x;
        buffers.col = colBuffer;
        return librednn::dispatch_and_run(librednn::im2col_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "im2col");
    });
}
