#include "db/model/sha256.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

TEST(Sha256, KnownVectors) {
  // FIPS 180-4 examples.
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, MillionAsThroughTheBulkPath) {
  // FIPS 180-4 long message: exercises the multi-block path (the SHA extensions where the CPU has them).
  std::string a(1000000, 'a');
  EXPECT_EQ(sha256_hex(a), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  Sha256 pieces;
  for (std::size_t i = 0; i < a.size(); i += 997) pieces.update(std::string_view(a).substr(i, 997));
  EXPECT_EQ(pieces.hex_digest(), sha256_hex(a));
}

TEST(Sha256, IncrementalEqualsOneShot) {
  std::string data(1000, 'x');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 31);
  Sha256 h;
  for (std::size_t i = 0; i < data.size(); i += 7) h.update(std::string_view(data).substr(i, 7));
  EXPECT_EQ(h.hex_digest(), sha256_hex(data));
}

}  // namespace
}  // namespace flopscope
