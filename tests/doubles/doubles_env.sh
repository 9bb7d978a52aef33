# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell tests that run p2pdiag-check against the GPU
# doubles outside tests/unit/gpu (the Slurm, NHC and Prometheus tests).
#
# doubles_setup ROOT TMP BIN: builds the doubles into TMP/doubles against
# the first cuda.h this machine has (NVIDIA's toolkit in /usr/local/cuda,
# or Debian's that .ci/deps unpacks), and, when BIN was built without
# CUDA support, p2pdiag-check against that cuda.h as TMP/p2pdiag-check-cuda.
# Sets doubles (the folder; its cuda/ and nvml/ go on LD_LIBRARY_PATH),
# cudabin (the binary to run with them), and doubles_why: why they cannot
# be used, "" when they can.
doubles_setup() {
	local root=$1 tmp=$2 bin=$3 home
	doubles="" cudabin=$bin doubles_why=""
	for home in /usr/local/cuda /var/cache/p2pdiag/cuda/usr; do
		[ -r "$home/include/cuda.h" ] || continue
		if ! make -s -C "$root/tests/doubles" OUT="$tmp/doubles" CUDA_HOME="$home" \
			>"$tmp/doubles.log" 2>&1; then
			doubles_why="the GPU doubles do not build: $(tail -n 3 "$tmp/doubles.log")"
			return
		fi
		doubles=$tmp/doubles
		if doubles_no_cuda "$bin" "$tmp"; then
			cudabin=$tmp/p2pdiag-check-cuda
			make -s -C "$root/userspace" PROG="$cudabin" CUDA_HOME="$home" \
				>"$tmp/cuda-build.log" 2>&1 ||
				doubles_why="p2pdiag-check does not build against $home/include/cuda.h: $(tail -n 3 "$tmp/cuda-build.log")"
		fi
		[ -n "$doubles_why" ] || ! doubles_no_cuda "$cudabin" "$tmp" ||
			doubles_why="$cudabin is built without CUDA support"
		return
	done
	doubles_why="no cuda.h (/usr/local/cuda, or Debian's from .ci/deps): no GPU doubles"
}

# doubles_no_cuda BIN EMPTY_DIR: whether BIN was built without CUDA.
doubles_no_cuda() {
	LD_LIBRARY_PATH=$2 "$1" --quick --no-color 2>&1 | grep -q '^CUDA: not-built'
}
