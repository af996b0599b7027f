#include "sim/runtime/runtime_options.hpp"
#include "sim/foundation/file_checks.hpp"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>

#include "sim/foundation/error.hpp"

namespace warpsim::runtime {

namespace {

template <class T>
T parse_number(const char* var, const std::string& text) {
  T v{};
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size())
    throw ConfigError(fmt::format("{}=\"{}\": expected a non-negative number", var, text));
  return v;
}

}  // namespace

RuntimeOptions RuntimeOptions::from_environment(const std::function<const char*(const char*)>& getenv) {
  RuntimeOptions o;
  auto get = [&](const char* name) -> std::optional<std::string> {
    const char* v = getenv(name);
    if (!v || !*v) return std::nullopt;
    return std::string(v);
  };
  if (auto v = get("WARPSIM_CONFIG")) o.config = *v;
  if (auto v = get("WARPSIM_SET")) {
    size_t start = 0;
    while (start <= v->size()) {
      size_t end = v->find(';', start);
      if (end == std::string::npos) end = v->size();
      std::string item = v->substr(start, end - start);
      if (!item.empty()) o.sets.push_back(item);
      start = end + 1;
    }
  }
  if (auto v = get("WARPSIM_MODE")) {
    if (*v == "timing") o.mode = SimMode::Timing;
    else if (*v == "functional") o.mode = SimMode::Functional;
    else throw ConfigError(fmt::format("WARPSIM_MODE=\"{}\": expected timing or functional", *v));
  }
  if (auto v = get("WARPSIM_SAMPLE")) {
    o.sample_waves = parse_number<uint32_t>("WARPSIM_SAMPLE", *v);
    if (o.sample_waves > 1000) throw ConfigError(fmt::format("WARPSIM_SAMPLE=\"{}\": expected 0 (off) to 1000 waves", *v));
  }
  if (auto v = get("WARPSIM_SAMPLE_LAUNCHES")) {
    o.sample_launches = parse_number<uint32_t>("WARPSIM_SAMPLE_LAUNCHES", *v);
    if (o.sample_launches > 1000000)
      throw ConfigError(fmt::format("WARPSIM_SAMPLE_LAUNCHES=\"{}\": expected 0 (off) to 1000000 launches", *v));
  }
  if (auto v = get("WARPSIM_EPOCH")) {
    o.epoch_cycles = parse_number<uint32_t>("WARPSIM_EPOCH", *v);
    if (o.epoch_cycles < 1 || o.epoch_cycles > kMaxEpochCycles)
      throw ConfigError(
          fmt::format("WARPSIM_EPOCH=\"{}\": expected 1 (every cycle) to {} cycles", *v, kMaxEpochCycles));
  }
  if (auto v = get("WARPSIM_THREADS")) o.threads = parse_thread_count(std::string(*v), "WARPSIM_THREADS");
  if (auto v = get("WARPSIM_CACHE_CONTROL")) {
    if (*v == cache_control_name(CacheControl::Keep)) o.cache_control = CacheControl::Keep;
    else if (*v == cache_control_name(CacheControl::Flush)) o.cache_control = CacheControl::Flush;
    else
      throw ConfigError(fmt::format("WARPSIM_CACHE_CONTROL=\"{}\": expected none (caches keep their contents "
                                    "between launches) or all (flushed before each launch)",
                                    *v));
  }
  if (auto v = get("WARPSIM_CACHES")) {
    if (*v != "0" && *v != "1") throw ConfigError(fmt::format("WARPSIM_CACHES=\"{}\": expected 0 or 1", *v));
    o.caches = *v == "1";
  }
  if (!o.caches && o.mode == SimMode::Timing)
    throw ConfigError("WARPSIM_CACHES=0 leaves the cache model out of functional runs: it needs "
                      "WARPSIM_MODE=functional (timing mode models the caches)");
  if (auto v = get("WARPSIM_JSON")) o.json_out = *v;
  if (auto v = get("WARPSIM_SUMMARY")) {
    if (*v != "0" && *v != "1") throw ConfigError(fmt::format("WARPSIM_SUMMARY=\"{}\": expected 0 or 1", *v));
    o.summary = *v == "1";
  }
  if (auto v = get("WARPSIM_BY_LINE")) o.by_line = *v == "1";
  if (auto v = get("WARPSIM_MAX_INSTRUCTIONS")) o.limits.max_warp_instructions = parse_number<uint64_t>("WARPSIM_MAX_INSTRUCTIONS", *v);
  if (auto v = get("WARPSIM_MAX_CYCLES")) o.limits.max_cycles = parse_number<uint64_t>("WARPSIM_MAX_CYCLES", *v);
  if (auto v = get("WARPSIM_MAX_SECONDS")) o.limits.max_host_seconds = parse_number<double>("WARPSIM_MAX_SECONDS", *v);
  if (auto v = get("WARPSIM_PROGRAM")) o.program = *v;
  if (auto v = get("CUDA_LAUNCH_BLOCKING")) o.launch_blocking = *v == "1";  // CUDA reads "1" as on, anything else off
  if (auto v = get("WARPSIM_EXEC_PID")) o.exec_pid = parse_number<int64_t>("WARPSIM_EXEC_PID", *v);
  return o;
}

void for_other_process(RuntimeOptions& o, int64_t pid, const std::string& name) {
  if (o.exec_pid <= 0 || pid == o.exec_pid) return;
  o.program = fmt::format("{} (process {}, started by the program)", name, pid);
  if (o.json_out.empty()) return;
  const std::filesystem::path p(o.json_out);
  o.json_out = (p.parent_path() / fmt::format("{}.{}{}", p.stem().string(), pid, p.extension().string())).string();
}

const char* cache_control_name(CacheControl c) { return c == CacheControl::Keep ? "none" : "all"; }

std::string resolve_config_path(const std::string& name_or_path) {
  namespace fs = std::filesystem;
  if (exists_noexcept(name_or_path)) return name_or_path;
  const std::string in_tree = std::string(WARPSIM_SOURCE_DIR) + "/configs/" + name_or_path + ".json";
  if (name_or_path.find('/') == std::string::npos && exists_noexcept(in_tree)) return in_tree;
  throw ConfigError(fmt::format("device config '{}': no such file (give a path, or one of the names in {}/configs)",
                                name_or_path, WARPSIM_SOURCE_DIR));
}

}  // namespace warpsim::runtime
