// JSON-RPC 2.0 message parsing and building (see jsonrpc.h).
#include "protocol/jsonrpc.h"

#include <cstdint>

namespace hotlines {

namespace {

// Whether the text nests arrays and objects deeper than kMaxJsonDepth: one pass over the
// bytes (strings skipped) before the parser, so nothing recursive ever sees a deep value.
bool too_deep(std::string_view body) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < body.size(); i++) {
    char c = body[i];
    if (in_string) {
      if (c == '\\')
        i++;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return true;
    } else if (c == ']' || c == '}') {
      depth--;
    }
  }
  return false;
}

// A response's error object, type-checked field by field.
RpcError response_error(const json &e, std::string *ignored) {
  RpcError err;
  auto field = [&](const char *key) -> const json * {
    auto it = e.find(key);
    return it == e.end() ? nullptr : &*it;
  };
  if (const json *c = field("code")) {
    if (c->is_number_integer() && c->get<int64_t>() >= INT32_MIN && c->get<int64_t>() <= INT32_MAX)
      err.code = c->get<int>();
    else
      *ignored += "error.code is not a 32-bit integer; ";
  }
  if (const json *m = field("message")) {
    if (m->is_string())
      err.message = m->get<std::string>();
    else
      *ignored += "error.message is not a string; ";
  }
  if (const json *d = field("data")) err.data = *d;
  return err;
}

} // namespace

bool parse_incoming(std::string_view body, Incoming *out, RpcError *error, json *id) {
  *id = nullptr;
  if (too_deep(body)) {
    *error = {kInvalidRequest,
              "invalid request: nested deeper than " + std::to_string(kMaxJsonDepth) + " levels",
              nullptr};
    return false;
  }
  json j = json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    *error = {kParseError, "parse error: the message is not valid JSON", nullptr};
    return false;
  }
  if (!j.is_object()) {
    *error = {kInvalidRequest,
              j.is_array() ? "invalid request: batches are not supported"
                           : "invalid request: a message must be a JSON object",
              nullptr};
    return false;
  }
  auto idit = j.find("id");
  bool has_id = idit != j.end();
  if (has_id) {
    if (idit->is_number_integer() || idit->is_string())
      *id = *idit;
    else if (!idit->is_null()) {
      *error = {kInvalidRequest, "invalid request: id must be a number or a string", nullptr};
      return false;
    }
  }
  auto ver = j.find("jsonrpc");
  if (ver == j.end() || *ver != "2.0") {
    *error = {kInvalidRequest, "invalid request: \"jsonrpc\" must be \"2.0\"", nullptr};
    return false;
  }
  auto m = j.find("method");
  if (m != j.end()) {
    if (!m->is_string()) {
      *error = {kInvalidRequest, "invalid request: method must be a string", nullptr};
      return false;
    }
    out->method = m->get<std::string>();
    auto p = j.find("params");
    out->params = p == j.end() ? json(nullptr) : std::move(*p);
    if (!out->params.is_null() && !out->params.is_object() && !out->params.is_array()) {
      *error = {kInvalidRequest, "invalid request: params must be an object or an array", nullptr};
      return false;
    }
    out->kind = has_id ? Incoming::Kind::request : Incoming::Kind::notification;
    out->id = *id;
    if (has_id && id->is_null()) {
      *error = {kInvalidRequest, "invalid request: id must not be null", nullptr};
      return false;
    }
    return true;
  }
  // A response to one of our requests.
  if (!has_id) {
    *error = {kInvalidRequest, "invalid request: neither a method nor an id", nullptr};
    return false;
  }
  out->kind = Incoming::Kind::response;
  out->id = *id;
  auto r = j.find("result");
  auto e = j.find("error");
  if (e != j.end() && e->is_object()) {
    out->error = response_error(*e, &out->ignored);
  } else if (r != j.end()) {
    out->result = std::move(*r);
  } else {
    *error = {kInvalidRequest, "invalid response: neither result nor error", nullptr};
    return false;
  }
  return true;
}

std::string dump_json(const json &j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string dump_json(const nlohmann::ordered_json &j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string make_response(const json &id, const json &result) {
  return dump_json(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

std::string make_error_response(const json &id, const RpcError &error) {
  json e = {{"code", error.code}, {"message", error.message}};
  if (!error.data.is_null()) e["data"] = error.data;
  return dump_json(json{{"jsonrpc", "2.0"}, {"id", id}, {"error", e}});
}

std::string make_notification(std::string_view method, const json &params) {
  json j = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) j["params"] = params;
  return dump_json(j);
}

std::string make_request(const json &id, std::string_view method, const json &params) {
  json j = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) j["params"] = params;
  return dump_json(j);
}

} // namespace hotlines
