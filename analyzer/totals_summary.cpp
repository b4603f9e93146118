#include "analyzer/totals_summary.h"

namespace flopscope {

SummaryOptions totals_summary_options(SummaryOptions base) {
  base.top_ops = 0;
  return base;
}

}  // namespace flopscope
