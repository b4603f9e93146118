// The elimination-candidates section of `flopscope report --candidates`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/activations/candidate_verify.h"
#include "analyzer/activations/candidates.h"

namespace flopscope::cli {

// With `verified` (report --candidates --verify), each candidate also says whether ablating it changed the
// model's outputs.
std::string render_candidates_table(const CandidateReport& r,
                                    const CandidateVerifications* verified = nullptr);
std::string render_candidates_markdown(const CandidateReport& r,
                                       const CandidateVerifications* verified = nullptr);
nlohmann::ordered_json candidates_json(const CandidateReport& r,
                                       const CandidateVerifications* verified = nullptr);

}  // namespace flopscope::cli
