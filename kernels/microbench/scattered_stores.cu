// Store throughput by sector coverage (docs/calibration.md): thread t stores the float t at
// out[(t & mask) * stride + (t >> shift)], with mask = 2^shift - 1.
//  - stride 1, 2^shift = threads: out[t], coalesced: eight lanes of a warp write each
//    32-byte sector whole;
//  - stride 8, 2^shift = threads / 8: each lane writes 4 bytes of a sector of its own, and
//    the eight passes t >> shift = 0..7 fill each sector's other words from other warps,
//    the store pattern of a naive transpose.
__global__ void scattered_stores(float* out, unsigned mask, unsigned shift, unsigned stride) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[(t & mask) * stride + (t >> shift)] = (float)t;
}
