// Compares the RNN weight-space layout of two cuDNN libraries (NVIDIA's and LibreDNN's): for each of a
// few v8 RNN descriptors, cudnnGetRNNWeightSpaceSize and, for every pseudo-layer and linLayerID,
// cudnnGetRNNWeightParams' matrix and bias offsets (in elements from the weight space's start) and
// descriptor dims. Prints one line per entry and MATCH or DIFF. Not part of the build:
//   g++ -O1 -std=c++17 -Iinclude -I/usr/local/cuda/include tools/probes/rnn_weights_probe.cpp \
//       -L/usr/local/cuda/lib64 -lcudart -ldl -o /tmp/rnn_probe && /tmp/rnn_probe NVIDIA.so LIBREDNN.so
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Library {
    void *handle_ = nullptr;
    cudnnHandle_t cudnn = nullptr;
    template <class F>
    F *get(const char *name) {
        void *p = dlsym(handle_, name);
        if (!p) std::printf("missing %s\n", name);
        return reinterpret_cast<F *>(p);
    }
};
#define CALL(lib, name) (lib).get<decltype(name)>(#name)

struct Config {
    const char *name;
    cudnnRNNMode_t mode;
    cudnnRNNBiasMode_t bias;
    cudnnDirectionMode_t direction;
    cudnnRNNInputMode_t input;
    int input_size, hidden, proj, layers;
};

struct Entry {
    long long matrix = -1, bias = -1;  // element offsets, -1 for NULL
    std::string matrix_dims, bias_dims;
};

std::string dims_of(Library &lib, cudnnTensorDescriptor_t d) {
    cudnnDataType_t type;
    int nb = 0, dims[8] = {}, strides[8] = {};
    if (CALL(lib, cudnnGetTensorNdDescriptor)(d, 8, &type, &nb, dims, strides) != CUDNN_STATUS_SUCCESS) return "?";
    std::string s;
    for (int i = 0; i < nb; ++i) s += (i ? "x" : "") + std::to_string(dims[i]);
    s += " /";
    for (int i = 0; i < nb; ++i) s += (i ? "x" : "") + std::to_string(strides[i]);
    return s;
}

// The layout one library gives: its size and every entry.
bool layout(Library &lib, const Config &c, size_t *size, std::vector<std::vector<Entry>> *entries) {
    cudnnRNNDescriptor_t rnn;
    CALL(lib, cudnnCreateRNNDescriptor)(&rnn);
    cudnnStatus_t s = CALL(lib, cudnnSetRNNDescriptor_v8)(
        rnn, CUDNN_RNN_ALGO_STANDARD, c.mode, c.bias, c.direction, c.input, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT,
        CUDNN_DEFAULT_MATH, c.input_size, c.hidden, c.proj, c.layers, nullptr, 0);
    if (s != CUDNN_STATUS_SUCCESS) {
        std::printf("  set -> %d\n", s);
        return false;
    }
    s = CALL(lib, cudnnGetRNNWeightSpaceSize)(lib.cudnn, rnn, size);
    if (s != CUDNN_STATUS_SUCCESS) {
        std::printf("  size -> %d\n", s);
        return false;
    }
    void *space = nullptr;
    cudaMalloc(&space, *size + 256);
    const int pseudo = c.layers * (c.direction == CUDNN_BIDIRECTIONAL ? 2 : 1);
    const int ids = c.mode == CUDNN_LSTM ? 9 : c.mode == CUDNN_GRU ? 6 : 2;
    cudnnTensorDescriptor_t md, bd;
    CALL(lib, cudnnCreateTensorDescriptor)(&md);
    CALL(lib, cudnnCreateTensorDescriptor)(&bd);
    entries->assign(pseudo, std::vector<Entry>(ids));
    for (int p = 0; p < pseudo; ++p) {
        for (int id = 0; id < ids; ++id) {
            void *m = nullptr, *b = nullptr;
            s = CALL(lib, cudnnGetRNNWeightParams)(lib.cudnn, rnn, p, *size, space, id, md, &m, bd, &b);
            Entry &e = (*entries)[p][id];
            if (s != CUDNN_STATUS_SUCCESS) {
                e.matrix_dims = "status " + std::to_string(s);
                continue;
            }
            if (m)
                e.matrix = (static_cast<char *>(m) - static_cast<char *>(space)) / 4, e.matrix_dims = dims_of(lib, md);
            if (b) e.bias = (static_cast<char *>(b) - static_cast<char *>(space)) / 4, e.bias_dims = dims_of(lib, bd);
        }
    }
    cudaFree(space);
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    Library nv, ours;
    nv.handle_ = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    ours.handle_ = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (!nv.handle_ || !ours.handle_) {
        std::printf("dlopen: %s\n", dlerror());
        return 1;
    }
    CALL(nv, cudnnCreate)(&nv.cudnn);
    CALL(ours, cudnnCreate)(&ours.cudnn);
    const Config configs[] = {
        {"lstm 2 layers bidirectional double bias", CUDNN_LSTM, CUDNN_RNN_DOUBLE_BIAS, CUDNN_BIDIRECTIONAL,
         CUDNN_LINEAR_INPUT, 5, 4, 4, 2},
        {"lstm projection 3 of 4", CUDNN_LSTM, CUDNN_RNN_DOUBLE_BIAS, CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, 5, 4, 3,
         2},
        {"gru single input bias", CUDNN_GRU, CUDNN_RNN_SINGLE_INP_BIAS, CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, 3, 6,
         6, 1},
        {"gru single recurrent bias", CUDNN_GRU, CUDNN_RNN_SINGLE_REC_BIAS, CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, 3,
         6, 6, 1},
        {"tanh no bias bidirectional", CUDNN_RNN_TANH, CUDNN_RNN_NO_BIAS, CUDNN_BIDIRECTIONAL, CUDNN_LINEAR_INPUT, 7, 5,
         5, 2},
        {"relu skip input", CUDNN_RNN_RELU, CUDNN_RNN_DOUBLE_BIAS, CUDNN_UNIDIRECTIONAL, CUDNN_SKIP_INPUT, 5, 5, 5, 2},
    };
    int differences = 0;
    for (const Config &c : configs) {
        size_t nv_size = 0, our_size = 0;
        std::vector<std::vector<Entry>> a, b;
        std::printf("== %s\n", c.name);
        const bool ok_a = layout(nv, c, &nv_size, &a), ok_b = layout(ours, c, &our_size, &b);
        if (!ok_a || !ok_b) {
            std::printf("  could not compare (NVIDIA %d, LibreDNN %d)\n", ok_a, ok_b);
            ++differences;
            continue;
        }
        std::printf("  size NVIDIA %zu LibreDNN %zu %s\n", nv_size, our_size, nv_size == our_size ? "MATCH" : "DIFF");
        differences += nv_size != our_size;
        for (size_t p = 0; p < a.size(); ++p) {
            for (size_t id = 0; id < a[p].size(); ++id) {
                const Entry &x = a[p][id], &y = b[p][id];
                const bool same = x.matrix == y.matrix && x.bias == y.bias && x.matrix_dims == y.matrix_dims &&
                                  x.bias_dims == y.bias_dims;
                differences += !same;
                std::printf(
                    "  pseudo %zu id %zu: NVIDIA m %lld [%s] b %lld [%s] | LibreDNN m %lld [%s] b %lld [%s] %s\n", p,
                    id, x.matrix, x.matrix_dims.c_str(), x.bias, x.bias_dims.c_str(), y.matrix, y.matrix_dims.c_str(),
                    y.bias, y.bias_dims.c_str(), same ? "MATCH" : "DIFF");
            }
        }
    }
    std::printf("%d differences\n", differences);
    return 0;
}
