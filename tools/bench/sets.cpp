// Problem-set files and the expansion of problems over directions.
#include "sets.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace librednn::bench {

namespace {

std::vector<std::string> split_tabs(const std::string &line) {
    std::vector<std::string> fields;
    size_t start = 0;
    while (true) {
        const size_t tab = line.find('\t', start);
        fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
        if (tab == std::string::npos) break;
        start = tab + 1;
    }
    return fields;
}

bool parse_count(const std::string &text, int64_t *count) {
    char *end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < 1) return false;
    *count = value;
    return true;
}

// The ops of resnet50-ops.tsv and the problem each stands for.
bool op_row_to_problem(const std::string &op, ProblemString *text) {
    if (op == "bn") {
        text->set("op", "bn");
    } else if (op == "relu") {
        text->set("op", "act");
        text->set("mode", "relu");
    } else if (op == "maxpool") {
        text->set("op", "pool");
        text->set("mode", "max");
    } else if (op == "avgpool") {
        text->set("op", "pool");
        text->set("mode", "avg_incl");  // what frameworks' average pooling counts by default
    } else if (op == "add") {
        text->set("op", "op_tensor");  // the residual sum: c = a + b, all full-size
        text->set("tensor_op", "add");
    } else if (op == "softmax") {
        text->set("op", "softmax");
    } else {
        return false;
    }
    return true;
}

}  // namespace

bool read_problem_set(const std::string &path, std::vector<ProblemSource> *sources, std::string *error) {
    std::ifstream in(path);
    if (!in) {
        *error = "cannot read the problem set " + path;
        return false;
    }
    std::string line;
    std::map<std::string, size_t> column;
    int line_number = 0;
    bool conv_set = false, string_set = false;
    const auto where = [&] { return path + ":" + std::to_string(line_number) + ": "; };
    while (std::getline(in, line)) {
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const std::vector<std::string> fields = split_tabs(line);
        if (column.empty()) {
            for (size_t i = 0; i < fields.size(); ++i) column[fields[i]] = i;
            conv_set = column.count("k") != 0;
            string_set = column.count("problem") != 0;
            const std::vector<std::string> required =
                conv_set
                    ? std::vector<std::string>{"name",  "count", "c",        "h",        "w",     "k",     "r",     "s",
                                               "pad_h", "pad_w", "stride_h", "stride_w", "dil_h", "dil_w", "groups"}
                : string_set ? std::vector<std::string>{"name", "count", "problem"}
                             : std::vector<std::string>{"op", "name", "count", "c", "h", "w"};
            for (const std::string &name : required) {
                if (!column.count(name)) {
                    *error = where() + "the header has no '" + name +
                             "' column (a convolution set needs name count "
                             "c h w k r s pad_h pad_w stride_h stride_w dil_h dil_w groups; a problem-string set "
                             "name count problem; an ops set op name count c h w params)";
                    return false;
                }
            }
            continue;
        }
        const auto field = [&](const std::string &name) {
            const auto found = column.find(name);
            return found != column.end() && found->second < fields.size() ? fields[found->second] : std::string();
        };
        ProblemSource source;
        source.from_set = true;
        source.name = field("name");
        if (!parse_count(field("count"), &source.count)) {
            *error = where() + "count must be a positive integer, got '" + field("count") + "'";
            return false;
        }
        if (string_set) {
            std::string parse_error;
            if (!ProblemString::parse(field("problem"), &source.text, &parse_error)) {
                *error = where() + parse_error;
                return false;
            }
            if (!source.text.has("op")) {
                *error = where() + "the problem string has no 'op' key";
                return false;
            }
        } else if (conv_set) {
            source.text.set("op", "conv");
            for (const char *key : {"c", "h", "w", "k", "r", "s"}) source.text.set(key, field(key));
            source.text.set("pad", field("pad_h") + "x" + field("pad_w"));
            source.text.set("stride", field("stride_h") + "x" + field("stride_w"));
            source.text.set("dil", field("dil_h") + "x" + field("dil_w"));
            source.text.set("g", field("groups"));
        } else {
            if (!op_row_to_problem(field("op"), &source.text)) {
                *error = where() + "unknown op '" + field("op") + "' (one of bn relu maxpool avgpool add softmax)";
                return false;
            }
            for (const char *key : {"c", "h", "w"}) source.text.set(key, field(key));
            std::istringstream params(field("params"));
            std::string token;
            while (params >> token) {
                const size_t eq = token.find('=');
                if (eq == std::string::npos)
                    source.text.set("mode", token);  // "spatial": the bare word is the op's mode
                else if (token.substr(0, eq) == "rows")
                    source.text.set("n", token.substr(eq + 1));  // rows of a softmax: its batch
                else
                    source.text.set(token.substr(0, eq), token.substr(eq + 1));
            }
        }
        for (const auto &[key, value] : source.text.entries()) {
            if (value.empty()) {
                *error = where() + "the row has no value for '" + key + "'";
                return false;
            }
        }
        sources->push_back(std::move(source));
    }
    if (column.empty()) {
        *error = path + " is empty: a problem set starts with a header line";
        return false;
    }
    return true;
}

bool build_cases(const std::vector<ProblemSource> &sources, const std::vector<std::string> &dirs,
                 const ProblemDefaults &defaults, std::vector<Case> *cases, std::string *error) {
    std::set<std::string> strings_seen;
    std::vector<bool> source_used(sources.size(), false);
    int string_number = 0;
    std::map<size_t, std::string> string_names;
    for (size_t i = 0; i < sources.size(); ++i)
        if (!sources[i].from_set) string_names[i] = "problem " + std::to_string(++string_number);
    for (const std::string &dir : dirs) {
        ProblemDefaults pass = defaults;
        pass.dir = dir;
        for (size_t i = 0; i < sources.size(); ++i) {
            const ProblemSource &source = sources[i];
            const bool fixed_direction = source.text.has("dir") || source.text.has("phase");
            if (!source.from_set && fixed_direction && source_used[i]) continue;
            std::unique_ptr<Problem> problem;
            // Each parse reads the keys afresh (the reader marks keys as read).
            const ProblemString text = source.text;
            const ParseResult result = parse_problem(text, pass, &problem, error);
            if (result == ParseResult::error) {
                if (source.from_set) *error = "set row '" + source.name + "': " + *error;
                return false;
            }
            if (result == ParseResult::not_applicable) continue;
            source_used[i] = true;
            if (!source.from_set && !strings_seen.insert(problem->text()).second) continue;
            Case entry;
            entry.problem = std::move(problem);
            entry.name = source.from_set ? source.name : string_names[i];
            entry.count = source.count;
            entry.group = dir;
            if (!source.from_set) {
                // A string that fixes its own direction belongs to that direction's group, not to the pass.
                std::string fixed, ignored;
                for (const char *key : {"dir", "phase"})
                    if (text.has(key) && text.get(key, &fixed, &ignored)) entry.group = fixed;
            }
            cases->push_back(std::move(entry));
        }
    }
    for (size_t i = 0; i < sources.size(); ++i) {
        if (!sources[i].from_set && !source_used[i]) {
            std::string list;
            for (const std::string &dir : dirs) list += (list.empty() ? "" : ",") + dir;
            *error = "'" + sources[i].text.to_string() + "' has no direction among --dir " + list;
            return false;
        }
    }
    return true;
}

}  // namespace librednn::bench
