// SPDX-License-Identifier: GPL-2.0
/*
 * The outputs: JSON schema 1 keys, the Prometheus textfile written by
 * rename, baselines saved and checked (and broken baselines refused).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "tool_util.h"
#include "report/baseline.h"
#include "judge/causes.h"
#include "judge/judge.h"
#include "report/report.h"

void test_reports(struct ktap *k);

static int has_keys(struct json_object *o, const char *const *keys, char *why,
		    size_t whylen)
{
	struct json_object *v;

	for (; *keys; keys++)
		if (!json_object_object_get_ex(o, *keys, &v)) {
			snprintf(why, whylen, "missing key '%s'", *keys);
			return 0;
		}
	return 1;
}

static struct json_object *first(struct json_object *root, const char *key)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(root, key, &arr) ||
	    !json_object_is_type(arr, json_type_array) ||
	    !json_object_array_length(arr))
		return NULL;
	return json_object_array_get_idx(arr, 0);
}

/* The report as --json writes it, read back: NULL when either fails. */
static struct json_object *report_json_tree(const struct check_run *r)
{
	struct json_object *root = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (!report_json_print(f, r) && !fflush(f))
		root = json_tokener_parse(text);
	fclose(f);
	free(text);
	return root;
}

static struct gpu_state *one_gpu_pair(void)
{
	struct gpu_state *st = calloc(1, sizeof(*st));

	if (!st)
		abort();
	st->stuck_pair = st->stuck_dev = -1;
	st->nr_dev = 2;
	st->dev[0].pci_addr = P2PD_ADDR(0, 3, 0, 0);
	st->dev[1].pci_addr = P2PD_ADDR(0, 4, 0, 0);
	strcpy(st->dev[0].name, "GPU \"quoted\"\nname");
	strcpy(st->dev[1].name, "GPU");
	st->dev[0].h2d = (struct gpu_figure){ true, 25.0, 25, 25, 3, VERIFY_OK };
	st->dev[0].link = (struct gpu_link_reading){ true, 1, 16, 4, 16, 4, 16 };
	st->dev[1].h2d = st->dev[0].h2d;
	st->pair = calloc(2, sizeof(*st->pair));
	st->nr_pairs = 2;
	st->pair[0].src = 0;
	st->pair[0].dst = 1;
	st->pair[1].src = 1;
	st->pair[1].dst = 0;
	st->pair[0].cuda_valid = st->pair[1].cuda_valid = true;
	st->pair[0].can_access = st->pair[1].can_access = 1;
	st->pair[0].p2p = (struct gpu_figure){ true, 26.0, 26, 26, 3, VERIFY_OK };
	st->pair[1].p2p = st->pair[0].p2p;
	return st;
}

static void json_tests(struct ktap *k, struct check_run *r)
{
	static const char *const top[] = { "schema", "source", "generation",
		"kernel_release", "p2pdma_list", "devices",
		"pairs", "gpus", "findings", "summary", NULL };
	static const char *const pair_keys[] = { "a", "b", "class", "verdict", "map",
		"blockers", "fix", "cuda", "nvml", "bw", "latency_us", "verified", NULL };
	static const char *const bw_keys[] = { "p2p_gbs", "staged_gbs", "bidir_gbs",
		"expected_gbs", "ratio", NULL };
	static const char *const cuda_keys[] = { "can_access", "perf_rank",
		"native_atomics", NULL };
	static const char *const gpu_keys[] = { "addr", "h2d_gbs", "d2h_gbs", "link", NULL };
	static const char *const finding_keys[] = { "severity", "code", "message", "fix", NULL };
	static const char *const device_keys[] = { "addr", "role", "parent", "acs_ctrl",
		"link_speed", "iommu_domain", "p2p_endpoint", NULL };
	struct json_object *root = report_json_tree(r), *v, *p, *bw, *cuda;
	const char *text;
	char why[128] = "";

	CHECK(k, root && json_object_object_get_ex(root, "schema", &v) &&
		 json_object_get_int(v) == 1, "json: schema is 1");
	ktap_result(k, root && has_keys(root, top, why, sizeof(why)), why,
		    "json: top-level keys of schema 1");
	p = root ? first(root, "pairs") : NULL;
	ktap_result(k, p && has_keys(p, pair_keys, why, sizeof(why)), why,
		    "json: pairs[] keys");
	bw = p && json_object_object_get_ex(p, "bw", &bw) ? bw : NULL;
	ktap_result(k, bw && has_keys(bw, bw_keys, why, sizeof(why)), why,
		    "json: pairs[].bw keys");
	cuda = p && json_object_object_get_ex(p, "cuda", &cuda) ? cuda : NULL;
	ktap_result(k, cuda && has_keys(cuda, cuda_keys, why, sizeof(why)), why,
		    "json: pairs[].cuda keys");
	v = root ? first(root, "gpus") : NULL;
	ktap_result(k, v && has_keys(v, gpu_keys, why, sizeof(why)), why, "json: gpus[] keys");
	v = root ? first(root, "findings") : NULL;
	ktap_result(k, v && has_keys(v, finding_keys, why, sizeof(why)), why,
		    "json: findings[] keys");
	v = root ? first(root, "devices") : NULL;
	ktap_result(k, v && has_keys(v, device_keys, why, sizeof(why)), why,
		    "json: devices[] keys (the ABI's field names)");
	/* a name with quotes and a newline survives a round trip */
	text = root ? json_object_to_json_string(root) : NULL;
	{
		struct json_object *back = text ? json_tokener_parse(text) : NULL, *g, *n;

		g = back ? first(back, "gpus") : NULL;
		CHECK(k, g && json_object_object_get_ex(g, "name", &n) &&
			 !strcmp(json_object_get_string(n), "GPU \"quoted\"\nname"),
		      "json: strings are escaped by json-c (quotes, newline)");
		json_object_put(back);
	}
	json_object_put(root);
}

static void prom_tests(struct ktap *k, struct check_run *r)
{
	char *dir = make_tmpdir(), path[PATH_MAX], tmp[PATH_MAX + 8], err[512];
	struct stat before, after;
	char *text;
	int rc;

	snprintf(path, sizeof(path), "%s/p2pdiag.prom", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	write_file(path, "stale_metric 1\n", 15);
	stat(path, &before);
	rc = report_prom_write(path, r, 1, PROM_PAIRS_NOT_OK, err, sizeof(err));
	stat(path, &after);
	text = read_whole(path, NULL);
	ktap_result(k, !rc && text && !strstr(text, "stale_metric") &&
		       strstr(text, "# TYPE p2pdiag_exit_status gauge\np2pdiag_exit_status 1\n") &&
		       strstr(text, "p2pdiag_pair_info{a=\"0000:03:00.0\",b=\"0000:04:00.0\",class=\"PIX\",verdict=\"redirected\"} 1") &&
		       strstr(text, "p2pdiag_gpu_pair_bandwidth_bytes_per_second{src=\"00000000:03:00.0\",dst=\"00000000:04:00.0\",kind=\"p2p\"} 26000000000\n") &&
		       strstr(text, "p2pdiag_gpu_link_gen{pci_bus_id=\"00000000:03:00.0\",state=\"idle\"} 1\n") &&
		       strstr(text, "p2pdiag_gpu_link_width{pci_bus_id=\"00000000:03:00.0\",state=\"load\"} 16\n"),
		    err, "prometheus: textfile format with verdicts, bandwidth and exit status");
	CHECK(k, !rc && before.st_ino != after.st_ino && access(tmp, F_OK) != 0,
	      "prometheus: written beside and renamed over (new inode, no .tmp left)");
	free(text);
	snprintf(path, sizeof(path), "%s/no/such/dir/p.prom", dir);
	rc = report_prom_write(path, r, 0, PROM_PAIRS_ALL, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, path) &&
		    strstr(err, "No such file or directory"), err,
		    "prometheus: an unwritable place is a clear error, naming the file");
	remove_tree(dir);
	free(dir);
}

static void baseline_tests(struct ktap *k, struct check_run *r,
			   const struct p2pd_model *m)
{
	char *dir = make_tmpdir(), path[PATH_MAX], err[512];
	struct p2pd_model other;
	struct check_run r2;
	struct options o;
	int rc;

	snprintf(path, sizeof(path), "%s/base.json", dir);
	rc = baseline_save(path, r, err, sizeof(err));
	ktap_result(k, !rc && access(path, R_OK) == 0, err, "baseline: saved");

	findings_free(&r->judged.findings);
	rc = baseline_check(path, r, 0.10, err, sizeof(err));
	ktap_result(k, !rc && r->judged.findings.nr == 0,
		    r->judged.findings.nr ? r->judged.findings.item[0].message : err,
		    "baseline: the same run matches its own baseline");

	/* another server: ACS off under the switch, a GPU missing, slower P2P */
	switch_model(&other, 0, 0x8086);
	other.nr_fn = 8;		/* the last function, 05:00.0, is gone */
	options_defaults(&o);
	judge_run(&r2, &other, &o);
	r2.in.gpu = r->in.gpu;
	((struct gpu_state *)r->in.gpu)->pair[0].p2p.median = 20.0;	/* -23% */
	rc = baseline_check(path, &r2, 0.10, err, sizeof(err));
	ktap_result(k, !rc && findings_count_code(&r2.judged.findings, "baseline-verdict") == 1 &&
		       findings_count_code(&r2.judged.findings, "baseline-topology") == 1 &&
		       findings_count_code(&r2.judged.findings, "baseline-device") == 3 &&
		       findings_count_code(&r2.judged.findings, "baseline-bw") == 1,
		    err, "baseline: verdict, missing GPU, ACS control of 3 ports and -23%% bandwidth found");
	findings_free(&r2.judged.findings);
	rc = baseline_check(path, &r2, 0.30, err, sizeof(err));
	CHECK(k, !rc && findings_count_code(&r2.judged.findings, "baseline-bw") == 0,
	      "baseline: within --tolerance 0.30 the bandwidth passes");
	findings_free(&r2.judged.findings);
	judge_release(&r2);
	free(other.fn);
	((struct gpu_state *)r->in.gpu)->pair[0].p2p.median = 26.0;

	write_file(path, "{ not json", 10);
	rc = baseline_check(path, r, 0.1, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "not valid JSON"), err,
		    "baseline: a broken file is refused");
	write_file(path, "{\"schema\": 2, \"tool\": \"p2pdiag-check\"}", 38);
	rc = baseline_check(path, r, 0.1, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "schema 1"), err,
		    "baseline: another schema is refused");
	snprintf(path, sizeof(path), "%s/missing.json", dir);
	rc = baseline_check(path, r, 0.1, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "cannot read"), err,
		    "baseline: a missing file is refused");
	(void)m;
	remove_tree(dir);
	free(dir);
}

static char *render(const struct check_run *r, bool colour, bool verbose)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	report_text(f, r, colour, verbose);
	fclose(f);
	return buf;
}

static void text_tests(struct ktap *k, struct check_run *r)
{
	struct gpu_state *st = (struct gpu_state *)r->in.gpu;
	char *plain, *colour;

	plain = render(r, false, false);
	CHECK(k, strstr(plain, "source: test (unit test), generation 7, 9 functions, 3 pairs judged") &&
		 strstr(plain, "        GPU0   GPU1   GPU2   NUMA Affinity\n") &&
		 strstr(plain, "GPU0     X     PIX    PIX    0\n") &&
		 strstr(plain, "GPU2    PIX    PIX     X     0\n"),
	      "text: class matrix in nvidia-smi topo -m layout, X on the diagonal");
	CHECK(k, strstr(plain, "GPU0     X     redir  redir") &&
		 !strstr(plain, "a=0000:03:00.0 b=0000:04:00.0 class=PIX verdict=redirected"),
	      "text: verdict matrix; the pairs' ABI lines only with --verbose");
	CHECK(k, strstr(plain, "P2P bandwidth, one way (GB/s)") && strstr(plain, "26.0"),
	      "text: bandwidth matrix");
	CHECK(k, strstr(plain, "\nP2P here: works, but not as it should. 3 pairs judged: 3 redirected through the root complex\n"
			       "Do this: boot with this one kernel parameter, then run p2pdiag-check again\n"
			       "    pci=disable_acs_redir=0000:02:08.0;0000:02:10.0;0000:02:18.0\n") &&
		 strstr(plain, "(3 downstream_port), all in one list"),
	      "text: the first lines say how P2P is and give the one parameter for all three ports");
	CHECK(k, strstr(plain, "  warning acs-redirect  3 pairs: GPU0-GPU1, GPU0-GPU2, GPU1-GPU2\n") &&
		 strstr(plain, "    fix: the kernel parameter above\n") &&
		 !strstr(plain, "fix: kernel command line: ") &&
		 !strstr(plain, "  warning acs-redirect\n"),
	      "text: one cause line for the three pairs' redirect findings, no per-pair fix");
	{
		char *v = render(r, false, true);

		CHECK(k, strstr(v, "a=0000:03:00.0 b=0000:04:00.0 class=PIX verdict=redirected") &&
			 strstr(v, "  warning acs-redirect\n") &&
			 strstr(v, "    fix: kernel command line: ") &&
			 strstr(v, "    setpci -s 0000:02:08.0 ECAP_ACS+0x6.w=0011\n"),
		      "text: --verbose adds the pair lines, each finding with its own fix, the setpci lines");
		free(v);
	}
	CHECK(k, !strchr(plain, '\033'), "text: no escape sequences without a terminal");
	colour = render(r, true, false);
	CHECK(k, strstr(colour, "\033[33mredir  \033[0m") && strstr(colour, "\033[31m") == NULL,
	      "text: colour on a terminal (a warning's yellow; no red without errors)");
	free(colour);
	free(plain);

	st->pair[0].nvlinks = st->pair[1].nvlinks = 18;
	plain = render(r, false, false);
	CHECK(k, strstr(plain, "GPU0     X     NV18   PIX"), "text: NVLink pairs show NV# as nvidia-smi does");
	st->pair[0].nvlinks = st->pair[1].nvlinks = 0;
	free(plain);
}

void test_reports(struct ktap *k)
{
	struct p2pd_model m;
	struct options o;
	struct check_run r;
	struct gpu_state *st = one_gpu_pair();

	switch_model(&m, 0x001d, 0x8086);
	options_defaults(&o);
	judge_run(&r, &m, &o);
	r.in.gpu = st;
	r.in.gpu_measured = true;
	judge_topology(&r);
	judge_gpus(&r);
	causes_build(&r, &r.judged.causes);

	text_tests(k, &r);
	json_tests(k, &r);
	prom_tests(k, &r);
	baseline_tests(k, &r, &m);

	causes_free(&r.judged.causes);
	findings_free(&r.judged.findings);
	judge_release(&r);
	free(st->pair);
	free(st);
	free(m.fn);
}
