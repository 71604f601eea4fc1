// Asynchronous copies from global into shared memory, for kernels that stage their data in shared memory
// rather than in registers (more bytes in flight per SM than the register file holds):
// - 16-byte copies a thread issues (cp.async, sm_80), completed with async_copy_wait_all;
// - bulk copies (cp.async.bulk, sm_90, the tensor memory accelerator's one-dimensional form) one thread
//   issues for a whole contiguous range, and tensor copies (its two-dimensional form: a box of a matrix that a
//   tensor map describes), completed on a shared-memory transaction barrier.
// The sm_90 helpers compile to nothing below sm_90; their callers run only where the device has them
// (the launchers check the kernel's binary version).
#pragma once

#include <cstdint>

namespace librednn::cuda {

__device__ __forceinline__ uint32_t shared_address(const void *pointer) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(pointer));
}

// 16 bytes from global `source` to shared `target` (both 16-byte aligned), bypassing L1. Before sm_80
// (no cp.async) an ordinary load and store: the same result, synchronously.
__device__ __forceinline__ void async_copy16(void *target, const void *source) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(target)), "l"(source) : "memory");
#else
    *static_cast<uint4 *>(target) = *static_cast<const uint4 *>(source);
#endif
}

// Waits until every async_copy16 this thread issued has landed (then a barrier makes them block-wide).
__device__ __forceinline__ void async_copy_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// 16 bytes to shared `target`, of which the first `bytes` (0 to 16) come from global `source` and the rest
// are zeros (source is not read when bytes is 0, but must still be a valid address).
__device__ __forceinline__ void async_copy16_or_zeros(void *target, const void *source, int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(target)), "l"(source),
                 "r"(bytes)
                 : "memory");
#else
    for (int i = 0; i < 16; ++i)
        static_cast<unsigned char *>(target)[i] = i < bytes ? static_cast<const unsigned char *>(source)[i] : 0;
#endif
}

// Closes the group of this thread's copies issued since the last commit (async_copy_wait_groups counts them).
__device__ __forceinline__ void async_copy_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most `Pending` of this thread's committed groups are still in flight.
template <int Pending>
__device__ __forceinline__ void async_copy_wait_groups() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
#endif
}

// Runs use(c) for chunks c = 0 .. count - 1 of data a block stages through two shared buffers: load(c) queues
// chunk c's copies into buffer c % 2 and commits them, and chunk c + 1's copies are in flight while chunk c is
// used. The barriers make each chunk whole for the block before its use and keep its buffer until every thread
// is done with it.
template <class Load, class Use>
__device__ __forceinline__ void for_each_double_buffered_chunk(int count, const Load &load, const Use &use) {
    load(0);
    for (int c = 0; c < count; ++c) {
        if (c + 1 < count) {
            load(c + 1);
            async_copy_wait_groups<1>();
        } else {
            async_copy_wait_groups<0>();
        }
        __syncthreads();
        use(c);
        __syncthreads();
    }
}

// A transaction barrier in shared memory, armed for one arrival. One thread initialises it; a
// __syncthreads must follow before others use it.
__device__ __forceinline__ void transaction_barrier_init(uint64_t *barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(shared_address(barrier)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

// A barrier in shared memory armed for `arrivals` plain arrivals (barrier_arrive), as for shared memory that
// several thread groups release. One thread initialises it; a __syncthreads must follow before others use it.
__device__ __forceinline__ void arrival_barrier_init(uint64_t *barrier, uint32_t arrivals) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

// One arrival on the barrier's current phase (release: this thread's earlier accesses happen before the phase
// completes for whoever waits on it).
__device__ __forceinline__ void barrier_arrive(uint64_t *barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(barrier)) : "memory");
#endif
}

// The one arrival, announcing `bytes` that bulk copies will deliver to the barrier's current phase.
__device__ __forceinline__ void transaction_barrier_expect(uint64_t *barrier, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(barrier)), "r"(bytes)
                 : "memory");
#endif
}

// `bytes` (a multiple of 16, both addresses 16-byte aligned) from global to this block's shared memory,
// reported to `barrier` as they land.
__device__ __forceinline__ void bulk_copy_to_shared(void *target, const void *source, uint32_t bytes,
                                                    uint64_t *barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                     shared_address(target)),
                 "l"(source), "r"(bytes), "r"(shared_address(barrier))
                 : "memory");
#endif
}

// The box at coordinates (c0, c1) of a two-dimensional tensor map (`map`: the address of a CUtensorMap kernel
// parameter declared __grid_constant__) copied by the tensor memory accelerator into this block's shared memory at
// `target` (aligned as the map's swizzle needs), in the map's layout, reported to `barrier` as it lands. Parts of
// the box outside the tensor arrive as zeros.
__device__ __forceinline__ void tensor_copy_2d_to_shared(void *target, const void *map, int c0, int c1,
                                                         uint64_t *barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::
            "r"(shared_address(target)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(shared_address(barrier))
        : "memory");
#endif
}

// Waits until the barrier's phase `parity` (0 for the first use) has completed.
__device__ __forceinline__ void transaction_barrier_wait(uint64_t *barrier, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    uint32_t done = 0;
    do {
        asm volatile(
            "{\n .reg .pred complete;\n mbarrier.try_wait.parity.shared::cta.b64 complete, [%1], %2;\n"
            " selp.u32 %0, 1, 0, complete;\n}\n"
            : "=r"(done)
            : "r"(shared_address(barrier)), "r"(parity)
            : "memory");
    } while (done == 0);
#endif
}

}  // namespace librednn::cuda
