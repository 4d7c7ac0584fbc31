// The HTML page of the web view (editors/web): a JSON element the bundle reads (the data
// document `hotlines-data` for exports, or `hotlines-config` for a served page), then the
// bundle itself, both inline, under a CSP that allows no network — or, for a page served by
// the language server, requests to its own origin only. Pure functions.
#pragma once

#include <string>
#include <string_view>

namespace hotlines {

// JSON text safe inside <script>: `<` becomes \u003c.
std::string script_safe_json(const std::string &json);
// Text safe in HTML content and attributes.
std::string html_escape(std::string_view s);
// The page. `element_id` names the JSON element; `connect_self` allows fetches to the page's
// own origin.
std::string web_view_page(const std::string &title, std::string_view element_id,
                          const std::string &json, bool connect_self);

} // namespace hotlines
