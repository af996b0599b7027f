// Calls about 250 of the CUDA math functions and device intrinsics (float and double math,
// the rounding-mode intrinsics, integer and bit intrinsics, the SIMD and DPX functions, warp
// reductions and votes, cooperative groups' scan and reduce, atomics of every type, half and
// bf16 arithmetic and atomics, cache-hint loads and stores, __prof_trigger, __nanosleep). It
// is not run: compiled to PTX for sm_90, its one kernel must load in warpsim (`warpsim
// inspect` names no unsupported construct), which is how the instructions nvcc emits for
// these calls were found and is what the test keeps.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void sink(float* o, const float* x, double* od, const double* xd, unsigned* ou, const unsigned* xu, long long* ol) {
  int i = threadIdx.x; float a = x[i], b = x[i+1], c = x[i+2]; double p = xd[i], q = xd[i+1];
  unsigned u = xu[i], v = xu[i+1];
  int k = 0;
#define F(e) o[k++] = (e);
#define D(e) od[k++] = (e);
#define U(e) ou[k++] = (e);
  F(sinf(a)) F(cosf(a)) F(tanf(a)) F(asinf(a)) F(acosf(a)) F(atanf(a)) F(atan2f(a,b)) F(sinhf(a)) F(coshf(a)) F(tanhf(a))
  F(asinhf(a)) F(acoshf(a)) F(atanhf(a)) F(expf(a)) F(exp2f(a)) F(exp10f(a)) F(expm1f(a)) F(logf(a)) F(log2f(a)) F(log10f(a))
  F(log1pf(a)) F(powf(a,b)) F(sqrtf(a)) F(rsqrtf(a)) F(cbrtf(a)) F(rcbrtf(a)) F(hypotf(a,b)) F(erff(a)) F(erfcf(a)) F(erfinvf(a))
  F(erfcinvf(a)) F(lgammaf(a)) F(tgammaf(a)) F(fmodf(a,b)) F(remainderf(a,b)) F(remquof(a,b,&k)) F(frexpf(a,&k)) F(ldexpf(a,k)) F(modff(a,&c))
  F(isnan(a)) F(isinf(a)) F(isfinite(a)) F(signbit(a)) F(copysignf(a,b)) F(fdimf(a,b)) F(fmaxf(a,b)) F(fminf(a,b)) F(truncf(a)) F(roundf(a))
  F(rintf(a)) F(nearbyintf(a)) F(ceilf(a)) F(floorf(a)) F(lrintf(a)) F(lroundf(a)) F(normf(3,x)) F(rnormf(3,x)) F(norm3df(a,b,c)) F(j0f(a)) F(j1f(a)) F(y0f(a)) F(y1f(a)) F(jnf(2,a)) F(ynf(2,a))
  F(cyl_bessel_i0f(a)) F(cyl_bessel_i1f(a)) F(normcdff(a)) F(normcdfinvf(a)) F(sinpif(a)) F(cospif(a)) F(nextafterf(a,b)) F(logbf(a)) F(ilogbf(a)) F(scalbnf(a,3))
  F(__sinf(a)) F(__cosf(a)) F(__tanf(a)) F(__expf(a)) F(__exp10f(a)) F(__logf(a)) F(__log2f(a)) F(__log10f(a)) F(__powf(a,b)) F(__fdividef(a,b))
  F(__saturatef(a)) F(__fmaf_rn(a,b,c)) F(__fmaf_rz(a,b,c)) F(__fmaf_ru(a,b,c)) F(__fmaf_rd(a,b,c)) F(__fadd_rz(a,b)) F(__fmul_ru(a,b)) F(__fdiv_rd(a,b)) F(__frcp_rn(a)) F(__fsqrt_rz(a)) F(__frsqrt_rn(a)) F(__fsub_ru(a,b))
  F(__fmaf_ieee_rn(a,b,c)) F(__float2int_rn(a)) F(__float2uint_rz(a)) F(__float2ll_rd(a)) F(__int2float_ru(i)) F(__uint2float_rd(u)) F(__float_as_int(a)) F(__float2half_rn(a)) F(__half2float(__float2half(a)))
  D(sin(p)) D(cos(p)) D(tan(p)) D(exp(p)) D(log(p)) D(pow(p,q)) D(sqrt(p)) D(rsqrt(p)) D(cbrt(p)) D(erf(p)) D(lgamma(p)) D(tgamma(p)) D(atan2(p,q)) D(fmod(p,q)) D(remainder(p,q))
  D(__dadd_rz(p,q)) D(__dmul_ru(p,q)) D(__ddiv_rd(p,q)) D(__drcp_rn(p)) D(__dsqrt_rz(p)) D(__fma_rn(p,q,p)) D(__double2float_rz(p)) D(__double2int_rn(p)) D(__double2ll_rz(p)) D(__ll2double_rn((long long)u)) D(__double_as_longlong(p)) D(__hiloint2double(u,v)) D(__double2hiint(p))
  D(j0(p)) D(normcdf(p)) D(erfinv(p)) D(sinpi(p)) D(expm1(p)) D(log1p(p)) D(hypot(p,q)) D(nextafter(p,q)) D(ldexp(p,3)) D(ilogb(p))
  U(__brev(u)) U(__byte_perm(u,v,0x3210)) U(__clz(u)) U(__ffs(u)) U(__popc(u)) U(__brevll(u)) U(__clzll(u)) U(__ffsll(u)) U(__popcll(u)) U(__funnelshift_l(u,v,5)) U(__funnelshift_rc(u,v,40))
  U(__hadd(u,v)) U(__rhadd(u,v)) U(__uhadd(u,v)) U(__urhadd(u,v)) U(__mul24(u,v)) U(__umul24(u,v)) U(__mulhi(u,v)) U(__umulhi(u,v)) U(__mul64hi(u,v)) U(__umul64hi(u,v)) U(__sad(u,v,3)) U(__usad(u,v,3))
  U(__vabs2(u)) U(__vabs4(u)) U(__vabsdiffs2(u,v)) U(__vabsdiffs4(u,v)) U(__vabsdiffu2(u,v)) U(__vabsdiffu4(u,v)) U(__vabsss2(u)) U(__vadd2(u,v)) U(__vadd4(u,v)) U(__vaddss2(u,v)) U(__vaddss4(u,v)) U(__vaddus2(u,v)) U(__vaddus4(u,v))
  U(__vavgs2(u,v)) U(__vavgu4(u,v)) U(__vcmpeq2(u,v)) U(__vcmpges4(u,v)) U(__vcmpgtu2(u,v)) U(__vcmplts4(u,v)) U(__vhaddu4(u,v)) U(__vmaxs2(u,v)) U(__vmaxu4(u,v)) U(__vmins4(u,v)) U(__vneg2(u)) U(__vnegss4(u)) U(__vsads2(u,v)) U(__vsadu4(u,v)) U(__vseteq2(u,v)) U(__vsetgeu4(u,v)) U(__vsub2(u,v)) U(__vsubss4(u,v)) U(__vsubus2(u,v))
  U(__viaddmax_s32(u,v,3)) U(__vimax3_s32(u,v,3)) U(__vimin_s16x2_relu(u,v)) U(__vibmax_s32(u,v,(bool*)ou)) 
  U(__reduce_add_sync(0xffffffff,u)) U(__match_any_sync(0xffffffff,u)) U(__ballot_sync(0xffffffff,u)) U(__shfl_xor_sync(0xffffffff,u,1)) U(__activemask())
  auto t = cg::tiled_partition<32>(cg::this_thread_block());
  U(cg::inclusive_scan(t, u)) U(cg::reduce(t, u, cg::greater<unsigned>())) U(t.match_any(u)) 
  ol[0] = clock64(); U(__nv_atomic_load_n(&u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
  U(atomicAdd(ou, 1u)) U(atomicCAS(ou, 1u, 2u)) U(atomicMax(ou, 3u)) U(atomicInc(ou, 9u)) F(atomicAdd(o, 1.f)) D(atomicAdd(od, 1.0)) U(atomicAnd_system(ou,1u)) U(atomicExch_block(ou,1u))
  __half2 h = __floats2half2_rn(a,b); __half2 h2 = __hmul2_rn(h,h); o[k++] = __low2float(h2 + h); o[k++]=__half2float(__hdiv(__low2half(h), __high2half(h)));
  atomicAdd((__half2*)ou, h); atomicAdd((__nv_bfloat162*)ou, __floats2bfloat162_rn(a,b)); atomicAdd((__half*)ou, __float2half(a));
  o[k++] = __bfloat162float(hsqrt(__float2bfloat16(a))); o[k++] = __half2float(hrsqrt(__float2half(a)));  o[k++] = __half2float(hrcp(__float2half(a)));  o[k++] = __half2float(hlog2(__float2half(a)));
  __nanosleep(100); __threadfence(); __threadfence_block(); __syncwarp(); __prof_trigger(0); 
  o[k++] = __ldg(x+3) + __ldcs(x+4) + __ldlu(x+5) + __ldcv(x+6) + __ldca(x+7); __stcs(o+100, a); __stwt(o+101, b); __stwb(o+102,c); __stcg(o+103, a);
}
