// Streaming RFC 4180 CSV rows (quoted fields, doubled quotes, CR/LF) over a ByteSource.
#pragma once

#include <string>
#include <vector>

#include "analyzer/importers/byte_source.h"
#include "db/model/status.h"

namespace flopscope {

class CsvReader {
 public:
  explicit CsvReader(ByteSource& source) : source_(source) {}
  // Reads the next row into `fields`; false at the end of input. An unterminated quote is an error.
  StatusOr<bool> next(std::vector<std::string>& fields);
  std::uint64_t line() const { return line_; }

 private:
  StatusOr<bool> fill();
  ByteSource& source_;
  std::string buf_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  std::uint64_t line_ = 0;
};

}  // namespace flopscope
