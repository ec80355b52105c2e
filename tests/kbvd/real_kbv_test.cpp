// kbvd with the real evaluator (`kbv eval`, warm spare included) on the honest host example
// candidates and on a file that is no shared library.
#include <gtest/gtest.h>

#include "client/control_client.hpp"
#include "harness.hpp"

namespace kbv::kbvd {
namespace {
using namespace std::chrono_literals;
using test::KbvdProcess;
using test::TempDir;

TEST(KbvdWithKbv, HonestHostCandidatesPass) {
  const std::filesystem::path dir_of_candidates = KBV_HOST_CANDIDATE_DIR;
  const auto relu = dir_of_candidates / "libhost_relu.so";
  const auto gelu = dir_of_candidates / "libhost_gelu.so";
  ASSERT_TRUE(std::filesystem::exists(relu)) << relu << " (build target host_relu)";
  ASSERT_TRUE(std::filesystem::exists(gelu)) << gelu << " (build target host_gelu)";
  TempDir dir;
  const auto key = dir.path() / "secret.key";
  ASSERT_EQ(test::run_command(std::string(KBV_BINARY) + " keygen --key-file " + key.string()).status, 0);
  KbvdProcess kbvd(dir.path(), "evaluator:\n  command: " KBV_BINARY "\n  timeout_s: 120\n  key_file: " +
                                   key.string() + "\n");
  kbvd.start();
  const auto relu_sha = control::submit(kbvd.socket(), relu)["sha256"].get<std::string>();
  test::write_file(dir.path() / "gelu.yaml", "model: example\nproblem: gelu\n");
  control::submit(kbvd.socket(), gelu, dir.path() / "gelu.yaml");
  test::write_file(dir.path() / "junk.so", "this is not an ELF shared object");
  control::submit(kbvd.socket(), dir.path() / "junk.so");
  ASSERT_TRUE(kbvd.wait_done(3, 110s)) << test::read_file(kbvd.log_file());

  const auto epoch = kbvd.status()["epoch"];
  for (const auto& row : kbvd.results()) {
    const auto shown = control::results_show(kbvd.socket(), row["sha256"]);
    const auto& report = shown["evaluations"].back()["report"];
    const auto name = row["name"].get<std::string>();
    if (name == "junk.so") {
      const auto verdict = row["evaluation"]["verdict"].get<std::string>();
      EXPECT_TRUE(verdict == "bad_input" || verdict == "load_error") << shown.dump(2);
      continue;
    }
    EXPECT_EQ(row["evaluation"]["verdict"], "pass") << shown.dump(2);
    ASSERT_TRUE(report.is_object()) << shown.dump(2);
    EXPECT_EQ(report["candidate"]["sha256"], row["sha256"]) << "kbv eval saw the same bytes";
    EXPECT_EQ(report["epoch"], epoch);
    EXPECT_EQ(report["candidate"]["device"], "host");
  }
  EXPECT_EQ(control::results_show(kbvd.socket(), relu_sha)["evaluation"]["verdict"], "pass");
}

}  // namespace
}  // namespace kbv::kbvd
