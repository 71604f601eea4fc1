// A small complex FFT for the host backend: iterative radix-2 over power-of-two lengths, in one to three
// dims (row-column: a 1-d transform along each dim in turn), unnormalised in both directions. Float data
// transforms in float, double data in double; the twiddle factors are computed in double and rounded once.
#pragma once

#include <complex>
#include <cstdint>

namespace librednn::host {

constexpr int kMaxFftDims = 3;

// The smallest power of two at least `n` (n >= 1).
int64_t next_power_of_two(int64_t n);

// A transform of a row-major array of `sizes[0] x ... x sizes[dims - 1]` complex values, every size a
// power of two. It owns no memory: scratch() says how many complex values of scratch its transforms need
// (the twiddle tables and one line), which the caller provides (the convolution solvers carve it from
// their workspace).
template <class C>
class Fft {
public:
    using Complex = std::complex<C>;

    Fft(int dims, const int64_t *sizes);

    int dims() const { return dims_; }
    int64_t size(int d) const { return sizes_[d]; }
    int64_t points() const { return points_; }
    // Complex values of scratch: a twiddle table per dim (half its length) and one line.
    int64_t scratch() const;

    // Fills the twiddle tables in `scratch` (once, before any transform).
    void prepare(Complex *scratch) const;

    // data <- sum_j data[j] exp(-+2 pi i j k / n) per dim: the forward transform (minus sign), or the
    // inverse (plus sign) without the 1 / points() factor.
    void transform(Complex *data, bool inverse, Complex *scratch) const;

private:
    int dims_ = 0;
    int64_t sizes_[kMaxFftDims] = {};
    int64_t points_ = 1;
    int64_t longest_ = 1;
};

extern template class Fft<float>;
extern template class Fft<double>;

}  // namespace librednn::host
