// The algorithm descriptor and performance object (create, set, get, copy, destroy) and saving and
// restoring an algorithm.
#include "descriptors/algorithm.hpp"
#include "api/entry.hpp"

#include <memory>
#include <vector>

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateAlgorithmDescriptor(cudnnAlgorithmDescriptor_t *algoDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("algoDesc", static_cast<const void *>(algoDesc));
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        *algoDesc = new cudnnAlgorithmStruct;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetAlgorithmDescriptor(cudnnAlgorithmDescriptor_t algoDesc, cudnnAlgorithm_t algorithm) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("algoDesc", algoDesc).arg("algorithm", librednn::algorithm_value(algorithm));
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        algoDesc->algorithm = algorithm;
        algoDesc->is_set = true;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetAlgorithmDescriptor(const cudnnAlgorithmDescriptor_t algoDesc,
                                                      cudnnAlgorithm_t *algorithm) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("algoDesc", algoDesc).arg("algorithm", static_cast<const void *>(algorithm));
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        LIBREDNN_REQUIRE_NOT_NULL(algorithm);
        LIBREDNN_CHECK(librednn::require_algorithm_set(*algoDesc, "algoDesc"));
        *algorithm = algoDesc->algorithm;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnCopyAlgorithmDescriptor(const cudnnAlgorithmDescriptor_t src,
                                                       cudnnAlgorithmDescriptor_t dest) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("src", src).arg("dest", dest);
        LIBREDNN_REQUIRE_NOT_NULL(src);
        LIBREDNN_REQUIRE_NOT_NULL(dest);
        LIBREDNN_CHECK(librednn::require_algorithm_set(*src, "src"));
        *dest = *src;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyAlgorithmDescriptor(cudnnAlgorithmDescriptor_t algoDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("algoDesc", algoDesc);
        delete algoDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnCreateAlgorithmPerformance(cudnnAlgorithmPerformance_t *algoPerf, int numberToCreate) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("algoPerf", static_cast<const void *>(algoPerf)).arg("numberToCreate", numberToCreate);
        LIBREDNN_REQUIRE_NOT_NULL(algoPerf);
        if (numberToCreate <= 0) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "numberToCreate is %d, must be positive", numberToCreate);
        }
        // All or nothing: if an allocation fails, the ones made so far are freed and algoPerf is untouched.
        std::vector<std::unique_ptr<cudnnAlgorithmPerformanceStruct>> made;
        made.reserve(static_cast<size_t>(numberToCreate));
        for (int i = 0; i < numberToCreate; ++i) made.push_back(std::make_unique<cudnnAlgorithmPerformanceStruct>());
        for (int i = 0; i < numberToCreate; ++i) algoPerf[i] = made[static_cast<size_t>(i)].release();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetAlgorithmPerformance(cudnnAlgorithmPerformance_t algoPerf,
                                                       cudnnAlgorithmDescriptor_t algoDesc, cudnnStatus_t status,
                                                       float time, size_t memory) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("algoPerf", algoPerf)
            .arg("algoDesc", algoDesc)
            .arg("status", status)
            .arg("time", time)
            .arg("memory", memory);
        LIBREDNN_REQUIRE_NOT_NULL(algoPerf);
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        if (librednn::enum_name(status) == nullptr) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "status is %d, not a cudnnStatus_t value",
                                  static_cast<int>(status));
        }
        algoPerf->algo_desc = algoDesc;
        algoPerf->status = status;
        algoPerf->time = time;
        algoPerf->memory = memory;
        algoPerf->is_set = true;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetAlgorithmPerformance(const cudnnAlgorithmPerformance_t algoPerf,
                                                       cudnnAlgorithmDescriptor_t *algoDesc, cudnnStatus_t *status,
                                                       float *time, size_t *memory) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("algoPerf", algoPerf)
            .arg("algoDesc", static_cast<const void *>(algoDesc))
            .arg("status", static_cast<const void *>(status))
            .arg("time", static_cast<const void *>(time))
            .arg("memory", static_cast<const void *>(memory));
        LIBREDNN_REQUIRE_NOT_NULL(algoPerf);
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        LIBREDNN_REQUIRE_NOT_NULL(status);
        LIBREDNN_REQUIRE_NOT_NULL(time);
        LIBREDNN_REQUIRE_NOT_NULL(memory);
        LIBREDNN_CHECK(librednn::require_algorithm_performance_set(*algoPerf, "algoPerf"));
        *algoDesc = algoPerf->algo_desc;
        *status = algoPerf->status;
        *time = algoPerf->time;
        *memory = algoPerf->memory;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyAlgorithmPerformance(cudnnAlgorithmPerformance_t *algoPerf, int numberToDestroy) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.array("algoPerf", algoPerf, numberToDestroy, numberToDestroy).arg("numberToDestroy", numberToDestroy);
        if (algoPerf == nullptr) return CUDNN_STATUS_SUCCESS;
        if (numberToDestroy < 0) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "numberToDestroy is %d, must not be negative",
                                  numberToDestroy);
        }
        // NULL entries are skipped, and each destroyed entry is set to NULL so that a second
        // destroy of the same array is harmless.
        for (int i = 0; i < numberToDestroy; ++i) {
            delete algoPerf[i];
            algoPerf[i] = nullptr;
        }
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetAlgorithmSpaceSize(cudnnHandle_t handle, cudnnAlgorithmDescriptor_t algoDesc,
                                                     size_t *algoSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("algoDesc", algoDesc)
            .arg("algoSpaceSizeInBytes", static_cast<const void *>(algoSpaceSizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        LIBREDNN_REQUIRE_NOT_NULL(algoSpaceSizeInBytes);
        *algoSpaceSizeInBytes = librednn::kAlgorithmSpaceSize;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSaveAlgorithm(cudnnHandle_t handle, cudnnAlgorithmDescriptor_t algoDesc, void *algoSpace,
                                             size_t algoSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("algoDesc", algoDesc)
            .arg("algoSpace", static_cast<const void *>(algoSpace))
            .arg("algoSpaceSizeInBytes", algoSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        LIBREDNN_REQUIRE_NOT_NULL(algoSpace);
        LIBREDNN_CHECK(librednn::require_algorithm_set(*algoDesc, "algoDesc"));
        if (algoSpaceSizeInBytes < librednn::kAlgorithmSpaceSize) {
            return librednn::fail(
                CUDNN_STATUS_BAD_PARAM,
                "algoSpaceSizeInBytes is %zu, a saved algorithm needs %zu (cudnnGetAlgorithmSpaceSize)",
                algoSpaceSizeInBytes, librednn::kAlgorithmSpaceSize);
        }
        librednn::save_algorithm(*algoDesc, static_cast<unsigned char *>(algoSpace));
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRestoreAlgorithm(cudnnHandle_t handle, void *algoSpace, size_t algoSpaceSizeInBytes,
                                                cudnnAlgorithmDescriptor_t algoDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("algoSpace", static_cast<const void *>(algoSpace))
            .arg("algoSpaceSizeInBytes", algoSpaceSizeInBytes)
            .arg("algoDesc", algoDesc);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(algoSpace);
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        return librednn::restore_algorithm(static_cast<const unsigned char *>(algoSpace), algoSpaceSizeInBytes,
                                           algoDesc);
    });
}
