// The web view's page (see web_view_page.h).
#include "server/web/web_view_page.h"

#include "server/web/web_view_bundle.h"

namespace hotlines {

std::string script_safe_json(const std::string &json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (char c : json) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string web_view_page(const std::string &title, std::string_view element_id,
                          const std::string &json, bool connect_self) {
  std::string_view js = web_view_script();
  std::string html;
  html.reserve(json.size() + js.size() + 1024);
  html += "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";
  if (connect_self) html += "; connect-src 'self'";
  html += "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  html += html_escape(title) + " · hotlines</title>\n</head>\n<body>\n";
  html += "<script type=\"application/json\" id=\"";
  html += element_id;
  html += "\">";
  html += script_safe_json(json);
  html += "</script>\n<script>\n";
  html += js;
  html += "\n</script>\n</body>\n</html>\n";
  return html;
}

} // namespace hotlines
