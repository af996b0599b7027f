// Decoding of the thread block cluster instructions of sm_90 (cooperative_groups'
// this_cluster(), __cluster_dims__, distributed shared memory):
//   barrier.cluster.arrive{.release|.relaxed}{.aligned};  barrier.cluster.wait{.acquire}{.aligned};
//   mapa{.shared::cluster}.{u32|u64} d, a, rank;          getctarank{.shared::cluster}.{u32|u64} d, a;
//   mov.pred p, %is_explicit_cluster;
// ld/st/atom/red take .shared::cluster (and .shared::cta) as the shared space: the
// addresses carry the block's rank (ir.hpp kClusterRankShift).
#include "sim/isa/ptx_decoder.hpp"

namespace warpsim::isa::detail {

bool Decoder::classify_cluster(std::string_view m) {
  if ((base_ == "barrier" || base_ == "bar") && m == "cluster") {
    md_.cluster = true;
    return true;
  }
  if (md_.cluster && (m == "arrive" || m == "wait")) {
    if (md_.cluster_op) malformed("barrier.cluster takes one of .arrive and .wait");
    md_.cluster_op = m[0];
    return true;
  }
  if (m == "shared::cta" || m == "shared::cluster") {
    if (md_.has_space) malformed("two state spaces");
    md_.has_space = true;
    md_.cluster_space = m == "shared::cluster";
    md_.space = Space::Shared;
    return true;
  }
  return false;
}

void Decoder::cluster_barrier() {
  if (!md_.cluster_op) malformed("barrier.cluster needs .arrive or .wait");
  if (md_.sync || md_.bar_red) malformed("barrier.cluster takes no .sync or .red");
  need(0);
  if (in_.has_guard) unsupported("a guarded barrier.cluster");
  in_.op = md_.cluster_op == 'a' ? Op::ClusterArrive : Op::ClusterWait;
  in_.klass = InstrClass::Barrier;
}

void Decoder::mapa() {
  const DType t = type1();
  if (t != DType::U32 && t != DType::U64) malformed(fmt::format("{} takes .u32 or .u64", base_));
  if (md_.has_space && md_.space != Space::Shared) malformed(fmt::format("{} addresses shared memory", base_));
  const bool is_mapa = base_ == "mapa";
  need(is_mapa ? 3 : 2);
  // .u32 addresses are shared::cluster ones; .u64 generic ones, unless .shared::cluster says so.
  in_.space = md_.has_space || t == DType::U32 ? Space::Shared : Space::Generic;
  in_.op = is_mapa ? Op::Mapa : Op::GetCtaRank;
  in_.type = t;
  set(kD0, dst(ops_[0]));
  set(kA, src(ops_[1], t, kA));
  if (is_mapa) {
    set(kB, src(ops_[2], DType::U32, kB));
  } else {
    RawOp own = ops_[1];
    own.k = RawOp::K::Reg;
    own.name = "%cluster_ctarank";
    set(kC, src(own, DType::U32, kC));
  }
  in_.klass = InstrClass::IntAlu;
}

}  // namespace warpsim::isa::detail
