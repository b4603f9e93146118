#include <gtest/gtest.h>

#include <random>

#include "analyzer/weights/fast_sha256.h"
#include "db/model/sha256.h"

namespace flopscope {
namespace {

TEST(FastSha256, KnownVectors) {
  FastSha256 empty;
  EXPECT_EQ(empty.hex_digest(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  FastSha256 abc;
  abc.update("abc", 3);
  EXPECT_EQ(abc.hex_digest(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// Every length around the block and padding boundaries, fed whole and in uneven pieces.
TEST(FastSha256, MatchesThePortableImplementation) {
  std::mt19937 rng(7);
  std::string data(1000, '\0');
  for (auto& c : data) c = static_cast<char>(rng());
  for (std::size_t n = 0; n <= 300; ++n) {
    FastSha256 whole, pieces;
    whole.update(data.data(), n);
    for (std::size_t off = 0; off < n;) {
      std::size_t k = std::min<std::size_t>(n - off, 1 + (off * 7) % 70);
      pieces.update(data.data() + off, k);
      off += k;
    }
    std::string expect = sha256_hex(std::string_view(data.data(), n));
    EXPECT_EQ(whole.hex_digest(), expect) << n;
    EXPECT_EQ(pieces.hex_digest(), expect) << n;
  }
  std::printf("SHA extensions %s\n", FastSha256::hardware_available() ? "used" : "not available: portable path tested");
}

}  // namespace
}  // namespace flopscope
