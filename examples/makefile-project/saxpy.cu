// saxpy: y = a*x + y on the GPU, checked on the host. Without a usable GPU
// it says so and exits 0: the example is about building with the right
// toolchain; running needs a device.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("saxpy: built; no usable CUDA device to run on\n");
    return 0;
  }
  const int N = 1 << 20;
  float *X, *Y;
  if (cudaMallocManaged(&X, N * sizeof(float)) != cudaSuccess ||
      cudaMallocManaged(&Y, N * sizeof(float)) != cudaSuccess) {
    std::printf("saxpy: cannot allocate memory on the device\n");
    return 1;
  }
  for (int I = 0; I < N; ++I) {
    X[I] = 1.0f;
    Y[I] = 2.0f;
  }
  saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, X, Y);
  cudaError_t E = cudaDeviceSynchronize();
  if (E != cudaSuccess) {
    std::printf("saxpy: kernel failed: %s\n", cudaGetErrorString(E));
    return 1;
  }
  int Wrong = 0;
  for (int I = 0; I < N; ++I)
    Wrong += Y[I] != 4.0f;
  cudaFree(X);
  cudaFree(Y);
  std::printf("saxpy: %d of %d values wrong\n", Wrong, N);
  return Wrong == 0 ? 0 : 1;
}
