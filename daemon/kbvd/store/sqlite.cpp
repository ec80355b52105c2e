// SQLite connection, statement and transaction wrappers that turn error codes into exceptions.
#include "store/sqlite.hpp"

#include <sqlite3.h>

#include <fmt/format.h>

namespace kbv::kbvd::sqlite {
namespace {
// How long a statement waits for a lock another connection holds (kbvctl never writes; this
// covers an operator's sqlite3 shell reading the store).
constexpr int kBusyTimeoutMs = 5000;

[[noreturn]] void raise(sqlite3* db, const std::string& what) {
  throw Error(fmt::format("sqlite: {}: {}", what, db ? sqlite3_errmsg(db) : "out of memory"),
              db ? sqlite3_errcode(db) : SQLITE_NOMEM);
}
}  // namespace

bool Error::transient() const {
  switch (code_ & 0xff) {
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_NOMEM:
      return true;
    default:
      return false;
  }
}

void Statement::Finalize::operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
void Database::Close::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

Statement::Statement(sqlite3* db, const std::string& sql) : db_(db) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr) != SQLITE_OK)
    raise(db, "prepare '" + sql.substr(0, 60) + "'");
  stmt_.reset(raw);
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_.get(), index, value) != SQLITE_OK) raise(db_, "bind");
  return *this;
}
Statement& Statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_.get(), index, value) != SQLITE_OK) raise(db_, "bind");
  return *this;
}
Statement& Statement::bind(int index, const std::string& value) {
  if (sqlite3_bind_text(stmt_.get(), index, value.data(), static_cast<int>(value.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK)
    raise(db_, "bind");
  return *this;
}
Statement& Statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_.get(), index) != SQLITE_OK) raise(db_, "bind");
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  raise(db_, "step");
}
void Statement::run() {
  step();
  reset();
}
Statement& Statement::reset() {
  sqlite3_reset(stmt_.get());
  sqlite3_clear_bindings(stmt_.get());
  return *this;
}

bool Statement::is_null(int c) const { return sqlite3_column_type(stmt_.get(), c) == SQLITE_NULL; }
std::int64_t Statement::int64(int c) const { return sqlite3_column_int64(stmt_.get(), c); }
double Statement::real(int c) const { return sqlite3_column_double(stmt_.get(), c); }
std::string Statement::text(int c) const {
  const auto* p = sqlite3_column_text(stmt_.get(), c);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt_.get(), c)))
           : std::string();
}
std::optional<std::string> Statement::optional_text(int c) const {
  if (is_null(c)) return std::nullopt;
  return text(c);
}
std::optional<double> Statement::optional_real(int c) const {
  if (is_null(c)) return std::nullopt;
  return real(c);
}
std::optional<std::int64_t> Statement::optional_int64(int c) const {
  if (is_null(c)) return std::nullopt;
  return int64(c);
}

Database::Database(const std::filesystem::path& path) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                                 nullptr);
  db_.reset(raw);
  if (rc != SQLITE_OK) raise(raw, "open " + path.string());
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
}

void Database::exec(const std::string& sql) {
  char* message = nullptr;
  if (const int rc = sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &message); rc != SQLITE_OK) {
    const std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    throw Error(fmt::format("sqlite: exec '{}': {}", sql.substr(0, 60), text), rc);
  }
}

std::int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_.get()); }
int Database::changes() const { return sqlite3_changes(db_.get()); }

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }
Transaction::~Transaction() {
  if (!done_) {
    try {
      db_.exec("ROLLBACK");
    } catch (const Error&) {
      // The transaction may already be gone (e.g. after a failed COMMIT); nothing to undo.
    }
  }
}
void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace kbv::kbvd::sqlite
