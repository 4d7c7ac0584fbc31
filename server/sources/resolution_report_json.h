// The JSON form of a ResolutionReport: the result of `hotlines/resolutionReport` and of
// `hotlines resolve --json` (shape documented in protocol/README.md). Pure; any thread.
#pragma once

#include "server/sources/resolution_report.h"

#include <nlohmann/json.hpp>

namespace hotlines {

nlohmann::json resolution_report_json(const ResolutionReport &report);

} // namespace hotlines
