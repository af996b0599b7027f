// `warpsim roofline SPEC.json`: run a launch spec and place the kernel on the config's
// roofline (peak arithmetic rate and DRAM bandwidth); see sim/report/roofline.hpp.
//   warpsim roofline SPEC [--config C] [--set k=v]... [--var n=v]... [--functional]
//                    [-o OUT.svg] [--json]
// Prints the numbers (text, or JSON with --json) on stdout; exit status 3 on a wrong result.
#include <fmt/core.h>

#include <map>
#include <memory>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/report/roofline.hpp"
#include "tools/warpsim/cli_paths.hpp"
#include "tools/warpsim/cli_vars.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

struct RooflineOptions {
  std::string spec;
  std::string config = "c2070";
  std::vector<std::string> sets;
  std::vector<std::string> vars;
  bool functional = false;
  std::string out;
  bool json = false;
  uint32_t registers = 0;
  uint64_t max_cycles = 0;
};

int run_roofline(const RooflineOptions& o) {
  DeviceSpec dev_spec = load_device_spec(resolve_config(o.config), o.sets);
  LaunchSpec spec = load_launch_spec(resolve_input(o.spec), parse_var_overrides(o.vars));
  if (o.registers) spec.registers = o.registers;
  Device device(dev_spec);
  PreparedLaunch prepared = prepare(device, spec);
  LaunchOptions lo;
  lo.mode = o.functional ? SimMode::Functional : SimMode::Timing;
  lo.limits.max_cycles = o.max_cycles;
  LaunchStats stats = launch(device, prepared, lo);
  CheckResult check = check_outputs(device, prepared);
  Roofline r = analyze_roofline(stats, *prepared.kernel, dev_spec);
  if (!o.out.empty()) svg::write_svg(roofline_chart(r), o.out);
  if (o.json) {
    Json j = roofline_to_json(r);
    j["spec"] = spec.path;
    j["config"] = dev_spec.file;
    j["mode"] = o.functional ? "functional" : "timing";
    j["check"] = {{"checked", check.checked}, {"passed", check.passed}};
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("{}", format_roofline(r));
    if (check.checked && !check.passed) fmt::print("  result: WRONG - {}\n", check.message);
  }
  if (!o.out.empty()) fmt::print(stderr, "roofline: wrote {}\n", o.out);
  return check.passed ? 0 : 3;
}

}  // namespace

void register_roofline_command(CLI::App& app) {
  auto o = std::make_shared<RooflineOptions>();
  CLI::App* cmd = app.add_subcommand(
      "roofline", "Run a launch spec and place the kernel on the config's roofline (SVG chart and numbers)");
  cmd->add_option("spec", o->spec, "launch spec (JSON), e.g. kernels/matmul/matmul_tiled_512.json")->required();
  cmd->add_option("--config", o->config, "device config: c2070, fx5800 or a JSON path")->capture_default_str();
  cmd->add_option("--set", o->sets, "override a config value, e.g. --set dram.channels=4 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--var", o->vars, "override a spec variable, e.g. --var width=256 (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--functional", o->functional,
                "functional simulation only: no achieved rate, and bytes from global transactions, not DRAM");
  cmd->add_option("-o,--output", o->out, "write the roofline chart (SVG) to this file");
  cmd->add_flag("--json", o->json, "print the numbers as JSON instead of text");
  cmd->add_option("--registers", o->registers, "registers per thread (overrides the spec)");
  cmd->add_option("--max-cycles", o->max_cycles, "stop after this many simulated cycles (0: no limit)");
  cmd->callback([o] {
    int rc = run_roofline(*o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli
