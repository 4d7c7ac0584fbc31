// Failure: why a request got no result, as one type for the whole LSP layer (what kind of
// failure and its message), and Outcome: a result or a Failure. Failure::rpc() is the one
// place a failure becomes a JSON-RPC error: cancelled -32800, stale (the profile was reloaded
// meanwhile) -32801, bad params -32602, failed (a load or query that could not be done)
// -32803. Synchronous handler code may throw a Failure; the dispatcher answers with it.
// Pure values; any thread.
#pragma once

#include "protocol/jsonrpc.h"

#include <optional>
#include <string>

namespace hotlines {

struct Failure {
  enum class Kind {
    bad_params,
    cancelled,
    stale,
    failed,
    bad_request,
    not_initialized,
    method_not_found,
    internal
  };
  Kind kind = Kind::internal;
  std::string message;
  json data; // null when absent

  Failure() = default;
  Failure(Kind kind, std::string message, json data = nullptr)
      : kind(kind), message(std::move(message)), data(std::move(data)) {}

  static Failure bad_params(std::string message) { return {Kind::bad_params, std::move(message)}; }
  static Failure failed(std::string message, json data = nullptr) {
    return {Kind::failed, std::move(message), std::move(data)};
  }
  static Failure cancelled() { return {Kind::cancelled, "request cancelled"}; }
  static Failure stale() {
    return {Kind::stale, "the profile was reloaded or unloaded; ask again"};
  }
  // The JSON-RPC error this failure is answered with.
  RpcError rpc() const;
};

// What a query run on a worker hands back: its JSON result or why there is none.
class Outcome {
public:
  Outcome(json result) : result_(std::move(result)) {}
  Outcome(Failure failure) : failure_(std::move(failure)) {}
  bool ok() const { return !failure_; }
  const json &result() const { return result_; }
  const Failure &failure() const { return *failure_; }

private:
  json result_;
  std::optional<Failure> failure_;
};

} // namespace hotlines
