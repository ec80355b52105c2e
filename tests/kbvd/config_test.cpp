// Tests for kbvd's configuration loader: defaults, the shipped file, overrides, and errors
// that name the file, the field and the fix.
#include <gtest/gtest.h>

#include "config/config.hpp"
#include "harness.hpp"

namespace kbv::kbvd {
namespace {
using test::TempDir;
using test::write_file;

std::string error_of(const std::filesystem::path& file, const std::vector<Override>& o = {}) {
  try {
    load_config(file, o);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, DefaultsWithoutAFile) {
  const auto c = load_config({}, {});
  EXPECT_EQ(c.store.state_dir, "/var/lib/kbvd");
  EXPECT_EQ(c.watch.dir, "/var/lib/kbvd/inbox");
  EXPECT_EQ(c.control.socket, "/run/kbvd/control.sock");
  EXPECT_EQ(c.metrics.listen, "127.0.0.1:9464");
  EXPECT_EQ(c.epoch.length_days, 7.0);
  EXPECT_EQ(c.epoch.origin_text, "2026-01-01");
  EXPECT_EQ(c.evaluator.command.filename(), "kbv");
  EXPECT_TRUE(c.evaluator.warm_spare);
  EXPECT_EQ(c.evaluator.batch, 8);
  EXPECT_EQ(c.devices.kind, DeviceKind::automatic);
  EXPECT_FALSE(c.devices.gpus.has_value());
}

TEST(Config, ShippedConfigIsValid) {
  const auto c = load_config(KBV_SOURCE_DIR "/configs/kbvd.yaml", {});
  EXPECT_EQ(c.metrics.listen.rfind("127.0.0.1:", 0), 0u) << "metrics stay on loopback by default";
  EXPECT_FALSE(c.watch.dir.empty());
}

TEST(Config, RelativePathsFollowTheFile) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "store:\n  state_dir: st\nwatch:\n  dir: in\n");
  const auto c = load_config(dir.path() / "k.yaml", {});
  EXPECT_EQ(c.store.state_dir, dir.path() / "st");
  EXPECT_EQ(c.watch.dir, dir.path() / "in");
}

TEST(Config, OverridesWinAndAreValidated) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "evaluator:\n  timeout_s: 100\n");
  const auto c = load_config(dir.path() / "k.yaml", {{"evaluator.timeout_s", "5", "--set"},
                                                     {"devices.gpus", "2", "--gpus"}});
  EXPECT_EQ(c.evaluator.timeout_s, 5.0);
  ASSERT_TRUE(c.devices.gpus.has_value());
  EXPECT_EQ(*c.devices.gpus, 2);
  const auto e = error_of(dir.path() / "k.yaml", {{"evaluator.timeout_s", "soon", "--set"}});
  EXPECT_NE(e.find("option --set evaluator.timeout_s=soon"), std::string::npos) << e;
  EXPECT_NE(e.find("fix:"), std::string::npos) << e;
  // A section only the override names is the override's error, not the file's.
  const auto typo = error_of(dir.path() / "k.yaml", {{"foo.bar", "1", "--set"}});
  EXPECT_NE(typo.find("option --set foo.bar=1: foo: unknown field"), std::string::npos) << typo;
  EXPECT_EQ(typo.find("k.yaml"), std::string::npos) << typo;
}

TEST(Config, ErrorsNameFileFieldAndFix) {
  TempDir dir;
  const auto f = dir.path() / "k.yaml";
  struct Case {
    std::string yaml, field;
  };
  const Case cases[] = {
      {"evaluator:\n  timeout_s: -3\n", "evaluator.timeout_s"},
      {"evaluator:\n  timout_s: 3\n", "evaluator.timout_s"},
      {"watch:\n  dir: [a, b]\n", "watch.dir"},
      {"epoch:\n  origin: yesterday\n", "epoch.origin"},
      {"epoch:\n  length_days: 0\n", "epoch.length_days"},
      {"epoch:\n  length_days: 1e-300\n", "epoch.length_days"},  // made the epoch INT64_MIN (red-team)
      {"log:\n  ? [a]\n  : 1\n", "log"},                          // a key that is a list aborted kbvd
      {"devices:\n  kind: tpu\n", "devices.kind"},
      {"devices:\n  gpus: many\n", "devices.gpus"},
      {"metrics:\n  listen: localhost\n", "metrics.listen"},
      {"control:\n  mode: rw\n", "control.mode"},
      {"store:\n  synchronous: sometimes\n", "store.synchronous"},
      {"evaluator:\n  warm_spare: maybe\n", "evaluator.warm_spare"},
      {"evaluator:\n  batch: 0\n", "evaluator.batch"},
      {"evaluator:\n  shapes: huge\n", "evaluator.shapes"},
      {"queue:\n  max_depth: 0\n", "queue.max_depth"},
      {"bogus:\n  x: 1\n", "bogus"},
  };
  for (const auto& c : cases) {
    write_file(f, c.yaml);
    const auto e = error_of(f);
    EXPECT_NE(e.find(f.string() + ":"), std::string::npos) << c.yaml << " -> " << e;
    EXPECT_NE(e.find(c.field + ":"), std::string::npos) << c.yaml << " -> " << e;
    EXPECT_NE(e.find("fix:"), std::string::npos) << c.yaml << " -> " << e;
  }
}

TEST(Config, ErrorsGiveTheLine) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "log:\n  level: info\nevaluator:\n  timeout_s: abc\n");
  const auto e = error_of(dir.path() / "k.yaml");
  EXPECT_NE(e.find("k.yaml:4"), std::string::npos) << e;
}

TEST(Config, SyntaxErrorsAndMissingFiles) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "watch: [\n");
  EXPECT_NE(error_of(dir.path() / "k.yaml").find("(syntax)"), std::string::npos);
  EXPECT_NE(error_of(dir.path() / "missing.yaml").find("does not exist"), std::string::npos);
}

TEST(Config, DuplicateKeysAreRefusedWithBothLines) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "log:\n  level: info\nevaluator:\n  timeout_s: 5\n  timeout_s: 9\n");
  auto e = error_of(dir.path() / "k.yaml");
  EXPECT_NE(e.find("k.yaml:5: evaluator.timeout_s: given twice (first at line 4)"), std::string::npos) << e;
  EXPECT_NE(e.find("fix:"), std::string::npos) << e;
  write_file(dir.path() / "k.yaml", "log:\n  level: info\nlog:\n  level: debug\n");
  e = error_of(dir.path() / "k.yaml");
  EXPECT_NE(e.find("k.yaml:3: log: given twice (first at line 1)"), std::string::npos) << e;
}

TEST(Config, AnUnterminatedQuoteDoesNotSwallowTheRest) {
  TempDir dir;
  for (const char* quote : {"\"", "'"}) {
    write_file(dir.path() / "k.yaml", std::string("log:\n  level: ") + quote + "info\nevaluator:\n  timeout_s: 5\n");
    const auto e = error_of(dir.path() / "k.yaml");
    EXPECT_NE(e.find("k.yaml:2: (syntax)"), std::string::npos) << quote << " -> " << e;
    EXPECT_NE(e.find("not closed"), std::string::npos) << e;
  }
  // Quotes that close, escaped quotes, apostrophes in plain values and comments are fine.
  write_file(dir.path() / "k.yaml",
             "control:\n  mode: \"0660\"  # it's octal\nevaluator:\n  extra_args: [\"--a\", 'it''s', \"q\\\"x\"]\n"
             "  shapes: small\nepoch:\n  origin: '2026-01-01'\n");
  EXPECT_EQ(error_of(dir.path() / "k.yaml"), "");
  const auto c = load_config(dir.path() / "k.yaml", {});
  EXPECT_EQ(c.evaluator.extra_args, (std::vector<std::string>{"--a", "it's", "q\"x"}));
}

TEST(Config, KeyFileMustExistKbvdNeverMakesOne) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "evaluator:\n  key_file: keys/missing/secret.key\n");
  auto e = error_of(dir.path() / "k.yaml");
  EXPECT_NE(e.find("k.yaml:2: evaluator.key_file:"), std::string::npos) << e;
  EXPECT_NE(e.find("nor does its folder"), std::string::npos) << e;
  EXPECT_NE(e.find("fix: create it once with `kbv keygen --key-file " + (dir.path() / "keys/missing/secret.key").string()),
            std::string::npos) << e;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "keys")) << "nothing is created";
  write_file(dir.path() / "k.yaml", "evaluator:\n  key_file: secret.key\n");
  e = error_of(dir.path() / "k.yaml");
  EXPECT_NE(e.find("does not exist;"), std::string::npos) << e;
  write_file(dir.path() / "secret.key", std::string(64, 'a') + "\n");
  EXPECT_EQ(load_config(dir.path() / "k.yaml", {}).evaluator.key_file, dir.path() / "secret.key");
}

TEST(Config, ControlAndSettleFields) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "control:\n  max_clients: 8\n  idle_timeout_s: 1.5\nwatch:\n  settle_s: 0\n");
  const auto c = load_config(dir.path() / "k.yaml", {});
  EXPECT_EQ(c.control.max_clients, 8);
  EXPECT_EQ(c.control.idle_timeout_s, 1.5);
  EXPECT_EQ(c.watch.settle_s, 0.0);
  EXPECT_EQ(load_config({}, {}).watch.settle_s, 2.0);
  write_file(dir.path() / "k.yaml", "control:\n  max_clients: 0\n");
  EXPECT_NE(error_of(dir.path() / "k.yaml").find("control.max_clients"), std::string::npos);
}

TEST(Config, EmptyMetricsListenTurnsTheExporterOff) {
  TempDir dir;
  write_file(dir.path() / "k.yaml", "metrics:\n  listen: \"\"\n");
  EXPECT_TRUE(load_config(dir.path() / "k.yaml", {}).metrics.listen.empty());
}

}  // namespace
}  // namespace kbv::kbvd
