// The elimination-candidates section of `flopscope report --candidates`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/activations/candidates.h"

namespace flopscope::cli {

std::string render_candidates_table(const CandidateReport& r);
std::string render_candidates_markdown(const CandidateReport& r);
nlohmann::ordered_json candidates_json(const CandidateReport& r);

}  // namespace flopscope::cli
