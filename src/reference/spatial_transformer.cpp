// The reference spatial transformer: every grid point and every sample computed on its own, in double.
#include "reference/spatial_transformer.hpp"

#include <cmath>
#include <vector>

namespace librednn::reference {

namespace {

Status check_rank(const TensorView &view, const char *name, int rank) {
    LIBREDNN_CHECK(check_view(view, name));
    if (view.rank() != rank) return fail(CUDNN_STATUS_BAD_PARAM, "%s has %d dims, needs %d", name, view.rank(), rank);
    return CUDNN_STATUS_SUCCESS;
}

// theta [N, 2, 3] and a grid [N, H, W, 2] of the same N.
Status check_theta_and_grid(const TensorView &theta, const char *theta_name, const TensorView &grid,
                            const char *grid_name) {
    LIBREDNN_CHECK(check_rank(theta, theta_name, 3));
    LIBREDNN_CHECK(check_rank(grid, grid_name, 4));
    if (theta.dims[1] != 2 || theta.dims[2] != 3 || grid.dims[3] != 2 || theta.dims[0] != grid.dims[0]) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s and %s %s: they must be N x 2 x 3 and N x H x W x 2", theta_name,
                    dims_to_string(theta.dims).c_str(), grid_name, dims_to_string(grid.dims).c_str());
    }
    return CUDNN_STATUS_SUCCESS;
}

// x [N, C, Hin, Win], out [N, C, H, W] and a grid [N, H, W, 2].
Status check_sampler(const TensorView &x, const char *x_name, const TensorView &grid, const TensorView &out,
                     const char *out_name) {
    LIBREDNN_CHECK(check_rank(x, x_name, 4));
    LIBREDNN_CHECK(check_rank(grid, "grid", 4));
    LIBREDNN_CHECK(check_rank(out, out_name, 4));
    if (out.dims[0] != x.dims[0] || out.dims[1] != x.dims[1] || grid.dims[0] != out.dims[0] ||
        grid.dims[1] != out.dims[2] || grid.dims[2] != out.dims[3] || grid.dims[3] != 2) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s is %s, grid %s and %s %s: the sampler needs N x C x Hin x Win, N x H x W x 2 and N x C x H x W",
                    x_name, dims_to_string(x.dims).c_str(), dims_to_string(grid.dims).c_str(), out_name,
                    dims_to_string(out.dims).c_str());
    }
    return CUDNN_STATUS_SUCCESS;
}

// The bilinear taps of one sample: along each axis the two input positions floor(i) and floor(i) + 1,
// whether each lies inside the input, and the fraction t = i - floor(i).
struct AxisTaps {
    int64_t at[2] = {0, 0};
    bool inside[2] = {false, false};
    double t = 0;
};

AxisTaps axis_taps(double coordinate, int64_t extent) {
    AxisTaps taps;
    const double first = std::floor(coordinate);
    // Compared as doubles before any conversion: NaN, infinities and huge values have no tap inside.
    for (int k = 0; k < 2; ++k) {
        const double position = first + k;
        taps.inside[k] = position >= 0 && position < static_cast<double>(extent);
        if (taps.inside[k]) taps.at[k] = static_cast<int64_t>(position);
    }
    if (taps.inside[0] || taps.inside[1]) taps.t = coordinate - first;
    return taps;
}

double weight(const AxisTaps &taps, int k) { return k == 0 ? 1 - taps.t : taps.t; }

}  // namespace

double spatial_tf_base_coordinate(int64_t i, int64_t extent) {
    if (extent == 1) return 0.0;
    return -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(extent - 1);
}

double spatial_tf_source_coordinate(double g, int64_t extent) {
    return (g + 1.0) * static_cast<double>(extent - 1) / 2.0;
}

Status spatial_tf_grid_forward(const TensorView &theta, const TensorView &grid) {
    LIBREDNN_CHECK(check_theta_and_grid(theta, "theta", grid, "grid"));
    for_each_index(grid.dims, [&](const Index &i) {
        const double base[3] = {spatial_tf_base_coordinate(i[2], grid.dims[2]),
                                spatial_tf_base_coordinate(i[1], grid.dims[1]), 1.0};
        double sum = 0;
        for (int64_t j = 0; j < 3; ++j) sum += theta.read({i[0], i[3], j}) * base[j];
        grid.write(i, sum);
    });
    return CUDNN_STATUS_SUCCESS;
}

Status spatial_tf_grid_backward(const TensorView &dgrid, const TensorView &dtheta) {
    LIBREDNN_CHECK(check_theta_and_grid(dtheta, "dtheta", dgrid, "dgrid"));
    for_each_index(dtheta.dims, [&](const Index &t) {
        double sum = 0;
        for_each_index({dgrid.dims[1], dgrid.dims[2]}, [&](const Index &hw) {
            const double base[3] = {spatial_tf_base_coordinate(hw[1], dgrid.dims[2]),
                                    spatial_tf_base_coordinate(hw[0], dgrid.dims[1]), 1.0};
            sum += dgrid.read({t[0], hw[0], hw[1], t[1]}) * base[t[2]];
        });
        dtheta.write(t, sum);
    });
    return CUDNN_STATUS_SUCCESS;
}

Status spatial_tf_sampler_forward(double alpha, const TensorView &x, const TensorView &grid, double beta,
                                  const TensorView &y) {
    LIBREDNN_CHECK(check_sampler(x, "x", grid, y, "y"));
    for_each_index(y.dims, [&](const Index &o) {
        const AxisTaps cols =
            axis_taps(spatial_tf_source_coordinate(grid.read({o[0], o[2], o[3], 0}), x.dims[3]), x.dims[3]);
        const AxisTaps rows =
            axis_taps(spatial_tf_source_coordinate(grid.read({o[0], o[2], o[3], 1}), x.dims[2]), x.dims[2]);
        double sample = 0;
        for (int r = 0; r < 2; ++r) {
            for (int c = 0; c < 2; ++c) {
                if (rows.inside[r] && cols.inside[c])
                    sample += weight(rows, r) * weight(cols, c) * x.read({o[0], o[1], rows.at[r], cols.at[c]});
            }
        }
        store_blended(y, o, alpha * sample, beta);
    });
    return CUDNN_STATUS_SUCCESS;
}

Status spatial_tf_sampler_backward(double alpha, const TensorView &x, double beta, const TensorView &dx,
                                   double alpha_dgrid, const TensorView &dy, const TensorView &grid, double beta_dgrid,
                                   const TensorView &dgrid) {
    LIBREDNN_CHECK(check_sampler(x, "x", grid, dy, "dy"));
    LIBREDNN_CHECK(check_rank(dx, "dx", 4));
    LIBREDNN_CHECK(check_rank(dgrid, "dgrid", 4));
    if (dx.dims != x.dims || dgrid.dims != grid.dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "dx is %s and dgrid %s: they must be x's %s and the grid's %s",
                    dims_to_string(dx.dims).c_str(), dims_to_string(dgrid.dims).c_str(), dims_to_string(x.dims).c_str(),
                    dims_to_string(grid.dims).c_str());
    }
    // dx's sums, packed like x's dims, then blended into dx.
    const int64_t h_in = x.dims[2], w_in = x.dims[3];
    std::vector<double> scatter(static_cast<size_t>(x.element_count()), 0.0);
    auto at = [&](int64_t n, int64_t c, int64_t row, int64_t col) {
        return static_cast<size_t>(((n * x.dims[1] + c) * h_in + row) * w_in + col);
    };
    for_each_index({dy.dims[0], dy.dims[2], dy.dims[3]}, [&](const Index &p) {
        const int64_t n = p[0];
        const AxisTaps cols = axis_taps(spatial_tf_source_coordinate(grid.read({n, p[1], p[2], 0}), w_in), w_in);
        const AxisTaps rows = axis_taps(spatial_tf_source_coordinate(grid.read({n, p[1], p[2], 1}), h_in), h_in);
        double d_ix = 0, d_iy = 0;  // d sample / d ix and / d iy, times dy, summed over the channels
        for (int64_t c = 0; c < x.dims[1]; ++c) {
            const double g = dy.read({n, c, p[1], p[2]});
            double v[2][2] = {{0, 0}, {0, 0}};  // [row tap][column tap], 0 outside x
            for (int r = 0; r < 2; ++r) {
                for (int k = 0; k < 2; ++k) {
                    if (!rows.inside[r] || !cols.inside[k]) continue;
                    v[r][k] = x.read({n, c, rows.at[r], cols.at[k]});
                    scatter[at(n, c, rows.at[r], cols.at[k])] += weight(rows, r) * weight(cols, k) * g;
                }
            }
            // Moving ix moves weight from each row's left tap to its right one; iy, from the top row to the
            // bottom one.
            d_ix += g * (weight(rows, 0) * (v[0][1] - v[0][0]) + weight(rows, 1) * (v[1][1] - v[1][0]));
            d_iy += g * (weight(cols, 0) * (v[1][0] - v[0][0]) + weight(cols, 1) * (v[1][1] - v[0][1]));
        }
        store_blended(dgrid, {n, p[1], p[2], 0}, alpha_dgrid * d_ix * static_cast<double>(w_in - 1) / 2.0, beta_dgrid);
        store_blended(dgrid, {n, p[1], p[2], 1}, alpha_dgrid * d_iy * static_cast<double>(h_in - 1) / 2.0, beta_dgrid);
    });
    for_each_index(x.dims,
                   [&](const Index &i) { store_blended(dx, i, alpha * scatter[at(i[0], i[1], i[2], i[3])], beta); });
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
