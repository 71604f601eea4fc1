// cuFFT, loaded lazily: LibreDNN's libraries never name libcufft in DT_NEEDED (docs/ARCHITECTURE.md,
// "Dependencies"). The first FFT convolution dlopen()s libcufft.so.12, .so.11 or .so and looks up the few
// functions the FFT solvers call; where that fails, those solvers are inapplicable and say why, and every
// other algorithm runs as before.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace librednn::cuda {

// The parts of cuFFT's C API the FFT solvers use, declared here from its documented signatures.
using CufftHandle = int;
using CufftResult = int;  // cufftResult: 0 is CUFFT_SUCCESS
constexpr CufftResult kCufftSuccess = 0;
constexpr int kCufftC2C = 0x29;  // cufftType: single-precision complex to complex
constexpr int kCufftZ2Z = 0x69;  // double-precision complex to complex
constexpr int kCufftForward = -1;
constexpr int kCufftInverse = 1;

struct CufftApi {
    CufftResult (*create)(CufftHandle *plan);
    CufftResult (*set_auto_allocation)(CufftHandle plan, int auto_allocate);
    CufftResult (*make_plan_many)(CufftHandle plan, int rank, int *n, int *inembed, int istride, int idist,
                                  int *onembed, int ostride, int odist, int type, int batch, size_t *work_size);
    CufftResult (*set_work_area)(CufftHandle plan, void *work_area);
    CufftResult (*set_stream)(CufftHandle plan, cudaStream_t stream);
    CufftResult (*exec_c2c)(CufftHandle plan, float2 *in, float2 *out, int direction);
    CufftResult (*exec_z2z)(CufftHandle plan, double2 *in, double2 *out, int direction);
    CufftResult (*destroy)(CufftHandle plan);
};

// The loaded API, or nullptr when no libcufft could be loaded (then `why`, when given, says what each
// attempt answered). Loads once per process; the library stays loaded until the process ends.
const CufftApi *cufft_api(std::string *why = nullptr);

// A cuFFT plan with no work area of its own (the caller's workspace holds it), destroyed with its owner.
class CufftPlan {
public:
    CufftPlan() = default;
    ~CufftPlan();
    CufftPlan(const CufftPlan &) = delete;
    CufftPlan &operator=(const CufftPlan &) = delete;

    // A batch of `batch` contiguous complex transforms of `dims` sizes `sizes` (row-major), in double or
    // float; false when cuFFT refuses. `work_bytes` receives the work area it needs.
    bool make(const CufftApi &api, int dims, const long long *sizes, int batch, bool in_double, size_t *work_bytes);
    CufftHandle handle() const { return handle_; }

private:
    const CufftApi *api_ = nullptr;
    CufftHandle handle_ = 0;
    bool created_ = false;
};

}  // namespace librednn::cuda
