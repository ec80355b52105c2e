// tests/kbvd/loopback_http.hpp — the loopback helpers kbvd's tests and kbvd_bench share: a free
// TCP port for kbvd's metrics listener, and one HTTP/1.0 GET against it.
#pragma once

#include <optional>
#include <string>

namespace kbv::kbvd::test {

// The body of GET `path` on 127.0.0.1:`port`, or nothing when the request fails.
std::optional<std::string> http_get(int port, const std::string& path);

// A TCP port on the loopback that was free a moment ago.
int free_port();

}  // namespace kbv::kbvd::test
