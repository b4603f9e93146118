#include "analyzer/importers/units.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

TEST(Units, LocaleNumbers) {
  EXPECT_DOUBLE_EQ(*parse_locale_number("6,400"), 6400);
  EXPECT_DOUBLE_EQ(*parse_locale_number("916,827,944.75"), 916827944.75);
  EXPECT_DOUBLE_EQ(*parse_locale_number("1.234.567,5"), 1234567.5);
  EXPECT_DOUBLE_EQ(*parse_locale_number("0,5"), 0.5);
  EXPECT_DOUBLE_EQ(*parse_locale_number("2.54"), 2.54);
  EXPECT_DOUBLE_EQ(*parse_locale_number("128"), 128);
  EXPECT_DOUBLE_EQ(*parse_locale_number("-3"), -3);
  EXPECT_FALSE(parse_locale_number("n/a"));
  EXPECT_FALSE(parse_locale_number(""));
  EXPECT_FALSE(parse_locale_number("(256, 1, 1)"));
}

TEST(Units, ScalesToBaseUnits) {
  EXPECT_DOUBLE_EQ(unit_scale("byte").factor, 1);
  EXPECT_DOUBLE_EQ(unit_scale("Kbyte").factor, 1e3);
  EXPECT_DOUBLE_EQ(unit_scale("Mbyte").factor, 1e6);
  EXPECT_DOUBLE_EQ(unit_scale("Gbyte").factor, 1e9);
  EXPECT_DOUBLE_EQ(unit_scale("Kibyte").factor, 1024);
  EXPECT_EQ(unit_scale("Gbyte").base, "byte");
  EXPECT_DOUBLE_EQ(unit_scale("nsecond").factor, 1);
  EXPECT_DOUBLE_EQ(unit_scale("usecond").factor, 1e3);
  EXPECT_DOUBLE_EQ(unit_scale("msecond").factor, 1e6);
  EXPECT_EQ(unit_scale("msecond").base, "ns");
  EXPECT_DOUBLE_EQ(unit_scale("Minst").factor, 1e6);
  EXPECT_DOUBLE_EQ(unit_scale("cycle/second").factor, 1);
  EXPECT_DOUBLE_EQ(unit_scale("cycle/nsecond").factor, 1e9);
  EXPECT_DOUBLE_EQ(unit_scale("Gbyte/second").factor, 1e9);
  EXPECT_EQ(unit_scale("cycle/usecond").base, "cycle/s");
  EXPECT_TRUE(unit_scale("%").known);
  EXPECT_FALSE(unit_scale("furlong").known);
}

}  // namespace
}  // namespace flopscope
