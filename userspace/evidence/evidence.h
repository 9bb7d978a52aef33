/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Evidence: the outputs people paste into bug reports (nvidia-smi topo,
 * p2pBandwidthLatencyTest, nvbandwidth, lspci, NCCL logs, dmesg), read
 * into one partial model of a machine that is not this one.  Each fact
 * keeps the file and line it was read from, so that every finding can
 * name what it rests on.  Readers (read_*.c) fill the model, the model
 * (evidence_model.c) holds it, and the judge (judge/evidence_findings.c)
 * turns it into findings.
 */
#ifndef P2PDIAG_EVIDENCE_H
#define P2PDIAG_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence/evidence_formats.h"
#include "p2pdiag/model.h"

struct run_inputs;

/* Bounds: a pasted file, one of its lines, the files and GPUs judged. */
#define EV_FILE_MAX	(16u << 20)
#define EV_LINE_MAX	4096
#define EV_FILES_MAX	32
#define EV_GPU_MAX	64
#define EV_DEV_MAX	512

/* Where a fact was read: the file's index in the set and its line (1-based). */
struct ev_ref {
	unsigned int file;
	unsigned int line;	/* 0: not read */
};

/* The formats, one bit each (evidence_formats.h): a paste may hold several. */
#define EV_FORMAT_INDEX(id, name) EV_FMT_INDEX_##id,
enum { EV_FORMATS(EV_FORMAT_INDEX) EV_FMT_COUNT };
#undef EV_FORMAT_INDEX

#define EV_FORMAT_BIT(id, name) EV_FMT_##id = 1u << EV_FMT_INDEX_##id,
enum ev_format { EV_FORMATS(EV_FORMAT_BIT) };
#undef EV_FORMAT_BIT

const char *ev_format_name(unsigned int bit);

/* One file as read: its name, its lines cleaned of what pasting adds. */
struct ev_file {
	char *name;		/* as given; "-" is stdin, shown as "stdin" */
	char **line;		/* line[i] is line i + 1, no CR, no fence */
	unsigned int nr_lines;
	unsigned int formats;	/* enum ev_format bits the readers found */
	bool cut;		/* a line was longer than EV_LINE_MAX */
	bool binary;		/* NUL bytes: not text */
	bool unreadable;	/* could not be read at all: why says why */
	bool utf16;		/* was UTF-16, read as UTF-8 */
	char *text;		/* the whole file, for the lspci -xxxx reader */
	size_t len;
	char why[192];		/* why it was not read, where a reader said */
};

/* A measured GPU x GPU matrix; NaN where the file has no figure. */
struct ev_matrix {
	bool have;
	unsigned int n;
	double v[EV_GPU_MAX][EV_GPU_MAX];
	struct ev_ref ref;	/* its title line */
};

/* nvbandwidth's host copies: by the copy engines or by kernels (SM). */
enum ev_copy_method { EV_COPY_CE, EV_COPY_SM, EV_COPY_METHODS };
/* Which way, in the order the judge's own figures go (judge_expect.h). */
enum ev_host_copy {
	EV_HOST_H2D, EV_HOST_D2H, EV_HOST_BIDIR_H2D, EV_HOST_BIDIR_D2H,
	EV_HOST_COPIES,
};

/*
 * One nvbandwidth host copy case: its CPU row, GB/s per GPU column in
 * CUDA's numbering (NaN where the row has no figure).
 */
struct ev_host_copies {
	bool have;
	unsigned int n;
	double gbs[EV_GPU_MAX];
	struct ev_ref ref;	/* its "Running" line, else its table's title */
};

/*
 * nvidia-smi topo -m's connection words; the NVLink count in links.
 * EV_LINK_PCIE: a PCIe path whose switches and bridges the output does
 * not show (rocm-smi's PCIE).
 */
enum ev_link {
	EV_LINK_UNKNOWN, EV_LINK_SELF, EV_LINK_PIX, EV_LINK_PXB, EV_LINK_PSB,
	EV_LINK_PHB, EV_LINK_NODE, EV_LINK_SYS, EV_LINK_NV, EV_LINK_PCIE,
};

/* nvidia-smi topo -p2p's status words. */
enum ev_p2p_status {
	EV_P2P_UNKNOWN, EV_P2P_SELF, EV_P2P_OK, EV_P2P_CNS, EV_P2P_GNS,
	EV_P2P_TNS, EV_P2P_NS, EV_P2P_DR,
};

/* A PCI function as lspci -vvv shows it. */
struct ev_pci_dev {
	unsigned int domain, bus, dev, fn;
	bool gpu, nvidia, bridge;
	bool downstream_port;			/* a switch's downstream port */
	bool anonymous;				/* link lines pasted without their header */
	unsigned int secondary, subordinate;	/* a bridge's buses */
	bool has_bus_range;
	bool acs_cap_seen, acs_ctl_seen, access_denied;
	bool req_redir, cmplt_redir, src_valid;
	unsigned int cap_speed10, cap_width, sta_speed10, sta_width;	/* GT/s x10 */
	bool speed_downgraded, width_downgraded;	/* lspci's "(downgraded)" */
	bool smi_link;				/* its link facts are nvidia-smi -q's */
	/* what the engine's model needs (evidence_lspci_model.c) */
	unsigned int vendor, device;		/* -nn's [vvvv:dddd], or 0 */
	unsigned int class_code;		/* -nn's [ccss] and prog-if, or from the name */
	bool class_known;
	bool pcie;				/* an Express capability line */
	bool no_caps;				/* "Status: Cap-": no capabilities */
	bool whole;				/* its block not cut: a header or driver line ends it */
	unsigned int pcie_type;			/* its Device/Port Type */
	bool ext_caps_seen;			/* a capability at 0x100 or above */
	unsigned int acs_cap_bits, acs_ctl_bits;
	bool ats_seen, ats_enabled;
	bool modelled;				/* judged by the engine */
	int iommu_group;			/* -1: not shown */
	int numa_node;				/* "NUMA node: N", -1: not shown */
	struct ev_ref ref, acs_ref, lnk_ref, numa_ref;
	unsigned int end_line;			/* its block: ref.line up to this line */
	char name[96];
};

/* What the kernel log says. */
struct ev_kernel {
	bool iommu_on, translated, passthrough;
	struct ev_ref iommu_ref, mode_ref;
	unsigned int nr_faults;
	struct ev_ref fault_ref;
	char fault_dev[16];		/* bb:dd.f of the first fault, or "" */
	bool fault_nvidia;		/* the nvidia driver's own line names it */
	unsigned int nr_xid;
	struct ev_ref xid_ref;
	unsigned int xid_code;		/* the first one's */
	char xid_dev[24];
	unsigned int nr_aer;
	struct ev_ref aer_ref;
	char aer_dev[24];
	bool acs_override;
	struct ev_ref acs_override_ref;
	/* a BAR the kernel found no space for (a GPU's large BAR1 missing) */
	unsigned int nr_bar_unassigned;
	struct ev_ref bar_ref;
	char bar_dev[24];
	/* the NVIDIA driver's assertions in its BAR1 P2P mailbox (kern_bus) */
	unsigned int nr_bus_assert;
	struct ev_ref bus_assert_ref;
	/* of which naming the peer mailbox itself (remoteWMBox) */
	unsigned int nr_mailbox_assert;
	struct ev_ref mailbox_assert_ref;
	/*
	 * The kernel's P2PDMA refusing a pair through the root complex ("cannot
	 * be used for peer-to-peer DMA as the client and provider ... do not
	 * share an upstream bridge or whitelisted host bridge"), or a host
	 * bridge said to be off its list
	 */
	unsigned int nr_p2pdma_refused;
	struct ev_ref p2pdma_ref;
	/*
	 * The kernel command line (dmesg's "Command line:", a pasted
	 * /proc/cmdline): whether it turns the IOMMU off, and the argument
	 * that sets the IOMMU (bootline_iommu()), "" where none does
	 */
	bool iommu_off;
	char iommu_arg[32];
	struct ev_ref cmdline_ref;
	/* the kernel's own word that the IOMMU is off ("DMAR: IOMMU disabled") */
	bool iommu_disabled;
	struct ev_ref disabled_ref;
};

/* What NCCL's log says it chose. */
struct ev_nccl {
	unsigned int nr_p2p, nr_shm, nr_net;	/* channels by transport */
	struct ev_ref p2p_ref, shm_ref, net_ref;
	int nr_nodes;				/* -1: not said */
	bool env_p2p_disable, p2p_disabled_msg;
	struct ev_ref env_ref, disabled_ref;
	/* "Could not enable P2P between dev A(=busid) and dev B(=busid)" */
	unsigned int nr_refused;
	struct ev_ref refused_ref;
	unsigned int refused_dev[2];		/* the first line's devices */
	int refused_bus[2];			/* and their buses, -1: unread */
	char p2p_level[16];			/* NCCL_P2P_LEVEL as set, or "" */
	struct ev_ref level_ref;
	double busbw_max;			/* nccl-tests, GB/s; 0: none */
	struct ev_ref busbw_ref;
	/* a failure of NCCL itself, not of a peer path ("ncclMaxSharedMem ... exceeds") */
	bool lib_error;
	struct ev_ref lib_error_ref;
	char lib_error_text[160];
	/* "P2P is disabled between NVLINK connected GPUs a and b" */
	bool nvlink_p2p_disabled;
	struct ev_ref nvlink_disabled_ref;
	/* nccl-tests' (or NCCL 1.x all_reduce_test's) table: its header, its rows */
	bool tests_header;
	struct ev_ref tests_header_ref;
	unsigned int tests_rows;
	/* nccl-tests' preamble ("# nThread"), and NCCL log lines after it */
	bool tests_preamble;
	unsigned int nr_log_after_preamble;
	struct ev_ref last_log_ref;
};

/* CUDA's and the frameworks' own words for a refused peer access. */
struct ev_cuda_errors {
	unsigned int nr_peer_unsupported;	/* cudaErrorPeerAccessUnsupported, ... */
	struct ev_ref peer_ref;
	unsigned int nr_other;			/* another CUDA_ERROR_* or cudaError* */
	struct ev_ref other_ref;
	char other[64];				/* the first one's name */
	/*
	 * "system not yet initialized" (cudaErrorSystemNotReady): CUDA waits
	 * on a system daemon, on NVSwitch machines the NVLink fabric manager
	 */
	unsigned int nr_not_ready;
	struct ev_ref not_ready_ref;
	/* a line naming an NVSwitch or its fabric manager, as running or failing */
	unsigned int nr_fabric;
	struct ev_ref fabric_ref;
};

/* nvidia-smi -q: each GPU's BAR1, memory and link, in nvidia-smi's order. */
struct ev_smi_query {
	unsigned int nr_gpus;
	long bar1_mib[EV_GPU_MAX];		/* 0: not shown */
	long fb_mib[EV_GPU_MAX];		/* 0: not shown */
	char name[EV_GPU_MAX][64];
	struct ev_ref bar1_ref[EV_GPU_MAX];
	/* its "Bus Id" */
	bool has_addr[EV_GPU_MAX];
	unsigned int domain[EV_GPU_MAX], bus[EV_GPU_MAX], dev[EV_GPU_MAX], fn[EV_GPU_MAX];
	struct ev_ref addr_ref[EV_GPU_MAX];
	/* "GPU Link Info": PCIe generation and lanes, now and at most; 0: not shown */
	unsigned int gen[EV_GPU_MAX], gen_max[EV_GPU_MAX];
	unsigned int width[EV_GPU_MAX], width_max[EV_GPU_MAX];
	struct ev_ref link_ref[EV_GPU_MAX];	/* its Current width, else generation */
};

/*
 * nvidia-smi nvlink -s, -e and -c: each GPU's links (bit n: link n), by
 * nvidia-smi's GPU number.
 */
struct ev_nvlink {
	unsigned int nr_gpus;
	unsigned int up[EV_GPU_MAX];		/* -s: a speed */
	unsigned int down[EV_GPU_MAX];		/* -s: <inactive> */
	unsigned int errors[EV_GPU_MAX];	/* -e: a replay, recovery or CRC count above 0 */
	unsigned int no_p2p[EV_GPU_MAX];	/* -c: "P2P is supported: false" */
	struct ev_ref ref[EV_GPU_MAX];		/* its first <inactive> link, else its first link */
	struct ev_ref errors_ref[EV_GPU_MAX];
	bool all_inactive;			/* NVML: ... as all links are inActive */
	struct ev_ref all_inactive_ref;
};

/*
 * cuda-samples' simpleP2P: its copy figure between the first two GPUs it
 * found with peer access, and its check of what the peer kernels wrote
 * (errors, or "Test passed" when everything read back as written).
 */
struct ev_simple_p2p {
	double gbs;				/* "cudaMemcpyPeer / cudaMemcpy": NaN if not shown */
	unsigned int gpu[2];			/* the pair it copied between */
	struct ev_ref gbs_ref;
	unsigned int nr_verify_errors;		/* "Verification error @ element" */
	struct ev_ref verify_ref;
	struct ev_ref passed_ref;		/* its last line, "Test passed" */
};

/*
 * ROCm's peer answers: RVS's gpu ids, in the order they appear; the pairs
 * ROCm found no peers, by RVS or rocm_bandwidth_test; and the CPU agents
 * rocm_bandwidth_test lists, one per NUMA node.
 */
struct ev_rocm {
	unsigned int nr_gpus;
	unsigned long gpu_id[EV_GPU_MAX];
	unsigned int nr_refused;		/* "peers:false", or an access table's 0 */
	struct ev_ref refused_ref;
	unsigned int nr_cpu_agents;		/* rocm_bandwidth_test's CPU devices */
	struct ev_ref cpu_agent_ref;		/* the first one's Device: line */
};

/*
 * OSU's osu_bw or osu_bibw: its figure at the largest message size, a
 * copy between two ranks' GPUs where both buffers were on the device.
 */
struct ev_osu {
	bool device_buffers;			/* "D D": both buffers on the GPUs */
	bool bidir;				/* osu_bibw */
	unsigned long size;			/* the largest message, bytes */
	double mbs;				/* its bandwidth, MB/s; NaN: no row */
	struct ev_ref ref;			/* its row */
};

/* A PyTorch session: tensors whose GPU-to-GPU copy printed other values. */
struct ev_torch {
	unsigned int nr_corrupt;
	struct ev_ref corrupt_ref;		/* the peer copy's printed line */
	char tensor[32];			/* its name in the session */
};

/* The whole partial model. */
struct evidence {
	struct ev_file file[EV_FILES_MAX];
	unsigned int nr_files;

	/* GPUs as p2pBandwidthLatencyTest or nvbandwidth list them */
	unsigned int nr_gpus;
	int gpu_bus[EV_GPU_MAX];		/* -1: unknown */
	char gpu_name[EV_GPU_MAX][64];
	struct ev_ref gpu_ref[EV_GPU_MAX];
	/*
	 * Where each of those GPUs sits, matched across the outputs by its
	 * PCI bus (evidence_gpus.c): its row in nvidia-smi topo -m (-1: not
	 * matched) and its NUMA node (-1: not shown), with the line that
	 * says it.
	 */
	int gpu_topo_row[EV_GPU_MAX];
	int gpu_numa[EV_GPU_MAX];
	struct ev_ref gpu_numa_ref[EV_GPU_MAX];
	/* cudaDeviceCanAccessPeer: -1 unknown, 0, 1 */
	signed char can_access[EV_GPU_MAX][EV_GPU_MAX];
	struct ev_ref can_ref[EV_GPU_MAX][EV_GPU_MAX];

	/*
	 * p2pBandwidthLatencyTest, and rocm_bandwidth_test's copies between
	 * GPUs (on) and through a CPU's memory (off: the slower leg)
	 */
	struct ev_matrix uni_off, uni_on, bidi_off, bidi_on;
	struct ev_matrix lat_off, lat_on;	/* GPU latency, us */

	/* nvbandwidth device-to-device: peer copies (CE or SM) */
	struct ev_matrix nvbw_d2d, nvbw_d2d_bidi;
	/* nvbandwidth host to device and back, each GPU alone */
	struct ev_host_copies nvbw_host[EV_COPY_METHODS][EV_HOST_COPIES];
	bool nvbw_waived;
	struct ev_ref nvbw_waived_ref;

	/* nvidia-smi topo -m and -p2p */
	unsigned int topo_gpus;
	enum ev_link topo_link[EV_GPU_MAX][EV_GPU_MAX];
	unsigned char topo_nvlinks[EV_GPU_MAX][EV_GPU_MAX];
	int topo_numa[EV_GPU_MAX];		/* -1: not shown */
	char topo_cpus[EV_GPU_MAX][64];		/* its CPU Affinity, or "" */
	struct ev_ref topo_ref[EV_GPU_MAX];
	unsigned int p2p_gpus;
	enum ev_p2p_status p2p_status[EV_GPU_MAX][EV_GPU_MAX];
	struct ev_ref p2p_ref[EV_GPU_MAX];

	/* lspci -vvv */
	struct ev_pci_dev *pci;
	unsigned int nr_pci;
	/* ACSCtl lines pasted without their devices (lspci -vvv | grep ACSCtl) */
	unsigned int nr_acs_lines, nr_acs_redirect;
	struct ev_ref acs_redirect_ref;
	bool lspci_tree;
	struct ev_ref lspci_tree_ref;

	struct ev_kernel kernel;
	struct ev_nccl nccl;
	struct ev_cuda_errors cuda;
	struct ev_smi_query smi;
	struct ev_nvlink nvlink;
	struct ev_simple_p2p simple_p2p;
	struct ev_rocm rocm;
	struct ev_torch torch;
	struct ev_osu osu;

	/* that machine's CPU (--cpuinfo), else inferred from a dump's host bridges */
	bool cpu_known;
	unsigned int cpu_flags;
	/*
	 * The model the engine judges: an lspci -xxxx dump read by libpci,
	 * or an lspci -vvv tree (evidence_lspci_model.c)
	 */
	struct p2pd_model dump;
	bool have_dump, dump_from_verbose;
	struct ev_ref dump_ref;
};

/* Model: evidence_model.c. */
void evidence_init(struct evidence *ev);
void evidence_free(struct evidence *ev);
void ev_matrix_clear(struct ev_matrix *m);
/*
 * Why file @f was not read: its reader's reason, else binary data, empty,
 * or in no format p2pdiag reads.
 */
const char *ev_file_why(const struct ev_file *f);
/* @r as file @fi, line @line, unless it names a line already: the first wins. */
void ev_note(struct ev_ref *r, unsigned int fi, unsigned int line);
/* The display name of file @i ("stdin" for "-"). */
const char *ev_file_name(const struct evidence *ev, unsigned int i);
/* "name:line" of @ref into @buf. */
const char *ev_ref_str(const struct evidence *ev, struct ev_ref ref,
		       char *buf, size_t len);
/*
 * GPU @g as another output names it: @name (to its line's end) and @bus
 * (-1: unknown) where nothing named it before, read at @ref.
 */
void ev_gpu_named(struct evidence *ev, unsigned int g, int bus, const char *name,
		  struct ev_ref ref);
/* The GPU whose PCI bus is @bus, or -1. */
int ev_gpu_by_bus(const struct evidence *ev, unsigned int bus);

/*
 * evidence_load() - read @path ("-": stdin) as the next file of @ev,
 * cleaned of what pasting adds (evidence_lines.c).  A file that cannot
 * be read (missing, too large) is kept, unreadable, with why.
 * Return: 0, or -1 with the reason in @err (too many files, no memory).
 */
int evidence_load(struct evidence *ev, const char *path, char *err, size_t errlen);

/*
 * Line helpers for the readers: @s without leading blanks; whether @s
 * starts with @prefix; the next whitespace-separated word of *@s.
 */
const char *ev_skip_blank(const char *s);
bool ev_starts(const char *s, const char *prefix);
size_t ev_word(const char **s, char *out, size_t outlen);
/* strtod() of @s that accepts only a whole number word; NaN when not. */
double ev_number(const char *s);

/*
 * ev_match_gpus() - once every file is read: the GPUs that CUDA's tools
 * number (p2pBandwidthLatencyTest, nvbandwidth, nccl-tests, NCCL) matched
 * to nvidia-smi's rows and lspci's functions by PCI bus, and each one's
 * NUMA node from them.
 */
void ev_match_gpus(struct evidence *ev);

/*
 * ev_pair_numa() - whether GPUs @a and @b (CUDA's numbers) sit on
 * different NUMA nodes as the files show it: 1 (different nodes, or topo
 * -m's SYS between them), 0 (one node), -1 (not shown); *@ref the line.
 */
int ev_pair_numa(const struct evidence *ev, unsigned int a, unsigned int b,
		 struct ev_ref *ref);

/*
 * ev_consumer_gpu() - whether the product name @name is an NVIDIA consumer
 * part (GeForce, TITAN), to which the driver offers no PCIe P2P.  The
 * workstation RTX parts (RTX 4000 Ada, Quadro RTX 8000, RTX A6000) are
 * not.
 */
bool ev_consumer_gpu(const char *name);
/* The first GPU the files name that ev_consumer_gpu() holds for, or -1. */
int ev_first_consumer_gpu(const struct evidence *ev);

/*
 * ev_lspci_model() - lspci -vvv's functions as the engine's model in
 * ev->dump, where no lspci -xxxx dump is there and they form a tree:
 * every P2P endpoint's bridges up to a root bus pasted, two endpoints or
 * more.  The functions the model holds (this one or a dump's) are then
 * marked modelled, for the engine judges them.
 * Return: true when the model was built from lspci -vvv.
 */
bool ev_lspci_model(struct evidence *ev);

/* The readers (evidence_formats.h): each scans every line of file @fi and adds what it knows. */
#define EV_DECLARE_READ(fn) void fn(struct evidence *ev, unsigned int fi);
#define EV_DECLARE_REFUSE(fn) int fn(struct evidence *ev, unsigned int fi, char *err, size_t errlen);
EV_READERS(EV_DECLARE_READ, EV_DECLARE_REFUSE)
#undef EV_DECLARE_READ
#undef EV_DECLARE_REFUSE

/*
 * ev_smi_links() - once every file is read: the PCIe links nvidia-smi -q
 * gave its GPUs, as the link facts of those GPUs' PCI functions (lspci's
 * LnkCap and LnkSta where it gave none), a function added for a GPU that
 * no lspci shows.
 */
void ev_smi_links(struct evidence *ev);

/*
 * evidence_read() - read @paths into @ev, and tell @in where its facts
 * come from (its source and ev).  A file that is not read is named, with
 * why, in ev->file; judge_evidence() (judge/judge.h) judges the rest.
 * Return: 0, or -1 with @err (no file named, too many, no memory).
 */
int evidence_read(struct run_inputs *in, struct evidence *ev,
		  char *const *paths, unsigned int nr, char *err, size_t errlen);

/* Whether no file of @ev was read: the run ends with exit status 3. */
bool evidence_none_read(const struct evidence *ev);

#endif /* P2PDIAG_EVIDENCE_H */
