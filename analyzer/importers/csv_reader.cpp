#include "analyzer/importers/csv_reader.h"

namespace flopscope {
namespace {
constexpr std::size_t kMaxFieldBytes = std::size_t{16} << 20;  // no real metric or kernel name comes close
}  // namespace

StatusOr<bool> CsvReader::fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  std::size_t old = buf_.size();
  buf_.resize(old + (1 << 20));
  FS_ASSIGN_OR_RETURN(std::size_t n, source_.read(buf_.data() + old, 1 << 20));
  buf_.resize(old + n);
  if (n == 0) eof_ = true;
  return n > 0;
}

StatusOr<bool> CsvReader::next(std::vector<std::string>& fields) {
  fields.clear();
  if (pos_ >= buf_.size()) {
    FS_ASSIGN_OR_RETURN(bool got, fill());
    if (!got) return false;
  }
  ++line_;
  std::string field;
  bool quoted = false;
  bool was_quoted = false;
  for (;;) {
    if (pos_ >= buf_.size()) {
      FS_ASSIGN_OR_RETURN(bool got, fill());
      if (!got) {
        if (quoted) {
          return Corrupt(source_.path() + ": line " + std::to_string(line_) +
                         ": the file ends inside a quoted field (truncated?)");
        }
        // Every row a tool writes ends with a line break: one without is the cut end of a truncated file,
        // and its last value may be cut short too (12.5 read as 12).
        return Corrupt(source_.path() + ": line " + std::to_string(line_) +
                       ": the file ends inside a row (truncated?)");
      }
    }
    char c = buf_[pos_++];
    if (quoted) {
      if (c == '"') {
        if (pos_ >= buf_.size()) {
          FS_ASSIGN_OR_RETURN(bool got, fill());
          (void)got;
        }
        if (pos_ < buf_.size() && buf_[pos_] == '"') {
          field += '"';
          ++pos_;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line_;
        field += c;
      }
      continue;
    }
    if (c == '"' && field.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
      was_quoted = false;
    } else if (c == '\n') {
      fields.push_back(std::move(field));
      return true;
    } else if (c != '\r') {
      field += c;
      if (field.size() > kMaxFieldBytes) {
        return InvalidArgument(source_.path() + ": line " + std::to_string(line_) + ": a field longer than " +
                               std::to_string(kMaxFieldBytes >> 20) + " MiB");
      }
    }
  }
}

}  // namespace flopscope
