// Decoding of the mbarrier objects of sm_80 and later (what cuda::barrier, cuda::pipeline
// with a block-scope shared state and cuda::memcpy_async compile to for sm_90):
//   mbarrier.init{.shared{::cta}}.b64 [a], count;      mbarrier.inval{.shared{::cta}}.b64 [a];
//   mbarrier.arrive{.noComplete}{.sem}{.scope}{.shared{::cta}}.b64 state, [a]{, count};
//   mbarrier.arrive.expect_tx{.sem}{.scope}{.shared{::cta}}.b64 state, [a], tx;
//   mbarrier.arrive_drop{.noComplete}{...}.b64 state, [a]{, count};
//   mbarrier.expect_tx|complete_tx{.sem}{.scope}{.shared{::cta}}.b64 [a], tx;
//   mbarrier.test_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 p, [a], state|parity;
//   mbarrier.try_wait{.parity}{...}.b64 p, [a], state|parity{, suspendTimeHint};
//   mbarrier.pending_count.b64 count, state;
// and, in ptx_decode_cp_async.cpp's cp family, cp.async.mbarrier.arrive{.noinc} and the
// bulk copy with mbarrier completion. The .sem and .scope qualifiers are accepted (the
// simulator's memory is sequentially consistent); an mbarrier in another block's shared
// memory (.shared::cluster) is refused.
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

bool Decoder::classify_mbarrier(std::string_view m) {
  static const std::pair<std::string_view, char> ops[] = {
      {"init", 'i'},      {"inval", 'v'},       {"arrive", 'a'},       {"arrive_drop", 'd'},   {"expect_tx", 'e'},
      {"complete_tx", 'c'}, {"test_wait", 't'}, {"try_wait", 'y'},     {"pending_count", 'p'}};
  for (auto& [n, o] : ops)
    if (m == n) {
      if (md_.mbar_op == 'a' && o == 'e') {  // arrive.expect_tx
        md_.mbar |= kMbarExpectTx;
        return true;
      }
      if (md_.mbar_op) malformed(fmt::format("two mbarrier operations (.{})", m));
      md_.mbar_op = o;
      if (o == 'd') {
        md_.mbar_op = 'a';
        md_.mbar |= kMbarDrop;
      }
      return true;
    }
  if (m == "noComplete") {
    md_.mbar |= kMbarNoComplete;
    return true;
  }
  if (m == "parity") {
    md_.mbar |= kMbarParity;
    return true;
  }
  return false;
}

void Decoder::mbarrier() {
  if (!md_.mbar_op) malformed("mbarrier needs an operation (.init, .arrive, .test_wait, ...)");
  if (md_.has_space && md_.space != Space::Shared) malformed("an mbarrier object is in shared memory");
  if (md_.cluster_space)
    unsupported("mbarrier on .shared::cluster (an mbarrier in another block's shared memory)");
  const char op = md_.mbar_op;
  if (md_.types.size() != 1 || md_.types[0] != DType::B64) malformed(fmt::format("mbarrier takes .b64"));
  if ((md_.mbar & kMbarNoComplete) && op != 'a') malformed(".noComplete is for mbarrier.arrive and arrive_drop");
  if ((md_.mbar & kMbarParity) && op != 't' && op != 'y') malformed(".parity is for test_wait and try_wait");
  in_.type = DType::B64;
  in_.space = md_.has_space ? Space::Shared : Space::Generic;
  in_.mbar = md_.mbar;
  in_.klass = InstrClass::AtomShared;
  const Space sp = in_.space;
  switch (op) {
    case 'i':
      need(2);
      in_.op = Op::MbarInit;
      set(kA, addr(ops_[0], sp, kA));
      set(kB, src(ops_[1], DType::U32, kB));
      return;
    case 'v':
      need(1);
      in_.op = Op::MbarInval;
      set(kA, addr(ops_[0], sp, kA));
      return;
    case 'a': {
      const bool expect_tx = md_.mbar & kMbarExpectTx;
      if (expect_tx && (md_.mbar & (kMbarNoComplete | kMbarDrop)))
        unsupported("mbarrier.arrive.expect_tx with .noComplete or arrive_drop");
      need_between(expect_tx ? 3 : 2, 3);
      if ((md_.mbar & kMbarNoComplete) && ops_.size() != 3) malformed(".noComplete arrivals name their count");
      in_.op = Op::MbarArrive;
      set(kD0, dst(ops_[0]));
      set(kA, addr(ops_[1], sp, kA));
      if (ops_.size() == 3) set(kB, src(ops_[2], DType::U32, kB));
      return;
    }
    case 'e':
    case 'c':
      need(2);
      in_.op = Op::MbarTx;
      if (op == 'c') in_.mbar |= kMbarComplete;
      set(kA, addr(ops_[0], sp, kA));
      set(kB, src(ops_[1], DType::U32, kB));
      return;
    case 't':
    case 'y':
      need_between(3, op == 'y' ? 4 : 3);
      in_.op = Op::MbarWait;
      if (op == 'y') in_.mbar |= kMbarTry;
      in_.klass = InstrClass::Barrier;
      set(kD0, pdst(ops_[0]));
      set(kA, addr(ops_[1], sp, kA));
      set(kB, src(ops_[2], (md_.mbar & kMbarParity) ? DType::U32 : DType::B64, kB));
      if (ops_.size() == 4) set(kC, src(ops_[3], DType::U32, kC));
      return;
    case 'p':
      need(2);
      if (md_.has_space) malformed("mbarrier.pending_count takes no state space");
      in_.op = Op::MbarPending;
      in_.klass = InstrClass::IntAlu;
      set(kD0, dst(ops_[0]));
      set(kA, src(ops_[1], DType::B64, kA));
      return;
  }
}

void Decoder::cp_async_mbarrier_arrive() {
  if (md_.cp_spaces.size() > 1 || (!md_.cp_spaces.empty() && md_.cp_spaces[0] != Space::Shared))
    malformed("cp.async.mbarrier.arrive's mbarrier is in shared memory");
  if (md_.types.size() != 1 || md_.types[0] != DType::B64) malformed("cp.async.mbarrier.arrive takes .b64");
  need(1);
  in_.op = Op::CpAsyncMbarArrive;
  in_.type = DType::B64;
  in_.space = md_.cp_spaces.empty() ? Space::Generic : Space::Shared;
  in_.mbar = md_.mbar;
  in_.klass = InstrClass::AtomShared;
  set(kA, addr(ops_[0], in_.space, kA));
}

void Decoder::cp_async_bulk() {
  // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar];
  if (md_.cp_spaces.size() != 2 || md_.cp_spaces[0] != Space::Shared || md_.cp_spaces[1] != Space::Global ||
      !md_.cp_complete_tx)
    unsupported("cp.async.bulk other than .shared::cluster.global.mbarrier::complete_tx::bytes (global to shared "
                "memory, completed on an mbarrier)");
  need(4);
  in_.op = Op::CpAsyncBulk;
  in_.type = DType::B8;
  in_.space = Space::Shared;
  set(kA, addr(ops_[0], Space::Shared, kA));
  set(kB, addr(ops_[1], Space::Global, kB));
  set(kC, src(ops_[2], DType::U32, kC));
  set(kE, addr(ops_[3], Space::Shared, kE));
  in_.klass = InstrClass::LdGlobal;
}

}  // namespace warpsim::isa::detail
