// SPDX-License-Identifier: GPL-2.0
/*
 * --graph: the DOT picture of the lab's switchacs tree (as the module
 * published it in the lab, fixtures/switchacs.topo): the nodes with the
 * matrix's labels, the switch drawn as one box, the redirecting ports and
 * the refusing host bridge marked, blocked routes red, and a highlighted
 * pair's route, which for a redirected or blocked pair climbs to the host
 * bridge and for a direct pair stays under the switch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_util.h"
#include "report/report.h"
#include "topology/topology_parse.h"

void test_graph(struct ktap *k, const char *fixtures);

/* CHECK with the reason a failure prints. */
#define SAY(k, cond, why, ...) ktap_result((k), !!(cond), (why), __VA_ARGS__)

/* The statement of @dot that starts with @start (after indentation). */
static const char *statement(const char *dot, const char *start, char *buf,
			     size_t len)
{
	const char *p = dot;
	size_t n = strlen(start);

	while (p && *p) {
		const char *s = p + strspn(p, " ");
		const char *end = strchr(s, '\n');
		size_t l = end ? (size_t)(end - s) : strlen(s);

		if (!strncmp(s, start, n) && (s[n] == ' ' || s[n] == '[')) {
			snprintf(buf, len, "%.*s", (int)l, s);
			return buf;
		}
		p = end ? end + 1 : NULL;
	}
	buf[0] = '\0';
	return NULL;
}

static bool has(const char *dot, const char *start, const char *want)
{
	char buf[2048];

	return statement(dot, start, buf, sizeof(buf)) && strstr(buf, want);
}

static char *draw(const struct check_run *r, int pair)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		abort();
	rc = report_graph_dot(f, r, pair);
	fclose(f);
	if (rc) {
		free(text);
		return NULL;
	}
	return text;
}

static int pair_of(const struct check_run *r, const char *a, const char *b)
{
	const char *name[2] = { a, b };
	int pair;
	char err[256];

	if (report_graph_pair(r, name, &pair, err, sizeof(err)))
		return -2;
	return pair;
}

static void plain_picture(struct ktap *k, const struct check_run *r)
{
	static const char *const endpoint[][2] = {
		{ "fn_00000100", "NIC0 0000:01:00.0" },
		{ "fn_00000400", "NVMe0 0000:04:00.0" },
		{ "fn_00000500", "GPU0 0000:05:00.0" },
		{ "fn_00000600", "NIC1 0000:06:00.0" },
		{ "fn_00000700", "GPU1 0000:07:00.0" },
		{ "fn_00000800", "NIC2 0000:08:00.0" },
	};
	char *dot = draw(r, -1);
	unsigned int i;

	SAY(k, dot, "", "graph: switchacs draws");
	if (!dot)
		return;
	SAY(k, !strncmp(dot, "digraph p2pdiag {", 17) && strstr(dot, "\n}\n"),
	      "", "graph: one digraph");
	for (i = 0; i < sizeof(endpoint) / sizeof(endpoint[0]); i++)
		SAY(k, has(dot, endpoint[i][0], endpoint[i][1]), "",
		      "graph: %s is labelled '%s' as in the matrix", endpoint[i][0],
		      endpoint[i][1]);
	SAY(k, has(dot, "hb_000000", "does not route P2P: 14 pairs blocked") &&
		 has(dot, "hb_000000", "[8086:29c0]") && has(dot, "hb_000000", "red3"),
	      "", "graph: host bridge 8086:29c0 marked as refusing the 14 blocked pairs");
	SAY(k, has(dot, "fn_000000e1", "root port 0000:00:1c.1"), "",
	      "graph: root port drawn");
	SAY(k, strstr(dot, "subgraph cluster_sw_00000200 {") &&
		 strstr(strstr(dot, "subgraph cluster_sw_00000200 {"), "fn_00000320 [") <
		 strstr(strstr(dot, "subgraph cluster_sw_00000200 {"), "  }\n"),
	      "", "graph: the switch is one cluster holding its downstream ports");
	SAY(k, has(dot, "fn_00000300", "ACS redirect RR+CR") &&
		 has(dot, "fn_00000308", "ACS redirect RR:") &&
		 has(dot, "fn_00000310", "ACS redirect EC"),
	      "", "graph: the three redirecting ports marked with their bits");
	SAY(k, !has(dot, "fn_00000318", "ACS redirect") &&
		 !has(dot, "fn_00000320", "ACS redirect"),
	      "", "graph: DirectTrans only and no ACS are not marked");
	SAY(k, has(dot, "fn_00000300 -> fn_00000400", "red3") &&
		 has(dot, "hb_000000 -> fn_000000e1", "red3"),
	      "", "graph: routes of blocked pairs are red up to the host bridge");
	SAY(k, has(dot, "fn_00000800", "blocked with NIC0, NVMe0, GPU0, NIC1") &&
		 !has(dot, "fn_00000800", "GPU1"),
	      "", "graph: NIC2 lists its blocked peers, not GPU1 (direct)");
	SAY(k, strstr(dot, "4 functions on no path to a P2P endpoint not drawn") &&
		 !strstr(dot, "fn_000000f8"),
	      "", "graph: q35's LPC, SATA and SMBus are left out and counted");
	free(dot);
}

static void highlighted(struct ktap *k, const struct check_run *r)
{
	int direct = pair_of(r, "gpu1", "NIC2"), blocked = pair_of(r, "NVMe0", "0000:05:00.0");
	char *dot;

	SAY(k, direct >= 0 && blocked >= 0, "",
	      "graph: --graph-pair takes labels in any case and addresses");
	SAY(k, pair_of(r, "GPU7", "NIC0") == -2 && pair_of(r, "GPU0", "gpu0") == -2 &&
		 pair_of(r, "0000:02:00.0", "GPU0") == -2,
	      "", "graph: an unknown label, the same device twice, a switch port are refused");
	if (direct < 0 || blocked < 0)
		return;
	dot = draw(r, direct);
	SAY(k, dot && has(dot, "fn_00000318 -> fn_00000700", "darkgreen\", penwidth=4") &&
		 has(dot, "fn_00000200 -> fn_00000320", "darkgreen\", penwidth=4") &&
		 has(dot, "fn_000000e1 -> fn_00000200", "gray80") &&
		 has(dot, "fn_00000300 -> fn_00000400", "gray80"),
	      dot ? dot : "", "graph: the direct pair GPU1-NIC2 lit green below the switch only");
	SAY(k, dot && strstr(dot, "highlighted: GPU1 0000:07:00.0 to NIC2 0000:08:00.0: ok, PIX"),
	      dot ? dot : "", "graph: the legend names the highlighted pair and its verdict");
	free(dot);
	dot = draw(r, blocked);
	SAY(k, dot && has(dot, "fn_00000300 -> fn_00000400", "red3\", penwidth=4") &&
		 has(dot, "fn_000000e1 -> fn_00000200", "red3\", penwidth=4") &&
		 has(dot, "hb_000000 -> fn_000000e1", "red3\", penwidth=4") &&
		 has(dot, "fn_00000200 -> fn_00000320", "gray80"),
	      dot ? dot : "", "graph: the blocked pair NVMe0-GPU0 lit red up to the host bridge");
	free(dot);
}

static void file_names(struct ktap *k)
{
	char err[512];

	SAY(k, report_graph_format("a.svg") == GRAPH_SVG &&
		 report_graph_format("A.PNG") == GRAPH_PNG &&
		 report_graph_format("x.dot") == GRAPH_DOT &&
		 report_graph_format("x.gv") == GRAPH_DOT &&
		 report_graph_format("x.jpg") == GRAPH_INVALID &&
		 report_graph_format("svg") == GRAPH_INVALID,
	      "", "graph: the file name picks DOT, SVG or PNG");
	SAY(k, report_graph_check("x.jpg", err, sizeof(err)) &&
		 strstr(err, ".dot or .gv file"),
	      err, "graph: another extension is refused with the ones that work");
}

void test_graph(struct ktap *k, const char *fixtures)
{
	struct p2pd_model m = { 0 };
	struct topo_header hdr;
	struct check_run r;
	struct options o;
	char path[4096], err[256];
	size_t len;
	char *text;

	file_names(k);
	snprintf(path, sizeof(path), "%s/switchacs.topo", fixtures);
	text = read_whole(path, &len);
	if (!SAY(k, text && !topo_parse_ex(text, len, &m, &hdr, err, sizeof(err)),
		   err, "graph: %s reads", path)) {
		free(text);
		return;
	}
	free(text);
	options_defaults(&o);
	judge_run(&r, &m, &o);
	SAY(k, r.judged.nr_pairs == 15, "", "graph: switchacs has 15 pairs");
	plain_picture(k, &r);
	highlighted(k, &r);
	judge_release(&r);
	p2pd_model_free(&m);
}
