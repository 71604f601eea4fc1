// Packing a convolution's tensors into compute-type arrays and storing the result back.
#include "host/conv/packed_conv.hpp"

#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "ops/common/element_access.hpp"
#include "ops/conv/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace librednn::host::conv {

namespace {

constexpr size_t kAlign = 64;

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// Every element of `g` in row-major index order (N, C, spatial...): visit(linear number, offset).
template <class Visit>
void for_each_offset(const TensorGeometry &g, Visit &&visit) {
    int64_t index[kMaxDims] = {};
    int64_t number = 0;
    if (g.vector() > 1) {
        do {
            visit(number++, g.offset(index));
        } while (next_index(index, g.dims, g.nb_dims));
        return;
    }
    // Plain layouts: the offset follows the index incrementally.
    int64_t offset = 0;
    const int last = g.nb_dims - 1;
    for (;;) {
        for (int64_t j = 0; j < g.dims[last]; ++j) visit(number++, offset + j * g.strides[last]);
        int d = last - 1;
        for (; d >= 0; --d) {
            offset += g.strides[d];
            if (++index[d] < g.dims[d]) break;
            offset -= g.strides[d] * g.dims[d];
            index[d] = 0;
        }
        if (d < 0) return;
    }
}

// Copies tensor `g` at `data` into `out` in row-major index order, converted to C.
template <class C>
void pack(const TensorGeometry &g, const void *data, C *out) {
    with_host_type(g.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using E = HostElement<T>;
        const T *source = static_cast<const T *>(data);
        for_each_offset(g,
                        [&](int64_t number, int64_t offset) { out[number] = static_cast<C>(E::load(source[offset])); });
    });
}

// The filter [K][Cg][taps]; CUDNN_CONVOLUTION reads it with every spatial dim reversed, so that the
// solvers only ever cross-correlate.
template <class C>
void pack_filter(const ConvProblem &problem, const void *data, C *out) {
    pack(problem.w, data, out);
    if (problem.mode != CUDNN_CONVOLUTION) return;
    const ConvShape s = shape_of(problem);
    // Reversing each spatial dim of a row-major block reverses the whole block of taps.
    for (int64_t row = 0; row < s.k * s.cg; ++row) std::reverse(out + row * s.taps, out + (row + 1) * s.taps);
}

double activate(cudnnActivationMode_t mode, cudnnNanPropagation_t nan_opt, double value) {
    if (mode != CUDNN_ACTIVATION_RELU) return value;
    if (std::isnan(value)) return nan_opt == CUDNN_PROPAGATE_NAN ? value : 0.0;
    return value > 0.0 ? value : 0.0;
}

}  // namespace

ConvShape shape_of(const ConvProblem &problem) {
    ConvShape s;
    s.spatial = problem.spatial_dims;
    s.n = problem.x.dims[0];
    s.c = problem.x.dims[1];
    s.k = problem.w.dims[0];
    s.groups = problem.groups;
    s.cg = s.c / s.groups;
    s.kg = s.k / s.groups;
    for (int i = 0; i < s.spatial; ++i) {
        s.in_dims[i] = problem.x.dims[i + 2];
        s.tap_dims[i] = problem.w.dims[i + 2];
        s.out_dims[i] = problem.y.dims[i + 2];
        s.in *= s.in_dims[i];
        s.taps *= s.tap_dims[i];
        s.out *= s.out_dims[i];
        s.pad[i] = problem.pad[i];
        s.stride[i] = problem.stride[i];
        s.dilation[i] = problem.dilation[i];
    }
    return s;
}

bool computes_in_double(const ConvProblem &problem) {
    ConvTypeConfig config = ConvTypeConfig::float_config;
    Status ignored = CUDNN_STATUS_SUCCESS;
    if (!conv_type_config(problem, &config, &ignored)) clear_failure_reason();
    return problem.x.dtype == CUDNN_DATA_DOUBLE || is_integer_config(config);
}

void input_offsets(const ConvShape &s, int64_t tap, int64_t *offsets) {
    // The tap's coordinates, then each output position's input coordinates, walked like an odometer.
    int64_t tap_at[kMaxConvSpatialDims] = {}, base[kMaxConvSpatialDims] = {};
    for (int i = s.spatial - 1; i >= 0; --i) {
        tap_at[i] = tap % s.tap_dims[i];
        tap /= s.tap_dims[i];
        base[i] = tap_at[i] * s.dilation[i] - s.pad[i];
    }
    int64_t out_at[kMaxConvSpatialDims] = {};
    const int last = s.spatial - 1;
    for (int64_t p = 0; p < s.out;) {
        // The outer coordinates' part of the offset (or -1 when one of them is outside).
        int64_t outer = 0;
        bool inside = true;
        for (int i = 0; i < last; ++i) {
            const int64_t at = base[i] + out_at[i] * s.stride[i];
            inside = inside && at >= 0 && at < s.in_dims[i];
            outer = outer * s.in_dims[i] + at;
        }
        outer *= s.in_dims[last];
        for (int64_t j = 0; j < s.out_dims[last]; ++j, ++p) {
            const int64_t at = base[last] + j * s.stride[last];
            offsets[p] = inside && at >= 0 && at < s.in_dims[last] ? outer + at : -1;
        }
        for (int i = last - 1; i >= 0; --i) {
            if (++out_at[i] < s.out_dims[i]) break;
            out_at[i] = 0;
        }
    }
}

size_t packed_workspace_bytes(const ConvProblem &problem, int64_t scratch_elements, int64_t index_elements) {
    const ConvShape s = shape_of(problem);
    const size_t element = computes_in_double(problem) ? sizeof(double) : sizeof(float);
    const int64_t elements[] = {s.n * s.c * s.in, s.k * s.cg * s.taps, s.n * s.k * s.out, scratch_elements};
    size_t bytes = 0;
    for (int64_t count : elements) bytes += aligned(static_cast<size_t>(count) * element);
    return bytes + aligned(static_cast<size_t>(index_elements) * sizeof(int64_t));
}

template <class C>
PackedTensors<C> carve_workspace(const ConvProblem &problem, void *workspace, int64_t scratch_elements,
                                 int64_t index_elements) {
    const ConvShape s = shape_of(problem);
    auto *next = static_cast<unsigned char *>(workspace);
    auto take = [&](int64_t count, size_t size) {
        unsigned char *at = next;
        next += aligned(static_cast<size_t>(count) * size);
        return at;
    };
    PackedTensors<C> packed;
    packed.x = reinterpret_cast<C *>(take(s.n * s.c * s.in, sizeof(C)));
    packed.w = reinterpret_cast<C *>(take(s.k * s.cg * s.taps, sizeof(C)));
    packed.y = reinterpret_cast<C *>(take(s.n * s.k * s.out, sizeof(C)));
    packed.scratch = reinterpret_cast<C *>(take(scratch_elements, sizeof(C)));
    packed.index = reinterpret_cast<int64_t *>(take(index_elements, sizeof(int64_t)));
    (void)index_elements;
    return packed;
}

template <class C>
void pack_inputs(const ConvProblem &problem, const ConvBuffers &buffers, const PackedTensors<C> &packed) {
    const ConvShape s = shape_of(problem);
    switch (problem.direction) {
        case ConvDirection::forward:
            pack(problem.x, buffers.x, packed.x);
            pack_filter(problem, buffers.w, packed.w);
            std::fill(packed.y, packed.y + s.n * s.k * s.out, C(0));
            break;
        case ConvDirection::backward_data:
            pack_filter(problem, buffers.w, packed.w);
            pack(problem.y, buffers.y, packed.y);
            std::fill(packed.x, packed.x + s.n * s.c * s.in, C(0));
            break;
        case ConvDirection::backward_filter:
            pack(problem.x, buffers.x, packed.x);
            pack(problem.y, buffers.y, packed.y);
            std::fill(packed.w, packed.w + s.k * s.cg * s.taps, C(0));
            break;
    }
}

template <class C>
void store_result(const ConvProblem &problem, const ConvBuffers &buffers, const PackedTensors<C> &packed) {
    const TensorGeometry &out = problem.result();
    const ConvShape s = shape_of(problem);
    const C *sums = problem.direction == ConvDirection::forward         ? packed.y
                    : problem.direction == ConvDirection::backward_data ? packed.x
                                                                        : packed.w;
    if (problem.direction == ConvDirection::backward_filter && problem.mode == CUDNN_CONVOLUTION) {
        // The sums are over the flipped filter: flip them back (in place: the workspace is ours).
        C *flipped = const_cast<C *>(sums);
        for (int64_t row = 0; row < s.k * s.cg; ++row)
            std::reverse(flipped + row * s.taps, flipped + (row + 1) * s.taps);
    }
    const double alpha = problem.alpha, beta = problem.beta;
    const ConvEpilogue &e = problem.epilogue;
    with_host_type(out.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using E = HostElement<T>;
        T *target = static_cast<T *>(buffers.result);
        if (!e.fused) {
            for_each_offset(out, [&](int64_t number, int64_t offset) {
                double value = alpha * static_cast<double>(sums[number]);
                if (beta != 0.0) value += beta * static_cast<double>(E::load(target[offset]));
                target[offset] = E::from_double(value);
            });
            return;
        }
        // Fused: the bias of channel k; z read (it may be y's memory) before y is written.
        const int64_t per_channel = s.out;
        for_each_offset(out, [&](int64_t number, int64_t offset) {
            const int64_t channel = (number / per_channel) % s.k;
            int64_t bias_index[kMaxDims] = {};
            bias_index[1] = channel;
            double value = alpha * static_cast<double>(sums[number]) +
                           load_scalar(buffers.bias, e.bias.dtype, e.bias.offset(bias_index));
            if (e.alpha2 != 0.0) {
                int64_t index[kMaxDims] = {}, rest = number;
                for (int d = out.nb_dims - 1; d >= 0; --d) {
                    index[d] = rest % out.dims[d];
                    rest /= out.dims[d];
                }
                value += e.alpha2 * load_scalar(buffers.z, e.z.dtype, e.z.offset(index));
            }
            target[offset] = E::from_double(activate(e.activation, e.nan_opt, value));
        });
    });
}

template PackedTensors<float> carve_workspace<float>(const ConvProblem &, void *, int64_t, int64_t);
template PackedTensors<double> carve_workspace<double>(const ConvProblem &, void *, int64_t, int64_t);
template void pack_inputs<float>(const ConvProblem &, const ConvBuffers &, const PackedTensors<float> &);
template void pack_inputs<double>(const ConvProblem &, const ConvBuffers &, const PackedTensors<double> &);
template void store_result<float>(const ConvProblem &, const ConvBuffers &, const PackedTensors<float> &);
template void store_result<double>(const ConvProblem &, const ConvBuffers &, const PackedTensors<double> &);

}  // namespace librednn::host::conv
