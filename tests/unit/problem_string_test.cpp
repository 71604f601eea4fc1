// Problem strings: parse, print, typed reads and the round trip.
#include "problem/problem_string.hpp"

#include <gtest/gtest.h>

using librednn::ProblemString;

TEST(ProblemString, RoundTripsThroughTextInOrder) {
    ProblemString p;
    p.set("op", "conv");
    p.set("n", 32);
    p.set_dims("pad", {1, 1});
    p.set("alpha", 0.1);
    p.set("beta", 1.0);
    EXPECT_EQ(p.to_string(), "op=conv n=32 pad=1x1 alpha=0.1 beta=1");
    ProblemString q;
    std::string error;
    ASSERT_TRUE(ProblemString::parse(p.to_string(), &q, &error)) << error;
    EXPECT_EQ(p, q);
}

TEST(ProblemString, TypedReadsAndDefaults) {
    ProblemString p;
    std::string error;
    ASSERT_TRUE(ProblemString::parse("op=act  n=2 alpha=-1.5e-3 dims=2x3x4", &p, &error)) << error;
    int64_t n = 0, missing = 0;
    double alpha = 0;
    std::vector<int64_t> dims;
    ASSERT_TRUE(p.get_int("n", &n, &error));
    ASSERT_TRUE(p.get_int("groups", &missing, 1, &error));
    ASSERT_TRUE(p.get_double("alpha", &alpha, &error));
    ASSERT_TRUE(p.get_dims("dims", &dims, &error));
    EXPECT_EQ(n, 2);
    EXPECT_EQ(missing, 1);
    EXPECT_DOUBLE_EQ(alpha, -1.5e-3);
    EXPECT_EQ(dims, (std::vector<int64_t>{2, 3, 4}));
    EXPECT_EQ(p.unread_keys(), std::vector<std::string>{"op"});
}

TEST(ProblemString, RejectsMalformedInputWithReason) {
    ProblemString p;
    std::string error;
    EXPECT_FALSE(ProblemString::parse("", &p, &error));
    EXPECT_FALSE(ProblemString::parse("op", &p, &error));
    EXPECT_NE(error.find("not key=value"), std::string::npos);
    EXPECT_FALSE(ProblemString::parse("op=a op=b", &p, &error));
    EXPECT_NE(error.find("twice"), std::string::npos);
    EXPECT_FALSE(ProblemString::parse("Op=a", &p, &error));
    EXPECT_FALSE(ProblemString::parse("op=", &p, &error));
    ASSERT_TRUE(ProblemString::parse("n=abc d=1x", &p, &error));
    int64_t n;
    std::vector<int64_t> d;
    EXPECT_FALSE(p.get_int("n", &n, &error));
    EXPECT_NE(error.find("must be an integer"), std::string::npos);
    EXPECT_FALSE(p.get_dims("d", &d, &error));
    EXPECT_FALSE(p.get_int("absent", &n, &error));
    EXPECT_NE(error.find("missing key 'absent'"), std::string::npos);
}
