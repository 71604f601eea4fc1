// Printing the doctor's report: a human-readable page and a JSON document with the same content.
#include "report.hpp"

#include <cstdio>
#include <iterator>

namespace librednn::doctor {

const char *verdict_name(Verdict verdict) {
    switch (verdict) {
        case Verdict::pass: return "PASS";
        case Verdict::warn: return "WARN";
        case Verdict::fail: return "FAIL";
        case Verdict::skip: return "SKIP";
        case Verdict::info: return "INFO";
    }
    return "INFO";
}

Check &Section::add(std::string check_id, Verdict verdict, std::string summary, std::string fix) {
    Check check;
    check.id = std::move(check_id);
    check.verdict = verdict;
    check.summary = std::move(summary);
    check.fix = std::move(fix);
    checks.push_back(std::move(check));
    return checks.back();
}

Section &Report::section(std::string id, std::string title, std::string subject) {
    Section section;
    section.id = std::move(id);
    section.title = std::move(title);
    section.subject = std::move(subject);
    sections.push_back(std::move(section));
    return sections.back();
}

int Report::count(Verdict verdict) const {
    int total = 0;
    for (const Section &section : sections) {
        for (const Check &check : section.checks) total += check.verdict == verdict;
    }
    return total;
}

int Report::exit_status(bool strict) const {
    if (!doctor_error.empty()) return 2;
    if (count(Verdict::fail) > 0 || (strict && count(Verdict::warn) > 0)) return 1;
    return 0;
}

namespace {

void append(std::string *out, const std::string &text) { out->append(text); }

std::string summary_line(const Report &report, bool strict) {
    const int status = report.exit_status(strict);
    std::string line = std::to_string(report.count(Verdict::pass)) + " PASS, " +
                       std::to_string(report.count(Verdict::warn)) + " WARN, " +
                       std::to_string(report.count(Verdict::fail)) + " FAIL, " +
                       std::to_string(report.count(Verdict::skip)) + " SKIP";
    const char *meaning = status == 0 ? "healthy" : status == 1 ? "problems found" : "the doctor itself failed";
    return line + ": " + meaning + " (exit " + std::to_string(status) + ")";
}

}  // namespace

void print_human(const Report &report, bool strict, bool verbose, std::string *out) {
    for (const Section &section : report.sections) {
        append(out, "\n== " + section.title + "\n");
        for (const Check &check : section.checks) {
            std::string line = std::string("  ") + verdict_name(check.verdict) + "  " + check.summary;
            if (!check.subject.empty() && check.summary.find(check.subject) == std::string::npos) {
                line += " [" + check.subject + "]";
            }
            append(out, line + "\n");
            // Details explain a verdict; a PASS or INFO shows them only when asked.
            const bool show_details =
                verbose || check.show_details || check.verdict == Verdict::warn || check.verdict == Verdict::fail;
            if (show_details) {
                for (const std::string &detail : check.details) append(out, "        " + detail + "\n");
            }
            if (!check.fix.empty() && check.verdict != Verdict::pass && check.verdict != Verdict::info) {
                append(out, "        fix: " + check.fix + "\n");
            }
        }
    }
    if (!report.doctor_error.empty()) append(out, "\ncudnn-doctor failed: " + report.doctor_error + "\n");
    append(out, "\n" + summary_line(report, strict) + "\n");
}

namespace {

// Length of the well-formed UTF-8 sequence starting at text[at], or 0 when it is not one.
size_t utf8_sequence_length(const std::string &text, size_t at) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    const size_t length = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 0;
    if (length == 0 || at + length > text.size()) return 0;
    for (size_t i = 1; i < length; ++i) {
        if ((byte(at + i) >> 6) != 2) return 0;
    }
    return length;
}

}  // namespace

std::string json_quote(const std::string &text) {
    std::string quoted = "\"";
    for (size_t at = 0; at < text.size(); ++at) {
        const unsigned char c = static_cast<unsigned char>(text[at]);
        if (c >= 0x80) {
            // File names need not be UTF-8; JSON must be, so a stray byte becomes U+FFFD.
            const size_t length = utf8_sequence_length(text, at);
            if (length == 0) {
                quoted += "\\ufffd";
            } else {
                quoted.append(text, at, length);
                at += length - 1;
            }
            continue;
        }
        switch (c) {
            case '"': quoted += "\\\""; break;
            case '\\': quoted += "\\\\"; break;
            case '\n': quoted += "\\n"; break;
            case '\r': quoted += "\\r"; break;
            case '\t': quoted += "\\t"; break;
            default:
                if (c < 0x20) {
                    char escape[8];
                    std::snprintf(escape, sizeof escape, "\\u%04x", c);
                    quoted += escape;
                } else {
                    quoted += static_cast<char>(c);
                }
        }
    }
    return quoted + "\"";
}

void print_json(const Report &report, bool strict, std::string *out) {
    append(out, "{\n  \"tool\": \"cudnn-doctor\",\n");
    append(out, "  \"exit_status\": " + std::to_string(report.exit_status(strict)) + ",\n");
    append(out, "  \"doctor_error\": " + json_quote(report.doctor_error) + ",\n");
    append(out, "  \"counts\": {");
    const Verdict verdicts[] = {Verdict::pass, Verdict::warn, Verdict::fail, Verdict::skip, Verdict::info};
    for (size_t i = 0; i < std::size(verdicts); ++i) {
        append(out, std::string(i ? ", " : "") + json_quote(verdict_name(verdicts[i])) + ": " +
                        std::to_string(report.count(verdicts[i])));
    }
    append(out, "},\n  \"sections\": [");
    for (size_t s = 0; s < report.sections.size(); ++s) {
        const Section &section = report.sections[s];
        append(out, std::string(s ? "," : "") + "\n    {\"id\": " + json_quote(section.id) +
                        ", \"title\": " + json_quote(section.title) + ", \"subject\": " + json_quote(section.subject) +
                        ",\n     \"facts\": {");
        size_t f = 0;
        for (const auto &[key, value] : section.facts) {
            append(out, std::string(f++ ? ", " : "") + json_quote(key) + ": " + json_quote(value));
        }
        append(out, "},\n     \"checks\": [");
        for (size_t c = 0; c < section.checks.size(); ++c) {
            const Check &check = section.checks[c];
            append(out, std::string(c ? "," : "") + "\n       {\"id\": " + json_quote(check.id) + ", \"verdict\": " +
                            json_quote(verdict_name(check.verdict)) + ", \"subject\": " + json_quote(check.subject) +
                            ", \"summary\": " + json_quote(check.summary) + ", \"fix\": " + json_quote(check.fix) +
                            ", \"details\": [");
            for (size_t d = 0; d < check.details.size(); ++d) {
                append(out, std::string(d ? ", " : "") + json_quote(check.details[d]));
            }
            append(out, "]}");
        }
        append(out, "]}");
    }
    append(out, "\n  ]\n}\n");
}

}  // namespace librednn::doctor
