// cudnnDropoutForward and Backward against the reference on random geometries, layouts, types and
// probabilities; the generator against its published known answers; the call sequence (fresh numbers
// each call, Restore continues, Set restarts); the share of dropped elements; in place; the host's and
// the GPU's masks bit for bit; and the rejections.
#include "reference/dropout.hpp"
#include "api/api_test_util.hpp"
#include "descriptors/dropout.hpp"
#include "op_test_util.hpp"
#include "ops/dropout/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace {

using namespace librednn;
using namespace librednn::test;

const std::vector<cudnnDataType_t> kTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16};

class DropoutDescriptor {
public:
    DropoutDescriptor() { EXPECT_EQ(cudnnCreateDropoutDescriptor(&desc_), CUDNN_STATUS_SUCCESS); }
    ~DropoutDescriptor() { cudnnDestroyDropoutDescriptor(desc_); }
    DropoutDescriptor(const DropoutDescriptor &) = delete;
    DropoutDescriptor &operator=(const DropoutDescriptor &) = delete;
    operator cudnnDropoutDescriptor_t() const { return desc_; }

private:
    cudnnDropoutDescriptor_t desc_ = nullptr;
};

// A states buffer of the backend under test, garbage until a Set initialises it.
DeviceBuffer make_states_buffer() { return DeviceBuffer(std::vector<uint8_t>(kDropoutStatesSize, 0xa5)); }

DropoutState read_states(const DeviceBuffer &states) {
    DropoutState state;
    const std::vector<uint8_t> bytes = states.download();
    std::memcpy(&state, bytes.data(), sizeof state);
    return state;
}

// Random dims of 1 to 5 dims; `out` has the same dims, or (a third of the time) other dims with as
// many elements, as cuDNN allows.
DropoutProblem random_problem(Random &rng, Direction direction) {
    DropoutProblem p;
    p.direction = direction;
    const cudnnDataType_t type = rng.pick(kTypes);
    const int nb_dims = static_cast<int>(rng.integer(4, 5));
    std::vector<int64_t> dims = random_dims(rng, nb_dims, 7);
    p.in = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    std::vector<int64_t> out_dims = dims;
    if (rng.integer(0, 2) == 0) {
        // Same count, other dims: all the elements in the first dim, then 1s.
        out_dims.assign(dims.size(), 1);
        out_dims[0] = p.in.element_count();
        std::swap(out_dims[0], out_dims[static_cast<size_t>(rng.integer(0, nb_dims - 1))]);
    }
    p.out = make_geometry(rng, type, out_dims, rng.pick(all_layout_kinds()));
    p.probability = rng.pick<float>({0.0f, 1.0f, 0.5f, 0.1f, 0.9f, static_cast<float>(rng.uniform(0.0, 1.0))});
    return p;
}

reference::HostTensor double_copy(const HostTensor &t) {
    reference::HostTensor copy(CUDNN_DATA_DOUBLE,
                               std::vector<int64_t>(t.geometry.dims, t.geometry.dims + t.geometry.nb_dims));
    copy.set_values(element_values(t));
    return copy;
}

// The expected output for `in` and the reference's exact values (in `out`'s element order): each element
// is x / (1 - p) or 0, and the solver's x * fl(1 / (1 - p)) errs by two roundings of the compute type, well
// inside one element-wise step (tolerances.hpp) times the element's magnitude.
void expect_matches(const HostTensor &result, const HostTensor &initial, const DropoutProblem &p,
                    const std::vector<double> &exact, const std::string &text) {
    HostTensor ref = initial;  // the bytes between elements must come out as they went in
    std::vector<double> magnitudes;
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    do {
        ref.set(index, exact[e]);
        magnitudes.push_back(std::fabs(exact[e]));
        ++e;
    } while (next_index(index, p.out.dims, p.out.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, magnitudes, text));
}

struct ForwardRun {
    HostTensor x, y, initial;
    std::vector<uint8_t> mask;
    DropoutState states_after{};
};

// Sets a descriptor with `seed` on the backend under test, runs `calls` forward calls and returns the
// last one's output, mask and the states after it.
ForwardRun run_forward(Random &rng, const DropoutProblem &p, unsigned long long seed, int calls = 1) {
    ForwardRun run{HostTensor(p.in), HostTensor(p.out), HostTensor(p.out), {}, {}};
    fill_uniform(run.x, rng, -2.0, 2.0);
    Handle handle;
    DropoutDescriptor desc;
    DeviceBuffer states = make_states_buffer();
    EXPECT_EQ(cudnnSetDropoutDescriptor(desc, handle, p.probability, states.get(), kDropoutStatesSize, seed),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    TensorDescriptor x_desc(p.in), y_desc(p.out);
    poison(run.initial);
    DeviceBuffer x(run.x.bytes), y(run.initial.bytes);
    const size_t count = static_cast<size_t>(p.in.element_count());
    DeviceBuffer reserve(std::vector<uint8_t>(count, 0x77));
    for (int c = 0; c < calls; ++c) {
        EXPECT_EQ(cudnnDropoutForward(handle, desc, x_desc, x.get(), y_desc, y.get(), reserve.get(), count),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    }
    run.y.bytes = y.download();
    run.mask = reserve.download();
    run.states_after = read_states(states);
    return run;
}

// Published known answers of Philox4x32-10 (Salmon et al., Random123's kat_vectors): counter, key, result.
TEST(DropoutGenerator, Philox4x32_10MatchesItsKnownAnswers) {
    struct Case {
        uint32_t counter[4], key[2], result[4];
    } cases[] = {
        {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
        {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
         {0xffffffffu, 0xffffffffu},
         {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
        {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
         {0xa4093822u, 0x299f31d0u},
         {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
    };
    for (const Case &c : cases) {
        const Philox4x32 out =
            philox4x32_10(Philox4x32{{c.counter[0], c.counter[1], c.counter[2], c.counter[3]}}, c.key[0], c.key[1]);
        for (int i = 0; i < 4; ++i) EXPECT_EQ(out.word[i], c.result[i]) << "word " << i;
    }
}

TEST(Dropout, ForwardMatchesReferenceOnRandomGeometriesLayoutsAndProbabilities) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 120; ++trial) {
        const DropoutProblem p = random_problem(rng, Direction::forward);
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);
        const unsigned long long seed = static_cast<unsigned long long>(rng.integer(0, 1 << 30));
        const int calls = static_cast<int>(rng.integer(1, 3));
        const ForwardRun run = run_forward(rng, p, seed, calls);
        // The reference for the last call (number calls - 1) of a descriptor set with `seed`.
        const DropoutState start = make_dropout_state(seed);
        reference::HostTensor exact(CUDNN_DATA_DOUBLE, std::vector<int64_t>(p.out.dims, p.out.dims + p.out.nb_dims));
        std::vector<uint8_t> mask;
        ASSERT_EQ(reference::dropout_forward(p.probability, start.key, static_cast<uint64_t>(calls - 1),
                                             double_copy(run.x), exact, &mask),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        ASSERT_EQ(run.mask, mask) << "the mask differs from the reference's";
        expect_matches(run.y, run.initial, p, exact.values(), text);
        EXPECT_EQ(run.states_after.calls, static_cast<uint64_t>(calls));
        EXPECT_EQ(run.states_after.seed, seed);
    }
}

TEST(Dropout, BackwardMatchesReferenceFromTheForwardMask) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 80; ++trial) {
        const DropoutProblem p = random_problem(rng, Direction::backward);
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);
        // The forward call that leaves the mask: x with dy's geometry, y with dx's.
        DropoutProblem forward = p;
        forward.direction = Direction::forward;
        const ForwardRun run = run_forward(rng, forward, 5, 1);
        HostTensor dy(p.in), initial(p.out);
        fill_uniform(dy, rng, -2.0, 2.0);
        poison(initial);
        Handle handle;
        DropoutDescriptor desc;
        DeviceBuffer states = make_states_buffer();
        ASSERT_EQ(cudnnSetDropoutDescriptor(desc, handle, p.probability, states.get(), kDropoutStatesSize, 5),
                  CUDNN_STATUS_SUCCESS);
        TensorDescriptor dy_desc(p.in), dx_desc(p.out);
        DeviceBuffer dy_buffer(dy.bytes), dx_buffer(initial.bytes), reserve(run.mask);
        ASSERT_EQ(cudnnDropoutBackward(handle, desc, dy_desc, dy_buffer.get(), dx_desc, dx_buffer.get(), reserve.get(),
                                       run.mask.size()),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        HostTensor dx(p.out);
        dx.bytes = dx_buffer.download();
        reference::HostTensor exact(CUDNN_DATA_DOUBLE, std::vector<int64_t>(p.out.dims, p.out.dims + p.out.nb_dims));
        ASSERT_EQ(reference::dropout_backward(p.probability, run.mask, double_copy(dy), exact), CUDNN_STATUS_SUCCESS);
        expect_matches(dx, initial, p, exact.values(), text);
        EXPECT_EQ(read_states(states).calls, 0u) << "backward draws nothing";
    }
}

// Each call draws afresh; a descriptor restored on the states continues the sequence; a Set with the
// same seed starts it again.
TEST(Dropout, CallsDrawFreshMasksRestoreContinuesAndSetRestarts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    const int64_t dims[] = {3, 5, 7, 11};
    DropoutProblem p;
    p.in = p.out = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    p.probability = 0.5f;
    HostTensor x(p.in);
    fill_uniform(x, rng, 1.0, 2.0);
    Handle handle;
    TensorDescriptor d(p.in);
    const size_t count = static_cast<size_t>(p.in.element_count());
    DeviceBuffer states = make_states_buffer(), xb(x.bytes), yb(x.bytes), reserve{std::vector<uint8_t>(count)};
    auto mask_of_next_call = [&](cudnnDropoutDescriptor_t desc) {
        EXPECT_EQ(cudnnDropoutForward(handle, desc, d, xb.get(), d, yb.get(), reserve.get(), count),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        return reserve.download();
    };
    DropoutDescriptor first;
    ASSERT_EQ(cudnnSetDropoutDescriptor(first, handle, 0.5f, states.get(), kDropoutStatesSize, 77),
              CUDNN_STATUS_SUCCESS);
    const std::vector<uint8_t> call0 = mask_of_next_call(first), call1 = mask_of_next_call(first);
    EXPECT_NE(call0, call1) << "two calls drew the same mask";
    DropoutDescriptor restored;
    ASSERT_EQ(cudnnRestoreDropoutDescriptor(restored, handle, 0.5f, states.get(), kDropoutStatesSize, 77),
              CUDNN_STATUS_SUCCESS);
    const std::vector<uint8_t> call2 = mask_of_next_call(restored);
    EXPECT_NE(call2, call0);
    EXPECT_NE(call2, call1);
    EXPECT_EQ(read_states(states).calls, 3u);
    ASSERT_EQ(cudnnSetDropoutDescriptor(first, handle, 0.5f, states.get(), kDropoutStatesSize, 77),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mask_of_next_call(first), call0) << "the same seed must start the same sequence";
    ASSERT_EQ(cudnnSetDropoutDescriptor(first, handle, 0.5f, states.get(), kDropoutStatesSize, 78),
              CUDNN_STATUS_SUCCESS);
    EXPECT_NE(mask_of_next_call(first), call0) << "another seed drew the same mask";
}

// Over n = 2^18 elements the number dropped is binomial(n, p): it lies within 6 standard deviations of
// n p except with probability about 2e-9. A generator or threshold off by a fraction of p fails.
TEST(Dropout, DropsTheRequestedShare) {
    const int64_t dims[] = {4, 64, 32, 32};
    for (float probability : {0.05f, 0.3f, 0.5f, 0.875f}) {
        SCOPED_TRACE("p " + std::to_string(probability));
        DropoutProblem p;
        p.in = p.out = packed_geometry(CUDNN_DATA_HALF, 4, dims, PackedLayout::nhwc);
        p.probability = probability;
        LIBREDNN_SEEDED_RANDOM(rng);
        const ForwardRun run = run_forward(rng, p, static_cast<unsigned long long>(rng.integer(0, 1000)));
        const double n = static_cast<double>(run.mask.size());
        double dropped = 0;
        for (uint8_t m : run.mask) dropped += m == 0;
        const double sigma = std::sqrt(n * probability * (1 - probability));
        EXPECT_LE(std::fabs(dropped - n * probability), 6 * sigma) << dropped << " of " << n << " dropped";
        // The four words of one draw are used for four neighbours: they must not agree more than chance.
        double same_pairs = 0;
        for (size_t e = 0; e + 1 < run.mask.size(); e += 2) same_pairs += run.mask[e] == run.mask[e + 1];
        const double pairs = n / 2, agree = probability * probability + (1 - probability) * (1 - probability);
        EXPECT_LE(std::fabs(same_pairs - pairs * agree), 6 * std::sqrt(pairs * agree * (1 - agree)));
    }
}

TEST(Dropout, InPlaceGivesTheOutOfPlaceResult) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (cudnnDataType_t type : kTypes) {
        const int64_t dims[] = {2, 6, 5, 3};
        const TensorGeometry g = packed_geometry(type, 4, dims, PackedLayout::nhwc);
        HostTensor x(g);
        fill_uniform(x, rng, -2.0, 2.0);
        Handle handle;
        TensorDescriptor d(g);
        const size_t count = static_cast<size_t>(g.element_count());
        auto run = [&](bool in_place, std::vector<uint8_t> *mask) {
            DropoutDescriptor desc;
            DeviceBuffer states = make_states_buffer(), xb(x.bytes), yb(x.bytes), reserve{std::vector<uint8_t>(count)};
            EXPECT_EQ(cudnnSetDropoutDescriptor(desc, handle, 0.4f, states.get(), kDropoutStatesSize, 3),
                      CUDNN_STATUS_SUCCESS);
            void *y = in_place ? xb.get() : yb.get();
            EXPECT_EQ(cudnnDropoutForward(handle, desc, d, xb.get(), d, y, reserve.get(), count), CUDNN_STATUS_SUCCESS)
                << last_failure_reason();
            *mask = reserve.download();
            return in_place ? xb.download() : yb.download();
        };
        std::vector<uint8_t> mask_out, mask_in;
        EXPECT_EQ(run(true, &mask_in), run(false, &mask_out)) << "type " << static_cast<int>(type);
        EXPECT_EQ(mask_in, mask_out);
    }
}

// The property the states layout exists for: the same seed and call sequence give the same mask and
// the same output bits on the host and on the GPU. Needs both backends (LIBREDNN_OP_TEST_BACKEND=cuda).
TEST(Dropout, HostAndGpuDrawTheSameMaskBitForBit) {
    if (test_backend() != TestBackend::cuda) GTEST_SKIP() << "needs the CUDA backend to compare with the host";
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 12; ++trial) {
        const DropoutProblem p = random_problem(rng, Direction::forward);
        SCOPED_TRACE(to_problem_string(p).to_string());
        const unsigned long long seed = static_cast<unsigned long long>(rng.integer(0, 1 << 30));
        const ForwardRun gpu = run_forward(rng, p, seed, 2);
        // The same two calls on a host handle, in host memory.
        setenv("LIBREDNN_BACKEND", "host", 1);
        cudnnHandle_t host = nullptr;
        const cudnnStatus_t created = cudnnCreate(&host);
        setenv("LIBREDNN_BACKEND", test_backend_name(), 1);
        ASSERT_EQ(created, CUDNN_STATUS_SUCCESS);
        DropoutDescriptor desc;
        std::vector<uint8_t> states(kDropoutStatesSize), y(gpu.y.bytes.size(), 0xff), mask(gpu.mask.size());
        ASSERT_EQ(cudnnSetDropoutDescriptor(desc, host, p.probability, states.data(), states.size(), seed),
                  CUDNN_STATUS_SUCCESS);
        TensorDescriptor x_desc(p.in), y_desc(p.out);
        for (int call = 0; call < 2; ++call) {
            ASSERT_EQ(
                cudnnDropoutForward(host, desc, x_desc, gpu.x.bytes.data(), y_desc, y.data(), mask.data(), mask.size()),
                CUDNN_STATUS_SUCCESS);
        }
        cudnnDestroy(host);
        EXPECT_EQ(mask, gpu.mask) << "masks differ";
        EXPECT_EQ(y, gpu.y.bytes) << "outputs differ";
        EXPECT_EQ(std::memcmp(states.data(), &gpu.states_after, sizeof gpu.states_after), 0) << "states differ";
    }
}

TEST(DropoutRejects, DocumentedMisuse) {
    Handle handle;
    const int64_t dims[] = {2, 3, 4, 4}, other[] = {2, 3, 4, 5}, reshaped[] = {96, 1, 1, 1};
    const TensorGeometry g = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    TensorDescriptor x(g), y_bad(packed_geometry(CUDNN_DATA_FLOAT, 4, other, PackedLayout::nchw));
    TensorDescriptor y_reshaped(packed_geometry(CUDNN_DATA_FLOAT, 4, reshaped, PackedLayout::nchw));
    TensorDescriptor x_nhwc(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nhwc));
    TensorDescriptor half_y(packed_geometry(CUDNN_DATA_HALF, 4, dims, PackedLayout::nchw));
    TensorDescriptor int_x(packed_geometry(CUDNN_DATA_INT32, 4, dims, PackedLayout::nchw));
    DeviceBuffer a(std::vector<uint8_t>(96 * 8, 0)), b(std::vector<uint8_t>(96 * 8, 0));
    DeviceBuffer reserve(std::vector<uint8_t>(96)), states = make_states_buffer();
    DropoutDescriptor unset, without_states, desc;
    ASSERT_EQ(cudnnSetDropoutDescriptor(without_states, handle, 0.5f, nullptr, 0, 1), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetDropoutDescriptor(desc, handle, 0.5f, states.get(), kDropoutStatesSize, 1), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, unset, x, a.get(), x, b.get(), reserve.get(), 96), "has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, without_states, x, a.get(), x, b.get(), reserve.get(), 96),
                    "no states");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutBackward(handle, without_states, x, a.get(), x, b.get(), reserve.get(), 96),
                    "no states");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, nullptr, x, a.get(), x, b.get(), reserve.get(), 96), "NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, desc, x, a.get(), y_bad, b.get(), reserve.get(), 120), "elements");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, desc, x, a.get(), half_y, b.get(), reserve.get(), 96), "data type");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnDropoutForward(handle, desc, int_x, a.get(), int_x, b.get(), reserve.get(), 96),
                    "CUDNN_DATA_INT32");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, desc, x, a.get(), x, b.get(), reserve.get(), 95),
                    "reserveSpaceSizeInBytes is 95");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutBackward(handle, desc, x, a.get(), x, b.get(), reserve.get(), 95),
                    "reserveSpaceSizeInBytes is 95");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, desc, x, a.get(), x_nhwc, a.get(), reserve.get(), 96), "in place");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDropoutForward(handle, desc, x, a.get(), x, b.get(), nullptr, 96),
                    "reserveSpace is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, desc, x, nullptr, x, b.get(), reserve.get(), 96), "x is NULL");
    // Same count, other dims: accepted, as cuDNN asks only for equal element counts.
    EXPECT_EQ(cudnnDropoutForward(handle, desc, x, a.get(), y_reshaped, b.get(), reserve.get(), 96),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
}

// The host reads the states: a buffer no Set initialised is refused rather than drawn from.
TEST(DropoutRejects, StatesNoSetInitialisedOnTheHost) {
    if (test_backend() != TestBackend::host) GTEST_SKIP() << "the GPU's states are not read by the host";
    Handle handle;
    const int64_t dims[] = {1, 2, 3, 4};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw));
    std::vector<float> a(24, 1.0f), b(24);
    std::vector<uint8_t> reserve(24), states(kDropoutStatesSize, 0);
    DropoutDescriptor desc;
    ASSERT_EQ(cudnnRestoreDropoutDescriptor(desc, handle, 0.5f, states.data(), states.size(), 1), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDropoutForward(handle, desc, x, a.data(), x, b.data(), reserve.data(), reserve.size()),
                    "not initialised by cudnnSetDropoutDescriptor");
}

// cudnnSetDropoutDescriptor writes the same 64 bytes on every backend.
TEST(DropoutStates, SetWritesTheDocumentedStatesOnEveryBackend) {
    Handle handle;
    DropoutDescriptor desc;
    DeviceBuffer states = make_states_buffer();
    ASSERT_EQ(cudnnSetDropoutDescriptor(desc, handle, 0.25f, states.get(), kDropoutStatesSize, 1234),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    const DropoutState expected = make_dropout_state(1234);
    const std::vector<uint8_t> bytes = states.download();
    EXPECT_EQ(std::memcmp(bytes.data(), &expected, sizeof expected), 0);
}

TEST(DropoutProblemString, RoundTrips) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial) {
        DropoutProblem p = random_problem(rng, trial % 2 ? Direction::forward : Direction::backward);
        p.in_place = trial % 5 == 0;
        const ProblemString text = to_problem_string(p);
        DropoutProblem back;
        std::string error;
        ASSERT_TRUE(parse_dropout_problem(text, &back, &error)) << text.to_string() << ": " << error;
        EXPECT_EQ(to_problem_string(back).to_string(), text.to_string());
    }
}

}  // namespace
