// Kirk & Hwu ch. 3 (Fig. 3.4), colour-to-greyscale conversion, used in ch. 5's divergence
// analysis: a 76x62 picture with 16x16 blocks (5x4 blocks, 160 warps) has 31 divergent
// warps; 200x150 (13x10 blocks, 1040 warps) has 80. One thread per pixel; Pin holds
// CHANNELS bytes (r, g, b) per pixel, row-major.
#define CHANNELS 3

__global__ void colorToGreyscaleConversion(unsigned char* Pout, unsigned char* Pin, int width,
                                           int height) {
  int Col = threadIdx.x + blockIdx.x * blockDim.x;
  int Row = threadIdx.y + blockIdx.y * blockDim.y;
  if (Col < width && Row < height) {
    // get 1D coordinate for the grayscale image
    int greyOffset = Row * width + Col;
    // one can think of the RGB image having CHANNEL times columns than the grayscale image
    int rgbOffset = greyOffset * CHANNELS;
    unsigned char r = Pin[rgbOffset];      // red value for pixel
    unsigned char g = Pin[rgbOffset + 1];  // green value for pixel
    unsigned char b = Pin[rgbOffset + 2];  // blue value for pixel
    // perform the rescaling and store it; we multiply by floating point constants
    Pout[greyOffset] = 0.21f * r + 0.71f * g + 0.07f * b;
  }
}
