// A standalone program, without LibreDNN: kThreads threads start together; each creates a stream and a cuFFT
// plan (cuFFT loads its kernels) and launches kernels of this program for the first time (with lazy module
// loading, a first launch loads the function), then runs the FFT. Used to show whether the first-use race of
// librednn_gpu_tests hangs under compute-sanitizer without LibreDNN's code (README.md beside this file).
//   nvcc -O2 -arch=sm_90 cufft_launch_race.cu -lcufft -o cufft_launch_race
#include <cufft.h>

#include <barrier>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 8;

template <int kTag>
__global__ void fill(float *data, int count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] = static_cast<float>((i * (kTag + 3)) % 17) - 8.0f;
}

template <int kTag>
bool launch(float *data, int count, cudaStream_t stream) {
    fill<kTag><<<(count + 255) / 256, 256, 0, stream>>>(data, count);
    return cudaGetLastError() == cudaSuccess;
}

using Launcher = bool (*)(float *, int, cudaStream_t);
constexpr Launcher kLaunchers[kThreads] = {launch<0>, launch<1>, launch<2>, launch<3>,
                                           launch<4>, launch<5>, launch<6>, launch<7>};

}  // namespace

int main() {
    std::barrier start(kThreads);
    std::vector<int> failed(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            start.arrive_and_wait();
            const int side = 16 << (t % 3), batch = 8, count = side * side * batch;
            cudaStream_t stream = nullptr;
            float *real = nullptr;
            cufftComplex *spectrum = nullptr;
            cufftHandle plan = 0;
            int dims[2] = {side, side};
            bool ok = cudaStreamCreate(&stream) == cudaSuccess &&
                      cudaMalloc(&real, sizeof(float) * count) == cudaSuccess &&
                      cudaMalloc(&spectrum, sizeof(cufftComplex) * side * (side / 2 + 1) * batch) == cudaSuccess;
            ok = ok && kLaunchers[t](real, count, stream);
            ok = ok && cufftPlanMany(&plan, 2, dims, nullptr, 1, 0, nullptr, 1, 0, CUFFT_R2C, batch) == CUFFT_SUCCESS;
            ok = ok && cufftSetStream(plan, stream) == CUFFT_SUCCESS;
            ok = ok && kLaunchers[(t + 1) % kThreads](real, count, stream);
            ok = ok && cufftExecR2C(plan, real, spectrum) == CUFFT_SUCCESS;
            ok = ok && cudaStreamSynchronize(stream) == cudaSuccess;
            if (plan) cufftDestroy(plan);
            cudaFree(real);
            cudaFree(spectrum);
            if (stream) cudaStreamDestroy(stream);
            failed[t] = ok ? 0 : 1;
        });
    }
    for (std::thread &thread : threads) thread.join();
    int failures = 0;
    for (int t = 0; t < kThreads; ++t) failures += failed[t];
    std::printf("cufft_launch_race: %d of %d threads failed\n", failures, kThreads);
    return failures == 0 ? 0 : 1;
}
