#include <gtest/gtest.h>

#include "db/fleet/pg_store.h"

namespace flopscope {
namespace {

TEST(StoreUrl, FiltersAreTakenOutAndPasswordsMasked) {
  auto u = parse_store_url(
      "postgresql://ci:hunter2@db.example:5433/fleet?branch=feat%2Fx&sslmode=require&machine=a1");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->branch, "feat/x");
  EXPECT_EQ(u->machine, "a1");
  EXPECT_EQ(u->conninfo, "postgresql://ci:hunter2@db.example:5433/fleet?sslmode=require&connect_timeout=10");
  EXPECT_EQ(u->display.find("hunter2"), std::string::npos);
  EXPECT_NE(u->display.find("ci:***@db.example"), std::string::npos);
  auto q = parse_store_url("postgres:///fleet?host=/tmp/s&password=pw&connect_timeout=3");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->conninfo, "postgres:///fleet?host=/tmp/s&password=pw&connect_timeout=3");
  EXPECT_EQ(q->display.find("=pw"), std::string::npos);
  EXPECT_FALSE(parse_store_url("mysql://x/y").ok());
  EXPECT_FALSE(parse_store_url("run.db").ok());
}

TEST(StoreUrl, RefusedAddressesNeverShowThePassword) {
  for (const char* bad : {"mysql://root:hunter2@db/x", "postgresql:/ci:hunter2@db/fleet",
                          "host=db user=ci password=hunter2 dbname=fleet", "ci:hunter2@db/fleet"}) {
    auto u = parse_store_url(bad);
    ASSERT_FALSE(u.ok()) << bad;
    EXPECT_EQ(u.status().message().find("hunter2"), std::string::npos) << u.status().message();
    EXPECT_NE(u.status().message().find("***"), std::string::npos) << u.status().message();
  }
  auto ok = parse_store_url("postgresql://ci:hunter2@db/fleet?password=other1&branch=main");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->display, "postgresql://ci:***@db/fleet?password=***&branch=main");
}

}  // namespace
}  // namespace flopscope
