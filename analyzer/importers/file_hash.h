// SHA-256 of a whole file for RunInfo::source_sha256, through OpenSSL (SHA extensions: ~2 GB/s), so
// that hashing a multi-GB trace on a second thread finishes before the import does. Same digest as
// sha256_file() in db/model/sha256.h.
#pragma once

#include <future>
#include <string>

#include "db/model/status.h"

namespace flopscope {

StatusOr<std::string> sha256_file_fast(const std::string& path);

}  // namespace flopscope
