// Helpers for the JFR tests: run tests/oracles/jfr_aggregate.py (the JDK's own parser) on a
// file, aggregate a loaded Profile the same way, and compare the two exactly. Multi-chunk
// files are compared chunk by chunk: the JDK reuses constant-pool entries across chunks by
// key, which is wrong for concatenated recordings, so each chunk is given to it alone.
#pragma once

#include "formats/jfr_reader.h"
#include "formats/loader.h"
#include "formats/profile.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <unistd.h>

namespace hotlines::test {

using Counter = std::map<std::string, int64_t>;

struct EventAggregate {
  int64_t count = 0, weight = 0;
  std::map<std::string, Counter> maps; // threads, self, total, lines_self, ... as in the oracle
};
using Aggregate = std::map<std::string, EventAggregate>;

inline const char *const kAggregateMaps[] = {
    "threads",          "states",           "self",       "total",
    "lines_self",       "lines_total",      "self_value", "total_value",
    "lines_self_value", "lines_total_value"};

inline void write_file(const std::string &path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline Aggregate parse_aggregate(const nlohmann::json &j) {
  Aggregate out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    EventAggregate &e = out[it.key()];
    e.count = it.value().at("count").get<int64_t>();
    e.weight = it.value().at("weight").get<int64_t>();
    for (const char *m : kAggregateMaps)
      for (auto kv = it.value().at(m).begin(); kv != it.value().at(m).end(); ++kv)
        e.maps[m][kv.key()] = kv.value().get<int64_t>();
  }
  return out;
}

inline void add_aggregate(Aggregate *into, const Aggregate &a) {
  for (const auto &[name, e] : a) {
    EventAggregate &d = (*into)[name];
    d.count += e.count;
    d.weight += e.weight;
    for (const auto &[m, counter] : e.maps)
      for (const auto &[k, v] : counter) d.maps[m][k] += v;
  }
}

// Runs the oracle on one file, with `flags` (e.g. "--event jdk.ThreadPark"); fails the test
// (and returns empty) when it cannot run.
inline Aggregate oracle_aggregate_file(const std::string &path, const std::string &flags = "") {
  int status = -1;
  std::string out = run_command("python3 " + shell_quote(oracle_path("jfr_aggregate.py")) + " " +
                                    shell_quote(path) + " " + flags + " 2>&1",
                                &status);
  EXPECT_EQ(status, 0) << "oracle failed on " << path << ":\n" << out.substr(0, 2000);
  if (status != 0) return {};
  return parse_aggregate(nlohmann::json::parse(out));
}

// The chunks of a (plain, uncompressed) JFR file, by their header sizes.
inline std::vector<std::string_view> split_chunks(std::string_view data) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (data.size() - pos >= 68) {
    uint64_t size = 0;
    for (int i = 0; i < 8; i++) size = (size << 8) | static_cast<unsigned char>(data[pos + 8 + i]);
    if (size < 68 || size > data.size() - pos) break;
    out.push_back(data.substr(pos, size));
    pos += size;
  }
  return out;
}

// The oracle's view of a file: the file itself when it has one chunk, else the sum of its
// chunks given to the oracle one at a time.
inline Aggregate oracle_aggregate(const std::string &path, const std::string &plain_bytes) {
  std::vector<std::string_view> chunks = split_chunks(plain_bytes);
  if (chunks.size() <= 1) return oracle_aggregate_file(path);
  TempDir dir;
  Aggregate sum;
  for (size_t i = 0; i < chunks.size(); i++) {
    std::string f = dir.file("chunk" + std::to_string(i) + ".jfr");
    write_file(f, chunks[i]);
    add_aggregate(&sum, oracle_aggregate_file(f));
  }
  return sum;
}

// The oracle's method key: raw class with '/' -> '.', then the method.
inline std::string oracle_method_key(const Profile &p, const Function &f) {
  std::string cls(p.str(f.class_name ? f.class_name : f.library));
  for (char &c : cls)
    if (c == '/') c = '.';
  std::string meth(p.str(f.method));
  if (meth.empty()) meth = "?";
  return cls.empty() ? meth : cls + "." + meth;
}

inline std::string oracle_line_key(const Profile &p, const Frame &fr, const Function &f) {
  if (fr.line <= 0 || !f.class_name) return {};
  if (fr.kind != FrameKind::interpreted && fr.kind != FrameKind::jit &&
      fr.kind != FrameKind::inlined && fr.kind != FrameKind::c1)
    return {};
  std::string cls(p.str(f.class_name));
  for (char &c : cls)
    if (c == '/') c = '.';
  std::string outer = cls.substr(0, cls.find('$'));
  for (char &c : outer)
    if (c == '.') c = '/';
  return outer + ".java:" + std::to_string(fr.line);
}

// The model aggregated like the oracle does it.
inline Aggregate model_aggregate(const Profile &p) {
  Aggregate out;
  std::vector<std::string> mkey(p.frames.size()), lkey(p.frames.size());
  for (size_t i = 0; i < p.frames.size(); i++) {
    const Function &f = p.functions[p.frames[i].function];
    mkey[i] = oracle_method_key(p, f);
    lkey[i] = oracle_line_key(p, p.frames[i], f);
  }
  for (const Event &e : p.events) {
    const SampleColumns &c = e.samples;
    if (c.size() == 0) continue;
    EventAggregate &a = out[std::string(p.str(e.name))];
    auto &m = a.maps;
    for (size_t i = 0; i < c.size(); i++) {
      const int64_t n = c.count_at(i), w = c.value_at(i);
      a.count += n;
      a.weight += w;
      std::string th(p.str(p.threads[c.thread_at(i)].name));
      m["threads"][th.empty() ? "?" : th] += n;
      if (c.state_at(i) != 0) m["states"][std::string(p.str(p.states[c.state_at(i)]))] += n;
      std::set<std::string_view> seen_m, seen_l;
      bool leaf = true;
      for (StackId s = c.stack[i]; s != kNoStack; s = p.stack_parent[s], leaf = false) {
        FrameId fr = p.stack_frame[s];
        const std::string &k = mkey[fr], &l = lkey[fr];
        if (leaf) {
          m["self"][k] += n;
          m["self_value"][k] += w;
          if (!l.empty()) {
            m["lines_self"][l] += n;
            m["lines_self_value"][l] += w;
          }
        }
        if (seen_m.insert(k).second) {
          m["total"][k] += n;
          m["total_value"][k] += w;
        }
        if (!l.empty() && seen_l.insert(l).second) {
          m["lines_total"][l] += n;
          m["lines_total_value"][l] += w;
        }
      }
    }
  }
  return out;
}

// Describes the differences between two counters (at most a few lines).
inline std::string counter_diff(const Counter &want, const Counter &got) {
  std::string out;
  int shown = 0;
  std::set<std::string> keys;
  for (const auto &kv : want) keys.insert(kv.first);
  for (const auto &kv : got) keys.insert(kv.first);
  for (const std::string &k : keys) {
    auto w = want.find(k), g = got.find(k);
    int64_t wv = w == want.end() ? 0 : w->second, gv = g == got.end() ? 0 : g->second;
    if (wv != gv && shown++ < 8)
      out +=
          "    " + k + ": oracle " + std::to_string(wv) + ", reader " + std::to_string(gv) + "\n";
  }
  return out;
}

// Expects the two aggregates to be equal in every number; returns true when they are.
inline bool expect_same_aggregate(const Aggregate &want, const Aggregate &got,
                                  const std::string &what) {
  bool same = true;
  std::set<std::string> events;
  for (const auto &kv : want) events.insert(kv.first);
  for (const auto &kv : got) events.insert(kv.first);
  for (const std::string &ev : events) {
    auto w = want.find(ev), g = got.find(ev);
    if (w == want.end() || g == got.end()) {
      ADD_FAILURE() << what << ": event " << ev << " only in the "
                    << (w == want.end() ? "reader" : "oracle");
      same = false;
      continue;
    }
    if (w->second.count != g->second.count || w->second.weight != g->second.weight) {
      ADD_FAILURE() << what << ": event " << ev << " count/weight: oracle " << w->second.count
                    << "/" << w->second.weight << ", reader " << g->second.count << "/"
                    << g->second.weight;
      same = false;
    }
    for (const char *m : kAggregateMaps) {
      static const Counter empty;
      auto wm = w->second.maps.find(m), gm = g->second.maps.find(m);
      const Counter &wc = wm == w->second.maps.end() ? empty : wm->second;
      const Counter &gc = gm == g->second.maps.end() ? empty : gm->second;
      // The oracle leaves out zero entries it never saw; so does the model aggregation.
      if (wc != gc) {
        ADD_FAILURE() << what << ": event " << ev << " " << m << " differs:\n"
                      << counter_diff(wc, gc);
        same = false;
      }
    }
  }
  return same;
}

// For each stack of `a`, the stack of `b` with the same frames (both trees parents first); an
// empty vector when `b` has no such stack or the trees differ in size.
inline std::vector<StackId> same_stacks(const Profile &a, const Profile &b) {
  std::map<std::pair<StackId, FrameId>, StackId> in_b;
  for (StackId s = 0; s < b.stack_count(); s++) in_b[{b.stack_parent[s], b.stack_frame[s]}] = s;
  std::vector<StackId> to_b(a.stack_count());
  if (in_b.size() != to_b.size()) return {};
  for (StackId s = 0; s < a.stack_count(); s++) {
    const StackId parent = a.stack_parent[s];
    if (parent != kNoStack && parent >= s) return {};
    auto it = in_b.find({parent == kNoStack ? kNoStack : to_b[parent], a.stack_frame[s]});
    if (it == in_b.end()) return {};
    to_b[s] = it->second;
  }
  return to_b;
}

// Tables and columns equal, id for id; stacks the same stacks, whichever their ids (a batch's
// new stacks are numbered in the order of their frames, ProfileBuilder::stacks_from_leaf).
inline void expect_identical(const Profile &a, const Profile &b) {
  EXPECT_EQ(a.strings, b.strings);
  EXPECT_TRUE(a.functions == b.functions);
  EXPECT_TRUE(a.frames == b.frames);
  const std::vector<StackId> to_b = same_stacks(a, b);
  ASSERT_EQ(to_b.size(), a.stack_count()) << "the stack trees differ";
  ASSERT_EQ(a.threads.size(), b.threads.size());
  for (size_t i = 0; i < a.threads.size(); i++) {
    EXPECT_EQ(a.threads[i].name, b.threads[i].name);
    EXPECT_EQ(a.threads[i].os_tid, b.threads[i].os_tid);
    EXPECT_EQ(a.threads[i].java_tid, b.threads[i].java_tid);
  }
  ASSERT_EQ(a.events.size(), b.events.size());
  for (size_t i = 0; i < a.events.size(); i++) {
    const SampleColumns &x = a.events[i].samples, &y = b.events[i].samples;
    EXPECT_EQ(a.events[i].name, b.events[i].name);
    std::vector<int64_t> x_in_b = x.stack.to_vector();
    for (int64_t &st : x_in_b)
      if (st >= 0 && static_cast<uint64_t>(st) < to_b.size()) st = to_b[st];
    EXPECT_EQ(x_in_b, y.stack.to_vector());
    EXPECT_EQ(x.thread, y.thread);
    EXPECT_EQ(x.time, y.time);
    EXPECT_EQ(x.count, y.count);
    EXPECT_EQ(x.value, y.value);
  }
}

} // namespace hotlines::test
