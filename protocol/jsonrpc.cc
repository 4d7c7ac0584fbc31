// JSON-RPC 2.0 message parsing and building (see jsonrpc.h).
#include "protocol/jsonrpc.h"

namespace hotlines {

bool parse_incoming(std::string_view body, Incoming *out, RpcError *error, json *id) {
  *id = nullptr;
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
    out->params = p == j.end() ? json(nullptr) : *p;
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
    RpcError err;
    err.code = e->value("code", static_cast<int>(kInternalError));
    err.message = e->value("message", std::string());
    err.data = e->value("data", json(nullptr));
    out->error = err;
  } else if (r != j.end()) {
    out->result = *r;
  } else {
    *error = {kInvalidRequest, "invalid response: neither result nor error", nullptr};
    return false;
  }
  return true;
}

namespace {
std::string dump(const json &j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}
} // namespace

std::string make_response(const json &id, const json &result) {
  return dump({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

std::string make_error_response(const json &id, const RpcError &error) {
  json e = {{"code", error.code}, {"message", error.message}};
  if (!error.data.is_null()) e["data"] = error.data;
  return dump({{"jsonrpc", "2.0"}, {"id", id}, {"error", e}});
}

std::string make_notification(std::string_view method, const json &params) {
  json j = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) j["params"] = params;
  return dump(j);
}

std::string make_request(const json &id, std::string_view method, const json &params) {
  json j = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) j["params"] = params;
  return dump(j);
}

} // namespace hotlines
