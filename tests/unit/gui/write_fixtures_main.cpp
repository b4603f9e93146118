// gui_write_fixtures DIR: writes the fixture runs v1.db, v2.db, v2z.db into DIR (for the end-to-end test).
#include <cstdio>
#include <exception>
#include <string>

#include "tests/unit/gui/fixture_runs.h"

int main(int argc, char** argv) {
  using namespace flopscope::gui::testing;
  if (argc != 2) {
    std::fprintf(stderr, "usage: gui_write_fixtures DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  try {
    write_database(sonnet_run({Variant::kV1}), dir + "/v1.db");
    FixtureOptions v2{Variant::kV2};
    v2.seed = 2;
    write_database(sonnet_run(v2), dir + "/v2.db");
    FixtureOptions v2z{Variant::kV2z};
    v2z.seed = 3;
    write_database(sonnet_run(v2z), dir + "/v2z.db");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gui_write_fixtures: %s\n", e.what());
    return 1;
  }
  return 0;
}
