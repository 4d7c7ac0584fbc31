// OutputDecoder (see output_decoder.h).
#include "server/runs/output_decoder.h"

namespace hotlines {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Length of the UTF-8 sequence a lead byte starts (0: not a lead byte).
size_t sequence_length(unsigned char c) {
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return 2;
  if (c >= 0xE0 && c <= 0xEF) return 3;
  if (c >= 0xF0 && c <= 0xF4) return 4;
  return 0;
}

// Whether bytes[0..n) (n >= 2) are a valid start of a sequence of length `len`: continuation
// bytes, and no overlong, surrogate or > U+10FFFF forms.
bool valid_prefix(const unsigned char *b, size_t n, size_t len) {
  for (size_t i = 1; i < n; i++)
    if ((b[i] & 0xC0) != 0x80) return false;
  if (n >= 2 && len == 3) {
    if (b[0] == 0xE0 && b[1] < 0xA0) return false;
    if (b[0] == 0xED && b[1] > 0x9F) return false;
  }
  if (n >= 2 && len == 4) {
    if (b[0] == 0xF0 && b[1] < 0x90) return false;
    if (b[0] == 0xF4 && b[1] > 0x8F) return false;
  }
  return true;
}

// Terminal escape sequences run output is full of when a tool thinks it may color (Jest, Vitest
// and npm do under CI=1 or FORCE_COLOR): ESC [ params final (CSI: colors, cursor moves),
// ESC ] text BEL or ESC \ (OSC: titles, links), ESC intermediates final (charsets, and the
// rest). Returns the length of the one at b[0] == ESC; 0 when it completes in a later chunk.
// A sequence longer than any real one is cut at the limit, so hostile output cannot make the
// decoder hold bytes back without end.
size_t escape_length(const unsigned char *b, size_t n) {
  constexpr size_t kLongest = 4096;
  if (n == 1) return 0; // ESC alone: what it starts comes later
  if (n > kLongest) n = kLongest;
  size_t i = 1;
  if (b[i] == '[') {
    for (i++; i < n; i++)
      if (b[i] >= 0x40 && b[i] <= 0x7E) return i + 1;
  } else if (b[i] == ']') {
    for (i++; i < n; i++) {
      if (b[i] == 0x07) return i + 1;
      if (b[i] == 0x1B && i + 1 < n) return b[i + 1] == '\\' ? i + 2 : i;
    }
  } else {
    for (; i < n; i++)
      if (b[i] >= 0x30 && b[i] <= 0x7E) return i + 1;
  }
  return n == kLongest ? n : 0;
}

} // namespace

std::string OutputDecoder::feed(int stream, std::string_view bytes) {
  std::string &pending = pending_[stream];
  pending.append(bytes);
  std::string out;
  out.reserve(pending.size());
  const auto *b = reinterpret_cast<const unsigned char *>(pending.data());
  size_t i = 0, n = pending.size();
  while (i < n) {
    if (b[i] == 0x1B) {
      size_t len = escape_length(b + i, n - i);
      if (len == 0) break; // completes in a later chunk
      i += len;
      continue;
    }
    size_t len = sequence_length(b[i]);
    if (len == 0) {
      out += kReplacement;
      i++;
      continue;
    }
    size_t have = std::min(len, n - i);
    if (len > 1 && !valid_prefix(b + i, have, len)) {
      out += kReplacement;
      i++;
      continue;
    }
    if (have < len) break; // completes in a later chunk
    out.append(pending, i, len);
    i += len;
  }
  pending.erase(0, i);
  keep(out);
  return out;
}

std::string OutputDecoder::finish(int stream) {
  std::string out;
  // What is held back is an unfinished character (shown as U+FFFD) or escape (dropped).
  if (!pending_[stream].empty() && pending_[stream][0] != '\x1B') out = std::string(kReplacement);
  pending_[stream].clear();
  keep(out);
  return out;
}

void OutputDecoder::note(std::string_view text) {
  keep(text);
}

void OutputDecoder::keep(std::string_view text) {
  tail_.append(text);
  if (tail_.size() > tail_limit_ + tail_limit_ / 2) {
    size_t cut = tail_.size() - tail_limit_;
    // Keep whole characters: skip continuation bytes at the cut.
    while (cut < tail_.size() && (static_cast<unsigned char>(tail_[cut]) & 0xC0) == 0x80) cut++;
    tail_.erase(0, cut);
  }
}

} // namespace hotlines
