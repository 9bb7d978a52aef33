// SPDX-License-Identifier: GPL-2.0
/*
 * pairs_expect: the pairs of /sys/kernel/p2pdiag against the lab's
 * topology file and against their own format.  The expanded pairs are
 * those of devices/<addr>/pairs (each function's own, whole, one snapshot:
 * the trailer says so), every unordered pair taken from its lower end's
 * file; the grouped pairs file must stand for exactly them.
 *
 *  - every "expect pair <a> <b> key=glob ..." line of /lab/topo (LAB_TOPO)
 *    names a pairs line whose keys match the globs (SKIP when the topology
 *    states no pairs);
 *  - every line has a < b, all twelve keys in ABI order, and only the
 *    words the ABI allows;
 *  - the lines are exactly the unordered pairs of the functions that an
 *    independent decoding counts as P2P endpoints: n * (n - 1) / 2 of them,
 *    as the pairs file's header says;
 *  - the pairs file's group pairs add up to that number, each one's line
 *    is its first members' expanded line, and every expanded pair has its
 *    groups' verdict, class, map, distance, common, bottleneck, degraded
 *    and nccl_p2p.
 *
 * Exits 4 (skip) when the module is not loaded.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "../../include/uapi/p2pdiag/abi.h"
#include "config_decode.h"
#include "sysfs_paths.h"
#include "harness_main.h"

#define MAX_TOKENS	16
#define MAX_PAIRS	(ST_MAX_FUNCS * 8)

static const char *const pair_keys[] = {
	"a", "b", "class", "verdict", "map", "distance", "common", "blockers",
	"bottleneck", "degraded", "nccl_p2p", "fix",
};
#define NR_PAIR_KEYS	(sizeof(pair_keys) / sizeof(pair_keys[0]))

struct pairs_file {
	char *grouped;			/* the pairs file */
	char *text[ST_MAX_FUNCS];	/* each function's own pairs file */
	int nr_text;
	unsigned long header_pairs;
	long long generation;
	int nr;
	char *line[MAX_PAIRS];		/* into text[], without newline */
};

static void free_pairs(struct pairs_file *p)
{
	int i;

	free(p->grouped);
	for (i = 0; i < p->nr_text; i++)
		free(p->text[i]);
}

/* Read @path whole, check its trailer, return its header line (cut). */
static char *read_whole(const char *path, char **text, char *why, size_t size)
{
	char trailer_why[256];
	size_t len;

	*text = st_read_file(path, 4096, &len);
	if (!*text) {
		snprintf(why, size, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	if (st_check_trailer(*text, len, trailer_why, sizeof(trailer_why))) {
		snprintf(why, size, "%s: %s", path, trailer_why);
		return NULL;
	}
	return *text;
}

/* One function's own pairs: its header, then lines; keep those it leads. */
static int read_device_pairs(struct pairs_file *p, const char *addr,
			     char *why, size_t size)
{
	char path[512], hdr[128], lead[64], *save = NULL, *line, *text;
	long long gen;
	unsigned long want, got = 0;
	int end = 0;

	snprintf(path, sizeof(path), "%s/%s/%s/%s", st_p2pdiag_root(),
		 P2PD_DIR_DEVICES, addr, P2PD_FILE_PAIRS);
	if (p->nr_text == ST_MAX_FUNCS) {
		snprintf(why, size, "more than %d functions", ST_MAX_FUNCS);
		return -1;
	}
	if (!read_whole(path, &p->text[p->nr_text], why, size))
		return -1;
	text = p->text[p->nr_text++];
	line = strtok_r(text, "\n", &save);
	snprintf(hdr, sizeof(hdr), "%s%d generation=", P2PD_HEADER_PREFIX,
		 P2PD_ABI_VERSION);
	snprintf(lead, sizeof(lead), "a=%s ", addr);
	if (!line || strncmp(line, hdr, strlen(hdr)) ||
	    sscanf(line + strlen(hdr), "%lld endpoint=%*17[0-9a-f:.] pairs=%lu%n",
		   &gen, &want, &end) != 2 || line[strlen(hdr) + end] ||
	    !strstr(line, addr)) {
		snprintf(why, size, "%s: header '%s' is not '%s<n> endpoint=%s pairs=<k>'",
			 path, line ? line : "", hdr, addr);
		return -1;
	}
	if (gen != p->generation) {
		snprintf(why, size, "%s is of generation %lld, the pairs file of %lld (a rebuild in between: run again)",
			 path, gen, p->generation);
		return -1;
	}
	while ((line = strtok_r(NULL, "\n", &save))) {
		got++;
		if (!strncmp(line, lead, strlen(lead)) && p->nr < MAX_PAIRS)
			p->line[p->nr++] = line;
	}
	if (got != want) {
		snprintf(why, size, "%s: %lu lines, its header says %lu", path,
			 got, want);
		return -1;
	}
	return 0;
}

/* The pairs file's header, then every function's own pairs. */
static int read_pairs(struct pairs_file *p, char *why, size_t size)
{
	static char addrs[ST_MAX_FUNCS][ST_ADDR_LEN];
	char path[512], hdr[64], dir[512], *line;
	int n, i;

	memset(p, 0, sizeof(*p));
	snprintf(path, sizeof(path), "%s/%s", st_p2pdiag_root(), P2PD_FILE_PAIRS);
	if (!read_whole(path, &p->grouped, why, size))
		return -1;
	line = p->grouped;
	snprintf(hdr, sizeof(hdr), "%s%d generation=", P2PD_HEADER_PREFIX,
		 P2PD_ABI_VERSION);
	if (strncmp(line, hdr, strlen(hdr)) ||
	    sscanf(line + strlen(hdr), "%lld pairs=%lu", &p->generation,
		   &p->header_pairs) != 2) {
		snprintf(why, size, "header '%.200s' is not '%s<n> pairs=<k>'",
			 line, hdr);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/%s", st_p2pdiag_root(), P2PD_DIR_DEVICES);
	n = st_list_addrs(dir, addrs, ST_MAX_FUNCS);
	if (n < 0) {
		snprintf(why, size, "cannot list %s: %s", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (read_device_pairs(p, addrs[i], why, size))
			return -1;
	return 0;
}

/* Split a copy of @line at spaces. */
static int tokens(const char *line, char *copy, size_t size, char **tok)
{
	char *save = NULL, *t;
	int n = 0;

	snprintf(copy, size, "%s", line);
	for (t = strtok_r(copy, " ", &save); t && n < MAX_TOKENS;
	     t = strtok_r(NULL, " ", &save))
		tok[n++] = t;
	return n;
}

/* Value of @key in @line (a pairs line), copied into @out; -1 if absent. */
static int pair_value(const char *line, const char *key, char *out, size_t size)
{
	char copy[1024], *tok[MAX_TOKENS];
	size_t klen = strlen(key);
	int n, i;

	n = tokens(line, copy, sizeof(copy), tok);
	for (i = 0; i < n; i++) {
		if (!strncmp(tok[i], key, klen) && tok[i][klen] == '=') {
			snprintf(out, size, "%s", tok[i] + klen + 1);
			return 0;
		}
	}
	return -1;
}

static int one_of(const char *v, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(v, *words))
			return 1;
	return 0;
}

static int is_decimal(const char *v, int sign)
{
	if (sign && *v == '-')
		v++;
	if (!*v)
		return 0;
	for (; *v; v++)
		if (!isdigit((unsigned char)*v))
			return 0;
	return 1;
}

/* "none" or "<addr>:<what>,..." */
static int is_blockers(const char *v)
{
	char copy[512], *save = NULL, *item;

	if (!strcmp(v, P2PD_WORD_NONE))
		return 1;
	snprintf(copy, sizeof(copy), "%s", v);
	if (!*copy || copy[strlen(copy) - 1] == ',')
		return 0;
	for (item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		/* the address is all before the last ':' (its domain may be wide) */
		char *bits = strrchr(item, ':');

		if (!bits || !bits[1])
			return 0;
		*bits = '\0';
		if (!st_is_addr(item))
			return 0;
	}
	return 1;
}

/* "none" or "<speed>x<width>", speed like "16.0" */
static int is_bottleneck(const char *v)
{
	unsigned int whole, tenth, width;
	char tail;

	if (!strcmp(v, P2PD_WORD_NONE))
		return 1;
	return sscanf(v, "%u.%1ux%u%c", &whole, &tenth, &width, &tail) == 3;
}

/* Format of one line; logs and counts every problem. */
static int check_line(struct __test_metadata *_metadata, const char *line)
{
	static const char *const classes[] = { "PIX", "PXB", "PHB", "NODE", "SYS", NULL };
	static const char *const verdicts[] = {
		"ok", "host", "redirected", "blocked", "unknown", NULL };
	static const char *const maps[] = {
		"bus_addr", "thru_host_bridge", "not_supported", NULL };
	static const char *const bits[] = { "0", "1", NULL };
	char copy[1024], *tok[MAX_TOKENS], *val[NR_PAIR_KEYS];
	int n, i, bad = 0;

	n = tokens(line, copy, sizeof(copy), tok);
	if (n != (int)NR_PAIR_KEYS) {
		TH_LOG("%d fields, want %zu: %s", n, NR_PAIR_KEYS, line);
		return 1;
	}
	for (i = 0; i < n; i++) {
		size_t klen = strlen(pair_keys[i]);

		if (strncmp(tok[i], pair_keys[i], klen) || tok[i][klen] != '=') {
			TH_LOG("field %d is not %s=: %s", i + 1, pair_keys[i], line);
			return 1;
		}
		val[i] = tok[i] + klen + 1;
	}
#define WANT(cond, what) do { if (!(cond)) { TH_LOG("%s: %s", what, line); bad++; } } while (0)
	WANT(st_is_addr(val[0]) && st_is_addr(val[1]), "a/b not addresses");
	WANT(strcmp(val[0], val[1]) < 0, "a is not below b");
	WANT(one_of(val[2], classes), "class word");
	WANT(one_of(val[3], verdicts), "verdict word");
	WANT(one_of(val[4], maps), "map word");
	WANT(is_decimal(val[5], 1), "distance not decimal");
	WANT(st_is_addr(val[6]) || !strcmp(val[6], "host") ||
	     !strcmp(val[6], P2PD_WORD_NONE), "common not addr|host|none");
	WANT(is_blockers(val[7]), "blockers not none|addr:bits,...");
	WANT(is_bottleneck(val[8]), "bottleneck not <speed>x<width>|none");
	WANT(one_of(val[9], bits), "degraded not 0|1");
	WANT(one_of(val[10], bits), "nccl_p2p not 0|1");
	WANT(!strcmp(val[11], P2PD_WORD_NONE) || !strncmp(val[11], "pci=", 4),
	     "fix not none|pci=...");
	WANT(!strstr(val[11], "noacs"), "fix suggests pci=noacs");
	/* a pair that goes direct has nothing in its way */
	if (!strcmp(val[3], "ok"))
		WANT(!strcmp(val[4], "bus_addr") && !strcmp(val[7], P2PD_WORD_NONE),
		     "verdict ok with a map other than bus_addr or with blockers");
#undef WANT
	return bad;
}

static int find_line(const struct pairs_file *p, const char *a, const char *b)
{
	char prefix[64];
	int i;

	snprintf(prefix, sizeof(prefix), "a=%s b=%s ", a, b);
	for (i = 0; i < p->nr; i++)
		if (!strncmp(p->line[i], prefix, strlen(prefix)))
			return i;
	return -1;
}

TEST(every_line_well_formed)
{
	struct pairs_file p;
	char why[600];
	int i, bad = 0;

	ASSERT_EQ(0, read_pairs(&p, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	EXPECT_EQ(p.header_pairs, (unsigned long)p.nr);
	for (i = 0; i < p.nr; i++) {
		bad += check_line(_metadata, p.line[i]);
		if (i && strcmp(p.line[i - 1], p.line[i]) >= 0) {
			TH_LOG("lines %d and %d are not in order: %s", i, i + 1, p.line[i]);
			bad++;
		}
	}
	TH_LOG("%d pairs checked", p.nr);
	EXPECT_EQ(0, bad);
	free_pairs(&p);
}

/* Exactly the pairs of the decoded P2P endpoints. */
TEST(pairs_of_p2p_endpoints)
{
	static char addrs[ST_MAX_FUNCS][ST_ADDR_LEN];
	static char ep[ST_MAX_FUNCS][ST_ADDR_LEN];
	static struct st_function fn;
	struct pairs_file p;
	char why[600];
	int n, nep = 0, i, j, missing = 0;
	long want;

	n = st_list_addrs(st_pci_root(), addrs, ST_MAX_FUNCS);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, st_decode_function(addrs[i], &fn, why, sizeof(why))) {
			TH_LOG("%s", why);
		}
		if (!strcmp(fn.value[ST_P2P_ENDPOINT], "1"))
			snprintf(ep[nep++], ST_ADDR_LEN, "%s", addrs[i]);
	}
	ASSERT_EQ(0, read_pairs(&p, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	want = (long)nep * (nep - 1) / 2;
	TH_LOG("%d P2P endpoints, %ld pairs expected, %d listed", nep, want, p.nr);
	for (i = 0; i < nep; i++)
		for (j = i + 1; j < nep; j++)
			if (find_line(&p, ep[i], ep[j]) < 0) {
				TH_LOG("no line for a=%s b=%s", ep[i], ep[j]);
				missing++;
			}
	EXPECT_EQ(0, missing);
	EXPECT_EQ(want, p.nr);
	free_pairs(&p);
}

/* The keys every member pair shares with its group pair's line. */
static const char *const group_keys[] = {
	"class", "verdict", "map", "distance", "common", "bottleneck",
	"degraded", "nccl_p2p",
};

#define MAX_GROUPS	ST_MAX_FUNCS

struct group_pair_line {
	int ga, gb;
	const char *line;		/* its pair line, after "pairs=<n> " */
};

/* The group of each address, from the "group=" lines. */
struct groups_read {
	char addr[ST_MAX_FUNCS][ST_ADDR_LEN];
	int group[ST_MAX_FUNCS];
	int nr;
};

static int group_of(const struct groups_read *g, const char *addr)
{
	int i;

	for (i = 0; i < g->nr; i++)
		if (!strcmp(g->addr[i], addr))
			return g->group[i];
	return -1;
}

static int read_group_line(struct groups_read *g, const char *line)
{
	char copy[8192], *save = NULL, *a;
	int id, members, end = 0;

	if (sscanf(line, "group=%d members=%d addr=%n", &id, &members, &end) != 2 || !end)
		return -1;
	snprintf(copy, sizeof(copy), "%s", line + end);
	for (a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
		if (!st_is_addr(a) || g->nr == ST_MAX_FUNCS || group_of(g, a) >= 0)
			return -1;
		snprintf(g->addr[g->nr], ST_ADDR_LEN, "%s", a);
		g->group[g->nr++] = id;
		members--;
	}
	return members ? -1 : 0;
}

/* The grouped file stands for exactly the expanded pairs. */
TEST(grouped_matches_expanded)
{
	static struct groups_read g;
	static struct group_pair_line gp[MAX_PAIRS];
	char why[600], *copy, *save = NULL, *line, status[32] = "";
	unsigned long sum = 0, want_gp = 0;
	struct pairs_file p;
	int ngp = 0, i, j, k, bad = 0;

	ASSERT_EQ(0, read_pairs(&p, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	copy = strdup(p.grouped);
	ASSERT_NE(NULL, copy);
	line = strtok_r(copy, "\n", &save);
	if (!strstr(line, " view=grouped ") ||
	    !strstr(line, " group_pairs=") ||
	    sscanf(strstr(line, " group_pairs="), " group_pairs=%lu status=%31s",
		   &want_gp, status) != 2) {
		TH_LOG("header '%s' lacks view=grouped group_pairs=<q> status=", line);
		bad++;
	}
	if (strcmp(status, "complete"))
		SKIP(goto out, "the pairs file says status=%s", status);
	memset(&g, 0, sizeof(g));
	while ((line = strtok_r(NULL, "\n", &save))) {
		unsigned long n;
		int end = 0;

		if (!strncmp(line, "group=", 6)) {
			if (read_group_line(&g, line)) {
				TH_LOG("bad group line: %.200s", line);
				bad++;
			}
		} else if (sscanf(line, "group_a=%d group_b=%d pairs=%lu %n",
				  &gp[ngp].ga, &gp[ngp].gb, &n, &end) == 3 && end &&
			   ngp < MAX_PAIRS) {
			gp[ngp++].line = line + end;
			sum += n;
		} else {
			TH_LOG("neither a group nor a group pair: %.200s", line);
			bad++;
		}
	}
	EXPECT_EQ(want_gp, (unsigned long)ngp);
	EXPECT_EQ(p.header_pairs, sum);
	/* a group pair's line is its first members' expanded line */
	for (i = 0; i < ngp; i++) {
		char a[ST_ADDR_LEN + 8], b[ST_ADDR_LEN + 8];

		if (pair_value(gp[i].line, "a", a, sizeof(a)) ||
		    pair_value(gp[i].line, "b", b, sizeof(b)) ||
		    find_line(&p, a, b) < 0 ||
		    strcmp(p.line[find_line(&p, a, b)], gp[i].line)) {
			TH_LOG("group pair %d %d: '%.300s' is not the expanded line of its a and b",
			       gp[i].ga, gp[i].gb, gp[i].line);
			bad++;
		}
	}
	/* every expanded pair has its group pair's judgement */
	for (i = 0; i < p.nr; i++) {
		char a[ST_ADDR_LEN + 8], b[ST_ADDR_LEN + 8], v1[512], v2[512];
		int ga, gb;

		pair_value(p.line[i], "a", a, sizeof(a));
		pair_value(p.line[i], "b", b, sizeof(b));
		ga = group_of(&g, a);
		gb = group_of(&g, b);
		for (j = 0; j < ngp; j++)
			if ((gp[j].ga == ga && gp[j].gb == gb) ||
			    (gp[j].ga == gb && gp[j].gb == ga))
				break;
		if (ga < 0 || gb < 0 || j == ngp) {
			TH_LOG("%s %s: no group pair (groups %d %d)", a, b, ga, gb);
			bad++;
			continue;
		}
		for (k = 0; k < (int)(sizeof(group_keys) / sizeof(group_keys[0])); k++) {
			if (pair_value(p.line[i], group_keys[k], v1, sizeof(v1)) ||
			    pair_value(gp[j].line, group_keys[k], v2, sizeof(v2)) ||
			    strcmp(v1, v2)) {
				TH_LOG("%s %s: %s=%s, its group pair %d %d says %s", a, b,
				       group_keys[k], v1, ga, gb, v2);
				bad++;
			}
		}
	}
	TH_LOG("%d pairs in %d group pairs checked", p.nr, ngp);
	EXPECT_EQ(0, bad);
out:
	free(copy);
	free_pairs(&p);
}

/* "expect pair <a> <b> key=glob ..." from the topology file. */
TEST(expected_pairs)
{
	char line[1024], copy[1024], *tok[MAX_TOKENS], got[512], why[600];
	struct pairs_file p;
	int n, i, nexp = 0, bad = 0;
	FILE *topo = fopen(st_topo_path(), "r");

	if (!topo)
		SKIP(return, "no topology file %s", st_topo_path());
	ASSERT_EQ(0, read_pairs(&p, why, sizeof(why))) {
		TH_LOG("%s", why);
		fclose(topo);
	}
	while (fgets(line, sizeof(line), topo)) {
		const char *a, *b;
		int at;

		line[strcspn(line, "\n")] = '\0';
		n = tokens(line, copy, sizeof(copy), tok);
		if (n < 4 || strcmp(tok[0], "expect") || strcmp(tok[1], "pair"))
			continue;
		nexp++;
		a = tok[2];
		b = tok[3];
		if (strcmp(a, b) > 0) {
			a = tok[3];
			b = tok[2];
		}
		at = find_line(&p, a, b);
		if (at < 0) {
			TH_LOG("expected pair %s %s: no such line", a, b);
			bad++;
			continue;
		}
		for (i = 4; i < n; i++) {
			char *eq = strchr(tok[i], '=');

			if (!eq) {
				TH_LOG("topology: '%s' is not key=glob in: %s", tok[i], line);
				bad++;
				continue;
			}
			*eq = '\0';
			if (pair_value(p.line[at], tok[i], got, sizeof(got))) {
				TH_LOG("pair %s %s: no key %s", a, b, tok[i]);
				bad++;
			} else if (fnmatch(eq + 1, got, 0)) {
				TH_LOG("pair %s %s: %s=%s, expected %s", a, b,
				       tok[i], got, eq + 1);
				bad++;
			}
		}
	}
	fclose(topo);
	free_pairs(&p);
	if (!nexp)
		SKIP(return, "%s states no pairs", st_topo_path());
	TH_LOG("%d expected pairs checked", nexp);
	EXPECT_EQ(0, bad);
}

int main(int argc, char **argv)
{
	return st_harness_main(argc, argv);
}
