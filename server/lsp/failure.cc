// Failure: the one mapping from a failure's kind to its JSON-RPC error code (see failure.h).
#include "server/lsp/failure.h"

#include <iterator>

namespace hotlines {

RpcError Failure::rpc() const {
  // By Kind, in its order.
  static constexpr int kCodes[] = {kInvalidParams,  kRequestCancelled, kContentModified,
                                   kRequestFailed,  kInvalidRequest,   kServerNotInitialized,
                                   kMethodNotFound, kInternalError};
  static_assert(std::size(kCodes) == static_cast<size_t>(Kind::internal) + 1);
  return {kCodes[static_cast<size_t>(kind)], message, data};
}

} // namespace hotlines
