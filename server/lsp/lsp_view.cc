// LspServer: the flame graph view served on loopback for editors without a webview
// (hotlines/openView, workspace/executeCommand hotlines.openView). The server listens on
// 127.0.0.1 at a random port; every URL carries a random token. It serves the page (the web
// view's bundle with a config pointing back here), the profile's data document, and one
// action: opening a frame's source, which the server turns into a window/showDocument request
// to the editor — a jump from a flame frame to source in any LSP editor. Nothing else: no
// writes, no files, no other profiles' data without the token. It stops with the server.
#include "protocol/json_fields.h"
#include "server/lsp/lsp_server.h"
#include "server/lsp/uri.h"
#include "server/web/flame_document.h"
#include "server/web/web_view_page.h"

#include <cstdio>
#include <random>

namespace hotlines {

namespace {

std::string random_token() {
  unsigned char bytes[16] = {};
  if (FILE *f = fopen("/dev/urandom", "rb")) {
    size_t got = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    if (got != sizeof bytes) bytes[0] ^= 1;
  } else {
    std::random_device rd;
    for (unsigned char &b : bytes) b = static_cast<unsigned char>(rd());
  }
  static const char *hex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) out += {hex[b >> 4], hex[b & 15]};
  return out;
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
  if (view_token_.empty()) view_token_ = random_token();
  view_server_ = std::make_unique<HttpServer>(
      work_->loop(), [this](const HttpServer::Request &req, HttpServer::Respond respond) {
        serve_view(req, std::move(respond));
      });
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
  log("info", "flame graph view of " + lp->id + " at " + url);
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
    FlameDocumentOptions o;
    o.title = lp->path.substr(lp->path.rfind('/') + 1);
    o.event = query_param(query, "event");
    o.link = "none";
    work_->queue(
        [out, error, o, index = lp->index, res = lp->resolution]() mutable {
          o.sources = res.get();
          nlohmann::ordered_json doc;
          if (build_flame_document(*index, o, &doc, error.get())) *out = dump_json(doc);
        },
        [this, out, error, respond](const Failure *thrown) {
          if (thrown)
            respond(text(500, thrown->message));
          else if (out->empty())
            respond(text(400, *error));
          else
            respond({200, "application/json", std::move(*out), ""});
        });
    return;
  }
  if (what == "open") {
    if (req.method != "POST") return respond(text(405, "POST only"));
    json body = json::parse(req.body, nullptr, false);
    if (!body.is_object() || !body.contains("frame") || !body["frame"].is_object())
      return respond(text(400, "expected {\"frame\": {...}}"));
    const json &frame = body["frame"];
    std::string name = frame.value("name", std::string());
    std::string path = frame.contains("path") && frame["path"].is_string()
                           ? frame["path"].get<std::string>()
                           : std::string();
    int64_t line = frame.contains("line") && frame["line"].is_number_integer()
                       ? frame["line"].get<int64_t>()
                       : 0;
    json answer;
    if (path.empty()) {
      std::string why = frame.value("why", std::string("its source is not in the workspace"));
      answer = {{"message", name + ": " + why}};
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
    return respond({200, "application/json", dump_json(answer), ""});
  }
  respond(text(404, "not found"));
}

} // namespace hotlines
