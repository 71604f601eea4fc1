// Shared by the fault-injection tests: arming a site for one scope and the log it leaves.
#pragma once

#include "api/api_test_util.hpp"
#include "core/fault_injection.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <string>

namespace librednn::test {

// Arms `site` to fail its next `failures` hits while alive; disarms every site (and zeroes the hit
// counts) when created and when destroyed.
class ArmedFault {
public:
    ArmedFault(fault::Site site, int failures = 1, int skip = 0) {
        fault::disarm_all();
        fault::arm(site, failures, skip);
    }
    ~ArmedFault() { fault::disarm_all(); }
    ArmedFault(const ArmedFault &) = delete;
    ArmedFault &operator=(const ArmedFault &) = delete;
};

// A handle on `backend` ("host" or "cuda"), destroyed with the object.
class Handle {
public:
    explicit Handle(const char *backend) {
        setenv("LIBREDNN_BACKEND", backend, 1);
        status_ = cudnnCreate(&handle_);
    }
    ~Handle() {
        if (handle_ != nullptr) {
            EXPECT_EQ(cudnnDestroy(handle_), CUDNN_STATUS_SUCCESS);
        }
    }
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    cudnnStatus_t status() const { return status_; }
    operator cudnnHandle_t() const { return handle_; }

private:
    cudnnHandle_t handle_ = nullptr;
    cudnnStatus_t status_ = CUDNN_STATUS_SUCCESS;
};

}  // namespace librednn::test
