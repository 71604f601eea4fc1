// Tests for the report: exit statuses, and JSON that parses and keeps every field.
#include "report.hpp"

#include <gtest/gtest.h>

#include "json_reader.hpp"

namespace librednn::doctor {
namespace {

using testing::Json;
using testing::JsonParser;

TEST(Report, ExitStatusIsZeroWithoutFailOneWithFailTwoWhenTheDoctorFailed) {
    Report report;
    Section &section = report.section("s", "section");
    section.add("a", Verdict::pass, "fine");
    section.add("b", Verdict::warn, "hmm", "do this");
    section.add("c", Verdict::skip, "skipped");
    EXPECT_EQ(report.exit_status(false), 0);
    EXPECT_EQ(report.exit_status(true), 1);  // --strict counts WARN
    report.sections.back().add("d", Verdict::fail, "broken", "fix it");
    EXPECT_EQ(report.exit_status(false), 1);
    report.doctor_error = "bad argument";
    EXPECT_EQ(report.exit_status(false), 2);
}

TEST(Report, JsonParsesAndCarriesEveryCheckField) {
    Report report;
    Section &section = report.section("installation", "NVIDIA cuDNN 9.19.0 at /usr/lib", "/usr/lib");
    section.facts["version"] = "9.19.0";
    Check &check =
        section.add("install.complete", Verdict::fail, "missing \"libcudnn_cnn.so.9\"\tand\\more\n", "Install it.");
    check.details = {"line one", std::string("bytes \x01 and \xff invalid utf-8")};
    std::string out;
    print_json(report, false, &out);
    Json json;
    JsonParser parser(out);
    ASSERT_TRUE(parser.parse(&json)) << parser.error() << "\n" << out;
    EXPECT_EQ(json["tool"].text, "cudnn-doctor");
    EXPECT_EQ(json["exit_status"].number, 1);
    EXPECT_EQ(json["counts"]["FAIL"].number, 1);
    const Json &first = json["sections"].items.at(0);
    EXPECT_EQ(first["id"].text, "installation");
    EXPECT_EQ(first["facts"]["version"].text, "9.19.0");
    const Json &parsed = first["checks"].items.at(0);
    EXPECT_EQ(parsed["id"].text, "install.complete");
    EXPECT_EQ(parsed["verdict"].text, "FAIL");
    EXPECT_EQ(parsed["summary"].text, "missing \"libcudnn_cnn.so.9\"\tand\\more\n");
    EXPECT_EQ(parsed["fix"].text, "Install it.");
    EXPECT_EQ(parsed["details"].items.size(), 2u);
}

TEST(Report, HumanReportShowsFixesOfProblemsAndTheSummaryLine) {
    Report report;
    Section &section = report.section("s", "Things");
    section.add("ok", Verdict::pass, "all good", "never shown");
    section.add("bad", Verdict::fail, "it broke", "Repair it.");
    std::string out;
    print_human(report, false, false, &out);
    EXPECT_NE(out.find("== Things"), std::string::npos);
    EXPECT_NE(out.find("FAIL  it broke"), std::string::npos);
    EXPECT_NE(out.find("fix: Repair it."), std::string::npos);
    EXPECT_EQ(out.find("never shown"), std::string::npos);
    EXPECT_NE(out.find("1 PASS, 0 WARN, 1 FAIL, 0 SKIP: problems found (exit 1)"), std::string::npos) << out;
}

}  // namespace
}  // namespace librednn::doctor
