// SHA-256 of a byte stream (OpenSSL EVP): a candidate's identity is the hash of its file.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>

struct evp_md_ctx_st;

namespace kbv::kbvd {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(const void* data, std::size_t size);
  std::string hex();  // finishes the hash; 64 lowercase hex digits

 private:
  struct Free {
    void operator()(evp_md_ctx_st* ctx) const;
  };
  std::unique_ptr<evp_md_ctx_st, Free> ctx_;
};

}  // namespace kbv::kbvd
