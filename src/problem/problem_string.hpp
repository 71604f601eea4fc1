// The problem string: one operation written as `key=value` tokens ("op=conv dir=fwd dtype=half n=32 ...").
// LibreDNN's dispatch log prints it, librednn-bench parses it, tests name failures with it: a logged
// call re-runs as `librednn-bench --problem "<string>"`. docs/PROBLEMS.md lists the keys of each op.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace librednn {

class ProblemString {
public:
    // Parses space-separated key=value tokens. Keys are [a-z0-9_]+, values non-empty without spaces;
    // a key may appear once. On failure returns false and sets *error to one sentence.
    static bool parse(const std::string &text, ProblemString *out, std::string *error);

    // The tokens in the order they were set or parsed.
    std::string to_string() const;

    void set(const std::string &key, const std::string &value);
    void set(const std::string &key, const char *value) { set(key, std::string(value)); }
    void set(const std::string &key, long long value);
    void set(const std::string &key, int value) { set(key, static_cast<long long>(value)); }
    void set(const std::string &key, double value);                           // shortest form that reads back exactly
    void set_dims(const std::string &key, const std::vector<int64_t> &dims);  // "32x64x56x56"

    bool has(const std::string &key) const;
    const std::vector<std::pair<std::string, std::string>> &entries() const { return entries_; }

    // Typed reads. Each marks the key as read; a missing key returns `fallback` when one is given,
    // else false with *error naming the key. A malformed value is always an error.
    bool get(const std::string &key, std::string *value, std::string *error) const;
    bool get(const std::string &key, std::string *value, const std::string &fallback, std::string *error) const;
    bool get_int(const std::string &key, int64_t *value, std::string *error) const;
    bool get_int(const std::string &key, int64_t *value, int64_t fallback, std::string *error) const;
    bool get_double(const std::string &key, double *value, std::string *error) const;
    bool get_double(const std::string &key, double *value, double fallback, std::string *error) const;
    bool get_dims(const std::string &key, std::vector<int64_t> *dims, std::string *error) const;

    // Keys no typed read has asked for: a parser calls it last to reject typos ("unknown key pda=1").
    std::vector<std::string> unread_keys() const;

    bool operator==(const ProblemString &other) const { return entries_ == other.entries_; }

private:
    const std::string *lookup(const std::string &key) const;

    std::vector<std::pair<std::string, std::string>> entries_;
    mutable std::vector<bool> read_;
};

}  // namespace librednn
