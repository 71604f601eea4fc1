// The channels of a 16-byte vector's lanes over packed NCHW planes that are not whole vectors (7 x 7): a
// vector may hold the end of one channel's plane and the start of the next. Shared by the inference and
// training kernels.
#pragma once

#include "cuda/common/device_common.cuh"

namespace librednn::cuda {

// Lanes before `split` belong to channel `first`, the others to `next`.
struct LaneChannels {
    int first, next;
    int split;
};

// The vector starting at element `element`, planes of `spatial` elements (at least a vector long, so a
// vector meets at most two planes), `channels` planes an image.
__device__ __forceinline__ LaneChannels lane_channels(const FastDivisor &spatial, const FastDivisor &channels,
                                                      int64_t element) {
    const int64_t plane = divide(spatial, element);
    const int64_t into = element - plane * spatial.divisor;
    LaneChannels lanes;
    lanes.first = static_cast<int>(plane - divide(channels, plane) * channels.divisor);
    lanes.next = lanes.first + 1 == channels.divisor ? 0 : lanes.first + 1;
    lanes.split = static_cast<int>(spatial.divisor - into);  // lanes at or past it are in the next plane
    return lanes;
}

__device__ __forceinline__ int lane_channel(const LaneChannels &lanes, int lane) {
    return lane < lanes.split ? lanes.first : lanes.next;
}

}  // namespace librednn::cuda
