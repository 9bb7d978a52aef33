/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of what --evidence reads.  EV_FORMATS: each format a
 * file may be found to hold, with the name the reports and the JSON give
 * it; a paste may hold several.  EV_READERS: each reader, in the order
 * every file is offered to it.  A reader scans every line of a file and
 * adds the facts it knows, and marks the formats it found; READ is a
 * reader that never refuses a paste, REFUSE one that may refuse the
 * whole paste (two machines' lspci in one file), returning -1 with the
 * reason.  Adding a format is a line in each list and its read_*.c
 * (evidence/README.md).
 */
#ifndef P2PDIAG_EVIDENCE_FORMATS_H
#define P2PDIAG_EVIDENCE_FORMATS_H

#define EV_FORMATS(X) \
	X(TOPO_MATRIX,		"nvidia-smi-topo-matrix")	/* nvidia-smi topo -m */ \
	X(TOPO_P2P,		"nvidia-smi-topo-p2p")		/* nvidia-smi topo -p2p r|w|n|a */ \
	X(P2PBW,		"p2pBandwidthLatencyTest")	\
	X(NVBW_TEXT,		"nvbandwidth")			\
	X(NVBW_JSON,		"nvbandwidth-json")		/* nvbandwidth --json */ \
	X(LSPCI_TREE,		"lspci-tree")			/* lspci -tv */ \
	X(LSPCI_VERBOSE,	"lspci-verbose")		/* lspci -vvv, -vvvnn */ \
	X(LSPCI_HEX,		"lspci-hex")			/* lspci -xxxx */ \
	X(NCCL,			"nccl-log")			/* NCCL_DEBUG=INFO */ \
	X(NCCL_TESTS,		"nccl-tests")			/* nccl-tests' table */ \
	X(KERNEL_LOG,		"kernel-log")			/* dmesg, journalctl -k */ \
	X(CUDA_ERROR,		"cuda-error")			/* CUDA, PyTorch peer-access errors */ \
	X(SETPCI,		"setpci")			/* setpci reads of ACS Control */ \
	X(SMI_QUERY,		"nvidia-smi-q")			/* nvidia-smi -q, whole or grepped */ \
	X(ROCM,			"rocm-rvs")			/* ROCm Validation Suite's peer query */ \
	X(TORCH,		"torch-session")		/* a PyTorch session's printed tensors */ \
	X(COLLECT_ENV,		"collect-env")			/* collect_env, nvidia-smi -L: GPU models */ \
	X(NVLINK,		"nvidia-smi-nvlink")		/* nvidia-smi nvlink -s, -e, -c */ \
	X(SIMPLE_P2P,		"simpleP2P")			/* cuda-samples' simpleP2P (HIP's too) */ \
	X(ROCM_SMI_TOPO,	"rocm-smi-topo")		/* rocm-smi --showtopo */ \
	X(ROCM_BW,		"rocm_bandwidth_test")		\
	X(OSU,			"osu-bw")			/* OSU osu_bw, osu_bibw */

/*
 * The dump reader comes last: libpci reads the hex lines as a whole, and
 * a dump it refuses is that file's reason for not being read, never the
 * run's end.
 */
#define EV_READERS(READ, REFUSE) \
	READ(read_topo)			/* TOPO_MATRIX, TOPO_P2P */ \
	READ(read_p2pbw)		/* P2PBW */ \
	READ(read_nvbandwidth)		/* NVBW_TEXT, NVBW_JSON */ \
	REFUSE(read_lspci)		/* LSPCI_TREE, LSPCI_VERBOSE */ \
	READ(read_nccl)			/* NCCL, NCCL_TESTS */ \
	READ(read_kernel_log)		/* KERNEL_LOG */ \
	READ(read_cuda_errors)		/* CUDA_ERROR */ \
	READ(read_setpci)		/* SETPCI */ \
	READ(read_smi_query)		/* SMI_QUERY */ \
	READ(read_rocm)			/* ROCM */ \
	READ(read_torch_session)	/* TORCH */ \
	READ(read_collect_env)		/* COLLECT_ENV */ \
	READ(read_nvlink)		/* NVLINK */ \
	READ(read_simple_p2p)		/* SIMPLE_P2P */ \
	READ(read_rocm_smi_topo)	/* ROCM_SMI_TOPO */ \
	READ(read_rocm_bandwidth)	/* ROCM_BW */ \
	READ(read_osu)			/* OSU */ \
	READ(read_lspci_dump)		/* LSPCI_HEX */

#endif /* P2PDIAG_EVIDENCE_FORMATS_H */
