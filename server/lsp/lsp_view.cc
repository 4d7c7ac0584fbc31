// LspServer: the flame graph view served on loopback for editors without a webview
// (hotlines/openView, workspace/executeCommand hotlines.openView). The server listens on
// 127.0.0.1 at a random port; every URL carries a random token. It serves the page (the web
// view's bundle with a config pointing back here), the profile's data document, and one
// action: opening a frame's source, which the server turns into a window/showDocument request
// to the editor — a jump from a flame frame to source in any LSP editor. The page names the
// frame's function by its index in the document served; the server resolves the path itself,
// so no path a request names is ever opened. Requests must carry Host 127.0.0.1:PORT (or
// localhost:PORT: no DNS rebinding) and no Origin but the view's own. Nothing else: no writes,
// no files, no other profiles' data without the token. It stops with the server. Loop thread.
#include "protocol/json_fields.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/web/flame_document.h"
#include "server/web/web_view_page.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

namespace hotlines {

namespace {

// 128 random bits as hex; false when the system cannot give them (a guessable token would
// open the view to any local process or page, so there is no weaker fallback).
bool random_token(std::string *out, std::string *error) {
  unsigned char bytes[16] = {};
  size_t got = 0;
  if (FILE *f = fopen("/dev/urandom", "rb")) {
    while (got < sizeof bytes) {
      size_t n = fread(bytes + got, 1, sizeof bytes - got, f);
      if (n == 0) break;
      got += n;
    }
    fclose(f);
  }
  if (got != sizeof bytes) {
    *error = "cannot read 16 random bytes from /dev/urandom for the view's token";
    return false;
  }
  static const char *hex = "0123456789abcdef";
  out->clear();
  for (unsigned char b : bytes) *out += {hex[b >> 4], hex[b & 15]};
  return true;
}

std::string lower(std::string s) {
  for (char &ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// Why a request may not be served, or "": it must name this server by its loopback address
// (a page whose host name was rebound to 127.0.0.1 sends its own Host) and come from no page or
// from the view's own (a page elsewhere that posts here sends its Origin).
std::string refusal(const HttpServer::Request &req, int port) {
  const std::string suffix = ":" + std::to_string(port);
  const std::string *host = req.header("host");
  if (!host || (lower(*host) != "127.0.0.1" + suffix && lower(*host) != "localhost" + suffix))
    return "wrong Host: the view answers only to 127.0.0.1" + suffix;
  if (const std::string *origin = req.header("origin"))
    if (lower(*origin) != "http://127.0.0.1" + suffix &&
        lower(*origin) != "http://localhost" + suffix)
      return "cross-origin request refused";
  return "";
}

// Limits of the view's HTTP server; HOTLINES_VIEW_TIMEOUT_MS lowers the deadline (for tests).
HttpServer::Limits view_limits() {
  HttpServer::Limits limits;
  if (const char *ms = getenv("HOTLINES_VIEW_TIMEOUT_MS"))
    if (long v = strtol(ms, nullptr, 10); v > 0) limits.timeout_ms = static_cast<uint64_t>(v);
  return limits;
}

HttpServer::Response text(int status, std::string body) {
  return {status, "text/plain; charset=utf-8", std::move(body), ""};
}

std::string query_param(const std::string &query, const std::string &name) {
  size_t p = 0;
  while (p < query.size()) {
    size_t amp = query.find('&', p);
    std::string pair = query.substr(p, amp == std::string::npos ? std::string::npos : amp - p);
    if (pair.rfind(name + "=", 0) == 0)
      return path_of_uri("file:///" + pair.substr(name.size() + 1)).substr(1);
    if (amp == std::string::npos) break;
    p = amp + 1;
  }
  return {};
}

} // namespace

bool LspServer::start_view_server(std::string *error) {
  if (view_server_ && view_server_->listening()) return true;
  if (view_token_.empty() && !random_token(&view_token_, error)) return false;
  view_server_ = std::make_unique<HttpServer>(
      work_->loop(),
      [this](const HttpServer::Request &req, HttpServer::Respond respond) {
        serve_view(req, std::move(respond));
      },
      view_limits());
  return view_server_->listen(error);
}

std::string LspServer::view_url(const std::string &profile_id) const {
  return "http://127.0.0.1:" + std::to_string(view_server_->port()) + "/" + view_token_ + "/" +
         profile_id + "/";
}

void LspServer::on_open_view(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id, event;
  r.optional("profileId", &id);
  r.optional("event", &event);
  if (!r.ok()) throw Failure::bad_params(r.error());
  const LoadedProfile *lp = &session_.profile(id);
  Session::check_event(*lp->profile, event);
  std::string error;
  if (!start_view_server(&error)) throw Failure::failed(error);
  std::string url = view_url(lp->id);
  if (!event.empty()) url += "?event=" + event;
  bool asked = init_.capabilities.show_document;
  if (asked) send_request("window/showDocument", {{"uri", url}, {"external", true}});
  // Not the URL: its token is the view's only key, and logs travel further than the reply.
  log("info", "flame graph view of " + lp->id +
                  " served on 127.0.0.1:" + std::to_string(view_server_->port()));
  reply({{"url", url}, {"showDocument", asked}});
}

// The view's data document as a response, for editors that draw the view in their own webview
// (the VS Code extension). The session's view (event, measure, threads) is the initial one;
// `baseline` (a profile id, "" for none) defaults to the session's baseline.
void LspServer::on_flame_document(const json &params, Reply reply) {
  FieldReader r(params);
  std::string id, baseline = session_.baseline_id;
  r.optional("profileId", &id);
  r.optional("baseline", &baseline);
  if (!r.ok()) throw Failure::bad_params(r.error());
  const LoadedProfile *lp = &session_.profile(id);
  View view = request_view(*lp, params);
  const LoadedProfile *base =
      baseline.empty() || baseline == lp->id ? nullptr : session_.profiles.find(baseline);
  if (!baseline.empty() && baseline != lp->id && !base)
    throw Failure::bad_params("no loaded profile '" + baseline + "' to compare with");
  FlameDocumentOptions o;
  o.title = lp->path.substr(lp->path.rfind('/') + 1);
  o.event = view.event;
  o.measure = view.measure;
  o.threads = view.threads;
  o.link = "none";
  std::shared_ptr<const ProfileIndex> base_index;
  if (base) {
    base_index = base->index;
    o.baseline_title = base->path.substr(base->path.rfind('/') + 1);
  }
  run_query(*lp, reply,
            [index = lp->index, res = lp->resolution, base_index, o]() mutable -> Outcome {
              o.sources = res.get();
              o.baseline = base_index.get();
              nlohmann::ordered_json doc;
              std::string error;
              if (!build_flame_document(*index, o, &doc, &error)) return Failure::failed(error);
              return json::parse(dump_json(doc));
            });
}

void LspServer::serve_view(const HttpServer::Request &req, HttpServer::Respond respond) {
  if (std::string why = refusal(req, view_server_->port()); !why.empty())
    return respond(text(403, why));
  const std::string prefix = "/" + view_token_ + "/";
  if (req.target.rfind(prefix, 0) != 0) return respond(text(404, "not found"));
  std::string rest = req.target.substr(prefix.size()), query;
  if (size_t q = rest.find('?'); q != std::string::npos) query = rest.substr(q + 1), rest.resize(q);
  size_t slash = rest.find('/');
  std::string id = rest.substr(0, slash),
              what = slash == std::string::npos ? "" : rest.substr(slash + 1);
  const LoadedProfile *lp = session_.profiles.find(id);
  if (!lp) return respond(text(404, "no such profile"));
  if (what.empty()) {
    if (req.method != "GET") return respond(text(405, "GET only"));
    std::string event = query_param(query, "event");
    json config = {{"document", "document.json" + (event.empty() ? "" : "?event=" + event)},
                   {"open", "open"}};
    return respond({200, "text/html; charset=utf-8",
                    web_view_page(lp->path.substr(lp->path.rfind('/') + 1), "hotlines-config",
                                  dump_json(config), true),
                    ""});
  }
  if (what == "document.json") {
    if (req.method != "GET") return respond(text(405, "GET only"));
    auto out = std::make_shared<std::string>();
    auto error = std::make_shared<std::string>();
    auto functions = std::make_shared<std::vector<ViewFunction>>();
    FlameDocumentOptions o;
    o.title = lp->path.substr(lp->path.rfind('/') + 1);
    o.event = query_param(query, "event");
    o.link = "none";
    work_->queue(
        [out, error, functions, o, index = lp->index, res = lp->resolution]() mutable {
          o.sources = res.get();
          nlohmann::ordered_json doc;
          if (!build_flame_document(*index, o, &doc, error.get())) return;
          for (const auto &f : doc["functions"])
            functions->push_back({f.value("name", ""), f.value("path", ""), f.value("why", "")});
          *out = dump_json(doc);
        },
        [this, id, index = std::weak_ptr<const ProfileIndex>(lp->index), out, error, functions,
         respond](const Failure *thrown) {
          if (thrown) return respond(text(500, thrown->message));
          if (out->empty()) return respond(text(400, *error));
          view_functions_[id] = {index, std::move(*functions)};
          respond({200, "application/json", std::move(*out), ""});
        });
    return;
  }
  if (what == "open") return serve_view_open(*lp, req, std::move(respond));
  respond(text(404, "not found"));
}

// POST {"frame": {"fn": F, "line": L}}: F is the frame's function, an index into the
// `functions` of the document this server served for the profile; the server opens that
// function's resolved source itself (the page names no path), at line L (1-based, 0: none).
void LspServer::serve_view_open(const LoadedProfile &lp, const HttpServer::Request &req,
                                HttpServer::Respond respond) {
  if (req.method != "POST") return respond(text(405, "POST only"));
  const std::string *type = req.header("content-type");
  if (!type || lower(*type).rfind("application/json", 0) != 0)
    return respond(text(415, "expected Content-Type: application/json"));
  json body = json::parse(req.body, nullptr, false);
  if (body.is_discarded()) return respond(text(400, "the body is not JSON"));
  FieldReader r(body, "body");
  const json &frame = r.object("frame");
  if (!r.ok()) return respond(text(400, r.error()));
  // Exactly what the page sends: a key this server does not read is an error, not ignored.
  auto unknown_key = [](const json &obj, std::initializer_list<const char *> known) {
    for (const auto &item : obj.items())
      if (std::none_of(known.begin(), known.end(), [&](const char *k) { return item.key() == k; }))
        return item.key();
    return std::string();
  };
  if (std::string k = unknown_key(body, {"frame"}); !k.empty())
    return respond(text(400, "body." + k + " is not a known key"));
  if (std::string k = unknown_key(frame, {"fn", "line"}); !k.empty())
    return respond(text(400, "body.frame." + k + " is not a known key"));
  FieldReader f(frame, "body.frame");
  int64_t fn = -1, line = 0;
  f.optional("fn", &fn, 0, INT32_MAX);
  f.optional("line", &line, 0, INT32_MAX);
  if (!f.ok()) return respond(text(400, f.error()));
  if (fn < 0) return respond(text(400, "body.frame.fn is required"));
  auto served = view_functions_.find(lp.id);
  if (served == view_functions_.end() || served->second.index.lock() != lp.index)
    return respond(text(409, "no document of this profile was served since it was (re)loaded: "
                             "reload the page"));
  const std::vector<ViewFunction> &functions = served->second.functions;
  if (static_cast<size_t>(fn) >= functions.size())
    return respond(
        text(400, "body.frame.fn: no function " + std::to_string(fn) + " in the served document"));
  const ViewFunction &vf = functions[static_cast<size_t>(fn)];
  const std::string &path = vf.path;
  json answer;
  if (path.empty()) {
    answer = {{"message",
               vf.name + ": " + (vf.why.empty() ? "its source is not in the workspace" : vf.why)}};
  } else if (!init_.capabilities.show_document) {
    answer = {{"message", "the editor does not support window/showDocument; open " + path + ":" +
                              std::to_string(line)}};
  } else {
    int64_t l = std::max<int64_t>(0, line - 1);
    // The editor's current line for it, if the document is open and edited.
    if (const TextDocument *doc = session_.document(uri_of_path(path)); doc && line > 0)
      if (int32_t cur = doc->current_line(static_cast<int32_t>(line - 1)); cur >= 0) l = cur;
    send_request("window/showDocument", {{"uri", uri_of_path(path)},
                                         {"takeFocus", true},
                                         {"selection",
                                          {{"start", {{"line", l}, {"character", 0}}},
                                           {"end", {{"line", l}, {"character", 0}}}}}});
    answer = {
        {"message", "opened " + path.substr(path.rfind('/') + 1) + ":" + std::to_string(line)}};
  }
  respond({200, "application/json", dump_json(answer), ""});
}

} // namespace hotlines
