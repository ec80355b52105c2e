// Integration: a real Prometheus server (loopback, temp config and storage) scrapes kbvd and
// evaluates kbv's rules; the series must arrive through its HTTP query API.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.hpp"

namespace kbv::kbvd {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;

class PrometheusServer {
 public:
  PrometheusServer(const fs::path& dir, int target_port) : port_(test::free_port()) {
    fs::copy_file(fs::path(KBV_SOURCE_DIR) / "monitoring/prometheus/kbv-rules.yml", dir / "kbv-rules.yml");
    // The shipped scrape config, with a 1 s interval and the test's kbvd port.
    auto config = test::read_file(fs::path(KBV_SOURCE_DIR) / "monitoring/prometheus/prometheus.yml");
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"scrape_interval: 15s", "scrape_interval: 1s"},
                                   {"evaluation_interval: 15s", "evaluation_interval: 1s"},
                                   {"scrape_timeout: 10s", "scrape_timeout: 1s"},
                                   {"127.0.0.1:9464", "127.0.0.1:" + std::to_string(target_port)}}) {
      const auto at = config.find(from);
      if (at != std::string::npos) config.replace(at, from.size(), to);
    }
    test::write_file(dir / "prometheus.yml", config);
    const std::string log = (dir / "prometheus.log").string();
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      const std::string config_flag = "--config.file=" + (dir / "prometheus.yml").string();
      const std::string storage = "--storage.tsdb.path=" + (dir / "tsdb").string();
      const std::string listen = "--web.listen-address=127.0.0.1:" + std::to_string(port_);
      ::execl(KBV_PROMETHEUS, KBV_PROMETHEUS, config_flag.c_str(), storage.c_str(), listen.c_str(),
              "--storage.tsdb.retention.time=1h", "--log.level=warn", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    log_ = log;
  }
  ~PrometheusServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  // Result vector of an instant query, or nothing while the server is not up.
  std::optional<json> query(const std::string& promql) const {
    std::string encoded;
    for (unsigned char c : promql) {
      if (std::isalnum(c) || c == '_' || c == '-' || c == '.') encoded += static_cast<char>(c);
      else {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%%%02X", c);
        encoded += buf;
      }
    }
    const auto body = test::http_get(port_, "/api/v1/query?query=" + encoded);
    if (!body) return std::nullopt;
    const auto j = json::parse(*body, nullptr, false);
    if (j.is_discarded() || j.value("status", "") != "success") return std::nullopt;
    return j["data"]["result"];
  }
  std::string log() const { return test::read_file(log_); }

 private:
  int port_;
  pid_t pid_ = -1;
  fs::path log_;
};

TEST(PrometheusIntegration, ScrapesKbvdAndEvaluatesRules) {
  test::TempDir dir;
  test::KbvdProcess kbvd(dir.path() / "kbvd");
  kbvd.start();
  kbvd.drop("a.so", "KBV_FAKE:pass a");
  kbvd.drop("b.so", "KBV_FAKE:hack:input_mutation b");
  ASSERT_TRUE(kbvd.wait_done(2, 20s));
  fs::create_directories(dir.path() / "prom");
  PrometheusServer prometheus(dir.path() / "prom", kbvd.metrics_port());

  auto value_of = [&](const std::string& q) -> std::optional<double> {
    const auto r = prometheus.query(q);
    if (!r || r->empty()) return std::nullopt;
    return std::stod((*r)[0]["value"][1].get<std::string>());
  };
  ASSERT_TRUE(test::wait_until([&] { return value_of(R"(up{job="kbvd"})") == 1.0; }, 60s))
      << prometheus.log();
  EXPECT_EQ(value_of(R"(kbv_evaluations_total{job="kbvd", verdict="pass"})"), 1.0);
  EXPECT_EQ(value_of(R"(kbv_hacks_total{pattern="input_mutation"})"), 1.0);
  EXPECT_EQ(value_of("kbv_queue_depth"), 0.0);
  EXPECT_TRUE(value_of("kbv_build_info"));
  EXPECT_TRUE(value_of(R"(kbv_gpu_busy_seconds_total{gpu="host"})"));
  EXPECT_TRUE(value_of("kbv_evaluation_duration_seconds_count"));
  // Recording rules evaluate against the scraped series (rates need two samples).
  EXPECT_TRUE(test::wait_until([&] { return value_of("kbv:gpu_busy:ratio_rate5m").has_value(); }, 30s))
      << prometheus.log();
  const auto alerts = prometheus.query(R"(ALERTS{alertstate="firing", alertname=~"KbvdDown|KbvdStalled"})");
  ASSERT_TRUE(alerts);
  EXPECT_TRUE(alerts->empty()) << alerts->dump();
}

}  // namespace
}  // namespace kbv::kbvd
