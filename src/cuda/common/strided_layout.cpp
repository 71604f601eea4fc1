// Strided layouts: building them for element-wise operations, reshaping them, and fast divisors.
#include "cuda/common/strided_layout.hpp"

#include <climits>

namespace librednn::cuda {

int64_t StridedLayout::element_count() const {
    int64_t count = 1;
    for (int d = 0; d < rank; ++d) count *= extents[d];
    return count;
}

void StridedLayout::drop_unit_dims() {
    int kept = 0;
    for (int d = 0; d < rank; ++d) {
        if (extents[d] == 1) continue;
        extents[kept] = extents[d];
        for (int k = 0; k < operands; ++k) strides[k][kept] = strides[k][d];
        ++kept;
    }
    rank = kept;
}

void StridedLayout::order_by(int operand) {
    // Insertion sort: stable, and rank is at most kMaxLayoutDims.
    for (int d = 1; d < rank; ++d) {
        for (int e = d; e > 0 && strides[operand][e - 1] < strides[operand][e]; --e) {
            const int64_t extent = extents[e];
            extents[e] = extents[e - 1];
            extents[e - 1] = extent;
            for (int k = 0; k < operands; ++k) {
                const int64_t stride = strides[k][e];
                strides[k][e] = strides[k][e - 1];
                strides[k][e - 1] = stride;
            }
        }
    }
}

void StridedLayout::coalesce() {
    if (rank <= 1) return;
    int last = 0;
    for (int d = 1; d < rank; ++d) {
        bool mergeable = true;
        for (int k = 0; k < operands; ++k) mergeable = mergeable && strides[k][last] == strides[k][d] * extents[d];
        if (mergeable) {
            extents[last] *= extents[d];
            for (int k = 0; k < operands; ++k) strides[k][last] = strides[k][d];
        } else {
            ++last;
            extents[last] = extents[d];
            for (int k = 0; k < operands; ++k) strides[k][last] = strides[k][d];
        }
    }
    rank = last + 1;
}

bool StridedLayout::is_row_major(int operand) const {
    int64_t expected = 1;
    for (int d = rank - 1; d >= 0; --d) {
        if (extents[d] != 1 && strides[operand][d] != expected) return false;
        expected *= extents[d];
    }
    return true;
}

bool build_elementwise_layout(const TensorGeometry &output, const TensorGeometry *inputs, int input_count,
                              StridedLayout *layout) {
    const int nb_dims = output.nb_dims;
    if (nb_dims < 1 || nb_dims > kMaxDims || input_count + 1 > kMaxLayoutOperands) return false;
    const TensorGeometry *operands[kMaxLayoutOperands] = {&output};
    for (int k = 0; k < input_count; ++k) {
        operands[k + 1] = &inputs[k];
        if (inputs[k].nb_dims != nb_dims) return false;
        for (int i = 0; i < nb_dims; ++i) {
            if (inputs[k].dims[i] != output.dims[i] && inputs[k].dims[i] != 1) return false;
        }
    }
    const int operand_count = input_count + 1;

    // The channel dim splits at every vector width in use, so that each part maps linearly to memory
    // in every operand: [C/32, 8, 4] with inner sizes 32, 4, 1 when INT8x32 meets INT8x4.
    bool has4 = false, has32 = false;
    for (int k = 0; k < operand_count; ++k) {
        const int lanes = operands[k]->vector();
        has4 = has4 || lanes == 4;
        has32 = has32 || lanes == 32;
    }
    int64_t part_inner[3] = {1, 1, 1};
    int parts = 1;
    if (nb_dims >= 2) {
        const int64_t channels = output.dims[1];
        if (has32 && channels % 32 != 0) return false;
        if (has4 && channels % 4 != 0) return false;
        if (has32 && has4) {
            parts = 3;
            part_inner[0] = 32, part_inner[1] = 4, part_inner[2] = 1;
        } else if (has32 || has4) {
            parts = 2;
            part_inner[0] = has32 ? 32 : 4, part_inner[1] = 1;
        }
    }

    StridedLayout result;
    result.operands = operand_count;
    for (int i = 0; i < nb_dims; ++i) {
        const int part_count = i == 1 ? parts : 1;
        for (int j = 0; j < part_count; ++j) {
            const int d = result.rank++;
            if (i == 1) {
                const int64_t outer = j == 0 ? output.dims[1] : part_inner[j - 1];
                result.extents[d] = outer / part_inner[j];
            } else {
                result.extents[d] = output.dims[i];
            }
            for (int k = 0; k < operand_count; ++k) {
                const TensorGeometry &g = *operands[k];
                const int64_t lanes = g.vector();
                int64_t stride = 0;
                if (g.dims[i] == 1 && output.dims[i] != 1) {
                    stride = 0;  // broadcast
                } else if (i != 1) {
                    stride = g.strides[i] * lanes;
                } else if (lanes == 1) {
                    stride = part_inner[j] * g.strides[1];
                } else if (part_inner[j] >= lanes) {
                    stride = part_inner[j] / lanes * g.strides[1] * lanes;
                } else {
                    stride = part_inner[j];  // lanes inside one vector
                }
                result.strides[k][d] = stride;
            }
        }
    }
    *layout = result;
    return true;
}

FastDivisor make_fast_divisor(int64_t divisor) {
    FastDivisor result;
    result.divisor = divisor < 1 ? 1 : divisor;
    const uint64_t d = static_cast<uint64_t>(result.divisor);
    uint32_t shift = 0;
    while ((uint64_t{1} << shift) < d) ++shift;
    result.shift = shift;
    // m = floor(2^N * (2^shift - d) / d) + 1 for N = 64 and N = 32; q = (mulhi(n, m) + n) >> shift.
    const unsigned __int128 excess = (static_cast<unsigned __int128>(1) << shift) - d;
    result.multiplier64 = static_cast<uint64_t>((excess << 64) / d + 1);
    result.multiplier32 =
        d <= INT32_MAX ? static_cast<uint32_t>(((uint64_t{1} << shift) - d) * (uint64_t{1} << 32) / d + 1) : 0;
    return result;
}

DeviceLayout to_device_layout(const StridedLayout &layout) {
    DeviceLayout device;
    device.rank = layout.rank;
    for (int d = 0; d < layout.rank; ++d) {
        device.extents[d] = make_fast_divisor(layout.extents[d]);
        for (int k = 0; k < layout.operands; ++k) device.strides[k][d] = layout.strides[k][d];
    }
    return device;
}

}  // namespace librednn::cuda
