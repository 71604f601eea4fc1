// Tests for the child-process isolation: reports, crashes, aborts, hangs and captured messages.
#include "child_process.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace librednn::doctor {
namespace {

TEST(ChildProcess, ValuesWithNewlinesAndBackslashesComeBackIntact) {
    const ChildOutcome outcome = run_in_child(
        [](ChildReport &report) {
            report.put("text", "line one\nline two \\ end");
            report.put("number", 42);
            return 0;
        },
        10000);
    ASSERT_TRUE(outcome.ok()) << outcome.describe();
    EXPECT_EQ(outcome.get("text"), "line one\nline two \\ end");
    EXPECT_EQ(outcome.get("number"), "42");
}

TEST(ChildProcess, AnAbortIsReportedWithTheSignalAndTheLastMessage) {
    const ChildOutcome outcome = run_in_child(
        [](ChildReport &report) {
            report.put("before", "1");
            std::fprintf(stderr, "Could not load library libcudnn_cnn_infer.so.8\n");
            std::abort();
            return 0;
        },
        10000);
    EXPECT_EQ(outcome.kind, ChildOutcome::Kind::signaled);
    EXPECT_EQ(outcome.signal, SIGABRT);
    EXPECT_EQ(outcome.get("before"), "1");
    EXPECT_EQ(outcome.last_message_line(), "Could not load library libcudnn_cnn_infer.so.8");
    EXPECT_NE(outcome.describe().find("signal 6"), std::string::npos) << outcome.describe();
}

TEST(ChildProcess, AHangingChildIsKilledAtTheDeadline) {
    const ChildOutcome outcome = run_in_child(
        [](ChildReport &) {
            ::sleep(30);
            return 0;
        },
        300);
    EXPECT_EQ(outcome.kind, ChildOutcome::Kind::timed_out);
    EXPECT_FALSE(outcome.ok());
}

TEST(ChildProcess, EnvironmentIsSetInTheChildOnly) {
    ::unsetenv("DOCTOR_CHILD_TEST");
    const ChildOutcome outcome = run_in_child(
        [](ChildReport &report) {
            const char *value = std::getenv("DOCTOR_CHILD_TEST");
            report.put("value", value ? value : "unset");
            return 0;
        },
        10000, {{"DOCTOR_CHILD_TEST", "host"}});
    EXPECT_EQ(outcome.get("value"), "host");
    EXPECT_EQ(std::getenv("DOCTOR_CHILD_TEST"), nullptr);
}

TEST(ChildProcess, ProgramsRunWithTheirOutputCaptured) {
    const ChildOutcome outcome = run_program({"sh", "-c", "echo hello; exit 3"}, 10000);
    EXPECT_EQ(outcome.exit_code, 3);
    EXPECT_EQ(outcome.last_message_line(), "hello");
    const ChildOutcome missing = run_program({"/nonexistent/program"}, 10000);
    EXPECT_EQ(missing.exit_code, 127);
}

}  // namespace
}  // namespace librednn::doctor
