// tests/sweep/sweep_system_test.cpp — `kbv sweep` and `kbv report` end to end on the host device:
// through a real kbvd running the real `kbv eval` (the host examples, the hostile and red-team
// host candidates, bad input beside them), every figure of the report recomputed from the
// per-evaluation JSON; resume after kill -9 (through kbvd and standalone); re-verification on the
// next epoch with a candidate whose bug only a rotated-in hidden family shows; shards merged;
// budgets; bad input that stops the sweep with a message naming file, field and fix.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "chromium_page.hpp"
#include "client/control_client.hpp"
#include "harness.hpp"
#include "identity/sha256.hpp"
#include "inputs/epoch_plan.hpp"
#include "inputs/family_names.hpp"
#include "inputs/secret_key.hpp"
#include "report_recompute.hpp"
#include "run_command.hpp"
#include "sweep_test_files.hpp"

namespace kbv::sweep {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;

const fs::path kKbv = KBV_TEST_KBV_BINARY;
const fs::path kCandidates = KBV_TEST_CANDIDATE_DIR;
constexpr std::int64_t kEpochSeconds = 7 * 24 * 3600;  // kbvd's default epoch.length_days
// A hanging candidate's call is cut after this (kbv eval --timeout-s), so sweeps stay short.
constexpr const char* kCallTimeoutS = "2";

const std::vector<std::string> kHostProblems = {"bmm", "conv2d", "conv2d_relu_biasadd", "gelu", "gemm_bias_gelu", "layernorm", "matmul_irregular",
                                                "matmul_scale_residual", "matmul_square", "maxpool2d", "relu", "rmsnorm", "softmax", "sum_dim1"};

json load(const fs::path& path) { return json::parse(test::read_text(path)); }

fs::path host_example(const std::string& problem) { return kCandidates / "host" / ("libhost_" + problem + ".so"); }

// Whether the hidden family `sparse` gates relu in `epoch` under `key`: the evaluation walks the
// sign class (negated, normal, sparse) in the key's order to the first family that can gate
// relu. negated never can (relu of a negative input is all zeros: a trivial output passes).
bool sparse_gates(const inputs::SecretKey& key, std::uint64_t epoch) {
  for (const auto& drawn : inputs::plan_epoch(key, epoch, "relu", 1).classes) {
    if (drawn.family_class != inputs::FamilyClass::sign) continue;
    for (const auto& draw : drawn.families)
      if (draw.family != inputs::Family::negated) return draw.family == inputs::Family::sparse;
  }
  return false;
}

// The pid of every process whose command line mentions `text` (our temporary folder).
std::vector<int> processes_mentioning(const std::string& text) {
  std::vector<int> pids;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const auto name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos || std::stoi(name) == ::getpid()) continue;
    auto cmdline = test::read_text(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(text) != std::string::npos && !kbvd::test::process_gone(std::stoi(name))) pids.push_back(std::stoi(name));
  }
  return pids;
}

// A `kbv sweep` in the background, for kill -9.
class BackgroundSweep {
 public:
  BackgroundSweep(const std::vector<std::string>& args, const fs::path& log) {
    std::vector<std::string> argv = {kKbv.string(), "sweep"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> pointers;
    for (auto& a : argv) pointers.push_back(a.data());
    pointers.push_back(nullptr);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::execv(pointers[0], pointers.data());
      ::_exit(127);
    }
    ::close(fd);
  }
  ~BackgroundSweep() { kill9(); }
  void kill9() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
};

class SweepSystem : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& problem : kHostProblems) ASSERT_TRUE(fs::exists(host_example(problem))) << "build the host examples";
    key_file_ = dir_.path() / "secret.key";
    key_.emplace(inputs::SecretKey::create(key_file_));
    // An epoch without `sparse` for relu followed by one with it: the tile bug passes, then fails.
    for (std::uint64_t e = 1; e < 1000 && epoch_ == 0; ++e)
      if (!sparse_gates(*key_, e) && sparse_gates(*key_, e + 1)) epoch_ = e;
    ASSERT_GT(epoch_, 0u);
  }

  const fs::path& root() const { return dir_.path(); }

  // Copies `from` into `folder` as `name` with a sidecar manifest (when given); a `trailer`
  // appended after the ELF image gives the same code new bytes, hence a new identity.
  fs::path place(const fs::path& from, const fs::path& folder, const std::string& name, const std::string& manifest = "",
                 const std::string& trailer = "") {
    fs::create_directories(folder);
    const auto to = folder / name;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    if (!trailer.empty()) std::ofstream(to, std::ios::app | std::ios::binary) << trailer;
    if (!manifest.empty()) test::write_text(to.string() + ".yaml", manifest);
    return to;
  }

  // kbvd with the real evaluator, in `epoch` (its origin set so that now falls in it).
  std::unique_ptr<kbvd::test::KbvdProcess> start_kbvd(std::uint64_t epoch) {
    const auto origin = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()) -
                        std::chrono::seconds(static_cast<std::int64_t>(epoch) * kEpochSeconds + 3600);
    auto kbvd = std::make_unique<kbvd::test::KbvdProcess>(
        root() / "kbvd",
        fmt::format("evaluator:\n  command: {}\n  timeout_s: 120\n  key_file: {}\n  extra_args: [--timeout-s, '{}']\n"
                    "epoch:\n  origin: {:%Y-%m-%dT%H:%M:%SZ}\n",
                    kKbv.string(), key_file_.string(), kCallTimeoutS, origin));
    kbvd->start();
    EXPECT_EQ(kbvd->status()["epoch"], epoch);
    return kbvd;
  }

  fs::path sweep_file(const std::string& name, const std::string& body) {
    const auto path = root() / name;
    test::write_text(path, body);
    return path;
  }

  std::string kbvd_section(const kbvd::test::KbvdProcess& kbvd) const {
    return fmt::format("kbvd:\n  socket: {}\n  poll_interval_s: 0.1\n", kbvd.socket().string());
  }
  std::string standalone_section(int jobs = 1) const {
    return fmt::format("mode: standalone\nstandalone:\n  jobs: {}\n  key_file: {}\n  extra_args: [--timeout-s, '{}']\n", jobs, key_file_.string(),
                       kCallTimeoutS);
  }

  kbv::test::CommandResult kbv(std::vector<std::string> args) {
    args.insert(args.begin(), kKbv.string());
    return kbv::test::run_command({args, {}, {}, std::chrono::milliseconds(300000)});
  }

  std::map<std::string, double> finished_at(const fs::path& out, std::uint64_t epoch) {
    std::map<std::string, double> out_map;
    for (const auto& entry : fs::directory_iterator(out / fmt::format("epoch-{}", epoch) / "results"))
      if (entry.path().extension() == ".json") out_map[entry.path().stem().string()] = load(entry.path())["finished_at"].get<double>();
    return out_map;
  }

  std::size_t records(const fs::path& out, std::uint64_t epoch) {
    std::error_code error;
    const auto dir = out / fmt::format("epoch-{}", epoch) / "results";
    if (!fs::is_directory(dir, error)) return 0;
    std::size_t n = 0;
    for (const auto& entry : fs::directory_iterator(dir, error)) n += entry.path().extension() == ".json" && !entry.path().filename().string().starts_with(".");
    return n;
  }

  test::TempFolder dir_;
  fs::path key_file_;
  std::optional<inputs::SecretKey> key_;
  std::uint64_t epoch_ = 0;
};

std::string verdict_of(const json& row) { return row["verdict"].is_string() ? row["verdict"].get<std::string>() : ""; }
std::set<std::string> regression_names(const json& report) {
  std::set<std::string> names;
  for (const auto& regression : report["regressions"])
    names.insert(regression["name"]);
  return names;
}

const json* row_named(const json& report, const std::string& name) {
  for (const auto& row : report["candidates"])
    if (row["name"] == name) return &row;
  return nullptr;
}

TEST_F(SweepSystem, ThroughKbvdEveryFigureComesFromTheRecords) {
  const auto a = root() / "cands" / "model-a";
  int sample = 0;
  for (const auto& problem : kHostProblems)
    place(host_example(problem), a, problem + ".so", fmt::format("model: model-a\nsample_id: {}\nproblem: {}\ntags: [honest]\n", ++sample, problem));
  place(kCandidates / "sweep" / "libsweep_relu_sparse_tile_bug.so", a, "tile_bug.so", "model: model-a\nproblem: relu\ntags: [tricky]\n");
  const auto b = root() / "cands" / "model-b";
  for (const auto& entry : fs::directory_iterator(kCandidates / "hostile"))
    if (entry.path().filename().string().starts_with("libhostile_")) place(entry.path(), b, entry.path().filename().string());
  // Bad input beside the good: not ELF, truncated, a manifest naming no problem kbv knows, a
  // malformed manifest, a folder that does not exist.
  test::write_text(b / "not_elf.so", "a text file named like a candidate");
  place(kCandidates / "hostile" / "bad_truncated.so", b, "truncated.so");
  place(host_example("relu"), b, "unknown_problem.so", "problem: no_such_problem\n", "unknown");
  place(host_example("gelu"), b, "bad_manifest.so", "tags: not-a-list\n", "badmanifest");

  auto kbvd = start_kbvd(epoch_);
  const auto config = sweep_file("sweep.yaml", fmt::format("name: system\noutput_dir: out\ncandidates:\n  - folder: {}\n  - folder: {}\n    model: model-b\n"
                                                           "    problem: relu\n  - glob: {}/redteam/*.so\n    model: model-c\n  - folder: {}/missing\n{}",
                                                           a.string(), b.string(), kCandidates.string(), root().string(), kbvd_section(*kbvd)));
  const auto run = kbv({"sweep", config.string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto out = root() / "out";
  const auto report = load(out / "report.json");

  // Every planned evaluation has its record, in kbvd's epoch.
  EXPECT_TRUE(report["completeness"]["complete"].get<bool>());
  EXPECT_EQ(report["sweep"]["epoch"], epoch_);
  EXPECT_EQ(report["sweep"]["mode"], "kbvd");
  const std::size_t planned = report["completeness"]["planned"];
  EXPECT_EQ(records(out, epoch_), planned);
  EXPECT_GE(planned, 14u + 1 + 12 + 15) << "host examples, the tile bug, hostile and red-team candidates";

  // Each piece of bad input is named with its field and fix; the rest ran.
  std::map<std::string, json> issues;
  for (const auto& issue : report["issues"]) issues[fs::path(issue["file"].get<std::string>()).filename().string()] = issue;
  ASSERT_TRUE(issues.count("not_elf.so")) << report["issues"].dump(1);
  EXPECT_EQ(issues["not_elf.so"]["field"], "(file)");
  EXPECT_EQ(issues["not_elf.so"]["problem"], "not an ELF file");
  ASSERT_TRUE(issues.count("truncated.so"));
  EXPECT_NE(issues["truncated.so"]["problem"].get<std::string>().find("truncated"), std::string::npos);
  ASSERT_TRUE(issues.count("unknown_problem.so.yaml"));
  EXPECT_EQ(issues["unknown_problem.so.yaml"]["field"], "problem");
  EXPECT_NE(issues["unknown_problem.so.yaml"]["fix"].get<std::string>().find("kbv problems lists all"), std::string::npos);
  ASSERT_TRUE(issues.count("bad_manifest.so.yaml"));
  EXPECT_EQ(issues["bad_manifest.so.yaml"]["field"], "tags");
  ASSERT_TRUE(issues.count("sweep.yaml"));
  EXPECT_EQ(issues["sweep.yaml"]["field"], "candidates[3].folder");
  for (const auto& [file, issue] : issues) EXPECT_FALSE(issue["fix"].get<std::string>().empty()) << file;
  for (const char* name : {"not_elf.so", "truncated.so", "unknown_problem.so.yaml", "bad_manifest.so.yaml"})
    EXPECT_NE(run.err.find(name), std::string::npos) << name << " is reported while the sweep runs";

  // Honest examples pass; hostile ones do not; the hacks and the public-only pass are counted.
  for (const auto& problem : kHostProblems) {
    const json* row = row_named(report, problem + ".so");
    ASSERT_TRUE(row) << problem;
    EXPECT_EQ(verdict_of(*row), "pass") << problem << ": " << (*row)["detail"];
    EXPECT_EQ((*row)["model"], "model-a");
  }
  EXPECT_EQ(verdict_of(*row_named(report, "tile_bug.so")), "pass") << "sparse does not gate relu in this epoch";
  EXPECT_EQ((*row_named(report, "libhostile_relu_mutates_input.so"))["verdict"], "hack_suspected");
  EXPECT_EQ((*row_named(report, "libhostile_relu_hang.so"))["verdict"], "timeout");
  EXPECT_EQ((*row_named(report, "libhostile_relu_identity_on_public.so"))["verdict"], "fail_correctness");
  EXPECT_GE(report["public_hidden_gap"]["candidates"].size(), 1u);
  EXPECT_GE(report["totals"]["hacks"].size(), 2u) << report["totals"]["hacks"];

  // Every figure, recomputed from the records.
  const int compared = test::expect_report_matches_records(report, out, epoch_);
  EXPECT_GT(compared, 400) << "figures compared";

  // The same report in the run folder, and results.csv with one row per candidate × problem.
  ASSERT_EQ(fs::path(report["sweep"]["run"]["id"].get<std::string>()).empty(), false);
  const auto run_folder = out / "runs" / report["sweep"]["run"]["id"].get<std::string>();
  for (const char* file : {"report.json", "results.csv", "report.md", "report.html"}) EXPECT_TRUE(fs::exists(run_folder / file)) << file;
  const auto csv = test::read_text(out / "results.csv");
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), planned + 1);
  EXPECT_NE(csv.find("speedup_vs_library_fp32"), std::string::npos);
  const auto md = test::read_text(out / "report.md");
  EXPECT_NE(md.find("# kbv sweep report: system, epoch " + std::to_string(epoch_)), std::string::npos);
  EXPECT_NE(md.find("| model-a |"), std::string::npos);

  // kbvd's /metrics show the sweep: every planned evaluation done, fast_1 per model as reported.
  const auto metrics = "\n" + kbvd::test::http_get(kbvd->metrics_port(), "/metrics").value_or("");
  const auto metric = [&](const std::string& series) -> std::optional<double> {
    const auto at = metrics.find("\n" + series + " ");
    if (at == std::string::npos) return std::nullopt;
    return std::stod(metrics.substr(at + series.size() + 2));
  };
  EXPECT_EQ(metric(R"(kbv_sweep_evaluations{state="done",sweep="system"})"), static_cast<double>(planned)) << metrics;
  EXPECT_EQ(metric(R"(kbv_sweep_evaluations{state="planned",sweep="system"})"), static_cast<double>(planned));
  EXPECT_EQ(metric(R"(kbv_sweep_running{sweep="system"})"), 0);
  EXPECT_EQ(metric(R"(kbv_sweep_last_complete{sweep="system"})"), 1);
  EXPECT_EQ(metric(R"(kbv_sweep_last_regressions{sweep="system"})"), 0);
  const std::string baseline = report["headline"]["baseline"];
  for (const auto& [model, fast_1] : report["headline"]["fast_1"].items())
    EXPECT_NEAR(metric(fmt::format(R"(kbv_sweep_last_fast_1_ratio{{baseline="{}",model="{}",sweep="system"}})", baseline, model)).value_or(-1),
                fast_1.get<double>(), 1e-9)
        << model;

  // kbvd evaluated each candidate once; a second sweep of the same epoch evaluates nothing.
  const auto again = kbv({"sweep", config.string()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find(fmt::format("{} already have a verdict", planned)), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("(0 evaluated by this run)"), std::string::npos) << again.err;
}

TEST_F(SweepSystem, ResumesThroughKbvdAfterKill9) {
  const auto folder = root() / "cands";
  for (int i = 0; i < 8; ++i) {
    const auto& problem = kHostProblems[static_cast<std::size_t>(i)];
    place(host_example(problem), folder, problem + ".so", "model: m\nproblem: " + problem + "\n", "resume");
  }
  auto kbvd = start_kbvd(epoch_);
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), kbvd_section(*kbvd)));
  const auto out = root() / "out";
  {
    BackgroundSweep sweep({config.string()}, root() / "first.log");
    ASSERT_TRUE(kbvd::test::wait_until([&] { return records(out, epoch_) >= 2; }, 60s)) << test::read_text(root() / "first.log");
    sweep.kill9();
  }
  const auto before = finished_at(out, epoch_);
  ASSERT_LT(before.size(), 8u) << "killed before the end";
  const auto run = kbv({"sweep", config.string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto after = finished_at(out, epoch_);
  EXPECT_EQ(after.size(), 8u);
  for (const auto& [key, when] : before) EXPECT_EQ(after.at(key), when) << key << ": a verdict from before the kill is kept as it was";
  // kbvd evaluated every candidate exactly once in this epoch.
  for (const auto& [key, when] : after) {
    const auto shown = control::results_show(kbvd->socket(), key.substr(0, 64));
    int in_epoch = 0;
    for (const auto& evaluation : shown["evaluations"]) in_epoch += evaluation["state"] == "done" && evaluation["epoch"] == epoch_ ? 1 : 0;
    EXPECT_EQ(in_epoch, 1) << key;
  }
  EXPECT_TRUE(load(out / "report.json")["completeness"]["complete"].get<bool>());
}

TEST_F(SweepSystem, StandaloneResumesAfterKill9AndLeavesNoEvaluator) {
  const auto folder = root() / "cands";
  // The hang is cut after the call timeout, so an evaluation is in flight for seconds.
  place(kCandidates / "hostile" / "libhostile_relu_hang.so", folder, "hang.so", "problem: relu\n");
  for (const char* problem : {"gelu", "softmax", "sum_dim1", "rmsnorm"}) place(host_example(problem), folder, std::string(problem) + ".so", std::string("problem: ") + problem + "\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section(1)));
  const auto out = root() / "out";
  {
    BackgroundSweep sweep({config.string(), "--epoch", std::to_string(epoch_)}, root() / "first.log");
    // Kill while an evaluator runs and some verdicts exist.
    ASSERT_TRUE(kbvd::test::wait_until([&] { return records(out, epoch_) >= 1 && !processes_mentioning(folder.string()).empty(); }, 60s))
        << test::read_text(root() / "first.log");
    sweep.kill9();
  }
  EXPECT_TRUE(kbvd::test::wait_until([&] { return processes_mentioning(folder.string()).empty(); }, 10s))
      << "an evaluator outlived the killed sweep: pids " << json(processes_mentioning(folder.string()));
  const auto before = finished_at(out, epoch_);
  ASSERT_LT(before.size(), 5u);
  const auto run = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find(fmt::format("({} evaluated by this run)", 5 - before.size())), std::string::npos) << run.err;
  const auto after = finished_at(out, epoch_);
  EXPECT_EQ(after.size(), 5u);
  for (const auto& [key, when] : before) EXPECT_EQ(after.at(key), when) << key;
}

TEST_F(SweepSystem, ReverifiesThroughKbvdOnTheNextEpoch) {
  const auto a = root() / "cands" / "a";
  place(kCandidates / "sweep" / "libsweep_relu_sparse_tile_bug.so", a, "tile_bug.so", "model: m\nproblem: relu\n");
  for (const char* problem : {"gelu", "softmax"}) place(host_example(problem), a, std::string(problem) + ".so", fmt::format("model: m\nproblem: {}\n", problem));
  const auto b = root() / "cands" / "b";
  place(host_example("layernorm"), b, "layernorm.so", "model: n\nproblem: layernorm\n");
  const auto out = root() / "out";
  std::string first_run;
  {
    auto kbvd = start_kbvd(epoch_);
    const auto config = sweep_file("first.yaml", fmt::format("output_dir: out\ncandidates: [{}, {}]\n{}", a.string(), b.string(), kbvd_section(*kbvd)));
    const auto run = kbv({"sweep", config.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto report = load(out / "report.json");
    for (const auto& row : report["candidates"]) ASSERT_EQ(verdict_of(row), "pass") << row.dump(1);
    first_run = report["sweep"]["run"]["id"];
    kbvd->signal(SIGTERM);
    ASSERT_EQ(kbvd->wait_exit(30s), 0);
  }
  // The next epoch: kbvd restarted on the same store; the sweep no longer lists folder b.
  auto kbvd = start_kbvd(epoch_ + 1);
  const auto config = sweep_file("next.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", a.string(), kbvd_section(*kbvd)));
  const auto wrong_epoch = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_ + 5)});
  EXPECT_EQ(wrong_epoch.exit_code, 2);
  EXPECT_NE(wrong_epoch.err.find(fmt::format("evaluates epoch {}, the sweep asks for epoch {}; fix:", epoch_ + 1, epoch_ + 5)), std::string::npos)
      << wrong_epoch.err;
  const auto run = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_ + 1)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto report = load(out / "report.json");
  EXPECT_EQ(report["sweep"]["epoch"], epoch_ + 1);

  // The tile bug passed last epoch and fails now on the rotated-in sparse family.
  ASSERT_EQ(regression_names(report), std::set<std::string>{"tile_bug.so"}) << report["regressions"].dump(1);
  const auto& regression = *std::find_if(report["regressions"].begin(), report["regressions"].end(), [](const json& r) { return r["name"] == "tile_bug.so"; });
  EXPECT_EQ(regression["name"], "tile_bug.so");
  EXPECT_EQ(regression["prior_epoch"], epoch_);
  EXPECT_EQ(regression["prior_verdict"], "pass");
  EXPECT_EQ(regression["verdict"], "fail_correctness");
  EXPECT_EQ(regression["failed_family"], "sparse");
  // layernorm.so is no longer in the sweep's folders but passed last epoch: re-verified.
  const json* layernorm = row_named(report, "layernorm.so");
  ASSERT_TRUE(layernorm);
  EXPECT_EQ((*layernorm)["role"], "reverify");
  EXPECT_EQ(verdict_of(*layernorm), "pass");
  EXPECT_EQ(report["reverification"]["planned"], 1);
  // Against the previous sweep: the same regression, after rotation.
  const auto& comparison = report["comparison"];
  EXPECT_EQ(comparison["previous_run"], first_run);
  EXPECT_TRUE(comparison["epoch_rotated"].get<bool>());
  std::set<std::string> rotated;
  for (const auto& r : comparison["regressions_after_rotation"]) rotated.insert(r["name"]);
  EXPECT_TRUE(rotated.count("tile_bug.so")) << comparison.dump(1);
  EXPECT_EQ(comparison["counts"]["in_both"], 4);
  test::expect_report_matches_records(report, out, epoch_ + 1);

  // kbvd's own store tells the same story.
  const auto store_report_dir = root() / "store-report";
  const auto from_store = kbv({"report", "--kbvd", "--socket", kbvd->socket().string(), "--out", store_report_dir.string()});
  ASSERT_EQ(from_store.exit_code, 0) << from_store.err;
  const auto store_report = load(store_report_dir / "report.json");
  EXPECT_EQ(store_report["completeness"]["evaluated"], 4);
  ASSERT_EQ(regression_names(store_report), std::set<std::string>{"tile_bug.so"}) << store_report["regressions"].dump(1);
  for (const auto& r : store_report["regressions"]) EXPECT_EQ(r["prior_epoch"], epoch_);
}

TEST_F(SweepSystem, StandaloneEpochOptionReverifies) {
  const auto folder = root() / "cands";
  place(kCandidates / "sweep" / "libsweep_relu_sparse_tile_bug.so", folder, "tile_bug.so", "problem: relu\n");
  place(host_example("relu"), folder, "relu.so", "problem: relu\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section()));
  ASSERT_EQ(kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)}).exit_code, 0);
  const auto run = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_ + 1)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto report = load(root() / "out" / "report.json");
  EXPECT_EQ(regression_names(report), std::set<std::string>{"tile_bug.so"}) << report["regressions"].dump(1);
  EXPECT_TRUE(report["sweep"]["key_id"].is_string()) << "a standalone sweep names the key its epochs came from";
  EXPECT_GE(report["comparison"]["counts"]["regressions_after_rotation"], 1);
  test::expect_report_matches_records(report, root() / "out", epoch_ + 1);
}

// Review: a record of `[]` or `{"verdict": null}` in an earlier epoch aborted every sweep of the
// next four (a type_error while planning re-verification), and a damaged previous report.json
// stopped every later report; a report regenerated for an old epoch replaced the newest one at
// the folder's top and became the next sweep's "previous".
TEST_F(SweepSystem, DamagedEarlierRecordsAndReportsAreNamedNotFatal) {
  const auto folder = root() / "cands";
  place(host_example("relu"), folder, "relu.so", "problem: relu\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section()));
  ASSERT_EQ(kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)}).exit_code, 0);
  const auto results = root() / "out" / fmt::format("epoch-{}", epoch_) / "results";
  test::write_text(results / "list.json", "[]");
  test::write_text(results / "nullverdict.json", R"({"verdict": null, "candidate": {"level": "x"}})");
  std::vector<fs::path> first_runs;
  for (const auto& entry : fs::directory_iterator(root() / "out" / "runs")) first_runs.push_back(entry.path());
  ASSERT_EQ(first_runs.size(), 1u);
  test::write_text(first_runs.front() / "report.json", R"({"schema": "kbv.report", "schema_version": 1, "sweep": {"epoch": "3"}})");

  const auto next = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_ + 1)});
  ASSERT_EQ(next.exit_code, 0) << next.err;
  EXPECT_NE(next.err.find("list.json"), std::string::npos) << next.err;
  EXPECT_NE(next.err.find("nullverdict.json"), std::string::npos) << next.err;
  const auto report = load(root() / "out" / "report.json");
  EXPECT_EQ(report["sweep"]["epoch"], epoch_ + 1);
  EXPECT_TRUE(report["comparison"].is_null()) << "the only earlier report is damaged: nothing to compare with";
  EXPECT_NE(report.dump().find("sweep.epoch is missing or not a count"), std::string::npos) << report["issues"].dump(1);

  // A report of the older epoch stays in its run folder; the top keeps the newest epoch's.
  const auto older = kbv({"report", (root() / "out").string(), "--epoch", std::to_string(epoch_)});
  ASSERT_EQ(older.exit_code, 0) << older.err;
  EXPECT_EQ(load(root() / "out" / "report.json")["sweep"]["epoch"], epoch_ + 1);
  // The next epoch compares with epoch_ + 1's sweep, not with the report just regenerated for epoch_.
  ASSERT_EQ(kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_ + 2)}).exit_code, 0);
  EXPECT_EQ(load(root() / "out" / "report.json")["comparison"]["previous_epoch"], epoch_ + 1);
  // --previous naming something that is not a report is refused with the file and the fix.
  const auto wrong = kbv({"report", (root() / "out").string(), "--previous", (results / "list.json").string()});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("list.json: --previous is not a report to compare with"), std::string::npos) << wrong.err;
}

// Review: a typo in standalone.extra_args made kbv eval refuse its command line (exit 2, no
// verdict), and every candidate was recorded bad_input for the epoch; a fixed file then evaluated
// nothing again. Now the sweep stops, records nothing, and the next run evaluates them.
TEST_F(SweepSystem, AnEvaluatorThatRefusesItsCommandLineRecordsNoVerdict) {
  const auto folder = root() / "cands";
  place(host_example("relu"), folder, "relu.so", "problem: relu\n");
  place(host_example("gelu"), folder, "gelu.so", "problem: gelu\n");
  const auto broken = sweep_file("broken.yaml", fmt::format("output_dir: out\ncandidates: [{}]\nmode: standalone\nstandalone:\n  key_file: {}\n"
                                                             "  extra_args: [--timeout-s, '0']\n",
                                                             folder.string(), key_file_.string()));
  const auto refused = kbv({"sweep", broken.string(), "--epoch", std::to_string(epoch_)});
  EXPECT_NE(refused.exit_code, 0) << refused.err;
  EXPECT_NE(refused.err.find("the evaluator cannot run"), std::string::npos) << refused.err;
  EXPECT_EQ(records(root() / "out", epoch_), 0u) << "no candidate got the evaluator's verdict";
  // A shape set the problems do not have: kbv eval's own set-up fails (exit 3, after a line about
  // its invocation that names no candidate), and the sweep stops as above (that line was the
  // first candidate's bad_input before).
  const auto no_shapes = sweep_file("shapes.yaml", fmt::format("output_dir: out\ncandidates: [{}]\nmode: standalone\nstandalone:\n  key_file: {}\n"
                                                                "  shapes: nope\n",
                                                                folder.string(), key_file_.string()));
  const auto stopped = kbv({"sweep", no_shapes.string(), "--epoch", std::to_string(epoch_)});
  EXPECT_NE(stopped.exit_code, 0) << stopped.err;
  EXPECT_NE(stopped.err.find("has no such shape set"), std::string::npos) << stopped.err;
  EXPECT_EQ(records(root() / "out", epoch_), 0u);
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section()));
  const auto fixed = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_EQ(records(root() / "out", epoch_), 2u);
  EXPECT_FALSE(fs::exists(root() / "out" / ".scratch" / "evaluations") && !fs::is_empty(root() / "out" / ".scratch" / "evaluations"))
      << "the run's own folder of evaluator output is removed";
}

TEST_F(SweepSystem, ShardsMergeIntoTheWholeSweep) {
  const auto folder = root() / "cands";
  for (const char* problem : {"relu", "gelu", "softmax", "rmsnorm", "sum_dim1", "layernorm"})
    place(host_example(problem), folder, std::string(problem) + ".so", std::string("problem: ") + problem + "\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section()));
  const auto epoch = std::to_string(epoch_);
  for (const char* shard : {"1/3", "3/3"}) {
    const auto run = kbv({"sweep", config.string(), "--epoch", epoch, "--shard", shard});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_FALSE(fs::exists(root() / "out" / "report.json")) << "one shard of several writes no report";
  }
  const auto partial = kbv({"report", (root() / "out").string()});
  EXPECT_EQ(partial.exit_code, 1) << "shard 2 is missing: " << partial.err;
  EXPECT_NE(partial.err.find("shards missing (never started): [2]"), std::string::npos) << partial.err;
  auto report = load(root() / "out" / "report.json");
  EXPECT_EQ(report["completeness"]["shards"]["missing"], json({2}));
  EXPECT_EQ(report["completeness"]["not_evaluated"], 2) << "6 candidates of 6 problems in 3 shards";

  ASSERT_EQ(kbv({"sweep", config.string(), "--epoch", epoch, "--shard", "2/3"}).exit_code, 0);
  const auto merged = kbv({"report", (root() / "out").string()});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  report = load(root() / "out" / "report.json");
  EXPECT_EQ(report["completeness"]["shards"]["complete"], json({1, 2, 3}));
  test::expect_report_matches_records(report, root() / "out", epoch_);

  // The same sweep unsharded, in another folder: the same verdicts, key by key.
  ASSERT_EQ(kbv({"sweep", config.string(), "--epoch", epoch, "--output", (root() / "whole").string()}).exit_code, 0);
  const auto whole = load(root() / "whole" / "report.json");
  std::map<std::string, json> sharded_verdicts, whole_verdicts;
  for (const auto& row : report["candidates"]) sharded_verdicts[row["key"]] = verdict_of(row);
  for (const auto& row : whole["candidates"]) whole_verdicts[row["key"]] = verdict_of(row);
  EXPECT_EQ(sharded_verdicts, whole_verdicts);
  EXPECT_EQ(report["sweep"]["key_id"], whole["sweep"]["key_id"]);
}

TEST_F(SweepSystem, BudgetsStopEarlyAndTheNextRunFinishes) {
  const auto folder = root() / "cands";
  for (const char* problem : {"relu", "gelu", "softmax", "sum_dim1"}) place(host_example(problem), folder, std::string(problem) + ".so", std::string("problem: ") + problem + "\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section(1)));
  const auto epoch = std::to_string(epoch_);
  const auto limited = kbv({"sweep", config.string(), "--epoch", epoch, "--budget-evaluations", "2"});
  EXPECT_EQ(limited.exit_code, 1) << limited.err;
  EXPECT_EQ(records(root() / "out", epoch_), 2u);
  auto report = load(root() / "out" / "report.json");
  EXPECT_FALSE(report["completeness"]["complete"].get<bool>());
  EXPECT_NE(report["completeness"]["stopped_because"].get<std::string>().find("budget.evaluations"), std::string::npos);
  EXPECT_EQ(report["not_evaluated"].size(), 2u);
  const auto timed = kbv({"sweep", config.string(), "--epoch", epoch, "--budget-wall-s", "0.001"});
  EXPECT_EQ(timed.exit_code, 1);
  EXPECT_NE(timed.err.find("budget.wall_s"), std::string::npos) << timed.err;
  const auto rest = kbv({"sweep", config.string(), "--epoch", epoch});
  EXPECT_EQ(rest.exit_code, 0) << rest.err;
  EXPECT_EQ(records(root() / "out", epoch_), 4u);
}

// A second sweep of the same shard, epoch and folder is refused with one fix, the lock's (the
// message once carried a second, contradictory "make output_dir writable" fix).
TEST_F(SweepSystem, ASecondSweepOfTheSameFolderIsRefusedWithOneFix) {
  const auto folder = root() / "cands";
  place(kCandidates / "hostile" / "libhostile_relu_hang.so", folder, "hang.so", "problem: relu\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section(1)));
  BackgroundSweep first({config.string(), "--epoch", std::to_string(epoch_)}, root() / "first.log");
  ASSERT_TRUE(kbvd::test::wait_until([&] { return !processes_mentioning(folder.string()).empty(); }, 30s)) << test::read_text(root() / "first.log");
  const auto second = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)});
  EXPECT_NE(second.exit_code, 0);
  EXPECT_NE(second.err.find("another kbv sweep is running this shard"), std::string::npos) << second.err;
  size_t fixes = 0;
  for (size_t at = second.err.find("fix:"); at != std::string::npos; at = second.err.find("fix:", at + 1)) ++fixes;
  EXPECT_EQ(fixes, 1u) << second.err;
}

// A wall budget that ends the sweep while its only evaluation runs (a hang, cut after the call
// timeout only) says why in the report and counts nothing as evaluated by this run: the
// abandoned evaluation left no record (the report used to give no reason and count it).
TEST_F(SweepSystem, AWallBudgetThatAbandonsTheRunningEvaluationSaysSo) {
  const auto folder = root() / "cands";
  place(kCandidates / "hostile" / "libhostile_relu_hang.so", folder, "hang.so", "problem: relu\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section(1)));
  const auto run = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_), "--budget-wall-s", "0.5"});
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("0 of 1 evaluations have a verdict (0 evaluated by this run)"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("budget.wall_s"), std::string::npos) << run.err;
  const auto report = load(root() / "out" / "report.json");
  ASSERT_TRUE(report["completeness"]["stopped_because"].is_string()) << report["completeness"].dump();
  EXPECT_NE(report["completeness"]["stopped_because"].get<std::string>().find("budget.wall_s"), std::string::npos);
  EXPECT_EQ(records(root() / "out", epoch_), 0u);
}

// Consecutive candidates of one problem share one `kbv eval` (standalone.batch): each still gets
// the verdict it gets alone, recorded the moment its line appears; a candidate that outlives
// standalone.timeout_s (counted from the verdict before it) is killed with the child and is
// `timeout`, and the candidates after it in its batch are evaluated again, alone.
TEST_F(SweepSystem, StandaloneBatchesOneProblemAndTimesOutEachCandidateOnItsOwn) {
  const auto folder = root() / "cands";
  // The plan orders one problem's candidates by sha256: trailers put a and b before the hang and
  // d and e after it, so one batch holds all five and ends at the hang.
  const auto sha256 = [](const fs::path& path) {
    const std::string bytes = test::read_text(path);
    kbvd::Sha256 hash;
    hash.update(bytes.data(), bytes.size());
    return hash.hex();
  };
  const std::string hang = sha256(place(kCandidates / "hostile" / "libhostile_relu_hang.so", folder, "c_hang.so", "problem: relu\n"));
  const auto place_ordered = [&](const fs::path& from, const std::string& name, bool before_hang) {
    for (int trailer = 0;; ++trailer) {
      const std::string placed = sha256(place(from, folder, name, "problem: relu\n", name + std::to_string(trailer)));
      if ((placed < hang) == before_hang) return;
    }
  };
  place_ordered(host_example("relu"), "a_honest.so", true);
  place_ordered(kCandidates / "hostile" / "libhostile_relu_noop.so", "b_noop.so", true);
  place_ordered(host_example("relu"), "d_honest.so", false);
  place_ordered(host_example("relu"), "e_honest.so", false);
  place(host_example("gelu"), folder, "f_gelu.so", "problem: gelu\n");
  // kbv eval's own call timeout is far above the sweep's: the hang is the sweep's to cut.
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\nmode: standalone\nstandalone:\n  timeout_s: 6\n"
                                                           "  batch: 8\n  key_file: {}\n  extra_args: [--timeout-s, '60']\n",
                                                           folder.string(), key_file_.string()));
  const auto run = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto results = root() / "out" / fmt::format("epoch-{}", epoch_) / "results";
  std::map<std::string, json> by_file;
  for (const auto& entry : fs::directory_iterator(results))
    if (entry.path().extension() == ".json") {
      const json record = load(entry.path());
      by_file[fs::path(record["candidate"]["path"].get<std::string>()).filename().string()] = record;
    }
  ASSERT_EQ(by_file.size(), 6u);
  EXPECT_EQ(by_file["a_honest.so"]["verdict"], "pass");
  EXPECT_EQ(by_file["b_noop.so"]["verdict"], "fail_correctness") << "the honest outputs of the same seeds were in its buffers";
  EXPECT_EQ(by_file["c_hang.so"]["verdict"], "timeout") << by_file["c_hang.so"].dump(1);
  EXPECT_TRUE(by_file["c_hang.so"]["evaluator"]["timed_out"].get<bool>());
  for (const char* name : {"d_honest.so", "e_honest.so", "f_gelu.so"}) EXPECT_EQ(by_file[name]["verdict"], "pass") << name << by_file[name].dump(1);
  // a and b shared one kbv eval (whichever came second had the plane); d and e, whose batch ended
  // at the hang, were evaluated alone.
  EXPECT_NE(by_file["a_honest.so"]["evaluation"]["environment"]["data_plane_reused"], by_file["b_noop.so"]["evaluation"]["environment"]["data_plane_reused"]);
  EXPECT_EQ(by_file["d_honest.so"]["evaluation"]["environment"]["data_plane_reused"], false);
  EXPECT_EQ(by_file["e_honest.so"]["evaluation"]["environment"]["data_plane_reused"], false);
  EXPECT_LT(by_file["a_honest.so"]["evaluator"]["seconds"].get<double>(), 6.0);
}

TEST_F(SweepSystem, BadInputStopsOnlyWhatItMust) {
  const auto malformed = sweep_file("malformed.yaml", "output_dir: out\ncandidates:\n  - folder: [unclosed\n");
  auto run = kbv({"sweep", malformed.string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(malformed.string() + ":"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("fix:"), std::string::npos) << run.err;

  const auto unknown = sweep_file("unknown.yaml", "output_dir: out\nfilter: {problems: [relu]}\n");
  run = kbv({"sweep", unknown.string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("filter: unknown field; fix: use one of:"), std::string::npos) << run.err;

  const auto no_kbvd = sweep_file("nokbvd.yaml", fmt::format("output_dir: out\nkbvd: {{socket: {}/nobody.sock}}\n", root().string()));
  run = kbv({"sweep", no_kbvd.string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("nobody.sock"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--standalone"), std::string::npos) << "the fix names the way without kbvd: " << run.err;

  run = kbv({"sweep", (root() / "absent.yaml").string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("absent.yaml: (file): does not exist"), std::string::npos) << run.err;
  run = kbv({"sweep", no_kbvd.string(), "--shard", "3/2"});
  EXPECT_EQ(run.exit_code, 2);
  run = kbv({"report", (root() / "nothing-here").string()});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("no sweep has been planned here"), std::string::npos) << run.err;
}

// File names and manifests are the submitter's bytes: a name that is not UTF-8, a manifest value
// that is not, and a name holding terminal escapes never end the sweep (a strict JSON dump of the
// plan aborted it before anything ran) nor reach the operator's terminal raw.
TEST_F(SweepSystem, NamesThatAreNotUtf8OrHoldEscapesAreNamedNotFatal) {
  const auto folder = root() / "cands";
  place(host_example("relu"), folder, "relu_\xff.so", "problem: relu\n");
  place(host_example("gelu"), folder, "gelu.so", "problem: gelu\nmodel: \"m\xff\"\n");
  test::write_text(folder / "junk_\x1b]52;c;aGk=\x07_\x1b[2J.so", "not an ELF file");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section()));
  const auto run = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)});
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.exit_code << "\n" << run.err;
  EXPECT_EQ(run.err.find('\x1b'), std::string::npos) << "a raw escape reached the terminal: " << run.err;
  EXPECT_NE(run.err.find("gelu.so.yaml"), std::string::npos) << "the manifest that is not UTF-8 is named: " << run.err;
  ASSERT_TRUE(fs::exists(root() / "out" / "report.json")) << run.err;
  const json report = load(root() / "out" / "report.json");
  EXPECT_NE(report.dump(-1, ' ', false, json::error_handler_t::replace).find("relu_\xef\xbf\xbd.so"), std::string::npos)
      << "the name is kept, its invalid byte replaced";
  const auto again = kbv({"report", (root() / "out").string()});
  EXPECT_EQ(again.err.find('\x1b'), std::string::npos) << again.err;
}

TEST_F(SweepSystem, ABarOnATerminalPlainLinesOtherwise) {
  const auto folder = root() / "cands";
  for (const char* problem : {"relu", "gelu"}) place(host_example(problem), folder, std::string(problem) + ".so", std::string("problem: ") + problem + "\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section()));
  const auto plain = kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err.find("\033["), std::string::npos) << "no escape codes in a log: " << plain.err;
  EXPECT_NE(plain.err.find("2/2 done"), std::string::npos) << plain.err;
  // script(1) (util-linux, in every Debian) gives the sweep a terminal; a second epoch so that
  // there is work to show.
  const fs::path script = "/usr/bin/script";
  if (!fs::exists(script)) GTEST_SKIP() << "no /usr/bin/script (bsdutils): the bar on a terminal was not checked";
  const auto on_terminal = kbv::test::run_command(
      {{script.string(), "-qec",
        fmt::format("{} sweep {} --epoch {}", kKbv.string(), config.string(), epoch_ + 1), "/dev/null"},
       {}, {}, std::chrono::milliseconds(120000)});
  ASSERT_EQ(on_terminal.exit_code, 0) << on_terminal.out << on_terminal.err;
  EXPECT_NE(on_terminal.out.find("\r\033[K"), std::string::npos) << "the bar is redrawn in place";
  EXPECT_NE(on_terminal.out.find("[##############################] 2/2 done"), std::string::npos) << on_terminal.out;
}

TEST_F(SweepSystem, StandaloneReportRendersInChromium) {
  if (test::chromium_binary().empty())
    GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh installs it): the sweep's report.html was not opened in a browser";
  const auto folder = root() / "cands";
  place(host_example("relu"), folder, "relu.so", "model: m\nproblem: relu\n");
  place(host_example("gelu"), folder, "gelu.so", "model: n\nproblem: gelu\n");
  place(kCandidates / "hostile" / "libhostile_relu_identity_on_public.so", folder, "public_only.so", "model: n\nproblem: relu\n");
  place(kCandidates / "hostile" / "libhostile_relu_mutates_input.so", folder, "mutates.so", "model: n\nproblem: relu\n");
  const auto config = sweep_file("sweep.yaml", fmt::format("output_dir: out\ncandidates: [{}]\n{}", folder.string(), standalone_section()));
  ASSERT_EQ(kbv({"sweep", config.string(), "--epoch", std::to_string(epoch_)}).exit_code, 0);
  const auto page = test::render_page(root() / "out" / "report.html");
  ASSERT_EQ(page.exit_status, 0) << page.browser_log;
  const auto expected = test::body_attribute(page.dom, "data-kbv-plots-expected");
  EXPECT_EQ(test::body_attribute(page.dom, "data-kbv-plots"), "rendered") << page.console;
  EXPECT_EQ(test::body_attribute(page.dom, "data-kbv-plots-rendered"), expected);
  EXPECT_GE(std::stoi(expected.empty() ? "0" : expected), 6) << "correctness, speedup, fast_p, heatmap, hacks, public gap";
  EXPECT_EQ(std::to_string(test::occurrences(page.dom, "<svg")), expected);
  EXPECT_EQ(page.console, "");
}

}  // namespace
}  // namespace kbv::sweep
