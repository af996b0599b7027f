#include "sim/spec/device_spec.hpp"

#include <fmt/format.h>

#include "sim/sm/warp_scheduler.hpp"
#include "sim/spec/carveout_spec.hpp"

namespace warpsim {

namespace {

// Upper bounds of the values that size the simulator's own state. Real parts stay far
// below them (GF100: 16 SMs, 48 KB shared, 32 K registers; the largest GPUs today have
// under 200 SMs and 256 KB of shared memory per SM), so what-if runs keep a wide margin
// while a slip such as --set sm.count=1000000 is an error, not a run that allocates state
// for a million SMs and visits them every cycle.
constexpr uint64_t kMaxSms = 1024;
constexpr uint64_t kMaxSharedPerSm = uint64_t(1) << 20;  // 1 MiB
constexpr uint64_t kMaxRegistersPerSm = uint64_t(1) << 20;
constexpr uint64_t kMaxBlocksPerSm = 1024;
constexpr uint64_t kMaxMemoryBytes = uint64_t(1) << 40;  // 1 TiB (memory pages are sparse)

void read_dims(ConfigReader& r, const std::string& key, uint32_t out[3]) {
  const Json& v = r.raw(key);
  if (!v.is_array() || v.size() != 3)
    r.fail(key, "expected an array of three positive integers [x, y, z]");
  for (int i = 0; i < 3; ++i) {
    if (!v[i].is_number_integer() || v[i].get<int64_t>() < 1 || v[i].get<int64_t>() > 0xFFFFFFFFll)
      r.fail(key, fmt::format("element {} must be a positive integer", i));
    out[i] = static_cast<uint32_t>(v[i].get<int64_t>());
  }
}

uint32_t u32(ConfigReader& r, const std::string& key, uint64_t v) {
  if (v > 0xFFFFFFFFull) r.fail(key, "value too large");
  return static_cast<uint32_t>(v);
}

SmSpec parse_sm(ConfigReader r) {
  SmSpec s;
  s.count = u32(r, "count", r.get_positive_at_most("count", kMaxSms, "each SM has its own simulated state"));
  s.warp_size = u32(r, "warp_size", r.get_pow2("warp_size"));
  if (s.warp_size > 32) r.fail("warp_size", "at most 32 lanes per warp are supported");
  s.cores = u32(r, "cores", r.get_positive("cores"));
  s.sfus = u32(r, "sfus", r.get_positive("sfus"));
  s.dp_units = u32(r, "dp_units", r.get_positive("dp_units"));
  s.schedulers = u32(r, "schedulers", r.get_positive("schedulers"));
  {
    std::vector<std::string> policies;
    for (const auto& [name, factory] : sm::scheduler_registry()) policies.push_back(name);
    s.scheduler_policy = r.get_choice_or("scheduler_policy", policies, "lrr");
  }
  s.two_level_active_warps = u32(r, "two_level_active_warps", r.get_positive_or("two_level_active_warps", 8));
  s.max_threads = u32(r, "max_threads", r.get_positive("max_threads"));
  s.max_warps = u32(r, "max_warps", r.get_positive("max_warps"));
  if (s.max_warps > 64) r.fail("max_warps", "at most 64 resident warps per SM are supported");
  s.max_blocks = u32(r, "max_blocks", r.get_positive_at_most("max_blocks", kMaxBlocksPerSm,
                                                              "block slots are simulated state of each SM"));
  s.max_threads_per_block = u32(r, "max_threads_per_block", r.get_positive("max_threads_per_block"));
  read_dims(r, "max_block_dim", s.max_block_dim);
  read_dims(r, "max_grid_dim", s.max_grid_dim);
  s.registers = u32(r, "registers", r.get_positive_at_most("registers", kMaxRegistersPerSm,
                                                            "1 Mi registers per SM, 16x the largest real GPUs'"));
  s.max_registers_per_thread = u32(r, "max_registers_per_thread", r.get_positive("max_registers_per_thread"));
  std::string alloc = r.get_choice("register_allocation", {"block", "warp"});
  s.register_allocation = alloc == "block" ? RegisterAllocation::PerBlock : RegisterAllocation::PerWarp;
  s.register_allocation_unit = u32(r, "register_allocation_unit", r.get_positive("register_allocation_unit"));
  s.warp_allocation_granularity =
      u32(r, "warp_allocation_granularity", r.get_positive("warp_allocation_granularity"));
  s.shared_memory = u32(r, "shared_memory", r.get_uint("shared_memory"));
  if (s.shared_memory > kMaxSharedPerSm)
    r.fail("shared_memory", fmt::format("{} is above the supported maximum of {} (1 MiB per SM, 4x the largest "
                                        "real GPUs'; each resident block's shared memory is simulated state)",
                                        s.shared_memory, kMaxSharedPerSm));
  s.shared_allocation_unit = u32(r, "shared_allocation_unit", r.get_positive("shared_allocation_unit"));
  s.shared_reserved_per_block = u32(r, "shared_reserved_per_block", r.get_uint_or("shared_reserved_per_block", 0));
  s.max_shared_per_block = u32(r, "max_shared_per_block", r.get_uint_or("max_shared_per_block", s.shared_memory));

  if (s.max_threads > uint64_t(s.max_warps) * s.warp_size)
    r.fail("max_threads", fmt::format("{} threads do not fit in max_warps {} x warp_size {}", s.max_threads,
                                      s.max_warps, s.warp_size));
  if (s.max_threads_per_block > s.max_threads)
    r.fail("max_threads_per_block", "exceeds max_threads per SM");
  if (s.max_shared_per_block > s.shared_memory)
    r.fail("max_shared_per_block", "exceeds shared_memory per SM");
  if (s.cores % s.schedulers != 0)
    r.fail("schedulers", fmt::format("{} cores cannot be split evenly among {} schedulers", s.cores, s.schedulers));
  r.finish();
  return s;
}

IssueSpec parse_issue(ConfigReader r) {
  IssueSpec is;
  auto cyc = [&](const char* key) { return u32(r, key, r.get_positive(key)); };
  is.alu_cycles = cyc("alu_cycles");
  is.imul_cycles = cyc("imul_cycles");
  is.sfu_cycles = cyc("sfu_cycles");
  is.dp_cycles = cyc("dp_cycles");
  is.mem_cycles = cyc("mem_cycles");
  is.shared_pass_cycles = cyc("shared_pass_cycles");
  is.transaction_cycles = cyc("transaction_cycles");
  is.branch_cycles = cyc("branch_cycles");
  is.lsu_transactions_per_cycle =
      u32(r, "lsu_transactions_per_cycle", r.get_positive_or("lsu_transactions_per_cycle", 1));
  if (is.lsu_transactions_per_cycle > 32)
    r.fail("lsu_transactions_per_cycle", "at most 32 (one per lane of a warp)");
  is.lsu_line_requests = r.get_bool_or("lsu_line_requests", false);
  is.dp_blocks_other_schedulers = r.get_bool_or("dp_blocks_other_schedulers", false);
  is.partial_store_cycles = u32(r, "partial_store_cycles", r.get_uint_or("partial_store_cycles", 0));
  if (is.partial_store_cycles > 1000) r.fail("partial_store_cycles", "at most 1000");
  is.hoist_loads = r.get_bool_or("hoist_loads", false);
  is.merge_shared_loads = r.get_bool_or("merge_shared_loads", false);
  is.if_convert = r.get_bool_or("if_convert", false);
  is.unroll_loops = u32(r, "unroll_loops", r.get_uint_or("unroll_loops", 0));
  if (is.unroll_loops > 16) r.fail("unroll_loops", "at most 16 (0 or 1: off)");
  is.idiv_instructions = cyc("idiv_instructions");
  is.fdiv_instructions = cyc("fdiv_instructions");
  is.sequences_hold_dispatch = r.get_bool_or("sequences_hold_dispatch", false);
  is.alu_latency = cyc("alu_latency");
  is.imul_latency = cyc("imul_latency");
  is.sfu_latency = cyc("sfu_latency");
  is.dp_latency = cyc("dp_latency");
  is.shared_latency = cyc("shared_latency");
  is.param_latency = cyc("param_latency");
  is.global_latency = cyc("global_latency");
  is.barrier_latency = cyc("barrier_latency");
  is.mbarrier_try_wait_cycles =
      u32(r, "mbarrier_try_wait_cycles", r.get_uint_or("mbarrier_try_wait_cycles", 0));
  if (auto t = r.child_opt("tensor")) {
    auto rate = [&](const char* key) {
      ConfigReader k = t->child(key);
      TensorRate tr;
      tr.cycles = u32(k, "cycles", k.get_positive_at_most("cycles", 4096, "a wmma.mma that long is a typo"));
      tr.latency = u32(k, "latency", k.get_positive_at_most("latency", 4096, "a wmma.mma that long is a typo"));
      k.finish();
      return tr;
    };
    is.tensor_f16 = rate("f16");
    is.tensor_bf16 = rate("bf16");
    is.tensor_tf32 = rate("tf32");
    is.tensor_f64 = rate("f64");
    is.tensor_i8 = rate("s8");
    t->finish();
  }
  is.ideal_fetch = r.get_bool_or("ideal_fetch", true);
  if (!is.ideal_fetch) r.fail("ideal_fetch", "only ideal instruction fetch is modelled (see docs/timing-model.md)");
  r.finish();
  return is;
}

}  // namespace

namespace {

// "clusters": {"max_size": N, "portable_size": N, "max_blocks_per_sm": N,
// "pair_only_sms": [SM, ...], "remote_shared_latency": CYCLES, "remote_wavefront_cycles": N,
// "remote_atomic_lane_cycles": N} (ClusterSpec).
void parse_clusters(ConfigReader& r, DeviceSpec& d) {
  ClusterSpec& c = d.clusters;
  c.max_size = uint32_t(r.get_positive_at_most("max_size", 16, "warpsim runs clusters of at most 16 blocks"));
  c.portable_size = uint32_t(r.get_positive("portable_size"));
  if (c.portable_size > c.max_size) r.fail("portable_size", fmt::format("more than max_size {}", c.max_size));
  c.max_blocks_per_sm = uint32_t(r.get_positive("max_blocks_per_sm"));
  c.remote_shared_latency = uint32_t(r.get_positive_at_most("remote_shared_latency", 100000, "at most 100000 cycles"));
  c.remote_wavefront_cycles = uint32_t(r.get_uint_or("remote_wavefront_cycles", 0));
  c.remote_atomic_lane_cycles = uint32_t(r.get_uint_or("remote_atomic_lane_cycles", 0));
  if (c.remote_wavefront_cycles > 1000) r.fail("remote_wavefront_cycles", "at most 1000 cycles");
  if (c.remote_atomic_lane_cycles > 1000) r.fail("remote_atomic_lane_cycles", "at most 1000 cycles");
  // SMs of the GPCs; without GPCs (--set gpcs=null, e.g. for a sweep of sm.count) every SM
  // takes clusters and the list is not used.
  if (const Json* pairs = r.raw_opt("pair_only_sms"); pairs && d.gpcs > 0) {
    if (!pairs->is_array()) r.fail("pair_only_sms", "expected an array of SM numbers");
    for (const Json& s : *pairs) {
      if (!s.is_number_unsigned() || s.get<uint64_t>() >= d.sm.count)
        r.fail("pair_only_sms", fmt::format("{} is not an SM number below sm.count {}", s.dump(), d.sm.count));
      c.pair_only_sms.push_back(uint32_t(s.get<uint64_t>()));
    }
  }
  if (c.remote_shared_latency < d.issue.shared_latency)
    r.fail("remote_shared_latency", fmt::format("below issue.shared_latency {} (a block's own shared memory)",
                                                d.issue.shared_latency));
  if (d.cc_major() < 9) r.fail("max_size", fmt::format("thread block clusters need cc 9.0 (this device is cc {})",
                                                       d.compute_capability));
}

// "gpcs": {"sms": [[SM, ...], ...], "tpc_sms": N, "small_grid_lead_sms": N, "merge_reads":
// BOOL, ...}: each GPC's SMs in the order the dispatcher fills them; every SM in exactly one GPC.
void parse_gpcs(ConfigReader& r, DeviceSpec& d) {
  const Json& list = r.raw("sms");
  const uint32_t n = d.sm.count;
  if (!list.is_array() || list.empty() || list.size() > n)
    r.fail("sms", fmt::format("expected an array of GPCs (1 to {}), each an array of SM numbers", n));
  d.gpc_of_sm.assign(n, UINT32_MAX);
  d.sm_fill_order.clear();
  for (size_t g = 0; g < list.size(); ++g) {
    const Json& sms = list[g];
    if (!sms.is_array() || sms.empty()) r.fail("sms", fmt::format("GPC {}: expected a non-empty array of SM numbers", g));
    for (const Json& s : sms) {
      if (!s.is_number_unsigned() || s.get<uint64_t>() >= n)
        r.fail("sms", fmt::format("GPC {}: {} is not an SM number below sm.count {} (--set gpcs=null models no GPCs)",
                                  g, s.dump(), n));
      const uint32_t sm = uint32_t(s.get<uint64_t>());
      if (d.gpc_of_sm[sm] != UINT32_MAX)
        r.fail("sms", fmt::format("SM {} is in GPC {} and again in GPC {}", sm, d.gpc_of_sm[sm], g));
      d.gpc_of_sm[sm] = uint32_t(g);
      d.sm_fill_order.push_back(sm);
    }
  }
  if (d.sm_fill_order.size() != n) {
    uint32_t missing = 0;
    while (d.gpc_of_sm[missing] != UINT32_MAX) ++missing;
    r.fail("sms", fmt::format("SM {} is in no GPC ({} of {} SMs listed; --set gpcs=null models no GPCs)", missing,
                              d.sm_fill_order.size(), n));
  }
  d.gpcs = uint32_t(list.size());
  const uint64_t tpc = r.get_uint_or("tpc_sms", 1);
  if (tpc < 1 || tpc > 8) r.fail("tpc_sms", "expected 1 to 8 SMs per TPC");
  d.gpc_tpc_sms = uint32_t(tpc);
  const uint64_t lead = r.get_uint_or("small_grid_lead_sms", 0);
  if (lead > n) r.fail("small_grid_lead_sms", fmt::format("at most sm.count ({}) SMs", n));
  d.gpc_small_grid_lead_sms = uint32_t(lead);
  d.gpc_merge_reads = r.get_bool_or("merge_reads", false);
  const uint64_t window = r.get_uint_or("merge_window_cycles", 0);
  if (window > 1000000) r.fail("merge_window_cycles", "at most 1000000 cycles");
  d.gpc_merge_window = uint32_t(window);
  const uint64_t lines = r.get_uint_or("merge_lines", 0);
  if (lines > 1000000) r.fail("merge_lines", "at most 1000000 lines per GPC");
  d.gpc_merge_lines = uint32_t(lines);
  const std::string match = r.get_string_or("merge_match", "sectors");
  if (match != "sectors" && match != "request")
    r.fail("merge_match", fmt::format("\"{}\" is not a merge rule (\"sectors\" or \"request\")", match));
  d.gpc_merge_whole_requests = match == "request";
  if (d.gpc_merge_reads && !(d.has_l1 && d.has_l2))
    r.fail("merge_reads", "merging the L1s' read misses needs an \"l1\" and an \"l2\" section");
}

}  // namespace

int DeviceSpec::cc_major() const { return compute_capability.empty() ? 0 : compute_capability[0] - '0'; }
int DeviceSpec::cc_minor() const {
  auto dot = compute_capability.find('.');
  return dot == std::string::npos ? 0 : std::atoi(compute_capability.c_str() + dot + 1);
}

DeviceSpec parse_device_spec(const Json& doc, const std::string& file) {
  ConfigReader r(doc, file);
  DeviceSpec d;
  d.file = file;
  d.document = doc;
  d.name = r.get_string("name");
  d.compute_capability = r.get_string("compute_capability");
  {
    const auto& cc = d.compute_capability;
    if (cc.size() < 3 || !isdigit((unsigned char)cc[0]) || cc[1] != '.' || !isdigit((unsigned char)cc[2]))
      r.fail("compute_capability", fmt::format("expected \"MAJOR.MINOR\", got \"{}\"", cc));
  }
  d.clock_mhz = r.get_positive_number("clock_mhz");
  r.get_string_or("description", "");
  if (auto c = r.child_opt("memory")) {
    d.memory_bytes = c->get_positive("size_bytes");
    if (d.memory_bytes > kMaxMemoryBytes)
      c->fail("size_bytes", fmt::format("at most {} bytes (1 TiB) are supported", kMaxMemoryBytes));
    c->finish();
  }
  if (auto c = r.child_opt("host_link")) {
    d.host_link_gbps = c->get_positive_number("bandwidth_gbps");
    if (d.host_link_gbps > 10000) c->fail("bandwidth_gbps", "at most 10000 GB/s");
    c->finish();
  }
  d.launch_overhead_cycles = r.get_uint_or("launch_overhead_cycles", 0);
  d.block_dispatch_cycles = r.get_number_or("block_dispatch_cycles", 0);
  if (d.block_dispatch_cycles < 0 || d.block_dispatch_cycles > 1e6)
    r.fail("block_dispatch_cycles", "between 0 and 1000000 cycles per block");
  if (d.launch_overhead_cycles > 100000000)
    r.fail("launch_overhead_cycles", "at most 100000000 cycles");
  d.sm = parse_sm(r.child("sm"));
  d.issue = parse_issue(r.child("issue"));
  {
    ConfigReader c = r.child("coalescer");
    d.coalescer = mem::parse_coalescer_spec(c);
    c.finish();
  }
  {
    ConfigReader c = r.child("shared");
    d.shared = sm::parse_shared_bank_spec(c);
    c.finish();
  }
  if (auto c = r.child_opt("dram")) {
    d.has_dram = true;
    d.dram = mem::parse_dram_spec(*c);
    d.dram.file = file;
  }
  if (auto c = r.child_opt("l1")) {
    d.has_l1 = true;
    d.l1 = mem::parse_cache_spec(*c);
    c->finish();
  }
  if (auto c = r.child_opt("carveout")) d.carveout = parse_carveout_spec(*c, d.sm, d.has_l1, d.l1);
  if (auto c = r.child_opt("l2")) {
    if (!d.has_dram) c->fail_here("an L2 needs a \"dram\" section (its slices attach to the DRAM channels)");
    d.has_l2 = true;
    d.l2 = mem::parse_l2_spec(*c, d.dram.channels);
    if (auto pc = c->child_opt("partitions")) {
      mem::parse_l2_partitions(*pc, d.l2, d.dram.channels, d.sm.count);
      pc->finish();
    }
    c->finish();
  }
  if (auto c = r.child_opt("partition")) {
    d.partition = mem::parse_partition_spec(*c);
  } else if (d.has_dram) {
    r.fail("partition", "missing required key (a device with a \"dram\" section needs partition latencies)");
  }
  {
    ConfigReader c = r.child("interconnect");
    d.interconnect = mem::parse_interconnect_spec(c);
    c.finish();
  }
  // "gpcs": null (--set gpcs=null) models no GPCs, e.g. for a what-if sweep of sm.count.
  if (const Json* g = r.raw_opt("gpcs"); g && !g->is_null()) {
    ConfigReader c = r.child("gpcs");
    parse_gpcs(c, d);
    c.finish();
  }
  if (auto c = r.child_opt("clusters")) {
    parse_clusters(*c, d);
    c->finish();
  }
  if (d.shared.partition > d.sm.warp_size)
    r.fail("shared", fmt::format("shared.partition {} exceeds sm.warp_size {}", d.shared.partition, d.sm.warp_size));
  if (d.coalescer.subwarp_size > d.sm.warp_size)
    r.fail("coalescer", fmt::format("coalescer.subwarp_size {} exceeds sm.warp_size {}", d.coalescer.subwarp_size,
                                    d.sm.warp_size));
  r.finish();
  return d;
}

DeviceSpec load_device_spec(const std::string& path, const std::vector<std::string>& overrides) {
  Json doc = load_json_file(path);
  for (const auto& o : overrides) apply_override(doc, o, path);
  return parse_device_spec(doc, path);
}

}  // namespace warpsim
