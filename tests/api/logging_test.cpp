// cuDNN 8 logging: cudnnSetCallback/GetCallback, severity masks, cudnnDebug_t and the call trace.
#include "api_test_util.hpp"

#include <unistd.h>

#include <string>
#include <vector>

namespace {

struct Received {
    std::vector<cudnnSeverity_t> severities;
    std::vector<std::string> messages;
    std::vector<cudnnDebug_t> debug;
};

void collect(cudnnSeverity_t sev, void *udata, const cudnnDebug_t *dbg, const char *msg) {
    auto *r = static_cast<Received *>(udata);
    r->severities.push_back(sev);
    r->messages.push_back(msg);
    r->debug.push_back(*dbg);
}

// Installs `collect` with `mask` for the lifetime of the object.
struct ScopedCallback {
    unsigned old_mask = 0;
    void *old_udata = nullptr;
    cudnnCallback_t old_fn = nullptr;
    ScopedCallback(unsigned mask, Received *r) {
        cudnnGetCallback(&old_mask, &old_udata, &old_fn);
        EXPECT_EQ(cudnnSetCallback(mask, r, collect), CUDNN_STATUS_SUCCESS);
    }
    ~ScopedCallback() { cudnnSetCallback(old_mask, old_udata, old_fn); }
};

}  // namespace

TEST(Logging, GetCallbackReturnsWhatSetCallbackStored) {
    Received r;
    ScopedCallback scope(CUDNN_SEV_ERROR_EN | CUDNN_SEV_INFO_EN, &r);
    unsigned mask = 0;
    void *udata = nullptr;
    cudnnCallback_t fn = nullptr;
    ASSERT_EQ(cudnnGetCallback(&mask, &udata, &fn), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mask, CUDNN_SEV_ERROR_EN | CUDNN_SEV_INFO_EN);
    EXPECT_EQ(udata, &r);
    EXPECT_EQ(fn, &collect);
    EXPECT_EQ(cudnnGetCallback(nullptr, &udata, &fn), CUDNN_STATUS_BAD_PARAM);
}

TEST(Logging, ErrorMessageNamesFunctionStatusAndReasonAndFillsDebugStruct) {
    Received r;
    {
        ScopedCallback scope(CUDNN_SEV_ERROR_EN, &r);
        EXPECT_EQ(cudnnCreate(nullptr), CUDNN_STATUS_BAD_PARAM);
    }
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.severities[0], CUDNN_SEV_ERROR);
    EXPECT_NE(r.messages[0].find("cudnnCreate"), std::string::npos) << r.messages[0];
    EXPECT_NE(r.messages[0].find("CUDNN_STATUS_BAD_PARAM"), std::string::npos) << r.messages[0];
    EXPECT_NE(r.messages[0].find("handle is NULL"), std::string::npos) << r.messages[0];
    EXPECT_EQ(r.debug[0].cudnn_version, 8907u);
    EXPECT_EQ(r.debug[0].cudnnStatus, CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(r.debug[0].pid, static_cast<unsigned long long>(getpid()));
    EXPECT_GT(r.debug[0].time_sec, 1600000000u);
}

TEST(Logging, InfoTraceListsArgumentsAndResult) {
    Received r;
    cudnnHandle_t handle = nullptr;
    {
        ScopedCallback scope(CUDNN_SEV_INFO_EN, &r);
        ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnSetStream(handle, nullptr), CUDNN_STATUS_SUCCESS);
    }
    ASSERT_GE(r.messages.size(), 2u);
    const std::string &trace = r.messages.back();
    EXPECT_EQ(r.severities.back(), CUDNN_SEV_INFO);
    EXPECT_NE(trace.find("cudnnSetStream() called"), std::string::npos) << trace;
    EXPECT_NE(trace.find("handle: 0x"), std::string::npos) << trace;
    EXPECT_NE(trace.find("backend="), std::string::npos) << trace;
    EXPECT_NE(trace.find("streamId: NULL"), std::string::npos) << trace;
    EXPECT_NE(trace.find("returned: CUDNN_STATUS_SUCCESS"), std::string::npos) << trace;
    EXPECT_EQ(r.debug.back().handle, handle);
    cudnnDestroy(handle);
}

TEST(Logging, MaskFiltersSeverities) {
    Received r;
    {
        ScopedCallback scope(CUDNN_SEV_ERROR_EN, &r);
        cudnnHandle_t handle = nullptr;
        ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);  // success: no error, and no info wanted
        cudnnDestroy(handle);
    }
    EXPECT_TRUE(r.messages.empty());
    {
        ScopedCallback scope(0, &r);
        EXPECT_EQ(cudnnCreate(nullptr), CUDNN_STATUS_BAD_PARAM);
    }
    EXPECT_TRUE(r.messages.empty());
}

TEST(Logging, NotSupportedFunctionsSaySo) {
    Received r;
    {
        ScopedCallback scope(CUDNN_SEV_ERROR_EN, &r);
        // cudnnGetMultiHeadAttnBuffers is not implemented yet (docs/SUPPORT.md): NOT_SUPPORTED, with a reason.
        EXPECT_EQ(cudnnGetMultiHeadAttnBuffers(nullptr, nullptr, nullptr, nullptr, nullptr),
                  CUDNN_STATUS_NOT_SUPPORTED);
    }
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_NE(r.messages[0].find("cudnnGetMultiHeadAttnBuffers"), std::string::npos);
    EXPECT_NE(r.messages[0].find("CUDNN_STATUS_NOT_SUPPORTED"), std::string::npos);
    EXPECT_NE(r.messages[0].find("does not implement"), std::string::npos);
}
