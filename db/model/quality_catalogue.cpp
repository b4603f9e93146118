#include "db/model/quality_catalogue.h"

#include <algorithm>
#include <array>

namespace flopscope {
namespace {

constexpr QualityKind kKinds[] = {
#define FLOPSCOPE_QUALITY_ROW(code, severity, text) {QualityCode::code, #code, Severity::severity, text},
    FLOPSCOPE_QUALITY_KINDS(FLOPSCOPE_QUALITY_ROW)
#undef FLOPSCOPE_QUALITY_ROW
};

// kKinds[i].code == i, so a code indexes its row.
constexpr bool indexed_by_code() {
  for (std::size_t i = 0; i < std::size(kKinds); ++i) {
    if (static_cast<std::size_t>(kKinds[i].code) != i) return false;
  }
  return true;
}
static_assert(indexed_by_code());

}  // namespace

std::span<const QualityKind> quality_catalogue() {
  return kKinds;
}

const QualityKind& quality_kind(QualityCode code) {
  const auto i = static_cast<std::size_t>(code);
  return i < std::size(kKinds) ? kKinds[i] : kKinds[0];
}

std::string_view quality_id(QualityCode code) {
  return quality_kind(code).id;
}

std::string_view quality_text(QualityCode code) {
  return quality_kind(code).text;
}

std::optional<QualityCode> quality_code_from_id(std::string_view id) {
  auto it =
      std::find_if(std::begin(kKinds), std::end(kKinds), [&](const QualityKind& k) { return k.id == id; });
  if (it == std::end(kKinds)) return std::nullopt;
  return it->code;
}

}  // namespace flopscope
