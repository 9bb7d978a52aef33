// SPDX-License-Identifier: GPL-2.0
/*
 * The --evidence readers on real pasted outputs (fixtures/evidence/, each
 * file's thread in its README): what each reader takes from them, also
 * from pastes cut mid-line, fenced, with CRLF or with a shell prompt, and
 * that the judging names the lines it rests on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_util.h"
#include "judge/judgement.h"
#include "evidence/evidence.h"
#include "judge/judge.h"
#include "uapi/p2pdiag/abi.h"

void test_evidence(struct ktap *k, const char *fixtures);

/* The first file of @ev through the readers of pasted lines. */
static void read_every_reader(struct evidence *ev)
{
	char err[512];

	read_topo(ev, 0);
	read_p2pbw(ev, 0);
	read_nvbandwidth(ev, 0);
	if (read_lspci(ev, 0, err, sizeof(err)))
		fprintf(stderr, "# read_lspci: %s\n", err);
	read_nccl(ev, 0);
	read_kernel_log(ev, 0);
	read_smi_query(ev, 0);
	read_nvlink(ev, 0);
	read_simple_p2p(ev, 0);
	read_rocm_smi_topo(ev, 0);
	read_rocm_bandwidth(ev, 0);
	read_osu(ev, 0);
	ev_smi_links(ev);
	ev_match_gpus(ev);
}

/* @name of fixtures/evidence read by every reader into a fresh @ev. */
static int load(struct evidence *ev, const char *fixtures, const char *name)
{
	char path[512], err[256];

	evidence_init(ev);
	snprintf(path, sizeof(path), "%s/evidence/%s", fixtures, name);
	if (evidence_load(ev, path, err, sizeof(err))) {
		printf("# %s\n", err);
		return -1;
	}
	read_every_reader(ev);
	return 0;
}

static bool near(double v, double want)
{
	return fabs(v - want) < 1e-6;
}

static void p2pbw(struct ktap *k, const char *fx, struct evidence *ev)
{
	CHECK(k, !load(ev, fx, "p2pbw-enabled-slower.txt") &&
	      ev->file[0].formats == EV_FMT_P2PBW &&
	      ev->uni_off.n == 6 && near(ev->uni_off.v[0][1], 20.10) &&
	      near(ev->uni_on.v[5][4], 10.22) && near(ev->uni_on.v[2][2], 922.24) &&
	      ev->uni_on.ref.line == 11 && !ev->bidi_on.have,
	      "evidence: p2pBandwidthLatencyTest tables, fenced: 6x6, disabled and enabled (writes)");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "p2pbw-geforce-cannot.txt") && ev->nr_gpus == 7 &&
	      ev->gpu_bus[5] == 0x0d && ev->gpu_bus[6] == 0x12 &&
	      !strcmp(ev->gpu_name[4], "NVIDIA RTX A6000") &&
	      ev->can_access[0][1] == 1 && ev->can_access[0][2] == 0 &&
	      ev->can_access[2][3] == 1 && ev->can_access[3][0] == -1 &&
	      ev->can_ref[0][2].line == 12,
	      "evidence: p2pBandwidthLatencyTest devices (hex bus) and CAN/CANNOT, the cut last line unknown");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "p2pbw-4090-alike.txt") && ev->can_access[1][0] == 1 &&
	      near(ev->bidi_on.v[0][1], 12.88) && near(ev->bidi_on.v[1][1], 924) &&
	      near(ev->bidi_off.v[1][0], 8.67) && near(ev->uni_on.v[0][1], 6.60),
	      "evidence: p2pBandwidthLatencyTest bidirectional tables, the file cut in a row");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "p2pbw-h100-nvlink-cut.txt") && ev->uni_on.n == 8 &&
	      near(ev->uni_on.v[0][1], 371.02) && isnan(ev->uni_on.v[1][0]) &&
	      near(ev->uni_off.v[7][6], 37.38),
	      "evidence: a table cut mid-row keeps its figures, the rows after it unknown");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "p2pbw-latency-nvlink.txt") && ev->lat_off.n == 4 &&
	      near(ev->lat_off.v[0][1], 14.95) && near(ev->lat_on.v[3][1], 1.81) &&
	      near(ev->lat_on.v[0][0], 2.59) && !ev->uni_on.have,
	      "evidence: the GPU latency tables, not the CPU ones below them");
	evidence_free(ev);
}

static void topo(struct ktap *k, const char *fx, struct evidence *ev)
{
	CHECK(k, !load(ev, fx, "topo-5090-gns.txt") &&
	      ev->file[0].formats == (EV_FMT_TOPO_MATRIX | EV_FMT_TOPO_P2P) &&
	      ev->topo_gpus == 2 && ev->topo_link[0][1] == EV_LINK_PHB &&
	      ev->topo_link[1][1] == EV_LINK_SELF && ev->topo_numa[1] == 0 &&
	      ev->p2p_gpus == 2 && ev->p2p_status[0][1] == EV_P2P_GNS &&
	      ev->p2p_status[1][1] == EV_P2P_SELF && ev->p2p_ref[1].line == 23,
	      "evidence: topo -m with NUMA columns and topo -p2p in one paste");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "topo-old-mlx4.txt") && ev->topo_gpus == 5 &&
	      ev->topo_link[4][5] == EV_LINK_PIX && ev->topo_link[0][4] == EV_LINK_SYS &&
	      ev->topo_numa[0] == -1 && ev->topo_ref[0].line == 3,
	      "evidence: topo -m of an old driver with a NIC column, after a prompt");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "topo-nvswitch-16.txt") && ev->topo_gpus == 5 &&
	      ev->topo_link[0][15] == EV_LINK_NV && ev->topo_nvlinks[4][0] == 6,
	      "evidence: topo -m, 16 NVLink GPUs and 10 NICs, cut mid-line");
	evidence_free(ev);
}

static void others(struct ktap *k, const char *fx, struct evidence *ev)
{
	CHECK(k, !load(ev, fx, "nvbandwidth-a6000.txt") && ev->file[0].formats == EV_FMT_NVBW_TEXT &&
	      ev->nvbw_d2d.n == 6 && isnan(ev->nvbw_d2d.v[0][0]) &&
	      near(ev->nvbw_d2d.v[3][5], 26.35) && !ev->nvbw_waived,
	      "evidence: nvbandwidth text, N/A on the diagonal");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nvbandwidth-a6000.json") && ev->file[0].formats == EV_FMT_NVBW_JSON &&
	      near(ev->nvbw_d2d.v[0][5], 21.8) && isnan(ev->nvbw_d2d.v[4][4]) &&
	      ev->nvbw_waived && ev->nvbw_waived_ref.line == 22,
	      "evidence: nvbandwidth --json: the matrix of strings and a waived case with its line");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nvbandwidth-2080ti-waived.txt") && ev->nvbw_waived &&
	      !strcmp(ev->gpu_name[1], "NVIDIA GeForce RTX 2080 Ti") &&
	      ev->nvbw_waived_ref.line == 16,
	      "evidence: nvbandwidth waiving a device-to-device case");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nccl-shm.txt") && ev->nccl.nr_shm == 11 &&
	      ev->nccl.nr_p2p == 0 && ev->nccl.shm_ref.line == 1,
	      "evidence: NCCL channels via SHM, the cut last line not counted");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nccl-could-not-enable.txt") && ev->nccl.nr_refused == 2 &&
	      ev->nccl.refused_dev[0] == 1 && ev->nccl.refused_dev[1] == 0 &&
	      ev->nccl.refused_bus[0] == 0x81 && ev->nccl.refused_bus[1] == 0x41 &&
	      ev->nccl.refused_ref.line == 4 && ev->gpu_bus[1] == 0x81 &&
	      ev->gpu_bus[0] == 0x41 && ev->nccl.nr_shm == 2,
	      "evidence: NCCL's Could not enable P2P: the devices and their buses from NCCL's bus ids");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nccl-tests-4090.txt") &&
	      ev->file[0].formats == EV_FMT_NCCL_TESTS && ev->nccl.busbw_max == 0 &&
	      !ev->nccl.busbw_ref.line,
	      "evidence: nccl-tests table with a root column, cut after its first row");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nccl-tests-4090.txt") && ev->nr_gpus == 8 &&
	      !strcmp(ev->gpu_name[7], "NVIDIA GeForce RTX 4090") && ev->gpu_bus[3] == 0x5a &&
	      ev->gpu_ref[0].line == 6,
	      "evidence: nccl-tests' device list names the GPUs and their buses");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "lspci-acsctl-inline.txt") && ev->nr_acs_lines == 1 &&
	      ev->nr_acs_redirect == 1 && ev->acs_redirect_ref.line == 2 && ev->nr_pci == 0,
	      "evidence: ACSCtl lines grepped out and pasted as inline code");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nccl-tests-no-root.txt") && near(ev->nccl.busbw_max, 162.23) &&
	      ev->nccl.busbw_ref.line == 6,
	      "evidence: nccl-tests table without the root column: busbw found by its header");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "dmesg-dmar-igpu.txt") && ev->kernel.nr_faults == 1 &&
	      !strcmp(ev->kernel.fault_dev, "00:02.0") && !ev->kernel.fault_nvidia,
	      "evidence: a DMAR fault naming [0x00:0x02.0]");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nccl-p2p-level-loc.txt") && !strcmp(ev->nccl.p2p_level, "LOC") &&
	      ev->nccl.level_ref.line == 15 && ev->nccl.nr_p2p + ev->nccl.nr_shm == 0,
	      "evidence: NCCL_P2P_LEVEL as set, ring lines are no transports");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "dmesg-amdvi-fault.txt") && ev->kernel.nr_faults == 9 &&
	      !strcmp(ev->kernel.fault_dev, "07:00.0") && ev->kernel.fault_ref.line == 2,
	      "evidence: AMD-Vi IO_PAGE_FAULT lines, the device from the driver's prefix");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "lspci-plx-acs-cut.txt") && ev->nr_pci == 1 &&
	      ev->pci[0].bridge && ev->pci[0].bus == 2 && ev->pci[0].dev == 8 &&
	      ev->pci[0].has_bus_range && ev->pci[0].secondary == 0x82 &&
	      !ev->pci[0].acs_ctl_seen,
	      "evidence: lspci -vvv: an ACSCtl line before any header belongs to no device");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "lspci-vvvnn-a100-cut.txt") && ev->nr_pci == 1 &&
	      ev->pci[0].gpu && ev->pci[0].nvidia && ev->pci[0].bus == 0xda &&
	      !ev->pci[0].lnk_ref.line,
	      "evidence: lspci -vvvnn of an A100 cut before its link lines");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "lspci-link-idle.txt") && ev->nr_pci == 1 &&
	      ev->pci[0].anonymous && ev->pci[0].cap_speed10 == 160 &&
	      ev->pci[0].sta_speed10 == 25 && ev->pci[0].sta_width == 16 &&
	      ev->pci[0].speed_downgraded && !ev->pci[0].width_downgraded,
	      "evidence: LnkCap/LnkSta pasted alone, speed downgraded, width ok");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "lspci-tree.txt") && ev->lspci_tree &&
	      ev->lspci_tree_ref.line == 3,
	      "evidence: lspci -t recognised");
	evidence_free(ev);
}

/* The first finding of @code in @r, or NULL. */
static const struct finding *finding_of(const struct check_run *r, const char *code)
{
	size_t i;

	for (i = 0; i < r->judged.findings.nr; i++)
		if (!strcmp(r->judged.findings.item[i].code, code))
			return &r->judged.findings.item[i];
	return NULL;
}

static bool worst_below_warning(const struct check_run *r)
{
	size_t i;

	for (i = 0; i < r->judged.findings.nr; i++)
		if (r->judged.findings.item[i].severity >= SEV_WARNING)
			return false;
	return true;
}

/*
 * Four GPUs in CUDA's order, buses 82, 02, 83, 03, and nvidia-smi's four
 * rows in bus order on NUMA nodes @numa: CUDA's 0 and 2 grant each other
 * peer access, as 1 and 3 do, and every other pair is refused.
 */
static void two_groups(struct evidence *ev, const int numa[4])
{
	static const int bus[4] = { 0x82, 0x02, 0x83, 0x03 };
	unsigned int a, b;

	evidence_init(ev);
	ev->nr_gpus = 4;
	ev->topo_gpus = 4;
	for (a = 0; a < 4; a++) {
		ev->gpu_bus[a] = bus[a];
		ev->topo_numa[a] = numa[a];
		ev->topo_ref[a].line = a + 2;
		for (b = 0; b < 4; b++) {
			ev->can_access[a][b] = a == b ? -1 : (a % 2) == (b % 2);
			ev->topo_link[a][b] = a == b ? EV_LINK_SELF :
					      numa[a] == numa[b] ? EV_LINK_PIX : EV_LINK_SYS;
		}
	}
	ev_match_gpus(ev);
}

static void judged(struct check_run *r, const struct evidence *ev)
{
	memset(r, 0, sizeof(*r));
	judge_evidence_facts(r, ev);
}

/* The severity @ev's p2p-not-supported is judged with, or -1 without one. */
static int refusal_severity(const struct evidence *ev)
{
	struct check_run r;
	const struct finding *f;
	int sev;

	judged(&r, ev);
	f = finding_of(&r, "p2p-not-supported");
	sev = f ? (int)f->severity : -1;
	findings_free(&r.judged.findings);
	return sev;
}

/* GPUs matched across the outputs by bus; refusals between the sockets. */
static void sockets(struct ktap *k, const char *fx, struct evidence *ev)
{
	static const int split[4] = { 0, 0, 1, 1 }, one[4] = { 0, 0, 0, 0 };
	struct check_run r;
	const struct finding *f;
	struct ev_ref ref = { 0, 0 };

	two_groups(ev, split);
	CHECK(k, ev->gpu_topo_row[0] == 2 && ev->gpu_topo_row[1] == 0 &&
	      ev->gpu_topo_row[2] == 3 && ev->gpu_topo_row[3] == 1 &&
	      ev->gpu_numa[0] == 1 && ev->gpu_numa[1] == 0 && ev->gpu_numa[3] == 0 &&
	      ev->gpu_numa_ref[0].line == 4,
	      "evidence: CUDA's GPUs matched to nvidia-smi's rows by bus, not by number");
	CHECK(k, ev_pair_numa(ev, 0, 1, &ref) == 1 && ev_pair_numa(ev, 0, 2, &ref) == 0 &&
	      ev_pair_numa(ev, 1, 3, &ref) == 0 && ev_pair_numa(ev, 1, 1, &ref) == -1,
	      "evidence: a pair's NUMA nodes, from the matched rows");
	judged(&r, ev);
	f = finding_of(&r, "p2p-not-supported");
	CHECK(k, f && f->severity == SEV_INFO && worst_below_warning(&r) &&
	      strstr(f->message, "different NUMA nodes") && strstr(f->message, "nothing is broken"),
	      "evidence: peer access refused only between two NUMA nodes: a note, not an error");
	findings_free(&r.judged.findings);
	evidence_free(ev);

	two_groups(ev, one);
	CHECK(k, refusal_severity(ev) == SEV_ERROR,
	      "evidence: the same refusals between GPUs of one NUMA node: an error");
	evidence_free(ev);

	/* lspci's NUMA node of a GPU, found by its bus */
	two_groups(ev, split);
	ev->topo_gpus = 0;
	ev->pci = calloc(1, sizeof(*ev->pci));
	if (ev->pci) {
		ev->nr_pci = 1;
		ev->pci[0].gpu = ev->pci[0].nvidia = true;
		ev->pci[0].bus = 0x03;
		ev->pci[0].numa_node = 1;
		ev->pci[0].numa_ref.line = 7;
	}
	memset(ev->gpu_topo_row, -1, sizeof(ev->gpu_topo_row));
	memset(ev->gpu_numa, -1, sizeof(ev->gpu_numa));
	ev_match_gpus(ev);
	CHECK(k, ev->gpu_numa[3] == 1 && ev->gpu_numa_ref[3].line == 7 &&
	      ev->gpu_numa[0] == -1 && ev->gpu_topo_row[0] == -1,
	      "evidence: lspci's NUMA node belongs to the GPU on its bus");
	evidence_free(ev);

	/* the real paste: two groups, no topology: a note that says so */
	CHECK(k, !load(ev, fx, "p2pbw-two-sockets-cut.txt") && ev->nr_gpus == 4 &&
	      ev->gpu_bus[2] == 0x82 && ev->can_access[0][1] == 1 && ev->can_access[1][2] == 0,
	      "evidence: p2pBandwidthLatencyTest of two sockets, cut after a header");
	judged(&r, ev);
	f = finding_of(&r, "p2p-not-supported");
	CHECK(k, f && f->severity == SEV_INFO && worst_below_warning(&r) &&
	      strstr(f->message, "0+1, 2+3") && strstr(f->message, "do not place") &&
	      f->evidence && strstr(f->evidence, ":7"),
	      "evidence: groups refused only between each other, no topology: a note naming the groups");
	findings_free(&r.judged.findings);
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "p2pbw-geforce-cannot.txt") && refusal_severity(ev) == SEV_ERROR,
	      "evidence: a GeForce mix, groups cut short and buses interleaved (01, 02, 03, 17): an error");
	evidence_free(ev);

	/* two groups whose buses interleave, nothing placing them on nodes */
	two_groups(ev, split);
	ev->topo_gpus = 0;
	ev->gpu_bus[0] = 0x02;
	ev->gpu_bus[1] = 0x03;
	ev->gpu_bus[2] = 0x04;
	ev->gpu_bus[3] = 0x05;
	memset(ev->gpu_numa, -1, sizeof(ev->gpu_numa));
	memset(ev->gpu_topo_row, -1, sizeof(ev->gpu_topo_row));
	CHECK(k, refusal_severity(ev) == SEV_ERROR,
	      "evidence: groups 0+2 and 1+3 on buses 02, 04 and 03, 05: no two root complexes, an error");
	evidence_free(ev);
}

/* lspci -vvv into the engine's model, where it is a tree, and only then. */
static void verbose_model(struct ktap *k, const char *fx, struct evidence *ev)
{
	const struct p2pd_function *rp = NULL, *gpu = NULL;
	int i;

	if (!load(ev, fx, "lspci-vvvnn-amd-rootports.txt") && ev_lspci_model(ev)) {
		i = p2pd_model_find(&ev->dump, P2PD_ADDR(0, 0, 1, 1));
		rp = i == P2PD_NO_INDEX ? NULL : &ev->dump.fn[i];
		i = p2pd_model_find(&ev->dump, P2PD_ADDR(0, 1, 0, 0));
		gpu = i == P2PD_NO_INDEX ? NULL : &ev->dump.fn[i];
	}
	CHECK(k, ev->have_dump && ev->dump_from_verbose && ev->dump.nr_fn == 5 &&
	      rp && rp->role == P2PD_ROLE_ROOT_PORT && !rp->has_parent &&
	      rp->acs == P2PD_PRESENT &&
	      (rp->acs_ctrl & (P2PD_ACS_RR | P2PD_ACS_CR)) == (P2PD_ACS_RR | P2PD_ACS_CR) &&
	      !(rp->acs_ctrl & P2PD_ACS_EC) && rp->vendor == 0x1022 &&
	      gpu && gpu->role == P2PD_ROLE_ENDPOINT && gpu->p2p_endpoint &&
	      gpu->has_parent && gpu->parent == rp->addr && gpu->vendor == 0x10de &&
	      gpu->class_code == 0x030200 && gpu->acs == P2PD_ABSENT &&
	      gpu->link.state == P2PD_PRESENT && gpu->link.speed == 25 &&
	      gpu->link.max_speed == 160 && gpu->link.width == 16 &&
	      gpu->host_bridge == P2PD_HOST_BRIDGE(0, 0) && ev->pci[0].modelled,
	      "evidence: lspci -vvvnn of a whole tree into the engine's model: roles, parents, ACS, links, IDs");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "lspci-vvv-switch-assembled.txt") && !ev_lspci_model(ev) &&
	      !ev->have_dump && ev->nr_pci == 4 && !ev->pci[0].modelled && !ev->pci[2].modelled,
	      "evidence: switch ports pasted without the ports above them: no tree, no model");
	evidence_free(ev);
}

/* The same paste with CRLF line ends and a prompt reads the same. */
static void pasting(struct ktap *k, const char *fx, struct evidence *ev)
{
	char src[512], dst[] = "/tmp/p2pdiag-evidence-XXXXXX", err[256];
	FILE *in, *out;
	int fd, c;

	snprintf(src, sizeof(src), "%s/evidence/p2pbw-enabled-slower.txt", fx);
	fd = mkstemp(dst);
	in = fopen(src, "r");
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!in || !out) {
		CHECK(k, 0, "evidence: CRLF copy of a paste");
		if (in)
			fclose(in);
		return;
	}
	fputs("> $ ./p2pBandwidthLatencyTest\r\n", out);
	while ((c = fgetc(in)) != EOF) {
		if (c == '\n')
			fputc('\r', out);
		fputc(c, out);
	}
	fclose(in);
	fclose(out);
	evidence_init(ev);
	CHECK(k, !evidence_load(ev, dst, err, sizeof(err)) && (read_p2pbw(ev, 0), 1) &&
	      near(ev->uni_on.v[5][4], 10.22) && ev->uni_on.ref.line == 12 &&
	      !strchr(ev->file[0].line[1], '\r'),
	      "evidence: CRLF, a quoted prompt: the same figures, lines counted in the file");
	evidence_free(ev);
	unlink(dst);
}

/*
 * @text, as a pasted file, read by every reader into a fresh @ev; the
 * file is gone again when this returns.
 */
static int load_text(struct evidence *ev, const char *text)
{
	char dst[] = "/tmp/p2pdiag-evidence-XXXXXX", err[256];
	int fd = mkstemp(dst), ret = -1;
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;

	evidence_init(ev);
	if (!out) {
		if (fd >= 0)
			close(fd);
		goto remove_file;
	}
	fputs(text, out);
	if (fclose(out))
		goto remove_file;
	if (evidence_load(ev, dst, err, sizeof(err))) {
		printf("# %s\n", err);
		goto remove_file;
	}
	read_every_reader(ev);
	ret = 0;
remove_file:
	if (fd >= 0)
		unlink(dst);
	return ret;
}

/*
 * A device line whose first comma comes after pciBusID: (the fuzzer's
 * mangled paste): not read as a device, the others are.
 */
static void device_line_order(struct ktap *k, struct evidence *ev)
{
	static const char text[] =
		"[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\n"
		"Device: 0, NVIDIA GeForce RTX 4090, pciBusID: 2, pciDeviceID: 0, pciDomainID:0\n"
		"Device: 1 NVIDIA GeForce RTX 4090 pciBusID: 17, pciDeviceID: 0, pciDomainID:0\n"
		"Device: 2, NVIDIA GeForce RTX 4090, pciBusID: 41, pciDeviceID: 0, pciDomainID:0\n";

	CHECK(k, !load_text(ev, text) &&
	      ev->nr_gpus == 3 && !ev->gpu_name[1][0] && ev->gpu_bus[1] != 0x17 &&
	      !strcmp(ev->gpu_name[2], "NVIDIA GeForce RTX 4090") && ev->gpu_bus[2] == 0x41,
	      "evidence: a device line with its first comma after pciBusID: is no device line");
	evidence_free(ev);
}

/*
 * IOMMU fault lines cut inside the device's address, as a paste ends
 * mid-line (the fuzzer's case is the first): the fault is counted, no
 * device is made up, and nothing past the line's end is read.
 */
static void cut_fault_address(struct ktap *k, struct evidence *ev)
{
	static const char *const cut[] = {
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=0000:0",
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=0000:07",
		"DMAR: [DMA Write] Request device [00:0 fault",
	};
	static const char whole[] =
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=0000:07:00.0 domain=0x000e]\n";
	bool ok = true;
	size_t i;

	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		char text[128];

		snprintf(text, sizeof(text), "%s\n", cut[i]);
		ok = ok && !load_text(ev, text) && ev->kernel.nr_faults == 1 &&
		     !ev->kernel.fault_dev[0];
		if (!ok)
			printf("# cut fault line: %s\n", cut[i]);
		evidence_free(ev);
	}
	CHECK(k, ok, "evidence: a fault line cut inside its address: a fault, no device");
	CHECK(k, !load_text(ev, whole) && ev->kernel.nr_faults == 1 &&
	      !strcmp(ev->kernel.fault_dev, "07:00.0"),
	      "evidence: a whole fault line still names its device, the domain skipped");
	evidence_free(ev);
}

/* The function the evidence holds at @bus:00.0, or NULL. */
static const struct ev_pci_dev *pci_on(const struct evidence *ev, unsigned int bus)
{
	unsigned int i;

	for (i = 0; i < ev->nr_pci; i++)
		if (!ev->pci[i].anonymous && ev->pci[i].bus == bus)
			return &ev->pci[i];
	return NULL;
}

/*
 * nvidia-smi -q's "GPU Link Info" as the GPU's link facts: the old layout
 * (Max and Current) and the newer one (Device Current, Device Max, Host
 * Max beside them), a 32-bit domain of a passed-through GPU, and what
 * pasting does to it: a width cut before its x, quotes, N/A, no Bus Id.
 */
static void smi_links(struct ktap *k, const char *fx, struct evidence *ev)
{
	const struct ev_pci_dev *d;

	CHECK(k, !load(ev, fx, "smi-q-passthrough-cut.txt") &&
	      ev->file[0].formats == EV_FMT_SMI_QUERY && ev->smi.has_addr[0] &&
	      ev->smi.domain[0] == 0x03f8cfdd && ev->smi.gen_max[0] == 3 && ev->smi.gen[0] == 3 &&
	      ev->smi.width_max[0] == 16 && ev->smi.width[0] == 16 &&
	      ev->nr_pci == 1 && ev->pci[0].gpu && ev->pci[0].domain == 0x03f8cfdd &&
	      ev->pci[0].cap_speed10 == 80 && ev->pci[0].sta_speed10 == 80 &&
	      ev->pci[0].sta_width == 16 && ev->pci[0].lnk_ref.line == 31 &&
	      ev->pci[0].ref.line == 23,
	      "evidence: nvidia-smi -q's link (old layout, a 32-bit domain) as the GPU's link facts");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "smi-q-2080-x8.txt") && (d = pci_on(ev, 2)) &&
	      ev->smi.gen[0] == 1 && ev->smi.gen_max[0] == 3 &&
	      d->cap_width == 16 && d->sta_width == 8 && d->sta_speed10 == 25 &&
	      d->cap_speed10 == 80 && d->lnk_ref.line == 17 && ev->smi.bar1_mib[0] == 256,
	      "evidence: nvidia-smi -q's newer link layout: Max and Current, not Device or Host Max");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "> GPU Link Info\n>     PCIe Generation\n>         Max : 4\n"
			    ">         Current : 4\n>     Link Width\n>         Max : 16x\n>         Current : 8\n") &&
	      ev->nr_pci == 1 && ev->pci[0].anonymous && ev->pci[0].sta_width == 0 &&
	      ev->pci[0].cap_width == 16 && ev->pci[0].sta_speed10 == 160 && ev->pci[0].lnk_ref.line == 4,
	      "evidence: a quoted link without its Bus Id, its width cut before the x: lanes unknown");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "PCIe Generation\n    Max : N/A\n    Current : N/A\nLink Width\n"
			    "    Max : N/A\n    Current : N/A\n") &&
	      ev->file[0].formats == EV_FMT_SMI_QUERY && !ev->nr_pci,
	      "evidence: nvidia-smi -q's link N/A: read, no link made up");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "PCIe Generation\nMax : banana\nCurrent: 99\nLink Width\nCurrent : x16x\n"
			    "Bus Id : 0000:zz:00.0\nBus Id :\n") &&
	      !ev->file[0].formats && !ev->nr_pci && !ev->smi.has_addr[0],
	      "evidence: link lines with no link in them: not read");
	evidence_free(ev);
}

/*
 * nvidia-smi nvlink -s, -e and -c: each GPU's links up, <inactive>,
 * counting errors or without P2P, from real pastes (cut, fenced, with a
 * prompt and tabs), and lines that only look like them.
 */
static void nvlink(struct ktap *k, const char *fx, struct evidence *ev)
{
	CHECK(k, !load(ev, fx, "nvlink-s-v100-inactive.txt") &&
	      (ev->file[0].formats & EV_FMT_NVLINK) && ev->nvlink.nr_gpus == 4 &&
	      ev->nvlink.up[3] == 0x17 && ev->nvlink.down[3] == 0x28 && !ev->nvlink.up[0] &&
	      ev->nvlink.ref[3].line == 8,
	      "evidence: nvlink -s: V100 links up and <inactive>, the first inactive cited");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nvlink-s-gb200-cut.txt") && ev->nvlink.nr_gpus == 2 &&
	      ev->nvlink.up[0] == 0x3ffff && ev->nvlink.up[1] == 0x3 && !ev->nvlink.down[1],
	      "evidence: nvlink -s: 18 GB200 links, the paste cut after two of the next GPU's");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nvlink-e-gb300.txt") && (ev->file[0].formats & EV_FMT_NVLINK) &&
	      ev->nvlink.nr_gpus == 1 && !ev->nvlink.errors[0] && !ev->nvlink.up[0],
	      "evidence: nvlink -e with tabs after a prompt: counters at 0, no link state made up");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "nvlink-c-v100-cut.txt") && (ev->file[0].formats & EV_FMT_NVLINK) &&
	      !ev->nvlink.no_p2p[0] && !ev->nvlink.up[0] && !ev->nvlink.down[0],
	      "evidence: nvlink -c, quoted prompt, cut mid-line: P2P supported on every link");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-x)\n\t Link 2: Replay Errors: 7\n"
			    "\t Link 2, P2P is supported: false\nNVML:Unable to retrieve Nvlink information as all links are inActive\n") &&
	      ev->nvlink.errors[1] == 0x4 && ev->nvlink.errors_ref[1].line == 2 &&
	      ev->nvlink.no_p2p[1] == 0x4 && ev->nvlink.all_inactive && ev->nvlink.all_inactive_ref.line == 4,
	      "evidence: nvlink -e counting, -c without P2P, NVML's all links inactive");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "Link 0: <inactive>\nGPU 0: x\n Link 99: 25 GB/s\n Link 1: fast\n Link 2, P2P is supported: maybe\n"
			    " Link 3: Replay Errors: many\n Link: 1\nGPU 99999999999: y\n") &&
	      !(ev->file[0].formats & EV_FMT_NVLINK) && !ev->nvlink.nr_gpus,
	      "evidence: link lines before any GPU, out of range or with no state: not read");
	evidence_free(ev);
}

/*
 * simpleP2P: peer access per pair as CUDA answered it, the copy figure,
 * the verification errors, from CUDA's and HIP's outputs as pasted (cut
 * mid-line and mid-word), and lines that only look like them.
 */
static void simple_p2p(struct ktap *k, const char *fx, struct evidence *ev)
{
	CHECK(k, !load(ev, fx, "simplep2p-l4-sys.txt") && ev->file[0].formats == EV_FMT_SIMPLE_P2P &&
	      ev->can_access[0][1] == 1 && ev->can_access[1][0] == 1 && ev->can_ref[1][0].line == 9 &&
	      !strcmp(ev->gpu_name[1], "NVIDIA L4") && ev->nr_gpus == 2 &&
	      near(ev->simple_p2p.gbs, 19.87) && ev->simple_p2p.gbs_ref.line == 13 &&
	      !ev->simple_p2p.nr_verify_errors && ev->simple_p2p.passed_ref.line == 20,
	      "evidence: simpleP2P on two L4: peer access both ways, its copy figure, Test passed");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "simplep2p-mixed-cut.txt") && ev->nr_gpus == 7 &&
	      ev->can_access[0][1] == 1 && ev->can_access[1][6] == 0 && ev->can_access[2][0] == 0 &&
	      ev->can_access[2][1] == -1 && !strcmp(ev->gpu_name[4], "NVIDIA RTX A6000") &&
	      isnan(ev->simple_p2p.gbs),
	      "evidence: simpleP2P Yes and No between mixed GPUs, cut after a word: the rest unknown");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "simplep2p-4090-verify-cut.txt") &&
	      ev->simple_p2p.nr_verify_errors == 4 && ev->simple_p2p.verify_ref.line == 5 &&
	      !ev->simple_p2p.passed_ref.line,
	      "evidence: simpleP2P's verification errors, the last line cut before its element");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "simplep2p-hip-mi100.txt") && ev->can_access[1][0] == 1 &&
	      !ev->gpu_name[0][0] && near(ev->simple_p2p.gbs, 28.13) &&
	      ev->simple_p2p.passed_ref.line == 19,
	      "evidence: HIP's simpleP2P, its GPUs without names: read");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "> Peer access from A (GPU0) -> B (GPU0) : Yes\nPeer access from A (GPU1) -> B (GPU2) : Maybe\n"
			    "Peer access from A (GPU99999) -> B (GPU1) : No\nPeer access from (GPU1) (GPU2) : Yes\n"
			    "cudaMemcpyPeer / cudaMemcpy between GPU0 and GPU1: fastGB/s\n"
			    "cudaMemcpyPeer / cudaMemcpy between GPU0 and GPU0: 5GB/s\nVerification error @ element x\n"
			    "Test passed\n") &&
	      !ev->file[0].formats && ev->can_access[1][2] == -1 && isnan(ev->simple_p2p.gbs) &&
	      !ev->simple_p2p.nr_verify_errors && !ev->simple_p2p.passed_ref.line,
	      "evidence: simpleP2P-like lines with no answer in them: not read");
	evidence_free(ev);
}

/*
 * rocm-smi --showtopo: the link type per pair (XGMI as the GPU fabric,
 * PCIE as a PCIe path of unknown kind), each GPU's NUMA node, across
 * rocm-smi's versions and as pasted (fenced, trailing blanks, collapsed
 * columns, cut, quoted), never as nvidia-smi topo -m; and lines that
 * only look like it.
 */
static void rocm_smi_topo(struct ktap *k, const char *fx, struct evidence *ev)
{
	CHECK(k, !load(ev, fx, "rocm-smi-topo-pcie-numa.txt") &&
	      ev->file[0].formats == EV_FMT_ROCM_SMI_TOPO && ev->topo_gpus == 4 &&
	      ev->topo_link[0][1] == EV_LINK_PCIE && ev->topo_link[3][0] == EV_LINK_PCIE &&
	      ev->topo_link[2][2] == EV_LINK_SELF && ev->topo_numa[2] == 3 && ev->topo_numa[3] == 2 &&
	      ev->topo_ref[3].line == 22,
	      "evidence: rocm-smi --showtopo over PCIe, fenced: PCIe pairs, NUMA nodes, the link type row cited");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "rocm-smi-topo-mi210-xgmi.txt") &&
	      ev->file[0].formats == EV_FMT_ROCM_SMI_TOPO && ev->topo_gpus == 4 &&
	      ev->topo_link[1][3] == EV_LINK_NV && ev->topo_link[3][2] == EV_LINK_NV &&
	      !ev->topo_nvlinks[1][3] && ev->topo_numa[3] == 3 && ev->topo_ref[0].line == 20,
	      "evidence: rocm-smi --showtopo of MI210 over XGMI, older NUMA lines: the GPU fabric, no link count made up");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "rocm-smi-topotype-mi100-flattened.txt") &&
	      ev->file[0].formats == EV_FMT_ROCM_SMI_TOPO && ev->topo_gpus == 2 &&
	      ev->topo_link[1][0] == EV_LINK_PCIE && ev->topo_ref[1].line == 4 && ev->topo_numa[0] == -1,
	      "evidence: rocm-smi's link type alone, columns collapsed: read, no NUMA node made up");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "> ========== Link Type between two GPUs ==========\n>        GPU0         GPU1         GPU2\n"
			    "> GPU0   0            XGMI         PCIE\n> GPU1   XGMI         0            PC") &&
	      ev->file[0].formats == EV_FMT_ROCM_SMI_TOPO && ev->topo_link[0][2] == EV_LINK_PCIE &&
	      ev->topo_link[1][0] == EV_LINK_NV && ev->topo_link[1][2] == EV_LINK_UNKNOWN &&
	      ev->topo_link[2][0] == EV_LINK_UNKNOWN && ev->topo_gpus == 2,
	      "evidence: rocm-smi's link type quoted and cut mid-word: the cut pair and the missing row unknown");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "Link Type between two GPUs\nGPU99999 GPU1\nGPU0 XGMI\n"
			    "=== Weight between two GPUs ===\nGPU0 weight\nGPU[99999] : (Topology) Numa Node: 1\n"
			    "GPU[1] : (Topology) Numa Node: -4\nGPU[x] : (Topology) Numa Node: 2\n") &&
	      !ev->file[0].formats && !ev->topo_gpus && ev->topo_numa[1] == -1,
	      "evidence: rocm-smi-like titles and NUMA lines with nothing valid under them: not read");
	evidence_free(ev);
}

/*
 * rocm_bandwidth_test: the GPUs among its devices, peer access from its
 * access table, GPU-to-GPU copies as P2P enabled and the slower leg
 * through the best CPU as P2P disabled, across versions (2.0's
 * "Bdirectional", 2.6's "Inter-Device"), unindented, cut; and lines that
 * only look like it (TransferBench's tables).
 */
static void rocm_bandwidth(struct ktap *k, const char *fx, struct evidence *ev)
{
	CHECK(k, !load(ev, fx, "rbt-mi100-xgmi-two-sockets.txt") &&
	      ev->file[0].formats == EV_FMT_ROCM_BW && ev->nr_gpus == 2 && ev->gpu_bus[0] == 0x23 &&
	      ev->gpu_bus[1] == 0x83 && !strcmp(ev->gpu_name[1], "AMD Instinct MI100") &&
	      ev->can_access[0][1] == 1 && ev->can_ref[0][1].line == 20 &&
	      near(ev->uni_on.v[0][1], 48.902) && near(ev->uni_on.v[1][0], 49.920) &&
	      near(ev->uni_on.v[0][0], 925.889) && ev->uni_on.ref.line == 38 &&
	      near(ev->uni_off.v[0][1], 26.813) && near(ev->uni_off.v[1][0], 24.861) &&
	      near(ev->bidi_on.v[1][0], 97.678) && isnan(ev->uni_off.v[0][0]),
	      "evidence: rocm-bandwidth-test, two CPUs and two MI100: peer copies, the host path through the better CPU");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "rbt-wx8100-no-peer.txt") && ev->file[0].formats == EV_FMT_ROCM_BW &&
	      ev->nr_gpus == 2 && ev->gpu_bus[0] == 0x0d && ev->can_access[0][1] == 0 &&
	      ev->can_access[1][0] == 0 && isnan(ev->uni_on.v[0][1]) &&
	      near(ev->uni_off.v[0][1], 13.366351) && near(ev->uni_off.v[1][0], 13.377405) &&
	      !ev->bidi_on.have,
	      "evidence: rocm_bandwidth_test 2.0, no peers: access 0, no peer figure, the host path");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "rbt-pro-vii-cut.txt") && ev->file[0].formats == EV_FMT_ROCM_BW &&
	      ev->nr_gpus == 2 && ev->gpu_bus[1] == 0x43 && ev->can_access[1][0] == 1 &&
	      !ev->uni_on.have && !ev->uni_off.have,
	      "evidence: rocm-bandwidth-test cut in its first bandwidth row: access read, no figure made up");
	evidence_free(ev);
	CHECK(k, !load(ev, fx, "rbt-strix-halo-unindented.txt") && ev->file[0].formats == EV_FMT_ROCM_BW &&
	      ev->nr_gpus == 1 && ev->gpu_bus[0] == 0xc3 && near(ev->uni_on.v[0][0], 212.588) &&
	      !ev->uni_off.have,
	      "evidence: rocm_bandwidth_test unindented, one GPU: its local copy, no pair");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "Device: 0,  CPU\nDevice: 1,  G,  GPU-1\nDevice: 2,  unnamed\nDevice: 3,  G,  05:0.0\n"
			    "Unidirectional copy peak bandwidth GB/s\nD/D 0 1 2 3\n0 N/A 10 10 10\n1 9 500 40 3\n"
			    "2 9 40 500 40\n3 9 41.5 4") &&
	      ev->nr_gpus == 2 && near(ev->uni_on.v[0][1], 3) && near(ev->uni_on.v[1][0], 41.5) &&
	      isnan(ev->uni_on.v[1][1]) && near(ev->uni_off.v[0][1], 9) && ev->can_access[0][1] == -1,
	      "evidence: rocm_bandwidth_test cut mid-row, a device of unknown kind: its figures unused, the rest unknown");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "Device: 999,  G,  01:0.0\nUnidirectional copy peak bandwidth GB/s\nD/D x y\n0 1 2\n"
			    "Unidirectional copy peak bandwidth GB/s [Local read / Remote write] (GPU-Executor: GFX)\n"
			    " SRC+EXE\\\\DST    CPU 00       GPU 00\n  CPU 00  ->     92.21        45.11\n") &&
	      !ev->file[0].formats && !ev->nr_gpus && !ev->uni_on.have,
	      "evidence: rocm_bandwidth_test-like lines, TransferBench's table: not read");
	evidence_free(ev);
}

/*
 * OSU's osu_bw and osu_bibw: the figure at the largest message size, a
 * GPU-to-GPU copy only where both buffers are on the device (the buffers
 * line, else the command above), as pasted (a prompt, quoted, cut, a
 * second test after it); a latency test, host buffers and a table with
 * no row give no figure.  The A100 paste is the corpus case's own file.
 */
static void osu(struct ktap *k, const char *fx, struct evidence *ev)
{
	CHECK(k, !load(ev, fx, "../../../../evidence/cases/eessi-716-a100-nv4-osu-bw/osu_bw.txt") &&
	      ev->file[0].formats == EV_FMT_OSU && ev->osu.device_buffers && !ev->osu.bidir &&
	      ev->osu.size == 33554432 && near(ev->osu.mbs, 93130.52) && ev->osu.ref.line == 32,
	      "evidence: osu_bw -d cuda D D on two A100: the largest size's figure, device buffers");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "> $ mpirun -np 2 osu_bibw -d rocm D D\n> # OSU MPI-ROCM Bi-Directional Bandwidth Test v7.0\n"
			    "> # Size      Bandwidth (MB/s)\n> 8192     525.73\n> 16384    3857.74\n> 32768    79") &&
	      ev->file[0].formats == EV_FMT_OSU && ev->osu.device_buffers && ev->osu.bidir &&
	      ev->osu.size == 32768 && near(ev->osu.mbs, 79),
	      "evidence: osu_bibw quoted, no buffers line, cut mid-figure: D D from the command, the last row kept");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "OSU MPI-CUDA Bandwidth Test v7.2\nSend Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)\n"
			    "Size      Bandwidth (MB/s)\nDatatype: MPI_CHAR.\n1                       1.01\n"
			    "4194304             87543.13\n\nsome prose after it\n") &&
	      ev->file[0].formats == EV_FMT_OSU && ev->osu.device_buffers && ev->osu.size == 4194304 &&
	      near(ev->osu.mbs, 87543.13) && ev->osu.ref.line == 6,
	      "evidence: osu_bw pasted outside a code block, its # lines turned into headings: read");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "# OSU MPI-CUDA Bandwidth Test v5.6.2\n# Send Buffer on HOST (H) and Receive Buffer on HOST (H)\n"
			    "# Size    Bandwidth (MB/s)\n1048576    11000.5\n") &&
	      ev->file[0].formats == EV_FMT_OSU && !ev->osu.device_buffers && near(ev->osu.mbs, 11000.5),
	      "evidence: osu_bw between host buffers: read, no GPU-to-GPU figure");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "# OSU MPI-CUDA Bandwidth Test v7.1\n# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)\n"
			    "# Size      Bandwidth (MB/s)\n# Datatype: MPI_CHAR.\nlibfabric:54799::cxi:mr:cxip_do_map():90<warn> failed\n"
			    "# OSU MPI-CUDA Latency Test v5.3.2\n# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)\n"
			    "# Size          Latency (us)\n0                       0.60\n") &&
	      ev->file[0].formats == EV_FMT_OSU && isnan(ev->osu.mbs) && !ev->osu.ref.line,
	      "evidence: an osu_bw that stopped before its first row, a latency test: no figure made up");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "# OSU MPI Bandwidth\n# Size Bandwidth (MB/s)\n1 2\nosu_bw D D\n# Size Bandwidth (MB/s)\n"
			    "4096 fast\n99999999999999999999999 1e300\n") &&
	      !ev->file[0].formats && isnan(ev->osu.mbs),
	      "evidence: OSU-like lines without a bandwidth test's title: not read");
	evidence_free(ev);
}

/*
 * topo -p2p's mode from the command pasted above its table: n, a and p
 * answer for NVLink, atomics and prop, not for peer access (NS under n is
 * a pair without NVLink).  The table is club-3090's -p2p of two RTX 5090.
 */
static void topo_p2p_modes(struct ktap *k, struct evidence *ev)
{
	static const char table[] =
		" \tGPU0\tGPU1\t\n GPU0\tX\tGNS\t\n GPU1\tGNS\tX\t\n\nLegend:\n\n  X    = Self\n"
		"  OK   = Status Ok\n  CNS  = Chipset not supported\n";
	static const char *const cmd[] = {
		"$ nvidia-smi topo -p2p n\n", "`nvidia-smi topo -p2p a`\n", "nvidia-smi topo --p2pstatus p\n",
		"$ nvidia-smi topo -p2p r\n", "$ nvidia-smi topo -p2p w\n", "# topo -p2p rw\n", "",
	};
	char text[512];
	size_t i;
	bool ok = true;

	for (i = 0; i < sizeof(cmd) / sizeof(cmd[0]); i++) {
		bool access = i >= 3;

		snprintf(text, sizeof(text), "%s%s", cmd[i], table);
		ok = ok && !load_text(ev, text) && ev->file[0].formats == EV_FMT_TOPO_P2P &&
		     (ev->p2p_status[0][1] == EV_P2P_GNS) == access && (ev->p2p_gpus == 2) == access;
		if (!ok)
			printf("# topo -p2p mode: %s", cmd[i][0] ? cmd[i] : "none\n");
		evidence_free(ev);
	}
	CHECK(k, ok, "evidence: topo -p2p n, a and p read but not as peer access; r, w or no command as peer access");
}

/* Consumer parts by name: GeForce and TITAN, and GeForce RTX numbers without the word. */
static void consumer_names(struct ktap *k)
{
	static const char *const consumer[] = {
		"NVIDIA GeForce RTX 4090", "RTX 4090", "NVIDIA TITAN RTX", "RTX 3060 Ti",
		"GeForce GTX 1080 Ti", "NVIDIA RTX 2080", "RTX 5090",
	};
	static const char *const not_consumer[] = {
		"NVIDIA RTX 4000 Ada Generation", "Quadro RTX 8000", "NVIDIA RTX A6000",
		"NVIDIA RTX 4500 Ada Generation", "NVIDIA RTX 5000 Ada Generation",
		"NVIDIA RTX 5880 Ada Generation", "NVIDIA H100 80GB HBM3", "RTX 40900", "",
	};
	size_t i;
	bool ok = true;

	for (i = 0; i < sizeof(consumer) / sizeof(consumer[0]); i++)
		if (!ev_consumer_gpu(consumer[i])) {
			printf("# not taken for a consumer part: %s\n", consumer[i]);
			ok = false;
		}
	for (i = 0; i < sizeof(not_consumer) / sizeof(not_consumer[0]); i++)
		if (ev_consumer_gpu(not_consumer[i])) {
			printf("# taken for a consumer part: %s\n", not_consumer[i]);
			ok = false;
		}
	CHECK(k, ok, "evidence: GeForce and TITAN names are consumer parts, workstation RTX ones are not");
}

/* nvbandwidth's host copies: each GPU's figure per case, from its own table. */
static void nvbandwidth_host(struct ktap *k, const char *fx, struct evidence *ev)
{
	const struct ev_host_copies *ce = ev->nvbw_host[EV_COPY_CE],
				    *sm = ev->nvbw_host[EV_COPY_SM];

	CHECK(k, !load(ev, fx, "nvbandwidth-h100-580-host.txt") &&
	      ev->file[0].formats == EV_FMT_NVBW_TEXT && ev->nr_gpus == 1 &&
	      ce[EV_HOST_H2D].n == 1 && near(ce[EV_HOST_H2D].gbs[0], 49.61) &&
	      near(ce[EV_HOST_D2H].gbs[0], 53.80) &&
	      near(ce[EV_HOST_BIDIR_H2D].gbs[0], 42.47) &&
	      near(ce[EV_HOST_BIDIR_D2H].gbs[0], 26.17) &&
	      ce[EV_HOST_BIDIR_D2H].ref.line == 32 &&
	      near(sm[EV_HOST_H2D].gbs[0], 30.87) && near(sm[EV_HOST_BIDIR_D2H].gbs[0], 26.54) &&
	      !ev->nvbw_d2d.have,
	      "evidence: nvbandwidth's host copies, CE and SM, one way and both, each from its own case (not all_to_host)");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "memcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)\n"
			    "           0         1\n 0     25.10     24.90\n"
			    "memcpy CE CPU(row) <-> GPU(column) bandwidth (GB/s)\n"
			    "           0         1\n 0     20.00     21.00\n") &&
	      ce[EV_HOST_D2H].n == 2 && near(ce[EV_HOST_D2H].gbs[1], 24.90) &&
	      ce[EV_HOST_D2H].ref.line == 1 &&
	      !ce[EV_HOST_BIDIR_H2D].have && !ce[EV_HOST_BIDIR_D2H].have,
	      "evidence: nvbandwidth host tables pasted without their case names: one way by the arrow, both ways not guessed");
	evidence_free(ev);
	CHECK(k, !load_text(ev, "{\"nvbandwidth\": {\"testcases\": [\n"
			    "{\"name\": \"device_to_host_bidirectional_memcpy_sm\", \"status\": \"Passed\",\n"
			    " \"bandwidth_matrix\": [[\"26.54\", \"N/A\"]]},\n"
			    "{\"name\": \"host_to_all_memcpy_ce\", \"status\": \"Passed\",\n"
			    " \"bandwidth_matrix\": [[\"48.00\"]]}]}}\n") &&
	      ev->file[0].formats == EV_FMT_NVBW_JSON &&
	      sm[EV_HOST_BIDIR_D2H].n == 2 && near(sm[EV_HOST_BIDIR_D2H].gbs[0], 26.54) &&
	      isnan(sm[EV_HOST_BIDIR_D2H].gbs[1]) && sm[EV_HOST_BIDIR_D2H].ref.line == 2 &&
	      !ce[EV_HOST_H2D].have,
	      "evidence: nvbandwidth --json's host copies by case name, N/A unknown, host_to_all not one GPU's");
	evidence_free(ev);
}

void test_evidence(struct ktap *k, const char *fixtures)
{
	struct evidence *ev = malloc(sizeof(*ev));

	if (!ev) {
		CHECK(k, 0, "evidence: memory for the model");
		return;
	}
	p2pbw(k, fixtures, ev);
	topo(k, fixtures, ev);
	others(k, fixtures, ev);
	nvbandwidth_host(k, fixtures, ev);
	sockets(k, fixtures, ev);
	verbose_model(k, fixtures, ev);
	pasting(k, fixtures, ev);
	device_line_order(k, ev);
	cut_fault_address(k, ev);
	smi_links(k, fixtures, ev);
	nvlink(k, fixtures, ev);
	simple_p2p(k, fixtures, ev);
	topo_p2p_modes(k, ev);
	consumer_names(k);
	rocm_smi_topo(k, fixtures, ev);
	rocm_bandwidth(k, fixtures, ev);
	osu(k, fixtures, ev);
	free(ev);
}
