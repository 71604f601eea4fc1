/* Loads one cuDNN library by path with dlopen (as an application's loader would) and makes one
 * call, printing the status and every log message the library sends to its callback:
 *   shim_probe PATH create-convolution | cnn-infer-version-check | version
 * Used by the install tests to check lazy loading, missing sub-libraries and build mismatches. */
#include <cudnn.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void print_message(cudnnSeverity_t sev, void *udata, const cudnnDebug_t *dbg, const char *msg) {
    (void)udata;
    (void)dbg;
    printf("log[%d]: %s\n", (int)sev, msg);
}

int main(int argc, char **argv) {
    void *lib;
    cudnnStatus_t status;
    const char *(*error_string)(cudnnStatus_t);
    cudnnStatus_t (*set_callback)(unsigned, void *, cudnnCallback_t);
    if (argc != 3) {
        fprintf(stderr, "usage: shim_probe LIBRARY_PATH create-convolution|cnn-infer-version-check|version\n");
        return 2;
    }
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        printf("dlopen failed: %s\n", dlerror());
        return 1;
    }
    *(void **)&error_string = dlsym(lib, "cudnnGetErrorString");
    *(void **)&set_callback = dlsym(lib, "cudnnSetCallback");
    if (error_string == NULL || set_callback == NULL) {
        printf("the library lacks cudnnGetErrorString or cudnnSetCallback\n");
        return 1;
    }
    /* Through the shim this call itself needs ops_infer; its status says whether that loaded. */
    status = set_callback(CUDNN_SEV_ERROR_EN | CUDNN_SEV_WARNING_EN, NULL, print_message);
    printf("cudnnSetCallback: %s\n", error_string(status));
    if (strcmp(argv[2], "create-convolution") == 0) {
        cudnnStatus_t (*create)(cudnnConvolutionDescriptor_t *);
        cudnnConvolutionDescriptor_t desc = NULL;
        *(void **)&create = dlsym(lib, "cudnnCreateConvolutionDescriptor");
        status = create(&desc);
        printf("cudnnCreateConvolutionDescriptor: %s\n", error_string(status));
    } else if (strcmp(argv[2], "cnn-infer-version-check") == 0) {
        cudnnStatus_t (*check)(void);
        *(void **)&check = dlsym(lib, "cudnnCnnInferVersionCheck");
        status = check();
        printf("cudnnCnnInferVersionCheck: %s\n", error_string(status));
    } else if (strcmp(argv[2], "version") == 0) {
        size_t (*version)(void);
        *(void **)&version = dlsym(lib, "cudnnGetVersion");
        printf("cudnnGetVersion: %zu\n", version());
    } else {
        fprintf(stderr, "unknown call %s\n", argv[2]);
        return 2;
    }
    return 0;
}
