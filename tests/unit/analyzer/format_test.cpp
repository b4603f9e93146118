#include "analyzer/format.h"

#include <gtest/gtest.h>

#include <clocale>
#include <limits>

namespace flopscope {
namespace {

TEST(Format, ThreeSignificantDigitsWithSiPrefixes) {
  EXPECT_EQ(flops_text(1.8e9), "1.8 GFLOPs");
  EXPECT_EQ(flops_text(1234567), "1.23 MFLOPs");
  EXPECT_EQ(flops_text(-2500), "-2.5 kFLOPs");
  EXPECT_EQ(bytes_text(999), "999 B");
  EXPECT_EQ(bytes_text(12.3e6), "12.3 MB");
  // A value that rounds to 1000 at three digits takes the next prefix.
  EXPECT_EQ(bytes_text(999.7), "1 kB");
  EXPECT_EQ(flops_text(0), "0 FLOPs");
  EXPECT_EQ(flops_text(std::numeric_limits<double>::quiet_NaN()), "nan FLOPs");
}

TEST(Format, TimeInNsUsMsS) {
  EXPECT_EQ(time_text(812), "812 ns");
  EXPECT_EQ(time_text(12345), "12.3 \xC2\xB5s");
  EXPECT_EQ(time_text(1.234e6), "1.23 ms");
  EXPECT_EQ(time_text(999.7e3), "1 ms");
  EXPECT_EQ(time_text(4.56e9), "4.56 s");
}

TEST(Format, CountsAndPercents) {
  EXPECT_EQ(count_text(42), "42");
  EXPECT_EQ(count_text(41.5), "41.5");
  EXPECT_EQ(percent_text(0.123), "12.3%");
  EXPECT_EQ(signed_percent_text(0.05), "+5.0%");
  EXPECT_EQ(signed_percent_text(-0.05), "-5.0%");
  EXPECT_EQ(signed_percent_text(0), "+0.0%");
}

TEST(Format, NegativeZeroPrintsAsZero) {
  // A saving of nothing (-1 x 0 FLOPs) and values that round to zero are "0", never "-0".
  EXPECT_EQ(flops_text(-0.0), "0 FLOPs");
  EXPECT_EQ(bytes_text(-0.0), "0 B");
  EXPECT_EQ(time_text(-0.0), "0 ns");
  EXPECT_EQ(count_text(-0.04), "0.0");
  EXPECT_EQ(percent_text(-0.0001), "0.0%");
  EXPECT_EQ(signed_percent_text(-0.0001), "+0.0%");
  EXPECT_EQ(signed_percent_text(-0.0), "+0.0%");
  // Small non-zero values keep their sign, exponents included.
  EXPECT_EQ(flops_text(-0.5), "-0.5 FLOPs");
  EXPECT_EQ(time_text(-1e-5), "-1e-05 ns");
}

TEST(Format, IndependentOfTheNumericLocale) {
  // The GUI runs under the user's locale; a decimal comma must not reach a number.
  const char* previous = std::setlocale(LC_NUMERIC, nullptr);
  std::string saved = previous ? previous : "C";
  if (!std::setlocale(LC_NUMERIC, "de_DE.UTF-8")) GTEST_SKIP() << "de_DE.UTF-8 locale not installed";
  EXPECT_EQ(count_text(41.5), "41.5");
  EXPECT_EQ(flops_text(1234567), "1.23 MFLOPs");
  std::setlocale(LC_NUMERIC, saved.c_str());
}

}  // namespace
}  // namespace flopscope

namespace flopscope {
namespace {

TEST(ElideMiddle, KeepsTheEndThatTellsSimilarNamesApart) {
  const std::string a =
      "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute";
  const std::string b =
      "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize1x1x1_execute";
  const std::string ea = elide_middle(a, 48), eb = elide_middle(b, 48);
  EXPECT_EQ(ea.size(), 48U);
  EXPECT_EQ(a.substr(0, 48), b.substr(0, 48));  // a plain cut at 48 makes them equal
  EXPECT_TRUE(ea.starts_with("sm90_xmma_gemm_")) << ea;
  EXPECT_TRUE(ea.ends_with("1x1x1_execute")) << ea;
  EXPECT_EQ(ea, eb);  // so does a middle cut alone when they differ in the middle: elide_distinct is for that
  const auto both = elide_distinct({a, b, "short_kernel"}, 48);
  EXPECT_NE(both[0], both[1]);
  EXPECT_EQ(both[0].size(), 48U) << both[0];
  EXPECT_NE(both[0].find("128x128"), std::string::npos) << both[0];
  EXPECT_NE(both[1].find("256x128"), std::string::npos) << both[1];
  EXPECT_EQ(both[2], "short_kernel");
  EXPECT_EQ(elide_middle("encoder.layers.23.attention.output", 20), "encoder.laye~.output");
  EXPECT_EQ(elide_middle("short", 48), "short");
}

TEST(ElideMiddle, NeverSplitsAUtf8Character) {
  const std::string name = "modèle.couches.π.µ.attention.sortie.dernière";
  const std::string e = elide_middle(name, 12);
  std::size_t points = 0;
  for (unsigned char c : e) points += (c & 0xC0) != 0x80;
  EXPECT_EQ(points, 12U) << e;
  EXPECT_EQ(e.find("\xC3~"), std::string::npos);
  EXPECT_TRUE(e.ends_with("ière")) << e;
}

}  // namespace
}  // namespace flopscope
