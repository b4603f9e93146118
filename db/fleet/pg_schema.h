// The fleet store's schema, version 1, as the statements that create it (in one transaction, by push).
// A later version adds a step here and a migration from the version before; readers refuse newer stores.
#pragma once

#include <vector>

namespace flopscope {

const std::vector<const char*>& fleet_schema_v1();

}  // namespace flopscope
