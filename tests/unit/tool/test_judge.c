// SPDX-License-Identifier: GPL-2.0
/*
 * Judgement: topology findings from the engine's pairs, and GPU findings
 * from a hand-filled struct gpu_state: each finding the issue names, with
 * its severity and the exit status it leads to.
 */
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"
#include "judge/judge.h"
#include "judge/judge_expect.h"
#include "judge/nccl_link.h"
#include "judge/outcome.h"
#include "p2pdiag/verdict.h"

void test_judge(struct ktap *k);

static struct gpu_figure figure(double v)
{
	struct gpu_figure f = { 0 };

	f.valid = true;
	f.median = f.min = f.max = v;
	f.samples = 3;
	f.verify = VERIFY_OK;
	return f;
}

/* Three GPUs at 03/04/05:00.0, all six ordered pairs, healthy figures. */
static struct gpu_state *gpus(void)
{
	struct gpu_state *st = calloc(1, sizeof(*st));
	unsigned int i, s, d;

	if (!st)
		abort();
	st->cuda = st->nvml = GPU_OK;
	st->stuck_pair = st->stuck_dev = -1;
	st->nr_dev = 3;
	for (i = 0; i < 3; i++) {
		struct gpu_device *g = &st->dev[i];

		g->ordinal = (int)i;
		g->pci_addr = P2PD_ADDR(0, 3 + i, 0, 0);
		strcpy(g->name, "NVIDIA H100 PCIe");
		g->h2d = g->d2h = figure(25.0);
		g->link = (struct gpu_link_reading){ true, 1, 16, 4, 16, 4, 16 };
	}
	st->pair = calloc(6, sizeof(*st->pair));
	if (!st->pair)
		abort();
	for (s = 0; s < 3; s++)
		for (d = 0; d < 3; d++) {
			struct gpu_pair *p;

			if (s == d)
				continue;
			p = &st->pair[st->nr_pairs++];
			p->src = (int)s;
			p->dst = (int)d;
			p->cuda_valid = true;
			p->can_access = 1;
			p->p2p = figure(26.0);
			p->p2p_bidir = figure(25.0);	/* this direction's share */
			p->staged = figure(12.0);
		}
	return st;
}

static struct gpu_pair *pair(struct gpu_state *st, int s, int d)
{
	return (struct gpu_pair *)run_gpu_pair(st, s, d);
}

struct fixture {
	struct p2pd_model m;
	struct options o;
	struct check_run r;
	struct gpu_state *st;
};

static void setup(struct fixture *f, unsigned int dsp_acs, unsigned int host_vendor)
{
	switch_model(&f->m, dsp_acs, host_vendor);
	options_defaults(&f->o);
	judge_run(&f->r, &f->m, &f->o);
	f->st = gpus();
	f->r.in.gpu = f->st;
	f->r.in.gpu_measured = true;
}

static void teardown(struct fixture *f)
{
	findings_free(&f->r.judged.findings);
	judge_release(&f->r);
	free(f->st->pair);
	free(f->st);
	free(f->m.fn);
}

static void run_all(struct fixture *f)
{
	judge_topology(&f->r);
	judge_gpus(&f->r);
}

static size_t count(const struct fixture *f, const char *code)
{
	return findings_count_code(&f->r.judged.findings, code);
}

static const struct finding *find(const struct fixture *f, const char *code)
{
	size_t i;

	for (i = 0; i < f->r.judged.findings.nr; i++)
		if (!strcmp(f->r.judged.findings.item[i].code, code))
			return &f->r.judged.findings.item[i];
	return NULL;
}

static void expect_only(struct ktap *k, struct fixture *f, const char *code,
			enum finding_severity sev, int exit_status, const char *what)
{
	const struct finding *it = find(f, code);
	char why[512];

	snprintf(why, sizeof(why), "%zu findings, first '%s': %s", f->r.judged.findings.nr,
		 f->r.judged.findings.nr ? f->r.judged.findings.item[0].code : "",
		 f->r.judged.findings.nr ? f->r.judged.findings.item[0].message : "");
	ktap_result(k, it && it->severity == sev &&
		       outcome_exit_status(&f->r.judged.findings) == exit_status, why,
		    "judge: %s -> %s (%s, exit %d)", what, code,
		    finding_severity_name(sev), exit_status);
}

/* The one median: the middle value, the mean of the two middle ones. */
static void test_median(struct ktap *k)
{
	double odd[] = { 9.0, 1.0, 5.0 }, even[] = { 4.0, 1.0, 3.0, 2.0 };
	double one[] = { 7.5 }, two[] = { 10.0, 20.0 };

	CHECK(k, gpu_median(odd, 3) == 5.0 && odd[0] == 1.0 && odd[2] == 9.0,
	      "median: of 9 1 5 is 5, the values left sorted");
	CHECK(k, gpu_median(even, 4) == 2.5, "median: of 4 1 3 2 is 2.5");
	CHECK(k, gpu_median(two, 2) == 15.0, "median: of two values is their mean");
	CHECK(k, gpu_median(one, 1) == 7.5, "median: of one value is that value");
	CHECK(k, gpu_median(NULL, 0) == 0, "median: of none is 0");
}

/*
 * A GPU outside the PCI snapshot is judged by the link NVML reports: its
 * generation is the Link Speed code, Gen7 (128 GT/s) included.
 */
static void test_nvml_link(struct ktap *k)
{
	static const unsigned int gen[] = { 4, 5, 6, 7 };
	static const unsigned int tenths[] = { 160, 320, 640, 1280 };
	struct judge_expect e;
	struct fixture f;
	unsigned int i;
	bool all = true;
	char why[JUDGE_BASIS_LEN + 64] = "";

	setup(&f, 0, 0x8086);
	f.st->dev[0].pci_addr = P2PD_ADDR(0, 0x40, 0, 0);	/* not in the snapshot */
	for (i = 0; i < sizeof(gen) / sizeof(gen[0]); i++) {
		char want[32];

		f.st->dev[0].link = (struct gpu_link_reading){
			.valid = true, .max_gen = gen[i], .max_width = 16,
		};
		judge_expect_device(&f.r, 0, JF_H2D, &e);
		snprintf(want, sizeof(want), "Gen%u x16", gen[i]);
		if (e.value <= 0 || e.value != judge_pcie_gbs(tenths[i], 16) ||
		    !strstr(e.basis, want)) {
			all = false;
			snprintf(why, sizeof(why), "Gen%u: %.1f GB/s, %s", gen[i],
				 e.value, e.basis);
		}
	}
	ktap_result(k, all, why,
		    "judge: a GPU outside the snapshot is expected at its NVML link, Gen4 to Gen7");
	f.st->dev[0].link.max_gen = 8;		/* reserved: no expectation */
	judge_expect_device(&f.r, 0, JF_H2D, &e);
	CHECK(k, e.value == 0, "judge: ... and a reserved NVML generation gives none");
	teardown(&f);
}

/*
 * NCCL's figure for a GPU's link: before 2.30.7 the lower of the GPU's and
 * its port's sysfs maximum (Gen4 x16 here: 16 x 120 / 80 = 24 GB/s), from
 * 2.30.7 NVML's current link (Gen1 x16 at idle: 16 x 15 / 80 = 3 GB/s);
 * nccl-link-current only where the library says 2.30.7 or later and the
 * current link is below the capability.
 */
static void test_nccl_link(struct ktap *k)
{
	struct nccl_link_view v;
	const struct finding *it;
	struct fixture f;
	bool old_ok, new_ok;
	int i;

	setup(&f, 0, 0x8086);
	old_ok = nccl_gpu_link(&f.r, 0, 22907, &v) && !v.from_nvml &&
		 v.speed_tenths == 160 && v.width == 16 && v.gbs == 24.0;
	new_ok = nccl_gpu_link(&f.r, 0, 23007, &v) && v.from_nvml &&
		 v.speed_tenths == 25 && v.width == 16 && v.gbs == 3.0;
	CHECK(k, old_ok && new_ok && !nccl_gpu_link(&f.r, 0, 0, &v),
	      "judge: NCCL 2.29.7 sees the sysfs maximum (24 GB/s), 2.30.7 NVML's current link (3 GB/s), no version nothing");
	teardown(&f);

	/* no library found (0), or one that reads the capability */
	for (i = 0; i < 2; i++) {
		setup(&f, 0, 0x8086);
		f.st->nccl_version = i ? 22907 : 0;
		run_all(&f);
		CHECK(k, count(&f, "nccl-link-current") == 0,
		      "judge: NCCL version %d: nothing said of NCCL's link figure",
		      f.st->nccl_version);
		teardown(&f);
	}

	setup(&f, 0, 0x8086);
	f.st->nccl_version = 23007;
	f.st->dev[1].link.gen = 4;	/* this one is at its best when NCCL reads it */
	run_all(&f);
	it = find(&f, "nccl-link-current");
	ktap_result(k, count(&f, "nccl-link-current") == 2 && it && it->severity == SEV_INFO &&
		       it->a == P2PD_ADDR(0, 3, 0, 0) &&
		       strstr(it->message, "NCCL 2.30.7") &&
		       strstr(it->message, "2.5 GT/s x16: 3.0 GB/s") &&
		       strstr(it->message, "16.0 GT/s x16 (24.0 GB/s") &&
		       outcome_exit_status(&f.r.judged.findings) == 0,
		    it ? it->message : "none",
		    "judge: NCCL 2.30.7 with two GPUs idling at Gen1 -> two nccl-link-current notes, exit 0");
	teardown(&f);
}

void test_judge(struct ktap *k)
{
	struct fixture f;
	const struct finding *it;

	test_median(k);
	test_nvml_link(k);
	test_nccl_link(k);

	/* healthy: no findings at all */
	setup(&f, 0, 0x8086);
	run_all(&f);
	ktap_result(k, f.r.judged.findings.nr == 0 &&
		    outcome_exit_status(&f.r.judged.findings) == 0,
		    f.r.judged.findings.nr ? f.r.judged.findings.item[0].message : NULL,
		    "judge: a healthy switch with fast, verified P2P has no findings (exit 0)");
	CHECK(k, judge_expected_host_gbs(&f.r, 0) > 27.5 && judge_expected_host_gbs(&f.r, 0) < 28.5,
	      "judge: expected Gen4 x16 = 16 GT/s x 16 x 128/130 / 8 x 0.89 = 28.0 GB/s");
	teardown(&f);

	/* ACS redirect under the switch, whitelisted host bridge: redirected */
	setup(&f, 0x001d, 0x8086);
	judge_topology(&f.r);
	it = find(&f, "acs-redirect");
	ktap_result(k, it && it->severity == SEV_WARNING && it->fix &&
		       strstr(it->fix, "pci=disable_acs_redir=0000:02:08.0;0000:02:10.0") &&
		       strstr(it->fix, "setpci -s 0000:02:08.0 ECAP_ACS+0x6.w=0011") &&
		       strstr(it->fix, "lost at reboot") && !strstr(it->fix, "noacs") &&
		       !strstr(it->fix, "iommu=pt") && strstr(it->message, "RR+CR"),
		    it ? it->fix : "no acs-redirect finding",
		    "judge: ACS 0x1d on the downstream ports -> acs-redirect with the kernel parameter and setpci lines");
	CHECK(k, count(&f, "acs-redirect") == 3, "judge: one acs-redirect per GPU pair (3)");
	judge_gpus(&f.r);
	expect_only(k, &f, "contradiction-redirected-but-cuda-ok", SEV_WARNING, 1,
		    "redirected pair, CUDA says peer access works");
	teardown(&f);

	/* ACS redirect and a host bridge that does not route P2P: blocked */
	setup(&f, 0x001d, 0x1022);
	run_all(&f);
	expect_only(k, &f, "acs-redirect", SEV_ERROR, 2,
		    "redirect to a host bridge that does not route P2P");
	expect_only(k, &f, "contradiction-blocked-but-cuda-ok", SEV_ERROR, 2,
		    "blocked pair, CUDA says peer access works");
	teardown(&f);

	/* topology ok, CUDA refuses */
	setup(&f, 0, 0x8086);
	pair(f.st, 1, 2)->can_access = pair(f.st, 2, 1)->can_access = 0;
	run_all(&f);
	expect_only(k, &f, "contradiction-ok-but-cuda-refuses", SEV_WARNING, 1,
		    "direct path, CUDA refuses peer access");
	teardown(&f);

	/* peer access one way only: its own finding, naming the direction */
	setup(&f, 0, 0x8086);
	pair(f.st, 0, 1)->can_access = 0;
	run_all(&f);
	it = find(&f, "peer-access-one-way");
	ktap_result(k, it && it->severity == SEV_WARNING &&
		       it->a == P2PD_ADDR(0, 3, 0, 0) && it->b == P2PD_ADDR(0, 4, 0, 0) &&
		       strstr(it->message, "refuses GPU 0000:03:00.0 access to GPU 0000:04:00.0's memory") &&
		       it->fix && strstr(it->fix, "Above 4G Decoding") &&
		       !count(&f, "contradiction-ok-but-cuda-refuses"),
		    it ? it->message : "none",
		    "judge: CanAccessPeer(0,1)=0, (1,0)=1 -> peer-access-one-way naming 03 -> 04, no contradiction");
	teardown(&f);

	/* a CUDA 13.5 driver checks ACS itself: its refusal agrees */
	setup(&f, 0x001d, 0x8086);
	f.st->driver_version = 13050;
	pair(f.st, 0, 1)->can_access = pair(f.st, 1, 0)->can_access = 0;
	run_all(&f);
	it = find(&f, "cuda-refuses-as-topology");
	ktap_result(k, it && it->severity == SEV_INFO &&
		       strstr(it->message, "ACS redirects") &&
		       count(&f, "contradiction-redirected-but-cuda-ok") == 2,
		    it ? it->message : "none",
		    "judge: 13.5 driver refuses a redirected pair -> cuda-refuses-as-topology naming the redirect (the other pairs still contradict)");
	teardown(&f);

	/* ... and a yes under its override is forced, not a contradiction */
	setup(&f, 0x001d, 0x8086);
	f.st->driver_version = 13050;
	f.st->acs_check_overridden = true;
	run_all(&f);
	it = find(&f, "cuda-peer-forced");
	ktap_result(k, it && it->severity == SEV_WARNING && count(&f, "cuda-peer-forced") == 3 &&
		       strstr(it->message, "forced yes, no evidence") &&
		       !count(&f, "contradiction-redirected-but-cuda-ok"),
		    it ? it->message : "none",
		    "judge: 13.5 driver, check overridden, redirected pairs -> cuda-peer-forced, no contradiction");
	teardown(&f);

	/* ... while a direct path it refuses names the driver's check */
	setup(&f, 0, 0x8086);
	f.st->driver_version = 13050;
	pair(f.st, 1, 2)->can_access = pair(f.st, 2, 1)->can_access = 0;
	run_all(&f);
	it = find(&f, "contradiction-ok-but-cuda-refuses");
	ktap_result(k, it && strstr(it->message, "checks IOMMU and ACS itself") &&
		       it->fix && strstr(it->fix, "CUDA_DISABLE_IOMMU_ACS_P2P_CAPABILITY_CHECK=1") &&
		       !strstr(it->fix, "GeForce"),
		    it ? it->message : "none",
		    "judge: 13.5 driver refuses a direct path -> its own check named, not GeForce or VM causes");
	teardown(&f);

	/* fake P2P: no faster than staging */
	setup(&f, 0, 0x8086);
	pair(f.st, 0, 1)->p2p = figure(12.5);
	pair(f.st, 0, 1)->staged = figure(12.0);
	run_all(&f);
	expect_only(k, &f, "fake-p2p", SEV_ERROR, 2, "P2P 12.5 GB/s vs staged 12.0 GB/s");
	CHECK(k, count(&f, "bw-low") == 1, "judge: ... and bw-low for the same copy");
	teardown(&f);

	/* corrupt data while CUDA says OK: data-corrupt and fake-p2p */
	setup(&f, 0, 0x8086);
	pair(f.st, 0, 2)->p2p.verify = VERIFY_ZEROS;
	run_all(&f);
	it = find(&f, "data-corrupt");
	ktap_result(k, it && it->severity == SEV_ERROR && strstr(it->message, "dropped") &&
		       count(&f, "fake-p2p") == 1 && outcome_exit_status(&f.r.judged.findings) == 2,
		    it ? it->message : "none", "judge: zeros after a P2P copy -> data-corrupt (writes dropped) and fake-p2p, exit 2");
	teardown(&f);

	/* all ones */
	setup(&f, 0, 0x8086);
	f.st->dev[1].h2d.verify = VERIFY_ONES;
	run_all(&f);
	it = find(&f, "data-corrupt");
	ktap_result(k, it && strstr(it->message, "unsupported request") && count(&f, "fake-p2p") == 0,
		    it ? it->message : "none", "judge: all ones in a host copy -> data-corrupt (unsupported request), not fake-p2p");
	teardown(&f);

	/* low bandwidth */
	setup(&f, 0, 0x8086);
	pair(f.st, 2, 0)->p2p = figure(20.0);	/* 20 / 28.0 = 0.71 */
	run_all(&f);
	it = find(&f, "bw-low");
	expect_only(k, &f, "bw-low", SEV_WARNING, 1, "P2P 20.0 of 28.0 GB/s");
	CHECK(k, it && it->has_pair && it->a == P2PD_ADDR(0, 5, 0, 0) && it->b == P2PD_ADDR(0, 3, 0, 0),
	      "judge: bw-low names the pair src, dst");
	f.r.in.params.min_ratio = 0.7;	/* --min-ratio 0.7, as main.c passes it */
	findings_free(&f.r.judged.findings);
	run_all(&f);
	CHECK(k, count(&f, "bw-low") == 0, "judge: --min-ratio 0.7 accepts 0.71");
	teardown(&f);

	/* hairpin: both ways at once no more than one way */
	setup(&f, 0, 0x8086);
	pair(f.st, 0, 1)->p2p_bidir = figure(13.0);
	pair(f.st, 1, 0)->p2p_bidir = figure(13.0);
	run_all(&f);
	expect_only(k, &f, "hairpin", SEV_WARNING, 1, "one way 26, both ways 13 + 13");
	teardown(&f);

	/* sibling outlier */
	setup(&f, 0, 0x8086);
	f.st->dev[2].h2d = figure(21.0);	/* median 25: 16% below */
	run_all(&f);
	it = find(&f, "sibling-outlier");
	expect_only(k, &f, "sibling-outlier", SEV_WARNING, 1, "one GPU 16% below its two siblings");
	CHECK(k, it && it->a == P2PD_ADDR(0, 5, 0, 0), "judge: the outlier named is 05:00.0");
	f.st->dev[2].h2d = figure(23.0);	/* 8% below: fine */
	findings_free(&f.r.judged.findings);
	run_all(&f);
	CHECK(k, count(&f, "sibling-outlier") == 0, "judge: 8%% below the median is no outlier");
	teardown(&f);

	/* link degraded under load */
	setup(&f, 0, 0x8086);
	f.st->dev[0].link.gen_load = 3;
	run_all(&f);
	expect_only(k, &f, "link-degraded", SEV_WARNING, 1, "Gen3 under load on a Gen4 link");
	teardown(&f);

	/* lanes missing in the topology */
	setup(&f, 0, 0x8086);
	f.m.fn[7].link.width = 8;
	run_all(&f);
	it = find(&f, "link-degraded");
	ktap_result(k, it && strstr(it->message, "x8 of x16"), it ? it->message : "none",
		    "judge: a GPU link trained x8 of x16 -> link-degraded");
	teardown(&f);

	/* a copy that hung */
	setup(&f, 0x001d, 0x1022);
	f.st->measure = GPU_TIMEOUT;
	f.st->stuck_pair = 0;
	snprintf(f.st->stuck_step, sizeof(f.st->stuck_step), "p2p 0000:03:00.0 -> 0000:04:00.0");
	pair(f.st, 0, 1)->status = GPU_TIMEOUT;
	run_all(&f);
	it = find(&f, "copy-timeout");
	ktap_result(k, it && it->severity == SEV_ERROR && count(&f, "copy-timeout") == 1 &&
		       strstr(it->message, "0000:03:00.0 -> 0000:04:00.0") &&
		       strstr(it->message, "ACS redirect"),
		    it ? it->message : "none",
		    "judge: the watchdog's timeout -> one copy-timeout naming the pair and ACS redirect");
	teardown(&f);

	/* counters */
	setup(&f, 0, 0x8086);
	f.st->dev[0].before = (struct gpu_counters){ true, 10, 0, 0, 0 };
	f.st->dev[0].after = (struct gpu_counters){ true, 50, 0, 0, 1 };
	run_all(&f);
	CHECK(k, count(&f, "pcie-replay") == 1 && count(&f, "xid") == 1,
	      "judge: replay counter and Xid rising during the run are reported");
	teardown(&f);

	/* library states */
	setup(&f, 0, 0x8086);
	f.st->cuda = GPU_NO_LIBRARY;
	f.st->nvml = GPU_NO_LIBRARY;
	f.st->nr_dev = 0;
	f.st->nr_pairs = 0;
	run_all(&f);
	expect_only(k, &f, "cuda-absent", SEV_INFO, 0, "no libcuda.so.1");
	teardown(&f);
	setup(&f, 0, 0x8086);
	f.st->cuda = GPU_INIT_FAILED;
	snprintf(f.st->error, sizeof(f.st->error), "cuInit: CUDA_ERROR_UNKNOWN");
	f.st->nr_dev = 0;
	f.st->nr_pairs = 0;
	run_all(&f);
	it = find(&f, "cuda-init-failed");
	expect_only(k, &f, "cuda-init-failed", SEV_WARNING, 1, "cuInit failing");
	CHECK(k, it && strstr(it->message, "CUDA_ERROR_UNKNOWN"), "judge: ... with the error name");
	teardown(&f);

	/* NVLink pairs are judged on NVLink: no PCIe contradiction */
	setup(&f, 0x001d, 0x1022);
	pair(f.st, 0, 1)->nvlinks = 18;
	pair(f.st, 1, 0)->nvlinks = 18;
	pair(f.st, 0, 1)->p2p = figure(380.0);
	run_all(&f);
	CHECK(k, count(&f, "contradiction-blocked-but-cuda-ok") == 2 &&
		 judge_expected_pair_gbs(&f.r, pair(f.st, 0, 1)) > 380 &&
		 judge_expected_pair_gbs(&f.r, pair(f.st, 0, 1)) < 384,
	      "judge: an NVLink pair (18 links, 382.5 GB/s expected) is not a PCIe contradiction");
	teardown(&f);

	/* topology notes and unknowns */
	setup(&f, 0x001d, 0x8086);
	f.m.fn[6].iommu_domain = P2PD_IOMMU_TRANSLATED;
	judge_release(&f.r);
	judge_run(&f.r, &f.m, &f.o);
	f.r.in.gpu = f.st;
	judge_topology(&f.r);
	it = find(&f, "iommu-translated");
	CHECK(k, count(&f, "iommu-translated") == 2 && it && it->severity == SEV_WARNING &&
		 strstr(it->message, "0000:03:00.0") && !strstr(it->fix, "iommu=pt as"),
	      "judge: a redirected pair with a translated IOMMU domain -> iommu-translated (2 pairs)");
	teardown(&f);
	setup(&f, 0, 0x8086);
	f.m.fn[4].acs = P2PD_UNKNOWN;	/* 02:10.0 unreadable */
	judge_release(&f.r);
	judge_run(&f.r, &f.m, &f.o);
	f.r.in.gpu = f.st;
	run_all(&f);
	it = find(&f, "verdict-unknown");
	ktap_result(k, count(&f, "verdict-unknown") == 2 && it &&
		       strstr(it->message, "ACS control could not be read"),
		    it ? it->message : "none",
		    "judge: an unreadable ACS control on the path -> verdict-unknown saying so");
	teardown(&f);
	setup(&f, 0, 0x8086);
	f.m.fn[6].link.speed = 25;	/* GPU 03:00.0 idles at 2.5 GT/s */
	judge_topology(&f.r);
	it = find(&f, "link-slow-idle");
	CHECK(k, it && it->severity == SEV_INFO && it->a == P2PD_ADDR(0, 3, 0, 0) &&
		 count(&f, "link-degraded") == 0,
	      "judge: a GPU link slow at idle is a note, not a degraded link");
	teardown(&f);
	setup(&f, 0, 0x8086);
	f.m.fn[2].link.speed = 80;	/* the switch uplink at 8 GT/s of 16 */
	judge_topology(&f.r);
	it = find(&f, "link-degraded");
	CHECK(k, it && it->severity == SEV_WARNING && it->a == P2PD_ADDR(0, 1, 0, 0) &&
		 strstr(it->message, "8.0 of 16.0 GT/s"),
	      "judge: a switch uplink below its speed is link-degraded");
	teardown(&f);
	setup(&f, 0, 0x8086);
	f.m.fn[1].link.max_speed = 320;	/* Gen5 root port, Gen4 switch: not degraded */
	f.m.fn[2].link.speed = 160;
	judge_topology(&f.r);
	CHECK(k, count(&f, "link-degraded") == 0,
	      "judge: a Gen4 device in a Gen5 port runs at its own best: no finding");
	teardown(&f);
	setup(&f, 0, 0x8086);
	f.st->dev[2].pci_addr = P2PD_ADDR(0, 0x40, 0, 0);
	run_all(&f);
	CHECK(k, count(&f, "gpu-not-in-topology") == 1,
	      "judge: a CUDA GPU missing from the snapshot is said");
	teardown(&f);

	/* a virtio device has no P2P data path: its pairs cannot break */
	setup(&f, 0x001d, 0x1022);
	f.m.fn[6].vendor = 0x1af4;	/* 03:00.0 is a virtio-gpu */
	judge_topology(&f.r);
	CHECK(k, count(&f, "paravirtual-pair") == 2 && count(&f, "acs-redirect") == 1 &&
		 find(&f, "paravirtual-pair")->severity == SEV_INFO,
	      "judge: pairs with a virtio device are notes (2), the others still errors (1)");
	teardown(&f);
	/* the same for every paravirtual vendor the vm-paravirtual note knows */
	{
		static const unsigned int pv[] = { 0x1414, 0x15ad, 0x5853, 0x1ae0 };
		static const char *const pv_name[] = {
			"Hyper-V", "VMware", "Xen", "Google gVNIC/gVE",
		};
		unsigned int v;

		for (v = 0; v < sizeof(pv) / sizeof(pv[0]); v++) {
			char want[64];

			setup(&f, 0x001d, 0x1022);
			f.m.fn[6].vendor = pv[v];
			judge_topology(&f.r);
			snprintf(want, sizeof(want), "a %s device is paravirtual", pv_name[v]);
			CHECK(k, count(&f, "paravirtual-pair") == 2 &&
				 count(&f, "acs-redirect") == 1 &&
				 strstr(find(&f, "paravirtual-pair")->message, want),
			      "judge: pairs with a %s device (vendor %04x) are paravirtual-pair notes",
			      pv_name[v], pv[v]);
			teardown(&f);
		}
	}

	/* --pairs limits what is judged */
	setup(&f, 0, 0x8086);
	f.o.nr_pairs = 2;
	f.o.pairs[0] = P2PD_ADDR(0, 3, 0, 0);
	f.o.pairs[1] = P2PD_ADDR(0, 4, 0, 0);
	judge_release(&f.r);
	judge_run(&f.r, &f.m, &f.o);
	f.r.in.gpu = f.st;
	f.r.in.gpu_measured = true;
	pair(f.st, 1, 2)->p2p = figure(5.0);
	run_all(&f);
	CHECK(k, count(&f, "bw-low") == 0, "judge: --pairs leaves other pairs unjudged");
	teardown(&f);
}
