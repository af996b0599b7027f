// Roofline arithmetic on hand-made kernels and stats, the configs' peaks, and the chart.
#include <catch2/catch.hpp>

#include "mini_xml.hpp"
#include "sim/engine/device.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/launch/launch_spec.hpp"
#include "sim/report/roofline.hpp"

using namespace warpsim;
using isa::DType;
using isa::Op;

namespace {

DeviceSpec config(const std::string& name) {
  return load_device_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/" + name + ".json");
}

isa::Instr instr(Op op, DType type) {
  isa::Instr in;
  in.op = op;
  in.type = type;
  return in;
}

// A kernel whose instructions ran for the given numbers of active threads.
struct HandMade {
  isa::Kernel kernel;
  LaunchStats stats;
  void add(Op op, DType type, uint64_t threads) {
    kernel.code.push_back(instr(op, type));
    PcStats p;
    p.executed = (threads + 31) / 32;
    p.active_threads = threads;
    stats.per_pc.push_back(p);
  }
};

HandMade mixed() {
  HandMade h;
  h.kernel.name = "handmade";
  h.add(Op::Add, DType::F32, 100);   // 100
  h.add(Op::Sub, DType::F32, 10);    // 10
  h.add(Op::Mul, DType::F32, 20);    // 20
  h.add(Op::Fma, DType::F32, 30);    // 60
  h.add(Op::Mad, DType::F32, 5);     // 10
  h.add(Op::Add, DType::F64, 7);     // 7 (FP64)
  h.add(Op::Fma, DType::F64, 4);     // 8 (FP64)
  h.add(Op::Add, DType::S32, 1000);  // integer: 0
  h.add(Op::Mad, DType::U32, 1000);  // integer: 0
  h.add(Op::Div, DType::F32, 1000);  // not counted
  h.add(Op::Sqrt, DType::F32, 1000); // not counted
  h.add(Op::Min, DType::F32, 1000);  // not counted
  h.add(Op::Add, DType::F32, 0);     // never ran
  return h;
}

}  // namespace

TEST_CASE("peak rates of both configs", "[plots][roofline]") {
  DevicePeaks c = device_peaks(config("c2070"));
  CHECK(c.sp_gflops == Approx(1030.4));  // 14 SMs x 32 cores x 2 x 1.15 GHz
  CHECK(c.dp_gflops == Approx(515.2));   // 14 x 16 DP units x 2 x 1.15
  CHECK(c.dram_gbps == Approx(144.0));   // 6 channels x 8 B x 4 (QDR) x 750 MHz
  DevicePeaks f = device_peaks(config("fx5800"));
  CHECK(f.sp_gflops == Approx(624.0));   // 30 x 8 x 2 (MAD) x 1.3
  CHECK(f.dp_gflops == Approx(78.0));    // 30 x 1 x 2 x 1.3
  CHECK(f.dram_gbps == Approx(102.4));   // 8 channels x 8 B x 2 (DDR) x 800 MHz
}

TEST_CASE("FLOPs: add/sub/mul 1, fma/mad 2, per active thread, FP64 apart, nothing else", "[plots][roofline]") {
  HandMade h = mixed();
  FlopCount f = count_flops(h.kernel, h.stats);
  CHECK(f.sp_add == 110);
  CHECK(f.sp_mul == 20);
  CHECK(f.sp_fma == 35);
  CHECK(f.sp() == 200);
  CHECK(f.dp_add == 7);
  CHECK(f.dp_fma == 4);
  CHECK(f.dp() == 15);
  CHECK(f.total() == 215);
}

TEST_CASE("a memory-bound kernel on the C2070: intensity, ridge, achieved rate", "[plots][roofline]") {
  HandMade h = mixed();
  h.stats.timing_mode = true;
  h.stats.timing.valid = true;
  h.stats.timing.duration_ns = 1000;  // 1 us
  h.stats.dram.valid = true;
  h.stats.dram.read_bytes = 600;
  h.stats.dram.write_bytes = 260;
  Roofline r = analyze_roofline(h.stats, h.kernel, config("c2070"));
  CHECK(r.bytes == 860);
  CHECK(r.bytes_from_dram);
  CHECK(r.flop_total == 215);
  CHECK(r.intensity == Approx(0.25));
  CHECK_FALSE(r.double_precision);
  CHECK(r.peak_gflops == Approx(1030.4));
  CHECK(r.ridge == Approx(1030.4 / 144.0));  // 7.156
  CHECK(r.attainable_gflops == Approx(0.25 * 144.0));
  CHECK(r.timed);
  CHECK(r.achieved_gflops == Approx(0.215));  // 215 flop / 1 us
  CHECK(r.achieved_gbps == Approx(0.86));
  CHECK(r.memory_bound);
  CHECK(r.bound() == "memory-bound");
  CHECK(r.classification() == "memory-bound (AI 0.25 flop/B < ridge 7.16)");
  auto j = roofline_to_json(r);
  CHECK(j["bound"] == "memory-bound");
  CHECK(j["flops"]["fp32"] == 200);
  CHECK(j["ridge"].get<double>() == Approx(7.1556).epsilon(1e-4));
}

TEST_CASE("a compute-bound kernel on the FX5800, FP64-heavy kernels use the FP64 roof", "[plots][roofline]") {
  HandMade h;
  h.kernel.name = "fma_chain";
  h.add(Op::Fma, DType::F32, 64000);  // 128,000 flops
  h.stats.dram.valid = true;
  h.stats.dram.read_bytes = 10000;    // AI 12.8 > ridge 624 / 102.4 = 6.09
  Roofline r = analyze_roofline(h.stats, h.kernel, config("fx5800"));
  CHECK(r.intensity == Approx(12.8));
  CHECK(r.ridge == Approx(6.09375));
  CHECK_FALSE(r.memory_bound);
  CHECK(r.attainable_gflops == Approx(624.0));
  CHECK(r.classification() == "compute-bound (AI 12.8 flop/B >= ridge 6.09)");
  CHECK_FALSE(r.timed);

  HandMade d;
  d.kernel.name = "daxpy";
  d.add(Op::Fma, DType::F64, 1000);  // 2000 FP64 flops
  d.add(Op::Add, DType::F32, 10);
  d.stats.dram.valid = true;
  d.stats.dram.read_bytes = 100;     // AI 20.1
  Roofline dr = analyze_roofline(d.stats, d.kernel, config("fx5800"));
  CHECK(dr.double_precision);
  CHECK(dr.peak_gflops == Approx(78.0));
  CHECK(dr.ridge == Approx(78.0 / 102.4));
  CHECK_FALSE(dr.memory_bound);
}

TEST_CASE("without DRAM statistics the bytes are the global transactions' and it says so", "[plots][roofline]") {
  HandMade h = mixed();
  h.stats.mem_valid = true;
  h.stats.mem.gld_bytes_transferred = 512;
  h.stats.mem.gst_bytes_transferred = 348;
  Roofline r = analyze_roofline(h.stats, h.kernel, config("c2070"));
  CHECK(r.bytes == 860);
  CHECK_FALSE(r.bytes_from_dram);
  CHECK_THAT(r.bytes_source, Catch::Contains("functional mode has no DRAM statistics"));
  CHECK_THAT(format_roofline(r), Catch::Contains("achieved: unknown"));
}

TEST_CASE("no flops or no bytes: intensity 0 (memory-bound) or infinite (compute-bound)", "[plots][roofline]") {
  HandMade none;
  none.kernel.name = "copy";
  none.add(Op::Add, DType::S32, 1000);
  none.stats.dram.valid = true;
  none.stats.dram.read_bytes = 4096;
  Roofline r = analyze_roofline(none.stats, none.kernel, config("c2070"));
  CHECK(r.intensity == 0);
  CHECK(r.memory_bound);
  CHECK_NOTHROW(mini_xml::parse(svg::render_svg(roofline_chart(r))));
  HandMade nobytes = mixed();
  Roofline c = analyze_roofline(nobytes.stats, nobytes.kernel, config("c2070"));
  CHECK(std::isinf(c.intensity));
  CHECK_FALSE(c.memory_bound);
  CHECK(c.classification() == "compute-bound (AI inf flop/B >= ridge 7.16)");
  CHECK_NOTHROW(mini_xml::parse(svg::render_svg(roofline_chart(c))));
}

TEST_CASE("the roofline chart: log-log, both roofs, the ridge, the kernel labelled with its bound", "[plots][roofline]") {
  HandMade h = mixed();
  h.stats.timing.valid = true;
  h.stats.timing.duration_ns = 1000;
  h.stats.dram.valid = true;
  h.stats.dram.read_bytes = 860;
  Roofline r = analyze_roofline(h.stats, h.kernel, config("c2070"));
  svg::Chart c = roofline_chart(r);
  REQUIRE(c.panels.size() == 1);
  CHECK(c.panels[0].x.log);
  CHECK(c.panels[0].y.log);
  auto root = mini_xml::parse(svg::render_svg(c));
  CHECK(root->all("text", "class", "title").front()->text == "Roofline: handmade on Tesla C2070");
  CHECK(root->all("text", "class", "x-label").front()->text == "arithmetic intensity (flop/B)");
  CHECK(root->all("text", "class", "y-label").front()->text == "performance (GFLOP/s)");
  std::vector<std::string> legend;
  for (auto* e : root->all("g", "class", "legend-entry")) legend.push_back(e->attr("data-name"));
  CHECK(legend == std::vector<std::string>{"FP64 roof: 515.2 GFLOP/s", "FP32 roof: 1030.4 GFLOP/s", "handmade (achieved)"});
  std::string notes;
  for (auto* e : root->all("text", "class", "note")) notes += e->text + "|";
  CHECK_THAT(notes, Catch::Contains("DRAM 144 GB/s|"));
  CHECK_THAT(notes, Catch::Contains("ridge 7.16 flop/B|"));
  CHECK_THAT(notes, Catch::Contains("memory-bound|"));
  CHECK_THAT(notes, Catch::Contains("compute-bound|"));
  CHECK_THAT(notes, Catch::Contains("|handmade|AI 0.25 flop/B, 0.215 GFLOP/s: memory-bound|"));
}

TEST_CASE("a real functional run: vecadd's one add per element", "[plots][roofline]") {
  DeviceSpec dev = config("c2070");
  Device device(dev);
  LaunchSpec spec = load_launch_spec(std::string(WARPSIM_SOURCE_DIR) + "/kernels/vecadd/vecadd_1003.json");
  PreparedLaunch prepared = prepare(device, spec);
  LaunchOptions lo;
  lo.mode = SimMode::Functional;
  LaunchStats stats = launch(device, prepared, lo);
  Roofline r = analyze_roofline(stats, *prepared.kernel, dev);
  CHECK(r.kernel == "vecAddKernel");  // demangled, without the parameter list
  CHECK(r.flops.sp_add == 1003);  // the add.f32 runs for the 1003 threads with i < n
  CHECK(r.flops.sp() == 1003);
  CHECK(r.flops.dp() == 0);
  CHECK_FALSE(r.bytes_from_dram);
  CHECK(r.bytes == stats.mem.gld_bytes_transferred + stats.mem.gst_bytes_transferred);
  CHECK(r.memory_bound);
}
