// io/whole_file.cpp — whole-file writes (whole_file.hpp).
#include "io/whole_file.hpp"

#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace kbv::io {

void write_file_whole(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path temporary = path.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    if (!out) throw std::runtime_error(temporary.string() + ": cannot write (fix: check the directory exists and is writable)");
    out << text;
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(temporary);
      throw std::runtime_error(temporary.string() + ": write failed");
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary);
    throw std::runtime_error(path.string() + ": cannot replace: " + error.message());
  }
}

}  // namespace kbv::io
