// client/control_command.cpp — the control commands (status, submit, results, requeue) shared
// by kbvctl and `kbv status|submit|results|requeue`.
#include "client/control_command.hpp"
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "client/control_client.hpp"
#include "client/format.hpp"
#include "client/json_dump.hpp"

namespace {
constexpr const char* kUsage =
    "usage: kbvctl [--socket PATH] COMMAND [--json]\n"
    "  status                          daemon, queue and slots\n"
    "  submit FILE.so [--manifest M]   copy a candidate into the watch folder (atomically)\n"
    "  results [list] [--limit N] [--verdict V] [--state queued|running|done]\n"
    "  results show ID                 one candidate (number or sha256 prefix)\n"
    "  requeue ID                      evaluate a finished candidate again\n"
    "The socket defaults to $KBV_SOCKET, else /run/kbvd/control.sock.\n"
    "Exit status: 0 done; 1 submit rejected; 2 bad request (usage, file, id, filter);\n"
    "3 kbvd not reachable, not answering, or not taking requests now (try again later).\n";

// "kbvctl", or "kbv status" and the like when kbv runs the command (cli/main.cpp passes "kbv").
std::string program_name = "kbvctl";

// Exit statuses, for scripts: a refused submit is a judged outcome, like a failed verdict; a bad
// request (usage, a file that cannot be sent, an id or filter kbvd refuses) is kbv's usual 2;
// kbvd being away is distinct, since the same command may work later.
constexpr int kExitOk = 0;
constexpr int kExitSubmitRejected = 1;
constexpr int kExitBadRequest = 2;
constexpr int kExitKbvdUnavailable = 3;

int usage_error(const std::string& why) {
  std::cerr << program_name << ": " << why << "\n" << kUsage;
  return kExitBadRequest;
}
}  // namespace

namespace kbv::control {

int run_control_command(int argc, char** argv) {
  namespace control = kbv::control;
  program_name = argc > 1 && std::string(argv[0]) == "kbv" ? "kbv " + std::string(argv[1]) : "kbvctl";
  std::filesystem::path socket = control::default_socket_path();
  bool as_json = false;
  int limit = 50;
  std::string verdict, state;
  std::optional<std::filesystem::path> manifest;
  std::vector<std::string> words;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= argc) return std::nullopt;
      return std::string(argv[++i]);
    };
    if (a == "--json") as_json = true;
    else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return kExitOk;
    } else if (a == "--socket" || a == "--limit" || a == "--verdict" || a == "--state" || a == "--manifest") {
      const auto v = value();
      if (!v) return usage_error(a + " needs a value");
      if (a == "--socket") socket = *v;
      else if (a == "--limit") {
        // A whole number in kbvd's range, all of it (stoi would take "3x" as 3 and "-5" as -5).
        constexpr int kMaxLimit = control::kMaxResultsListed;
        size_t used = 0;
        try {
          limit = std::stoi(*v, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != v->size() || limit < 1 || limit > kMaxLimit)
          return usage_error("--limit takes a whole number from 1 to " + std::to_string(kMaxLimit) + ", got '" + *v + "'");
      } else if (a == "--verdict") verdict = *v;
      else if (a == "--state") state = *v;
      else manifest = *v;
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option " + a);
    } else {
      words.push_back(a);
    }
  }
  if (words.empty()) return usage_error("no command");
  try {
    nlohmann::json answer;
    std::string text;
    const auto& cmd = words[0];
    if (cmd == "status" && words.size() == 1) {
      answer = control::status(socket);
      text = control::format_status(answer);
    } else if (cmd == "submit" && words.size() == 2) {
      answer = control::submit(socket, words[1], manifest);
      text = control::format_submit(answer);
    } else if (cmd == "results" && (words.size() == 1 || (words.size() == 2 && words[1] == "list"))) {
      answer = control::results_list(socket, limit, verdict, state);
      text = control::format_results(answer);
    } else if (cmd == "results" && words.size() == 3 && words[1] == "show") {
      answer = control::results_show(socket, words[2]);
      text = control::format_result(answer);
    } else if (cmd == "requeue" && words.size() == 2) {
      answer = control::requeue(socket, words[1]);
      text = "requeued " + answer.value("sha256", std::string()) + "\n";
    } else {
      return usage_error("unknown command or wrong arguments: " + cmd);
    }
    if (as_json) std::cout << control::json_dump(answer, 2) << "\n";
    else std::cout << text;
    if (cmd == "submit" && answer.value("result", std::string()) == "rejected") return kExitSubmitRejected;
    return kExitOk;
  } catch (const control::KbvdUnavailable& e) {
    std::cerr << program_name << ": " << e.what() << "\n";
    return kExitKbvdUnavailable;
  } catch (const std::exception& e) {
    std::cerr << program_name << ": " << e.what() << "\n";
    return kExitBadRequest;
  }
}

}  // namespace kbv::control
