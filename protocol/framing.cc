// LSP base-protocol framing (see framing.h).
#include "protocol/framing.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace hotlines {

namespace {
bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}
constexpr size_t kMaxHeaderBytes = 64 * 1024;
constexpr std::string_view kLengthHeader = "content-length";

// Where `kLengthHeader` next occurs in `s` at or after `from`, in any case; npos if nowhere.
size_t find_length_header(std::string_view s, size_t from) {
  for (size_t i = from; i + kLengthHeader.size() <= s.size(); i++)
    if (iequals(s.substr(i, kLengthHeader.size()), kLengthHeader)) return i;
  return std::string_view::npos;
}
} // namespace

bool MessageReader::resynchronise() {
  size_t at = find_length_header(buf_, pos_);
  if (at == std::string::npos) { // keep a tail that may be the start of the header
    pos_ = std::max(pos_, buf_.size() - std::min(buf_.size(), kLengthHeader.size() - 1));
    compact();
    return false;
  }
  pos_ = at;
  resync_ = false;
  return true;
}

MessageReader::Status MessageReader::fail(std::string *error, std::string message) {
  *error = std::move(message);
  pos_++; // whatever the bad header held, the next message starts after its first byte
  resync_ = true;
  compact();
  return Status::error;
}

void MessageReader::compact() {
  if (pos_ > 0 && (pos_ >= buf_.size() || pos_ > (1u << 20))) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
}

MessageReader::Status MessageReader::next(std::string *body, std::string *error) {
  if (skip_ > 0) {
    size_t n = std::min(skip_, buf_.size() - pos_);
    pos_ += n;
    skip_ -= n;
    compact();
    if (skip_ > 0) return Status::need_more;
  }
  if (resync_ && !resynchronise()) return Status::need_more;
  // Skip stray line ends between messages.
  while (pos_ < buf_.size() && (buf_[pos_] == '\r' || buf_[pos_] == '\n')) pos_++;
  std::string_view rest(buf_.data() + pos_, buf_.size() - pos_);
  // The header ends at the first empty line (CRLF CRLF, or bare LF LF).
  size_t end = std::string_view::npos, body_start = 0;
  for (size_t i = 0; i < rest.size(); i++) {
    if (rest[i] != '\n') continue;
    size_t j = i + 1;
    if (j < rest.size() && rest[j] == '\r') j++;
    if (j < rest.size() && rest[j] == '\n') {
      end = i;
      body_start = j + 1;
      break;
    }
  }
  if (end == std::string_view::npos) {
    if (rest.size() > kMaxHeaderBytes)
      return fail(error, "header block longer than 64 KiB without an empty line; skipped to "
                         "the next Content-Length");
    compact();
    return Status::need_more;
  }
  std::string_view header = rest.substr(0, end);
  long long length = -1;
  std::string bad;
  while (!header.empty()) {
    size_t nl = header.find('\n');
    std::string_view line = trim(header.substr(0, nl));
    header = nl == std::string_view::npos ? std::string_view() : header.substr(nl + 1);
    if (line.empty()) continue;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      bad = "malformed header line '" + std::string(line.substr(0, 80)) + "'";
      continue;
    }
    std::string_view name = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (iequals(name, "Content-Length")) {
      long long v = -1;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || p != value.data() + value.size() || v < 0)
        bad = "invalid Content-Length '" + std::string(value.substr(0, 40)) + "'";
      else
        length = v;
    }
    // Content-Type and unknown headers are accepted and ignored (UTF-8 is assumed).
  }
  if (length < 0 && bad.empty()) bad = "missing Content-Length header";
  if (!bad.empty()) return fail(error, bad);
  if (static_cast<unsigned long long>(length) > max_) {
    *error = "message of " + std::to_string(length) + " bytes exceeds the limit of " +
             std::to_string(max_) + " bytes";
    pos_ += body_start;
    skip_ = static_cast<size_t>(length);
    size_t n = std::min(skip_, buf_.size() - pos_);
    pos_ += n;
    skip_ -= n;
    compact();
    return Status::error;
  }
  if (rest.size() - body_start < static_cast<size_t>(length)) return Status::need_more;
  body->assign(rest.substr(body_start, static_cast<size_t>(length)));
  pos_ += body_start + static_cast<size_t>(length);
  compact();
  return Status::message;
}

std::string frame_message(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

} // namespace hotlines
