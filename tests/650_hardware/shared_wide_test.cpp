// 32-, 64- and 128-bit shared loads and stores of one warp against Nsight Compute on an H100:
// tools/ncu/shared_wide.sh ran every pattern of tools/ncu/shared_wide_cases.txt as a single
// ld/st.shared instruction and wrote docs/measurements/h100_shared_wide.csv (wavefronts and
// bank conflicts per launch). The h100 config's bank rules ("cc9") must give the measured
// numbers. The first 111 patterns were measured before the 64/128-bit rule was written and
// it was fitted to them; the 36 "h_" patterns were measured after, as a check.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/sm/shared_banks.hpp"
#include "sim/spec/device_spec.hpp"

using namespace warpsim;

namespace {

std::string repo(const std::string& rel) { return std::string(WARPSIM_SOURCE_DIR) + "/" + rel; }

struct Pattern {
  uint32_t width = 0;
  std::vector<int64_t> offsets;  // -1: lane inactive
};

std::map<std::string, Pattern> read_patterns() {
  std::ifstream in(repo("tools/ncu/shared_wide_cases.txt"));
  REQUIRE(in);
  std::map<std::string, Pattern> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string name, bar;
    Pattern p;
    ss >> name >> bar >> p.width >> bar;
    for (int64_t o; ss >> o;) p.offsets.push_back(o);
    REQUIRE(p.offsets.size() == 32);
    out[name] = p;
  }
  return out;
}

struct Measured {
  uint32_t wavefronts = 0, conflicts = 0;
};

std::map<std::pair<std::string, std::string>, Measured> read_measured() {
  std::ifstream in(repo("docs/measurements/h100_shared_wide.csv"));
  REQUIRE(in);
  std::map<std::pair<std::string, std::string>, Measured> out;
  std::string line;
  std::getline(in, line);  // header: case,kind,wavefronts,bank_conflicts,instructions
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string name, kind, wf, bc, inst;
    std::getline(ss, name, ',');
    std::getline(ss, kind, ',');
    std::getline(ss, wf, ',');
    std::getline(ss, bc, ',');
    std::getline(ss, inst, ',');
    REQUIRE(inst == "1");  // one shared instruction per launch
    out[{name, kind}] = Measured{uint32_t(std::stoul(wf)), uint32_t(std::stoul(bc))};
  }
  return out;
}

mem::WarpMemAccess access_of(const Pattern& p, bool load) {
  mem::WarpMemAccess a;
  a.space = isa::Space::Shared;
  a.kind = load ? mem::AccessKind::Load : mem::AccessKind::Store;
  a.elem_bytes = 4;
  a.vec = static_cast<uint8_t>(p.width / 4);
  a.mask = 0;
  for (uint32_t l = 0; l < 32; ++l)
    if (p.offsets[l] >= 0) {
      a.mask |= 1u << l;
      a.addr[l] = uint64_t(p.offsets[l]);
    }
  return a;
}

}  // namespace

TEST_CASE("650: 64- and 128-bit shared accesses split into wavefronts as on the H100", "[hardware][shared_banks]") {
  const DeviceSpec spec = load_device_spec(repo("configs/h100.json"));
  REQUIRE(spec.shared.rules == sm::BankRules::Cc9);
  const auto patterns = read_patterns();
  const auto measured = read_measured();
  REQUIRE(patterns.size() == 147);
  REQUIRE(measured.size() == 2 * patterns.size());
  // Loads the rule does not reproduce (docs/calibration.md, "Wide shared-memory accesses"):
  // lanes alternating between two addresses of one bank are served by the GPU as one group
  // though every lane pair reads two addresses, and the first half-warp of h_few1_16, whose
  // lane pairs each read one address, is served quarter by quarter. Listed so that a better
  // rule shows here.
  const std::set<std::string> misfits = {"two_rows_8", "two_rows_16", "h_few1_16"};
  uint32_t checked = 0;
  for (const auto& [name, p] : patterns)
    for (bool load : {true, false}) {
      const Measured m = measured.at({name, load ? "ld" : "st"});
      const mem::WarpMemAccess a = access_of(p, load);
      const sm::SharedConflicts c = sm::shared_conflicts(spec.shared, a);
      const sm::SharedPasses fast = sm::shared_passes(spec.shared, a);
      INFO(name << (load ? " ld" : " st") << ": warpsim " << c.passes << " wavefronts, " << c.conflicts()
                << " conflicts; H100 " << m.wavefronts << ", " << m.conflicts);
      CHECK(fast.passes == c.passes);
      if (load && misfits.count(name)) {
        CHECK(c.passes != m.wavefronts);
        continue;
      }
      CHECK(c.passes == m.wavefronts);
      CHECK(c.conflicts() == m.conflicts);
      ++checked;
    }
  CHECK(checked == 2 * 147 - 3);
}
