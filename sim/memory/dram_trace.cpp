#include "sim/memory/dram_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "sim/foundation/error.hpp"
#include "sim/memory/dram_system.hpp"

namespace warpsim::mem {

namespace {

bool is_sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r'; }

std::string_view next_field(std::string_view& s) {
  size_t i = 0;
  while (i < s.size() && is_sep(s[i])) ++i;
  size_t j = i;
  while (j < s.size() && !is_sep(s[j])) ++j;
  std::string_view f = s.substr(i, j - i);
  s = s.substr(j);
  return f;
}

bool parse_u64(std::string_view f, uint64_t& v) {
  int base = 10;
  if (f.size() > 2 && f[0] == '0' && (f[1] == 'x' || f[1] == 'X')) {
    f = f.substr(2);
    base = 16;
  }
  if (f.empty()) return false;
  auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v, base);
  return ec == std::errc() && p == f.data() + f.size();
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == y;
         });
}

// Shared driver: `next(TraceRequest&)` yields requests in order, false at the end.
template <class Next>
DramRunResult drive(const DramSpec& spec, Next&& next, std::vector<DramCompletion>* out) {
  DramSystem sys(spec);
  DramRunResult res;
  TraceRequest head;
  bool have = next(head);
  uint64_t now = have ? head.arrival : 0;
  uint64_t last_done = 0, id = 0;
  const uint32_t atom = spec.atom_bytes();
  while (have || sys.busy()) {
    while (have && head.arrival <= now && sys.can_accept(head.addr, head.write)) {
      // No size given: the access atom that holds the address.
      const uint32_t bytes = head.bytes ? head.bytes : atom - uint32_t(head.addr % atom);
      sys.enqueue(DramRequest{id++, head.addr, bytes, head.write}, now);
      have = next(head);
    }
    sys.tick(now);
    auto& done = sys.completions();
    for (const DramCompletion& c : done) last_done = std::max(last_done, c.cycle);
    if (out) out->insert(out->end(), done.begin(), done.end());
    done.clear();
    uint64_t nx = sys.next_event_cycle();
    if (have) {
      if (head.arrival > now) nx = std::min(nx, head.arrival);
      else if (sys.can_accept(head.addr, head.write)) nx = now + 1;  // a slot freed this cycle
    }
    if (nx == UINT64_MAX) break;  // unreachable: a blocked head means a busy channel
    now = std::max(now + 1, nx);
  }
  res.requests = id;
  res.cycles = last_done;
  sys.fill_stats(res.stats, last_done);
  return res;
}

}  // namespace

bool parse_trace_line(std::string_view line, std::string_view name, uint64_t lineno,
                      TraceRequest& out) {
  std::string_view s = line.substr(0, line.find('#'));  // '#' starts a comment
  std::string_view f0 = next_field(s);
  if (f0.empty()) return false;
  auto fail = [&](const std::string& msg) -> bool {
    throw Error(fmt::format("{}:{}: {}", name, lineno, msg));
  };
  std::string_view f1 = next_field(s), f2 = next_field(s), f3 = next_field(s);
  std::string_view extra = next_field(s);
  if (f2.empty()) fail("expected ARRIVAL OP ADDRESS [BYTES]");
  if (!extra.empty()) fail(fmt::format("unexpected field \"{}\"", extra));
  TraceRequest r;
  if (!parse_u64(f0, r.arrival)) fail(fmt::format("bad arrival cycle \"{}\"", f0));
  if (iequals(f1, "R") || iequals(f1, "RD") || iequals(f1, "READ")) r.write = false;
  else if (iequals(f1, "W") || iequals(f1, "WR") || iequals(f1, "WRITE")) r.write = true;
  else fail(fmt::format("bad operation \"{}\" (expected R, W, READ or WRITE)", f1));
  if (!parse_u64(f2, r.addr)) fail(fmt::format("bad address \"{}\"", f2));
  if (!f3.empty()) {
    uint64_t b = 0;
    if (!parse_u64(f3, b) || b == 0 || b > (1u << 20))
      fail(fmt::format("bad size \"{}\" (1 to 1048576 bytes)", f3));
    r.bytes = uint32_t(b);
  }
  out = r;
  return true;
}

DramRunResult run_dram_trace(const DramSpec& spec, std::istream& in, const std::string& name,
                             std::vector<DramCompletion>* completions) {
  std::string line;
  uint64_t lineno = 0, prev_arrival = 0;
  auto next = [&](TraceRequest& r) {
    while (std::getline(in, line)) {
      ++lineno;
      if (!parse_trace_line(line, name, lineno, r)) continue;
      if (r.arrival < prev_arrival)
        throw Error(fmt::format("{}:{}: arrival cycle {} is earlier than the previous "
                                "request's {} (the trace must be in arrival order)",
                                name, lineno, r.arrival, prev_arrival));
      prev_arrival = r.arrival;
      return true;
    }
    return false;
  };
  try {
    return drive(spec, next, completions);
  } catch (const ConfigError&) {
    throw;
  } catch (const Error& e) {
    std::string msg = e.what();
    if (msg.starts_with(name + ":")) throw;
    throw Error(fmt::format("{}:{}: {}", name, lineno, msg));  // e.g. a request spanning rows
  }
}

DramRunResult run_dram_requests(const DramSpec& spec, std::span<const TraceRequest> requests,
                                std::vector<DramCompletion>* completions) {
  size_t i = 0;
  uint64_t prev = 0;
  auto next = [&](TraceRequest& r) {
    if (i == requests.size()) return false;
    r = requests[i++];
    if (r.arrival < prev)
      throw Error(fmt::format("request {}: arrival cycle {} is earlier than the previous {}",
                              i - 1, r.arrival, prev));
    prev = r.arrival;
    return true;
  };
  return drive(spec, next, completions);
}

}  // namespace warpsim::mem
