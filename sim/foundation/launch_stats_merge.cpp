#include "sim/foundation/launch_stats_merge.hpp"

#include <algorithm>

namespace warpsim {

namespace {

void add(std::vector<uint64_t>& into, const std::vector<uint64_t>& part) {
  if (into.size() < part.size()) into.resize(part.size(), 0);
  for (size_t i = 0; i < part.size(); ++i) into[i] += part[i];
}

}  // namespace

void add_counts(LaunchStats& into, const LaunchStats& part) {
  ExecStats& e = into.exec;
  const ExecStats& pe = part.exec;
  e.inst_executed += pe.inst_executed;
  e.thread_inst_executed += pe.thread_inst_executed;
  e.not_predicated_off_thread_inst_executed += pe.not_predicated_off_thread_inst_executed;
  e.branch += pe.branch;
  e.divergent_branch += pe.divergent_branch;
  e.gld_requests += pe.gld_requests;
  e.gst_requests += pe.gst_requests;
  e.local_load_requests += pe.local_load_requests;
  e.local_store_requests += pe.local_store_requests;
  e.shared_load_requests += pe.shared_load_requests;
  e.shared_store_requests += pe.shared_store_requests;
  e.atomic_requests += pe.atomic_requests;
  e.tex_requests += pe.tex_requests;
  e.barriers += pe.barriers;
  e.blocks += pe.blocks;
  e.warps += pe.warps;
  e.threads += pe.threads;
  add(e.round_robin_sm_instructions, pe.round_robin_sm_instructions);
  e.longest_warp_instructions = std::max(e.longest_warp_instructions, pe.longest_warp_instructions);

  MemStats& m = into.mem;
  const MemStats& pm = part.mem;
  m.gld_transactions += pm.gld_transactions;
  m.gst_transactions += pm.gst_transactions;
  m.local_load_transactions += pm.local_load_transactions;
  m.local_store_transactions += pm.local_store_transactions;
  m.atomic_transactions += pm.atomic_transactions;
  m.tex_transactions += pm.tex_transactions;
  m.gld_bytes_requested += pm.gld_bytes_requested;
  m.gst_bytes_requested += pm.gst_bytes_requested;
  m.gld_bytes_transferred += pm.gld_bytes_transferred;
  m.gst_bytes_transferred += pm.gst_bytes_transferred;
  m.shared_load_transactions += pm.shared_load_transactions;
  m.shared_store_transactions += pm.shared_store_transactions;
  m.shared_load_bank_conflicts += pm.shared_load_bank_conflicts;
  m.shared_store_bank_conflicts += pm.shared_store_bank_conflicts;
  {
    const auto mine = m.cache_counters();
    const auto theirs = pm.cache_counters();
    for (size_t i = 0; i < mine.size(); ++i) *mine[i] += *theirs[i];
  }

  if (into.per_pc.size() < part.per_pc.size()) into.per_pc.resize(part.per_pc.size());
  for (size_t i = 0; i < part.per_pc.size(); ++i) {
    PcStats& p = into.per_pc[i];
    const PcStats& q = part.per_pc[i];
    p.executed += q.executed;
    p.active_threads += q.active_threads;
    p.divergent += q.divergent;
    p.requests += q.requests;
    p.transactions += q.transactions;
    p.stall_cycles += q.stall_cycles;
  }

  if (into.branches.size() < part.branches.size()) into.branches.resize(part.branches.size());
  for (size_t i = 0; i < part.branches.size(); ++i) {
    const BranchInstanceStats& q = part.branches[i];
    if (q.reached.empty()) continue;  // never executed in this share
    BranchInstanceStats& b = into.branches[i];
    b.pc = q.pc;
    add(b.reached, q.reached);
    add(b.diverged, q.diverged);
  }
}

}  // namespace warpsim
