// The doctor's findings: checks (PASS/WARN/FAIL/SKIP/INFO, each with a one-sentence fix) grouped in
// sections, printed for people or as JSON, and the exit status they add up to.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace librednn::doctor {

enum class Verdict { pass, warn, fail, skip, info };

const char *verdict_name(Verdict verdict);  // "PASS", "WARN", ...

struct Check {
    std::string id;  // stable key for scripts: "install.complete", "selftest.softmax", ...
    Verdict verdict = Verdict::info;
    std::string subject;               // the file or directory it is about; empty when the section says it
    std::string summary;               // one line: what was found
    std::vector<std::string> details;  // further lines: search steps, per-library facts
    std::string fix;                   // one sentence; empty when there is nothing to do
    bool show_details = false;         // print details even for PASS/INFO (search steps a user asked for)
};

struct Section {
    std::string id;     // "cuda", "installation", "loader", "selftest", "windows"
    std::string title;  // "NVIDIA cuDNN 9.19.0 at /usr/local/cuda-13.0/lib"
    std::string subject;
    std::vector<Check> checks;
    std::map<std::string, std::string> facts;  // machine-readable facts ("major", "version", "vendor")

    Check &add(std::string id, Verdict verdict, std::string summary, std::string fix = {});
};

struct Report {
    std::vector<Section> sections;
    std::string doctor_error;  // set when the doctor itself failed (bad arguments, internal error)

    Section &section(std::string id, std::string title, std::string subject = {});
    int count(Verdict verdict) const;
    // 0 healthy (no FAIL; with strict, no WARN either), 1 problems found, 2 the doctor itself failed.
    int exit_status(bool strict) const;
};

void print_human(const Report &report, bool strict, bool verbose, std::string *out);
void print_json(const Report &report, bool strict, std::string *out);

// JSON string literal for `text` (quotes included), escaping what RFC 8259 requires.
std::string json_quote(const std::string &text);

}  // namespace librednn::doctor
