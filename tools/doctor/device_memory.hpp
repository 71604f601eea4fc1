// Memory for the self-test's buffers: host memory (LibreDNN's host backend), or GPU memory through the
// driver API (libcuda.so.1, opened at run time, so the doctor needs no CUDA to build). Used only in
// the self-test's child processes.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace librednn::doctor {

class Memory {
public:
    virtual ~Memory() = default;
    virtual bool device() const = 0;
    virtual void *allocate(size_t bytes) = 0;  // nullptr on failure
    virtual void release(void *pointer) = 0;
    virtual bool upload(void *destination, const void *source, size_t bytes) = 0;
    virtual bool download(void *destination, const void *source, size_t bytes) = 0;
    virtual bool synchronize() = 0;  // waits for all work on the GPU (no-op on the host)
};

std::unique_ptr<Memory> host_memory();
// Initialises the driver and makes device 0's primary context current (the one the CUDA runtime
// inside cuDNN uses). nullptr with *error when there is no usable GPU.
std::unique_ptr<Memory> gpu_memory(std::string *error);

// A float buffer in some memory, freed on destruction.
class Buffer {
public:
    Buffer(Memory &memory, size_t count)
        : memory_(memory), count_(count), data_(memory.allocate(count * sizeof(float))) {}
    ~Buffer() {
        if (data_) memory_.release(data_);
    }
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;
    bool ok() const { return data_ != nullptr; }
    void *data() const { return data_; }
    size_t count() const { return count_; }
    bool write(const std::vector<float> &values) {
        return memory_.upload(data_, values.data(), count_ * sizeof(float));
    }
    bool read(std::vector<float> *values) {
        values->resize(count_);
        return memory_.synchronize() && memory_.download(values->data(), data_, count_ * sizeof(float));
    }

private:
    Memory &memory_;
    size_t count_;
    void *data_;
};

}  // namespace librednn::doctor
