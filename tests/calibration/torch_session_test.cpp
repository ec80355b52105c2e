// tests/calibration/torch_session_test.cpp — kbv-calibrate's Python session: every way PyTorch can be
// missing gives a message naming what and the fix (no Python, no torch, torch without CUDA, a
// package that is not there, a server that dies before or while answering, one that hangs), and
// with a torch on the CPU (KBV_TORCH_PYTHON) the real server measures a problem end to end and
// its reply makes a calibration entry. Tests needing torch skip, with the reason, without it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "calibration/problem_fingerprint.hpp"
#include "spec/catalog.hpp"
#include "torch_entry.hpp"
#include "torch_session.hpp"

namespace kbv::calibrate {
namespace {

const std::filesystem::path kPackage = KBV_TEST_TORCH_PACKAGE;  // bench/calibrate/python

class TempDir {
 public:
  TempDir() : path_(std::filesystem::temp_directory_path() / ("kbv-torch-session-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

// A kbv_torch package whose server is `source` (Python, standard library only).
void write_fake_package(const std::filesystem::path& dir, const std::string& source) {
  std::filesystem::create_directories(dir / "kbv_torch");
  std::ofstream(dir / "kbv_torch" / "__init__.py") << "";
  std::ofstream(dir / "kbv_torch" / "server.py") << source;
}

// An executable script that runs python3 without site-packages: a Python with no torch.
std::string python_without_torch(const std::filesystem::path& dir) {
  const std::filesystem::path script = dir / "python-without-torch";
  std::ofstream(script) << "#!/bin/sh\nexec python3 -S \"$@\"\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script.string();
}

TorchSessionOptions options(const std::string& python, const std::filesystem::path& package, const std::string& device = "0") {
  TorchSessionOptions out;
  out.python = python;
  out.package_dir = package;
  out.device = device;
  return out;
}

std::string unavailable_text(const TorchSessionOptions& options) {
  try {
    TorchSession session(options);
  } catch (const TorchUnavailable& error) {
    return error.what();
  }
  return "(it started)";
}

bool python_has_torch(const std::string& python) {
  const std::string command = python + " -c 'import torch' > /dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

TEST(TorchSession, APythonThatCannotBeRunIsNamedWithTheFix) {
  const std::string text = unavailable_text(options("/nonexistent/bin/python3", kPackage));
  EXPECT_NE(text.find("cannot run /nonexistent/bin/python3"), std::string::npos) << text;
  EXPECT_NE(text.find("--python PATH"), std::string::npos) << text;
}

TEST(TorchSession, APythonWithoutTorchIsNamedWithTheFix) {
  TempDir dir;
  const std::string text = unavailable_text(options(python_without_torch(dir.path()), kPackage));
  EXPECT_NE(text.find("cannot import torch"), std::string::npos) << text;
  EXPECT_NE(text.find("fix: pass --python PATH"), std::string::npos) << text;
}

TEST(TorchSession, ATorchWithoutCudaIsNamedWithTheFix) {
  if (!python_has_torch(KBV_TEST_TORCH_PYTHON)) GTEST_SKIP() << KBV_TEST_TORCH_PYTHON << " has no torch (configure with -DKBV_TORCH_PYTHON=PATH)";
  // No device visible to the server, whatever this machine has.
  ::setenv("CUDA_VISIBLE_DEVICES", "", 1);
  const std::string text = unavailable_text(options(KBV_TEST_TORCH_PYTHON, kPackage, "0"));
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_NE(text.find("has no usable CUDA device: torch.cuda.is_available() is False"), std::string::npos) << text;
  EXPECT_NE(text.find("fix: run on the GPU machine"), std::string::npos) << text;
}

TEST(TorchSession, AMissingPackageIsFoundNowhereAndSaysWhereItLooked) {
  try {
    (void)find_torch_package(std::filesystem::path("/nonexistent/share/kbv/torch"), "/nonexistent/bin");
    FAIL() << "found a package in /nonexistent";
  } catch (const TorchUnavailable& error) {
    EXPECT_NE(std::string(error.what()).find("not found in /nonexistent/share/kbv/torch"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("--torch-dir DIR"), std::string::npos);
  }
  EXPECT_EQ(find_torch_package(kPackage, "/nonexistent/bin"), std::filesystem::weakly_canonical(kPackage));
  EXPECT_EQ(find_torch_package(std::nullopt, "/nonexistent/bin"), std::filesystem::weakly_canonical(kPackage));  // the source tree's
}

TEST(TorchSession, AServerThatDiesBeforeHelloIsReportedWithItsStatus) {
  TempDir dir;
  write_fake_package(dir.path(), "import sys\nsys.stderr.write('kbv-test: failing on purpose\\n')\nsys.exit(3)\n");
  const std::string text = unavailable_text(options("python3", dir.path()));
  EXPECT_NE(text.find("exited with status 3 before saying hello"), std::string::npos) << text;
}

TEST(TorchSession, AServerThatDiesOrHangsWhileMeasuringIsReported) {
  TempDir dir;
  write_fake_package(dir.path(),
                     "import json, sys, time\n"
                     "print(json.dumps({'type': 'hello', 'torch_version': 'fake', 'error': None}), flush=True)\n"
                     "for line in sys.stdin:\n"
                     "    request = json.loads(line)\n"
                     "    if request.get('type') == 'exit': sys.exit(0)\n"
                     "    if request.get('hang'): time.sleep(60)\n"
                     "    sys.exit(5)\n");
  {
    TorchSession session(options("python3", dir.path()));
    EXPECT_EQ(session.hello().value("torch_version", ""), "fake");
    try {
      (void)session.request({{"type", "measure"}}, 30);
      FAIL() << "no error from a server that exited";
    } catch (const std::runtime_error& error) {
      EXPECT_NE(std::string(error.what()).find("exited with status 5 while answering"), std::string::npos) << error.what();
    }
  }
  TorchSession session(options("python3", dir.path()));
  try {
    (void)session.request({{"type", "measure"}, {"hang", true}}, 1);
    FAIL() << "no error from a server that hangs";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("said nothing for 1 s and was killed"), std::string::npos) << error.what();
  }
}

TEST(TorchSession, TheRealServerMeasuresAProblemOnTheCpuAndItsReplyMakesAnEntry) {
  if (!python_has_torch(KBV_TEST_TORCH_PYTHON)) GTEST_SKIP() << KBV_TEST_TORCH_PYTHON << " has no torch (configure with -DKBV_TORCH_PYTHON=PATH)";
  const ProblemCatalog catalog = ProblemCatalog::load(KBV_TEST_PROBLEMS_DIR);
  const ResolvedProblem problem = resolve_problem(catalog.get("gemm_bias_gelu"), "small");
  TorchSession session(options(KBV_TEST_TORCH_PYTHON, kPackage, "cpu"));
  EXPECT_FALSE(session.hello().value("torch_version", "").empty());
  // A short stop rule: the CPU is shared and the figures are not the point here.
  // Paced as kbv-calibrate paces it: the server's timer idles so its timed share stays at most 0.5.
  const nlohmann::json stop_rule = {{"min_measured_seconds", 0.01}, {"warm_up_wall_seconds", 0.01}, {"max_wall_seconds", 1.0}, {"max_duty", 0.5}};
  const nlohmann::json reply = session.request({{"type", "measure"}, {"problem", problem_description(problem)}, {"shape_set", "small"},
                                                {"baselines", {"eager_tf32", "eager_fp32"}}, {"stop_rule", stop_rule}},
                                               300);
  ASSERT_EQ(reply.value("type", ""), "measured") << reply.dump();
  EXPECT_EQ(reply["forward"], "graph");
  for (const char* name : {"eager_tf32", "eager_fp32"}) {
    EXPECT_GT(reply["results"][name]["median_s"].get<double>(), 0) << reply.dump();
    EXPECT_LE(reply["results"][name]["duty"].get<double>(), 0.5 * 1.001) << reply.dump();
  }

  const std::map<std::string, LibraryMeasurement> library = {{"tf32", {2e-5, 2.2e-5, "tf32 library\n", {}, {}}},
                                                             {"fp32", {4e-5, 4e-5, "fp32 library\n", {}, {}}}};
  const calibration::CalibrationEntry entry = make_entry(problem, library, reply, "2026-12-01T10:00:00Z");
  EXPECT_NEAR(entry.ratios.at("eager_tf32"), reply["results"]["eager_tf32"]["median_s"].get<double>() / 2.1e-5, 1e-12);
  EXPECT_NEAR(entry.ratios.at("eager_fp32"), reply["results"]["eager_fp32"]["median_s"].get<double>() / 4e-5, 1e-12);
  EXPECT_EQ(entry.errors.at("compiled_tf32"), "not asked for in this run");
  EXPECT_EQ(entry.spec_sha256, calibration::problem_fingerprint(problem));

  // A KernelBench problem without --kernelbench: skipped with the reason, and the session goes on.
  nlohmann::json imported = problem_description(problem);
  imported["source"] = "kernelbench";
  imported["kernelbench"] = {{"level", 2}, {"id", 99}, {"file", "99_Gemm_Bias_Gelu.py"}};
  const nlohmann::json skipped = session.request({{"type", "measure"}, {"problem", imported}, {"shape_set", "small"}, {"stop_rule", stop_rule}}, 300);
  ASSERT_EQ(skipped.value("type", ""), "skipped") << skipped.dump();
  EXPECT_NE(skipped["reason"].get<std::string>().find("fix: pass --kernelbench DIR"), std::string::npos);
  const calibration::CalibrationEntry none = make_entry(problem, library, skipped, "2026-12-01T10:00:00Z");
  EXPECT_EQ(none.forward, "none");
  EXPECT_TRUE(none.ratios.empty());
  EXPECT_NE(none.errors.at("eager_tf32").find("--kernelbench"), std::string::npos);
}

}  // namespace
}  // namespace kbv::calibrate
