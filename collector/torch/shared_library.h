// One owner for a dlopen() handle: opened by open(), closed by the destructor, symbols looked up by name.
#pragma once

#include <dlfcn.h>

#include <string>

#include "db/model/status.h"

namespace flopscope {

class SharedLibrary {
 public:
  // dlopen(path, flags); the error is dlerror()'s text, which names the file.
  static StatusOr<SharedLibrary> open(const std::string& path, int flags = RTLD_NOW | RTLD_LOCAL);

  SharedLibrary(SharedLibrary&& other) noexcept;
  SharedLibrary& operator=(SharedLibrary&& other) noexcept;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary();

  // dlsym; the error is dlerror()'s text when the library does not define `name`.
  StatusOr<void*> symbol(const char* name) const;

 private:
  explicit SharedLibrary(void* handle) : handle_(handle) {}
  void* handle_ = nullptr;
};

}  // namespace flopscope
