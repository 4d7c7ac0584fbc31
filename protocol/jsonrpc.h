// JSON-RPC 2.0 messages: classifying an incoming body (request, notification, response) with
// the right error for malformed input, and building outgoing messages. Pure functions over
// nlohmann::json; no I/O, no threads.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace hotlines {

using json = nlohmann::json;

enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestFailed = -32803,
  kRequestCancelled = -32800,
  kContentModified = -32801,
};

struct RpcError {
  int code = kInternalError;
  std::string message;
  json data; // null when absent
};

// How deeply an incoming message may nest arrays and objects; deeper is -32600 before any
// of it is used (copying or printing a value recurses on its depth).
inline constexpr int kMaxJsonDepth = 512;

struct Incoming {
  enum class Kind { request, notification, response } kind = Kind::notification;
  json id;                       // requests and responses: number or string
  std::string method;            // requests and notifications
  json params;                   // null when absent
  json result;                   // responses
  std::optional<RpcError> error; // responses
  std::string ignored;           // what of a response's error object was ill-typed, for the log
};

// Parses a message body. On failure returns false and fills *error (kParseError for bad
// JSON, kInvalidRequest for a well-formed value that is not a JSON-RPC message or nests
// deeper than kMaxJsonDepth) and *id with the request id when one could be read (else null).
// A response's error object is type-checked: ill-typed fields are replaced by defaults and
// named in out->ignored.
bool parse_incoming(std::string_view body, Incoming *out, RpcError *error, json *id);

// Serialises a value (compact, or indented by `indent`); bytes that are not UTF-8, which
// names read from profiles and paths may hold, become U+FFFD instead of throwing.
std::string dump_json(const json &j, int indent = -1);
std::string dump_json(const nlohmann::ordered_json &j, int indent = -1);

std::string make_response(const json &id, const json &result);
std::string make_error_response(const json &id, const RpcError &error);
std::string make_notification(std::string_view method, const json &params);
std::string make_request(const json &id, std::string_view method, const json &params);

} // namespace hotlines
