// Parsing and printing problem strings.
#include "problem/problem_string.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace librednn {

namespace {

bool valid_key(const std::string &key) {
    if (key.empty()) return false;
    for (char c : key)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

}  // namespace

bool ProblemString::parse(const std::string &text, ProblemString *out, std::string *error) {
    ProblemString result;
    std::istringstream stream(text);
    std::string token;
    while (stream >> token) {
        const size_t eq = token.find('=');
        if (eq == std::string::npos) {
            *error = "token '" + token + "' is not key=value";
            return false;
        }
        const std::string key = token.substr(0, eq), value = token.substr(eq + 1);
        if (!valid_key(key)) {
            *error = "key '" + key + "' must be lower-case letters, digits and '_'";
            return false;
        }
        if (value.empty()) {
            *error = "key '" + key + "' has no value";
            return false;
        }
        if (result.has(key)) {
            *error = "key '" + key + "' appears twice";
            return false;
        }
        result.set(key, value);
    }
    if (result.entries_.empty()) {
        *error = "the problem string is empty";
        return false;
    }
    *out = std::move(result);
    return true;
}

std::string ProblemString::to_string() const {
    std::string text;
    for (const auto &[key, value] : entries_) {
        if (!text.empty()) text += ' ';
        text += key + "=" + value;
    }
    return text;
}

void ProblemString::set(const std::string &key, const std::string &value) {
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (entries_[i].first == key) {
            entries_[i].second = value;
            return;
        }
    }
    entries_.emplace_back(key, value);
    read_.push_back(false);
}

void ProblemString::set(const std::string &key, long long value) { set(key, std::to_string(value)); }

void ProblemString::set(const std::string &key, double value) {
    char buffer[40];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::strtod(buffer, nullptr) == value) break;
    }
    set(key, std::string(buffer));
}

void ProblemString::set_dims(const std::string &key, const std::vector<int64_t> &dims) {
    std::string text;
    for (size_t i = 0; i < dims.size(); ++i) text += (i ? "x" : "") + std::to_string(dims[i]);
    set(key, text);
}

bool ProblemString::has(const std::string &key) const {
    for (const auto &entry : entries_)
        if (entry.first == key) return true;
    return false;
}

const std::string *ProblemString::lookup(const std::string &key) const {
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (entries_[i].first == key) {
            read_[i] = true;
            return &entries_[i].second;
        }
    }
    return nullptr;
}

bool ProblemString::get(const std::string &key, std::string *value, std::string *error) const {
    const std::string *found = lookup(key);
    if (found == nullptr) {
        *error = "missing key '" + key + "'";
        return false;
    }
    *value = *found;
    return true;
}

bool ProblemString::get(const std::string &key, std::string *value, const std::string &fallback,
                        std::string *error) const {
    const std::string *found = lookup(key);
    *value = found ? *found : fallback;
    (void)error;
    return true;
}

bool ProblemString::get_int(const std::string &key, int64_t *value, std::string *error) const {
    const std::string *found = lookup(key);
    if (found == nullptr) {
        *error = "missing key '" + key + "'";
        return false;
    }
    char *end = nullptr;
    errno = 0;
    const long long parsed = std::strtoll(found->c_str(), &end, 10);
    if (errno != 0 || end == found->c_str() || *end != '\0') {
        *error = "key '" + key + "' must be an integer, got '" + *found + "'";
        return false;
    }
    *value = parsed;
    return true;
}

bool ProblemString::get_int(const std::string &key, int64_t *value, int64_t fallback, std::string *error) const {
    if (!has(key)) {
        *value = fallback;
        return true;
    }
    return get_int(key, value, error);
}

bool ProblemString::get_double(const std::string &key, double *value, std::string *error) const {
    const std::string *found = lookup(key);
    if (found == nullptr) {
        *error = "missing key '" + key + "'";
        return false;
    }
    char *end = nullptr;
    const double parsed = std::strtod(found->c_str(), &end);
    if (end == found->c_str() || *end != '\0') {
        *error = "key '" + key + "' must be a number, got '" + *found + "'";
        return false;
    }
    *value = parsed;
    return true;
}

bool ProblemString::get_double(const std::string &key, double *value, double fallback, std::string *error) const {
    if (!has(key)) {
        *value = fallback;
        return true;
    }
    return get_double(key, value, error);
}

bool ProblemString::get_dims(const std::string &key, std::vector<int64_t> *dims, std::string *error) const {
    const std::string *found = lookup(key);
    if (found == nullptr) {
        *error = "missing key '" + key + "'";
        return false;
    }
    dims->clear();
    size_t start = 0;
    while (start <= found->size()) {
        size_t end = found->find('x', start);
        if (end == std::string::npos) end = found->size();
        const std::string part = found->substr(start, end - start);
        char *stop = nullptr;
        const long long v = std::strtoll(part.c_str(), &stop, 10);
        if (part.empty() || *stop != '\0') {
            *error = "key '" + key + "' must be integers joined by 'x' (e.g. 32x64x56x56), got '" + *found + "'";
            return false;
        }
        dims->push_back(v);
        start = end + 1;
    }
    return true;
}

std::vector<std::string> ProblemString::unread_keys() const {
    std::vector<std::string> keys;
    for (size_t i = 0; i < entries_.size(); ++i)
        if (!read_[i]) keys.push_back(entries_[i].first);
    return keys;
}

}  // namespace librednn
