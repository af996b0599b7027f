// "Performance Analysis of CUDA Programs" (note, section 2, Branch Divergence): the same
// update under three conditions. With the note's 16-thread warps, `j%2` splits every warp
// and `(j/16)%2` none; with 32-thread warps `(j/16)%2` splits every warp and `(j/32)%2`
// none. N and P are unused, as in the note. No bounds check: n = gridDim.x * blockDim.x.
//
// As printed, both paths are so short that nvcc if-converts them (one load, both results,
// selp, one store): the PTX has no branch and no warp diverges, which is the Programming
// Guide's point about branch predication. The *Branch variants differ only in `volatile`
// on M, which keeps the two stores on their own paths, so the branch, and the divergence
// the note counts, stays in the PTX.
__global__ void divergenceOddEven(float* M, float* N, float* P) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j % 2)
    M[j] += 2;
  else
    M[j] *= 2;
}

__global__ void divergenceHalfWarps(float* M, float* N, float* P) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((j / 16) % 2)
    M[j] += 2;
  else
    M[j] *= 2;
}

__global__ void divergenceWarps(float* M, float* N, float* P) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((j / 32) % 2)
    M[j] += 2;
  else
    M[j] *= 2;
}

__global__ void divergenceOddEvenBranch(volatile float* M, float* N, float* P) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j % 2)
    M[j] += 2;
  else
    M[j] *= 2;
}

__global__ void divergenceHalfWarpsBranch(volatile float* M, float* N, float* P) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((j / 16) % 2)
    M[j] += 2;
  else
    M[j] *= 2;
}

__global__ void divergenceWarpsBranch(volatile float* M, float* N, float* P) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((j / 32) % 2)
    M[j] += 2;
  else
    M[j] *= 2;
}
