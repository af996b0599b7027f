// Decoding of the asynchronous copies of sm_80 and later (cuda::memcpy_async,
// cuda::pipeline, __pipeline_memcpy_async):
//   cp.async.ca.shared.global{.L2::64B|128B|256B} [dst], [src], cp-size{, src-size | , ignore-src};
//   cp.async.cg.shared.global{...}                [dst], [src], 16{, src-size | , ignore-src};
//   cp.async.commit_group;  cp.async.wait_group N;  cp.async.wait_all;
// The bulk (TMA) copies, the mbarrier forms and cache-policy operands are refused.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

bool Decoder::classify_cp(std::string_view m) {
  if (m == "async") {
    md_.async = true;
    return true;
  }
  if (m == "shared" || m == "shared::cta" || m == "global") {
    md_.cp_spaces.push_back(m == "global" ? Space::Global : Space::Shared);
    return true;
  }
  if (m == "commit_group" || m == "wait_group" || m == "wait_all") {
    if (md_.cp_op) malformed("two cp.async operations");
    md_.cp_op = m == "commit_group" ? 'g' : m == "wait_group" ? 'w' : 'a';
    return true;
  }
  if (one_of(m, {"L2::64B", "L2::128B", "L2::256B"})) return true;  // an L2 prefetch hint
  if (one_of(m, {"bulk", "mbarrier", "shared::cluster", "L2::cache_hint", "tensor"}))
    unsupported(fmt::format("cp.async .{} (bulk/TMA copies, mbarrier completion and cache policies)", m));
  return false;
}

void Decoder::cp_async() {
  if (!md_.async) unsupported("cp without .async");
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
