// inputs/secret_key.hpp — the evaluator's secret key: the root of every hidden choice (which
// families gate an epoch, their parameters, the seeds of every trial). Only trusted code reads
// it; the worker never can (the sandbox makes the file unreadable to it).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace kbv::inputs {

constexpr size_t kSecretKeyBytes = 32;  // 256 bits: HMAC-SHA256's block of security

class SecretKey {
 public:
  // Reads a key file: exactly 64 hex characters (optionally followed by a newline).
  // Throws std::runtime_error naming the file and the fix.
  static SecretKey load(const std::filesystem::path& path);
  // Writes a fresh random key (OpenSSL RAND_bytes) with mode 0600; refuses to overwrite.
  static SecretKey create(const std::filesystem::path& path);
  // Loads the key, creating it first when the file does not exist. Safe for processes racing
  // on a fresh path: one creates the key, every one of them gets it. A key in a folder that does
  // not exist is refused unless `create_folders` (the default key in kbv's state directory): a
  // mistyped folder must not silently become a new key, which would change every hidden family.
  static SecretKey load_or_create(const std::filesystem::path& path, bool* created = nullptr, bool create_folders = false);
  static SecretKey from_bytes(const std::array<uint8_t, kSecretKeyBytes>& bytes);

  const std::array<uint8_t, kSecretKeyBytes>& bytes() const { return bytes_; }

 private:
  // create(), or nothing when the file already exists.
  static std::optional<SecretKey> try_create(const std::filesystem::path& path);

  std::array<uint8_t, kSecretKeyBytes> bytes_{};
};

// $KBV_KEY_FILE, else $XDG_STATE_HOME/kbv/secret.key, else ~/.local/state/kbv/secret.key.
std::filesystem::path default_key_path();

// kbv's state directory: $XDG_STATE_HOME/kbv, else ~/.local/state/kbv (the key's default home,
// and where `kbv calibrate` stores the device's ceilings).
std::filesystem::path state_directory();

// $KBV_CEILINGS, else ceilings.json in the state directory (`kbv calibrate` writes it there).
std::filesystem::path default_ceilings_path();
// The cuDNN convolution algorithms the baselines chose on this machine (measure/baseline/
// algorithm_cache.hpp): $KBV_ALGORITHM_CACHE, else <state dir>/cudnn-conv-algorithms.json.
std::filesystem::path default_algorithm_cache_path();

}  // namespace kbv::inputs
