// `diff A.pt B.pt --rounds N` profiles A and B in turns (A B A B ...), a few iterations per round, so
// that drift of the machine (load, frequency, caches) lands on both sides alike rather than on whichever
// model ran second. Each round is its own profile; the rounds of one model are joined here into one run
// whose iterations are the rounds' iterations in order.
#pragma once

#include "db/model/run_data.h"

namespace flopscope {

// Appends `round`'s iterations to `into` (both profiles of the same model): ops, kernels, activations
// and dead-compute rows get fresh ids and iteration numbers after `into`'s, modules are matched by path
// (a module only `round` ran is added), start times follow `into`'s last event. The model's graph,
// parameters and run info stay `into`'s; data-quality counts of the same kind add up. The round's
// iterations are recorded as a process of their own (RunData::iteration_processes; `into`'s first ones
// as process 0), so that time is compared over per-round samples.
void append_round(RunData& into, RunData round);

}  // namespace flopscope
