// SPDX-License-Identifier: GPL-2.0
/*
 * A competing load for the measurement-validity bench: copies 1 GiB
 * buffers host to device and device to host at once, on two streams, in a
 * loop, for the given number of seconds (default 60), then exits.  It is
 * what another tenant's data loader does to a GPU that p2pdiag-check is
 * asked to measure.
 *
 *   nvcc -O2 -o busy_copier tests/bench/busy_copier.cu
 *   ./busy_copier [SECONDS] [MiB]
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                        \
	do {                                                               \
		cudaError_t e_ = (call);                                   \
		if (e_ != cudaSuccess) {                                   \
			fprintf(stderr, "busy_copier: %s: %s\n", #call,    \
				cudaGetErrorString(e_));                   \
			return 1;                                          \
		}                                                          \
	} while (0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 60;
	size_t bytes = (argc > 2 ? strtoull(argv[2], NULL, 0) : 1024) << 20;
	void *h1, *h2, *d1, *d2;
	cudaStream_t s1, s2;
	double start, end;
	unsigned long rounds = 0;

	CHECK(cudaMallocHost(&h1, bytes));
	CHECK(cudaMallocHost(&h2, bytes));
	CHECK(cudaMalloc(&d1, bytes));
	CHECK(cudaMalloc(&d2, bytes));
	CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	printf("busy_copier: copying %zu MiB both ways for %.0f s\n", bytes >> 20,
	       seconds);
	fflush(stdout);
	start = now();
	end = start + seconds;
	while (now() < end) {
		CHECK(cudaMemcpyAsync(d1, h1, bytes, cudaMemcpyHostToDevice, s1));
		CHECK(cudaMemcpyAsync(h2, d2, bytes, cudaMemcpyDeviceToHost, s2));
		CHECK(cudaStreamSynchronize(s1));
		CHECK(cudaStreamSynchronize(s2));
		rounds++;
	}
	printf("busy_copier: %lu rounds, %.1f GB/s each way\n", rounds,
	       rounds * (double)bytes / (now() - start) / 1e9);
	return 0;
}
