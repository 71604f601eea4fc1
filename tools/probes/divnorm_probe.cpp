// Asks NVIDIA's cuDNN what cudnnDivisiveNormalizationForward/Backward compute, where the documentation
// leaves it open (the window, the normalisation of lrnAlpha, how means enter, the backward's outputs).
// Not part of the build: compiled by hand on a machine with a GPU and NVIDIA's library, e.g.
//   g++ -O1 -std=c++17 -Iinclude -I/usr/local/cuda/include tools/probes/divnorm_probe.cpp \
//       -L/usr/local/cuda/lib64 -lcudart -ldl -o /tmp/divnorm_probe && /tmp/divnorm_probe /path/libcudnn.so.9
// It prints raw outputs for structured inputs and the error of candidate formulas on random ones.
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

void *library = nullptr;
template <class F>
F *symbol(const char *name) {
    void *p = dlsym(library, name);
    if (!p) {
        std::printf("missing symbol %s\n", name);
        std::exit(1);
    }
    return reinterpret_cast<F *>(p);
}
#define NV(name) symbol<decltype(name)>(#name)

cudnnHandle_t handle;

struct Geometry {
    int n, c, h, w;
    size_t count() const { return size_t(n) * c * h * w; }
};

double *device_copy(const std::vector<double> &v) {
    double *d = nullptr;
    cudaMalloc(&d, v.size() * sizeof(double) + 64);
    cudaMemcpy(d, v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice);
    return d;
}
std::vector<double> host_copy(const double *d, size_t n) {
    std::vector<double> v(n);
    cudaMemcpy(v.data(), d, n * sizeof(double), cudaMemcpyDeviceToHost);
    return v;
}

cudnnTensorDescriptor_t tensor(Geometry g, cudnnDataType_t t = CUDNN_DATA_DOUBLE,
                               cudnnTensorFormat_t f = CUDNN_TENSOR_NCHW) {
    cudnnTensorDescriptor_t d;
    NV(cudnnCreateTensorDescriptor)(&d);
    NV(cudnnSetTensor4dDescriptor)(d, f, t, g.n, g.c, g.h, g.w);
    return d;
}
cudnnLRNDescriptor_t lrn(unsigned n, double a, double b, double k) {
    cudnnLRNDescriptor_t d;
    NV(cudnnCreateLRNDescriptor)(&d);
    cudnnStatus_t s = NV(cudnnSetLRNDescriptor)(d, n, a, b, k);
    if (s) std::printf("SetLRNDescriptor(%u, %g, %g, %g) -> %d\n", n, a, b, k, s);
    return d;
}

// NVIDIA's forward on doubles; means may be empty (NULL).
std::vector<double> forward(Geometry g, const std::vector<double> &x, const std::vector<double> &means,
                            cudnnLRNDescriptor_t norm, double alpha = 1, double beta = 0,
                            const std::vector<double> *y0 = nullptr, cudnnStatus_t *status = nullptr) {
    auto td = tensor(g);
    double *dx = device_copy(x), *dm = means.empty() ? nullptr : device_copy(means);
    double *t1 = device_copy(std::vector<double>(g.count(), 0)), *t2 = device_copy(std::vector<double>(g.count(), 0));
    double *dy = device_copy(y0 ? *y0 : std::vector<double>(g.count(), NAN));
    cudnnStatus_t s = NV(cudnnDivisiveNormalizationForward)(handle, norm, CUDNN_DIVNORM_PRECOMPUTED_MEANS, &alpha, td,
                                                            dx, dm, t1, t2, &beta, td, dy);
    cudaDeviceSynchronize();
    if (status) *status = s;
    if (s) std::printf("forward -> %d\n", s);
    auto y = host_copy(dy, g.count());
    cudaFree(dx), cudaFree(dm), cudaFree(t1), cudaFree(t2), cudaFree(dy);
    return y;
}

void print(const char *title, Geometry g, const std::vector<double> &v, double (*f)(double) = nullptr) {
    std::printf("%s\n", title);
    for (int c = 0; c < g.c; ++c)
        for (int h = 0; h < g.h; ++h) {
            for (int w = 0; w < g.w; ++w) {
                double e = v[(size_t(c) * g.h + h) * g.w + w];
                std::printf(" %10.6f", f ? f(e) : e);
            }
            std::printf("\n");
        }
}

// Candidate: y = x_m / (k + a * scale * sum over the window of x_m^2)^b, window [-behind, n-1-behind]^2.
std::vector<double> candidate(Geometry g, const std::vector<double> &x, const std::vector<double> &means, unsigned n,
                              double a, double b, double k, double scale, int behind, bool squares_of_x) {
    std::vector<double> y(g.count());
    auto xm = [&](size_t i) { return x[i] - (means.empty() ? 0.0 : means[i]); };
    for (int in = 0; in < g.n; ++in)
        for (int c = 0; c < g.c; ++c)
            for (int h = 0; h < g.h; ++h)
                for (int w = 0; w < g.w; ++w) {
                    double sum = 0;
                    for (int i = h - behind; i <= h - behind + int(n) - 1; ++i)
                        for (int j = w - behind; j <= w - behind + int(n) - 1; ++j) {
                            if (i < 0 || j < 0 || i >= g.h || j >= g.w) continue;
                            size_t q = ((size_t(in) * g.c + c) * g.h + i) * g.w + j;
                            double v = squares_of_x ? x[q] : xm(q);
                            sum += v * v;
                        }
                    size_t p = ((size_t(in) * g.c + c) * g.h + h) * g.w + w;
                    y[p] = xm(p) / std::pow(k + a * scale * sum, b);
                }
    return y;
}

// Candidate 2: y_p = x_p / (k + a / n^2 * sum over the window of (x_j - m_p)^2)^b, the mean of the output's
// own position subtracted from each neighbour; `padded_count` counts positions outside the image as x = 0.
std::vector<double> candidate_centre_mean(Geometry g, const std::vector<double> &x, const std::vector<double> &means,
                                          unsigned n, double a, double b, double k, bool padded_count) {
    std::vector<double> y(g.count());
    const int behind = (int(n) - 1) / 2;
    for (int in = 0; in < g.n; ++in)
        for (int c = 0; c < g.c; ++c)
            for (int h = 0; h < g.h; ++h)
                for (int w = 0; w < g.w; ++w) {
                    size_t p = ((size_t(in) * g.c + c) * g.h + h) * g.w + w;
                    const double m = means.empty() ? 0.0 : means[p];
                    double sum = 0;
                    for (int i = h - behind; i <= h - behind + int(n) - 1; ++i)
                        for (int j = w - behind; j <= w - behind + int(n) - 1; ++j) {
                            double v = 0;
                            if (i < 0 || j < 0 || i >= g.h || j >= g.w) {
                                if (!padded_count) continue;
                            } else {
                                v = x[((size_t(in) * g.c + c) * g.h + i) * g.w + j];
                            }
                            sum += (v - m) * (v - m);
                        }
                    y[p] = x[p] / std::pow(k + a / (double(n) * n) * sum, b);
                }
    return y;
}

double max_rel(const std::vector<double> &a, const std::vector<double> &b) {
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) m = std::fmax(m, std::fabs(a[i] - b[i]) / (std::fabs(b[i]) + 1e-12));
    return m;
}

std::vector<double> random_vector(size_t n, std::mt19937 &rng, double lo, double hi) {
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<double> v(n);
    for (auto &e : v) e = d(rng);
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    library = dlopen(argc > 1 ? argv[1] : "libcudnn.so.9", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        std::printf("dlopen: %s\n", dlerror());
        return 1;
    }
    std::printf("cuDNN version %zu\n", NV(cudnnGetVersion)());
    NV(cudnnCreate)(&handle);

    // 1. Ones, no means: 1/y - 1 = a * scale * (pixels of the window inside the image) with a = 1, b = 1, k = 1.
    for (unsigned n : {1u, 2u, 3u, 4u, 5u}) {
        Geometry g{1, 1, 6, 7};
        auto y = forward(g, std::vector<double>(g.count(), 1.0), {}, lrn(n, 1.0, 1.0, 1.0));
        char title[96];
        std::snprintf(title, sizeof title, "[ones] n=%u a=1 b=1 k=1: 1/y - 1", n);
        print(title, g, y, [](double e) { return 1.0 / e - 1.0; });
    }
    // 1b. 5-d ones (2 images x 1 channel x 3 x 4 x 5), n = 3: is the window 3-d, and what divides lrnAlpha?
    {
        cudnnTensorDescriptor_t td;
        NV(cudnnCreateTensorDescriptor)(&td);
        int dims[5] = {2, 1, 3, 4, 5}, strides[5] = {60, 60, 20, 5, 1};
        NV(cudnnSetTensorNdDescriptor)(td, CUDNN_DATA_DOUBLE, 5, dims, strides);
        std::vector<double> x(120, 1.0);
        double *dx = device_copy(x), *t1 = device_copy(std::vector<double>(120, 0)),
               *t2 = device_copy(std::vector<double>(120, 0));
        double *dy = device_copy(std::vector<double>(120, NAN));
        double alpha = 1, beta = 0;
        cudnnStatus_t s =
            NV(cudnnDivisiveNormalizationForward)(handle, lrn(3, 1.0, 1.0, 1.0), CUDNN_DIVNORM_PRECOMPUTED_MEANS,
                                                  &alpha, td, dx, nullptr, t1, t2, &beta, td, dy);
        cudaDeviceSynchronize();
        std::printf("[5-d ones] n=3 -> %d: 1/y - 1 per depth slice of image 0\n", s);
        auto y = host_copy(dy, 120);
        print("", Geometry{1, 3, 4, 5}, y, [](double e) { return 1.0 / e - 1.0; });
    }
    // 2. One pixel 2 among ones, n = 4: which outputs' windows hold it (1/y - 1 larger by 3 * scale).
    {
        Geometry g{1, 1, 7, 7};
        std::vector<double> x(g.count(), 1.0);
        x[3 * 7 + 3] = 2.0;
        auto y = forward(g, x, {}, lrn(4, 1.0, 1.0, 1.0));
        for (size_t i = 0; i < y.size(); ++i) y[i] = x[i] / y[i] - 1.0;
        print("[impulse at (3,3)] n=4: x/y - 1", g, y);
    }
    // 2b. How means enter: constant and impulse means, with the temporaries NVIDIA leaves behind.
    {
        Geometry g{1, 1, 5, 6};
        struct Case {
            const char *name;
            double x, m, impulse_x, impulse_m;
            unsigned n;
        } cases[] = {{"x=0 m=0.5 n=1", 0, 0.5, 0, 0.5, 1},        {"x=1 m=0.5 n=1", 1, 0.5, 1, 0.5, 1},
                     {"x=2 m=0.5 n=1", 2, 0.5, 2, 0.5, 1},        {"x=1 m=0 (2,2)m=1 n=3", 1, 0, 1, 1, 3},
                     {"x=1 m=0 (2,2)m=0.5 n=3", 1, 0, 1, 0.5, 3}, {"x=0 m=0 (2,2)x=1 n=3", 0, 0, 1, 0, 3},
                     {"x=0 m=0 (2,2)m=1 n=3", 0, 0, 0, 1, 3}};
        for (auto &c : cases) {
            std::vector<double> x(g.count(), c.x), m(g.count(), c.m);
            x[2 * 6 + 2] = c.impulse_x;
            m[2 * 6 + 2] = c.impulse_m;
            auto td = tensor(g);
            double *dx = device_copy(x), *dm = device_copy(m);
            double *t1 = device_copy(std::vector<double>(g.count(), -7)),
                   *t2 = device_copy(std::vector<double>(g.count(), -7));
            double *dy = device_copy(std::vector<double>(g.count(), NAN));
            double alpha = 1, beta = 0;
            cudnnStatus_t s =
                NV(cudnnDivisiveNormalizationForward)(handle, lrn(c.n, 1.0, 1.0, 1.0), CUDNN_DIVNORM_PRECOMPUTED_MEANS,
                                                      &alpha, td, dx, dm, t1, t2, &beta, td, dy);
            cudaDeviceSynchronize();
            std::printf("== %s (a=1 b=1 k=1) -> %d\n", c.name, s);
            print("y", g, host_copy(dy, g.count()));
            print("temp", g, host_copy(t1, g.count()));
            print("temp2", g, host_copy(t2, g.count()));
            cudaFree(dx), cudaFree(dm), cudaFree(t1), cudaFree(t2), cudaFree(dy);
        }
    }
    // 3. Random inputs with means, candidates.
    std::mt19937 rng(7);
    for (int trial = 0; trial < 4; ++trial) {
        Geometry g{2, 3, 5 + trial, 6};
        unsigned n = 2 + trial;
        double a = 0.7, b = 0.75, k = 1.5;
        auto x = random_vector(g.count(), rng, -2, 2), means = random_vector(g.count(), rng, -1, 1);
        auto y = forward(g, x, means, lrn(n, a, b, k));
        auto y_nomeans = forward(g, x, {}, lrn(n, a, b, k));
        int behind = (int(n) - 1) / 2;
        std::printf("trial %d n=%u: candidates (rel err) with means / without means\n", trial, n);
        struct {
            const char *name;
            double scale;
            bool squares_of_x;
        } cands[] = {
            {"a/n^2, (x-m)^2", 1.0 / (n * n), false}, {"a/n, (x-m)^2", 1.0 / n, false}, {"a, (x-m)^2", 1.0, false},
            {"a/n^2, x^2", 1.0 / (n * n), true},      {"a/n, x^2", 1.0 / n, true},      {"a, x^2", 1.0, true}};
        for (auto &c : cands)
            for (int bh : {behind, int(n) / 2})
                std::printf("  %-16s behind=%d: %.3e / %.3e\n", c.name, bh,
                            max_rel(candidate(g, x, means, n, a, b, k, c.scale, bh, c.squares_of_x), y),
                            max_rel(candidate(g, x, {}, n, a, b, k, c.scale, bh, c.squares_of_x), y_nomeans));
        std::printf("  centre mean, in-image count: %.3e; padded count: %.3e\n",
                    max_rel(candidate_centre_mean(g, x, means, n, a, b, k, false), y),
                    max_rel(candidate_centre_mean(g, x, means, n, a, b, k, true), y));
        // alpha, beta.
        auto y0 = random_vector(g.count(), rng, -1, 1);
        auto yab = forward(g, x, means, lrn(n, a, b, k), 0.5, 0.25, &y0);
        std::vector<double> expect(g.count());
        for (size_t i = 0; i < expect.size(); ++i) expect[i] = 0.5 * y[i] + 0.25 * y0[i];
        std::printf("  alpha 0.5 beta 0.25: rel err %.3e\n", max_rel(yab, expect));
    }
    // 4. Backward against central differences of NVIDIA's forward (loss = sum dy * y).
    for (int trial = 0; trial < 2; ++trial) {
        Geometry g{1, 2, 4, 5};
        unsigned n = 3 + trial;
        auto norm = lrn(n, 0.7, 0.75, 1.5);
        auto x = random_vector(g.count(), rng, -2, 2), means = random_vector(g.count(), rng, -1, 1);
        auto dyv = random_vector(g.count(), rng, -1, 1);
        auto td = tensor(g);
        double *dxp = device_copy(x), *dmp = device_copy(means), *ddy = device_copy(dyv);
        double *t1 = device_copy(std::vector<double>(g.count(), 0)),
               *t2 = device_copy(std::vector<double>(g.count(), 0));
        double *ddx = device_copy(std::vector<double>(g.count(), 1.0)),
               *ddm = device_copy(std::vector<double>(g.count(), 1.0));
        double alpha = 1, beta = 0;
        cudnnStatus_t s = NV(cudnnDivisiveNormalizationBackward)(handle, norm, CUDNN_DIVNORM_PRECOMPUTED_MEANS, &alpha,
                                                                 td, dxp, dmp, ddy, t1, t2, &beta, td, ddx, ddm);
        cudaDeviceSynchronize();
        std::printf("backward trial %d n=%u -> %d\n", trial, n, s);
        auto dx = host_copy(ddx, g.count()), dm = host_copy(ddm, g.count());
        auto loss = [&](const std::vector<double> &xx, const std::vector<double> &mm) {
            auto y = forward(g, xx, mm, norm);
            double l = 0;
            for (size_t i = 0; i < y.size(); ++i) l += dyv[i] * y[i];
            return l;
        };
        double ex = 0, em = 0;
        for (size_t i = 0; i < g.count(); ++i) {
            const double h = 1e-6;
            auto xp = x, xm = x, mp = means, mm = means;
            xp[i] += h, xm[i] -= h, mp[i] += h, mm[i] -= h;
            double gx = (loss(xp, means) - loss(xm, means)) / (2 * h);
            double gm = (loss(x, mp) - loss(x, mm)) / (2 * h);
            ex = std::fmax(ex, std::fabs(gx - dx[i]) / (std::fabs(gx) + 1e-6));
            em = std::fmax(em, std::fabs(gm - dm[i]) / (std::fabs(gm) + 1e-6));
            if (i < 6) std::printf("  i=%zu dx %.6f fd %.6f | dmeans %.6f fd %.6f\n", i, dx[i], gx, dm[i], gm);
        }
        std::printf("  max rel: dx %.3e dmeans %.3e\n", ex, em);
        // beta: dx and dMeans start at 1; with beta 0.5 and alpha 2.
        double alpha2 = 2, beta2 = 0.5;
        cudaMemcpy(ddx, std::vector<double>(g.count(), 1.0).data(), g.count() * 8, cudaMemcpyHostToDevice);
        cudaMemcpy(ddm, std::vector<double>(g.count(), 1.0).data(), g.count() * 8, cudaMemcpyHostToDevice);
        s = NV(cudnnDivisiveNormalizationBackward)(handle, norm, CUDNN_DIVNORM_PRECOMPUTED_MEANS, &alpha2, td, dxp, dmp,
                                                   ddy, t1, t2, &beta2, td, ddx, ddm);
        cudaDeviceSynchronize();
        auto dx2 = host_copy(ddx, g.count()), dm2 = host_copy(ddm, g.count());
        double eb = 0, ebm = 0, ebm_nobeta = 0;
        for (size_t i = 0; i < g.count(); ++i) {
            eb = std::fmax(eb, std::fabs(dx2[i] - (2 * dx[i] + 0.5)));
            ebm = std::fmax(ebm, std::fabs(dm2[i] - (2 * dm[i] + 0.5)));
            ebm_nobeta = std::fmax(ebm_nobeta, std::fabs(dm2[i] - 2 * dm[i]));
        }
        std::printf("  alpha 2 beta 0.5 -> %d: dx err %.3e, dmeans err (blended) %.3e (not blended) %.3e\n", s, eb, ebm,
                    ebm_nobeta);
        // NULL means in backward.
        s = NV(cudnnDivisiveNormalizationBackward)(handle, norm, CUDNN_DIVNORM_PRECOMPUTED_MEANS, &alpha, td, dxp,
                                                   nullptr, ddy, t1, t2, &beta, td, ddx, nullptr);
        cudaDeviceSynchronize();
        std::printf("  backward with means NULL, dMeans NULL -> %d\n", s);
    }
    // 5. Which configurations NVIDIA takes.
    {
        Geometry g{2, 3, 5, 6};
        float fa = 1, fb = 0;
        void *buf[5];
        for (auto &p : buf) cudaMalloc(&p, g.count() * 8 * 4);
        struct {
            const char *name;
            cudnnDataType_t t;
            cudnnTensorFormat_t f;
        } cfg[] = {{"float nchw", CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW},
                   {"half nchw", CUDNN_DATA_HALF, CUDNN_TENSOR_NCHW},
                   {"bf16 nchw", CUDNN_DATA_BFLOAT16, CUDNN_TENSOR_NCHW},
                   {"float nhwc", CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC},
                   {"int8 nchw", CUDNN_DATA_INT8, CUDNN_TENSOR_NCHW}};
        for (auto &c : cfg) {
            auto td = tensor(g, c.t, c.f);
            cudnnStatus_t s =
                NV(cudnnDivisiveNormalizationForward)(handle, lrn(5, 1e-4, 0.75, 2), CUDNN_DIVNORM_PRECOMPUTED_MEANS,
                                                      &fa, td, buf[0], buf[1], buf[2], buf[3], &fb, td, buf[4]);
            cudaDeviceSynchronize();
            cudnnStatus_t sb = NV(cudnnDivisiveNormalizationBackward)(
                handle, lrn(5, 1e-4, 0.75, 2), CUDNN_DIVNORM_PRECOMPUTED_MEANS, &fa, td, buf[0], buf[1], buf[2], buf[3],
                buf[4], &fb, td, buf[1], buf[2]);
            cudaDeviceSynchronize();
            std::printf("config %s: forward %d backward %d\n", c.name, s, sb);
        }
        // 5-d and 3-d.
        for (int nd : {3, 5}) {
            cudnnTensorDescriptor_t td;
            NV(cudnnCreateTensorDescriptor)(&td);
            int dims[5] = {2, 3, 4, 5, 6}, strides[5];
            strides[nd - 1] = 1;
            for (int i = nd - 2; i >= 0; --i) strides[i] = strides[i + 1] * dims[i + 1];
            NV(cudnnSetTensorNdDescriptor)(td, CUDNN_DATA_FLOAT, nd, dims, strides);
            cudnnStatus_t s =
                NV(cudnnDivisiveNormalizationForward)(handle, lrn(3, 1e-4, 0.75, 2), CUDNN_DIVNORM_PRECOMPUTED_MEANS,
                                                      &fa, td, buf[0], buf[1], buf[2], buf[3], &fb, td, buf[4]);
            cudaDeviceSynchronize();
            std::printf("config float %d-d: forward %d\n", nd, s);
        }
        // temp NULL, x == y.
        auto td = tensor(g, CUDNN_DATA_FLOAT);
        cudnnStatus_t s =
            NV(cudnnDivisiveNormalizationForward)(handle, lrn(5, 1e-4, 0.75, 2), CUDNN_DIVNORM_PRECOMPUTED_MEANS, &fa,
                                                  td, buf[0], buf[1], nullptr, nullptr, &fb, td, buf[4]);
        cudaDeviceSynchronize();
        std::printf("temp NULL: forward %d\n", s);
        s = NV(cudnnDivisiveNormalizationForward)(handle, lrn(5, 1e-4, 0.75, 2), CUDNN_DIVNORM_PRECOMPUTED_MEANS, &fa,
                                                  td, buf[0], buf[1], buf[2], buf[3], &fb, td, buf[0]);
        cudaDeviceSynchronize();
        std::printf("in place: forward %d\n", s);
        s = NV(cudnnDivisiveNormalizationForward)(handle, lrn(5, 1e-4, 0.75, 2), (cudnnDivNormMode_t)1, &fa, td, buf[0],
                                                  buf[1], buf[2], buf[3], &fb, td, buf[4]);
        std::printf("mode 1: forward %d\n", s);
    }
    return 0;
}
