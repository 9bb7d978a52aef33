// SPDX-License-Identifier: GPL-2.0
/*
 * Fixture runner.  A fixture is a topology file as the module writes it
 * (comment lines "# ..." allowed after the header, for sources) plus
 * expectation lines:
 *
 *   expect <a> <b> key=value ...
 *
 * with any keys of the pairs line (class verdict map distance common
 * blockers bottleneck degraded nccl_p2p fix) and path, missing, notes,
 * config_acs, and at most one line for the whole machine:
 *
 *   expect machine fix=<pci=disable_acs_redir=...> config_acs=<...>
 *
 * the one kernel parameter over every pair (p2pd_port_set_add() and its
 * formatters).  For every fixture:
 *   - it parses, and formatting the model gives back the fixture's
 *     topology byte for byte (comments dropped), which parses to the same
 *     model (the golden round trip);
 *   - every pair of P2P endpoints has an expectation, and each expectation
 *     holds;
 *   - every pair agrees with the kernel oracle and the engine invariants.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "p2pdiag/parse.h"
#include "p2pdiag/verdict.h"
#include "ktap.h"
#include "model_util.h"
#include "pair_checks.h"
#include "topology/parse_values.h"
#include "topology/topology_parse.h"

#define MAX_EXPECT	512
#define LINE_MAX_LEN	2048

struct expect {
	unsigned long long a, b;
	int ia, ib;
	char *kv;		/* "key=value key=value" */
	unsigned int line;
	int used;
};

struct fixture {
	const char *name;
	char *topo;		/* the topology part, as read */
	size_t topo_len;
	char *canon;		/* the topology part without comments */
	struct expect ex[MAX_EXPECT];
	unsigned int nr_ex;
	char *machine;		/* "fix=... config_acs=...", or NULL */
	unsigned int machine_line;
};

static struct ktap k;

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}


/* Split the file into topology text, canonical text and expectations. */
static int load_fixture(const char *path, struct fixture *fx, char *why,
			size_t whylen)
{
	size_t len, tl = 0, cl = 0;
	char *text = read_file(path, &len), *line, *save = NULL;
	unsigned int lineno = 0;

	memset(fx, 0, sizeof(*fx));
	fx->name = base_name(path);
	if (!text) {
		snprintf(why, whylen, "cannot read %s", path);
		return -1;
	}
	fx->topo = malloc(len + 1);
	fx->canon = malloc(len + 1);
	if (!fx->topo || !fx->canon) {
		free(text);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		lineno++;
		if (!strncmp(line, "expect machine ", 15)) {
			if (fx->machine) {
				snprintf(why, whylen, "%s:%u: a second expect machine line",
					 fx->name, lineno);
				free(text);
				return -1;
			}
			fx->machine = strdup(line + 15);
			fx->machine_line = lineno;
			continue;
		}
		if (!strncmp(line, "expect ", 7)) {
			struct expect *e = &fx->ex[fx->nr_ex];
			char a[32], b[32];
			int off = 0;

			if (fx->nr_ex == MAX_EXPECT ||
			    sscanf(line + 7, "%31s %31s %n", a, b, &off) < 2 ||
			    p2pd_parse_addr(a, &e->a) ||
			    p2pd_parse_addr(b, &e->b) || e->a >= e->b) {
				snprintf(why, whylen,
					 "%s:%u: bad expect line (addresses, a < b)",
					 fx->name, lineno);
				free(text);
				return -1;
			}
			e->kv = strdup(line + 7 + off);
			e->line = lineno;
			fx->nr_ex++;
			continue;
		}
		memcpy(fx->topo + tl, line, n);
		tl += n;
		fx->topo[tl++] = '\n';
		if (lineno > 1 && (line[0] == '#' || !n))
			continue;
		memcpy(fx->canon + cl, line, n);
		cl += n;
		fx->canon[cl++] = '\n';
	}
	fx->topo[tl] = 0;
	fx->canon[cl] = 0;
	fx->topo_len = tl;
	free(text);
	return 0;
}

static void free_fixture(struct fixture *fx)
{
	free(fx->machine);
	unsigned int i;

	for (i = 0; i < fx->nr_ex; i++)
		free(fx->ex[i].kv);
	free(fx->topo);
	free(fx->canon);
}

/* The value of @key in a "k=v k=v" line, copied into @out; -1 if absent. */
static int lookup(const char *line, const char *key, char *out, size_t outlen)
{
	size_t kl = strlen(key);
	const char *s = line;

	while (s && *s) {
		while (*s == ' ')
			s++;
		if (!strncmp(s, key, kl) && s[kl] == '=') {
			size_t n = strcspn(s + kl + 1, " ");

			if (n >= outlen)
				n = outlen - 1;
			memcpy(out, s + kl + 1, n);
			out[n] = 0;
			return 0;
		}
		s = strchr(s, ' ');
	}
	return -1;
}

static void put_flags(char *out, size_t outlen, unsigned int v,
		      const char *const *names, unsigned int n)
{
	unsigned int i;
	size_t l = 0;

	out[0] = 0;
	for (i = 0; i < n; i++)
		if (v & (1u << i))
			l += (size_t)snprintf(out + l, outlen - l, "%s%s",
					      l ? "+" : "", names[i]);
	if (!l)
		snprintf(out, outlen, "none");
}

/* Values the pairs line does not carry, for expectations. */
static int extra_value(const struct p2pd_model *m, const struct p2pd_pair *p,
		       const char *key, char *out, size_t outlen)
{
	static const char *const notes[] = {
		"iommu_a", "iommu_b", "ats_a", "ats_b", "direct_trans",
		"same_device",
	};
	static const char *const missing[] = {
		"acs", "parent", "host", "depth", "bridge", "list",
	};
	struct p2pd_buf b;
	unsigned int i;
	size_t l = 0;

	if (!strcmp(key, "path")) {
		out[0] = 0;
		for (i = 0; i < p->path_len; i++) {
			char a[P2PD_ADDR_STRLEN];

			addr_str(m->fn[p->path[i]].addr, a);
			l += (size_t)snprintf(out + l, outlen - l, "%s%s",
					      i ? "," : "", a);
		}
		if (!p->path_len)
			snprintf(out, outlen, "none");
		return 0;
	}
	if (!strcmp(key, "notes")) {
		put_flags(out, outlen, p->notes, notes, 6);
		return 0;
	}
	if (!strcmp(key, "missing")) {
		put_flags(out, outlen, p->missing, missing, 6);
		return 0;
	}
	if (!strcmp(key, "config_acs")) {
		p2pd_buf_init(&b, out, outlen);
		p2pd_format_config_acs(&b, m, p);
		p2pd_buf_terminate(&b);
		return 0;
	}
	return -1;
}

/* Each key=value of @e against the judged pair. */
static void check_expect(const struct fixture *fx, const struct p2pd_model *m,
			 struct expect *e, const struct p2pd_pair *p)
{
	char line[LINE_MAX_LEN], got[LINE_MAX_LEN], why[LINE_MAX_LEN * 2];
	char *kv = strdup(e->kv), *tok, *save = NULL;
	char a[P2PD_ADDR_STRLEN], b[P2PD_ADDR_STRLEN];
	int ok = 1;
	size_t wl = 0;

	format_pair_line(m, p, line, sizeof(line));
	why[0] = 0;
	for (tok = strtok_r(kv, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq) {
			ok = 0;
			wl += (size_t)snprintf(why + wl, sizeof(why) - wl,
					       "[%s is not key=value] ", tok);
			continue;
		}
		*eq = 0;
		if (lookup(line, tok, got, sizeof(got)) &&
		    extra_value(m, p, tok, got, sizeof(got))) {
			ok = 0;
			wl += (size_t)snprintf(why + wl, sizeof(why) - wl,
					       "[unknown key %s] ", tok);
			continue;
		}
		if (strcmp(got, eq + 1)) {
			ok = 0;
			wl += (size_t)snprintf(why + wl, sizeof(why) - wl,
					       "[%s: want %s got %s] ", tok,
					       eq + 1, got);
		}
	}
	free(kv);
	if (!ok && wl < sizeof(why))
		snprintf(why + wl, sizeof(why) - wl, "\n# pairs line: %s",
			 line);
	addr_str(e->a, a);
	addr_str(e->b, b);
	ktap_result(&k, ok, why, "%s:%u %s %s", fx->name, e->line, a, b);
}

/* The whole pairs file: its header, and one line per pair in order. */
static void check_pairs_file(const struct fixture *fx,
			     const struct p2pd_model *m)
{
	char head[128], why[256] = "";
	struct p2pd_buf b;
	char *text, *line, *save = NULL;
	unsigned long lines = 0, want = p2pd_count_pairs(m);

	p2pd_buf_init(&b, NULL, 0);
	p2pd_format_pairs(&b, m);
	text = malloc(b.len + 1);
	if (!text)
		abort();
	p2pd_buf_init(&b, text, b.len + 1);
	p2pd_format_pairs(&b, m);
	p2pd_buf_terminate(&b);
	snprintf(head, sizeof(head), "# p2pdiag abi=%d generation=%lu pairs=%lu",
		 P2PD_ABI_VERSION, m->generation, want);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++) {
		if (!lines && strcmp(line, head))
			snprintf(why, sizeof(why), "header \"%s\", want \"%s\"",
				 line, head);
		if (lines && strncmp(line, "a=", 2) && !why[0])
			snprintf(why, sizeof(why), "line %lu is not a pair",
				 lines + 1);
	}
	if (!why[0] && lines != want + 1)
		snprintf(why, sizeof(why), "%lu lines for %lu pairs", lines,
			 want);
	ktap_result(&k, !why[0], why, "%s: pairs file has its header and %lu lines",
		    fx->name, want);
	free(text);
}

/* The machine-wide fix over every pair against "expect machine". */
static void check_machine(const struct fixture *fx, const struct p2pd_model *m)
{
	struct p2pd_port_set set = { .nr = 0 };
	char have[2][LINE_MAX_LEN], want[LINE_MAX_LEN], why[LINE_MAX_LEN] = "";
	static const char *const key[2] = { "fix=", "config_acs=" };
	int a = P2PD_NO_INDEX, b = P2PD_NO_INDEX;
	struct p2pd_buf buf;
	unsigned int i;

	if (!fx->machine)
		return;
	while (p2pd_next_pair(m, &a, &b)) {
		struct p2pd_pair p;

		if (!p2pd_judge(m, a, b, &p))
			p2pd_port_set_add(&set, &p);
	}
	p2pd_buf_init(&buf, have[0], sizeof(have[0]));
	p2pd_format_fix_set(&buf, m, &set);
	p2pd_buf_terminate(&buf);
	p2pd_buf_init(&buf, have[1], sizeof(have[1]));
	p2pd_format_config_acs_set(&buf, m, &set);
	p2pd_buf_terminate(&buf);
	for (i = 0; i < 2 && !why[0]; i++) {
		const char *at = strstr(fx->machine, key[i]);

		if (!at)
			continue;
		snprintf(want, sizeof(want), "%.*s", (int)strcspn(at + strlen(key[i]), " "),
			 at + strlen(key[i]));
		if (strcmp(want, have[i]))
			snprintf(why, sizeof(why), "line %u: %s%.900s, want %.900s",
				 fx->machine_line, key[i], have[i], want);
	}
	ktap_result(&k, !why[0] && !set.overflow, why,
		    "%s: one kernel parameter for the machine names every port that matters",
		    fx->name);
}

static void run_fixture(const char *path)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct p2pd_model m, m2;
	char why[1024], err[256];
	char *again = NULL;
	int a = P2PD_NO_INDEX, b = P2PD_NO_INDEX;
	unsigned int i, pairs = 0, bad_pairs = 0, uncovered = 0;

	if (!fx)
		abort();
	if (load_fixture(path, fx, why, sizeof(why))) {
		ktap_result(&k, 0, why, "%s: loads", base_name(path));
		free_fixture(fx);
		free(fx);
		return;
	}
	if (!ktap_result(&k, !topo_parse(fx->topo, fx->topo_len, &m, err,
					 sizeof(err)),
			 err, "%s: parses", fx->name))
		goto out;

	/* golden: the formatter writes the fixture back, byte for byte */
	again = format_topology(&m);
	if (again && strcmp(again, fx->canon)) {
		size_t i0 = 0;
		unsigned int ln = 1;

		while (again[i0] && again[i0] == fx->canon[i0]) {
			ln += again[i0] == '\n';
			i0++;
		}
		snprintf(why, sizeof(why),
			 "formatted text differs at canonical line %u: \"%.60s\" vs fixture \"%.60s\"",
			 ln, again + i0, fx->canon + i0);
	} else {
		why[0] = 0;
	}
	ktap_result(&k, again && !why[0], why,
		    "%s: p2pd_format_topology() gives the fixture back",
		    fx->name);
	why[0] = 0;
	if (again && !topo_parse(again, strlen(again), &m2, err, sizeof(err))) {
		model_equal(&m, &m2, why, sizeof(why));
		p2pd_model_free(&m2);
	} else {
		snprintf(why, sizeof(why), "re-parse: %s", err);
	}
	ktap_result(&k, !why[0], why, "%s: round trip gives the same model",
		    fx->name);

	/* every pair: the oracle, the invariants, and an expectation */
	why[0] = 0;
	while (p2pd_next_pair(&m, &a, &b)) {
		struct p2pd_pair p;
		char w[512];
		int found = 0;

		pairs++;
		if (check_pair(&m, a, b, &p, w, sizeof(w))) {
			char sa[P2PD_ADDR_STRLEN], sb[P2PD_ADDR_STRLEN];

			addr_str(m.fn[a].addr, sa);
			addr_str(m.fn[b].addr, sb);
			if (!bad_pairs++)
				snprintf(why, sizeof(why), "%s %s: %s", sa, sb,
					 w);
		}
		for (i = 0; i < fx->nr_ex; i++) {
			struct expect *e = &fx->ex[i];

			if (e->a != m.fn[a].addr || e->b != m.fn[b].addr)
				continue;
			found = 1;
			e->used = 1;
			check_expect(fx, &m, e, &p);
		}
		if (!found && !uncovered++) {
			char sa[P2PD_ADDR_STRLEN], sb[P2PD_ADDR_STRLEN];

			addr_str(m.fn[a].addr, sa);
			addr_str(m.fn[b].addr, sb);
			printf("# %s: no expectation for %s %s\n", fx->name,
			       sa, sb);
		}
	}
	ktap_result(&k, !bad_pairs, why,
		    "%s: %u pairs agree with the kernel oracle and invariants",
		    fx->name, pairs);
	snprintf(why, sizeof(why), "%u of %u pairs have no expect line",
		 uncovered, pairs);
	ktap_result(&k, !uncovered && pairs == p2pd_count_pairs(&m), why,
		    "%s: every pair has an expectation", fx->name);
	why[0] = 0;
	for (i = 0; i < fx->nr_ex; i++)
		if (!fx->ex[i].used) {
			snprintf(why, sizeof(why),
				 "line %u names a pair that is not a pair of P2P endpoints",
				 fx->ex[i].line);
			break;
		}
	ktap_result(&k, !why[0], why, "%s: every expectation names a pair",
		    fx->name);
	check_pairs_file(fx, &m);
	check_machine(fx, &m);
	p2pd_model_free(&m);
out:
	free(again);
	free_fixture(fx);
	free(fx);
}

int main(int argc, char **argv)
{
	int i;

	ktap_start("engine-fixtures");
	if (argc < 2) {
		fprintf(stderr, "usage: %s fixture...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		run_fixture(argv[i]);
	return ktap_finish(&k);
}
