// The bench's numerics and statistics: half and bfloat16 rounding, seeded random data, error measures,
// medians, and how many input copies defeat the cache.
#include "check.hpp"
#include "data.hpp"
#include "timing.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace librednn::bench {
namespace {

TEST(BenchData, HalfRoundsToNearestEvenAcrossItsRange) {
    EXPECT_EQ(float_to_half(1.0f), 0x3c00);
    EXPECT_EQ(float_to_half(-2.0f), 0xc000);
    EXPECT_EQ(float_to_half(65504.0f), 0x7bff);                          // the largest half
    EXPECT_EQ(float_to_half(65520.0f), 0x7c00);                          // rounds up to infinity
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 0x0001);             // the smallest subnormal
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);             // halfway to zero: even
    EXPECT_EQ(float_to_half(std::ldexp(3.0f, -25)), 0x0002);             // halfway between 1 and 2 ulps: even
    EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);      // tie: stays even
    EXPECT_EQ(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie: up to even
    EXPECT_TRUE(std::isnan(half_to_float(float_to_half(std::nanf("")))));
    for (uint32_t bits = 0; bits < 0x7c00; ++bits)  // every finite half survives the round trip
        ASSERT_EQ(float_to_half(half_to_float(static_cast<uint16_t>(bits))), bits) << bits;
}

TEST(BenchData, Bfloat16KeepsFloatsExponentAndRoundsItsMantissa) {
    EXPECT_EQ(float_to_bfloat16(1.0f), 0x3f80);
    EXPECT_EQ(bfloat16_to_float(0x3f80), 1.0f);
    EXPECT_EQ(float_to_bfloat16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);        // tie: even
    EXPECT_EQ(float_to_bfloat16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);    // tie: up to even
    EXPECT_TRUE(std::isfinite(bfloat16_to_float(float_to_bfloat16(3e38f))));  // big values stay finite
    EXPECT_TRUE(std::isnan(bfloat16_to_float(float_to_bfloat16(std::nanf("")))));
}

TEST(BenchData, RandomValuesAreSeededExactInTheirTypeAndInRange) {
    const auto a = random_values(CUDNN_DATA_HALF, Fill::symmetric, 1000, 42);
    EXPECT_EQ(a, random_values(CUDNN_DATA_HALF, Fill::symmetric, 1000, 42));
    EXPECT_NE(a, random_values(CUDNN_DATA_HALF, Fill::symmetric, 1000, 43));
    std::vector<uint16_t> bits(a.size());
    encode(CUDNN_DATA_HALF, a.data(), a.size(), bits.data());
    std::vector<double> back(a.size());
    decode(CUDNN_DATA_HALF, bits.data(), bits.size(), back.data());
    EXPECT_EQ(back, a);  // already rounded to half: what the library reads is what we compare with
    for (double v : a) EXPECT_TRUE(v >= -1 && v <= 1) << v;
    for (double v : random_values(CUDNN_DATA_FLOAT, Fill::positive, 1000, 1)) EXPECT_TRUE(v >= 0.5 && v <= 1.5) << v;
    for (double v : random_values(CUDNN_DATA_INT8, Fill::symmetric, 1000, 1))
        EXPECT_TRUE(v == std::floor(v) && v >= -8 && v <= 8) << v;
}

TEST(BenchData, TypeNamesAreTheProblemStringSpellings) {
    for (const char *name : {"float", "double", "half", "bfloat16", "int8", "int32"}) {
        cudnnDataType_t type;
        ASSERT_TRUE(parse_data_type(name, &type)) << name;
        EXPECT_STREQ(data_type_name(type), name);
    }
    cudnnDataType_t type;
    EXPECT_FALSE(parse_data_type("fp16", &type));
    EXPECT_EQ(data_type_size(CUDNN_DATA_BFLOAT16), 2u);
    EXPECT_EQ(data_type_size(CUDNN_DATA_DOUBLE), 8u);
}

TEST(BenchCheck, MeasuresRelativeAndLargestErrors) {
    EXPECT_EQ(compare({1, 2, 3}, {1, 2, 3}).relative, 0);
    const ErrorStats off = compare({1.001, 2.002, -3.003}, {1, 2, -3});
    EXPECT_NEAR(off.relative, 1e-3, 1e-9);
    EXPECT_NEAR(off.max_abs, 3e-3, 1e-12);
    const ErrorStats zero_reference = compare({0, 0.5}, {0, 0});
    EXPECT_DOUBLE_EQ(zero_reference.relative, 0.5);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const ErrorStats unwritten = compare({1, nan}, {1, 2});
    EXPECT_EQ(unwritten.nan_mismatches, 1u);
    EXPECT_TRUE(std::isinf(unwritten.relative));
    const ErrorStats both = compare({1, nan}, {1, nan});
    EXPECT_EQ(both.relative, 0);  // NaN where the reference has NaN is agreement, but counted
    EXPECT_EQ(both.nan_both, 1u);
}

TEST(BenchCheck, NoReferenceIsWiredYet) {
    // When src/reference/ lands, reference_for() returns a compute function; this test then changes.
    class Dummy : public Problem {
        ProblemString describe() const override { return {}; }
        std::vector<TensorSpec> tensors() const override { return {}; }
        std::unique_ptr<Operation> bind(const Context &, Outcome *) const override { return nullptr; }
    } dummy;
    const Reference reference = reference_for(dummy);
    EXPECT_FALSE(reference.compute);
    EXPECT_EQ(reference.unavailable, "no reference yet");
}

TEST(BenchTiming, MedianOfOddAndEvenCounts) {
    EXPECT_EQ(median({3, 1, 2}), 2);
    EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_EQ(median({}), 0);
}

TEST(BenchTiming, RotatesEnoughCopiesToTouchTwiceTheCache) {
    const size_t mb = size_t(1) << 20, cache = 50 * mb, plenty = size_t(64) << 30;
    EXPECT_EQ(rotation_copies(mb, cache, plenty), 100);      // 100 MB touched
    EXPECT_EQ(rotation_copies(30 * mb, cache, plenty), 4);   // 120 MB
    EXPECT_EQ(rotation_copies(500 * mb, cache, plenty), 1);  // one copy is already beyond the cache
    EXPECT_EQ(rotation_copies(1024, cache, plenty), 1024);   // capped
    EXPECT_EQ(rotation_copies(mb, cache, 10 * mb), 10);      // within the memory budget
    EXPECT_EQ(rotation_copies(mb, cache, 0), 1);             // always at least one
    EXPECT_EQ(rotation_copies(0, cache, plenty), 1);
}

TEST(BenchTiming, WallClockTimesEachRunOnTheHost) {
    Stopwatch watch(MemoryKind::host, 3);
    ASSERT_TRUE(watch.ready().ok());
    for (int run = 0; run < 3; ++run) {
        watch.start(run);
        volatile double sink = 0;
        for (int i = 0; i < 100000; ++i) sink = sink + i;
        watch.stop(run);
    }
    std::vector<double> times;
    ASSERT_TRUE(watch.elapsed(&times).ok());
    ASSERT_EQ(times.size(), 3u);
    for (double ms : times) EXPECT_GT(ms, 0);
}

}  // namespace
}  // namespace librednn::bench
