// `warpsim occupancy`: the Occupancy Calculator for a device config, with --set what-ifs.
//   warpsim occupancy [--config C] --threads T [--regs R] [--smem S] [--shared-config B]
//                     [--set key.path=value]... [--json]
// S is the block's total shared memory as the calculator takes it (no reserved bytes added);
// B the SM's shared-memory size, one of the device's L1/shared splits (the calculator's
// "Shared Memory Size Config"), the largest by default.
#include <fmt/core.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/sm/occupancy.hpp"
#include "sim/sm/occupancy_report.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

struct OccupancyOptions {
  std::string config = "c2070";
  uint32_t threads = 0;
  uint32_t regs = 0;
  uint32_t smem = 0;
  uint32_t shared_config = 0;  // 0: sm.shared_memory
  std::vector<std::string> sets;
  bool json = false;
};

void run_occupancy(const OccupancyOptions& o) {
  const DeviceSpec dev = load_device_spec(resolve_config(o.config), o.sets);
  SmSpec sm = dev.sm;
  if (o.shared_config && o.shared_config != sm.shared_memory) {
    const bool split = dev.carveout.policy != sm::CarveoutPolicy::Fixed && dev.carveout.split(o.shared_config);
    if (!split) {
      std::string sizes;
      for (const auto& s : dev.carveout.splits) sizes += fmt::format("{}{}", sizes.empty() ? "" : ", ", s.shared_bytes);
      throw ConfigError(fmt::format("--shared-config {}: the {} has {}", o.shared_config, dev.name,
                                    sizes.empty() || dev.carveout.policy == sm::CarveoutPolicy::Fixed
                                        ? fmt::format("one shared-memory size, {} bytes", sm.shared_memory)
                                        : "the shared-memory sizes " + sizes));
    }
    sm.shared_memory = o.shared_config;
  }
  const sm::OccupancyDetail d = sm::occupancy_detail(sm, o.threads, o.regs, o.smem);
  if (o.json) {
    fmt::print("{}\n", Json{{"occupancy", sm::occupancy_json(d.stats)}}.dump(2));
    return;
  }
  fmt::print("Device:           {} (cc {}), {}\n", dev.name, dev.compute_capability, dev.file);
  fmt::print("Shared per SM:    {} bytes\n", sm.shared_memory);
  fmt::print("{}", sm::occupancy_text(d));
}

}  // namespace

void register_occupancy_command(CLI::App& app) {
  auto opts = std::make_shared<OccupancyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "occupancy", "Resident blocks, warps and threads per SM by the Occupancy Calculator's rules");
  cmd->add_option("--config", opts->config, "device config: c2070, fx5800 or a JSON path")->capture_default_str();
  cmd->add_option("--threads", opts->threads, "threads per block")->required();
  cmd->add_option("--regs", opts->regs, "registers per thread (0: no register limit)")->capture_default_str();
  cmd->add_option("--smem", opts->smem, "shared memory bytes per block, as the calculator takes it (0: none)")
      ->capture_default_str();
  cmd->add_option("--shared-config", opts->shared_config,
                  "the SM's shared-memory size, one of the device's L1/shared splits (default: the largest; "
                  "16384 on the C2070 is cudaFuncCachePreferL1)");
  cmd->add_option("--set", opts->sets, "override a config value, e.g. --set sm.registers=16384 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--json", opts->json, "print {\"occupancy\": {...}} as JSON");
  cmd->callback([opts] { run_occupancy(*opts); });
}

}  // namespace warpsim::cli
