// Device helpers the placement and merging probes share: the SM a thread runs on and the
// GPU's global nanosecond timer (PTX %smid, %globaltimer).
#pragma once

__device__ inline unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
__device__ inline unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
