// SPDX-License-Identifier: GPL-2.0
/*
 * Judging pasted evidence (evidence/ reads it): findings from what the
 * files show, each with the lines it rests on and its fix, none from a
 * file that does not show it; an lspci -xxxx dump or a tree of lspci -vvv
 * is judged by the engine as --pci-dump is.
 *
 * Causes come before their symptoms: a configuration that the files show
 * (ACS redirect, a root complex that does not route P2P, IOMMU faults or
 * translation, the environment) is named first, then what the
 * measurements show (P2P slower than the host path, staged copies, an
 * asymmetric pair, a bidirectional collapse, a latency detour).  Where
 * the files show a symptom but not its cause, the fix names the commands
 * that would show it on that machine.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judgement.h"
#include "evidence/evidence.h"
#include "judge/bar1_window.h"
#include "judge/causes.h"
#include "judge/diagnosis.h"
#include "judge/evidence_health.h"
#include "findings/findings.h"
#include "findings/finding_registry.h"
#include "judge/judge.h"
#include "judge/results.h"
#include "uapi/p2pdiag/abi.h"

/* Ranks within a severity: the order the report gives them in. */
enum ev_rank {
	RANK_CONFIG,		/* what the configuration is: the causes */
	RANK_REFUSED,		/* what CUDA, NVML or NCCL refused */
	RANK_FAULT,		/* errors the kernel logged */
	RANK_MEASURED,		/* what the figures show */
	RANK_LINK,		/* links */
	RANK_UNDECIDED,
};

#define CAND_MAX 48
#define REFS_LEN 512

struct cand {
	enum finding_severity sev;
	enum ev_rank rank;
	unsigned int seq;	/* the order found, which qsort() does not keep */
	enum finding_code code;
	enum root_cause root_cause;	/* its code's, unless the rule knows more */
	char msg[1536];
	char fix[768];
	char refs[REFS_LEN];
};

struct judging {
	const struct evidence *ev;
	struct cand cand[CAND_MAX];
	unsigned int nr;
	bool config_known;	/* a cause of slow P2P is in the files */
	bool host_copies_low;	/* a host copy below what its link carries */
};

static struct cand *cand_add(struct judging *j, enum finding_severity sev,
			     enum ev_rank rank, enum finding_code code)
{
	struct cand *c;

	if (j->nr >= CAND_MAX)
		return NULL;
	c = &j->cand[j->nr++];
	memset(c, 0, sizeof(*c));
	c->sev = sev;
	c->rank = rank;
	c->code = code;
	c->root_cause = finding_kind(code)->root_cause;
	c->seq = j->nr;
	return c;
}

static void __attribute__((format(printf, 3, 4)))
put(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* Add @ref to @c's evidence once. */
static void cite(const struct judging *j, struct cand *c, struct ev_ref ref)
{
	char one[128];

	if (!ref.line)
		return;
	ev_ref_str(j->ev, ref, one, sizeof(one));
	if (strstr(c->refs, one))
		return;
	put(c->refs, sizeof(c->refs), "%s%s", c->refs[0] ? "; " : "", one);
}

static bool finite_pos(double v)
{
	return v == v && v > 0 && v < 1e9;
}

static const char *gpu_label(const struct evidence *ev, unsigned int g,
			     char *buf, size_t len)
{
	if (g < ev->nr_gpus && ev->gpu_bus[g] >= 0)
		snprintf(buf, len, "GPU%u (bus %02x)", g, (unsigned int)ev->gpu_bus[g]);
	else
		snprintf(buf, len, "GPU%u", g);
	return buf;
}

/* The commands that show why P2P is slow, for a fix without the cause. */
#define CMD_WHY_SLOW \
	"on that machine run `sudo lspci -vvv | grep -E '^[0-9a-f]|ACSCtl|LnkSta'` " \
	"(ACS redirect on a switch or root port: ReqRedir+ CmpltRedir+) and " \
	"`sudo dmesg | grep -i -e DMAR -e AMD-Vi -e 'iommu:'` (IOMMU translation, " \
	"faults); or run p2pdiag-check there, which reads both"

static unsigned int pair_count(const struct evidence *ev)
{
	unsigned int n = ev->nr_gpus;

	if (ev->uni_on.n > n)
		n = ev->uni_on.n;
	if (ev->uni_off.n > n)
		n = ev->uni_off.n;
	return n > EV_GPU_MAX ? EV_GPU_MAX : n;
}

/*
 * Whether anything in the files shows peer access granted or used: a
 * CAN Access Peer, topo -p2p OK, NCCL P2P channels, nvbandwidth peer
 * figures (it measures accessible peers only), or NVLink in topo -m.
 */
static bool peer_access_shown(const struct evidence *ev)
{
	unsigned int a, b;

	if (ev->nccl.nr_p2p || ev->nvbw_d2d.have)
		return true;
	for (a = 0; a < EV_GPU_MAX; a++)
		for (b = 0; b < EV_GPU_MAX; b++)
			if (ev->can_access[a][b] == 1 || ev->p2p_status[a][b] == EV_P2P_OK ||
			    ev->topo_link[a][b] == EV_LINK_NV)
				return true;
	return false;
}

/* Any NVLink the files show: a link up, or an NV# in topo -m. */
static bool nvlink_shown(const struct evidence *ev)
{
	unsigned int a, b;

	for (a = 0; a < EV_GPU_MAX; a++) {
		if (ev->nvlink.up[a])
			return true;
		for (b = 0; b < EV_GPU_MAX; b++)
			if (ev->topo_link[a][b] == EV_LINK_NV)
				return true;
	}
	return false;
}

/*
 * The consumer GPU a refusal of peer access is put down to, or -1.  The
 * driver offers no PCIe P2P to a GeForce or TITAN part, so a pair with
 * one at either end is refused whatever the platform: every refused
 * pair the files show (cudaDeviceCanAccessPeer's no, a topo -p2p entry
 * other than OK) must have one at an end, and where no pair is shown
 * (NCCL's and CUDA's messages name devices by a process's numbering)
 * every GPU the files name must be one.  NVLink shown anywhere is
 * another peer path those parts do have (NVLink-bridged GeForce pairs
 * are granted P2P), so then the class decides nothing.
 */
static int refused_consumer_gpu(const struct evidence *ev)
{
	unsigned int a, b, g;
	int first = -1;
	bool pairs = false;

	if (nvlink_shown(ev))
		return -1;
	for (a = 0; a < EV_GPU_MAX; a++)
		for (b = 0; b < EV_GPU_MAX; b++) {
			if (a == b || (ev->can_access[a][b] != 0 &&
				       ev->p2p_status[a][b] <= EV_P2P_OK))
				continue;
			pairs = true;
			if (ev_consumer_gpu(ev->gpu_name[a]))
				g = a;
			else if (ev_consumer_gpu(ev->gpu_name[b]))
				g = b;
			else
				return -1;
			if (first < 0)
				first = (int)g;
		}
	if (pairs)
		return first;
	for (g = 0; g < ev->nr_gpus; g++) {
		if (!ev->gpu_name[g][0])
			continue;
		if (!ev_consumer_gpu(ev->gpu_name[g]))
			return -1;
		if (first < 0)
			first = (int)g;
	}
	return first;
}

/*
 * GeForce GPUs that nothing shows doing P2P: the driver offers them no
 * PCIe P2P, so between them copies go through host memory whatever the
 * topology says.
 */
static void judge_consumer(struct judging *j)
{
	const struct evidence *ev = j->ev;
	int g = ev_first_consumer_gpu(ev);
	struct cand *c;
	unsigned int a, b;

	if (g < 0 || peer_access_shown(ev) || ev->nvbw_waived || ev->nccl.p2p_disabled_msg ||
	    ev->nccl.nr_refused || ev->cuda.nr_peer_unsupported)
		return;	/* shown working, or judged as refused already */
	for (a = 0; a < EV_GPU_MAX; a++)
		for (b = 0; b < EV_GPU_MAX; b++)
			if (ev->can_access[a][b] == 0 || ev->p2p_status[a][b] > EV_P2P_OK)
				return;	/* judged as refused already */
	/* where NCCL itself failed, the missing P2P is not what broke the run */
	/*
	 * where NCCL itself failed, or the driver's BAR1 peer mailbox
	 * asserted (a driver that does offer P2P tried it), the missing
	 * P2P is not what broke the run
	 */
	c = cand_add(j, ev->nccl.lib_error || ev->kernel.nr_bus_assert ? SEV_INFO : SEV_ERROR,
		     RANK_REFUSED, FC_P2P_NOT_SUPPORTED);
	if (!c)
		return;
	snprintf(c->msg, sizeof(c->msg),
		 "GPU%d is a %s: NVIDIA's driver offers no PCIe P2P between GeForce GPUs, and nothing in these files shows peer access granted, so copies between them go through host memory (behind one switch too: the traffic climbs to the CPU and crosses the uplink twice)",
		 g, ev->gpu_name[g]);
	snprintf(c->fix, sizeof(c->fix),
		 "use GPUs that support P2P (data-centre or workstation parts), or NVLink-bridged pairs where the cards have it; `nvidia-smi topo -p2p r` on that machine confirms (GNS)");
	c->root_cause = RC_CONSUMER_GPU;
	cite(j, c, ev->gpu_ref[g]);
	j->config_known = true;
}

/*
 * CUDA's answers that split the GPUs into groups, peer access granted
 * between any two of a group and refused between any two groups, with a
 * group of two or more: the driver keeps P2P off across a boundary of the
 * machine (between CPU sockets, where the interconnect carries no peer
 * traffic), not off a GPU that cannot do it, which is refused by all.
 * @group gets each GPU's group (its lowest member); the groups' buses,
 * where known, must not interleave, as the buses of two root complexes
 * do not.
 */
static bool refused_between_groups(const struct evidence *ev, unsigned int n,
				   unsigned int group[EV_GPU_MAX])
{
	unsigned int a, b, k, big = 0;
	bool changed = true;

	for (a = 0; a < n; a++)
		group[a] = a;
	while (changed) {
		changed = false;
		for (a = 0; a < n; a++)
			for (b = 0; b < n; b++)
				if (a != b && ev->can_access[a][b] == 1 && group[b] > group[a]) {
					group[b] = group[a];
					changed = true;
				}
	}
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			if (a == b)
				continue;
			if (ev->can_access[a][b] == 0 && group[a] == group[b])
				return false;	/* refused inside a group */
			if (ev->can_access[a][b] < 0 && group[a] == group[b])
				return false;	/* the group is not shown whole */
		}
	for (k = 0; k < n; k++) {
		unsigned int members = 0, lo = 255, hi = 0;

		for (a = 0; a < n; a++) {
			if (group[a] != k)
				continue;
			members++;
			if (ev->gpu_bus[a] >= 0) {
				lo = (unsigned int)ev->gpu_bus[a] < lo ? (unsigned int)ev->gpu_bus[a] : lo;
				hi = (unsigned int)ev->gpu_bus[a] > hi ? (unsigned int)ev->gpu_bus[a] : hi;
			}
		}
		big += members >= 2;
		for (b = 0; members && b < n; b++)
			if (group[b] != k && ev->gpu_bus[b] >= 0 &&
			    (unsigned int)ev->gpu_bus[b] > lo && (unsigned int)ev->gpu_bus[b] < hi)
				return false;	/* another group's GPU amid this one's buses */
	}
	return big > 0;
}

bool evidence_refused_between_groups(const struct evidence *ev, unsigned int *group)
{
	return refused_between_groups(ev, pair_count(ev), group);
}

struct ev_ref evidence_first_refusal(const struct evidence *ev)
{
	unsigned int n = pair_count(ev), a, b;
	struct ev_ref none = { 0, 0 };

	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++)
			if (a != b && ev->can_access[a][b] == 0)
				return ev->can_ref[a][b];
	return none;
}

/* "0+1, 2+3": the groups of refused_between_groups(), into @buf. */
static void group_words(const unsigned int group[EV_GPU_MAX], unsigned int n,
			char *buf, size_t len)
{
	unsigned int k, a;

	buf[0] = '\0';
	for (k = 0; k < n; k++) {
		bool first = true;

		for (a = 0; a < n; a++)
			if (group[a] == k) {
				put(buf, len, "%s%u", first ? (buf[0] ? ", " : "") : "+", a);
				first = false;
			}
	}
}

/*
 * Refusals only between groups (refused_between_groups()): a note where
 * nothing shows two refused GPUs on one NUMA node, for CUDA keeps pairs
 * across sockets on host copies by design; else NULL, and the refusals
 * are judged as any.
 */
static struct cand *refusals_across_sockets(struct judging *j, unsigned int n)
{
	const struct evidence *ev = j->ev;
	unsigned int group[EV_GPU_MAX], a, b, shown = 0, refused = 0;
	struct ev_ref where[4] = { { 0, 0 } };
	char groups[256];
	struct cand *c;

	if (!refused_between_groups(ev, n, group))
		return NULL;
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			struct ev_ref ref = { 0, 0 };
			int across;

			if (a == b || ev->can_access[a][b] != 0)
				continue;
			refused++;
			across = ev_pair_numa(ev, a, b, &ref);
			if (!across)
				return NULL;	/* refused on one node: not this */
			if (across > 0 && shown < 4)
				where[shown] = ref;
			shown += across > 0;
		}
	c = cand_add(j, SEV_INFO, RANK_REFUSED, FC_P2P_NOT_SUPPORTED);
	if (!c)
		return c;
	c->root_cause = RC_CROSS_SOCKET;
	group_words(group, n, groups, sizeof(groups));
	snprintf(c->msg, sizeof(c->msg),
		 "cudaDeviceCanAccessPeer grants peer access inside each group of GPUs (%s) and refuses it only between the groups (%u ordered pairs)%s: CUDA keeps pairs on different CPU sockets on copies through host memory by design, as the sockets' interconnect carries no peer traffic%s",
		 groups, refused,
		 shown == refused ? ", whose GPUs sit on different NUMA nodes" :
		 shown ? ", some of them shown on different NUMA nodes" :
		 ", the pattern of GPUs on different sockets",
		 shown == refused ? "; nothing is broken" :
		 "; these files do not place every refused pair on two NUMA nodes");
	snprintf(c->fix, sizeof(c->fix), "%s",
		 shown == refused ? "none needed; keep the pairs that exchange most data within a socket (NCCL does by its topology)" :
		 "`nvidia-smi topo -m` on that machine shows whether the groups are the sockets (SYS between them); if they are not, the refusal is the driver's: run p2pdiag-check there");
	for (a = 0; a < 4 && a < shown; a++)
		cite(j, c, where[a]);
	cite(j, c, evidence_first_refusal(ev));
	return c;
}

/*
 * The tool that answered a refusal at @r, in its own words: ROCm's (RVS,
 * rocm_bandwidth_test) or CUDA's cudaDeviceCanAccessPeer; NULL for CUDA.
 */
static const char *rocm_answer(const struct evidence *ev, struct ev_ref r)
{
	unsigned int fmt = r.line ? ev->file[r.file].formats : 0;

	if (fmt & EV_FMT_ROCM)
		return "ROCm's peer query (RVS)";
	if (fmt & EV_FMT_ROCM_BW)
		return "rocm_bandwidth_test's access table";
	return NULL;
}

/* cudaDeviceCanAccessPeer 0, and topo -p2p's refusals. */
static void judge_refusals(struct judging *j)
{
	const struct evidence *ev = j->ev;
	unsigned int n = pair_count(ev), a, b, cannot = 0, pairs = 0;
	unsigned int cns = 0, gns = 0;
	struct cand *c;
	char la[32], lb[32];

	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			if (a == b || ev->can_access[a][b] < 0)
				continue;
			pairs++;
			cannot += !ev->can_access[a][b];
		}
	for (a = 0; a < ev->p2p_gpus; a++)
		for (b = 0; b < ev->p2p_gpus; b++) {
			cns += ev->p2p_status[a][b] == EV_P2P_CNS;
			gns += ev->p2p_status[a][b] == EV_P2P_GNS ||
			       ev->p2p_status[a][b] == EV_P2P_TNS ||
			       ev->p2p_status[a][b] == EV_P2P_NS ||
			       ev->p2p_status[a][b] == EV_P2P_DR;
		}
	if (cns) {
		c = cand_add(j, SEV_ERROR, RANK_CONFIG, FC_HOST_BRIDGE_NO_P2P);
		if (c) {
			snprintf(c->msg, sizeof(c->msg),
				 "nvidia-smi topo -p2p says CNS (chipset not supported) for %u of %u GPU pairs: the driver does not do P2P through this root complex",
				 cns / 2 ? cns / 2 : 1, ev->p2p_gpus * (ev->p2p_gpus - 1) / 2);
			snprintf(c->fix, sizeof(c->fix),
				 "put the pair under one PCIe switch, or on a platform whose root complex routes peer traffic (CPU vendor's P2P support); check for a BIOS update");
			for (a = 0; a < ev->p2p_gpus; a++)
				cite(j, c, ev->p2p_ref[a]);
			j->config_known = true;
		}
	}
	if (cannot && !gns && !ev->nvbw_waived && !ev->nccl.p2p_disabled_msg &&
	    !ev->nccl.nr_refused && !ev->cuda.nr_peer_unsupported &&
	    refusals_across_sockets(j, n))
		return;
	if (cannot || gns || ev->nvbw_waived || ev->nccl.p2p_disabled_msg ||
	    ev->nccl.nr_refused || ev->cuda.nr_peer_unsupported) {
		bool consumer;
		int cons;
		struct ev_ref first = { 0, 0 };
		const char *rocm = NULL;

		c = cand_add(j, SEV_ERROR, RANK_REFUSED, FC_P2P_NOT_SUPPORTED);
		if (!c)
			return;
		if (cannot) {
			for (a = 0; a < n && !first.line; a++)
				for (b = 0; b < n; b++)
					if (a != b && ev->can_access[a][b] == 0) {
						first = ev->can_ref[a][b];
						rocm = rocm_answer(ev, first);
						put(c->msg, sizeof(c->msg),
						    "%s says no for %u of %u ordered GPU pairs (first: %s cannot access %s)",
						    rocm ? rocm : "cudaDeviceCanAccessPeer",
						    cannot, pairs, gpu_label(ev, a, la, sizeof(la)),
						    gpu_label(ev, b, lb, sizeof(lb)));
						break;
					}
			cite(j, c, first);
		}
		cons = refused_consumer_gpu(ev);
		consumer = cons >= 0;
		/* an NVIDIA source beside ROCm's answer: NVIDIA's fix stands */
		if (gns || ev->nvbw_waived || ev->nccl.p2p_disabled_msg || ev->nccl.nr_refused ||
		    ev->cuda.nr_peer_unsupported || consumer)
			rocm = NULL;
		if (gns) {
			put(c->msg, sizeof(c->msg), "%snvidia-smi topo -p2p says %u GPU pair entries are not supported (GNS, TNS, NS or DR)",
			    c->msg[0] ? "; " : "", gns);
			for (a = 0; a < ev->p2p_gpus; a++)
				cite(j, c, ev->p2p_ref[a]);
		}
		if (ev->nvbw_waived) {
			put(c->msg, sizeof(c->msg), "%snvbandwidth waived its device-to-device test (peer mapping failed)",
			    c->msg[0] ? "; " : "");
			cite(j, c, ev->nvbw_waived_ref);
		}
		if (ev->nccl.p2p_disabled_msg) {
			put(c->msg, sizeof(c->msg), "%sNCCL found P2P disabled between GPUs the topology connects",
			    c->msg[0] ? "; " : "");
			cite(j, c, ev->nccl.disabled_ref);
		}
		if (ev->nccl.nr_refused) {
			const struct ev_nccl *nc = &ev->nccl;

			put(c->msg, sizeof(c->msg), "%sNCCL could not enable P2P between dev %u",
			    c->msg[0] ? "; " : "", nc->refused_dev[0]);
			if (nc->refused_bus[0] >= 0)
				put(c->msg, sizeof(c->msg), " (bus %02x) and dev %u (bus %02x)",
				    (unsigned int)nc->refused_bus[0], nc->refused_dev[1],
				    (unsigned int)nc->refused_bus[1]);
			put(c->msg, sizeof(c->msg), " (%u line%s: CUDA refused them peer access)",
			    nc->nr_refused, nc->nr_refused == 1 ? "" : "s");
			cite(j, c, nc->refused_ref);
		}
		if (ev->cuda.nr_peer_unsupported) {
			put(c->msg, sizeof(c->msg), "%sCUDA refused to enable peer access: peer access is not supported between these two devices (%u line%s)",
			    c->msg[0] ? "; " : "", ev->cuda.nr_peer_unsupported,
			    ev->cuda.nr_peer_unsupported == 1 ? "" : "s");
			cite(j, c, ev->cuda.peer_ref);
		}
		put(c->msg, sizeof(c->msg), ": copies between those GPUs go through host memory");
		if (consumer) {
			put(c->msg, sizeof(c->msg),
			    "; GPU%d, %s, is a consumer part, to which the driver offers no PCIe P2P, and these files show no NVLink",
			    cons, ev->gpu_name[cons]);
			cite(j, c, ev->gpu_ref[cons]);
			c->root_cause = RC_CONSUMER_GPU;
		}
		snprintf(c->fix, sizeof(c->fix), "%s",
			 rocm ?
			 "on that machine run `" CMD_ROCM_TOPO_RUN "` and `" CMD_ROCM_BAR_RUN "`: ROCm makes GPUs peers only where the platform routes peer traffic between them (not across the sockets of many platforms) and a large BAR exposes each GPU's memory" :
			 consumer ?
			 "GeForce GPUs: the driver does not offer PCIe P2P between them; use GPUs that support it (or NVLink where the cards have it); on data-centre GPUs check `nvidia-smi topo -p2p r` on that machine: CNS is the chipset, GNS the GPU, TNS the topology" :
			 "on that machine run `nvidia-smi topo -p2p r` (CNS: the chipset; GNS: the GPU; TNS: the topology) and `sudo lspci -vvv | grep -E '^[0-9a-f]|ACSCtl'`; GeForce GPUs do not offer PCIe P2P");
		j->config_known = true;
	}
}

/* A bridge whose bus range holds @bus. */
static bool below(const struct ev_pci_dev *br, unsigned int bus)
{
	return br->bridge && br->has_bus_range && bus >= br->secondary &&
	       bus <= br->subordinate;
}

/* lspci -vvv: ACS redirect between GPUs, and what could not be read. */
static void judge_lspci(struct judging *j)
{
	const struct evidence *ev = j->ev;
	unsigned int i, k, g, nr_gpus = 0;
	struct cand *redir = NULL, *denied = NULL, *degraded = NULL, *slow = NULL;
	bool named;

	for (g = 0; g < ev->nr_pci; g++)
		nr_gpus += ev->pci[g].gpu && ev->pci[g].nvidia;
	for (i = 0; i < ev->nr_pci; i++) {
		const struct ev_pci_dev *br = &ev->pci[i];
		bool gpu_below = false, peer_elsewhere = false;

		if (!br->bridge || !br->has_bus_range || br->modelled)
			continue;	/* the engine judges a pasted tree */
		for (g = 0; g < ev->nr_pci; g++) {
			const struct ev_pci_dev *d = &ev->pci[g];

			if (!d->gpu || !d->nvidia)
				continue;
			if (below(br, d->bus)) {
				gpu_below = true;
				continue;
			}
			/* another GPU behind a sibling port: they meet in the switch above br */
			for (k = 0; k < ev->nr_pci; k++)
				if (k != i && ev->pci[k].bus == br->bus &&
				    below(&ev->pci[k], d->bus))
					peer_elsewhere = true;
		}
		/*
		 * A port above a GPU redirects the peer traffic of every pair
		 * with that GPU: across the switch when the peer is behind a
		 * sibling port, or into the IOMMU when the path crosses the
		 * root complex anyway, as the engine judges it.
		 */
		if (!gpu_below || nr_gpus < 2)
			continue;
		/* the engine's redirect bits, EgressCtrl with them */
		if (br->acs_ctl_bits & P2PD_ACS_REDIRECT_MASK) {
			if (!redir)
				redir = cand_add(j, SEV_WARNING, RANK_CONFIG, FC_ACS_REDIRECT);
			if (redir) {
				put(redir->msg, sizeof(redir->msg), "%s%02x:%02x.%u (%s%s%s%s%s%s)",
				    redir->msg[0] ? ", " : "ACS on the bridge ports above the GPUs redirects their peer requests upstream: ",
				    br->bus, br->dev, br->fn,
				    br->acs_ctl_bits & P2PD_ACS_RR ? "ReqRedir+" : "",
				    (br->acs_ctl_bits & P2PD_ACS_RR) &&
				    (br->acs_ctl_bits & (P2PD_ACS_CR | P2PD_ACS_EC)) ? " " : "",
				    br->acs_ctl_bits & P2PD_ACS_CR ? "CmpltRedir+" : "",
				    (br->acs_ctl_bits & P2PD_ACS_CR) && (br->acs_ctl_bits & P2PD_ACS_EC) ? " " : "",
				    br->acs_ctl_bits & P2PD_ACS_EC ? "EgressCtrl+" : "",
				    peer_elsewhere && br->downstream_port ?
				    ", a switch port: peer traffic goes up to the root complex instead of across the switch" :
				    ", into the root complex's IOMMU, which translates it where it is on");
				put(redir->fix, sizeof(redir->fix), "%s%04x:%02x:%02x.%u",
				    redir->fix[0] ? ";" : "pci=disable_acs_redir=",
				    br->domain, br->bus, br->dev, br->fn);
				cite(j, redir, br->acs_ref);
				j->config_known = true;
			}
		} else if (!br->acs_ctl_seen && br->access_denied) {
			if (!denied)
				denied = cand_add(j, SEV_INFO, RANK_UNDECIDED, FC_EVIDENCE_UNDECIDED);
			if (denied) {
				put(denied->msg, sizeof(denied->msg), "%s%02x:%02x.%u",
				    denied->msg[0] ? ", " : "ACS state of the bridge ports above the GPUs unknown (lspci ran without root: <access denied>): ",
				    br->bus, br->dev, br->fn);
				if (!denied->fix[0])
					snprintf(denied->fix, sizeof(denied->fix),
						 "run `sudo lspci -vvv -s %02x:%02x.%u | grep ACSCtl` on that machine (ReqRedir+ or CmpltRedir+ is a redirect)",
						 br->bus, br->dev, br->fn);
				cite(j, denied, br->ref);
			}
		}
	}
	named = redir != NULL;
	if (!redir && ev->nr_acs_redirect &&
	    (redir = cand_add(j, SEV_WARNING, RANK_CONFIG, FC_ACS_REDIRECT))) {
		snprintf(redir->msg, sizeof(redir->msg),
			 "%u of the %u ACSCtl lines pasted (without the ports they belong to) have ReqRedir+, CmpltRedir+ or EgressCtrl+: ports with ACS redirect send the peer traffic of the GPUs below them up to the root complex",
			 ev->nr_acs_redirect, ev->nr_acs_lines);
		snprintf(redir->fix, sizeof(redir->fix),
			 "name the ports: `sudo lspci -vvv | grep -E '^[0-9a-f]|ACSCtl'` on that machine; then pci=disable_acs_redir=PORT[;PORT...] for the switch ports above the GPUs");
		cite(j, redir, ev->acs_redirect_ref);
		j->config_known = true;
	}
	if (named)
		put(redir->fix, sizeof(redir->fix),
		    " on the kernel command line (or clear the bits at run time: setpci -s PORT ECAP_ACS+6.w=0; lost at reboot); it keeps the IOMMU groups merged: read README \"Applying fixes safely\"");
	for (i = 0; i < ev->nr_pci; i++) {
		const struct ev_pci_dev *d = &ev->pci[i];
		char cur[16], max[16];

		char who[48];

		if ((!d->anonymous && (!d->gpu || !d->nvidia)) || !d->lnk_ref.line ||
		    d->modelled)
			continue;
		if (d->anonymous)
			snprintf(who, sizeof(who), "the device of these link lines");
		else
			snprintf(who, sizeof(who), "GPU %02x:%02x.%u", d->bus, d->dev, d->fn);
		snprintf(cur, sizeof(cur), "%u.%u", d->sta_speed10 / 10, d->sta_speed10 % 10);
		snprintf(max, sizeof(max), "%u.%u", d->cap_speed10 / 10, d->cap_speed10 % 10);
		if ((d->cap_width && d->sta_width && d->sta_width < d->cap_width) ||
		    d->width_downgraded) {
			if (!degraded)
				degraded = cand_add(j, SEV_WARNING, RANK_LINK, FC_LINK_DEGRADED);
			if (!degraded)
				continue;
			if (d->cap_width)
				put(degraded->msg, sizeof(degraded->msg), "%s%s runs x%u of x%u (%s of %s GT/s): lanes are missing",
				    degraded->msg[0] ? "; " : "", who,
				    d->sta_width, d->cap_width, cur, max);
			else
				put(degraded->msg, sizeof(degraded->msg), "%s%s runs x%u, which lspci marks downgraded: lanes are missing",
				    degraded->msg[0] ? "; " : "", who, d->sta_width);
			snprintf(degraded->fix, sizeof(degraded->fix), "%s",
				 finding_default_fix(FC_LINK_DEGRADED));
			cite(j, degraded, d->lnk_ref);
		} else if ((d->cap_speed10 && d->sta_speed10 && d->sta_speed10 < d->cap_speed10) ||
			   d->speed_downgraded) {
			if (!slow)
				slow = cand_add(j, SEV_INFO, RANK_LINK, FC_LINK_SLOW_IDLE);
			if (!slow)
				continue;
			if (d->cap_speed10)
				put(slow->msg, sizeof(slow->msg), "%s%s at %s of %s GT/s x%u",
				    slow->msg[0] ? "; " : "", who, cur, max, d->sta_width);
			else
				put(slow->msg, sizeof(slow->msg), "%s%s at %s GT/s x%u, which lspci marks downgraded",
				    slow->msg[0] ? "; " : "", who, cur, d->sta_width);
			if (d->anonymous)
				snprintf(slow->fix, sizeof(slow->fix),
					 "read LnkSta again while a copy runs (`sudo lspci -vvv -s BUS:00.0 | grep LnkSta` with the GPU's bus): a GPU under load should train to its LnkCap speed");
			else
				snprintf(slow->fix, sizeof(slow->fix),
					 "read LnkSta again while a copy runs (`sudo lspci -vvv -s %02x:%02x.%u | grep LnkSta`): under load it should train to its LnkCap speed",
					 d->bus, d->dev, d->fn);
			cite(j, slow, d->lnk_ref);
		}
	}
	if (slow)
		put(slow->msg, sizeof(slow->msg), " when lspci ran: GPUs lower their link speed when idle");
}

/* Whether the first IOMMU fault is a GPU's: its driver's line, or a GPU's bus. */
static bool fault_is_gpu(const struct evidence *ev)
{
	const struct ev_kernel *k = &ev->kernel;
	unsigned int bus, dev, fn, i;

	if (k->fault_nvidia)
		return true;
	if (sscanf(k->fault_dev, "%2x:%2x.%1u", &bus, &dev, &fn) != 3)
		return false;
	if (ev_gpu_by_bus(ev, bus) >= 0)
		return true;
	for (i = 0; i < ev->nr_pci; i++)
		if (ev->pci[i].gpu && ev->pci[i].nvidia && ev->pci[i].bus == bus &&
		    ev->pci[i].dev == dev && ev->pci[i].fn == fn)
			return true;
	return false;
}

bool evidence_bar1_spans_memory(const struct ev_smi_query *q, struct ev_ref *ref)
{
	unsigned int g, seen = 0;

	for (g = 0; g < q->nr_gpus; g++) {
		if (!q->bar1_mib[g] || !q->fb_mib[g])
			continue;
		if (!bar1_spans_memory((unsigned long long)q->bar1_mib[g],
				       (unsigned long long)q->fb_mib[g]))
			return false;
		if (!seen++)
			*ref = q->bar1_ref[g];
	}
	return seen > 0;
}

/* Whether nvidia-smi -q shows a GPU's BAR1 smaller than its memory. */
static bool bar1_short(const struct ev_smi_query *q, struct ev_ref *ref)
{
	unsigned int g;

	for (g = 0; g < q->nr_gpus; g++)
		if (q->bar1_mib[g] && q->fb_mib[g] &&
		    !bar1_spans_memory((unsigned long long)q->bar1_mib[g],
				       (unsigned long long)q->fb_mib[g])) {
			*ref = q->bar1_ref[g];
			return true;
		}
	return false;
}

/*
 * The driver's assertions in its BAR1 peer-mapping code (kern_bus).  One
 * naming the peer mailbox (remoteWMBox) says the mailbox could not be
 * placed in BAR1, which a BAR1 left small or unassigned gives; so does any
 * of them beside a BAR1 shown smaller than the memory or a BAR the kernel
 * could not place.  A BAR1 shown spanning the memory rules that out, and
 * a bare kern_bus assertion decides nothing: then the root cause stays
 * open, BAR1 and the driver ranked as suspects (evidence_suspects.c).
 */
static void judge_bus_assert(struct judging *j, bool p2p_trouble)
{
	const struct ev_kernel *k = &j->ev->kernel;
	struct ev_ref bar1 = { 0 };
	bool large = evidence_bar1_spans_memory(&j->ev->smi, &bar1);
	bool small = bar1_short(&j->ev->smi, &bar1) || k->nr_bar_unassigned;
	struct cand *c;

	if (large || !(small || k->nr_mailbox_assert)) {
		c = cand_add(j, SEV_WARNING, RANK_CONFIG, FC_NVRM_PEER_ASSERT);
		if (!c)
			return;
		snprintf(c->msg, sizeof(c->msg),
			 "the NVIDIA driver asserted %u time%s in its BAR1 peer-mapping code (kern_bus)%s%s",
			 k->nr_bus_assert, k->nr_bus_assert == 1 ? "" : "s",
			 large ? ", though nvidia-smi -q shows BAR1 as large as the GPU's memory: not a BAR1 too small, a driver fault more likely" :
				 ": a BAR1 too small for peer mappings gives that, and so does a driver fault; these files do not show BAR1's size",
			 p2p_trouble ? "; P2P is in trouble here too" : "");
		snprintf(c->fix, sizeof(c->fix), "%s", finding_default_fix(FC_NVRM_PEER_ASSERT));
		cite(j, c, k->bus_assert_ref);
		cite(j, c, bar1);
		return;
	}
	c = cand_add(j, SEV_WARNING, RANK_CONFIG, FC_BAR_RESIZABLE_SMALL);
	if (!c)
		return;
	snprintf(c->msg, sizeof(c->msg),
		 "the NVIDIA driver asserted %u time%s in its BAR1 peer-mapping code (kern_bus)%s: it could not place the peer mailbox in a GPU's BAR1, as where BAR1 is left small or unassigned",
		 k->nr_bus_assert, k->nr_bus_assert == 1 ? "" : "s",
		 small ? ", beside a BAR1 shown smaller than the memory or not placed" : ", naming the peer mailbox (remoteWMBox)");
	snprintf(c->fix, sizeof(c->fix),
		 "enable Resizable BAR and Above 4G Decoding in the firmware setup so that BAR1 spans the GPU's memory; `nvidia-smi -q | grep -A3 BAR1` on that machine shows its size");
	cite(j, c, k->nr_mailbox_assert ? k->mailbox_assert_ref : k->bus_assert_ref);
	cite(j, c, bar1);
	j->config_known = true;
}

/* The kernel log: IOMMU faults and mode, Xid, AER, the ACS override. */
static void judge_kernel(struct judging *j, bool p2p_trouble)
{
	const struct evidence *ev = j->ev;
	const struct ev_kernel *k = &ev->kernel;
	struct cand *c;

	if (k->nr_faults) {
		bool gpu = fault_is_gpu(ev);

		/* a fault of a device not known to be a GPU says nothing of P2P */
		c = gpu ? cand_add(j, SEV_ERROR, RANK_FAULT, FC_IOMMU_FAULT_DURING_P2P) :
			  cand_add(j, SEV_INFO, RANK_UNDECIDED, FC_EVIDENCE_UNDECIDED);
		if (c) {
			snprintf(c->msg, sizeof(c->msg),
				 "the IOMMU logged %u DMA fault%s%s%s%s: a DMA to an address the IOMMU does not map for the device, which is what peer DMA through a translating IOMMU does",
				 k->nr_faults, k->nr_faults == 1 ? "" : "s",
				 k->fault_dev[0] ? ", the first from device " : "", k->fault_dev,
				 gpu ? " (a GPU)" : " (whether it is one of the GPUs, these files do not say)");
			if (gpu)
				snprintf(c->fix, sizeof(c->fix),
					 "put the GPUs' IOMMU in passthrough (iommu=pt, or amd_iommu=pt / intel_iommu=on iommu=pt) or disable it for the peers, and clear ACS redirect between them; then the peer traffic no longer needs the IOMMU's mapping");
			else
				snprintf(c->fix, sizeof(c->fix),
					 "run `lspci -nn -s %s` on that machine: a GPU there means peer DMA through the IOMMU (iommu=pt, or clear ACS redirect between the GPUs); another device's fault is not about P2P",
					 k->fault_dev[0] ? k->fault_dev : "BUS:DEV.FN");
			cite(j, c, k->fault_ref);
			if (gpu)
				j->config_known = true;
		}
	}
	if (k->translated) {
		c = cand_add(j, p2p_trouble ? SEV_WARNING : SEV_INFO, RANK_CONFIG, FC_IOMMU_TRANSLATED);
		if (c) {
			snprintf(c->msg, sizeof(c->msg),
				 "the kernel's default IOMMU domain is translated: peer DMA that crosses the root complex (or that ACS redirects there) is translated by the IOMMU%s",
				 p2p_trouble ? ", which slows or breaks it" : "; the files show no P2P trouble from it");
			snprintf(c->fix, sizeof(c->fix),
				 "iommu=pt on the kernel command line (identity mapping for the host's own devices) or the GPUs' groups in identity mode (echo identity > /sys/kernel/iommu_groups/N/type with the group unbound)");
			cite(j, c, k->mode_ref);
			if (p2p_trouble)
				j->config_known = true;
		}
	}
	if (k->nr_bar_unassigned &&
	    (c = cand_add(j, p2p_trouble ? SEV_ERROR : SEV_WARNING, RANK_CONFIG, FC_BAR_UNASSIGNED))) {
		snprintf(c->msg, sizeof(c->msg),
			 "the kernel found no space for %u BAR%s, the first of %s: a GPU whose large BAR1 (or the bridge window above it) is not assigned cannot map its memory for peers%s",
			 k->nr_bar_unassigned, k->nr_bar_unassigned == 1 ? "" : "s",
			 k->bar_dev[0] ? k->bar_dev : "a device",
			 p2p_trouble ? ", which is what slows or breaks P2P here" : "");
		snprintf(c->fix, sizeof(c->fix), "%s", finding_default_fix(FC_BAR_UNASSIGNED));
		cite(j, c, k->bar_ref);
		j->config_known = true;
	}
	if (k->nr_bus_assert)
		judge_bus_assert(j, p2p_trouble);
	/* the kernel's P2PDMA lists the root complexes known to route P2P */
	if (k->nr_p2pdma_refused && (c = cand_add(j, SEV_WARNING, RANK_CONFIG, FC_HOST_BRIDGE_NO_P2P))) {
		snprintf(c->msg, sizeof(c->msg),
			 "the kernel's P2PDMA refused peer DMA through the root complex: the devices share no PCIe switch and their host bridge is not on the kernel's list of root complexes known to route P2P");
		snprintf(c->fix, sizeof(c->fix), "%s", finding_default_fix(FC_HOST_BRIDGE_NO_P2P));
		cite(j, c, k->p2pdma_ref);
		j->config_known = true;
	}
	if (k->nr_xid && (c = cand_add(j, k->xid_code == 79 ? SEV_ERROR : SEV_WARNING,
				       RANK_FAULT, FC_XID))) {
		snprintf(c->msg, sizeof(c->msg), "the NVIDIA driver logged %u Xid error%s, the first Xid %u on %s%s",
			 k->nr_xid, k->nr_xid == 1 ? "" : "s", k->xid_code,
			 k->xid_dev[0] ? k->xid_dev : "a GPU",
			 k->xid_code == 79 ? ": the GPU has fallen off the bus" : "");
		snprintf(c->fix, sizeof(c->fix),
			 "look the Xid up in NVIDIA's Xid table; for 79 (fallen off the bus) check power, cooling, the slot and riser, and the link (AER lines around it)");
		cite(j, c, k->xid_ref);
	}
	if (k->nr_aer && (c = cand_add(j, SEV_WARNING, RANK_FAULT, FC_AER_DURING_RUN))) {
		snprintf(c->msg, sizeof(c->msg), "the kernel logged %u PCIe AER error report%s, the first about %s",
			 k->nr_aer, k->nr_aer == 1 ? "" : "s", k->aer_dev[0] ? k->aer_dev : "a port");
		snprintf(c->fix, sizeof(c->fix),
			 "check the link that reports: reseat the card, its riser or cable, and retimers; corrected errors that repeat slow the link with replays");
		cite(j, c, k->aer_ref);
	}
}

static void judge_nccl(struct judging *j)
{
	const struct evidence *ev = j->ev;
	const struct ev_nccl *n = &ev->nccl;
	struct cand *c;

	if (n->lib_error && (c = cand_add(j, SEV_WARNING, RANK_FAULT, FC_CUDA_FAILED))) {
		snprintf(c->msg, sizeof(c->msg),
			 "NCCL itself failed, which no peer path explains: %s", n->lib_error_text);
		snprintf(c->fix, sizeof(c->fix),
			 "update NCCL (and the driver) to a release that supports these GPUs; NCCL_DEBUG=INFO shows the failing call");
		cite(j, c, n->lib_error_ref);
	}

	/* NVLink that the driver detects but whose peer path does not work */
	if (n->nvlink_p2p_disabled && (c = cand_add(j, SEV_ERROR, RANK_CONFIG, FC_NVLINK_DOWN))) {
		snprintf(c->msg, sizeof(c->msg),
			 "NCCL found P2P disabled between GPUs that NVLink connects: the link is detected but peer access over it is not granted, as on a degraded or failed NVLink");
		snprintf(c->fix, sizeof(c->fix), "%s", finding_default_fix(FC_NVLINK_DOWN));
		cite(j, c, n->nvlink_disabled_ref);
		j->config_known = true;
	}
	if (n->env_p2p_disable && (c = cand_add(j, SEV_WARNING, RANK_CONFIG, FC_ENV_NCCL_P2P_DISABLE))) {
		snprintf(c->msg, sizeof(c->msg), "NCCL_P2P_DISABLE was set by the environment: NCCL does not use P2P between GPUs");
		snprintf(c->fix, sizeof(c->fix), "unset NCCL_P2P_DISABLE once P2P works on that machine (p2pdiag-check there says whether it does)");
		cite(j, c, n->env_ref);
		j->config_known = true;
	}
	if ((!strcmp(n->p2p_level, "LOC") || !strcmp(n->p2p_level, "0")) &&
	    (c = cand_add(j, SEV_WARNING, RANK_CONFIG, FC_ENV_NCCL_P2P_LEVEL))) {
		snprintf(c->msg, sizeof(c->msg), "NCCL_P2P_LEVEL=%s was set by the environment: NCCL uses P2P between no GPUs", n->p2p_level);
		snprintf(c->fix, sizeof(c->fix), "unset NCCL_P2P_LEVEL (NCCL then decides from the topology) once P2P works on that machine");
		cite(j, c, n->level_ref);
		j->config_known = true;
	}
	if ((n->nr_shm || (n->nr_net && n->nr_nodes == 1)) &&
	    (c = cand_add(j, SEV_WARNING, RANK_REFUSED, FC_NCCL_P2P_DISABLED))) {
		/* NET channels cross nodes unless the log says there is one */
		snprintf(c->msg, sizeof(c->msg),
			 "NCCL connected GPUs of one node through %s (%u SHM, %u NET, %u P2P channel connections)%s%s%s",
			 n->nr_shm ? "host shared memory" : "the network", n->nr_shm,
			 n->nr_nodes == 1 ? n->nr_net : 0, n->nr_p2p,
			 n->p2p_level[0] ? "; NCCL_P2P_LEVEL=" : "", n->p2p_level,
			 n->env_p2p_disable ? "; NCCL_P2P_DISABLE is set" : "");
		snprintf(c->fix, sizeof(c->fix), "%s",
			 n->env_p2p_disable || n->p2p_level[0] ?
			 "the environment decides it: unset NCCL_P2P_DISABLE / NCCL_P2P_LEVEL once P2P works there" :
			 "NCCL uses SHM where CUDA refuses peer access or the topology is beyond NCCL_P2P_LEVEL: run p2pBandwidthLatencyTest and `nvidia-smi topo -p2p r` on that machine");
		cite(j, c, n->nr_shm ? n->shm_ref : n->net_ref);
		cite(j, c, n->env_ref);
		cite(j, c, n->level_ref);
	}
}

/* The median of @m's entries off the diagonal, or NaN. */
static double off_median(const struct ev_matrix *m)
{
	static double v[EV_GPU_MAX * EV_GPU_MAX];
	unsigned int a, b, k = 0, i, l;

	for (a = 0; a < m->n; a++)
		for (b = 0; b < m->n; b++)
			if (a != b && finite_pos(m->v[a][b]))
				v[k++] = m->v[a][b];
	if (!k)
		return NAN;
	for (i = 1; i < k; i++) {
		double x = v[i];

		for (l = i; l > 0 && v[l - 1] > x; l--)
			v[l] = v[l - 1];
		v[l] = x;
	}
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

struct pair_list {
	unsigned int nr;
	char text[384];
};

static void list_pair(struct pair_list *l, unsigned int a, unsigned int b,
		      double x, double y, const char *unit)
{
	if (l->nr++ < 6)
		put(l->text, sizeof(l->text), "%s%u->%u %.1f vs %.1f%s",
		    l->text[0] ? ", " : "", a, b, x, y, unit);
}

static void list_end(struct pair_list *l)
{
	if (l->nr > 6)
		put(l->text, sizeof(l->text), ", +%u more", l->nr - 6);
}

/*
 * A P2P figure no faster than the host-staged one, nor far slower: the
 * live judge's fake-P2P margin, both ways.
 */
static bool p2p_like_staged(double p2p, double staged)
{
	return p2p <= JUDGE_FAKE_P2P_MARGIN * staged &&
	       p2p * JUDGE_FAKE_P2P_MARGIN >= staged;
}

/*
 * P2P enabled as fast as disabled, with no latency table to tell a
 * working peer path from copies staged through the host.
 */
static void alike_without_latency(struct judging *j)
{
	const struct evidence *ev = j->ev;
	unsigned int a, b, alike = 0, pairs = 0;
	struct cand *c;

	for (a = 0; a < ev->uni_on.n; a++)
		for (b = 0; b < ev->uni_on.n; b++) {
			double x = ev->uni_on.v[a][b], off = ev->uni_off.v[a][b];

			if (a == b || !finite_pos(x) || !finite_pos(off) ||
			    ev->can_access[a][b] == 0)
				continue;
			pairs++;
			alike += p2p_like_staged(x, off);
		}
	if (!alike || alike * 2 < pairs)
		return;
	c = cand_add(j, SEV_INFO, RANK_UNDECIDED, FC_EVIDENCE_UNDECIDED);
	if (!c)
		return;
	snprintf(c->msg, sizeof(c->msg),
		 "%u of %u GPU pair directions copy as fast with P2P enabled as with it disabled: either the host path is as fast as the peer path or the enabled copies are staged too; the bandwidth tables alone do not tell which",
		 alike, pairs);
	snprintf(c->fix, sizeof(c->fix),
		 "pass the whole p2pBandwidthLatencyTest output: its latency tables tell (P2P=Enabled latency near P2P=Disabled latency: staged copies); and `nvidia-smi topo -p2p r` from that machine");
	cite(j, c, ev->uni_on.ref);
	cite(j, c, ev->uni_off.ref);
}

struct ev_ref evidence_nvlink_fabric(const struct evidence *ev)
{
	struct ev_ref none = { 0 };
	unsigned int a, b;

	if (ev->cuda.nr_fabric)
		return ev->cuda.fabric_ref;
	if (ev->nccl.nvlink_p2p_disabled)
		return ev->nccl.nvlink_disabled_ref;
	for (a = 0; a < ev->topo_gpus; a++)
		for (b = 0; b < ev->topo_gpus; b++)
			if (a != b && ev->topo_link[a][b] == EV_LINK_NV)
				return ev->topo_ref[a];
	return none;
}

/*
 * CUDA refusing to start until the system is ready (cudaErrorSystemNotReady).
 * On NVSwitch machines the fabric manager that trains the NVLink fabric is
 * not running or not of the driver's version; elsewhere other system
 * daemons and driver states give it too, so without a fabric in the files
 * NVLink is a suspect, not the cause (evidence_suspects.c ranks them).
 */
static void judge_cuda_not_ready(struct judging *j)
{
	const struct ev_cuda_errors *e = &j->ev->cuda;
	struct ev_ref fabric = evidence_nvlink_fabric(j->ev);
	struct cand *c;

	if (!e->nr_not_ready)
		return;
	if (!fabric.line) {
		c = cand_add(j, SEV_WARNING, RANK_CONFIG, FC_CUDA_SYSTEM_NOT_READY);
		if (!c)
			return;
		snprintf(c->msg, sizeof(c->msg),
			 "CUDA would not start: the system is not yet initialized (cudaErrorSystemNotReady); on NVSwitch machines that is the NVLink fabric manager not running or not of the driver's version, but nothing in these files shows an NVSwitch or NVLink fabric");
		snprintf(c->fix, sizeof(c->fix), "%s", finding_default_fix(FC_CUDA_SYSTEM_NOT_READY));
		cite(j, c, e->not_ready_ref);
		return;
	}
	c = cand_add(j, SEV_ERROR, RANK_CONFIG, FC_NVLINK_DOWN);
	if (!c)
		return;
	snprintf(c->msg, sizeof(c->msg),
		 "CUDA would not start: the system is not yet initialized (cudaErrorSystemNotReady), on a machine with an NVLink fabric: its fabric manager is not running or not of the driver's version");
	snprintf(c->fix, sizeof(c->fix), "%s", finding_default_fix(FC_NVLINK_DOWN));
	cite(j, c, e->not_ready_ref);
	cite(j, c, fabric);
	j->config_known = true;
}

/*
 * nvidia-smi nvlink -s: a GPU with links <inactive> and fewer links up
 * than another GPU of the same paste.  Some links up and some inactive
 * is a link that failed to train beside its siblings: nvlink-down.  No
 * link up at all is also what a GPU never bridged shows (a workstation
 * with bridges on one pair of its cards), so that is a warning naming
 * both readings, not a fault.  Links a cut paste does not show are not
 * links down.
 */
static void judge_nvlink_links(struct judging *j)
{
	const struct ev_nvlink *nv = &j->ev->nvlink;
	unsigned int g, most = 0, best = 0;
	struct cand *partial = NULL, *none = NULL, **c;

	for (g = 0; g < nv->nr_gpus; g++)
		if ((unsigned int)__builtin_popcount(nv->up[g]) > most) {
			most = (unsigned int)__builtin_popcount(nv->up[g]);
			best = g;
		}
	for (g = 0; g < nv->nr_gpus && most; g++) {
		unsigned int up = (unsigned int)__builtin_popcount(nv->up[g]);

		if (!nv->down[g] || up >= most)
			continue;
		c = up ? &partial : &none;
		if (!*c && !(*c = up ? cand_add(j, SEV_ERROR, RANK_FAULT, FC_NVLINK_DOWN) :
					 cand_add(j, SEV_WARNING, RANK_CONFIG, FC_NVLINK_INACTIVE)))
			return;
		put((*c)->msg, sizeof((*c)->msg), "%sGPU%u has %u NVLinks up (%u <inactive>) where GPU%u has %u",
		    (*c)->msg[0] ? "; " : "", g, up, (unsigned int)__builtin_popcount(nv->down[g]),
		    best, most);
		cite(j, *c, nv->ref[g]);
	}
	if (partial) {
		put(partial->msg, sizeof(partial->msg),
		    ": links down, so peer copies over NVLink run slower or fall back to PCIe");
		snprintf(partial->fix, sizeof(partial->fix), "%s", finding_default_fix(FC_NVLINK_DOWN));
		j->config_known = true;
	}
	if (none) {
		put(none->msg, sizeof(none->msg),
		    ": a bridge missing or unseated, or GPUs never bridged; their peer copies go over PCIe");
		snprintf(none->fix, sizeof(none->fix), "%s", finding_default_fix(FC_NVLINK_INACTIVE));
	}
}

/*
 * Data a peer copy corrupted: a tensor as a PyTorch session printed it,
 * or what simpleP2P's kernels wrote through the peer mapping.
 */
static void judge_corrupt_copy(struct judging *j)
{
	const struct ev_torch *t = &j->ev->torch;
	const struct ev_simple_p2p *sp = &j->ev->simple_p2p;
	struct cand *c;

	if ((!t->nr_corrupt && !sp->nr_verify_errors) ||
	    !(c = cand_add(j, SEV_ERROR, RANK_FAULT, FC_DATA_CORRUPT)))
		return;
	if (t->nr_corrupt)
		snprintf(c->msg, sizeof(c->msg),
			 "tensor %s copied GPU to GPU printed other values than the same data where it was made or staged through the host: the peer copy corrupted it",
			 t->tensor);
	else
		snprintf(c->msg, sizeof(c->msg),
			 "simpleP2P read back other values than its kernels wrote through the peer mapping (%u Verification error lines): the peer path corrupts data",
			 sp->nr_verify_errors);
	snprintf(c->fix, sizeof(c->fix),
		 "copy through the host until the peer path is fixed; find why: " CMD_WHY_SLOW);
	cite(j, c, t->nr_corrupt ? t->corrupt_ref : sp->verify_ref);
}

/* What the bandwidth and latency tables show. */
static bool judge_measured(struct judging *j, bool emit)
{
	const struct evidence *ev = j->ev;
	const struct ev_matrix *on = ev->uni_on.have ? &ev->uni_on : &ev->nvbw_d2d;
	unsigned int n = on->n, a, b;
	struct pair_list slower = { 0 }, staged = { 0 }, asym = { 0 }, bidi = { 0 }, detour = { 0 };
	double lat_med = off_median(&ev->lat_on);
	bool trouble;
	struct cand *c;

	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			double x = on->v[a][b], y = on->v[b][a];
			double off = ev->uni_off.v[a][b];
			double lon = ev->lat_on.v[a][b], loff = ev->lat_off.v[a][b];
			bool refused = ev->can_access[a][b] == 0;
			bool is_slower = false, is_staged = false;

			if (a == b || !finite_pos(x) || refused)
				continue;
			if (ev->uni_on.have && finite_pos(off) && x < JUDGE_P2P_SLOWER_MARGIN * off) {
				list_pair(&slower, a, b, x, off, " GB/s");
				is_slower = true;
			} else if (ev->uni_on.have && finite_pos(off) && finite_pos(lon) &&
				   finite_pos(loff) && ev->can_access[a][b] == 1 &&
				   p2p_like_staged(x, off) && lon >= JUDGE_STAGED_LATENCY_MARGIN * loff &&
				   loff > JUDGE_STAGED_LATENCY_MIN_US) {
				list_pair(&staged, a, b, lon, loff, " us");
				is_staged = true;
			}
			if (a < b && finite_pos(y) &&
			    (x < JUDGE_ASYMMETRY_MARGIN * y || y < JUDGE_ASYMMETRY_MARGIN * x))
				list_pair(&asym, x < y ? a : b, x < y ? b : a,
					  x < y ? x : y, x < y ? y : x, " GB/s");
			if (a < b && ev->bidi_on.have && !is_slower && !is_staged &&
			    finite_pos(ev->bidi_on.v[a][b]) && finite_pos(y) &&
			    ev->bidi_on.v[a][b] < JUDGE_HAIRPIN_MARGIN * (x > y ? x : y))
				list_pair(&bidi, a, b, ev->bidi_on.v[a][b], x > y ? x : y, " GB/s");
			if (!is_staged && finite_pos(lon) && finite_pos(lat_med) &&
			    lon > JUDGE_LATENCY_DETOUR_MARGIN * lat_med && lon > JUDGE_LATENCY_DETOUR_MIN_US)
				list_pair(&detour, a, b, lon, lat_med, " us");
		}
	trouble = slower.nr || staged.nr || asym.nr || bidi.nr || detour.nr;
	if (emit && !trouble && !ev->lat_on.have && ev->uni_on.have && ev->uni_off.have)
		alike_without_latency(j);
	if (!emit)
		return trouble;
	list_end(&slower);
	list_end(&staged);
	list_end(&asym);
	list_end(&bidi);
	list_end(&detour);
	if (slower.nr && (c = cand_add(j, SEV_WARNING, RANK_MEASURED, FC_P2P_SLOWER_THAN_HOST))) {
		snprintf(c->msg, sizeof(c->msg),
			 "%u GPU pair direction%s copy slower with P2P enabled than with it disabled, staged through host memory (enabled vs disabled: %s): the peer path is worse than two trips through the CPU, the mark of ACS redirect through the root complex, IOMMU translation or a root complex that routes P2P poorly",
			 slower.nr, slower.nr == 1 ? "" : "s", slower.text);
		snprintf(c->fix, sizeof(c->fix), "%s",
			 j->config_known ? "the cause above; until it is fixed, NCCL_P2P_DISABLE=1 is faster on this machine" :
			 "find why: " CMD_WHY_SLOW "; until then NCCL_P2P_DISABLE=1 is faster");
		cite(j, c, ev->uni_on.ref);
		cite(j, c, ev->uni_off.ref);
	}
	if (staged.nr && (c = cand_add(j, SEV_WARNING, RANK_MEASURED, FC_P2P_HOST_STAGED))) {
		snprintf(c->msg, sizeof(c->msg),
			 "%u GPU pair direction%s with peer access granted copy like the host-staged path: the same bandwidth and a latency like two copies through host memory (enabled vs disabled latency: %s)",
			 staged.nr, staged.nr == 1 ? "" : "s", staged.text);
		snprintf(c->fix, sizeof(c->fix), "%s",
			 j->config_known ? "the cause above" : "find why: " CMD_WHY_SLOW);
		cite(j, c, ev->lat_on.ref);
		cite(j, c, ev->lat_off.ref);
		cite(j, c, ev->uni_on.ref);
	}
	if (asym.nr && (c = cand_add(j, SEV_WARNING, RANK_MEASURED, FC_PAIR_ASYMMETRIC))) {
		snprintf(c->msg, sizeof(c->msg),
			 "%u GPU pair%s copy far slower one way than the other (slow vs fast direction: %s): one direction takes another path or a link trained down on one side",
			 asym.nr, asym.nr == 1 ? "" : "s", asym.text);
		snprintf(c->fix, sizeof(c->fix),
			 "compare both GPUs' LnkSta under load (`sudo lspci -vvv -s BUS:00.0 | grep LnkSta` while copying) and the ACS bits of the ports between them");
		cite(j, c, on->ref);
	}
	if (bidi.nr && (c = cand_add(j, SEV_WARNING, RANK_MEASURED, FC_BIDIR_COLLAPSE))) {
		snprintf(c->msg, sizeof(c->msg),
			 "%u GPU pair%s gain nothing from copying both ways at once (bidirectional vs the faster single direction: %s): the peer path is shared one way, as when both directions cross the root complex",
			 bidi.nr, bidi.nr == 1 ? "" : "s", bidi.text);
		snprintf(c->fix, sizeof(c->fix), "%s",
			 j->config_known ? "the cause above" : "find why: " CMD_WHY_SLOW);
		cite(j, c, ev->bidi_on.ref);
		cite(j, c, on->ref);
	}
	if (detour.nr && (c = cand_add(j, SEV_WARNING, RANK_MEASURED, FC_P2P_LATENCY_DETOUR))) {
		snprintf(c->msg, sizeof(c->msg),
			 "%u GPU pair direction%s have a P2P latency far above the others' median (latency vs median: %s): their requests take a longer path",
			 detour.nr, detour.nr == 1 ? "" : "s", detour.text);
		snprintf(c->fix, sizeof(c->fix), "%s",
			 j->config_known ? "the cause above" : "find why: " CMD_WHY_SLOW);
		cite(j, c, ev->lat_on.ref);
	}
	return trouble;
}

/*
 * A copy between two GPUs measured by OSU's osu_bw with both buffers on
 * the devices: a GPU-to-GPU figure as nvbandwidth's is, whichever GPUs
 * the two ranks used.
 */
static bool osu_device_copy(const struct evidence *ev)
{
	return ev->osu.device_buffers && finite_pos(ev->osu.mbs);
}

/* Whether the files measured or decided P2P at all. */
static bool p2p_decided(const struct evidence *ev)
{
	unsigned int a, b, nv = 0, pairs = 0;

	if ((ev->uni_on.have && ev->uni_off.have) || ev->nvbw_d2d.have || osu_device_copy(ev) ||
	    (ev->lat_on.have && ev->lat_off.have) ||
	    ev->nccl.nr_p2p || ev->have_dump)
		return true;
	for (a = 0; a < ev->p2p_gpus; a++)
		for (b = 0; b < ev->p2p_gpus; b++)
			if (ev->p2p_status[a][b] == EV_P2P_OK)
				return true;
	for (a = 0; a < ev->topo_gpus; a++)
		for (b = 0; b < ev->topo_gpus; b++)
			if (a != b) {
				pairs++;
				nv += ev->topo_link[a][b] == EV_LINK_NV;
			}
	return pairs && nv == pairs;	/* every pair over NVLink */
}

/* Whether cudaDeviceCanAccessPeer answered for any pair. */
static bool peer_answers(const struct evidence *ev)
{
	unsigned int a, b;

	for (a = 0; a < EV_GPU_MAX; a++)
		for (b = 0; b < EV_GPU_MAX; b++)
			if (ev->can_access[a][b] >= 0)
				return true;
	return false;
}

/* The most GPUs any output in the files lists. */
static unsigned int gpus_shown(const struct evidence *ev)
{
	unsigned int n = pair_count(ev);

	if (ev->topo_gpus > n)
		n = ev->topo_gpus;
	if (ev->p2p_gpus > n)
		n = ev->p2p_gpus;
	if (ev->nvbw_d2d.n > n)
		n = ev->nvbw_d2d.n;
	return n;
}

static void judge_undecided(struct judging *j)
{
	const struct evidence *ev = j->ev;
	unsigned int i;
	struct cand *c;

	for (i = 0; i < j->nr; i++)
		if (j->cand[i].sev >= SEV_WARNING)
			return;
	if (j->host_copies_low || p2p_decided(ev))
		return;
	c = cand_add(j, SEV_INFO, RANK_UNDECIDED, FC_EVIDENCE_UNDECIDED);
	if (!c)
		return;
	if (gpus_shown(ev) == 1) {
		snprintf(c->msg, sizeof(c->msg),
			 "these files show one GPU: there is no pair of GPUs to judge P2P between");
		snprintf(c->fix, sizeof(c->fix),
			 "pass the outputs of the machine with the GPUs whose P2P is in question (nvidia-smi topo -m lists every GPU CUDA can see)");
		for (i = 0; i < ev->topo_gpus; i++)
			cite(j, c, ev->topo_ref[i]);
		for (i = 0; i < ev->p2p_gpus; i++)
			cite(j, c, ev->p2p_ref[i]);
		return;
	}
	snprintf(c->msg, sizeof(c->msg),
		 "these files do not decide whether P2P works between the GPUs%s: they hold no P2P measurement%s and no ACS state",
		 ev->topo_gpus ? " (nvidia-smi topo -m gives the path, not whether P2P over it is enabled or fast)" : "",
		 peer_answers(ev) ? " (CUDA's peer-access answers say where P2P is enabled, not that it is fast)" :
		 ", no peer-access answer");
	snprintf(c->fix, sizeof(c->fix),
		 "on that machine run `nvidia-smi topo -p2p r`, CUDA's p2pBandwidthLatencyTest and `sudo lspci -vvv`, or p2pdiag-check, and pass their output");
	for (i = 0; i < ev->topo_gpus; i++)
		cite(j, c, ev->topo_ref[i]);
}

/*
 * Health shown: peer copies measured between two GPUs or more, none of
 * them refused, slow or undecided, and no fault, Xid or AER logged.
 * Finding nothing wrong in files that measured nothing is no health.
 */
static bool health_shown(const struct judging *j)
{
	const struct evidence *ev = j->ev;
	const struct ev_kernel *k = &ev->kernel;
	bool measured = (ev->nvbw_d2d.have && ev->nvbw_d2d.n >= 2) || osu_device_copy(ev);
	unsigned int i, a, b;

	if (j->host_copies_low)
		return false;
	for (i = 0; i < j->nr; i++)
		if (j->cand[i].sev >= SEV_WARNING ||
		    j->cand[i].code == FC_EVIDENCE_UNDECIDED)
			return false;
	if (k->nr_faults || k->nr_xid || k->nr_aer)
		return false;
	for (a = 0; ev->uni_on.have && a < ev->uni_on.n; a++)
		for (b = 0; b < ev->uni_on.n; b++)
			if (a != b && finite_pos(ev->uni_on.v[a][b]) &&
			    ev->can_access[a][b] != 0)
				measured = true;
	return measured;
}

static int cand_order(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->sev != b->sev)
		return a->sev > b->sev ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void judge_evidence_facts(struct check_run *r, const struct evidence *ev)
{
	struct judging *j = calloc(1, sizeof(*j));
	unsigned int i;
	bool trouble, links_short;

	if (!j) {
		r->judged.findings.oom = true;
		return;
	}
	j->ev = ev;
	judge_refusals(j);
	judge_consumer(j);
	judge_lspci(j);
	judge_nccl(j);
	judge_cuda_not_ready(j);
	judge_nvlink_links(j);
	judge_corrupt_copy(j);
	trouble = judge_measured(j, false) || ev->kernel.nr_faults;
	judge_kernel(j, trouble || j->config_known);
	judge_measured(j, true);
	j->host_copies_low = judge_evidence_host_copies(r, ev) > 0;
	judge_undecided(j);
	evidence_suspects(ev, &r->judged.diagnosis, judge_measured(j, false));
	links_short = evidence_links_suspects(r, ev, &r->judged.diagnosis);
	r->judged.diagnosis.health_shown = health_shown(j) && !links_short;
	qsort(j->cand, j->nr, sizeof(j->cand[0]), cand_order);
	for (i = 0; i < j->nr; i++) {
		const struct cand *c = &j->cand[i];

		if (findings_add(&r->judged.findings, c->sev, c->code, FINDING_NO_ADDR,
				 FINDING_NO_ADDR, c->fix, "%s", c->msg))
			continue;
		findings_set_root_cause(&r->judged.findings, c->root_cause);
		if (c->refs[0])
			findings_set_evidence(&r->judged.findings, c->refs);
	}
	free(j);
}

/* The findings in the order of their causes, each cause's worst first. */
static void order_by_cause(struct check_run *r)
{
	struct findings *f = &r->judged.findings;
	struct causes c = { 0 };
	struct finding *sorted;
	size_t i, k, n = 0;

	if (f->nr < 2 || causes_build(r, &c) || c.nr == 0) {
		causes_free(&c);
		return;
	}
	sorted = malloc(f->nr * sizeof(*sorted));
	if (!sorted) {
		causes_free(&c);
		return;
	}
	for (i = 0; i < c.nr; i++)
		for (k = 0; k < c.cause[i].nr; k++)
			sorted[n++] = f->item[c.cause[i].item[k]];
	if (n == f->nr) {
		memcpy(f->item, sorted, n * sizeof(*sorted));
	}
	free(sorted);
	causes_free(&c);
}

int judge_evidence(struct check_run *r, struct evidence *ev, char *err, size_t errlen)
{
	if (evidence_none_read(ev)) {
		/* the report still says which files and why: exit 3 (main.c) */
		findings_add(&r->judged.findings, SEV_INFO, FC_EVIDENCE_UNDECIDED, FINDING_NO_ADDR,
			     FINDING_NO_ADDR,
			     "pass the outputs named under --evidence in --help, as printed (nvidia-smi topo -m or -p2p r, p2pBandwidthLatencyTest, nvbandwidth, lspci -vvv, NCCL_DEBUG=INFO, nccl-tests, dmesg)",
			     "none of the %u file%s could be read as an output p2pdiag knows: nothing was judged",
			     ev->nr_files, ev->nr_files == 1 ? "" : "s");
		return 0;
	}
	if (ev->have_dump) {
		if (judge_pairs(r, err, errlen))
			return -1;
		judge_topology(r);
	}
	judge_evidence_facts(r, ev);
	order_by_cause(r);
	return 0;
}
