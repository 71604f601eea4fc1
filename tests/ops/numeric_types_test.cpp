// Host half and bfloat16 conversions: exact values, round-to-nearest-even, overflow, subnormals, NaN;
// and double conversions that round once.
#include "core/numeric_types.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using namespace librednn;

TEST(NumericTypes, HalfRoundsToNearestEven) {
    EXPECT_EQ(half_from_float(1.0f).bits, 0x3c00);
    EXPECT_EQ(half_from_float(-2.0f).bits, 0xc000);
    EXPECT_EQ(half_from_float(65504.0f).bits, 0x7bff);
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even 1.
    EXPECT_EQ(half_from_float(1.0f + 0x1p-11f).bits, 0x3c00);
    // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9: ties to the even upper one.
    EXPECT_EQ(half_from_float(1.0f + 3 * 0x1p-11f).bits, 0x3c02);
    EXPECT_EQ(half_from_float(1.0f + 0x1p-11f + 0x1p-20f).bits, 0x3c01);
}

TEST(NumericTypes, HalfOverflowSubnormalsAndNan) {
    EXPECT_EQ(half_from_float(65519.0f).bits, 0x7bff);
    EXPECT_EQ(half_from_float(65520.0f).bits, 0x7c00);
    EXPECT_EQ(half_from_float(-1e9f).bits, 0xfc00);
    EXPECT_EQ(half_from_float(INFINITY).bits, 0x7c00);
    EXPECT_EQ(half_from_float(0x1p-24f).bits, 0x0001);
    EXPECT_EQ(half_from_float(0x1p-25f).bits, 0x0000);      // tie to even 0
    EXPECT_EQ(half_from_float(0x1.8p-24f).bits, 0x0002);    // 1.5 ulp: tie to even 2
    EXPECT_EQ(half_from_float(0x1.ff8p-15f).bits, 0x03ff);  // the largest subnormal
    EXPECT_EQ(half_from_float(0x1.ffcp-15f).bits, 0x0400);  // halfway: ties up into the smallest normal
    EXPECT_EQ(half_from_float(-0.0f).bits, 0x8000);
    EXPECT_TRUE(std::isnan(half_to_float(half_from_float(NAN))));
    EXPECT_EQ(half_to_float(Half{0x0001}), 0x1p-24f);
    EXPECT_EQ(half_to_float(Half{0x7c00}), INFINITY);
    EXPECT_TRUE(std::isnan(half_to_float(Half{0x7e00})));
}

TEST(NumericTypes, EveryHalfRoundTripsThroughFloatAndDouble) {
    for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
        const Half h{static_cast<uint16_t>(bits)};
        const float f = half_to_float(h);
        if (std::isnan(f)) continue;
        ASSERT_EQ(half_from_float(f).bits, h.bits) << std::hex << bits;
        ASSERT_EQ(half_from_double(f).bits, h.bits) << std::hex << bits;
    }
}

TEST(NumericTypes, BFloat16RoundsToNearestEvenAndOverflows) {
    EXPECT_EQ(bfloat16_from_float(1.0f).bits, 0x3f80);
    EXPECT_EQ(bfloat16_from_float(1.0f + 0x1p-8f).bits, 0x3f80);      // tie to even
    EXPECT_EQ(bfloat16_from_float(1.0f + 3 * 0x1p-8f).bits, 0x3f82);  // tie to even (up)
    EXPECT_EQ(bfloat16_from_float(3.3895314e38f).bits, 0x7f7f);       // largest finite
    EXPECT_EQ(bfloat16_from_float(3.4e38f).bits, 0x7f80);             // rounds to infinity
    EXPECT_TRUE(std::isnan(bfloat16_to_float(bfloat16_from_float(NAN))));
    for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
        const BFloat16 b{static_cast<uint16_t>(bits)};
        const float f = bfloat16_to_float(b);
        if (std::isnan(f)) continue;
        ASSERT_EQ(bfloat16_from_float(f).bits, b.bits) << std::hex << bits;
        ASSERT_EQ(bfloat16_from_double(f).bits, b.bits) << std::hex << bits;
    }
}

TEST(NumericTypes, DoubleConversionsRoundOnce) {
    // 1 + 2^-11 + 2^-40 is just above the half tie: once rounded it goes up; through float (which
    // drops the 2^-40) it would tie down to 1.
    EXPECT_EQ(half_from_double(1.0 + 0x1p-11 + 0x1p-40).bits, 0x3c01);
    EXPECT_EQ(bfloat16_from_double(1.0 + 0x1p-8 + 0x1p-40).bits, 0x3f81);
    // Random doubles: the result is the nearest half (or a tie to the even one).
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> dist(-70000.0, 70000.0);
    for (int i = 0; i < 100000; ++i) {
        const double v = dist(rng) * std::pow(2.0, -static_cast<int>(rng() % 30));
        const Half h = half_from_double(v);
        const double got = half_to_float(h);
        if (std::isinf(got)) {
            ASSERT_GE(std::fabs(v), 65520.0);
            continue;
        }
        const double below = half_to_float(Half{static_cast<uint16_t>(h.bits - 1)});
        const double above = half_to_float(Half{static_cast<uint16_t>(h.bits + 1)});
        // The neighbouring encodings (NaN past the ends of the range) are no nearer.
        if (!std::isnan(below)) {
            ASSERT_LE(std::fabs(got - v), std::fabs(below - v)) << v;
        }
        if (!std::isnan(above)) {
            ASSERT_LE(std::fabs(got - v), std::fabs(above - v)) << v;
        }
    }
}

TEST(NumericTypes, IntegersRoundToEvenAndSaturate) {
    EXPECT_EQ(saturate_to_integer<int8_t>(2.5), 2);
    EXPECT_EQ(saturate_to_integer<int8_t>(3.5), 4);
    EXPECT_EQ(saturate_to_integer<int8_t>(-2.5), -2);
    EXPECT_EQ(saturate_to_integer<int8_t>(1000.0), 127);
    EXPECT_EQ(saturate_to_integer<int8_t>(-1000.0), -128);
    EXPECT_EQ(saturate_to_integer<uint8_t>(-3.0), 0);
    EXPECT_EQ(saturate_to_integer<int32_t>(NAN), 0);
}

}  // namespace
