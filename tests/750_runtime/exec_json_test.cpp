// The exit report's JSON, written one launch at a time, is the document exec_json builds.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <csignal>
#include <sstream>

#include "sim/runtime/exec_report.hpp"

using namespace warpsim;
using namespace warpsim::runtime;

namespace {

struct Frame {
  DeviceSpec spec;
  RuntimeOptions o;
  Frame() {
    spec.name = "Test GPU";
    spec.file = "configs/test.json";
    o.program = "prog";
  }
};

// The i-th launch of a made-up program (no device behind it).
LaunchRecord fake_launch(size_t i) {
  LaunchRecord r;
  r.kernel = "_Z3addPfi";
  r.grid = Dim3{uint32_t(i + 1), 1, 1};
  r.start_ns = 100.0 * double(i);
  r.stats.kernel = r.kernel;
  r.stats.exec.inst_executed = 7 * (i + 1);
  return r;
}

}  // namespace

TEST_CASE("runtime: the streamed JSON report is exec_json's document, byte for byte") {
  const Frame fr;
  const DeviceSpec& spec = fr.spec;
  const RuntimeOptions& o = fr.o;
  std::vector<CopyRecord> copies{{"HtoD", 4096, 0, 500}, {"memset", 16, 600, 0}};
  std::vector<FaultRecord> faults{{"_Z1kv", "illegal_address", "out of bounds \"here\"\nsecond line"},
                                  {"\x01launches\x01", "\x01launches\x01", "\n  \"launches\": "}};
  std::vector<LaunchRecord> launches;
  for (size_t n : {0, 1, 3}) {
    while (launches.size() < n) launches.push_back(fake_launch(launches.size()));
    for (bool no_faults : {false, true}) {
      INFO(n << " launches, faults " << !no_faults);
      const std::vector<FaultRecord> f = no_faults ? std::vector<FaultRecord>{} : faults;
      std::ostringstream streamed;
      write_exec_json(streamed, launches, copies, f, spec, o);
      CHECK(streamed.str() == exec_json(launches, copies, f, spec, o).dump(2) + "\n");
    }
  }
}

TEST_CASE("runtime: the JSON report is whole when its temporary file fills up") {
  const Frame fr;
  const DeviceSpec& spec = fr.spec;
  const RuntimeOptions& o = fr.o;
  std::vector<LaunchRecord> launches;
  for (size_t i = 0; i < 6; ++i) launches.push_back(fake_launch(i));
  const std::string want = exec_json(launches, {}, {}, spec, o).dump(2) + "\n";
  // A file size limit stands in for a full disk: the third launch's text does not fit, and
  // the spill goes on in memory with what the file held (writes past the limit fail with
  // EFBIG once SIGXFSZ is ignored).
  const size_t one = launch_json_element(launches[0]).size();
  rlimit old{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
  rlimit low = old;
  low.rlim_cur = static_cast<rlim_t>(2 * one + one / 2);
  auto previous = std::signal(SIGXFSZ, SIG_IGN);
  LaunchJsonSpill spill;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &low) == 0);
  for (const auto& r : launches) spill.add(r);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, previous);
  std::ostringstream out;
  write_exec_json(out, spill, {}, {}, spec, o);
  CHECK(spill.size() == launches.size());
  CHECK(out.str() == want);
}
