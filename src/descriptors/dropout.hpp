// The dropout descriptor (cudnnDropoutDescriptor_t), the layout of the random-number states it points
// to, and the counter-based generator (Philox4x32-10) those states drive.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>

// The generator below is shared by host code and CUDA kernels.
#ifndef LIBREDNN_HOST_DEVICE
#if defined(__CUDACC__)
#define LIBREDNN_HOST_DEVICE __host__ __device__
#else
#define LIBREDNN_HOST_DEVICE
#endif
#endif

struct cudnnTensorStruct;

struct cudnnDropoutStruct {
    bool is_set = false;       // false until cudnnSetDropoutDescriptor or cudnnRestoreDropoutDescriptor succeeds
    float probability = 0.0f;  // probability that an element is dropped (set to zero)
    // The user's states buffer (host memory on the host backend, device memory on CUDA), laid out as
    // a librednn::DropoutState. NULL when only a probability was set: a dropout with p > 0 then has
    // no generator to draw from.
    void *states = nullptr;
    size_t states_size = 0;  // its size as the user gave it
    unsigned long long seed = 0;
};

namespace librednn {

// ---- The generator ----------------------------------------------------------------------------
//
// Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3", SC 2011):
// a 128-bit counter and a 64-bit key give four independent 32-bit random words. No state evolves
// inside a call, so any element can be drawn by any thread in any order, on the host or the GPU,
// with the same result.
struct Philox4x32 {
    uint32_t word[4];
};

LIBREDNN_HOST_DEVICE inline Philox4x32 philox4x32_10(Philox4x32 counter, uint32_t key0, uint32_t key1) {
    constexpr uint32_t kMultiplier0 = 0xD2511F53u, kMultiplier1 = 0xCD9E8D57u;
    constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
    for (int round = 0; round < 10; ++round) {
        const uint64_t product0 = uint64_t{kMultiplier0} * counter.word[0];
        const uint64_t product1 = uint64_t{kMultiplier1} * counter.word[2];
        const uint32_t high0 = static_cast<uint32_t>(product0 >> 32), low0 = static_cast<uint32_t>(product0);
        const uint32_t high1 = static_cast<uint32_t>(product1 >> 32), low1 = static_cast<uint32_t>(product1);
        counter = Philox4x32{{high1 ^ counter.word[1] ^ key0, low1, high0 ^ counter.word[3] ^ key1, low0}};
        key0 += kWeyl0;
        key1 += kWeyl1;
    }
    return counter;
}

// SplitMix64's finaliser (Steele, Lea, Flood: "Fast splittable pseudorandom number generators",
// OOPSLA 2014): spreads a user's seed (often 0, 1, 2, ...) over all 64 bits of the Philox key.
LIBREDNN_HOST_DEVICE inline uint64_t splitmix64(uint64_t value) {
    value += 0x9E3779B97F4A7C15ull;
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
    return value ^ (value >> 31);
}

// ---- The draw -----------------------------------------------------------------------------------
//
// How a dropout call decides (the states buffer below holds the key and the call number): element e of
// call n takes word e % 4 of philox4x32_10({lo32(e / 4), hi32(e / 4), lo32(n), hi32(n)}, key) and is
// dropped when that word is below floor(p * 2^32), so p = 0 drops nothing and p = 1 everything.
LIBREDNN_HOST_DEVICE inline Philox4x32 dropout_words(const uint32_t key[2], uint64_t call, uint64_t group) {
    return philox4x32_10(Philox4x32{{static_cast<uint32_t>(group), static_cast<uint32_t>(group >> 32),
                                     static_cast<uint32_t>(call), static_cast<uint32_t>(call >> 32)}},
                         key[0], key[1]);
}

// floor(p * 2^32) for 0 <= p <= 1: exact in double, so the host and the GPU agree.
LIBREDNN_HOST_DEVICE inline uint64_t dropout_threshold(float probability) {
    return static_cast<uint64_t>(static_cast<double>(probability) * 4294967296.0);
}

// ---- The states buffer --------------------------------------------------------------------------
//
// What cudnnSetDropoutDescriptor writes at the start of the user's states buffer: 64 bytes, in the
// host's byte order (little-endian on every platform LibreDNN builds for). cudnnDropoutGetStatesSize
// returns kDropoutStatesSize on both backends.
//
// Drawing: the n-th dropout call made with these states (n = `calls` before the call, which then
// increments it) draws element e from word e % 4 of
//     philox4x32_10({lo32(e / 4), hi32(e / 4), lo32(n), hi32(n)}, key[0], key[1]),
// and drops the element when that word is below probability * 2^32. Each call thus has its own
// counter range, successive calls draw fresh numbers, and a descriptor restored on the same buffer
// (cudnnRestoreDropoutDescriptor) continues the sequence where it stood.
struct DropoutState {
    uint32_t magic;        // kDropoutStateMagic: marks a buffer initialised by LibreDNN
    uint32_t version;      // kDropoutStateVersion: this layout
    uint64_t seed;         // the seed given to cudnnSetDropoutDescriptor
    uint32_t key[2];       // Philox key: splitmix64(seed), low word first
    uint64_t calls;        // dropout calls made with these states so far (the high half of the counter)
    uint8_t reserved[32];  // zero
};
static_assert(sizeof(DropoutState) == 64, "the documented states layout is 64 bytes");

constexpr uint32_t kDropoutStateMagic = 0x5344524Cu;  // "LRDS" in memory on a little-endian host
constexpr uint32_t kDropoutStateVersion = 1;
constexpr size_t kDropoutStatesSize = sizeof(DropoutState);

// The states a seed starts from: same seed, same bytes.
DropoutState make_dropout_state(unsigned long long seed);

// CUDNN_STATUS_BAD_PARAM unless 0 <= dropout <= 1 (a NaN is rejected).
Status check_dropout_probability(float dropout);

// CUDNN_STATUS_INVALID_VALUE when a non-NULL states buffer is smaller than kDropoutStatesSize.
Status check_dropout_states_size(const void *states, size_t states_size);

// CUDNN_STATUS_BAD_PARAM naming `name` when `desc` has not been set.
Status require_dropout_set(const cudnnDropoutStruct &desc, const char *name);

// Bytes of reserve space cudnnDropoutForward/Backward need for `x`: one byte per element, holding
// whether the element was kept (1) or dropped (0). Fails with BAD_PARAM when `x` has not been set.
Status dropout_reserve_space_size(const cudnnTensorStruct &x, size_t *bytes);

// "p 0.5, seed 42, states 0x7f00... (64 bytes)" ("unset" before a Set), for log lines.
std::string dropout_to_string(const cudnnDropoutStruct &desc);

}  // namespace librednn
