// Tests of the systemd units: `systemd-analyze verify` clean, and the properties kbvd relies on.
#include <gtest/gtest.h>

#include "harness.hpp"

namespace kbv::kbvd {
namespace {
namespace fs = std::filesystem;
using test::TempDir;

const fs::path kUnits = fs::path(KBV_SOURCE_DIR) / "systemd";

// verify checks that ExecStart's program exists: point the installed paths at built binaries
// (any executable will do for the sweep's kbv, which this test does not run).
void copy_with_binaries(const fs::path& to) {
  for (const char* unit : {"kbvd.service", "kbv-sweep.service", "kbv-sweep.timer"}) {
    auto text = test::read_file(kUnits / unit);
    for (const auto& [from, replacement] :
         {std::pair<std::string, std::string>{"/usr/local/bin/kbvd ", std::string(KBVD_BINARY) + " "},
          {"/usr/local/bin/kbv ", std::string(KBVCTL_BINARY) + " "}})
      for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + 1))
        text.replace(at, from.size(), replacement);
    test::write_file(to / unit, text);
  }
}

TEST(Systemd, AnalyzeVerifyIsClean) {
  TempDir dir;
  copy_with_binaries(dir.path());
  const auto r = test::run_command("cd " + dir.path().string() + " && " KBV_SYSTEMD_ANALYZE
                                   " verify --man=no ./kbvd.service ./kbv-sweep.service ./kbv-sweep.timer");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "") << r.output;
}

TEST(Systemd, DaemonUnitHasWhatKbvdNeeds) {
  const auto unit = test::read_file(kUnits / "kbvd.service");
  for (const char* line : {"Type=notify", "WatchdogSec=", "KillMode=mixed", "StateDirectory=kbvd",
                           "RuntimeDirectory=kbvd", "DevicePolicy=closed", "DeviceAllow=char-nvidia* rw",
                           "NoNewPrivileges=yes", "ProtectSystem=strict", "ExecReload=/bin/kill -HUP $MAINPID",
                           // kbvd exits 78 on a configuration error: no restart loop
                           "RestartPreventExitStatus=78",
                           // control clients are capped, and the cap is far below this
                           "LimitNOFILE=65536",
                           // each evaluator gets a cgroup of its own below the service's
                           "Delegate=yes"})
    EXPECT_NE(unit.find(std::string("\n") + line), std::string::npos) << line;
  EXPECT_EQ(unit.find("\nPrivateDevices=yes"), std::string::npos) << "it would hide /dev/nvidia*";
  EXPECT_EQ(unit.find("\nProtectControlGroups=yes"), std::string::npos) << "it would make the delegated cgroups read-only";
}

TEST(Systemd, ExposureIsRecordedInTheReadme) {
  TempDir dir;
  copy_with_binaries(dir.path());
  const auto r = test::run_command("cd " + dir.path().string() + " && " KBV_SYSTEMD_ANALYZE
                                   " security --offline=true ./kbvd.service | tail -n 1");
  const std::string label = "exposure level for kbvd.service: ";
  const auto at = r.output.find(label);
  ASSERT_NE(at, std::string::npos) << r.output;
  const auto figure = r.output.substr(at + label.size(), 3);
  EXPECT_NE(test::read_file(kUnits / "README.md").find("exposure " + figure), std::string::npos)
      << "systemd/README.md should state the current figure " << figure;
}

TEST(Systemd, SweepRunsTheSweepCommandNightly) {
  const auto service = test::read_file(kUnits / "kbv-sweep.service");
  EXPECT_NE(service.find("\nExecStart=/usr/local/bin/kbv sweep /etc/kbv/sweep.yaml"), std::string::npos);
  EXPECT_NE(service.find("\nType=oneshot"), std::string::npos);
  const auto timer = test::read_file(kUnits / "kbv-sweep.timer");
  EXPECT_NE(timer.find("\nOnCalendar=*-*-* 02:00:00"), std::string::npos);
  EXPECT_NE(timer.find("\nPersistent=true"), std::string::npos);
}

}  // namespace
}  // namespace kbv::kbvd
