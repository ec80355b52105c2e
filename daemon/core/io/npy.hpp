// io/npy.hpp — NumPy .npy files (format 1.0) of float32/float64/int64/bool arrays in C order: a
// streaming writer and a memory-mapped reader, so GB-sized arrays are never held twice.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>

#include "tensor/shape.hpp"

namespace kbv::npy {

enum class DType { float32, float64, int64, boolean };

// "<f4", "<f8", "<i8", "|b1": the descr NumPy writes; "float32", "float64", "int64", "bool": the
// names in manifests (numpy's own dtype names).
std::string_view descr(DType dtype);
std::string_view dtype_name(DType dtype);
size_t item_size(DType dtype);

// A file that is not a .npy kbv can read, or that cannot be written. what() names the file,
// what is wrong and the fix.
class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The header of a format 1.0 file for `shape` and `dtype`: magic, version, length and the
// dict, padded with spaces and a newline to a multiple of 64 bytes (NumPy's own layout).
std::string make_header(const Shape& shape, DType dtype);

// Writes one array: the header at open, then the elements in C order through write() calls,
// then close(), which fails unless exactly numel(shape) elements were written.
class NpyWriter {
 public:
  NpyWriter(const std::filesystem::path& path, const Shape& shape, DType dtype);
  ~NpyWriter();
  NpyWriter(const NpyWriter&) = delete;
  NpyWriter& operator=(const NpyWriter&) = delete;

  void write(std::span<const float> values);   // the writer's dtype must be float32
  void write(std::span<const double> values);  // the writer's dtype must be float64
  // Whole elements of the writer's dtype as raw little-endian bytes (int64; bool as one byte
  // 0 or 1 each): bytes.size() must be a multiple of item_size().
  void write_raw(std::span<const unsigned char> bytes);
  void close();

 private:
  void write_bytes(const void* data, size_t count, size_t bytes, DType given);

  std::filesystem::path path_;
  std::filesystem::path temp_path_;  // written here, renamed to path_ by close()
  DType dtype_;
  int64_t expected_ = 0;
  int64_t written_ = 0;
  std::FILE* file_ = nullptr;
};

// Writes a whole array at once (tests, small arrays).
void save(const std::filesystem::path& path, const Shape& shape, std::span<const float> values);
void save(const std::filesystem::path& path, const Shape& shape, std::span<const double> values);

// A .npy file mapped read-only. Accepts format 1.0 and 2.0 headers with descr '<f4', '<f8',
// '<i8' or '|b1' and fortran_order False, whose data is exactly numel(shape) elements; anything
// else throws NpyError.
class MappedNpy {
 public:
  explicit MappedNpy(const std::filesystem::path& path);
  ~MappedNpy();
  MappedNpy(const MappedNpy&) = delete;
  MappedNpy& operator=(const MappedNpy&) = delete;

  const std::filesystem::path& path() const { return path_; }
  const Shape& shape() const { return shape_; }
  DType dtype() const { return dtype_; }
  int64_t count() const { return numel(shape_); }
  // The elements; throws NpyError when the file holds the other dtype.
  std::span<const float> floats() const;
  std::span<const double> doubles() const;
  // The elements' bytes, whatever the dtype (count() · item_size(dtype()) of them).
  std::span<const unsigned char> raw() const;

 private:
  std::filesystem::path path_;
  Shape shape_;
  DType dtype_ = DType::float32;
  void* mapping_ = nullptr;
  size_t mapped_bytes_ = 0;
  size_t data_offset_ = 0;
};

}  // namespace kbv::npy
