// Ruetsch & Micikevicius, "Optimizing Matrix Transpose in CUDA" (NVIDIA, 2009): the copy
// and transpose kernels of the paper, with its TILE_DIM x BLOCK_ROWS thread blocks (each
// thread handles TILE_DIM/BLOCK_ROWS elements) and its `nreps` repetition loop (pass 1).
// width and height must be multiples of TILE_DIM; the grid is width/TILE_DIM x
// height/TILE_DIM blocks of TILE_DIM x BLOCK_ROWS threads. idata is height rows of width
// floats; a transpose writes odata as width rows of height floats.
#define TILE_DIM 32
#define BLOCK_ROWS 8

// Simple copy: the bandwidth a transpose should aim for.
__global__ void copy(float* odata, float* idata, int width, int height, int nreps) {
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index = xIndex + width * yIndex;
  for (int r = 0; r < nreps; r++) {
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      odata[index + i * width] = idata[index + i * width];
    }
  }
}

// Copy through a shared-memory tile: the cost of staging without the transposed read.
__global__ void copySharedMem(float* odata, float* idata, int width, int height, int nreps) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index = xIndex + width * yIndex;
  for (int r = 0; r < nreps; r++) {
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      tile[threadIdx.y + i][threadIdx.x] = idata[index + i * width];
    }
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      odata[index + i * width] = tile[threadIdx.y + i][threadIdx.x];
    }
  }
}

// Naive transpose: coalesced reads, writes with a stride of height floats.
__global__ void transposeNaive(float* odata, float* idata, int width, int height, int nreps) {
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + width * yIndex;
  int index_out = yIndex + height * xIndex;
  for (int r = 0; r < nreps; r++) {
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      odata[index_out + i] = idata[index_in + i * width];
    }
  }
}

// Coalesced transpose: a tile is read by rows and written by rows of the transposed tile;
// the transposed read of the tile is a column of shared memory (32-way bank conflicts).
__global__ void transposeCoalesced(float* odata, float* idata, int width, int height, int nreps) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;
  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;
  for (int r = 0; r < nreps; r++) {
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    }
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
    }
  }
}

// Shared memory bank conflicts removed by padding each tile row by one float.
__global__ void transposeNoBankConflicts(float* odata, float* idata, int width, int height,
                                         int nreps) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;
  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;
  for (int r = 0; r < nreps; r++) {
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    }
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
    }
  }
}

// Diagonal block reordering: blocks that run together touch different partitions
// (avoids partition camping on GT200).
__global__ void transposeDiagonal(float* odata, float* idata, int width, int height, int nreps) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int blockIdx_x, blockIdx_y;
  // diagonal reordering
  if (width == height) {
    blockIdx_y = blockIdx.x;
    blockIdx_x = (blockIdx.x + blockIdx.y) % gridDim.x;
  } else {
    int bid = blockIdx.x + gridDim.x * blockIdx.y;
    blockIdx_y = bid % gridDim.y;
    blockIdx_x = ((bid / gridDim.y) + blockIdx_y) % gridDim.x;
  }
  int xIndex = blockIdx_x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx_y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;
  xIndex = blockIdx_y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx_x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;
  for (int r = 0; r < nreps; r++) {
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
    }
    __syncthreads();
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
      odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
    }
  }
}
