// SPDX-License-Identifier: GPL-2.0
/*
 * Node labels for Kubernetes through Node Feature Discovery's local
 * source: a feature file in /etc/kubernetes/node-feature-discovery/
 * features.d/, one NAME=VALUE line per label, which nfd-worker turns into
 * labels of its node.  NFD reads every file there but dot files, so the
 * file is written as a dot file and renamed over its place
 * (platform/atomic_file.h).
 *
 * The namespace is a subdomain of feature.node.kubernetes.io, which NFD
 * publishes without extra configuration.  Every name and value keeps to
 * the label syntax (at most 63 characters, alphanumerics at both ends,
 * '-', '_' and '.' inside), and the pair labels are capped, since every
 * label is part of the node object that each scheduler decision reads.
 *
 * Every label follows NFD's "# +expiry-time=" line: nfd-worker drops
 * them at that time (--nfd-expiry after the run), so a node whose check
 * hung or stopped loses its verdict instead of keeping a stale one.
 * checked-at says when the run was; gpu-pairs-ok=true is the one label a
 * scheduler selects healthy multi-GPU nodes on; source=module tells the
 * module's DaemonSet that the module is loaded there.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "p2pdiag/decode.h"
#include "platform/atomic_file.h"
#include "report/endpoint_labels.h"
#include "report/report.h"

#define NFD_NAMESPACE	"p2pdiag.feature.node.kubernetes.io/"
/* 8 GPUs have 28 pairs; 12 have 66 */
#define NFD_MAX_PAIR_LABELS	64

struct nfd_ctx {
	const struct check_run *r;
	int exit_status;
};

static void put_label(FILE *f, const char *name, const char *value)
{
	fprintf(f, NFD_NAMESPACE "%s=%s\n", name, value);
}

/* "GPU3" as a label name's part: lower case, as node labels are written. */
static void lower(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

static bool is_gpu(const struct check_run *r, int fn)
{
	return p2pd_device_kind(r->in.model->fn[fn].class_code) == P2PD_KIND_GPU;
}

/* One label per GPU pair, its verdict; those past the cap are counted. */
static void pair_labels(FILE *f, const struct check_run *r,
			const struct endpoint_label *ep, unsigned int n)
{
	unsigned int i, shown = 0, left = 0, gpus = 0;
	char count[16];

	for (i = 0; i < n; i++)
		gpus += is_gpu(r, ep[i].fn);
	snprintf(count, sizeof(count), "%u", gpus);
	put_label(f, "gpus", count);
	for (i = 0; i < r->judged.nr_pairs; i++) {
		const struct p2pd_pair *p = &r->judged.pair[i];
		const char *la, *lb;
		char a[ENDPOINT_LABEL_MAX], b[ENDPOINT_LABEL_MAX];
		char name[2 * ENDPOINT_LABEL_MAX + 2];

		if (!is_gpu(r, p->a) || !is_gpu(r, p->b))
			continue;
		la = endpoint_label_of(ep, n, p->a);
		lb = endpoint_label_of(ep, n, p->b);
		if (!la || !lb)
			continue;
		if (shown == NFD_MAX_PAIR_LABELS) {
			left++;
			continue;
		}
		lower(a, la, sizeof(a));
		lower(b, lb, sizeof(b));
		snprintf(name, sizeof(name), "%s-%s", a, b);
		put_label(f, name, p2pd_verdict_name(p->verdict));
		shown++;
	}
	if (left) {
		snprintf(count, sizeof(count), "%u", left);
		put_label(f, "gpu-pairs-unlabelled", count);
	}
}

/*
 * "true" when P2P works between every two GPUs as the topology allows it
 * (verdict ok, or through a host bridge that routes it: none redirected
 * by ACS, blocked or unknown) and the run found nothing broken; "none"
 * when there is no pair of GPUs to judge (one GPU is no grounds for
 * "true"); else "false".  Whether copies were measured is a label of its
 * own, gpu-pairs-measured.
 */
static const char *gpu_pairs_ok(const struct check_run *r, int exit_status)
{
	unsigned int i, gpu_pairs = 0;

	if (exit_status >= 2)
		return "false";
	for (i = 0; i < r->judged.nr_pairs; i++) {
		if (!is_gpu(r, r->judged.pair[i].a) || !is_gpu(r, r->judged.pair[i].b))
			continue;
		if (r->judged.pair[i].verdict != P2PD_VERDICT_OK &&
		    r->judged.pair[i].verdict != P2PD_VERDICT_HOST)
			return "false";
		gpu_pairs++;
	}
	return gpu_pairs ? "true" : "none";
}

/* The expiry line and checked-at, from the run's time @now. */
static void put_time(FILE *f, const struct check_run *r, time_t now)
{
	time_t until = now + (time_t)r->in.nfd_expiry_s;
	char when[32], epoch[24];
	struct tm tm;

	if (r->in.nfd_expiry_s && gmtime_r(&until, &tm) &&
	    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		fprintf(f, "# +expiry-time=%s\n", when);
	snprintf(epoch, sizeof(epoch), "%lld", (long long)now);
	put_label(f, "checked-at", epoch);
}

static int nfd_write(FILE *f, const void *arg)
{
	const struct nfd_ctx *c = arg;
	const struct check_run *r = c->r;
	const struct causes *k = &r->judged.causes;
	struct endpoint_label *ep = NULL;
	unsigned int n;

	fprintf(f, "# p2pdiag-check %s: P2P labels of this node (exit status %d)\n",
		report_version(), c->exit_status);
	put_time(f, r, time(NULL));
	if (c->exit_status > 2 || !r->in.model) {
		/* the check itself failed: no verdict, and no stale one */
		put_label(f, "p2p", "unknown");
		put_label(f, "gpu-pairs-ok", "unknown");
		return 0;
	}
	put_label(f, "p2p", report_state_word(r));
	if (k->nr && k->cause[0].severity >= SEV_WARNING)
		put_label(f, "cause", k->cause[0].code);
	n = endpoint_labels(r, &ep);
	pair_labels(f, r, ep, n);
	free(ep);
	put_label(f, "gpu-pairs-ok", gpu_pairs_ok(r, c->exit_status));
	put_label(f, "gpu-pairs-measured", r->in.gpu_measured ? "true" : "false");
	if (r->in.source)
		put_label(f, "source", r->in.source);
	return 0;
}

int report_nfd_write(const char *path, const struct check_run *r,
		     int exit_status, char *err, size_t errlen)
{
	const struct nfd_ctx c = { r, exit_status };

	return atomic_file_write(path, nfd_write, &c, err, errlen);
}
