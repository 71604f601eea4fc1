// Folding a strided backward-data convolution into a unit-stride one (what
// cudnnGetFoldedConvBackwardDataDescriptors describes). With stride s along a spatial dim, dx position
// h (padded: h + pad = a s + i) only meets filter taps r = b s + i of the same phase i, so that, with
// the phase moved into the channels (the tensor transform's fold: channel i * C + c, i row-major over
// the dims), the forward convolution is
//   y[n, k, p] = sum over (i, c) and b of  X'[n, i C + c, p + b] * W'[k, i C + c, b],
//   X'[n, i C + c, a] = x[n, c, a s + i - pad]  (x padded by pad before, zeros after),
//   W'[k, i C + c, b] = w[k, c, b s + i]        (w padded with zeros to a multiple of s),
// a cross-correlation with stride 1 and no padding. Its backward data, unfolded and cropped back to dx,
// is the strided problem's backward data. Along each dim (H: dx extent, R: filter, P: dy extent):
//   B = ceil(R / s) folded filter taps,  A = max(P + B - 1, ceil((H + pad) / s)) folded dx positions,
//   P' = A - B + 1 folded dy positions (dy padded with zeros after, where P' > P),
// and dx is the unfolded A s positions with pad cropped before and A s - H - pad after.
#pragma once

#include "ops/conv/problem.hpp"

#include <cstdint>
#include <string>

namespace librednn {

struct ConvFolding {
    // Every stride 1: nothing to fold. The folded problem is the problem itself (its geometry, groups,
    // dilation and mode kept), the transforms only change layouts.
    bool identity = false;
    int64_t fold[kMaxConvSpatialDims] = {};  // the strides: fold factor per spatial dim
    // Dims in NCHW order (4: the transforms take 4-d tensors).
    int64_t folded_filter[kMaxDims] = {};  // K, C x fold product, B...
    int64_t padded_diff[kMaxDims] = {};    // N, K, P'...
    int64_t folded_grad[kMaxDims] = {};    // N, C x fold product, A...
    // Per spatial dim: zeros after the filter before folding (B s - R); zeros after dy (P' - P); dx's
    // padding before folding (pad before, A s - H - pad after), which unfolding crops.
    int64_t filter_pad_after[kMaxConvSpatialDims] = {};
    int64_t diff_pad_after[kMaxConvSpatialDims] = {};
    int64_t grad_pad_before[kMaxConvSpatialDims] = {};
    int64_t grad_pad_after[kMaxConvSpatialDims] = {};

    bool pads_diff() const;
};

// The folding of backward-data `problem` (validated); false with the reason when it has none: a
// strided problem folds only as a 2-d cross-correlation without dilation or groups.
bool fold_backward_data(const ConvProblem &problem, ConvFolding *folding, std::string *reason);

}  // namespace librednn
