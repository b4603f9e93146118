// The words for an elimination candidate that every front end shares (the CLI's table and Markdown, the
// GUI's module tree), so that each says the same: where the module never runs, what removing it saves, and
// on which input sets it is needed, in which case no saving is stated for them.
#pragma once

#include <functional>
#include <string>

#include "analyzer/activations/candidates.h"

namespace flopscope {

// Shows an input-set tag (never "") in the target's escaping.
using EscapeTag = std::function<std::string(const std::string& tag)>;
std::string tag_as_is(const std::string& tag);

// "3 params, 12.3 kB": the parameter and buffer tensors of the module's subtree.
std::string candidate_weights_text(const Candidate& c);

// "never runs on these inputs", or "never runs on input set a; runs on input set b".
std::string never_runs_text(const Candidate& c, const EscapeTag& escape = tag_as_is);

// Per set: "a 2/2, b 0/2, c never runs" (zero-like / identity-like), "a never runs, b runs (8 calls)".
std::string by_input_set_text(const Candidate& c, const EscapeTag& escape = tag_as_is);

// "removing it would save ..." for every set, or "... on input set a; needed on input set b (...)".
std::string saving_text(const Candidate& c, const EscapeTag& escape = tag_as_is);

// One short cell: "zero-like (3 of 3 calls)", "never runs (3 params, 12.3 kB)", then "; needed on input set
// b" when some set needs the module.
std::string behaviour_text(const Candidate& c);

}  // namespace flopscope
