// `warpsim inspect FILE.ptx|FILE.cu|FILE.fatbin|./app`: the kernels of a module (parameters,
// estimated registers, static shared and local memory), or the first construct warpsim cannot run.
#include <fmt/core.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "sim/foundation/error.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/runtime/elf_file.hpp"
#include "sim/runtime/exec_report.hpp"
#include "sim/runtime/fatbin.hpp"
#include "tools/warpsim/commands.hpp"

namespace warpsim::cli {

namespace {

namespace fs = std::filesystem;

struct InspectOptions {
  std::string input;
  std::string arch = "sm_75";
};

// Prints one module's kernels; returns false if it does not load.
bool describe_module(const std::string& ptx, const std::string& name) {
  std::unique_ptr<isa::Module> m;
  try {
    m = isa::parse_ptx(ptx, name);
  } catch (const Error& e) {
    fmt::print("{}: does not load; first unsupported construct:\n  {}\n", name, e.what());
    return false;
  }
  fmt::print("{}: PTX {} for {}, {} kernel{}\n", name, m->version, m->target, m->kernels.size(),
             m->kernels.size() == 1 ? "" : "s");
  for (const auto& k : m->kernels) {
    fmt::print("  {}\n", runtime::demangle(k->name));
    if (runtime::demangle(k->name) != k->name) fmt::print("    mangled: {}\n", k->name);
    std::string params;
    for (const auto& p : k->params)
      params += fmt::format("{}{} ({} B)", params.empty() ? "" : ", ", p.name, p.size);
    fmt::print("    parameters: {}\n", params.empty() ? "none" : params);
    fmt::print("    registers (estimated from the PTX): {}; static shared: {} B{}; local: {} B per thread\n",
               k->estimated_registers, k->static_shared_bytes, k->has_dynamic_shared ? " + dynamic" : "",
               k->local_bytes);
  }
  // __device__ (.global), __constant__ (.const) and __managed__ variables; nvcc's own
  // ($str: printf formats) are left out.
  bool header = false;
  for (const isa::ModuleVar& v : m->globals) {
    if (v.name.empty() || v.name[0] == '$') continue;
    if (!header) fmt::print("  module variables:\n");
    header = true;
    fmt::print("    {}: {} {} B{}{}\n", v.name, v.space == isa::Space::Const ? ".const" : ".global", v.size,
               v.managed ? ", managed" : "", v.init.empty() ? "" : ", initialised");
  }
  return true;
}

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw Error(fmt::format("{}: cannot open", path));
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

constexpr uint32_t kFatbinMagic = 0xBA55ED50u;  // a fatbinary's header

// Each fatbinary's entries, then the kernels of its newest PTX (or why there is none: a
// program's fatbinary of machine code only is reported, not a failure).
bool describe_fatbins(const std::vector<runtime::Fatbin>& fatbins, const std::string& input) {
  bool ok = true;
  for (size_t i = 0; i < fatbins.size(); ++i) {
    fmt::print("fatbinary {} of {}: {}\n", i + 1, fatbins.size(), fatbins[i].describe());
    if (fatbins[i].ptx.empty()) {
      bool sass = false;
      for (const auto& e : fatbins[i].entries) sass |= e.kind == runtime::FatbinEntry::Kind::Elf;
      if (sass) fmt::print("  machine code only; warpsim runs PTX (rebuild with -arch=sm_XX, which keeps PTX)\n");
      continue;
    }
    ok &= describe_module(fatbins[i].best_ptx(input), fmt::format("{} [fatbinary {}]", input, i + 1));
  }
  return ok;
}

int inspect(const InspectOptions& o) {
  const fs::path in(o.input);
  if (!fs::exists(in)) throw Error(fmt::format("{}: no such file", o.input));
  if (in.extension() == ".ptx") return describe_module(read_text(o.input), o.input) ? 0 : 1;
  if (in.extension() == ".cu") {
    const char* nvcc = "/usr/local/cuda/bin/nvcc";
    if (!fs::exists(nvcc)) throw Error(fmt::format("{}: inspecting a .cu needs nvcc ({} not found); give its .ptx", o.input, nvcc));
    fs::path out = fs::temp_directory_path() / fmt::format("warpsim-inspect-{}.ptx", ::getpid());
    std::string cmd = fmt::format("'{}' -ptx -arch={} -lineinfo -o '{}' '{}'", nvcc, o.arch, out.string(), o.input);
    if (std::system(cmd.c_str()) != 0) throw Error(fmt::format("{}: nvcc failed (command: {})", o.input, cmd));
    bool ok = describe_module(read_text(out.string()), o.input);
    fs::remove(out);
    return ok ? 0 : 1;
  }
  // A fatbinary file (nvcc -fatbin), as a driver-API program loads it.
  const std::string bytes = read_text(o.input);
  uint32_t magic = 0;
  if (bytes.size() >= 4) std::memcpy(&magic, bytes.data(), 4);
  if (magic == kFatbinMagic) {
    const auto* image = reinterpret_cast<const uint8_t*>(bytes.data());
    if (bytes.size() < 16 || runtime::fatbin_size(image) > bytes.size())
      throw Error(fmt::format("{}: a truncated fatbinary", o.input));
    const runtime::Fatbin f = runtime::read_fatbin({image, runtime::fatbin_size(image)});
    return describe_fatbins({f}, o.input) && !f.ptx.empty() ? 0 : 1;  // nothing to run: 1
  }
  auto elf = runtime::read_elf(o.input);
  if (!elf) throw Error(fmt::format("{}: not a .ptx, a .cu, a fatbinary or an ELF program", o.input));
  constexpr uint16_t kEmCuda = 190;  // e_machine of a cubin
  if (elf->bytes.size() > 20 && (elf->bytes[18] | elf->bytes[19] << 8) == kEmCuda) {
    fmt::print("{}: a cubin (GPU machine code only); warpsim runs PTX: give the PTX (nvcc -ptx) or a fatbinary "
               "that keeps it (nvcc -fatbin -arch=sm_XX)\n",
               o.input);
    return 1;
  }
  // Relocatable device code (-rdc=true): the units' PTX, linked as the runtime links it
  // (.nv_fatbin holds nvlink's machine code only).
  const auto units = runtime::program_unit_fatbins(*elf);
  if (!units.empty()) {
    fmt::print("relocatable device code (-rdc=true): {} fatbinaries of translation units, their PTX linked\n",
               units.size());
    return describe_module(runtime::link_unit_ptx(units, o.input), o.input + " [linked units]") ? 0 : 1;
  }
  auto fatbins = runtime::program_fatbins(*elf);
  if (fatbins.empty()) {
    fmt::print("{}: no embedded GPU code (.nv_fatbin)\n", o.input);
    return 1;
  }
  return describe_fatbins(fatbins, o.input) ? 0 : 1;
}

}  // namespace

void register_inspect_command(CLI::App& app) {
  auto o = std::make_shared<InspectOptions>();
  CLI::App* cmd = app.add_subcommand("inspect", "List the kernels in a .ptx, a .cu, a fatbinary or a CUDA program, or what keeps "
                                                "them from loading");
  cmd->add_option("input", o->input, "FILE.ptx, FILE.cu, FILE.fatbin or a program built by nvcc")->required();
  cmd->add_option("--arch", o->arch, "nvcc -arch for a .cu")->capture_default_str();
  cmd->callback([o] {
    int rc = inspect(*o);
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace warpsim::cli
