// io/npy.cpp — .npy header writing and parsing, streaming writes, read-only mappings.
#include "io/npy.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>

namespace kbv::npy {

static_assert(std::endian::native == std::endian::little, "kbv's .npy files are little-endian, as its hosts are");

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;
constexpr size_t kHeaderAlignment = 64;
// An exported array is for whoever reads the export folder, as a file numpy.save makes would be.
constexpr mode_t kWrittenFileMode = 0644;

NpyError error_in(const std::filesystem::path& path, const std::string& what, const std::string& fix) {
  return NpyError(path.string() + ": " + what + " (fix: " + fix + ")");
}

std::string shape_tuple(const Shape& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) text += ",";
  return text + ")";
}

// The header dict, a Python literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
 public:
  HeaderParser(const std::filesystem::path& path, std::string_view text) : path_(path), text_(text) {}

  void parse(DType& dtype, Shape& shape) {
    std::optional<std::string> descr_value;
    std::optional<bool> fortran_order;
    std::optional<Shape> shape_value;
    skip_space();
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = parse_string();
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") descr_value = parse_string();
      else if (key == "fortran_order") fortran_order = parse_bool();
      else if (key == "shape") shape_value = parse_tuple();
      else fail("unexpected header key '" + key + "'");
      skip_space();
      if (peek() == ',') ++position_;
    }
    if (!descr_value || !fortran_order || !shape_value) fail("the header lacks one of 'descr', 'fortran_order', 'shape'");
    bool known = false;
    for (DType candidate : {DType::float32, DType::float64, DType::int64, DType::boolean})
      if (*descr_value == descr(candidate)) {
        dtype = candidate;
        known = true;
      }
    if (!known)
      throw error_in(path_, "dtype '" + *descr_value + "' is not supported: kbv reads little-endian float32 ('<f4'), float64 ('<f8'), "
                            "int64 ('<i8') or bool ('|b1')",
                     "save a float32 array, e.g. np.save(path, np.ascontiguousarray(a, dtype=np.float32))");
    if (*fortran_order)
      throw error_in(path_, "fortran_order is True: kbv reads C-order arrays only",
                     "save np.ascontiguousarray(a) instead of a Fortran-order array");
    shape = *shape_value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    // At most this much of the header is quoted: a version-2 header may claim 4 GiB (review).
    constexpr size_t kQuotedHeaderBytes = 200;
    const std::string quoted = text_.size() <= kQuotedHeaderBytes ? std::string(text_) : std::string(text_.substr(0, kQuotedHeaderBytes)) + "…";
    throw error_in(path_, "malformed .npy header (" + what + " at byte " + std::to_string(position_) + " of '" + quoted + "')",
                   "write the file with numpy.save");
  }
  char peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  void skip_space() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
  }
  void expect(char wanted) {
    if (peek() != wanted) fail(std::string("expected '") + wanted + "'");
    ++position_;
  }
  std::string parse_string() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a quoted string");
    const size_t end = text_.find(quote, position_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string value(text_.substr(position_ + 1, end - position_ - 1));
    position_ = end + 1;
    return value;
  }
  bool parse_bool() {
    if (text_.substr(position_, 4) == "True") {
      position_ += 4;
      return true;
    }
    if (text_.substr(position_, 5) == "False") {
      position_ += 5;
      return false;
    }
    fail("expected True or False");
  }
  Shape parse_tuple() {
    expect('(');
    Shape dims;
    while (true) {
      skip_space();
      if (peek() == ')') break;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a non-negative dimension");
      int64_t dim = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (dim > (std::numeric_limits<int64_t>::max() - 9) / 10) fail("dimension too large");
        dim = dim * 10 + (text_[position_++] - '0');
      }
      if (peek() == 'L') ++position_;  // Python 2 longs
      dims.push_back(dim);
      skip_space();
      if (peek() == ',') ++position_;
      else if (peek() != ')') fail("expected ',' or ')'");
    }
    ++position_;
    return dims;
  }

  const std::filesystem::path& path_;
  std::string_view text_;
  size_t position_ = 0;
};

// numel with an overflow check on the byte count.
int64_t checked_bytes(const std::filesystem::path& path, const Shape& shape, DType dtype) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim != 0 && count > std::numeric_limits<int64_t>::max() / 8 / dim)
      throw error_in(path, "shape " + shape_tuple(shape) + " is too large", "write a smaller array");
    count *= dim;
  }
  return count * static_cast<int64_t>(item_size(dtype));
}

}  // namespace

std::string_view descr(DType dtype) {
  switch (dtype) {
    case DType::float64: return "<f8";
    case DType::int64: return "<i8";
    case DType::boolean: return "|b1";
    case DType::float32: break;
  }
  return "<f4";
}
std::string_view dtype_name(DType dtype) {
  switch (dtype) {
    case DType::float64: return "float64";
    case DType::int64: return "int64";
    case DType::boolean: return "bool";
    case DType::float32: break;
  }
  return "float32";
}
size_t item_size(DType dtype) {
  switch (dtype) {
    case DType::float64:
    case DType::int64: return 8;
    case DType::boolean: return 1;
    case DType::float32: break;
  }
  return 4;
}

std::string make_header(const Shape& shape, DType dtype) {
  std::string dict = "{'descr': '" + std::string(descr(dtype)) + "', 'fortran_order': False, 'shape': " + shape_tuple(shape) + ", }";
  const size_t preamble = kMagicBytes + 2 + 2;  // magic, version, header length
  const size_t unpadded = preamble + dict.size() + 1;
  dict.append((kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment, ' ');
  dict += '\n';
  std::string header(kMagic, kMagicBytes);
  header += '\x01';
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>((dict.size() >> 8) & 0xff);
  return header + dict;
}

NpyWriter::NpyWriter(const std::filesystem::path& path, const Shape& shape, DType dtype)
    : path_(path), dtype_(dtype), expected_(numel(shape)) {
  // Written beside the target under a fresh name (O_EXCL: never through a link someone left in
  // the folder) and renamed over it by close(), which replaces a link rather than following it:
  // `kbv export` into a shared folder overwrote a symbolic link's target (red-team).
  std::string pattern =
      ((path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path()) / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw error_in(path, std::string("cannot create the file: ") + std::strerror(errno), "choose a writable directory");
  ::fchmod(fd, kWrittenFileMode);
  temp_path_ = pattern;
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    std::error_code ignored;
    std::filesystem::remove(temp_path_, ignored);
    throw error_in(path, std::string("cannot create the file: ") + std::strerror(errno), "choose a writable directory");
  }
  const std::string header = make_header(shape, dtype);
  if (std::fwrite(header.data(), 1, header.size(), file_) != header.size())
    throw error_in(path, std::string("cannot write the header: ") + std::strerror(errno), "free space on that file system");
}

NpyWriter::~NpyWriter() {
  if (!file_) return;
  // Not closed: an exception cut the array short; leave no file that looks complete.
  std::fclose(file_);
  std::error_code ignored;
  std::filesystem::remove(temp_path_, ignored);
}

void NpyWriter::write_bytes(const void* data, size_t count, size_t bytes, DType given) {
  if (!file_) throw error_in(path_, "write after close", "write every element before close()");
  if (given != dtype_)
    throw error_in(path_, std::string("writing ") + std::string(dtype_name(given)) + " values into a " + std::string(dtype_name(dtype_)) + " array",
                   "write values of the array's dtype");
  if (written_ + static_cast<int64_t>(count) > expected_)
    throw error_in(path_, "more elements written than its shape holds (" + std::to_string(expected_) + ")", "write exactly numel(shape) elements");
  if (bytes && std::fwrite(data, 1, bytes, file_) != bytes)
    throw error_in(path_, std::string("cannot write: ") + std::strerror(errno), "free space on that file system");
  written_ += static_cast<int64_t>(count);
}

void NpyWriter::write(std::span<const float> values) { write_bytes(values.data(), values.size(), values.size_bytes(), DType::float32); }
void NpyWriter::write(std::span<const double> values) { write_bytes(values.data(), values.size(), values.size_bytes(), DType::float64); }

void NpyWriter::write_raw(std::span<const unsigned char> bytes) {
  if (bytes.size() % item_size(dtype_) != 0)
    throw error_in(path_, std::to_string(bytes.size()) + " bytes are not whole " + std::string(dtype_name(dtype_)) + " elements",
                   "write whole elements");
  write_bytes(bytes.data(), bytes.size() / item_size(dtype_), bytes.size(), dtype_);
}

void NpyWriter::close() {
  if (!file_) return;
  if (written_ != expected_)
    throw error_in(path_, std::to_string(written_) + " of " + std::to_string(expected_) + " elements written", "write every element before close()");
  std::FILE* file = file_;
  file_ = nullptr;
  const bool flushed = std::fflush(file) == 0;
  const int flush_errno = errno;
  if (std::fclose(file) != 0 || !flushed) {
    std::error_code ignored;
    std::filesystem::remove(temp_path_, ignored);
    throw error_in(path_, std::string("cannot finish writing: ") + std::strerror(flushed ? errno : flush_errno), "free space on that file system");
  }
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const int rename_errno = errno;
    std::error_code ignored;
    std::filesystem::remove(temp_path_, ignored);
    throw error_in(path_, std::string("cannot put the file in place: ") + std::strerror(rename_errno), "check that the path is not a folder");
  }
}

void save(const std::filesystem::path& path, const Shape& shape, std::span<const float> values) {
  NpyWriter writer(path, shape, DType::float32);
  writer.write(values);
  writer.close();
}

void save(const std::filesystem::path& path, const Shape& shape, std::span<const double> values) {
  NpyWriter writer(path, shape, DType::float64);
  writer.write(values);
  writer.close();
}

MappedNpy::MappedNpy(const std::filesystem::path& path) : path_(path) {
  // Non-blocking: a FIFO named like an array answers at once instead of hanging the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw error_in(path, std::string("cannot open: ") + std::strerror(errno), "check the path; save the array there with numpy.save");
  struct stat info {};
  if (::fstat(fd, &info) == 0 && !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw error_in(path, "not a regular file", "save the array there with numpy.save");
  }
  if (info.st_size <= 0) {
    ::close(fd);
    throw error_in(path, "empty or unreadable file, not a .npy array", "write the file with numpy.save");
  }
  mapped_bytes_ = static_cast<size_t>(info.st_size);
  mapping_ = ::mmap(nullptr, mapped_bytes_, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw error_in(path, std::string("cannot map: ") + std::strerror(map_errno), "check the file is a regular, readable file");
  }
  try {
    const auto* bytes = static_cast<const unsigned char*>(mapping_);
    if (mapped_bytes_ < kMagicBytes + 2 || std::memcmp(bytes, kMagic, kMagicBytes) != 0)
      throw error_in(path, "bad magic: not a .npy file (it must start with \\x93NUMPY)", "write the file with numpy.save");
    const unsigned major = bytes[kMagicBytes];
    const size_t length_bytes = major == 1 ? 2 : major == 2 ? 4 : 0;
    if (length_bytes == 0)
      throw error_in(path, ".npy format version " + std::to_string(major) + "." + std::to_string(bytes[kMagicBytes + 1]) + " is not supported (1.0 or 2.0)",
                     "write the file with numpy.save");
    const size_t preamble = kMagicBytes + 2 + length_bytes;
    if (mapped_bytes_ < preamble) throw error_in(path, "truncated header", "write the file again with numpy.save");
    size_t header_length = 0;
    for (size_t i = 0; i < length_bytes; ++i) header_length |= static_cast<size_t>(bytes[kMagicBytes + 2 + i]) << (8 * i);
    if (mapped_bytes_ < preamble + header_length) throw error_in(path, "truncated header", "write the file again with numpy.save");
    HeaderParser(path, std::string_view(reinterpret_cast<const char*>(bytes) + preamble, header_length)).parse(dtype_, shape_);
    data_offset_ = preamble + header_length;
    if (data_offset_ % item_size(dtype_) != 0)
      throw error_in(path, "the data starts at byte " + std::to_string(data_offset_) + ", not aligned to its " + std::to_string(item_size(dtype_)) + "-byte elements",
                     "write the file with numpy.save");
    const int64_t expected = checked_bytes(path, shape_, dtype_);
    const auto held = static_cast<int64_t>(mapped_bytes_ - data_offset_);
    if (held < expected)
      throw error_in(path, "truncated data: shape " + shape_tuple(shape_) + " of " + std::string(dtype_name(dtype_)) + " needs " + std::to_string(expected) +
                               " bytes, the file holds " + std::to_string(held),
                     "write the file again; it was cut short");
    if (held > expected)
      throw error_in(path, std::to_string(held - expected) + " bytes after the data of shape " + shape_tuple(shape_) + " " + std::string(dtype_name(dtype_)),
                     "write the file with numpy.save");
  } catch (...) {
    ::munmap(mapping_, mapped_bytes_);
    mapping_ = nullptr;
    throw;
  }
}

MappedNpy::~MappedNpy() {
  if (mapping_) ::munmap(mapping_, mapped_bytes_);
}

std::span<const float> MappedNpy::floats() const {
  if (dtype_ != DType::float32) throw error_in(path_, "holds " + std::string(dtype_name(dtype_)) + ", read as float32", "read it as its own dtype");
  return {reinterpret_cast<const float*>(static_cast<const char*>(mapping_) + data_offset_), static_cast<size_t>(count())};
}

std::span<const double> MappedNpy::doubles() const {
  if (dtype_ != DType::float64) throw error_in(path_, "holds " + std::string(dtype_name(dtype_)) + ", read as float64", "read it as its own dtype");
  return {reinterpret_cast<const double*>(static_cast<const char*>(mapping_) + data_offset_), static_cast<size_t>(count())};
}

std::span<const unsigned char> MappedNpy::raw() const {
  return {static_cast<const unsigned char*>(mapping_) + data_offset_, static_cast<size_t>(count()) * item_size(dtype_)};
}

}  // namespace kbv::npy
