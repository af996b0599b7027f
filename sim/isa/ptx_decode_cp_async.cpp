// Decoding of the asynchronous copies of sm_80 and later (cuda::memcpy_async,
// cuda::pipeline, __pipeline_memcpy_async):
//   cp.async.ca.shared.global{.L2::64B|128B|256B} [dst], [src], cp-size{, src-size | , ignore-src};
//   cp.async.cg.shared.global{...}                [dst], [src], 16{, src-size | , ignore-src};
//   cp.async.commit_group;  cp.async.wait_group N;  cp.async.wait_all;
//   cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [mbar];
//   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar];
// (the last two decoded in ptx_decode_mbarrier.cpp). The other bulk copies (to global memory,
// bulk groups, multicast), the tensor (TMA) copies and cache-policy operands are refused.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

bool Decoder::classify_cp(std::string_view m) {
  if (m == "async") {
    md_.async = true;
    return true;
  }
  if (m == "shared" || m == "shared::cta" || m == "global" || (m == "shared::cluster" && md_.cp_bulk)) {
    md_.cp_spaces.push_back(m == "global" ? Space::Global : Space::Shared);
    return true;
  }
  if (m == "mbarrier" && !md_.cp_bulk) {
    md_.cp_mbar_arrive = true;
    return true;
  }
  if (md_.cp_mbar_arrive && (m == "arrive" || m == "noinc")) {
    if (m == "noinc") md_.mbar |= kMbarNoInc;
    return true;
  }
  if (m == "bulk" && md_.async) {
    md_.cp_bulk = true;
    return true;
  }
  if (m == "mbarrier::complete_tx::bytes" && md_.cp_bulk) {
    md_.cp_complete_tx = true;
    return true;
  }
  if (m == "commit_group" || m == "wait_group" || m == "wait_all") {
    if (md_.cp_op) malformed("two cp.async operations");
    md_.cp_op = m == "commit_group" ? 'g' : m == "wait_group" ? 'w' : 'a';
    return true;
  }
  if (one_of(m, {"L2::64B", "L2::128B", "L2::256B"})) return true;  // an L2 prefetch hint
  if (one_of(m, {"bulk", "shared::cluster", "L2::cache_hint", "tensor", "multicast::cluster", "bulk_group"}) ||
      m.substr(0, 8) == "mbarrier")
    unsupported(fmt::format("cp.async .{} (bulk copies other than global to shared with mbarrier completion, "
                            "tensor (TMA) copies, multicast and cache policies)",
                            m));
  return false;
}

void Decoder::cp_async() {
  if (!md_.async) unsupported("cp without .async");
  if (md_.cp_mbar_arrive) return cp_async_mbarrier_arrive();
  if (md_.cp_bulk) return cp_async_bulk();
  if (md_.cp_op == 'g' || md_.cp_op == 'a') {
    need(0);
    in_.op = md_.cp_op == 'g' ? Op::CpAsyncCommit : Op::CpAsyncWait;
    in_.klass = InstrClass::Other;
    return;
  }
  if (md_.cp_op == 'w') {
    need(1);
    if (ops_[0].k != RawOp::K::Imm) malformed("cp.async.wait_group takes an integer constant");
    in_.op = Op::CpAsyncWait;
    set(kA, src(ops_[0], DType::U32, kA));
    in_.klass = InstrClass::Other;
    return;
  }
  if (md_.cp_spaces.size() != 2 || md_.cp_spaces[0] != Space::Shared || md_.cp_spaces[1] != Space::Global)
    malformed("cp.async copies .shared.global");
  if (md_.cache != CacheOp::Ca && md_.cache != CacheOp::Cg) malformed("cp.async needs .ca or .cg");
  need_between(3, 4);
  const RawOp& size = ops_[2];
  if (size.k != RawOp::K::Imm || (size.ival != 4 && size.ival != 8 && size.ival != 16))
    malformed("cp.async copies 4, 8 or 16 bytes (an integer constant)");
  if (md_.cache == CacheOp::Cg && size.ival != 16) malformed("cp.async.cg copies 16 bytes");
  in_.op = Op::CpAsync;
  in_.type = DType::B32;
  in_.vec = static_cast<uint8_t>(size.ival / 4);
  in_.space = Space::Shared;
  in_.cache = md_.cache;
  set(kA, addr(ops_[0], Space::Shared, kA));
  set(kB, addr(ops_[1], Space::Global, kB));
  if (ops_.size() == 4) {
    const RawOp& extra = ops_[3];
    if (extra.k == RawOp::K::Reg && ctx_.is_pred_name(extra.name)) set(kE, psrc(extra));
    else set(kC, src(extra, DType::U32, kC));
  }
  in_.klass = InstrClass::LdGlobal;
}

}  // namespace warpsim::isa::detail
