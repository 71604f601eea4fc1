// The self-test's levels, each check in a child process (see selftest.hpp).
#include "selftest.hpp"

#include "child_process.hpp"
#include "selftest_ops.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace librednn::doctor {
namespace {

constexpr int kLoadTimeout = 120000, kOpTimeout = 180000, kHostStemTimeout = 600000, kGpuStemTimeout = 180000;

struct Backend {
    std::string name;  // "host", "cuda" (LibreDNN's backends), "gpu" (NVIDIA's cuDNN)
    bool gpu = false;
    Environment environment;
};

std::vector<Backend> backends_for(const InstallationFacts &target, const CudaFacts &cuda) {
    std::vector<Backend> backends;
    // TF32 would round fp32 convolutions beyond the self-test's fp32 tolerance.
    const std::pair<std::string, std::string> no_tf32{"NVIDIA_TF32_OVERRIDE", "0"};
    if (target.librednn) {
        backends.push_back({"host", false, {{"LIBREDNN_BACKEND", "host"}}});
        if (cuda.gpu_usable()) backends.push_back({"cuda", true, {{"LIBREDNN_BACKEND", "cuda"}, no_tf32}});
    } else if (cuda.gpu_usable()) {
        backends.push_back({"gpu", true, {no_tf32}});
    }
    return backends;
}

// The child's side of every level-2 and level-3 step: load, memory, handle, then `body`.
int with_handle(ChildReport &report, const std::string &path, bool gpu, unsigned seed,
                const std::function<void(OpEnvironment &)> &body) {
    CudnnApi api;
    std::string error;
    if (!api.open(path, &error)) {
        report.put("setup_error", "the library does not load: " + error);
        return 0;
    }
    std::unique_ptr<Memory> memory = gpu ? gpu_memory(&error) : host_memory();
    if (!memory) {
        report.put("setup_error", error);
        return 0;
    }
    if (api.cudnnCreate == nullptr || api.cudnnDestroy == nullptr) {
        report.put("setup_error", "the library does not export cudnnCreate");
        return 0;
    }
    cudnnHandle_t handle = nullptr;
    const cudnnStatus_t status = api.cudnnCreate(&handle);
    if (status != CUDNN_STATUS_SUCCESS) {
        report.put("setup_error", "cudnnCreate: " + api.describe(status));
        return 0;
    }
    std::mt19937 random(seed);
    OpEnvironment environment{api, handle, *memory, random};
    body(environment);
    api.cudnnDestroy(handle);
    return 0;
}

// A child that ended without saying how its step went: it crashed, hung or exited early.
std::string abnormal_end(const ChildOutcome &outcome) {
    std::string text = "the process running it " + outcome.describe();
    const std::string last = outcome.last_message_line();
    if (!last.empty()) text += "; it printed: " + last;
    return text;
}

std::string format_ms(double milliseconds) {
    char text[32];
    std::snprintf(text, sizeof text, milliseconds < 10 ? "%.3f ms" : "%.1f ms", milliseconds);
    return text;
}

class SelfTest {
public:
    SelfTest(const InstallationFacts &target, const CudaFacts &cuda, const SelfTestOptions &options, Report *report)
        : target_(target),
          cuda_(cuda),
          options_(options),
          path_(target.entry_path()),
          backends_(backends_for(target, cuda)) {
        section_ = &report->section("selftest", "Self-test: " + target.vendor_title + " (" + path_ + ")", path_);
        section_->facts["seed"] = std::to_string(options.seed);
        section_->facts["level"] = std::to_string(options.level);
    }

    void run() {
        if (path_.empty()) {
            section_->add("selftest.load", Verdict::fail, "this installation has no entry library to test",
                          "Install the complete library set (see the installation's checks).");
            return;
        }
        if (!level_one()) return;
        if (options_.level >= 2) level_two();
        if (options_.level >= 3) level_three();
    }

private:
    bool level_one() {
        const int major = target_.installation ? target_.installation->major : 8;
        const std::vector<std::string> checks =
            major >= 9 ? std::vector<std::string>{"cudnnGraphVersionCheck", "cudnnOpsVersionCheck",
                                                  "cudnnCnnVersionCheck", "cudnnAdvVersionCheck"}
                       : std::vector<std::string>{"cudnnOpsInferVersionCheck", "cudnnOpsTrainVersionCheck",
                                                  "cudnnCnnInferVersionCheck", "cudnnCnnTrainVersionCheck",
                                                  "cudnnAdvInferVersionCheck", "cudnnAdvTrainVersionCheck"};
        const ChildOutcome outcome = run_in_child(
            [&](ChildReport &report) {
                CudnnApi api;
                std::string error;
                if (!api.open(path_, &error)) {
                    report.put("load_error", error);
                    return 0;
                }
                report.put("version", static_cast<long long>(api.cudnnGetVersion()));
                using Check = cudnnStatus_t (*)();
                for (size_t i = 0; i < checks.size(); ++i) {
                    if (auto check = reinterpret_cast<Check>(::dlsym(api.library, checks[i].c_str()))) {
                        const cudnnStatus_t status = check();
                        if (status != CUDNN_STATUS_SUCCESS) report.put("check." + checks[i], api.describe(status));
                    }
                }
                cudnnHandle_t handle = nullptr;
                const cudnnStatus_t status = api.cudnnCreate ? api.cudnnCreate(&handle) : CUDNN_STATUS_NOT_INITIALIZED;
                report.put("create", status == CUDNN_STATUS_SUCCESS ? std::string("ok") : api.describe(status));
                if (status == CUDNN_STATUS_SUCCESS && api.cudnnDestroy) api.cudnnDestroy(handle);
                return 0;
            },
            kLoadTimeout);
        if (outcome.has("load_error")) {
            section_->add(
                "selftest.load", Verdict::fail, "the library does not load: " + outcome.get("load_error"),
                "Fix the installation first (see its checks): a library that does not load cannot be tested.");
            return false;
        }
        if (!outcome.has("create")) {
            section_->add("selftest.load", Verdict::fail, "loading it or calling into it " + abnormal_end(outcome),
                          "Fix the installation first: the message above is what the library said before it stopped.");
            return false;
        }
        const Version version = decode_cudnn_version(std::atoll(outcome.get("version").c_str()));
        std::vector<std::string> failed_checks;
        for (const auto &[key, value] : outcome.values) {
            if (key.compare(0, 6, "check.") == 0) failed_checks.push_back(key.substr(6) + ": " + value);
        }
        if (!failed_checks.empty()) {
            Check &check =
                section_->add("selftest.load", Verdict::fail,
                              "loads (cuDNN " + version.text() + "), but its sub-libraries fail their version checks",
                              "Install all sub-libraries from one release (or one LibreDNN build).");
            check.details = failed_checks;
            return false;
        }
        const std::string create = outcome.get("create");
        section_->add("selftest.load", Verdict::pass,
                      "loads, reports cuDNN " + version.text() + " (cudnnGetVersion " + outcome.get("version") +
                          "), sub-library version checks pass");
        if (create == "ok") {
            section_->add("selftest.handle", Verdict::pass, "cudnnCreate succeeds");
            return true;
        }
        if (!target_.librednn && !cuda_.gpu_usable()) {
            section_->add("selftest.handle", Verdict::skip, "cudnnCreate: " + create + " (no GPU)",
                          "NVIDIA's cuDNN needs a GPU for a handle: run the self-test on a GPU machine.");
            return false;
        }
        section_->add("selftest.handle", Verdict::fail, "cudnnCreate fails: " + create,
                      "Check the CUDA section: a handle needs a working driver and GPU (or LibreDNN's host backend).");
        return false;
    }

    void level_two() {
        if (backends_.empty()) {
            section_->add("selftest.compute", Verdict::skip, "skipped: no GPU (NVIDIA's cuDNN computes only on a GPU)");
            return;
        }
        for (const Backend &backend : backends_) {
            for (const OpCheck &op : op_checks()) {
                const ChildOutcome outcome = run_in_child(
                    [&](ChildReport &report) {
                        return with_handle(report, path_, backend.gpu, options_.seed, [&](OpEnvironment &environment) {
                            const OpResult result = op.run(environment);
                            report.put("result", op_result_name(result.kind));
                            report.put("detail", result.detail);
                        });
                    },
                    kOpTimeout, backend.environment);
                report_op(std::string("selftest.") + op.id + "." + backend.name, op.title, backend.name, outcome);
            }
        }
    }

    void report_op(const std::string &id, const std::string &title, const std::string &backend,
                   const ChildOutcome &outcome) {
        const std::string what = title + " on " + backend;
        if (outcome.has("setup_error")) {
            section_->add(id, Verdict::fail, what + ": cannot start: " + outcome.get("setup_error"),
                          "Fix the problem named here (see the CUDA and installation sections).");
            return;
        }
        if (!outcome.has("result")) {
            section_->add(
                id, Verdict::fail, what + ": " + abnormal_end(outcome),
                "Report this with the output of cudnn-doctor --json: the library crashed or hung on a small problem.");
            return;
        }
        const std::string detail = outcome.get("detail");
        switch (op_result_kind(outcome.get("result"))) {
            case OpResult::Kind::pass: section_->add(id, Verdict::pass, what + ": " + detail); break;
            case OpResult::Kind::not_supported:
                section_->add(id, Verdict::warn, what + ": not provided by this library (" + detail + ")",
                              "None: the library does not implement it yet (calls to it return NOT_SUPPORTED).");
                break;
            case OpResult::Kind::mismatch:
                section_->add(id, Verdict::fail, what + ": wrong results: " + detail,
                              "Do not trust this library's results for this operation; report it with the seed (" +
                                  std::to_string(options_.seed) + ") and this line.");
                break;
            case OpResult::Kind::failed:
                section_->add(id, Verdict::fail, what + ": fails: " + detail,
                              "Check the installation's and CUDA checks above; the status names what went wrong.");
                break;
        }
    }

    // Runs the stem in a child on `backend`; false (after reporting) when it could not be timed.
    bool time_stem(const Backend &backend, int warmups, int runs, int timeout_ms, StemTiming *timing) {
        const ChildOutcome outcome = run_in_child(
            [&](ChildReport &report) {
                return with_handle(report, path_, backend.gpu, options_.seed, [&](OpEnvironment &environment) {
                    const StemTiming result = time_resnet_stem(environment, options_.stem_batch, warmups, runs);
                    report.put("result", op_result_name(result.result.kind));
                    report.put("detail", result.result.detail);
                    char numbers[128];
                    std::snprintf(numbers, sizeof numbers, "%.6f %.9g %.9g", result.milliseconds, result.output_sum,
                                  result.flops);
                    report.put("numbers", numbers);
                });
            },
            timeout_ms, backend.environment);
        const std::string id = "selftest.speed";
        const std::string what = "ResNet stem (batch " + std::to_string(options_.stem_batch) + ") on " + backend.name;
        if (!outcome.has("result")) {
            if (outcome.has("setup_error")) {
                section_->add(id, Verdict::fail, what + ": cannot start: " + outcome.get("setup_error"),
                              "Fix the problem named here (see the CUDA section).");
            } else {
                section_->add(id, Verdict::fail, what + ": " + abnormal_end(outcome),
                              "Report this with the output of cudnn-doctor --json.");
            }
            return false;
        }
        const OpResult::Kind kind = op_result_kind(outcome.get("result"));
        if (kind == OpResult::Kind::not_supported) {
            section_->add(id, Verdict::warn, what + ": not provided by this library (" + outcome.get("detail") + ")",
                          "Nothing to repair: the speed is measured once the library provides these operations.");
            return false;
        }
        if (kind != OpResult::Kind::pass) {
            section_->add(id, Verdict::fail, what + ": fails: " + outcome.get("detail"),
                          "Check the self-test's correctness results above.");
            return false;
        }
        std::sscanf(outcome.get("numbers").c_str(), "%lf %lf %lf", &timing->milliseconds, &timing->output_sum,
                    &timing->flops);
        return true;
    }

    void level_three() {
        if (!cuda_.gpu_usable()) {
            section_->add("selftest.speed", Verdict::skip, "skipped: no GPU");
            return;
        }
        const Backend *gpu = nullptr, *host = nullptr;
        for (const Backend &backend : backends_) {
            if (backend.gpu) gpu = &backend;
            if (backend.name == "host") host = &backend;
        }
        StemTiming on_gpu, on_host;
        if (gpu == nullptr || !time_stem(*gpu, 3, 10, kGpuStemTimeout, &on_gpu)) return;
        const double gflops = on_gpu.flops / (on_gpu.milliseconds * 1e6);
        section_->facts["stem_batch"] = std::to_string(options_.stem_batch);
        section_->facts["stem_gpu_ms"] = std::to_string(on_gpu.milliseconds);
        char rate[64];
        std::snprintf(rate, sizeof rate, "%.0f GFLOP/s", gflops);
        const std::string gpu_line = "ResNet stem (batch " + std::to_string(options_.stem_batch) +
                                     ", 7x7/2 conv, BN, ReLU, "
                                     "3x3/2 max pool): " +
                                     format_ms(on_gpu.milliseconds) + " on the GPU (" + rate + " in the convolution)";
        if (host == nullptr) {
            section_->add("selftest.speed", Verdict::info,
                          gpu_line + "; this library has no host backend to compare with");
            return;
        }
        if (!time_stem(*host, 0, 2, kHostStemTimeout, &on_host)) return;
        section_->facts["stem_host_ms"] = std::to_string(on_host.milliseconds);
        const double speedup = on_host.milliseconds / on_gpu.milliseconds;
        section_->facts["stem_speedup"] = std::to_string(speedup);
        char speed[64];
        std::snprintf(speed, sizeof speed, "%.1fx", speedup);
        const std::string line =
            gpu_line + ", " + format_ms(on_host.milliseconds) + " on the host: " + speed + " faster";
        // Both backends ran the same problem from the same seed: their pooled outputs must agree.
        const double scale = std::max(std::fabs(on_host.output_sum), 1.0);
        if (std::fabs(on_gpu.output_sum - on_host.output_sum) > 1e-3 * scale) {
            char sums[96];
            std::snprintf(sums, sizeof sums, "GPU %.6g, host %.6g", on_gpu.output_sum, on_host.output_sum);
            section_->add("selftest.speed", Verdict::fail,
                          line + ", but the backends' results differ (output sums: " + sums + ")",
                          "Do not trust the GPU backend's results; report this with the seed.");
            return;
        }
        if (speedup < options_.minimum_speedup) {
            char minimum[32];
            std::snprintf(minimum, sizeof minimum, "%.0fx", options_.minimum_speedup);
            section_->add("selftest.speed", Verdict::warn, line + " (below " + minimum + ")",
                          "The GPU path is barely faster than the CPU: check that the GPU is not shared or throttled "
                          "(nvidia-smi) and that LibreDNN was built for this GPU's architecture.");
            return;
        }
        section_->add("selftest.speed", Verdict::pass, line);
    }

    const InstallationFacts &target_;
    const CudaFacts &cuda_;
    const SelfTestOptions &options_;
    std::string path_;
    std::vector<Backend> backends_;
    Section *section_ = nullptr;
};

}  // namespace

void run_self_test(const InstallationFacts &target, const CudaFacts &cuda, const SelfTestOptions &options,
                   Report *report) {
    SelfTest(target, cuda, options, report).run();
}

}  // namespace librednn::doctor
