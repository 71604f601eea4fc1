// The host FFT (src/host/common/fft.hpp) against a naive DFT computed in long double: 1 to 3 dims, both
// directions, double and float, random power-of-two sizes; and the inverse of the forward transform.
#include "host/common/fft.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using librednn::host::Fft;

// Fresh data every run; LIBREDNN_TEST_SEED=<n> replays a failure.
uint32_t test_seed() {
    if (const char *seed = std::getenv("LIBREDNN_TEST_SEED"))
        return static_cast<uint32_t>(std::strtoul(seed, nullptr, 10));
    return std::random_device{}();
}

using Exact = std::complex<long double>;

// sum over j of data[j] exp(-+2 pi i <j, k / n>) for every k, directly.
std::vector<Exact> naive_dft(const std::vector<Exact> &data, int dims, const int64_t *sizes, bool inverse) {
    const long double two_pi = 6.283185307179586476925286766559L;
    const int64_t points = static_cast<int64_t>(data.size());
    std::vector<Exact> out(data.size());
    auto coordinates = [&](int64_t index, int64_t *at) {
        for (int d = dims - 1; d >= 0; --d) {
            at[d] = index % sizes[d];
            index /= sizes[d];
        }
    };
    for (int64_t k = 0; k < points; ++k) {
        int64_t kk[3];
        coordinates(k, kk);
        Exact sum = 0;
        for (int64_t j = 0; j < points; ++j) {
            int64_t jj[3];
            coordinates(j, jj);
            long double phase = 0;
            for (int d = 0; d < dims; ++d) phase += static_cast<long double>(jj[d] * kk[d] % sizes[d]) / sizes[d];
            const long double angle = (inverse ? two_pi : -two_pi) * phase;
            sum += data[static_cast<size_t>(j)] * Exact(std::cos(angle), std::sin(angle));
        }
        out[static_cast<size_t>(k)] = sum;
    }
    return out;
}

// Higham (Accuracy and Stability of Numerical Algorithms, 2nd ed., thm 24.2): a radix-2 FFT of n points
// errs by at most log2(n) eta / (1 - log2(n) eta) times the 2-norm of the exact result, eta = mu +
// gamma_4 (sqrt(2) + mu), mu the twiddles' relative error (sqrt(2) u: each part rounded once from
// double). For u = 2^-53 the double twiddles' own error (from cos and sin, a few ulps) is of the same order.
template <class C>
double fft_error_bound(int64_t points, double exact_norm) {
    const double u = std::is_same<C, double>::value ? 0x1p-53 : 0x1p-24;
    const double mu = 4.0 * u;  // sqrt(2) u for float; a few ulps of libm's cos and sin for double
    const double eta = mu + 4.0 * u / (1.0 - 4.0 * u) * (std::sqrt(2.0) + mu);
    const double k = std::log2(static_cast<double>(points)) * eta;
    return k / (1.0 - k) * exact_norm;
}

template <class C>
void check_random_transforms(std::mt19937 &rng) {
    std::uniform_int_distribution<int> dims_of(1, 3), log_size(0, 5);
    std::uniform_real_distribution<double> value(-2.0, 2.0);
    for (int trial = 0; trial < 30; ++trial) {
        const int dims = dims_of(rng);
        int64_t sizes[3] = {1, 1, 1};
        int64_t points = 1;
        for (int d = 0; d < dims; ++d) {
            sizes[d] = int64_t{1} << log_size(rng);
            if (dims == 3) sizes[d] = std::min<int64_t>(sizes[d], 8);
            points *= sizes[d];
        }
        const bool inverse = trial % 2 == 1;
        std::vector<Exact> exact_in(static_cast<size_t>(points));
        std::vector<std::complex<C>> data(exact_in.size());
        for (size_t i = 0; i < data.size(); ++i) {
            data[i] = std::complex<C>(static_cast<C>(value(rng)), static_cast<C>(value(rng)));
            exact_in[i] = Exact(data[i].real(), data[i].imag());
        }
        const Fft<C> fft(dims, sizes);
        std::vector<std::complex<C>> scratch(static_cast<size_t>(fft.scratch()));
        fft.prepare(scratch.data());
        fft.transform(data.data(), inverse, scratch.data());
        const std::vector<Exact> exact = naive_dft(exact_in, dims, sizes, inverse);
        long double norm = 0, error = 0;
        for (size_t i = 0; i < data.size(); ++i) {
            norm += std::norm(exact[i]);
            error += std::norm(Exact(data[i].real(), data[i].imag()) - exact[i]);
        }
        const std::string what = std::to_string(sizes[0]) + "x" + std::to_string(sizes[1]) + "x" +
                                 std::to_string(sizes[2]) + " (" + std::to_string(dims) + " dims)" +
                                 (inverse ? " inverse" : " forward");
        EXPECT_LE(std::sqrt(static_cast<double>(error)),
                  fft_error_bound<C>(points, std::sqrt(static_cast<double>(norm))))
            << what;
    }
}

TEST(HostFft, DoubleMatchesNaiveDftWithinHighamsBound) {
    const uint32_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    check_random_transforms<double>(rng);
}

TEST(HostFft, FloatMatchesNaiveDftWithinHighamsBound) {
    const uint32_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    check_random_transforms<float>(rng);
}

TEST(HostFft, InverseOfForwardIsPointsTimesTheInput) {
    const int64_t sizes[2] = {8, 16};
    const Fft<double> fft(2, sizes);
    std::vector<std::complex<double>> scratch(static_cast<size_t>(fft.scratch())), data(128);
    fft.prepare(scratch.data());
    for (size_t i = 0; i < data.size(); ++i) data[i] = {static_cast<double>(i % 7) - 3.0, static_cast<double>(i % 5)};
    const std::vector<std::complex<double>> input = data;
    fft.transform(data.data(), false, scratch.data());
    fft.transform(data.data(), true, scratch.data());
    for (size_t i = 0; i < data.size(); ++i) EXPECT_NEAR(std::abs(data[i] / 128.0 - input[i]), 0.0, 1e-13) << i;
}

TEST(HostFft, NextPowerOfTwo) {
    EXPECT_EQ(librednn::host::next_power_of_two(1), 1);
    EXPECT_EQ(librednn::host::next_power_of_two(2), 2);
    EXPECT_EQ(librednn::host::next_power_of_two(3), 4);
    EXPECT_EQ(librednn::host::next_power_of_two(33), 64);
    EXPECT_EQ(librednn::host::next_power_of_two(256), 256);
}

}  // namespace
