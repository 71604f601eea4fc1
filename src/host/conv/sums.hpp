// The sums of the host convolution solvers over packed tensors (packed_conv.hpp). Each direction comes
// in the two ways cuDNN's algorithms name: implicit (the input position of each output position and
// tap found as the sum runs, or looked up in a precomputed table) and explicit GEMM (the windows
// copied into a column matrix first, im2col, then one matrix product). Work splits over images,
// groups and the rows of the result a thread owns, never over a sum: results are deterministic and
// independent of the thread count.
#pragma once

#include "host/common/gemm.hpp"
#include "host/common/parallel.hpp"
#include "host/conv/packed_conv.hpp"

#include <algorithm>

namespace librednn::host::conv {

// Where each (tap, output position) reads its input: computed per tap as the sum runs (`table` null,
// into `scratch` of s.out entries) or read from a table of s.taps x s.out entries.
struct Offsets {
    const int64_t *table = nullptr;

    const int64_t *row(const ConvShape &s, int64_t tap, int64_t *scratch) const {
        if (table != nullptr) return table + tap * s.out;
        input_offsets(s, tap, scratch);
        return scratch;
    }
};

inline void fill_offset_table(const ConvShape &s, int64_t *table) {
    parallel_for(s.taps, 1, [&](int64_t begin, int64_t end, int) {
        for (int64_t tap = begin; tap < end; ++tap) input_offsets(s, tap, table + tap * s.out);
    });
}

// Splits `outer` independent items, each owning `rows` rows, into parts for the threads: part i covers
// item i / parts_per_item and its rows' share i % parts_per_item.
struct Split {
    int64_t items = 0, parts_per_item = 1, rows = 0;
    Split(int64_t outer, int64_t row_count) : items(outer), rows(row_count) {
        const int64_t threads = host_thread_count();
        if (outer < threads) parts_per_item = std::min(row_count, (threads + outer - 1) / outer);
        parts_per_item = std::max<int64_t>(parts_per_item, 1);
    }
    int64_t count() const { return items * parts_per_item; }
    int64_t item(int64_t part) const { return part / parts_per_item; }
    int64_t row_begin(int64_t part) const { return rows * (part % parts_per_item) / parts_per_item; }
    int64_t row_end(int64_t part) const { return rows * (part % parts_per_item + 1) / parts_per_item; }
};

// The number of threads (and per-thread scratch areas) a split runs on.
inline int64_t parts_of(const Split &split) { return std::min<int64_t>(host_thread_count(), split.count()); }

// Gathers channel row `x_row` (s.in positions) through `offsets` into `out` (s.out positions, 0 in the
// padding).
template <class C>
void gather(const ConvShape &s, const C *x_row, const int64_t *offsets, C *out) {
    for (int64_t p = 0; p < s.out; ++p) out[p] = offsets[p] >= 0 ? x_row[offsets[p]] : C(0);
}

// im2col of one image and group: col[c * taps + tap][p] = x[c][offset(tap, p)].
template <class C>
void im2col(const ConvShape &s, const C *x, const Offsets &offsets, int64_t *offset_scratch, C *col) {
    for (int64_t tap = 0; tap < s.taps; ++tap) {
        const int64_t *row = offsets.row(s, tap, offset_scratch);
        for (int64_t c = 0; c < s.cg; ++c) gather(s, x + c * s.in, row, col + (c * s.taps + tap) * s.out);
    }
}

// --- forward: y[n][k][p] = sum over c, tap of w[k][c][tap] * x[n][c][offset(tap, p)] ---------------------

// Per thread: s.out gathered values (scratch) and s.out offsets (index, when no table).
template <class C>
void forward_implicit(const ConvShape &s, const PackedTensors<C> &t, const Offsets &offsets) {
    const Split split(s.n * s.groups, s.kg);
    parallel_for(split.count(), 1, [&](int64_t begin, int64_t end, int thread) {
        C *row = t.scratch + thread * s.out;
        int64_t *offset_scratch = offsets.table ? nullptr : t.index + thread * s.out;
        for (int64_t part = begin; part < end; ++part) {
            const int64_t n = split.item(part) / s.groups, g = split.item(part) % s.groups;
            const C *x = t.x + (n * s.c + g * s.cg) * s.in;
            const C *w = t.w + g * s.kg * s.cg * s.taps;
            C *y = t.y + (n * s.k + g * s.kg) * s.out;
            for (int64_t tap = 0; tap < s.taps; ++tap) {
                const int64_t *at = offsets.row(s, tap, offset_scratch);
                for (int64_t c = 0; c < s.cg; ++c) {
                    gather(s, x + c * s.in, at, row);
                    for (int64_t k = split.row_begin(part); k < split.row_end(part); ++k) {
                        const C factor = w[(k * s.cg + c) * s.taps + tap];
                        C *out = y + k * s.out;
                        for (int64_t p = 0; p < s.out; ++p) out[p] += factor * row[p];
                    }
                }
            }
        }
    });
}

// Per thread: a column matrix of cg * taps x out (scratch) and s.out offsets (index).
template <class C>
void forward_gemm(const ConvShape &s, const PackedTensors<C> &t) {
    const Split split(s.n * s.groups, s.kg);
    const int64_t col_size = s.cg * s.taps * s.out;
    parallel_for(split.count(), 1, [&](int64_t begin, int64_t end, int thread) {
        C *col = t.scratch + thread * col_size;
        int64_t *offset_scratch = t.index + thread * s.out;
        int64_t built = -1;  // the item whose columns `col` holds
        for (int64_t part = begin; part < end; ++part) {
            const int64_t item = split.item(part), n = item / s.groups, g = item % s.groups;
            if (built != item) {
                im2col(s, t.x + (n * s.c + g * s.cg) * s.in, Offsets{}, offset_scratch, col);
                built = item;
            }
            gemm_nn(s.out, s.cg * s.taps, t.w + g * s.kg * s.cg * s.taps, s.cg * s.taps, col, s.out,
                    t.y + (n * s.k + g * s.kg) * s.out, s.out, split.row_begin(part), split.row_end(part));
        }
    });
}

// --- backward data: dx[n][c][q] = sum over k, tap, p reading q of w[k][c][tap] * dy[n][k][p] ------------

template <class C>
void backward_data_implicit(const ConvShape &s, const PackedTensors<C> &t, const Offsets &offsets) {
    const Split split(s.n * s.groups, s.cg);
    parallel_for(split.count(), 1, [&](int64_t begin, int64_t end, int thread) {
        C *row = t.scratch + thread * s.out;
        int64_t *offset_scratch = offsets.table ? nullptr : t.index + thread * s.out;
        for (int64_t part = begin; part < end; ++part) {
            const int64_t n = split.item(part) / s.groups, g = split.item(part) % s.groups;
            C *dx = t.x + (n * s.c + g * s.cg) * s.in;
            const C *w = t.w + g * s.kg * s.cg * s.taps;
            const C *dy = t.y + (n * s.k + g * s.kg) * s.out;
            for (int64_t tap = 0; tap < s.taps; ++tap) {
                const int64_t *at = offsets.row(s, tap, offset_scratch);
                for (int64_t c = split.row_begin(part); c < split.row_end(part); ++c) {
                    std::fill(row, row + s.out, C(0));
                    for (int64_t k = 0; k < s.kg; ++k) {
                        const C factor = w[(k * s.cg + c) * s.taps + tap];
                        const C *in = dy + k * s.out;
                        for (int64_t p = 0; p < s.out; ++p) row[p] += factor * in[p];
                    }
                    C *target = dx + c * s.in;
                    for (int64_t p = 0; p < s.out; ++p) {
                        if (at[p] >= 0) target[at[p]] += row[p];
                    }
                }
            }
        }
    });
}

// Per thread: a column matrix (scratch) and s.out offsets (index). col = w^T dy, then each column
// entry is added to the input position it came from (col2im).
template <class C>
void backward_data_gemm(const ConvShape &s, const PackedTensors<C> &t) {
    const Split split(s.n * s.groups, s.cg);
    const int64_t col_size = s.cg * s.taps * s.out;
    parallel_for(split.count(), 1, [&](int64_t begin, int64_t end, int thread) {
        C *col = t.scratch + thread * col_size;
        int64_t *offset_scratch = t.index + thread * s.out;
        for (int64_t part = begin; part < end; ++part) {
            const int64_t n = split.item(part) / s.groups, g = split.item(part) % s.groups;
            const int64_t c0 = split.row_begin(part), c1 = split.row_end(part);
            // This part's channels' rows of col only: rows (c * taps + tap) for c in [c0, c1).
            std::fill(col + c0 * s.taps * s.out, col + c1 * s.taps * s.out, C(0));
            gemm_tn(s.out, s.kg, t.w + g * s.kg * s.cg * s.taps, s.cg * s.taps, t.y + (n * s.k + g * s.kg) * s.out,
                    s.out, col, s.out, c0 * s.taps, c1 * s.taps);
            C *dx = t.x + (n * s.c + g * s.cg) * s.in;
            for (int64_t tap = 0; tap < s.taps; ++tap) {
                input_offsets(s, tap, offset_scratch);
                for (int64_t c = c0; c < c1; ++c) {
                    const C *from = col + (c * s.taps + tap) * s.out;
                    C *target = dx + c * s.in;
                    for (int64_t p = 0; p < s.out; ++p) {
                        if (offset_scratch[p] >= 0) target[offset_scratch[p]] += from[p];
                    }
                }
            }
        }
    });
}

// --- backward filter: dw[k][c][tap] = sum over n, p of dy[n][k][p] * x[n][c][offset(tap, p)] ------------

template <class C>
void backward_filter_implicit(const ConvShape &s, const PackedTensors<C> &t, const Offsets &offsets) {
    const Split split(s.groups, s.kg);
    parallel_for(split.count(), 1, [&](int64_t begin, int64_t end, int thread) {
        C *row = t.scratch + thread * s.out;
        int64_t *offset_scratch = offsets.table ? nullptr : t.index + thread * s.out;
        for (int64_t part = begin; part < end; ++part) {
            const int64_t g = split.item(part);
            C *dw = t.w + g * s.kg * s.cg * s.taps;
            for (int64_t n = 0; n < s.n; ++n) {
                const C *x = t.x + (n * s.c + g * s.cg) * s.in;
                const C *dy = t.y + (n * s.k + g * s.kg) * s.out;
                for (int64_t tap = 0; tap < s.taps; ++tap) {
                    const int64_t *at = offsets.row(s, tap, offset_scratch);
                    for (int64_t c = 0; c < s.cg; ++c) {
                        gather(s, x + c * s.in, at, row);
                        for (int64_t k = split.row_begin(part); k < split.row_end(part); ++k)
                            dw[(k * s.cg + c) * s.taps + tap] += dot(dy + k * s.out, row, s.out);
                    }
                }
            }
        }
    });
}

template <class C>
void backward_filter_gemm(const ConvShape &s, const PackedTensors<C> &t) {
    const Split split(s.groups, s.kg);
    const int64_t col_size = s.cg * s.taps * s.out;
    parallel_for(split.count(), 1, [&](int64_t begin, int64_t end, int thread) {
        C *col = t.scratch + thread * col_size;
        int64_t *offset_scratch = t.index + thread * s.out;
        for (int64_t part = begin; part < end; ++part) {
            const int64_t g = split.item(part);
            for (int64_t n = 0; n < s.n; ++n) {
                im2col(s, t.x + (n * s.c + g * s.cg) * s.in, Offsets{}, offset_scratch, col);
                gemm_nt(s.cg * s.taps, s.out, t.y + (n * s.k + g * s.kg) * s.out, s.out, col, s.out,
                        t.w + g * s.kg * s.cg * s.taps, s.cg * s.taps, split.row_begin(part), split.row_end(part));
            }
        }
    });
}

}  // namespace librednn::host::conv
