// Tests for epochs, GPU discovery, evaluator command lines and outcome decisions.
#include <gtest/gtest.h>

#include <csignal>

#include "config/config.hpp"
#include "harness.hpp"
#include "sched/devices.hpp"
#include "sched/epoch.hpp"
#include "sched/evaluator_command.hpp"
#include "sched/outcome.hpp"

namespace kbv::kbvd {
namespace {
using test::TempDir;
using test::write_file;
using namespace std::chrono;

TEST(Epoch, FloorOfElapsedOverLength) {
  EpochConfig c;
  c.length_days = 7;
  c.origin = system_clock::from_time_t(1767225600);  // 2026-01-01T00:00:00Z
  EXPECT_EQ(epoch_at(c, c.origin).number, 0);
  EXPECT_EQ(epoch_at(c, c.origin + hours(24 * 7) - seconds(1)).number, 0);
  EXPECT_EQ(epoch_at(c, c.origin + hours(24 * 7)).number, 1);
  EXPECT_EQ(epoch_at(c, c.origin + hours(24 * 7 * 10 + 5)).number, 10);
  EXPECT_EQ(epoch_at(c, c.origin - hours(1)).number, 0) << "before the origin is epoch 0";
  const auto span = epoch_at(c, c.origin + hours(24 * 8));
  EXPECT_DOUBLE_EQ(span.starts_at_unix_s, 1767225600.0 + 7 * 86400);
  EXPECT_DOUBLE_EQ(span.ends_at_unix_s, 1767225600.0 + 14 * 86400);
}

TEST(Epoch, OriginFromConfig) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "epoch:\n  origin: 2026-01-01\n  length_days: 1\n");
  const auto c = load_config(dir.path() / "k.yaml", {});
  EXPECT_EQ(epoch_at(c.epoch, system_clock::from_time_t(1767225600 + 86400 * 3 + 5)).number, 3);
}

TEST(Devices, CudaVisibleDevices) {
  TempDir dev;
  EXPECT_EQ(count_visible_gpus("0,1,2", dev.path()), 3);
  EXPECT_EQ(count_visible_gpus("GPU-abc,GPU-def", dev.path()), 2);
  EXPECT_EQ(count_visible_gpus("", dev.path()), 0);
  EXPECT_EQ(count_visible_gpus("-1", dev.path()), 0);
  EXPECT_EQ(count_visible_gpus("0,-1,2", dev.path()), 1) << "CUDA stops at the first invalid entry";
}

TEST(Devices, NvidiaDeviceNodes) {
  TempDir dev;
  for (const char* n : {"nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm", "nvidia-caps"})
    write_file(dev.path() / n, "");
  EXPECT_EQ(count_visible_gpus(nullptr, dev.path()), 2);
  DevicesConfig c;
  c.dev_dir = dev.path();
  const auto slots = discover_slots(c, nullptr);
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_EQ(slots[1].label, "1");
  EXPECT_EQ(slots[1].device, "cuda");
  EXPECT_EQ(*slots[1].gpu, 1);
}

TEST(Devices, HostWhenNoGpu) {
  TempDir dev;
  DevicesConfig c;
  c.dev_dir = dev.path();
  const auto slots = discover_slots(c, nullptr);
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_EQ(slots[0].device, "host");
  EXPECT_FALSE(slots[0].gpu.has_value());
  c.kind = DeviceKind::cuda;
  EXPECT_THROW(discover_slots(c, nullptr), ConfigError) << "cuda without a GPU is a config error";
  c.gpus = 4;
  EXPECT_EQ(discover_slots(c, nullptr).size(), 4u);
  c.kind = DeviceKind::host;
  EXPECT_EQ(discover_slots(c, "0,1").size(), 1u);
}

TEST(EvaluatorCommand, ColdAndSpare) {
  EvaluatorConfig e;
  e.command = "/opt/kbv";
  e.key_file = "/etc/kbv/key";
  e.shapes = "small";
  e.extra_args = {"--timeout-s", "60"};
  const DeviceSlot gpu{"1", "cuda", 1};
  Job job;
  job.stored_path = "/s/abc.so";
  job.problem = "relu";
  EXPECT_EQ(evaluator_argv(e, gpu, 5, &job),
            (std::vector<std::string>{"/opt/kbv", "eval", "/s/abc.so", "--json", "--device", "cuda",
                                      "--gpu", "1", "--problem", "relu", "--epoch", "5", "--key-file",
                                      "/etc/kbv/key", "--shapes", "small", "--timeout-s", "60"}));
  const DeviceSlot host{"host", "host", std::nullopt};
  EvaluatorConfig plain;
  plain.command = "/k";
  EXPECT_EQ(evaluator_argv(plain, host, 0, nullptr),
            (std::vector<std::string>{"/k", "eval", "--json", "--device", "host", "--epoch", "0",
                                      "--wait-for-candidate"}));
  plain.forbid = {"/var/lib/kbvd/kbvd.sqlite3", "/var/lib/kbvd/inbox"};
  EXPECT_EQ(evaluator_argv(plain, host, 0, nullptr),
            (std::vector<std::string>{"/k", "eval", "--json", "--device", "host", "--epoch", "0", "--forbid",
                                      "/var/lib/kbvd/kbvd.sqlite3", "--forbid", "/var/lib/kbvd/inbox",
                                      "--wait-for-candidate"}));
  EXPECT_EQ(spare_line(job), "/s/abc.so\t{\"problem\":\"relu\"}\n");
}

TEST(Outcome, PassWithFigures) {
  const auto o = decide_outcome(
      {0, std::nullopt, false, 0, 1.5},
      R"({"verdict":"pass","detail":"ok","hack_pattern":null,"flags":["calls_library"],)"
      R"("problem":{"level":2},"speedup":{"vs_fp32":3.0,"vs_tf32":0.9},"memory":{"ratio":1.2}})",
      "");
  EXPECT_EQ(o.verdict, "pass");
  EXPECT_EQ(o.worker_exit, "completed");
  EXPECT_EQ(o.problem_level, "2");
  EXPECT_EQ(o.flags, nlohmann::json::array({"calls_library"}));
  std::map<std::string, double> figures(o.figures.begin(), o.figures.end());
  EXPECT_DOUBLE_EQ(figures.at("speedup_vs_tf32"), 0.9);
  EXPECT_DOUBLE_EQ(figures.at("memory_ratio"), 1.2);
}

TEST(Outcome, ResultSchema2SpeedupsAreTheLibraryFiguresAndThePyTorchOnes) {
  const auto o = decide_outcome(
      {0, std::nullopt, false, 0, 1.5},
      R"({"schema_version":2,"verdict":"pass","problem":{"level":1},)"
      R"("speedup":{"vs_library_fp32":3.0,"vs_library_tf32":0.9,"vs_eager_tf32":7.5,"vs_eager_fp32":null,"vs_compiled_tf32":0.8}})",
      "");
  std::map<std::string, double> figures(o.figures.begin(), o.figures.end());
  EXPECT_DOUBLE_EQ(figures.at("speedup_vs_tf32"), 0.9);
  EXPECT_DOUBLE_EQ(figures.at("speedup_vs_fp32"), 3.0);
  EXPECT_DOUBLE_EQ(figures.at("speedup_vs_eager_tf32"), 7.5);
  EXPECT_DOUBLE_EQ(figures.at("speedup_vs_compiled_tf32"), 0.8);
  EXPECT_FALSE(figures.count("speedup_vs_eager_fp32"));  // null: no figure
}

TEST(Outcome, ExitCodesTimeoutsAndSignals) {
  EXPECT_EQ(decide_outcome({1, std::nullopt, false, 0, 1},
                           R"({"verdict":"hack_suspected","hack_pattern":"input_mutation"})", "")
                .hack_pattern, "input_mutation");
  const auto bad = decide_outcome({2, std::nullopt, false, 0, 1}, "", "x.so: not an ELF file; fix: …\n");
  EXPECT_EQ(bad.verdict, "bad_input");
  EXPECT_EQ(bad.detail, "x.so: not an ELF file; fix: …");
  EXPECT_EQ(decide_outcome({2, std::nullopt, false, 0, 1}, R"({"verdict":"load_error","error":"no"})", "")
                .verdict, "load_error");
  const auto timeout = decide_outcome({std::nullopt, SIGKILL, true, 30, 30}, "", "");
  EXPECT_EQ(timeout.verdict, "timeout");
  EXPECT_EQ(timeout.worker_exit, "timeout");
  const auto crash = decide_outcome({std::nullopt, SIGSEGV, false, 0, 1}, "", "boom");
  EXPECT_EQ(crash.verdict, "crash");
  EXPECT_NE(crash.detail.find("SIGSEGV"), std::string::npos) << crash.detail;
  EXPECT_EQ(decide_outcome({0, std::nullopt, false, 0, 1}, "not json", "").worker_exit, "protocol_error");
  EXPECT_EQ(decide_outcome({0, std::nullopt, false, 0, 1}, R"({"verdict":"great"})", "").verdict, "crash");
  EXPECT_EQ(decide_outcome({7, std::nullopt, false, 0, 1}, R"({"verdict":"pass"})", "").verdict, "crash");
  EXPECT_EQ(decide_outcome({0, std::nullopt, false, 0, 1}, "log line\n{\"verdict\":\"pass\"}\n", "").verdict,
            "pass") << "a stray line before the report is tolerated";
  // Exit 3: kbv eval's own set-up failed (a problem spec, the key); nothing was judged, and the
  // callers requeue rather than record (worker_exit exec_failed).
  const auto setup = decide_outcome({3, std::nullopt, false, 0, 1}, R"({"verdict":"bad_input","error":"relu.yaml: outputs missing"})",
                                    "kbv eval: problems/relu.yaml: field 'outputs': missing\n");
  EXPECT_EQ(setup.worker_exit, "exec_failed");
  EXPECT_NE(setup.detail.find("relu.yaml"), std::string::npos) << setup.detail;
}

// Review: a group member renamed its own .so over objects/<sha>.so; the evaluator judged those
// bytes and the verdict went to the victim's candidate. The bytes loaded must be the job's.
TEST(Outcome, AVerdictOnOtherBytesThanTheJobsIsACrash) {
  const std::string job = std::string(64, 'a');
  const auto pass = decide_outcome({0, std::nullopt, false, 0, 1},
                                   R"({"verdict":"pass","candidate":{"sha256":")" + std::string(64, 'b') + R"("},"speedup":{"vs_tf32":9.0}})", "");
  const Outcome replaced = checked_against_job(pass, job);
  EXPECT_EQ(replaced.verdict, "crash");
  EXPECT_EQ(replaced.worker_exit, "protocol_error");
  EXPECT_NE(replaced.detail.find("its stored object was replaced"), std::string::npos) << replaced.detail;
  EXPECT_TRUE(replaced.figures.empty()) << "no figure of other bytes";
  const auto own = decide_outcome({0, std::nullopt, false, 0, 1}, R"({"verdict":"pass","candidate":{"sha256":")" + job + R"("}})", "");
  EXPECT_EQ(checked_against_job(own, job).verdict, "pass");
  const auto unnamed = decide_outcome({2, std::nullopt, false, 0, 1}, "", "x.so: not an ELF file\n");
  EXPECT_EQ(checked_against_job(unnamed, job).verdict, "bad_input") << "no report names no bytes";
}

// A batch evaluator's line whose verdict is not a string is no verdict: a crash by protocol, and
// kbvd keeps running (it threw from the read handler before).
TEST(Outcome, ALineWithAVerdictOfAnotherTypeIsAProtocolError) {
  for (const char* line : {R"({"verdict":7})", R"({"verdict":null})", R"({"verdict":["pass"]})", R"([1,2])"}) {
    const Outcome outcome = decide_line_outcome(line, 1.0, 30.0);
    EXPECT_EQ(outcome.verdict, "crash") << line;
    EXPECT_EQ(outcome.worker_exit, "protocol_error") << line;
  }
}

}  // namespace
}  // namespace kbv::kbvd
