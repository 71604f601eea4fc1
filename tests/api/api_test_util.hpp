// Helpers for tests that use LibreDNN through the public C API only.
#pragma once

#include <cudnn.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace librednn::test {

// Collects every error and warning message while alive (through cudnnSetCallback), so that a test
// can check that a rejection says what was wrong. Restores the previous callback when destroyed.
class LogCapture {
public:
    explicit LogCapture(unsigned mask = CUDNN_SEV_ERROR_EN | CUDNN_SEV_WARNING_EN) {
        cudnnGetCallback(&old_mask_, &old_udata_, &old_fn_);
        cudnnSetCallback(mask, this, &LogCapture::receive);
    }
    ~LogCapture() { cudnnSetCallback(old_mask_, old_udata_, old_fn_); }
    LogCapture(const LogCapture &) = delete;
    LogCapture &operator=(const LogCapture &) = delete;

    const std::vector<std::string> &messages() const { return messages_; }
    const std::vector<cudnnSeverity_t> &severities() const { return severities_; }
    void clear() {
        messages_.clear();
        severities_.clear();
    }

    // True when some message contains every one of `parts`.
    bool contains(std::initializer_list<const char *> parts) const {
        for (const std::string &m : messages_) {
            bool all = true;
            for (const char *p : parts) all = all && m.find(p) != std::string::npos;
            if (all) return true;
        }
        return false;
    }
    std::string all() const {
        std::string text;
        for (const std::string &m : messages_) text += m + "\n";
        return text;
    }

private:
    static void receive(cudnnSeverity_t sev, void *udata, const cudnnDebug_t *, const char *msg) {
        auto *self = static_cast<LogCapture *>(udata);
        self->messages_.push_back(msg ? msg : "");
        self->severities_.push_back(sev);
    }

    unsigned old_mask_ = 0;
    void *old_udata_ = nullptr;
    cudnnCallback_t old_fn_ = nullptr;
    std::vector<std::string> messages_;
    std::vector<cudnnSeverity_t> severities_;
};

}  // namespace librednn::test

// Expects `call` to return `status` and an error log line containing each of the given words.
#define EXPECT_REJECTED(status, call, ...)                                                        \
    do {                                                                                          \
        ::librednn::test::LogCapture capture_;                                                    \
        EXPECT_EQ((call), (status)) << #call;                                                     \
        EXPECT_TRUE(capture_.contains({__VA_ARGS__})) << #call << " logged:\n" << capture_.all(); \
    } while (0)
