# Sourced by the tools/runtime/*ground_truth.sh scripts, which run test programs natively
# on a real NVIDIA GPU: `ground_truth_setup OUT_DIR` makes OUT_DIR, sets $nvcc (NVCC, or the
# one on PATH, or /usr/local/cuda's) and writes OUT_DIR/gpu.txt (nvcc's build, GPU name,
# driver version, compute capability).
ground_truth_setup() {
  nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  mkdir -p "$1"
  "$nvcc" --version | tail -1 > "$1/gpu.txt"
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader >> "$1/gpu.txt"
}
