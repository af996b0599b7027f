// Peer copies on a machine with one device: device 0 to device 0 is a device-to-device
// copy; any other device is cudaErrorInvalidDevice. peer_copy.expected is an H200's output
// (a one-GPU machine, like the simulated one).
#include <cstdio>

static void say(const char* what, cudaError_t e) {
  printf("%s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

int main() {
  int count = 0, can = -1;
  cudaGetDeviceCount(&count);
  say("cudaDeviceCanAccessPeer(0, 0)", cudaDeviceCanAccessPeer(&can, 0, 0));
  printf("devices %d, can access peer 0->0: %d\n", count, can);
  const int n = 1 << 16;
  int *a, *b, h[n];
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  for (int i = 0; i < n; ++i) h[i] = i * 3;
  cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice);
  say("cudaMemcpyPeer(b, 0, a, 0)", cudaMemcpyPeer(b, 0, a, 0, n * sizeof(int)));
  for (int i = 0; i < n; ++i) h[i] = 0;
  cudaMemcpy(h, b, n * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  printf("sum after peer copy %lld\n", sum);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemset(b, 0, n * sizeof(int));
  say("cudaMemcpyPeerAsync(b, 0, a + 8, 0)", cudaMemcpyPeerAsync(b, 0, a + 8, 0, 64 * sizeof(int), s));
  say("cudaStreamSynchronize", cudaStreamSynchronize(s));
  cudaMemcpy(h, b, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("b[0] %d b[63] %d\n", h[0], h[63]);
  say("cudaMemcpyPeer(b, 1, a, 0)", cudaMemcpyPeer(b, 1, a, 0, 16));
  say("cudaMemcpyPeerAsync(b, 0, a, 3)", cudaMemcpyPeerAsync(b, 0, a, 3, 16, s));
  cudaStreamDestroy(s);
  cudaFree(a);
  cudaFree(b);
  return 0;
}
