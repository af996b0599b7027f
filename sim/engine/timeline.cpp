#include "sim/engine/timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "sim/foundation/error.hpp"

namespace warpsim {

namespace {

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      o += ' ';
      continue;
    }
    o += c;
  }
  return o;
}

}  // namespace

Timeline::Timeline(const DeviceSpec& spec, uint64_t window, size_t max_events)
    : spec_(spec), window_(window), max_events_(max_events) {
  dram_pid_base_ = 10000;
  events_.reserve(std::min<size_t>(max_events, 1 << 16));
}

uint32_t Timeline::intern(const std::string& name) {
  auto it = name_index_.find(name);
  if (it != name_index_.end()) return it->second;
  names_.push_back(name);
  uint32_t id = static_cast<uint32_t>(names_.size() - 1);
  name_index_.emplace(name, id);
  return id;
}

void Timeline::warp_slice(uint32_t sm, uint32_t slot, const char* category, const std::string& name, uint64_t begin,
                          uint64_t end) {
  if (end <= begin) return;
  if (!wants(begin)) {
    if (begin < window_) ++dropped_;
    return;
  }
  uint8_t cat = 0;
  auto it = std::find(categories_.begin(), categories_.end(), category);
  if (it == categories_.end()) {
    categories_.push_back(category);
    cat = static_cast<uint8_t>(categories_.size() - 1);
  } else {
    cat = static_cast<uint8_t>(it - categories_.begin());
  }
  events_.push_back({sm, slot, begin, end - begin, intern(name), cat});
}

void Timeline::on_dram_command(uint32_t channel, mem::DramCommand c, uint32_t bank, uint64_t dram_cycle) {
  const auto& t = spec_.dram.timing;
  uint64_t dur = 1;
  const char* name = "";
  switch (c) {
    case mem::DramCommand::ACT: name = "ACT"; dur = t.tRCD; break;
    case mem::DramCommand::PRE: name = "PRE"; dur = t.tRP; break;
    case mem::DramCommand::RD: name = "RD"; dur = spec_.dram.burst_cycles(); break;
    case mem::DramCommand::WR: name = "WR"; dur = spec_.dram.burst_cycles(); break;
    case mem::DramCommand::REF: name = "REF"; dur = std::max<uint64_t>(t.tRFC, 1); break;
  }
  // DRAM command cycles -> SM cycles.
  const double ratio = spec_.clock_mhz / spec_.dram.command_clock_mhz;
  const uint64_t begin = uint64_t(double(dram_cycle) * ratio);
  const uint64_t end = std::max(begin + 1, uint64_t(double(dram_cycle + dur) * ratio));
  warp_slice(dram_pid_base_ + channel, bank, "dram", name, begin, end);
}

void Timeline::write(const std::string& path, const std::string& kernel) const {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "w"), &std::fclose);
  if (!f) throw Error(fmt::format("{}: cannot write the timeline", path));
  FILE* o = f.get();
  fmt::print(o, "{{\"displayTimeUnit\": \"ns\", \"otherData\": {{\"kernel\": \"{}\", \"device\": \"{}\", "
                "\"time_unit\": \"1 trace microsecond = 1 SM cycle ({} MHz)\", \"window_cycles\": {}, "
                "\"truncated\": {}}},\n\"traceEvents\": [\n",
             escape(kernel), escape(spec_.name), spec_.clock_mhz, window_, dropped_ ? "true" : "false");
  // Process and thread names, for the processes that occur.
  std::vector<uint32_t> pids;
  for (const auto& e : events_) pids.push_back(e.pid);
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  bool first = true;
  auto sep = [&] {
    if (!first) std::fputs(",\n", o);
    first = false;
  };
  for (uint32_t pid : pids) {
    sep();
    std::string name = pid >= dram_pid_base_ ? fmt::format("DRAM channel {}", pid - dram_pid_base_)
                                              : fmt::format("SM {}", pid);
    fmt::print(o, "{{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": {}, \"args\": {{\"name\": \"{}\"}}}}", pid,
               name);
    sep();
    fmt::print(o, "{{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": {}, \"args\": {{\"sort_index\": {}}}}}",
               pid, pid);
  }
  std::vector<std::pair<uint32_t, uint32_t>> threads;
  for (const auto& e : events_) threads.push_back({e.pid, e.tid});
  std::sort(threads.begin(), threads.end());
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  for (const auto& [pid, tid] : threads) {
    sep();
    std::string name = pid >= dram_pid_base_ ? fmt::format("bank {}", tid) : fmt::format("warp slot {}", tid);
    fmt::print(o, "{{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": {}, \"tid\": {}, \"args\": {{\"name\": \"{}\"}}}}",
               pid, tid, name);
  }
  for (const auto& e : events_) {
    sep();
    fmt::print(o, "{{\"ph\": \"X\", \"pid\": {}, \"tid\": {}, \"ts\": {}, \"dur\": {}, \"cat\": \"{}\", \"name\": \"{}\"}}",
               e.pid, e.tid, e.ts, e.dur, categories_[e.cat], escape(names_[e.name]));
  }
  std::fputs("\n]}\n", o);
  if (std::ferror(o)) throw Error(fmt::format("{}: error while writing the timeline", path));
}

}  // namespace warpsim
