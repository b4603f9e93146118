// The input sets of a run (`profile --inputs DIR` tags each request with its set; the tag is stored with the
// request's activation statistics) and the run's summary per set: the same module tree, calls and costs as
// summarize() gives the whole run, over the iterations of one set only.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzer/summary.h"
#include "db/model/run_data.h"

namespace flopscope {

// Iteration -> input-set tag, from the activation records ("" for random inputs). Empty without activation
// statistics: the sets of such a run are unknown.
std::map<int, std::string> iteration_input_sets(const RunData& run);

// The run's distinct input-set tags, sorted.
std::vector<std::string> input_set_tags(const std::map<int, std::string>& iteration_sets);

// summarize() over the op and kernel rows of the iterations tagged `tag` (iterations without a tag belong to
// no set). Needs the rows (run.raw_rows).
RunSummary summarize_input_set(const RunData& run, const std::map<int, std::string>& iteration_sets,
                               const std::string& tag);

}  // namespace flopscope
