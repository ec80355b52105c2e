// Thin RAII wrappers over SQLite: a connection, prepared statements and transactions.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace kbv::kbvd::sqlite {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what, int code = 0) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }  // SQLite's primary result code (SQLITE_FULL, …); 0: kbvd's own
  // The store cannot write now but may later: disk full, an I/O error (EFBIG past RLIMIT_FSIZE
  // included), a lock held too long, a read-only remount, no memory. kbvd degrades and retries
  // instead of exiting (store/store_health.hpp).
  bool transient() const;

 private:
  int code_;
};

class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql);

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, const std::string& value);
  Statement& bind(int index, const char* value) { return bind(index, std::string(value)); }
  Statement& bind_null(int index);
  template <typename T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }

  bool step();  // true while a row is available
  void run();   // steps once, expecting no row
  Statement& reset();

  bool is_null(int column) const;
  std::int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::optional<std::string> optional_text(int column) const;
  std::optional<double> optional_real(int column) const;
  std::optional<std::int64_t> optional_int64(int column) const;

 private:
  struct Finalize {
    void operator()(sqlite3_stmt* s) const;
  };
  sqlite3* db_;
  std::unique_ptr<sqlite3_stmt, Finalize> stmt_;
};

class Database {
 public:
  explicit Database(const std::filesystem::path& path);
  void exec(const std::string& sql);
  Statement prepare(const std::string& sql) { return Statement(db_.get(), sql); }
  std::int64_t last_insert_rowid() const;
  int changes() const;

 private:
  struct Close {
    void operator()(sqlite3* db) const;
  };
  std::unique_ptr<sqlite3, Close> db_;
};

// BEGIN IMMEDIATE … COMMIT; rolls back when left without commit().
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace kbv::kbvd::sqlite
