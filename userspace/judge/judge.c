// SPDX-License-Identifier: GPL-2.0
/*
 * From facts to findings.  Each finding names the pair or device, the
 * ports, the numbers behind it, and what to change.  The topology half
 * works on the engine's pairs alone (also for a saved topology); the GPU
 * half adds what CUDA, NVML and the copies said.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/judge_expect.h"
#include "judge/judge_settings.h"
#include "judge/judge_validity.h"
#include "judge/results.h"
#include "topology/pciaddr.h"
#include "p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"

#define FIX_LEN		JUDGE_TEXT_MAX
#define TEXT_LEN	4096

/* A PCI address as text; a small ring so one printf can take several. */
static const char *addr_str(unsigned int addr)
{
	static char ring[8][P2PD_ADDR_STRLEN];
	static unsigned int next;
	return pciaddr_format(ring[next++ % 8], addr);
}

static void speed_str(char *buf, size_t len, unsigned int tenths)
{
	snprintf(buf, len, "%u.%u", tenths / 10, tenths % 10);
}

/* "GPU", "NIC", ... from the class code, for the findings' sentences. */
static const char *kind_of(const struct p2pd_function *f)
{
	return p2pd_kind_name(p2pd_device_kind(f->class_code));
}

double judge_pcie_gbs(unsigned int speed_tenths, unsigned int width)
{
	double gts = speed_tenths / 10.0, enc;
	unsigned int num, den;

	if (!speed_tenths || !width)
		return 0;
	p2pd_link_encoding(speed_tenths, &num, &den);
	enc = (double)num / den;
	return gts * width * enc / 8.0 * JUDGE_PCIE_EFFICIENCY;
}

/*
 * What the link above function @idx can carry: both ends' capabilities
 * (the current figures where neither end says); 0 for a function whose
 * link leads down.
 */
static double link_max_gbs(const struct p2pd_model *m, int idx)
{
	struct p2pd_link l;

	if (!p2pd_link_above(m, idx, &l))
		return 0;
	return judge_pcie_gbs(l.max_speed ? l.max_speed : l.speed,
			      l.max_width ? l.max_width : l.width);
}

static void take_min(double *best, double v)
{
	if (v > 0 && (*best == 0 || v < *best))
		*best = v;
}

double judge_expected_host_gbs(const struct check_run *r, unsigned int g)
{
	const struct p2pd_model *m = r->model;
	int idx = run_gpu_function(r, g), steps = 0;
	double best = 0;

	while (idx != P2PD_NO_INDEX && steps++ < P2PD_MAX_DEPTH) {
		const struct p2pd_function *f = &m->fn[idx];

		take_min(&best, link_max_gbs(m, idx));
		if (!f->has_parent)
			break;
		idx = p2pd_model_find(m, f->parent);
	}
	return best;
}

double judge_expected_pair_gbs(const struct check_run *r,
			       const struct gpu_pair *gp)
{
	const struct p2pd_pair *p;
	int fa, fb, pi;
	unsigned int i;
	double best = 0;

	if (gp->nvlinks)
		return r->gpu ? judge_nvlink_gbs(r->gpu, gp, NULL, 0) :
				gp->nvlinks * JUDGE_NVLINK_FALLBACK_GBS *
					JUDGE_NVLINK_EFFICIENCY;
	if (!r->model)
		return 0;
	fa = run_gpu_function(r, (unsigned int)gp->src);
	fb = run_gpu_function(r, (unsigned int)gp->dst);
	pi = run_pair_index(r, fa, fb);
	if (pi < 0)
		return 0;
	p = &r->pair[pi];
	take_min(&best, link_max_gbs(r->model, p->a));
	take_min(&best, link_max_gbs(r->model, p->b));
	for (i = 0; i < p->path_len; i++) {
		int idx = p->path[i];

		/* the link above the common bridge is not on the way */
		if (idx != p->common)
			take_min(&best, link_max_gbs(r->model, idx));
	}
	return best;
}

/* A bounded string builder over a caller's buffer. */
struct text {
	char *p;
	size_t len, used;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used >= t->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->p + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n;
	if (t->used >= t->len)
		t->used = t->len - 1;
}

static void format_into(char *buf, size_t len,
			void (*fn)(struct p2pd_buf *, const struct p2pd_model *,
				   const struct p2pd_pair *),
			const struct p2pd_model *m, const struct p2pd_pair *p)
{
	struct p2pd_buf b;

	p2pd_buf_init(&b, buf, len);
	fn(&b, m, p);
	p2pd_buf_terminate(&b);
}

void judge_pair_fix(const struct check_run *r, const struct p2pd_pair *p,
		    char *buf, size_t len)
{
	const struct p2pd_model *m = r->model;
	char param[JUDGE_TEXT_MAX / 4], alt[JUDGE_TEXT_MAX / 4];
	struct text t = { buf, len, 0 };
	unsigned int i;

	buf[0] = '\0';
	if (!p->nr_blockers && !p->host_blocks)
		return;
	format_into(param, sizeof(param), p2pd_format_fix, m, p);
	if (!strcmp(param, P2PD_WORD_NONE)) {
		add(&t, "no ACS setting helps this pair: its path crosses a host bridge that does not route P2P. "
			"Put both devices under one PCIe switch, or use a platform whose root complex routes P2P "
			"(the kernel trusts AMD Zen and the Intel root complexes on its P2PDMA list).");
		return;
	}
	format_into(alt, sizeof(alt), p2pd_format_config_acs, m, p);
	add(&t, "kernel command line: %s (same effect: %s)", param, alt);
	add(&t, "; until reboot, before the GPU driver loads (this changes isolation and IOMMU groups, and is lost at reboot):");
	for (i = 0; i < p->nr_blockers; i++) {
		char line[96];
		struct p2pd_buf b;

		p2pd_buf_init(&b, line, sizeof(line));
		p2pd_format_setpci(&b, &m->fn[p->blocker[i]]);
		p2pd_buf_terminate(&b);
		add(&t, " %s%s", line, i + 1 < p->nr_blockers ? ";" : "");
	}
	add(&t, "; or in firmware: disable \"ACS\" / \"PCIe ACS Control\" / \"ACS Enable\" (on PCIe switches: the ACS setting of the switch firmware)");
	if (p->host_blocks)
		add(&t, ". The host bridge does not route P2P either: clearing ACS helps only for the part under the common switch");
}

static void describe_blockers(const struct p2pd_model *m,
			      const struct p2pd_pair *p, struct text *t)
{
	unsigned int i;

	for (i = 0; i < p->nr_blockers; i++) {
		const struct p2pd_function *f = &m->fn[p->blocker[i]];
		char bits[32];
		struct p2pd_buf b;

		p2pd_buf_init(&b, bits, sizeof(bits));
		p2pd_put_acs_short(&b, f->acs_ctrl & P2PD_ACS_REDIRECT_MASK);
		p2pd_buf_terminate(&b);
		add(t, "%s%s %s (ACSCtl 0x%04x: %s)", i ? ", " : "",
		    p2pd_role_name(f->role), addr_str(f->addr), f->acs_ctrl,
		    bits);
	}
}

static void describe_host(const struct p2pd_model *m, const struct p2pd_pair *p,
			  struct text *t)
{
	int hosts[2] = { p->host_fn, p->host_fn_b };
	unsigned int k;

	for (k = 0; k < 2; k++) {
		const struct p2pd_function *h;

		if (k == 1 && m->fn[p->a].host_bridge == m->fn[p->b].host_bridge)
			break;
		if (hosts[k] == P2PD_NO_INDEX) {
			unsigned int hb = k ? m->fn[p->b].host_bridge :
					      m->fn[p->a].host_bridge;

			add(t, "%shost bridge %04x:%02x (no function identifies it)",
			    k ? " and " : "", hb >> 8, hb & 0xff);
			continue;
		}
		h = &m->fn[hosts[k]];
		add(t, "%shost bridge %s [%04x:%04x]", k ? " and " : "",
		    addr_str(h->addr), h->vendor, h->device);
	}
}

static void pair_names(const struct p2pd_model *m, const struct p2pd_pair *p,
		       struct text *t)
{
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];

	add(t, "%s %s and %s %s (%s", kind_of(fa), addr_str(fa->addr),
	    kind_of(fb), addr_str(fb->addr), p2pd_class_name(p->cls));
	if (p->common_kind == P2PD_COMMON_BRIDGE)
		add(t, ", common bridge %s)", addr_str(m->fn[p->common].addr));
	else if (p->common_kind == P2PD_COMMON_HOST)
		add(t, ", meet in the root complex)");
	else
		add(t, ", on different host bridges)");
}

/*
 * A virtio function (vendor 0x1af4) is paravirtual: the hypervisor moves
 * its data, no peer ever DMAs into it, so its pairs' verdicts cannot break
 * anything.  Without this, every VM with a virtio NIC reports P2P broken.
 */
#define VENDOR_VIRTIO 0x1af4

static int paravirtual_pair(const struct p2pd_model *m, const struct p2pd_pair *p)
{
	return m->fn[p->a].vendor == VENDOR_VIRTIO ||
	       m->fn[p->b].vendor == VENDOR_VIRTIO;
}

/* Pair @pi's fix as judge_pairs() wrote it into the results; "" for none. */
static const char *pair_fix_of(const struct check_run *r, int pi)
{
	const char *fix = r->results ? r->results->pair[pi].fix : NULL;

	return fix ? fix : "";
}

static void judge_pair_topology(struct check_run *r, unsigned int pi)
{
	const struct p2pd_model *m = r->model;
	const struct p2pd_pair *p = &r->pair[pi];
	unsigned int fa = m->fn[p->a].addr, fb = m->fn[p->b].addr;
	char msg[TEXT_LEN];
	struct text t = { msg, sizeof(msg), 0 };

	pair_names(m, p, &t);
	if (paravirtual_pair(m, p)) {
		if (p->verdict != P2PD_VERDICT_OK)
			findings_add(&r->findings, SEV_INFO, "paravirtual-pair", fa, fb,
				     NULL, "%s: verdict %s, which does not matter: a virtio device is paravirtual and has no peer-to-peer data path",
				     msg, p2pd_verdict_name(p->verdict));
		return;
	}
	switch (p->verdict) {
	case P2PD_VERDICT_REDIRECTED:
	case P2PD_VERDICT_BLOCKED:
		if (p->nr_blockers) {
			add(&t, ": ACS on ");
			describe_blockers(m, p, &t);
			add(&t, p->common_kind == P2PD_COMMON_BRIDGE ?
			    " sends their peer traffic up to the root complex instead of across the common bridge" :
			    " redirects their peer requests to the root complex's IOMMU (the path crosses the root complex anyway)");
			if (p->host_blocks) {
				add(&t, ", and ");
				describe_host(m, p, &t);
				add(&t, " does not route P2P (not on the kernel's P2PDMA list, CPU not AMD Zen): expect failures, hangs or corrupt data");
			} else if (p->common_kind == P2PD_COMMON_BRIDGE) {
				add(&t, ", which routes it: it works, slower, and through the IOMMU where that translates");
			} else {
				add(&t, ", which routes it: it works, translated by the IOMMU where that is on");
			}
		} else {
			add(&t, ": the path crosses ");
			describe_host(m, p, &t);
			add(&t, ", which does not route P2P (not on the kernel's P2PDMA list, CPU not AMD Zen): expect failures, hangs or corrupt data");
		}
		findings_add(&r->findings,
			     p->verdict == P2PD_VERDICT_BLOCKED ? SEV_ERROR : SEV_WARNING,
			     /* named for what the fix changes */
			     p->nr_blockers && (p->common_kind == P2PD_COMMON_BRIDGE ||
						!p->host_blocks) ?
			     "acs-redirect" : "host-bridge-no-p2p",
			     fa, fb, pair_fix_of(r, (int)pi), "%s", msg);
		break;
	case P2PD_VERDICT_UNKNOWN:
		add(&t, ": verdict unknown:%s%s%s%s",
		    p->missing & P2PD_MISSING_ACS ? " a port's ACS control could not be read;" : "",
		    p->missing & P2PD_MISSING_PARENT ? " an upstream bridge is missing from the snapshot;" : "",
		    p->missing & P2PD_MISSING_HOST ? " no function identifies the root bus;" : "",
		    p->missing & P2PD_MISSING_DEPTH ? " the hierarchy is deeper than the engine follows;" : "");
		findings_add(&r->findings, SEV_WARNING, "verdict-unknown", fa, fb,
			     "read config space as root (lspci -vvv should show ACSCtl on every port), or load the p2pdiag module",
			     "%s", msg);
		break;
	default:
		break;
	}

	if ((p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B)) &&
	    p->verdict != P2PD_VERDICT_OK && p->verdict != P2PD_VERDICT_UNKNOWN) {
		t.used = 0;
		msg[0] = '\0';
		pair_names(m, p, &t);
		add(&t, ": %s%s%s in a translated IOMMU domain, and their traffic goes through the root complex: it is translated there, which works only where the driver maps the peer's memory in the IOMMU (a known source of IO_PAGE_FAULTs, hangs and zeroed data)",
		    p->notes & P2PD_NOTE_IOMMU_A ? addr_str(fa) : "",
		    (p->notes & P2PD_NOTE_IOMMU_A) && (p->notes & P2PD_NOTE_IOMMU_B) ? " and " : "",
		    p->notes & P2PD_NOTE_IOMMU_B ? addr_str(fb) : "");
		findings_add(&r->findings,
			     p->verdict == P2PD_VERDICT_HOST ? SEV_INFO : SEV_WARNING,
			     "iommu-translated", fa, fb,
			     "if the copies below fail or hang: keep the IOMMU (iommu=pt does not clear ACS redirect) and remove the redirect, or put the devices' groups in identity mode",
			     "%s", msg);
	}
	if ((p->notes & P2PD_NOTE_DIRECT_TRANS) &&
	    (p->notes & (P2PD_NOTE_ATS_A | P2PD_NOTE_ATS_B))) {
		t.used = 0;
		msg[0] = '\0';
		pair_names(m, p, &t);
		add(&t, ": ATS is enabled and every redirecting port has DirectTrans+: requests the device has translated may go straight across; untranslated ones still go up");
		findings_add(&r->findings, SEV_INFO, "ats-direct-translated",
			     fa, fb, NULL, "%s", msg);
	}
}

static void judge_links(struct check_run *r)
{
	const struct p2pd_model *m = r->model;
	unsigned char *relevant = calloc(m->nr_fn ? m->nr_fn : 1, 1);
	unsigned int i;

	if (!relevant) {
		r->findings.oom = true;
		return;
	}
	/* every link between a P2P endpoint and its root port */
	for (i = 0; i < m->nr_fn; i++) {
		int idx = (int)i, steps = 0;

		if (!m->fn[i].p2p_endpoint || !run_fn_selected(r, (int)i))
			continue;
		while (idx != P2PD_NO_INDEX && steps++ < P2PD_MAX_DEPTH &&
		       m->fn[idx].has_parent) {
			relevant[idx] = 1;
			idx = p2pd_model_find(m, m->fn[idx].parent);
		}
	}
	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i], *up;
		unsigned int max_speed, max_width;
		struct p2pd_link l;
		char cur[16], max[16];
		int u;

		if (!relevant[i] || !p2pd_link_above(m, (int)i, &l) ||
		    !l.speed || !l.width)
			continue;
		u = p2pd_model_find(m, f->parent);
		if (u == P2PD_NO_INDEX)
			continue;
		up = &m->fn[u];
		max_speed = l.max_speed;
		max_width = l.max_width;
		speed_str(cur, sizeof(cur), f->link.speed);
		speed_str(max, sizeof(max), max_speed);
		if (max_width && f->link.width < max_width) {
			findings_add(&r->findings, SEV_WARNING, "link-degraded",
				     f->addr, FINDING_NO_ADDR,
				     "reseat the card; check the slot, riser or cable and the BIOS bifurcation setting",
				     "link %s - %s %s runs x%u of x%u (%s of %s GT/s): lanes are missing",
				     addr_str(up->addr), kind_of(f), addr_str(f->addr),
				     f->link.width, max_width, cur, max);
		} else if (max_speed && f->link.speed < max_speed) {
			/* GPUs lower their link speed when idle */
			if (p2pd_device_kind(f->class_code) == P2PD_KIND_GPU)
				findings_add(&r->findings, SEV_INFO, "link-slow-idle",
					     f->addr, FINDING_NO_ADDR, NULL,
					     "link %s - GPU %s runs at %s of %s GT/s x%u at idle: GPUs lower their link speed when idle; the copies read it again under load",
					     addr_str(up->addr), addr_str(f->addr), cur,
					     max, f->link.width);
			else
				findings_add(&r->findings, SEV_WARNING, "link-degraded",
					     f->addr, FINDING_NO_ADDR,
					     "check the slot, riser, retimers and the BIOS PCIe speed setting",
					     "link %s - %s %s runs at %s of %s GT/s (x%u)",
					     addr_str(up->addr), kind_of(f), addr_str(f->addr),
					     cur, max, f->link.width);
		}
	}
	free(relevant);
}

void judge_topology(struct check_run *r)
{
	unsigned int i;

	if (!r->model)
		return;
	for (i = 0; i < r->nr_pairs; i++)
		judge_pair_topology(r, i);
	judge_links(r);
}

/* ---- GPU side ---- */

static const char *verify_words(enum gpu_verify v)
{
	switch (v) {
	case VERIFY_ZEROS:
		return "zeros arrived: the writes were dropped";
	case VERIFY_ONES:
		return "all ones arrived: the requests ended as unsupported requests";
	case VERIFY_STALE:
		return "an older pattern arrived: stale data";
	case VERIFY_PARTIAL:
		return "part of the data is wrong";
	default:
		return "";
	}
}

static int verify_failed(const struct gpu_figure *f)
{
	return f->verify != VERIFY_NOT_RUN && f->verify != VERIFY_OK;
}

static void status_finding(struct check_run *r, const char *lib,
			   enum gpu_status s)
{
	const char *err = r->gpu->error[0] ? r->gpu->error : "no detail";
	char code[FINDING_CODE_LEN];

	switch (s) {
	case GPU_OK:
	case GPU_SKIPPED:
	case GPU_BUSY:		/* reported as gpu-busy, naming the work */
	case GPU_TIMEOUT:	/* reported with the copy that hung */
		return;
	case GPU_NOT_BUILT:
		if (!strcmp(lib, "cuda"))
			findings_add(&r->findings, SEV_INFO, "cuda-not-built",
				     FINDING_NO_ADDR, FINDING_NO_ADDR,
				     "install the CUDA Toolkit (cuda.h) and rebuild for CUDA and NVML checks",
				     "built without CUDA support: topology only");
		return;
	case GPU_NO_LIBRARY:
		snprintf(code, sizeof(code), "%s-absent", lib);
		findings_add(&r->findings, SEV_INFO, code, FINDING_NO_ADDR,
			     FINDING_NO_ADDR, NULL,
			     "%s not found (no NVIDIA driver here): %s checks skipped",
			     !strcmp(lib, "cuda") ? "libcuda.so.1" : "libnvidia-ml.so.1",
			     !strcmp(lib, "cuda") ? "CUDA" : "NVML");
		return;
	case GPU_NO_SYMBOL:
		snprintf(code, sizeof(code), "%s-symbol-missing", lib);
		findings_add(&r->findings, SEV_WARNING, code, FINDING_NO_ADDR,
			     FINDING_NO_ADDR,
			     "update the NVIDIA driver: it is older than this tool expects",
			     "%s lacks an entry point: %s", lib, err);
		return;
	case GPU_INIT_FAILED:
		snprintf(code, sizeof(code), "%s-init-failed", lib);
		findings_add(&r->findings, SEV_WARNING, code, FINDING_NO_ADDR,
			     FINDING_NO_ADDR,
			     "check dmesg for NVRM/Xid messages and that the driver version matches the kernel module (nvidia-smi)",
			     "%s failed to initialise: %s", lib, err);
		return;
	case GPU_NO_DEVICE:
		if (!strcmp(lib, "cuda"))
			findings_add(&r->findings, SEV_INFO, "no-gpu",
				     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
				     "CUDA sees no GPU: measurements skipped");
		return;
	case GPU_FAILED:
		snprintf(code, sizeof(code), "%s-failed", lib);
		findings_add(&r->findings, SEV_WARNING, code, FINDING_NO_ADDR,
			     FINDING_NO_ADDR, NULL, "%s call failed: %s", lib, err);
		return;
	}
}

static void corrupt_finding(struct check_run *r, const char *what,
			    unsigned int a, unsigned int b,
			    const struct gpu_figure *f)
{
	findings_add(&r->findings, SEV_ERROR, "data-corrupt", a, b,
		     "do not use P2P on this path until it verifies: see the topology findings for the pair (ACS redirect, IOMMU), and dmesg for IOMMU faults and Xids",
		     "%s: the copied data did not verify: %s", what,
		     verify_words(f->verify));
}

/* A sentence on what the topology says about a pair, for timeouts. */
static void topology_hint(const struct check_run *r, int fa, int fb,
			  char *buf, size_t len)
{
	int pi = run_pair_index(r, fa, fb);
	const struct p2pd_pair *p;
	struct text t = { buf, len, 0 };

	buf[0] = '\0';
	if (pi < 0) {
		add(&t, "likely cause: ACS redirect or the IOMMU (no topology verdict for the pair)");
		return;
	}
	p = &r->pair[pi];
	add(&t, "the topology says %s", p2pd_verdict_name(p->verdict));
	if (p->nr_blockers) {
		add(&t, "; likely cause: ACS redirect on ");
		describe_blockers(r->model, p, &t);
	}
	if (p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B))
		add(&t, "%s IOMMU translation", p->nr_blockers ? " with" : "; likely cause:");
	if (p->host_blocks)
		add(&t, "; the host bridge does not route P2P");
}

static unsigned int gpu_addr(const struct check_run *r, int g)
{
	return g >= 0 && (unsigned int)g < r->gpu->nr_dev ?
	       r->gpu->dev[g].pci_addr : FINDING_NO_ADDR;
}

static void judge_timeouts(struct check_run *r)
{
	const struct gpu_state *st = r->gpu;
	char hint[TEXT_LEN];

	if (st->measure == GPU_TIMEOUT) {
		unsigned int a = FINDING_NO_ADDR, b = FINDING_NO_ADDR;

		hint[0] = '\0';
		if (st->stuck_pair >= 0 && (unsigned int)st->stuck_pair < st->nr_pairs) {
			const struct gpu_pair *gp = &st->pair[st->stuck_pair];

			a = gpu_addr(r, gp->src);
			b = gpu_addr(r, gp->dst);
			topology_hint(r, run_gpu_function(r, (unsigned int)gp->src),
				      run_gpu_function(r, (unsigned int)gp->dst),
				      hint, sizeof(hint));
		} else if (st->stuck_dev >= 0) {
			a = gpu_addr(r, st->stuck_dev);
		}
		findings_add(&r->findings, SEV_ERROR, "copy-timeout", a, b,
			     "check dmesg for IOMMU faults and Xids; remove the ACS redirect or the IOMMU translation on the pair's path; the GPU may need a reset (nvidia-smi -r) or a reboot",
			     "the copy '%s' did not finish within %.0f s and the watchdog ended the run%s%s",
			     st->stuck_step[0] ? st->stuck_step : "?",
			     r->params.timeout_s,
			     hint[0] ? ": " : "", hint);
	} else if (st->measure == GPU_FAILED) {
		findings_add(&r->findings, SEV_WARNING, "measure-failed",
			     FINDING_NO_ADDR, FINDING_NO_ADDR, NULL,
			     "the measurements stopped early: %s%s%s",
			     st->error[0] ? st->error : "no detail",
			     st->stuck_step[0] ? " during " : "", st->stuck_step);
	}
}

/* GPUs of one model (same name) should move data equally fast. */
static void judge_siblings(struct check_run *r, int d2h)
{
	const struct gpu_state *st = r->gpu;
	double vals[GPU_MAX];
	unsigned int i, j, n;
	char why[TEXT_LEN], fix[FIX_LEN];

	for (i = 0; i < st->nr_dev; i++) {
		const struct gpu_figure *fi = d2h ? &st->dev[i].d2h : &st->dev[i].h2d;
		double median;

		if (!fi->valid || judge_gpu_explained(r, i, true, why,
						      sizeof(why), fix,
						      sizeof(fix)))
			continue;
		n = 0;
		for (j = 0; j < st->nr_dev; j++) {
			const struct gpu_figure *fj = d2h ? &st->dev[j].d2h :
							    &st->dev[j].h2d;

			if (!fj->valid || strcmp(st->dev[i].name, st->dev[j].name))
				continue;
			vals[n++] = fj->median;
		}
		if (n < 2)
			continue;
		median = gpu_median(vals, n);
		if (median > 0 && fi->median < JUDGE_SIBLING_MARGIN * median)
			findings_add(&r->findings, SEV_WARNING, "sibling-outlier",
				     st->dev[i].pci_addr, FINDING_NO_ADDR,
				     "compare its link (gen, width under load), NUMA placement and slot with the others; reseat or swap it",
				     "GPU %s (%s) %s %.1f GB/s is %.0f%% below the median %.1f GB/s of its %u identical GPUs",
				     addr_str(st->dev[i].pci_addr), st->dev[i].name,
				     d2h ? "device to host" : "host to device",
				     fi->median, 100.0 * (1 - fi->median / median),
				     median, n);
	}
}

/* What to check for a figure nothing else explains. */
static const char *figure_fix(enum judge_dev_fig f)
{
	switch (f) {
	case JF_LOCAL:
		return "check the clocks and why they were held (nvidia-smi -q -d CLOCK,PERFORMANCE) and the memory's state (nvidia-smi -q -d ECC,ROW_REMAPPER)";
	case JF_LATENCY_COPY:
	case JF_LATENCY_CHASE:
		return "look for other work on the GPU and for host power states that delay wake-up (CPU C-states, the ASPM policy under the settings)";
	default:
		return "check the link under load (gen, width), the GPU's NUMA node and that host buffers are pinned there";
	}
}

/*
 * One figure against its expectation: low and explained by something else
 * is said as such, with that fix; low and unexplained blames the path.
 */
static void judge_figure(struct check_run *r, const char *what, unsigned int a,
			 unsigned int b, const struct gpu_figure *fig,
			 const struct judged_figure *jf,
			 const char *why, const char *why_fix, const char *fix)
{
	const struct judge_expect *e = &jf->expect;
	const double ratio = jf->ratio;
	const bool explained = jf->explained;
	char code[FINDING_CODE_LEN];

	if (!jf->low)
		return;
	snprintf(code, sizeof(code), "%s%s", e->ceiling ? "latency-high" : "bw-low",
		 explained ? "-explained" : "");
	if (explained && e->ceiling)
		findings_add(&r->findings, SEV_INFO, code, a, b, why_fix,
			     "%s: %.1f us is above the %.1f us expected, explained by %s",
			     what, fig->median, e->value, why);
	else if (explained)
		findings_add(&r->findings, SEV_INFO, code, a, b, why_fix,
			     "%s: %.1f GB/s is %.2f of the %.1f GB/s expected, explained by %s",
			     what, fig->median, ratio, e->value, why);
	else if (e->ceiling)
		findings_add(&r->findings, SEV_WARNING, code, a, b, fix,
			     "%s: %.1f us is above the %.1f us expected (%s)",
			     what, fig->median, e->value, e->basis);
	else
		findings_add(&r->findings, SEV_WARNING, code, a, b, fix,
			     "%s: %.1f GB/s is %.2f of the %.1f GB/s expected (%s; below %.2f)",
			     what, fig->median, ratio, e->value, e->basis,
			     r->params.min_ratio);
}

static void judge_device(struct check_run *r, unsigned int g)
{
	const struct gpu_device *d = &r->gpu->dev[g];
	const struct judged_gpu *jg = &r->results->gpu[g];
	const unsigned int a = d->pci_addr;
	char why[TEXT_LEN], why_fix[FIX_LEN], lwhy[TEXT_LEN], lfix[FIX_LEN];
	unsigned int i;

	if (!jg->selected)
		return;
	/* the words for the figures that something else explains */
	judge_gpu_explained(r, g, true, why, sizeof(why), why_fix, sizeof(why_fix));
	/* no host memory in a device-local copy */
	judge_gpu_explained(r, g, false, lwhy, sizeof(lwhy), lfix, sizeof(lfix));
	if (run_gpu_function(r, g) == P2PD_NO_INDEX && r->model)
		findings_add(&r->findings, SEV_WARNING, "gpu-not-in-topology",
			     a, FINDING_NO_ADDR, NULL,
			     "CUDA GPU %d at %s is not in the PCI snapshot: its paths cannot be judged",
			     d->ordinal, addr_str(a));
	for (i = 0; i < JF_DEV_FIGS; i++) {
		const struct gpu_figure *fig = judge_dev_figure(d, i);
		char what[128];

		snprintf(what, sizeof(what), "GPU %s %s", addr_str(a),
			 judge_dev_fig_name(i));
		if (verify_failed(fig) && i < JF_LATENCY_COPY)
			corrupt_finding(r, what, a, FINDING_NO_ADDR, fig);
		judge_figure(r, what, a, FINDING_NO_ADDR, fig, &jg->fig[i],
			     i == JF_LOCAL ? lwhy : why,
			     i == JF_LOCAL ? lfix : why_fix, figure_fix(i));
	}
	if (d->link.valid && d->link.gen_load && d->link.width_load &&
	    ((d->link.max_gen && d->link.gen_load < d->link.max_gen) ||
	     (d->link.max_width && d->link.width_load < d->link.max_width)))
		findings_add(&r->findings, SEV_WARNING, "link-degraded", a,
			     FINDING_NO_ADDR,
			     "reseat the GPU; check the slot, riser and retimers, and the BIOS PCIe speed setting",
			     "GPU %s link under load: Gen%u x%u, capable of Gen%u x%u",
			     addr_str(a), d->link.gen_load, d->link.width_load,
			     d->link.max_gen, d->link.max_width);
	if (d->before.valid && d->after.valid) {
		if (d->after.replay > d->before.replay)
			findings_add(&r->findings, SEV_WARNING, "pcie-replay", a,
				     FINDING_NO_ADDR,
				     "replays mean link errors: reseat, check the riser or retimer, look at AER messages in dmesg",
				     "GPU %s PCIe replay counter rose by %llu during the run",
				     addr_str(a), d->after.replay - d->before.replay);
		if (d->after.ecc_uncorrected > d->before.ecc_uncorrected)
			findings_add(&r->findings, SEV_WARNING, "ecc-uncorrected",
				     a, FINDING_NO_ADDR,
				     "see nvidia-smi -q -d ECC,PAGE_RETIREMENT; the GPU may need a reset or service",
				     "GPU %s uncorrected ECC errors rose by %llu during the run",
				     addr_str(a),
				     d->after.ecc_uncorrected - d->before.ecc_uncorrected);
		if (d->after.xid > d->before.xid)
			findings_add(&r->findings, SEV_WARNING, "xid", a,
				     FINDING_NO_ADDR,
				     "look up the Xid in dmesg (NVRM: Xid) and NVIDIA's Xid catalogue",
				     "GPU %s reported %llu Xid event(s) during the run",
				     addr_str(a), d->after.xid - d->before.xid);
	}
}

static int says_peer_ok(const struct gpu_pair *gp)
{
	return (gp->cuda_valid && gp->can_access == 1) ||
	       (gp->nvml_valid && gp->p2p_read == P2P_STATUS_OK &&
		gp->p2p_write == P2P_STATUS_OK);
}

static void judge_contradiction(struct check_run *r, const struct gpu_pair *gp,
				const struct gpu_pair *rev, unsigned int a,
				unsigned int b)
{
	int pi = run_pair_index(r, run_gpu_function(r, (unsigned int)gp->src),
				  run_gpu_function(r, (unsigned int)gp->dst));
	const struct p2pd_pair *p;
	int can = (gp->cuda_valid && gp->can_access == 1) ||
		  (rev && rev->cuda_valid && rev->can_access == 1);
	int refuses = (gp->cuda_valid && gp->can_access == 0) ||
		      (rev && rev->cuda_valid && rev->can_access == 0);
	const char *fix;

	if (pi < 0 || gp->nvlinks)	/* NVLink pairs are judged on NVLink */
		return;
	p = &r->pair[pi];
	fix = pair_fix_of(r, pi);
	if (can && p->verdict == P2PD_VERDICT_BLOCKED) {
		findings_add(&r->findings, SEV_ERROR,
			     "contradiction-blocked-but-cuda-ok", a, b, fix,
			     "GPUs %s and %s: the topology says blocked (%s), yet CUDA allows peer access: P2P copies risk hangs and corrupt data",
			     addr_str(a), addr_str(b),
			     p->host_blocks ? "host bridge does not route P2P" : "ACS redirect");
	} else if (can && p->verdict == P2PD_VERDICT_REDIRECTED) {
		int iommu = !!(p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B));

		findings_add(&r->findings, iommu ? SEV_ERROR : SEV_WARNING,
			     "contradiction-redirected-but-cuda-ok", a, b, fix,
			     "GPUs %s and %s: ACS redirects their traffic to the root complex%s, yet CUDA allows peer access as if it went direct: expect low bandwidth%s",
			     addr_str(a), addr_str(b),
			     iommu ? " and through IOMMU translation" : "",
			     iommu ? ", hangs or corrupt data" : "");
	} else if (refuses && p->verdict == P2PD_VERDICT_OK) {
		findings_add(&r->findings, SEV_WARNING,
			     "contradiction-ok-but-cuda-refuses", a, b,
			     "check nvidia-smi topo -p2p r, the driver's P2P settings (GeForce cards and some VMs disable P2P) and NCCL_P2P_LEVEL",
			     "GPUs %s and %s: the topology allows direct P2P (%s), yet CUDA refuses peer access",
			     addr_str(a), addr_str(b), p2pd_class_name(p->cls));
	}
}

static void judge_gpu_pair_one(struct check_run *r, unsigned int k)
{
	const struct gpu_state *st = r->gpu;
	const struct gpu_pair *gp = &st->pair[k];
	const struct judged_gpu_pair *jp = &r->results->gpu_pair[k];
	const struct gpu_pair *rev = run_gpu_pair(st, gp->dst, gp->src);
	unsigned int a = gpu_addr(r, gp->src), b = gpu_addr(r, gp->dst);
	char what[128], hint[TEXT_LEN], why[TEXT_LEN], why_fix[FIX_LEN];
	bool explained;
	const struct { const char *name; const struct gpu_figure *f; } figs[] = {
		{ "P2P copy", &gp->p2p },
		{ "P2P copy both ways", &gp->p2p_bidir },
		{ "host-staged copy", &gp->staged },
		{ "P2P latency copy", &gp->latency_p2p },
	};
	unsigned int i;
	int corrupt = 0;

	if (!jp->selected)
		return;
	if (gp->status == GPU_TIMEOUT &&
	    !(st->measure == GPU_TIMEOUT && st->stuck_pair >= 0 &&
	      &st->pair[st->stuck_pair] == gp)) {
		topology_hint(r, run_gpu_function(r, (unsigned int)gp->src),
			      run_gpu_function(r, (unsigned int)gp->dst),
			      hint, sizeof(hint));
		findings_add(&r->findings, SEV_ERROR, "copy-timeout", a, b,
			     "check dmesg for IOMMU faults and Xids; remove the ACS redirect or the IOMMU translation on the pair's path",
			     "P2P copy %s -> %s did not finish before the deadline: %s",
			     addr_str(a), addr_str(b), hint);
	}
	for (i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		if (!verify_failed(figs[i].f))
			continue;
		snprintf(what, sizeof(what), "%s %s -> %s", figs[i].name,
			 addr_str(a), addr_str(b));
		corrupt_finding(r, what, a, b, figs[i].f);
		if (i != 2)
			corrupt = 1;
	}
	if (says_peer_ok(gp) && corrupt)
		findings_add(&r->findings, SEV_ERROR, "fake-p2p", a, b,
			     "treat P2P on this pair as broken: set NCCL_P2P_DISABLE=1 or fix the path (see the topology findings)",
			     "GPUs %s -> %s: CUDA/NVML report peer access, but P2P data does not arrive intact",
			     addr_str(a), addr_str(b));
	else if (says_peer_ok(gp) && gp->p2p.valid && gp->staged.valid &&
		 gp->p2p.median < JUDGE_FAKE_P2P_MARGIN * gp->staged.median)
		findings_add(&r->findings, SEV_ERROR, "fake-p2p", a, b,
			     "the copies are staged through host memory or hairpinned through the root complex: remove the ACS redirect on the path (see the topology findings), check the IOMMU mode and the driver's P2P support",
			     "GPUs %s -> %s: CUDA/NVML report peer access, yet P2P %.1f GB/s is no faster than copying through host memory (%.1f GB/s)",
			     addr_str(a), addr_str(b), gp->p2p.median,
			     gp->staged.median);
	explained = judge_gpu_explained(r, (unsigned int)gp->src, false, why,
					sizeof(why), why_fix, sizeof(why_fix)) ||
		    judge_gpu_explained(r, (unsigned int)gp->dst, false, why,
					sizeof(why), why_fix, sizeof(why_fix));
	for (i = 0; i < JP_PAIR_FIGS; i++) {
		snprintf(what, sizeof(what), "%s %s -> %s", judge_pair_fig_name(i),
			 addr_str(a), addr_str(b));
		judge_figure(r, what, a, b, judge_pair_figure(gp, i), &jp->fig[i],
			     why, why_fix,
			     i == JP_LATENCY_P2P ? figure_fix(JF_LATENCY_COPY) :
			     gp->nvlinks ? "check nvidia-smi nvlink -s and -e (link state and errors)" :
					   "check the links on the path under load and any ACS redirect on it");
	}
	if (gp->src < gp->dst && gp->p2p.valid && gp->p2p_bidir.valid &&
	    !gp->nvlinks && gp->p2p.median > 0 && !explained) {
		/* p2p_bidir is this direction's share while both ran */
		double total = gp->p2p_bidir.median +
			       (rev && rev->p2p_bidir.valid ?
				rev->p2p_bidir.median : gp->p2p_bidir.median);

		if (total <= JUDGE_HAIRPIN_MARGIN * gp->p2p.median)
			findings_add(&r->findings, SEV_WARNING, "hairpin", a, b,
				     "remove the ACS redirect on the pair's path (see the topology findings)",
				     "GPUs %s <-> %s: both directions at once move %.1f GB/s in all, no more than one direction alone (%.1f GB/s): the traffic crosses one link twice, the signature of redirection through the root complex",
				     addr_str(a), addr_str(b), total, gp->p2p.median);
	}
	if (gp->src < gp->dst || !rev)
		judge_contradiction(r, gp, rev, a, b);
}

void judge_gpus(struct check_run *r)
{
	const struct gpu_state *st = r->gpu;
	unsigned int i;

	judge_figures(r);
	if (!st || !r->results || r->results->nr_gpu_pairs != (st->pair ? st->nr_pairs : 0))
		return;
	status_finding(r, "cuda", st->cuda);
	judge_validity(r);
	judge_settings(r);
	if (st->cuda != GPU_NOT_BUILT && st->cuda != GPU_SKIPPED)
		status_finding(r, "nvml", st->nvml);
	judge_timeouts(r);
	for (i = 0; i < st->nr_dev; i++)
		judge_device(r, i);
	judge_siblings(r, 0);
	judge_siblings(r, 1);
	for (i = 0; st->pair && i < st->nr_pairs; i++)
		judge_gpu_pair_one(r, i);
}
