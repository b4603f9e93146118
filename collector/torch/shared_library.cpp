#include "collector/torch/shared_library.h"

#include <utility>

namespace flopscope {
namespace {

std::string last_dl_error(const std::string& fallback) {
  const char* e = dlerror();
  return e != nullptr ? e : fallback;
}

}  // namespace

StatusOr<SharedLibrary> SharedLibrary::open(const std::string& path, int flags) {
  dlerror();  // clear a stale error
  void* handle = dlopen(path.c_str(), flags);
  if (handle == nullptr) return Unavailable(last_dl_error(path + ": cannot be loaded"));
  return SharedLibrary(handle);
}

SharedLibrary::SharedLibrary(SharedLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)) {}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

SharedLibrary::~SharedLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

StatusOr<void*> SharedLibrary::symbol(const char* name) const {
  dlerror();
  void* address = dlsym(handle_, name);
  if (address == nullptr) return NotFound(last_dl_error(std::string(name) + ": not defined"));
  return address;
}

}  // namespace flopscope
