// The lecture's "Memory coalescing - SoA or AoS?" example (after David Tarjan, NVIDIA).
// Reading the key of an array of 12-byte records touches three times the bytes the warp
// needs; reading an array of keys is fully coalesced. The lecture's `bar` only reads (the
// compiler would delete it), so each kernel here stores what it read.
struct record {
  int key;
  int value;
  int flag;
};

struct SoA {
  int* keys;
  int* value;
  int* flag;
};

// The lecture's kernel, storing both keys it reads.
__global__ void bar(record* AoS_data, SoA SoA_data, int* key_out, int* key_better_out) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  // AoS wastes bandwidth
  int key = AoS_data[i].key;
  // SoA efficient use of bandwidth
  int key_better = SoA_data.keys[i];
  key_out[i] = key;
  key_better_out[i] = key_better;
}

// The two reads on their own, for separate measurements.
__global__ void readKeysAoS(record* AoS_data, int* key_out) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int key = AoS_data[i].key;
  key_out[i] = key;
}

__global__ void readKeysSoA(SoA SoA_data, int* key_out) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int key_better = SoA_data.keys[i];
  key_out[i] = key_better;
}
