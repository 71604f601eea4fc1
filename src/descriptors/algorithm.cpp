// The algorithm descriptor and performance object: their rules, the saved byte format, and descriptions.
#include "descriptors/algorithm.hpp"

#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace librednn {

namespace {

constexpr unsigned char kMagic[4] = {'L', 'D', 'N', 'A'};

void put_u16(unsigned char *out, uint16_t value) {
    out[0] = static_cast<unsigned char>(value);
    out[1] = static_cast<unsigned char>(value >> 8);
}

void put_u32(unsigned char *out, uint32_t value) {
    for (int i = 0; i < 4; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}

uint16_t get_u16(const unsigned char *in) { return static_cast<uint16_t>(in[0] | (in[1] << 8)); }

uint32_t get_u32(const unsigned char *in) {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= uint32_t{in[i]} << (8 * i);
    return value;
}

// FNV-1a, 32 bits: catches a truncated or overwritten buffer, not an adversary.
uint32_t fnv1a(const unsigned char *bytes, size_t size) {
    uint32_t hash = 0x811C9DC5u;
    for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x01000193u;
    return hash;
}

}  // namespace

int algorithm_value(const cudnnAlgorithm_t &algorithm) {
    static_assert(sizeof(cudnnAlgorithm_t) == sizeof(int), "every cudnnAlgorithm_t member is an int-sized enum");
    int value;
    std::memcpy(&value, &algorithm, sizeof value);
    return value;
}

cudnnAlgorithm_t algorithm_from_value(int value) {
    cudnnAlgorithm_t algorithm;
    std::memcpy(&algorithm, &value, sizeof value);
    return algorithm;
}

Status require_algorithm_set(const cudnnAlgorithmStruct &desc, const char *name) {
    if (desc.is_set) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM,
                "%s has not been set (call cudnnSetAlgorithmDescriptor or cudnnRestoreAlgorithm first)", name);
}

Status require_algorithm_performance_set(const cudnnAlgorithmPerformanceStruct &perf, const char *name) {
    if (perf.is_set) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "%s has not been set (call cudnnSetAlgorithmPerformance first)", name);
}

void save_algorithm(const cudnnAlgorithmStruct &desc, unsigned char *space) {
    std::memcpy(space, kMagic, 4);
    put_u16(space + 4, kAlgorithmFormatVersion);
    put_u16(space + 6, 0);
    put_u32(space + 8, CUDNN_VERSION);
    put_u32(space + 12, static_cast<uint32_t>(algorithm_value(desc.algorithm)));
    put_u32(space + 16, fnv1a(space, 16));
}

Status restore_algorithm(const unsigned char *space, size_t size, cudnnAlgorithmStruct *desc) {
    if (size < kAlgorithmSpaceSize) {
        return fail(CUDNN_STATUS_BAD_PARAM, "algoSpaceSizeInBytes is %zu, a saved algorithm is %zu bytes", size,
                    kAlgorithmSpaceSize);
    }
    if (std::memcmp(space, kMagic, 4) != 0) {
        return fail(CUDNN_STATUS_BAD_PARAM, "algoSpace does not hold an algorithm saved by cudnnSaveAlgorithm");
    }
    if (get_u32(space + 16) != fnv1a(space, 16)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "algoSpace holds a damaged saved algorithm (its checksum does not match)");
    }
    const uint16_t format = get_u16(space + 4);
    if (format != kAlgorithmFormatVersion) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "algoSpace was saved in format version %u, this library reads version %u", unsigned{format},
                    unsigned{kAlgorithmFormatVersion});
    }
    const uint32_t api_version = get_u32(space + 8);
    if (api_version != CUDNN_VERSION) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "algoSpace was saved by cuDNN API version %u, this library is %d",
                    api_version, CUDNN_VERSION);
    }
    desc->algorithm = algorithm_from_value(static_cast<int>(get_u32(space + 12)));
    desc->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

std::string algorithm_to_string(const cudnnAlgorithmStruct &desc) {
    if (!desc.is_set) return "unset";
    return "algo " + std::to_string(algorithm_value(desc.algorithm));
}

std::string algorithm_performance_to_string(const cudnnAlgorithmPerformanceStruct &perf) {
    if (!perf.is_set) return "unset";
    // The descriptor is the user's and may be gone by now: print its address, never its contents.
    const char *status = enum_name(perf.status);
    char text[160];
    std::snprintf(text, sizeof text, "algoDesc 0x%" PRIxPTR ", %s, %.9g ms, %zu bytes",
                  reinterpret_cast<uintptr_t>(perf.algo_desc), status ? status : "?", perf.time, perf.memory);
    return text;
}

namespace api {

std::string describe(const cudnnAlgorithmStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "AlgorithmDescriptor{" + algorithm_to_string(*desc) + "}";
}

std::string describe(const cudnnAlgorithmPerformanceStruct *perf) {
    if (perf == nullptr) return "NULL";
    return "AlgorithmPerformance{" + algorithm_performance_to_string(*perf) + "}";
}

}  // namespace api
}  // namespace librednn
