// cudnnIm2Col: the matrix a GEMM forward convolution multiplies the filter with. Row (n, output
// position) of batch x output positions, column (c, tap) of C x filter taps, row-major, in x's type;
// zeros where a window reaches into the padding. CUDNN_CONVOLUTION mode numbers the taps of the flipped
// filter, so that the matrix times the filter as stored gives the convolution.
#include "api/convolution_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/element_access.hpp"

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
        if (handle->backend != librednn::Backend::host) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED,
                                  "cudnnIm2Col runs on the host backend only so far (LIBREDNN_BACKEND=host); see "
                                  "docs/SUPPORT.md");
        }
        const librednn::TensorGeometry geometry = librednn::geometry_of(*xDesc);
        if (geometry.vector() > 1) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "cudnnIm2Col does not take vectorised (%s) tensors",
                                  librednn::data_type_short_name(geometry.dtype));
        }
        const int spatial = convDesc->spatial_dims;
        int64_t out_size = 1, taps = 1;
        for (int i = 0; i < spatial; ++i) {
            out_size *= y_dims[i + 2];
            taps *= wDesc->dims[i + 2];
        }
        const int64_t channels = geometry.dims[1], columns = channels * taps;
        for (int64_t n = 0; n < geometry.dims[0]; ++n) {
            for (int64_t p = 0; p < out_size; ++p) {
                int64_t out_at[CUDNN_DIM_MAX] = {};
                for (int64_t rest = p, i = spatial - 1; i >= 0; --i) {
                    out_at[i] = rest % y_dims[i + 2];
                    rest /= y_dims[i + 2];
                }
                const int64_t row = n * out_size + p;
                for (int64_t c = 0; c < channels; ++c) {
                    for (int64_t tap = 0; tap < taps; ++tap) {
                        int64_t index[CUDNN_DIM_MAX] = {n, c};
                        bool inside = true;
                        // The flipped filter's tap for CONVOLUTION: the window read in reverse.
                        int64_t rest = convDesc->mode == CUDNN_CONVOLUTION ? taps - 1 - tap : tap;
                        for (int i = spatial - 1; i >= 0; --i) {
                            const int64_t f = rest % wDesc->dims[i + 2];
                            rest /= wDesc->dims[i + 2];
                            const int64_t at =
                                out_at[i] * convDesc->strides[i] - convDesc->pads[i] + f * convDesc->dilations[i];
                            inside = inside && at >= 0 && at < geometry.dims[i + 2];
                            index[i + 2] = at;
                        }
                        const double value =
                            inside ? librednn::load_scalar(x, geometry.dtype, geometry.offset(index)) : 0.0;
                        librednn::store_scalar(colBuffer, geometry.dtype, row * columns + c * taps + tap, value);
                    }
                }
            }
        }
        return CUDNN_STATUS_SUCCESS;
    });
}
