// A small JSON reader for the tests of `cudnn-doctor --json`: parses RFC 8259 text into a tree and
// fails (rather than guessing) on anything malformed.
#pragma once

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace librednn::doctor::testing {

struct Json {
    enum class Kind { null, boolean, number, string, array, object };
    Kind kind = Kind::null;
    bool boolean = false;
    double number = 0;
    std::string text;
    std::vector<Json> items;
    std::map<std::string, Json> members;

    bool has(const std::string &key) const { return kind == Kind::object && members.count(key) != 0; }
    const Json &operator[](const std::string &key) const {
        static const Json missing;
        const auto found = members.find(key);
        return found == members.end() ? missing : found->second;
    }
};

class JsonParser {
public:
    explicit JsonParser(const std::string &text) : text_(text) {}

    // False with error() naming the byte where parsing stopped.
    bool parse(Json *out) {
        if (!value(out, 0)) return false;
        space();
        if (at_ != text_.size()) return fail("text after the document");
        return true;
    }
    const std::string &error() const { return error_; }

private:
    bool fail(const std::string &why) {
        error_ = why + " at byte " + std::to_string(at_);
        return false;
    }
    void space() {
        while (at_ < text_.size() &&
               (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t'))
            ++at_;
    }
    bool literal(const char *word) {
        const std::string w = word;
        if (text_.compare(at_, w.size(), w) != 0) return fail("unknown literal");
        at_ += w.size();
        return true;
    }
    bool string(std::string *out) {
        if (at_ >= text_.size() || text_[at_] != '"') return fail("expected a string");
        ++at_;
        while (at_ < text_.size() && text_[at_] != '"') {
            const unsigned char c = static_cast<unsigned char>(text_[at_]);
            if (c < 0x20) return fail("control character in a string");
            if (c != '\\') {
                *out += text_[at_++];
                continue;
            }
            if (++at_ >= text_.size()) return fail("unterminated escape");
            const char escape = text_[at_++];
            switch (escape) {
                case '"': *out += '"'; break;
                case '\\': *out += '\\'; break;
                case '/': *out += '/'; break;
                case 'b': *out += '\b'; break;
                case 'f': *out += '\f'; break;
                case 'n': *out += '\n'; break;
                case 'r': *out += '\r'; break;
                case 't': *out += '\t'; break;
                case 'u': {
                    if (at_ + 4 > text_.size()) return fail("short \\u escape");
                    const long code = std::strtol(text_.substr(at_, 4).c_str(), nullptr, 16);
                    at_ += 4;
                    *out += code < 0x80 ? static_cast<char>(code) : '?';  // enough for tests
                    break;
                }
                default: return fail("bad escape");
            }
        }
        if (at_ >= text_.size()) return fail("unterminated string");
        ++at_;
        return true;
    }
    bool value(Json *out, int depth) {
        if (depth > 64) return fail("nested too deeply");
        space();
        if (at_ >= text_.size()) return fail("unexpected end");
        const char c = text_[at_];
        if (c == '{') {
            out->kind = Json::Kind::object;
            ++at_;
            space();
            if (at_ < text_.size() && text_[at_] == '}') return ++at_, true;
            while (true) {
                space();
                std::string key;
                if (!string(&key)) return false;
                space();
                if (at_ >= text_.size() || text_[at_] != ':') return fail("expected ':'");
                ++at_;
                if (out->members.count(key)) return fail("duplicate key " + key);
                if (!value(&out->members[key], depth + 1)) return false;
                space();
                if (at_ < text_.size() && text_[at_] == ',') {
                    ++at_;
                    continue;
                }
                if (at_ < text_.size() && text_[at_] == '}') return ++at_, true;
                return fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            out->kind = Json::Kind::array;
            ++at_;
            space();
            if (at_ < text_.size() && text_[at_] == ']') return ++at_, true;
            while (true) {
                out->items.emplace_back();
                if (!value(&out->items.back(), depth + 1)) return false;
                space();
                if (at_ < text_.size() && text_[at_] == ',') {
                    ++at_;
                    continue;
                }
                if (at_ < text_.size() && text_[at_] == ']') return ++at_, true;
                return fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            out->kind = Json::Kind::string;
            return string(&out->text);
        }
        if (c == 't') return out->kind = Json::Kind::boolean, out->boolean = true, literal("true");
        if (c == 'f') return out->kind = Json::Kind::boolean, literal("false");
        if (c == 'n') return literal("null");
        const size_t start = at_;
        while (at_ < text_.size() &&
               (std::isdigit(static_cast<unsigned char>(text_[at_])) || text_[at_] == '-' || text_[at_] == '+' ||
                text_[at_] == '.' || text_[at_] == 'e' || text_[at_] == 'E')) {
            ++at_;
        }
        if (start == at_) return fail("unexpected character");
        out->kind = Json::Kind::number;
        out->number = std::strtod(text_.substr(start, at_ - start).c_str(), nullptr);
        return true;
    }

    const std::string &text_;
    size_t at_ = 0;
    std::string error_;
};

}  // namespace librednn::doctor::testing
