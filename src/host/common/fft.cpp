// The host FFT: bit-reversal permutation, then log2(n) passes of butterflies per line.
#include "host/common/fft.hpp"

#include <cmath>
#include <utility>

namespace librednn::host {

namespace {

// One line of n values (n a power of two) at `line`, in place; `twiddles` holds exp(-2 pi i j / n) for
// j < n / 2.
template <class C>
void transform_line(std::complex<C> *line, int64_t n, const std::complex<C> *twiddles, bool inverse) {
    for (int64_t i = 1, j = 0; i < n; ++i) {
        int64_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j |= bit;
        if (i < j) std::swap(line[i], line[j]);
    }
    for (int64_t half = 1; half < n; half <<= 1) {
        const int64_t step = n / (2 * half);  // twiddle j of this pass is table entry j * step
        for (int64_t start = 0; start < n; start += 2 * half) {
            for (int64_t j = 0; j < half; ++j) {
                std::complex<C> w = twiddles[j * step];
                if (inverse) w = std::conj(w);
                const std::complex<C> odd = line[start + j + half] * w;
                line[start + j + half] = line[start + j] - odd;
                line[start + j] += odd;
            }
        }
    }
}

}  // namespace

int64_t next_power_of_two(int64_t n) {
    int64_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

template <class C>
Fft<C>::Fft(int dims, const int64_t *sizes) : dims_(dims) {
    for (int d = 0; d < dims; ++d) {
        sizes_[d] = sizes[d];
        points_ *= sizes[d];
        if (sizes[d] > longest_) longest_ = sizes[d];
    }
}

template <class C>
int64_t Fft<C>::scratch() const {
    int64_t tables = 0;
    for (int d = 0; d < dims_; ++d) tables += sizes_[d] / 2;
    return tables + longest_;
}

template <class C>
void Fft<C>::prepare(Complex *scratch) const {
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    for (int d = 0; d < dims_; ++d) {
        const int64_t n = sizes_[d];
        for (int64_t j = 0; j < n / 2; ++j) {
            const double angle = -kTwoPi * static_cast<double>(j) / static_cast<double>(n);
            scratch[j] = Complex(static_cast<C>(std::cos(angle)), static_cast<C>(std::sin(angle)));
        }
        scratch += n / 2;
    }
}

template <class C>
void Fft<C>::transform(Complex *data, bool inverse, Complex *scratch) const {
    const Complex *table = scratch;
    int64_t tables = 0;
    for (int d = 0; d < dims_; ++d) tables += sizes_[d] / 2;
    Complex *line = scratch + tables;
    int64_t inner = points_;  // the stride of dim d: the product of the sizes after it
    int64_t outer = 1;
    for (int d = 0; d < dims_; ++d) {
        const int64_t n = sizes_[d];
        inner /= n;
        if (n > 1) {
            for (int64_t o = 0; o < outer; ++o) {
                for (int64_t i = 0; i < inner; ++i) {
                    Complex *base = data + o * n * inner + i;
                    if (inner == 1) {
                        transform_line(base, n, table, inverse);
                        continue;
                    }
                    for (int64_t j = 0; j < n; ++j) line[j] = base[j * inner];
                    transform_line(line, n, table, inverse);
                    for (int64_t j = 0; j < n; ++j) base[j * inner] = line[j];
                }
            }
        }
        table += n / 2;
        outer *= n;
    }
}

template class Fft<float>;
template class Fft<double>;

}  // namespace librednn::host
