// Device probe (session 9, call 4): how many clusters of a 256-thread, one-block-an-SM kernel the H200 holds at
// once, and whether a cooperative launch of clusters (grid-wide barrier plus cluster barrier) is accepted.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;
__global__ void __launch_bounds__(256, 1) probe_kernel(int *out) {
    extern __shared__ float s[];
    s[threadIdx.x] = 1.0f;
    cg::this_cluster().sync();
    cg::this_grid().sync();
    if (threadIdx.x == 0) atomicAdd(out, 1);
}
int main() {
    cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 222208);
    cudaFuncSetAttribute(probe_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    int *out; cudaMalloc(&out, 4);
    for (int smem : {100000, 190000, 222208})
        for (int c : {2, 4, 8, 16}) {
            cudaLaunchConfig_t config = {};
            config.gridDim = dim3(c * 8); config.blockDim = dim3(256); config.dynamicSmemBytes = smem;
            cudaLaunchAttribute at[2];
            at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = c; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
            at[1].id = cudaLaunchAttributeCooperative; at[1].val.cooperative = 1;
            config.attrs = at; config.numAttrs = 1;
            int n = -1; cudaError_t e = cudaOccupancyMaxActiveClusters(&n, probe_kernel, &config);
            printf("smem %d cluster %2d: max active clusters %d (%s) = %d blocks\n", smem, c, n, cudaGetErrorString(e), n * c);
            if (n > 0) {
                config.gridDim = dim3(n * c); config.numAttrs = 2;
                cudaMemset(out, 0, 4);
                e = cudaLaunchKernelEx(&config, probe_kernel, out);
                cudaError_t e2 = cudaDeviceSynchronize(); int h = 0; cudaMemcpy(&h, out, 4, cudaMemcpyDeviceToHost);
                printf("   cooperative launch of %d clusters: %s / %s, %d blocks ran\n", n, cudaGetErrorString(e), cudaGetErrorString(e2), h);
                cudaGetLastError();
            }
        }
    return 0;
}
