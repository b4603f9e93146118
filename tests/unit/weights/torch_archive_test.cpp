// torch.save and TorchScript archives written by PyTorch at test time; expected values from PyTorch itself.
#include "analyzer/weights/torch_archive.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "analyzer/weights/pickle.h"
#include "analyzer/weights/weights.h"
#include "db/model/atomic_file.h"
#include "weights_fixtures.h"

namespace flopscope {
namespace {

class TorchArchive : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(testing::temp_dir("torch"));
    std::string cmd = "/usr/bin/python3 " FLOPSCOPE_SOURCE_DIR "/tests/unit/weights/make_torch_fixtures.py " +
                      dir_->string() + " 2>/dev/null";
    ok_ = std::system(cmd.c_str()) == 0;
  }
  void SetUp() override {
    if (!ok_) GTEST_SKIP() << "/usr/bin/python3 with torch is not available";
  }
  static nlohmann::json expected(const std::string& file) {
    auto text = read_file((*dir_ / "expected.json").string());
    return nlohmann::json::parse(*text)[file];
  }
  static void check(const std::string& file, const std::string& format) {
    auto r = read_weights((*dir_ / file).string(), {});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->format, format);
    nlohmann::json want = expected(file);
    ASSERT_EQ(r->tensors.size(), want.size());
    for (const auto& t : r->tensors) {
      SCOPED_TRACE(file + ": " + t.name);
      ASSERT_TRUE(want.contains(t.name));
      const auto& w = want[t.name];
      EXPECT_EQ(t.shape, w["shape"].get<std::vector<std::int64_t>>());
      EXPECT_EQ(to_string(t.state), w["state"].get<std::string>());
      if (w["state"] == "ERASED") continue;
      EXPECT_NEAR(t.l2, w["l2"].get<double>(), 1e-9 * (1 + t.l2));
      EXPECT_DOUBLE_EQ(t.max_abs, w["max_abs"].get<double>());
      EXPECT_DOUBLE_EQ(t.nonzero_fraction, w["nonzero_fraction"].get<double>());
      EXPECT_EQ(t.sha256, w["sha256"].get<std::string>());
    }
  }
  static std::filesystem::path* dir_;
  static bool ok_;
};
std::filesystem::path* TorchArchive::dir_ = nullptr;
bool TorchArchive::ok_ = false;

TEST_F(TorchArchive, StateDictMatchesPyTorch) {
  check("state.bin", "torch.save");
}

TEST_F(TorchArchive, TorchScriptModuleMatchesItsStateDict) {
  check("module.pt", "torchscript");
}

TEST_F(TorchArchive, TruncatedArchiveIsCorruptNotACrash) {
  auto bytes = read_file((*dir_ / "state.bin").string());
  ASSERT_TRUE(bytes.ok());
  for (std::size_t n :
       {std::size_t{0}, std::size_t{10}, bytes->size() / 2, bytes->size() - 30, bytes->size() - 1}) {
    std::string cut = bytes->substr(0, n);
    auto r = parse_torch_archive({reinterpret_cast<const std::uint8_t*>(cut.data()), cut.size()}, "cut.bin");
    EXPECT_FALSE(r.ok()) << n;
  }
}

TEST(Pickle, BadStreamsAreErrors) {
  auto run = [](const std::string& s) {
    return unpickle({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}, "x.pkl");
  };
  EXPECT_FALSE(run("").ok());                           // no STOP
  EXPECT_FALSE(run("\x80\x02.").ok());                  // STOP on an empty stack
  EXPECT_FALSE(run("\x80\x02h\x05.").ok());             // GET of an unknown memo entry
  EXPECT_FALSE(run("\x80\x02X\xff\x00\x00\x00").ok());  // string past the end
  EXPECT_FALSE(run("\x80\x02\xff.").ok());              // unknown opcode
  EXPECT_FALSE(run("\x80\x02t.").ok());                 // TUPLE without MARK
  auto ok =
      run(std::string("\x80\x02}q\x00(X\x01\x00\x00\x00"
                      "a"
                      "K\x07u.",
                      16));
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  ASSERT_EQ(ok->root->dict.size(), 1u);
  EXPECT_EQ(ok->root->dict[0].first->s, "a");
  EXPECT_EQ(ok->root->dict[0].second->i, 7);
  // A list that contains itself, and nesting a million deep: no leak, no stack overflow.
  EXPECT_TRUE(run(std::string("\x80\x02]q\x00h\x00"
                              "a.",
                              9))
                  .ok());
  EXPECT_TRUE(run("\x80\x02" + std::string(1000000, ']') + std::string(999999, 'a') + ".").ok());
}

}  // namespace
}  // namespace flopscope
