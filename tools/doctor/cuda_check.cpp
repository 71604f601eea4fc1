// Driver, GPUs and CUDA runtimes, each asked in a child process through dlopen (no CUDA at build time).
#include "cuda_check.hpp"

#include "child_process.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <fstream>

namespace librednn::doctor {
namespace {

// The few driver API entry points used, with the driver's ABI (CUresult is an int, CUdevice an int).
using CuInit = int (*)(unsigned);
using CuDriverGetVersion = int (*)(int *);
using CuDeviceGetCount = int (*)(int *);
using CuDeviceGet = int (*)(int *, int);
using CuDeviceGetName = int (*)(char *, int, int);
using CuDeviceGetAttribute = int (*)(int *, int, int);
using CuDeviceTotalMem = int (*)(size_t *, int);
using CuGetErrorText = int (*)(int, const char **);
constexpr int kAttributeComputeMajor = 75, kAttributeComputeMinor = 76;

std::string driver_error_text(void *driver, int result) {
    auto name_of = reinterpret_cast<CuGetErrorText>(::dlsym(driver, "cuGetErrorName"));
    auto text_of = reinterpret_cast<CuGetErrorText>(::dlsym(driver, "cuGetErrorString"));
    const char *name = nullptr, *text = nullptr;
    if (name_of) name_of(result, &name);
    if (text_of) text_of(result, &text);
    std::string message = name ? name : "CUresult " + std::to_string(result);
    if (text) message += std::string(": ") + text;
    return message;
}

int ask_driver(const std::string &path, ChildReport &report) {
    void *driver = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (driver == nullptr) {
        const char *why = ::dlerror();
        report.put("dlerror", why ? why : "dlopen failed");
        return 3;
    }
    report.put("loaded", "1");
    auto get_version = reinterpret_cast<CuDriverGetVersion>(::dlsym(driver, "cuDriverGetVersion"));
    int version = 0;
    if (get_version && get_version(&version) == 0) report.put("driver_version", version);
    auto init = reinterpret_cast<CuInit>(::dlsym(driver, "cuInit"));
    if (init == nullptr) {
        report.put("init_result", -1);
        report.put("init_error", "libcuda.so.1 has no cuInit: it is not NVIDIA's driver library");
        return 0;
    }
    const int result = init(0);
    report.put("init_result", result);
    if (result != 0) {
        report.put("init_error", driver_error_text(driver, result));
        return 0;
    }
    auto count_devices = reinterpret_cast<CuDeviceGetCount>(::dlsym(driver, "cuDeviceGetCount"));
    auto get_device = reinterpret_cast<CuDeviceGet>(::dlsym(driver, "cuDeviceGet"));
    auto get_name = reinterpret_cast<CuDeviceGetName>(::dlsym(driver, "cuDeviceGetName"));
    auto get_attribute = reinterpret_cast<CuDeviceGetAttribute>(::dlsym(driver, "cuDeviceGetAttribute"));
    auto total_memory = reinterpret_cast<CuDeviceTotalMem>(::dlsym(driver, "cuDeviceTotalMem_v2"));
    int count = 0;
    if (!count_devices || !get_device || count_devices(&count) != 0) return 0;
    report.put("gpu_count", count);
    for (int i = 0; i < count; ++i) {
        int device = 0;
        if (get_device(&device, i) != 0) continue;
        const std::string key = "gpu." + std::to_string(i) + ".";
        char name[256] = {};
        if (get_name && get_name(name, sizeof name - 1, device) == 0) report.put(key + "name", name);
        int major = 0, minor = 0;
        if (get_attribute && get_attribute(&major, kAttributeComputeMajor, device) == 0 &&
            get_attribute(&minor, kAttributeComputeMinor, device) == 0) {
            report.put(key + "major", major);
            report.put(key + "minor", minor);
        }
        size_t bytes = 0;
        if (total_memory && total_memory(&bytes, device) == 0)
            report.put(key + "memory", static_cast<long long>(bytes));
    }
    return 0;
}

int ask_runtime(const std::string &path, ChildReport &report) {
    void *runtime = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (runtime == nullptr) {
        const char *why = ::dlerror();
        report.put("dlerror", why ? why : "dlopen failed");
        return 3;
    }
    using GetVersion = int (*)(int *);
    auto get_version = reinterpret_cast<GetVersion>(::dlsym(runtime, "cudaRuntimeGetVersion"));
    int version = 0;
    if (get_version && get_version(&version) == 0) report.put("version", version);
    return 0;
}

std::string first_line(const std::string &path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

std::string cuda_text(long long version) { return "CUDA " + decode_cuda_version(version).text(); }

}  // namespace

int minimum_compute_capability(int cuda_major) {
    if (cuda_major >= 13) return 75;  // CUDA 13 dropped Maxwell, Pascal and Volta
    if (cuda_major == 12) return 50;
    if (cuda_major == 11) return 35;
    return 30;
}

CudaFacts gather_cuda_facts(const LoaderEnvironment &loader, bool probe_driver) {
    CudaFacts facts;
    const Requester program;
    const SearchResult driver = find_library("libcuda.so.1", program, loader);
    if (driver.found) facts.driver_path = driver.path;
    facts.kernel_module = first_line("/proc/driver/nvidia/version");
    if (driver.found && probe_driver) {
        const ChildOutcome outcome =
            run_in_child([&](ChildReport &report) { return ask_driver(driver.path, report); }, 60000);
        facts.driver_probed = true;
        facts.driver_loaded = outcome.get("loaded") == "1";
        if (outcome.has("driver_version")) facts.driver_version = std::atoll(outcome.get("driver_version").c_str());
        if (outcome.has("init_result")) facts.init_result = std::atoi(outcome.get("init_result").c_str());
        facts.init_error = outcome.get("init_error");
        if (!facts.driver_loaded) {
            facts.init_error =
                outcome.has("dlerror") ? outcome.get("dlerror") : "the process loading it " + outcome.describe();
        } else if (!outcome.ok()) {
            facts.init_result = -1;
            facts.init_error = "the process asking the driver " + outcome.describe();
        }
        const int count = std::atoi(outcome.get("gpu_count", "0").c_str());
        for (int i = 0; i < count; ++i) {
            const std::string key = "gpu." + std::to_string(i) + ".";
            GpuInfo gpu;
            gpu.index = i;
            gpu.name = outcome.get(key + "name", "unknown GPU");
            gpu.major = std::atoi(outcome.get(key + "major", "0").c_str());
            gpu.minor = std::atoi(outcome.get(key + "minor", "0").c_str());
            gpu.memory_bytes = std::strtoull(outcome.get(key + "memory", "0").c_str(), nullptr, 10);
            facts.gpus.push_back(gpu);
        }
    }
    for (const char *soname : {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so.10.2",
                               "libcudart.so.10.1", "libcudart.so.10.0"}) {
        const SearchResult found = find_library(soname, program, loader);
        if (!found.found) continue;
        CudaRuntimeInfo runtime;
        runtime.soname = soname;
        runtime.path = found.path;
        if (probe_driver) {
            const ChildOutcome outcome =
                run_in_child([&](ChildReport &report) { return ask_runtime(found.path, report); }, 60000);
            if (outcome.has("version")) {
                runtime.version = std::atoll(outcome.get("version").c_str());
            } else {
                runtime.error = outcome.has("dlerror") ? outcome.get("dlerror") : outcome.describe();
            }
        }
        facts.runtimes.push_back(runtime);
    }
    return facts;
}

void report_cuda(const CudaFacts &cuda, Report *report) {
    Section &section = report->section("cuda", "CUDA: driver, GPUs, runtimes");
    if (cuda.driver_path.empty()) {
        Check &check =
            section.add("cuda.driver", Verdict::skip,
                        "no NVIDIA driver: the loader finds no libcuda.so.1, so GPU checks and GPU self-tests "
                        "are skipped",
                        "Install the NVIDIA driver if this machine has a GPU; LibreDNN runs on the CPU without one.");
        if (!cuda.kernel_module.empty()) check.details.push_back("kernel module: " + cuda.kernel_module);
    } else if (!cuda.driver_probed) {
        section.add("cuda.driver", Verdict::info,
                    "NVIDIA driver library at " + cuda.driver_path + " (not started: --no-load)");
    } else if (!cuda.driver_loaded) {
        section.add("cuda.driver", Verdict::fail,
                    "the driver library " + cuda.driver_path + " does not load: " + cuda.init_error,
                    "Reinstall the NVIDIA driver so that its user-space libraries match the kernel module.");
    } else if (cuda.init_result != 0) {
        // The library is there, but cuInit fails: no device, wrong kernel module, no permissions.
        const bool no_device = cuda.init_error.find("NO_DEVICE") != std::string::npos;
        const bool mismatch = cuda.init_error.find("MISMATCH") != std::string::npos;
        Check &check = section.add(
            "cuda.driver", no_device ? Verdict::warn : Verdict::fail,
            "the driver (" + cuda_text(cuda.driver_version) + ", " + cuda.driver_path +
                ") cannot start: " + cuda.init_error,
            no_device ? "If this machine has a GPU, make it visible (in a container: run with --gpus all; check "
                        "CUDA_VISIBLE_DEVICES)."
            : mismatch
                ? "Reboot, or reinstall the driver: its user-space libraries and the loaded kernel module differ."
                : "Check that the NVIDIA kernel module is loaded (nvidia-smi) and that this user may open "
                  "/dev/nvidia*.");
        if (!cuda.kernel_module.empty()) check.details.push_back("kernel module: " + cuda.kernel_module);
    } else {
        Check &check =
            section.add("cuda.driver", Verdict::pass,
                        "NVIDIA driver supporting " + cuda_text(cuda.driver_version) + " (" + cuda.driver_path + ")");
        if (!cuda.kernel_module.empty()) check.details.push_back("kernel module: " + cuda.kernel_module);
    }
    if (cuda.gpu_usable()) {
        std::string summary;
        for (const GpuInfo &gpu : cuda.gpus) {
            summary += (summary.empty() ? "" : "; ") + std::string("GPU ") + std::to_string(gpu.index) + ": " +
                       gpu.name + ", compute capability " + std::to_string(gpu.major) + "." +
                       std::to_string(gpu.minor) + ", " + std::to_string(gpu.memory_bytes >> 30) + " GiB";
        }
        section.add("cuda.gpus", Verdict::pass, summary);
        section.facts["gpu_count"] = std::to_string(cuda.gpus.size());
        section.facts["gpu0_compute_capability"] =
            std::to_string(cuda.gpus[0].major) + "." + std::to_string(cuda.gpus[0].minor);
    } else if (cuda.init_result == 0) {
        section.add("cuda.gpus", Verdict::warn, "the driver starts but reports no GPU",
                    "Check CUDA_VISIBLE_DEVICES and, in a container, that the GPUs are passed in (--gpus all).");
    }
    if (cuda.driver_version >= 0)
        section.facts["driver_cuda_version"] = decode_cuda_version(cuda.driver_version).text();

    if (cuda.runtimes.empty()) {
        section.add(
            "cuda.runtime", Verdict::info,
            "no shared CUDA runtime (libcudart.so.N) on the loader's search path; programs and libraries that link "
            "it statically, as LibreDNN and cuDNN do, need none");
    } else {
        std::string summary;
        for (const CudaRuntimeInfo &runtime : cuda.runtimes) {
            summary += (summary.empty() ? "" : "; ") + runtime.soname + " " +
                       (runtime.version >= 0 ? cuda_text(runtime.version) : std::string("(version not asked)")) +
                       " at " + runtime.path;
        }
        Check &check = section.add("cuda.runtime", Verdict::info, "CUDA runtimes a program would load: " + summary);
        for (const CudaRuntimeInfo &runtime : cuda.runtimes) {
            if (!runtime.error.empty()) check.details.push_back(runtime.soname + ": " + runtime.error);
        }
    }
}

}  // namespace librednn::doctor
