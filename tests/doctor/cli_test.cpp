// Tests of the cudnn-doctor binary: a copy of LibreDNN's own build (healthy, with the self-test), broken
// copies, exit statuses, --json, --for and --inspect, as a user runs them.
#include <gtest/gtest.h>

#include <unistd.h>

#include "doctor_test_util.hpp"
#include "synthetic_pe.hpp"

namespace librednn::doctor {
namespace {

using testing::checks_with_id;
using testing::DoctorRun;
using testing::Json;
using testing::run_doctor;
using testing::TempDir;

// The doctor on prefix/lib alone: no machine-wide search, no loader cache, so the result does not
// depend on what else this machine has installed.
DoctorRun doctor_on(const std::string &prefix, std::vector<std::string> extra,
                    const std::string &ld_library_path = {}) {
    std::vector<std::string> args = {"--lib", prefix + "/lib", "--no-discover", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_doctor(args, ld_library_path);
}

std::string dump(const DoctorRun &run) { return run.output + run.errors; }

TEST(DoctorCli, LibreDnnsOwnBuildIsHealthyAndItsSelfTestPassesOrSaysNotProvided) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    const DoctorRun run =
        doctor_on(temp / "prefix", {"--self-test", "--seed", "11", "--stem-batch", "1"}, temp / "prefix/lib");
    ASSERT_TRUE(run.json_error.empty()) << run.json_error << "\n" << dump(run);
    EXPECT_EQ(run.exit_status, 0) << dump(run);
    EXPECT_EQ(run.json["exit_status"].number, 0);
    EXPECT_EQ(run.json["counts"]["FAIL"].number, 0) << dump(run);
    for (const char *key : {"tool", "exit_status", "doctor_error", "counts", "sections"}) {
        EXPECT_TRUE(run.json.has(key)) << key;
    }
    bool tested_an_operation = false;
    for (const Json &section : run.json["sections"].items) {
        for (const char *key : {"id", "title", "subject", "facts", "checks"}) EXPECT_TRUE(section.has(key)) << key;
        for (const Json &check : section["checks"].items) {
            for (const char *key : {"id", "verdict", "subject", "summary", "fix", "details"})
                EXPECT_TRUE(check.has(key)) << key;
            if (section["id"].text != "selftest" || check["id"].text.find(".host") == std::string::npos) continue;
            tested_an_operation = true;
            // Each operation either matches the reference or is not provided yet; nothing else.
            const bool passes = check["verdict"].text == "PASS";
            const bool not_provided = check["verdict"].text == "WARN" &&
                                      check["summary"].text.find("not provided by this library") != std::string::npos;
            EXPECT_TRUE(passes || not_provided) << check["id"].text << ": " << check["summary"].text;
        }
    }
    EXPECT_TRUE(tested_an_operation);
    ASSERT_EQ(checks_with_id(run.json, "selftest.load").size(), 1u);
    EXPECT_EQ(checks_with_id(run.json, "selftest.load")[0]["verdict"].text, "PASS");
    const std::vector<Json> loader = checks_with_id(run.json, "loader.libcudnn.so.8");
    ASSERT_EQ(loader.size(), 1u);
    EXPECT_NE(loader[0]["summary"].text.find("via LD_LIBRARY_PATH"), std::string::npos) << loader[0]["summary"].text;
}

TEST(DoctorCli, MissingSubLibraryExitsOne) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    ::unlink((temp / "prefix/lib/libcudnn_adv_infer.so.8").c_str());
    const DoctorRun run = doctor_on(temp / "prefix", {});
    EXPECT_EQ(run.exit_status, 1) << dump(run);
    const std::vector<Json> complete = checks_with_id(run.json, "install.complete");
    ASSERT_EQ(complete.size(), 1u);
    EXPECT_EQ(complete[0]["verdict"].text, "FAIL");
    EXPECT_FALSE(complete[0]["fix"].text.empty());
}

TEST(DoctorCli, AnotherBuildsSubLibraryFailsTheVersionCheckOfTheSelfTest) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    ASSERT_TRUE(testing::rewrite_build_id(temp / "prefix/lib/libcudnn_cnn_infer.so.8.9.7"));
    const DoctorRun run = doctor_on(temp / "prefix", {"--self-test=1"}, temp / "prefix/lib");
    EXPECT_EQ(run.exit_status, 1) << dump(run);
    const std::vector<Json> load = checks_with_id(run.json, "selftest.load");
    ASSERT_EQ(load.size(), 1u);
    EXPECT_EQ(load[0]["verdict"].text, "FAIL");
    std::string details;
    for (const Json &detail : load[0]["details"].items) details += detail.text + "\n";
    EXPECT_NE(details.find("cudnnCnnInferVersionCheck: CUDNN_STATUS_VERSION_MISMATCH"), std::string::npos) << dump(run);
}

TEST(DoctorCli, ExitStatusTwoOnABadCommandLineAndStrictCountsWarnings) {
    DoctorRun run = run_doctor({"--no-such-option"});
    EXPECT_EQ(run.exit_status, 2);
    EXPECT_NE(run.errors.find("unknown option --no-such-option"), std::string::npos) << run.errors;
    run = run_doctor({"--self-test=4"});
    EXPECT_EQ(run.exit_status, 2);
    run = run_doctor({"--no-load", "--self-test"});
    EXPECT_EQ(run.exit_status, 2);

    // No cuDNN anywhere it may look: WARN, which only --strict turns into exit 1.
    TempDir temp;
    testing::make_dirs(temp / "empty/lib");
    run = doctor_on(temp / "empty", {"--no-load"});
    EXPECT_EQ(run.exit_status, 0) << dump(run);
    EXPECT_EQ(checks_with_id(run.json, "installations.none").size(), 1u);
    run = doctor_on(temp / "empty", {"--no-load", "--strict"});
    EXPECT_EQ(run.exit_status, 1) << dump(run);
}

TEST(DoctorCli, HumanReportEndsWithTheSummaryLine) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    const DoctorRun run = run_doctor({"--lib", temp / "prefix/lib", "--no-discover"});
    EXPECT_EQ(run.exit_status, 0) << dump(run);
    EXPECT_NE(run.output.find("== LibreDNN"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find(": healthy (exit 0)\n"), std::string::npos) << run.output;
}

TEST(DoctorCli, ForExplainsWhichCopyAProgramLoads) {
    TempDir temp;
    testing::install_librednn_copy(temp / "prefix");
    tools::testing::SyntheticElf program;
    program.type = 2;
    program.needed = {"libcudnn.so.8"};
    program.rpath = temp / "prefix/lib";
    testing::write_bytes(temp / "program", program.build());
    const DoctorRun run = doctor_on(temp / "prefix", {"--for", temp / "program", "--no-load"});
    const std::vector<Json> found = checks_with_id(run.json, "for.libcudnn.so.8");
    ASSERT_EQ(found.size(), 1u) << dump(run);
    EXPECT_EQ(found[0]["verdict"].text, "PASS");
    EXPECT_NE(found[0]["summary"].text.find("via DT_RPATH of program"), std::string::npos) << found[0]["summary"].text;
}

TEST(DoctorCli, InspectAloneChecksOnlyTheWindowsPackage) {
    TempDir temp;
    testing::make_dirs(temp / "bin");
    for (const char *dll : {"cudnn64_8.dll", "cudnn_ops_infer64_8.dll"}) {
        testing::write_bytes(temp / "bin/" + dll, tools::testing::SyntheticPe{}.build());
    }
    const DoctorRun run = run_doctor({"--inspect", temp.path(), "--json"});
    EXPECT_EQ(run.exit_status, 1) << dump(run);  // five DLLs are missing
    for (const Json &section : run.json["sections"].items) EXPECT_EQ(section["id"].text, "windows");
    EXPECT_EQ(checks_with_id(run.json, "windows.complete")[0]["verdict"].text, "FAIL");
}

}  // namespace
}  // namespace librednn::doctor
