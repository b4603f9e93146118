#include "collector/torch/torch_plugin_loader.h"

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "collector/torch/shared_library.h"

namespace flopscope {
namespace {

namespace fs = std::filesystem;

struct LoadedPlugin {
  std::optional<SharedLibrary> library;
  const TorchPlugin* plugin = nullptr;
  Status error;
};

Status not_available(const std::string& why) {
  return Unavailable("LibTorch support not available (" + why + ")");
}

LoadedPlugin load() {
  LoadedPlugin out;
  std::vector<std::string> candidates = torch_plugin_candidates();
  std::string path;
  std::error_code ec;
  for (const std::string& c : candidates) {
    if (fs::exists(c, ec)) {
      path = c;
      break;
    }
  }
  // An explicit path is tried even when it does not exist, so dlerror() says what is wrong with it.
  if (path.empty() && candidates.size() == 1) path = candidates.front();
  if (path.empty()) {
    std::string searched;
    for (const std::string& c : candidates) searched += (searched.empty() ? "" : ", ") + c;
    out.error = not_available(std::string(kTorchPluginFile) + " not found; looked at " + searched +
                              "; FLOPSCOPE_TORCH_PLUGIN names another");
    return out;
  }
  // RTLD_LOCAL keeps LibTorch's dependencies (OpenCV, Qt 5) out of the global scope of a process that may
  // hold Qt 6. RTLD_NODELETE: LibTorch's thread pools and atexit handlers outlive any owner's dlclose.
  StatusOr<SharedLibrary> library = SharedLibrary::open(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!library.ok()) {
    out.error = not_available(library.status().message());
    return out;
  }
  StatusOr<void*> entry = library->symbol(kTorchPluginEntry);
  if (!entry.ok()) {
    out.error = not_available(entry.status().message());
    return out;
  }
  const TorchPlugin* plugin = reinterpret_cast<TorchPluginEntry>(*entry)();
  if (plugin == nullptr || plugin->abi != kTorchPluginAbi || plugin->layout != torch_plugin_layout() ||
      plugin->profile_model == nullptr || plugin->extract_graph == nullptr) {
    out.error = not_available(path + ": built by another flopscope build (reinstall flopscope)");
    return out;
  }
  out.library = std::move(*library);
  out.plugin = plugin;
  return out;
}

}  // namespace

std::vector<std::string> torch_plugin_candidates() {
  if (const char* env = std::getenv("FLOPSCOPE_TORCH_PLUGIN"); env != nullptr && *env != '\0') return {env};
  std::vector<std::string> out;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path dir = exe.parent_path();
    out.push_back((dir / kTorchPluginFile).string());
    out.push_back((dir.parent_path() / "lib" / kTorchPluginFile).string());
    out.push_back((dir.parent_path() / "lib" / "flopscope" / kTorchPluginFile).string());
  }
  out.push_back(FLOPSCOPE_TORCH_PLUGIN_BUILD_PATH);
  return out;
}

StatusOr<const TorchPlugin*> torch_plugin() {
  static const LoadedPlugin loaded = load();
  if (loaded.plugin == nullptr) return loaded.error;
  return loaded.plugin;
}

}  // namespace flopscope
