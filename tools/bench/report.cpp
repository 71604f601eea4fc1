// The stdout table, the summary, and the JSON, CSV and markdown result files.
#include "report.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace librednn::bench {

namespace {

// A table rendered as aligned text (numbers right-aligned, the last column free) or as markdown.
struct Table {
    std::vector<std::string> header;
    std::vector<bool> numeric;
    std::vector<std::vector<std::string>> rows;

    void column(const std::string &name, bool is_numeric) {
        header.push_back(name);
        numeric.push_back(is_numeric);
    }
};

void render_text(std::ostream &out, const Table &table) {
    std::vector<size_t> widths(table.header.size(), 0);
    for (size_t c = 0; c < table.header.size(); ++c) widths[c] = table.header[c].size();
    for (const auto &row : table.rows)
        for (size_t c = 0; c < row.size() && c < widths.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
    const auto line = [&](const std::vector<std::string> &cells) {
        std::string text;
        for (size_t c = 0; c < cells.size(); ++c) {
            const bool last = c + 1 == cells.size();
            const size_t pad = widths[c] - cells[c].size();
            if (c) text += "  ";
            if (table.numeric[c])
                text += std::string(pad, ' ') + cells[c];
            else
                text += last ? cells[c] : cells[c] + std::string(pad, ' ');
        }
        while (!text.empty() && text.back() == ' ') text.pop_back();
        out << text << "\n";
    };
    line(table.header);
    for (const auto &row : table.rows) line(row);
}

void render_markdown(std::ostream &out, const Table &table) {
    const auto line = [&](const std::vector<std::string> &cells) {
        out << "|";
        for (const std::string &cell : cells) {
            std::string escaped;
            for (char ch : cell) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
            out << " " << escaped << " |";
        }
        out << "\n";
    };
    line(table.header);
    out << "|";
    for (size_t c = 0; c < table.header.size(); ++c) out << (table.numeric[c] ? " ---: |" : " --- |");
    out << "\n";
    for (const auto &row : table.rows) line(row);
}

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// Three significant figures, at least: 0.0123, 1.23, 12.3, 123, 1234.
std::string figures(double value) {
    if (!std::isfinite(value)) return value > 0 ? "inf" : "nan";
    const double magnitude = std::fabs(value);
    const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : magnitude >= 0.1 ? 3 : 4;
    return fixed(value, decimals);
}

std::string scientific(double value) {
    if (!std::isfinite(value)) return value > 0 ? "inf" : "nan";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2e", value);
    return buffer;
}

double tflops(const CaseResult &result, const LibraryResult &library) {
    return library.outcome.ok() && library.median_ms > 0 ? result.flops / (library.median_ms * 1e-3) / 1e12 : 0;
}

double gbps(const CaseResult &result, const LibraryResult &library) {
    return library.outcome.ok() && library.median_ms > 0 ? result.bytes / (library.median_ms * 1e-3) / 1e9 : 0;
}

// Convolutions report TFLOP/s, memory-bound operations GB/s.
std::string rate_text(const CaseResult &result, const LibraryResult &library) {
    if (!library.outcome.ok() || library.median_ms <= 0) return "-";
    return result.flops > 0 ? figures(tflops(result, library)) + " TFLOP/s" : figures(gbps(result, library)) + " GB/s";
}

bool all_ran(const CaseResult &result) {
    for (const LibraryResult &library : result.libraries)
        if (!library.outcome.ok() || library.median_ms <= 0) return false;
    return !result.libraries.empty();
}

std::string notes(const RunInfo &info, const CaseResult &result) {
    std::string text;
    for (size_t s = 0; s < result.libraries.size(); ++s) {
        const Outcome &outcome = result.libraries[s].outcome;
        if (outcome.ok()) continue;
        if (!text.empty()) text += "; ";
        if (result.libraries.size() > 1) text += info.libraries[s].role + ": ";
        text += outcome.message();
    }
    if (!result.check.note.empty()) text += (text.empty() ? "" : "; ") + result.check.note;
    return text;
}

Table results_table(const RunInfo &info, const std::vector<CaseResult> &results) {
    Table table;
    table.column("dir", false);
    table.column("name", false);
    table.column("count", true);
    const size_t libraries = info.libraries.size();
    std::vector<bool> has_choice(libraries, false);
    for (const CaseResult &result : results)
        for (size_t s = 0; s < libraries && s < result.libraries.size(); ++s)
            if (!result.libraries[s].choice.empty()) has_choice[s] = true;
    for (size_t s = 0; s < libraries; ++s) {
        const std::string &role = info.libraries[s].role;
        if (info.check) {
            table.column(role, false);
            continue;
        }
        table.column(role + " us", true);
        table.column(role + " rate", true);
        if (has_choice[s]) table.column(role + " algo", false);
    }
    if (info.check) {
        table.column("rel err", true);
        table.column("max err", true);
        table.column("worst", false);
    } else if (libraries > 1) {
        table.column("lib/vs", true);
    }
    table.column("note", false);
    for (const CaseResult &result : results) {
        std::vector<std::string> row = {result.group, result.name, std::to_string(result.count)};
        for (size_t s = 0; s < libraries; ++s) {
            const LibraryResult &library = result.libraries[s];
            if (info.check) {
                row.push_back(library.outcome.kind_name());
                continue;
            }
            const bool ran = library.outcome.ok() && library.median_ms > 0;
            row.push_back(ran ? figures(library.median_ms * 1e3) : "-");
            row.push_back(rate_text(result, library));
            if (has_choice[s]) row.push_back(library.choice.empty() ? "-" : library.choice);
        }
        if (info.check) {
            const bool compared = result.check.compared;
            row.push_back(compared ? scientific(result.check.errors.relative) : "-");
            row.push_back(compared ? scientific(result.check.errors.max_abs) : "-");
            row.push_back(compared ? result.check.worst : "-");
        } else if (libraries > 1) {
            row.push_back(all_ran(result) ? fixed(result.libraries[0].median_ms / result.libraries[1].median_ms, 2)
                                          : "-");
        }
        row.push_back(notes(info, result));
        table.rows.push_back(row);
    }
    return table;
}

std::string geomeans_text(const LibrarySummary &summary) {
    std::string text;
    if (summary.geomean_tflops > 0) text += figures(summary.geomean_tflops) + " TFLOP/s";
    if (summary.geomean_gbps > 0) text += (text.empty() ? "" : ", ") + figures(summary.geomean_gbps) + " GB/s";
    return text.empty() ? "-" : text;
}

Table summary_table(const RunInfo &info, const std::vector<GroupSummary> &summaries) {
    Table table;
    table.column("dir", false);
    table.column("problems", true);
    for (const LibraryInfo &library : info.libraries) {
        table.column(library.role + " ran", true);
        table.column(library.role + " total ms", true);
        table.column(library.role + " geomean", true);
    }
    if (info.libraries.size() > 1) {
        table.column("geomean lib/vs", true);
        table.column("total lib/vs", false);
    }
    for (const GroupSummary &summary : summaries) {
        std::vector<std::string> row = {summary.group, std::to_string(summary.problems)};
        for (const LibrarySummary &library : summary.libraries) {
            row.push_back(std::to_string(library.ran));
            row.push_back(library.ran ? figures(library.total_ms) : "-");
            row.push_back(geomeans_text(library));
        }
        if (info.libraries.size() > 1) {
            row.push_back(summary.compared ? fixed(summary.geomean_ratio, 3) : "-");
            row.push_back(summary.compared ? fixed(summary.total_ratio, 3) + " over " + std::to_string(summary.compared)
                                           : "-");
        }
        table.rows.push_back(row);
    }
    return table;
}

std::vector<std::string> header_lines(const RunInfo &info) {
    std::vector<std::string> lines;
    lines.push_back(std::string("librednn-bench ") + (info.check ? "check" : "perf") + ", " + info.date);
    for (const LibraryInfo &library : info.libraries) lines.push_back(library.role + ": " + library.description);
    const bool device = info.platform.memory == MemoryKind::device;
    std::string where = "device: " + info.platform.device_name;
    if (device) where += " (driver " + std::to_string(info.platform.driver_version) + ")";
    where += device ? "; GPU memory, CUDA-event timing" : "; host memory, wall-clock timing";
    lines.push_back(where);
    if (info.check)
        lines.push_back("check: one run on random data (seed " + std::to_string(info.seed) +
                        "); errors of lib against " + (info.libraries.size() > 1 ? "vs" : "LibreDNN's reference") +
                        ", worst output tensor");
    else
        lines.push_back("timing: median of " + std::to_string(info.runs) + " runs after at least " +
                        std::to_string(info.warmup) + " warm-up runs; inputs rotated through copies beyond " +
                        figures(static_cast<double>(info.platform.cache_bytes) / 1e6) + " MB of cache");
    return lines;
}

std::string json_string(const std::string &text) {
    std::string out = "\"";
    for (char ch : text) {
        switch (ch) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(ch) < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", ch);
                    out += buffer;
                } else {
                    out += ch;
                }
        }
    }
    return out + "\"";
}

std::string json_number(double value) {
    if (!std::isfinite(value)) return "null";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

std::string csv_field(const std::string &text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

bool open_for_writing(const std::string &path, std::ofstream *file, std::string *error) {
    file->open(path);
    if (!*file) {
        *error = "cannot write " + path;
        return false;
    }
    return true;
}

}  // namespace

std::vector<GroupSummary> summarize(const std::vector<CaseResult> &results, size_t library_count) {
    std::vector<GroupSummary> summaries;
    for (const CaseResult &result : results) {
        GroupSummary *summary = nullptr;
        for (GroupSummary &existing : summaries)
            if (existing.group == result.group) summary = &existing;
        if (summary == nullptr) {
            summaries.push_back(GroupSummary{result.group, 0, std::vector<LibrarySummary>(library_count), 0, 0, 0});
            summary = &summaries.back();
        }
        ++summary->problems;
    }
    for (GroupSummary &summary : summaries) {
        std::vector<double> log_tflops(library_count, 0), log_gbps(library_count, 0);
        std::vector<int> compute_count(library_count, 0), memory_count(library_count, 0);
        double log_ratio = 0, total_lib = 0, total_vs = 0;
        for (const CaseResult &result : results) {
            if (result.group != summary.group) continue;
            for (size_t s = 0; s < library_count && s < result.libraries.size(); ++s) {
                const LibraryResult &library = result.libraries[s];
                if (!library.outcome.ok() || library.median_ms <= 0) continue;
                LibrarySummary &totals = summary.libraries[s];
                ++totals.ran;
                totals.total_ms += static_cast<double>(result.count) * library.median_ms;
                if (result.flops > 0) {
                    log_tflops[s] += std::log(tflops(result, library));
                    ++compute_count[s];
                } else if (result.bytes > 0) {
                    log_gbps[s] += std::log(gbps(result, library));
                    ++memory_count[s];
                }
            }
            if (library_count > 1 && all_ran(result)) {
                ++summary.compared;
                log_ratio += std::log(result.libraries[0].median_ms / result.libraries[1].median_ms);
                total_lib += static_cast<double>(result.count) * result.libraries[0].median_ms;
                total_vs += static_cast<double>(result.count) * result.libraries[1].median_ms;
            }
        }
        for (size_t s = 0; s < library_count; ++s) {
            if (compute_count[s]) summary.libraries[s].geomean_tflops = std::exp(log_tflops[s] / compute_count[s]);
            if (memory_count[s]) summary.libraries[s].geomean_gbps = std::exp(log_gbps[s] / memory_count[s]);
        }
        if (summary.compared) {
            summary.geomean_ratio = std::exp(log_ratio / summary.compared);
            summary.total_ratio = total_lib / total_vs;
        }
    }
    return summaries;
}

void print_report(std::ostream &out, const RunInfo &info, const std::vector<CaseResult> &results) {
    for (const std::string &line : header_lines(info)) out << line << "\n";
    out << "\n";
    render_text(out, results_table(info, results));
    bool strings = false;
    for (const CaseResult &result : results) strings = strings || result.name.rfind("problem ", 0) == 0;
    if (strings) {
        out << "\n";
        for (const CaseResult &result : results)
            if (result.name.rfind("problem ", 0) == 0)
                out << result.name << " (" << result.group << "): " << result.problem << "\n";
    }
    if (!info.check) {
        out << "\nsummary per direction: count-weighted whole-set time of the problems each library ran; geometric "
               "means of their rates"
            << (info.libraries.size() > 1 ? "; ratios over the problems both ran (> 1: lib is slower)" : "") << "\n";
        render_text(out, summary_table(info, summarize(results, info.libraries.size())));
    }
}

bool write_json(const std::string &path, const RunInfo &info, const std::vector<CaseResult> &results,
                std::string *error) {
    std::ofstream file;
    if (!open_for_writing(path, &file, error)) return false;
    file << "{\n  \"tool\": \"librednn-bench\",\n  \"mode\": " << json_string(info.check ? "check" : "perf") << ",\n";
    file << "  \"date\": " << json_string(info.date) << ",\n  \"command\": " << json_string(info.command) << ",\n";
    file << "  \"device\": {\"name\": " << json_string(info.platform.device_name)
         << ", \"memory\": " << json_string(info.platform.memory == MemoryKind::device ? "device" : "host")
         << ", \"driver\": " << info.platform.driver_version << ", \"cache_bytes\": " << info.platform.cache_bytes
         << "},\n";
    file << "  \"runs\": " << info.runs << ",\n  \"warmup\": " << info.warmup << ",\n  \"seed\": " << info.seed
         << ",\n";
    file << "  \"libraries\": [";
    for (size_t s = 0; s < info.libraries.size(); ++s) {
        const LibraryInfo &library = info.libraries[s];
        file << (s ? ",\n    " : "\n    ") << "{\"role\": " << json_string(library.role)
             << ", \"path\": " << json_string(library.path) << ", \"description\": " << json_string(library.description)
             << ", \"version\": " << library.version << ", \"librednn\": " << (library.librednn ? "true" : "false")
             << "}";
    }
    file << "\n  ],\n  \"results\": [";
    for (size_t r = 0; r < results.size(); ++r) {
        const CaseResult &result = results[r];
        file << (r ? ",\n    " : "\n    ") << "{\"name\": " << json_string(result.name)
             << ", \"group\": " << json_string(result.group) << ", \"count\": " << result.count
             << ", \"problem\": " << json_string(result.problem) << ", \"flops\": " << json_number(result.flops)
             << ", \"bytes\": " << json_number(result.bytes);
        for (size_t s = 0; s < result.libraries.size() && s < info.libraries.size(); ++s) {
            const LibraryResult &library = result.libraries[s];
            file << ",\n     " << json_string(info.libraries[s].role)
                 << ": {\"status\": " << json_string(library.outcome.kind_name())
                 << ", \"message\": " << json_string(library.outcome.message());
            if (!info.check && library.outcome.ok()) {
                file << ", \"median_ms\": " << json_number(library.median_ms)
                     << ", \"min_ms\": " << json_number(library.min_ms)
                     << ", \"max_ms\": " << json_number(library.max_ms);
                if (result.flops > 0) file << ", \"tflops\": " << json_number(tflops(result, library));
                file << ", \"gbps\": " << json_number(gbps(result, library));
            }
            file << ", \"runs\": " << library.runs << ", \"copies\": " << library.copies
                 << ", \"workspace\": " << library.workspace << ", \"choice\": " << json_string(library.choice) << "}";
        }
        if (!info.check && result.libraries.size() > 1 && all_ran(result))
            file << ",\n     \"ratio\": " << json_number(result.libraries[0].median_ms / result.libraries[1].median_ms);
        if (info.check) {
            file << ",\n     \"check\": {\"against\": " << json_string(result.check.against)
                 << ", \"compared\": " << (result.check.compared ? "true" : "false");
            if (result.check.compared)
                file << ", \"relative_error\": " << json_number(result.check.errors.relative)
                     << ", \"max_error\": " << json_number(result.check.errors.max_abs)
                     << ", \"nan_mismatches\": " << result.check.errors.nan_mismatches
                     << ", \"nan_both\": " << result.check.errors.nan_both
                     << ", \"worst\": " << json_string(result.check.worst);
            file << ", \"note\": " << json_string(result.check.note) << "}";
        }
        file << "}";
    }
    file << "\n  ]";
    if (!info.check) {
        file << ",\n  \"summary\": [";
        const std::vector<GroupSummary> summaries = summarize(results, info.libraries.size());
        for (size_t g = 0; g < summaries.size(); ++g) {
            const GroupSummary &summary = summaries[g];
            file << (g ? ",\n    " : "\n    ") << "{\"group\": " << json_string(summary.group)
                 << ", \"problems\": " << summary.problems;
            for (size_t s = 0; s < summary.libraries.size(); ++s) {
                const LibrarySummary &library = summary.libraries[s];
                file << ", " << json_string(info.libraries[s].role) << ": {\"ran\": " << library.ran
                     << ", \"total_ms\": " << json_number(library.total_ms)
                     << ", \"geomean_tflops\": " << json_number(library.geomean_tflops)
                     << ", \"geomean_gbps\": " << json_number(library.geomean_gbps) << "}";
            }
            if (summary.libraries.size() > 1)
                file << ", \"compared\": " << summary.compared
                     << ", \"geomean_ratio\": " << json_number(summary.compared ? summary.geomean_ratio : NAN)
                     << ", \"total_ratio\": " << json_number(summary.compared ? summary.total_ratio : NAN);
            file << "}";
        }
        file << "\n  ]";
    }
    file << "\n}\n";
    if (!file) {
        *error = "writing " + path + " failed";
        return false;
    }
    return true;
}

bool write_csv(const std::string &path, const RunInfo &info, const std::vector<CaseResult> &results,
               std::string *error) {
    std::ofstream file;
    if (!open_for_writing(path, &file, error)) return false;
    file << "name,group,count,problem,flops,bytes";
    for (const LibraryInfo &library : info.libraries) {
        const std::string &r = library.role;
        file << "," << r << "_status," << r << "_median_ms," << r << "_min_ms," << r << "_tflops," << r << "_gbps," << r
             << "_choice," << r << "_workspace," << r << "_copies," << r << "_message";
    }
    if (info.libraries.size() > 1) file << ",ratio";
    if (info.check) file << ",against,relative_error,max_error,worst,check_note";
    file << "\n";
    for (const CaseResult &result : results) {
        file << csv_field(result.name) << "," << csv_field(result.group) << "," << result.count << ","
             << csv_field(result.problem) << "," << json_number(result.flops) << "," << json_number(result.bytes);
        for (size_t s = 0; s < info.libraries.size() && s < result.libraries.size(); ++s) {
            const LibraryResult &library = result.libraries[s];
            const bool timed = !info.check && library.outcome.ok() && library.median_ms > 0;
            file << "," << library.outcome.kind_name() << "," << (timed ? json_number(library.median_ms) : "") << ","
                 << (timed ? json_number(library.min_ms) : "") << ","
                 << (timed && result.flops > 0 ? json_number(tflops(result, library)) : "") << ","
                 << (timed ? json_number(gbps(result, library)) : "") << "," << csv_field(library.choice) << ","
                 << library.workspace << "," << library.copies << "," << csv_field(library.outcome.message());
        }
        if (info.libraries.size() > 1)
            file << ","
                 << (!info.check && all_ran(result)
                         ? json_number(result.libraries[0].median_ms / result.libraries[1].median_ms)
                         : "");
        if (info.check) {
            const bool compared = result.check.compared;
            file << "," << result.check.against << "," << (compared ? json_number(result.check.errors.relative) : "")
                 << "," << (compared ? json_number(result.check.errors.max_abs) : "") << "," << result.check.worst
                 << "," << csv_field(result.check.note);
        }
        file << "\n";
    }
    if (!file) {
        *error = "writing " + path + " failed";
        return false;
    }
    return true;
}

bool write_markdown(const std::string &path, const RunInfo &info, const std::vector<CaseResult> &results,
                    std::string *error) {
    std::ofstream file;
    if (!open_for_writing(path, &file, error)) return false;
    file << "# librednn-bench results\n\n";
    for (const std::string &line : header_lines(info)) file << "- " << line << "\n";
    file << "- command: `" << info.command << "`\n\n";
    if (!info.check) {
        file << "## Summary per direction\n\nCount-weighted whole-set time of the problems each library ran, and "
                "geometric means of their rates"
             << (info.libraries.size() > 1 ? "; ratios over the problems both ran (> 1: lib is slower)" : "")
             << ".\n\n";
        render_markdown(file, summary_table(info, summarize(results, info.libraries.size())));
        file << "\n";
    }
    file << "## Problems\n\n";
    render_markdown(file, results_table(info, results));
    file << "\nProblem strings (re-run one with `librednn-bench --problem \"...\"`):\n\n";
    for (const CaseResult &result : results)
        file << "- " << result.group << " " << result.name << ": `" << result.problem << "`\n";
    if (!file) {
        *error = "writing " + path + " failed";
        return false;
    }
    return true;
}

}  // namespace librednn::bench
