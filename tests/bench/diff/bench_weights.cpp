// `weights` on a 1 GB safetensors file against `cat FILE > /dev/null` in the same run, cold (pages dropped
// from the cache with posix_fadvise) and warm. Prints GB/s of each and the ratio.
//
// Usage: bench_weights [DIR] [GB]
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/weights/weights.h"

namespace fs = std::filesystem;
using namespace flopscope;

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void drop_cache(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

bool write_file(const std::string& path, std::uint64_t bytes) {
  const int tensors = 16;
  const std::uint64_t per = bytes / tensors / 4 * 4;
  std::string header = "{";
  for (int i = 0; i < tensors; ++i) {
    header += (i ? "," : "") + std::string("\"layers.") + std::to_string(i) +
              ".weight\":{\"dtype\":\"F32\",\"shape\":[" + std::to_string(per / 4) + "],\"data_offsets\":[" +
              std::to_string(per * i) + "," + std::to_string(per * (i + 1)) + "]}";
  }
  header += "}";
  while (header.size() % 8 != 0) header += ' ';
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  std::uint64_t n = header.size();
  unsigned char len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(n >> (8 * i));
  std::fwrite(len, 1, 8, f);
  std::fwrite(header.data(), 1, header.size(), f);
  std::vector<float> chunk(1 << 20);
  for (std::size_t i = 0; i < chunk.size(); ++i)
    chunk[i] = static_cast<float>((i * 2654435761u) % 1000) / 1000.0f;
  for (std::uint64_t done = 0; done < per * tensors;) {
    std::uint64_t w = std::min<std::uint64_t>(chunk.size() * 4, per * tensors - done);
    std::fwrite(chunk.data(), 1, w, f);
    done += w;
  }
  return std::fclose(f) == 0;
}

double time_cat(const std::string& path) {
  double t = now_s();
  std::string cmd = "cat '" + path + "' > /dev/null";
  if (std::system(cmd.c_str()) != 0) return -1;
  return now_s() - t;
}

double time_weights(const std::string& path, bool hash) {
  WeightsOptions o;
  o.hash = hash;
  double t = now_s();
  auto r = read_weights(path, o);
  double s = now_s() - t;
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.status().message().c_str());
    return -1;
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::temp_directory_path();
  double gb = argc > 2 ? std::atof(argv[2]) : 1.0;
  std::string path = (dir / "bench_weights.safetensors").string();
  if (!write_file(path, static_cast<std::uint64_t>(gb * 1e9))) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return 2;
  }
  double size = static_cast<double>(fs::file_size(path)) / 1e9;
  std::printf("file: %s, %.3f GB, 16 float32 tensors, %u hardware threads\n", path.c_str(), size,
              std::thread::hardware_concurrency());
  struct Row {
    const char* what;
    double s;
  };
  std::vector<Row> rows;
  drop_cache(path);
  rows.push_back({"cold  cat > /dev/null", time_cat(path)});
  drop_cache(path);
  rows.push_back({"cold  weights (stats + sha256)", time_weights(path, true)});
  drop_cache(path);
  rows.push_back({"cold  weights --no-hash", time_weights(path, false)});
  rows.push_back({"warm  cat > /dev/null", time_cat(path)});
  rows.push_back({"warm  weights (stats + sha256)", time_weights(path, true)});
  rows.push_back({"warm  weights --no-hash", time_weights(path, false)});
  for (const auto& r : rows) {
    std::printf("%-32s %7.3f s  %6.2f GB/s\n", r.what, r.s, r.s > 0 ? size / r.s : 0.0);
  }
  std::printf("ratio weights/cat (cold): stats+sha256 %.2fx, no-hash %.2fx of cat's time\n",
              rows[1].s / rows[0].s, rows[2].s / rows[0].s);
  fs::remove(path);
  return 0;
}
