/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CUDA's word on peer atomics between two GPUs, joined to what the PCIe
 * path's registers say (system/atomics.c): P2P attributes 3
 * (NATIVE_ATOMIC_SUPPORTED) and 5 (ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED,
 * CUDA 13), and cuDeviceGetP2PAtomicCapabilities (CUDA 13.0), which names
 * the operations the link carries natively.
 */
#ifndef P2PDIAG_JUDGE_CUDA_ATOMICS_H
#define P2PDIAG_JUDGE_CUDA_ATOMICS_H

#include <stdbool.h>
#include <stddef.h>

struct gpu_state;

/* Attributes 3 and 5; UNKNOWN where CUDA did not read the pair or grants it no peer access. */
enum cuda_atomics { CUDA_ATOMICS_UNKNOWN, CUDA_ATOMICS_ALL, CUDA_ATOMICS_PARTIAL,
		    CUDA_ATOMICS_NONE };

/* Whether the path carries PCIe AtomicOps to a device: routed to it and completed by it. */
enum path_atomics { PATH_ATOMICS_UNREAD, PATH_ATOMICS_CARRIED, PATH_ATOMICS_STOPPED };

struct cuda_atomics_word {
	enum cuda_atomics said;		/* a -> b */
	/* the capabilities call failed for a direction: its operations unknown */
	bool caps_unknown;
	char text[1024];		/* "; CUDA says ...", or "" */
};

/*
 * cuda_atomics_join() - what CUDA says of peer atomics between the GPUs
 * at @a and @b, beside the path's word for each direction (@to_b: toward
 * @b's memory), into @w.
 */
void cuda_atomics_join(const struct gpu_state *st, unsigned long long a,
		       unsigned long long b, enum path_atomics to_b,
		       enum path_atomics to_a, struct cuda_atomics_word *w);

#endif /* P2PDIAG_JUDGE_CUDA_ATOMICS_H */
