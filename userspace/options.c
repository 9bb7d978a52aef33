// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line parsing.  Every value is checked here, so the rest of the
 * tool can trust struct options; a bad value is a usage error (exit 3)
 * with a sentence that names the option and what it accepts.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "topology/pciaddr.h"
#include "p2pdiag/model.h"

/*
 * One code per option, from 256 so that none is a character getopt_long
 * returns for itself; BIT() gives each its bit in a set of options.
 */
enum {
	OPT_SOURCE = 256, OPT_CROSS_CHECK, OPT_JSON, OPT_PROMETHEUS,
	OPT_BASELINE, OPT_SIZE, OPT_ITERATIONS, OPT_QUICK, OPT_PAIRS,
	OPT_NO_CUDA, OPT_TIMEOUT, OPT_MIN_RATIO, OPT_TOLERANCE,
	OPT_SYSFS_ROOT, OPT_TOPOLOGY_FILE, OPT_PCI_DUMP, OPT_CPUINFO,
	OPT_NO_COLOR, OPT_JOURNAL, OPT_VERSION, OPT_ROOT, OPT_GRAPH,
	OPT_GRAPH_PAIR, OPT_IF_BUSY, OPT_WAIT_IDLE, OPT_CURVE,
	OPT_EXPAND_PAIRS, OPT_NFD_FEATURES, OPT_SUMMARY, OPT_COMPARE_FLEET,
	OPT_EVIDENCE, OPT_DEADLINE, OPT_PROMETHEUS_PAIRS, OPT_SKIP_UNREADABLE,
	OPT_NFD_EXPIRY,
	OPT_LIST_FINDINGS, OPT_VERBOSE, OPT_HELP,
	OPT_END,
	/*
	 * Not options: what a value of --source says, for the conflicts that
	 * depend on it (--source=auto is the default and conflicts with
	 * nothing).
	 */
	GIVEN_SOURCE_SET = OPT_END, GIVEN_SOURCE_MODULE, GIVEN_JSON_FILE,
};

static const struct option long_options[] = {
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "cross-check", no_argument, NULL, OPT_CROSS_CHECK },
	{ "json", optional_argument, NULL, OPT_JSON },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "prometheus-pairs", required_argument, NULL, OPT_PROMETHEUS_PAIRS },
	{ "nfd-features", required_argument, NULL, OPT_NFD_FEATURES },
	{ "nfd-expiry", required_argument, NULL, OPT_NFD_EXPIRY },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "pairs", required_argument, NULL, OPT_PAIRS },
	{ "expand-pairs", no_argument, NULL, OPT_EXPAND_PAIRS },
	{ "no-cuda", no_argument, NULL, OPT_NO_CUDA },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "deadline", required_argument, NULL, OPT_DEADLINE },
	{ "if-busy", required_argument, NULL, OPT_IF_BUSY },
	{ "wait-idle", required_argument, NULL, OPT_WAIT_IDLE },
	{ "curve", no_argument, NULL, OPT_CURVE },
	{ "evidence", no_argument, NULL, OPT_EVIDENCE },
	{ "min-ratio", required_argument, NULL, OPT_MIN_RATIO },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },
	{ "topology-file", required_argument, NULL, OPT_TOPOLOGY_FILE },
	{ "pci-dump", required_argument, NULL, OPT_PCI_DUMP },
	{ "cpuinfo", required_argument, NULL, OPT_CPUINFO },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "journal", no_argument, NULL, OPT_JOURNAL },
	{ "verbose", no_argument, NULL, OPT_VERBOSE },
	{ "graph", required_argument, NULL, OPT_GRAPH },
	{ "graph-pair", required_argument, NULL, OPT_GRAPH_PAIR },
	{ "compare-fleet", no_argument, NULL, OPT_COMPARE_FLEET },
	{ "skip-unreadable", no_argument, NULL, OPT_SKIP_UNREADABLE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "list-findings", no_argument, NULL, OPT_LIST_FINDINGS },
	{ NULL, 0, NULL, 0 },
};

void options_usage(FILE *out)
{
	fputs(
"Usage: p2pdiag-check [OPTION]...\n"
"Check GPU, NIC and NVMe peer-to-peer paths: PCIe topology, ACS, IOMMU,\n"
"CUDA and NVML attributes, and measured, verified bandwidth.\n"
"\n"
"Topology source:\n"
"  --source=auto|module|pci  auto (default): /sys/kernel/p2pdiag when the\n"
"                            module is loaded, else a libpci walk\n"
"  --cross-check             read both sources and report every difference\n"
"  --topology-file FILE      judge a saved topology file (offline analysis)\n"
"  --pci-dump FILE           judge a saved `lspci -xxxx` dump (offline)\n"
"  --cpuinfo FILE            that server's /proc/cpuinfo (offline analysis)\n"
"  --evidence FILE...        judge pasted outputs of another machine (- is\n"
"                            stdin): nvidia-smi topo -m / -p2p,\n"
"                            p2pBandwidthLatencyTest, nvbandwidth (text,\n"
"                            JSON), rocm-smi --showtopo,\n"
"                            rocm_bandwidth_test,\n"
"                            osu_bw / osu_bibw (D D),\n"
"                            lspci -tv / -vvv / -xxxx, NCCL_DEBUG=INFO\n"
"                            lines, nccl-tests, dmesg, /proc/cmdline; each\n"
"                            by its content\n"
"  --sysfs-root DIR          read DIR instead of /sys/kernel/p2pdiag\n"
"  --root DIR                read every other system file (sysfs, /proc,\n"
"                            DMI, module parameters) under DIR, a copy of\n"
"                            another server's files (default $P2PDIAG_FSROOT\n"
"                            or /); /sys/kernel/p2pdiag too, unless\n"
"                            --sysfs-root names it\n"
"\n"
"Measurements:\n"
"  --quick                   topology and attributes only, no copies\n"
"  --no-cuda                 do not load CUDA or NVML\n"
"  --size BYTES              bytes per bandwidth copy, K/M/G suffixes\n"
"                            (default 64M)\n"
"  --iterations N            samples per figure, at least 3 (default 5)\n"
"  --pairs A,B[,...]         only pairs among these PCI addresses\n"
"  --expand-pairs            every pair on its own, not one per group of pairs\n"
"                            judged alike (a NIC's VFs); at most 1000000\n"
"  --timeout SECONDS         deadline for the copies (default 60)\n"
"  --deadline SECONDS        the whole run's deadline: no GPU call or copy\n"
"                            is waited on past it; one still running is a\n"
"                            finding that says \"check timed out\" (default\n"
"                            none; a health check's --deadline 30)\n"
"  --if-busy=refuse|measure|skip\n"
"                            a GPU that other processes use (or that is\n"
"                            busy with no process visible): refuse\n"
"                            (default) does not measure it and says who\n"
"                            holds it; measure measures anyway and says\n"
"                            the figures are not a verdict on the path;\n"
"                            skip (health checks) measures nothing while\n"
"                            any GPU is busy and says so as a note\n"
"  --wait-idle SECONDS       first wait up to SECONDS for busy GPUs to\n"
"                            become idle (default 0, at most 3600)\n"
"  --curve                   also time copies from 4 B to --size: fixed\n"
"                            cost per copy and half-peak size\n"
"\n"
"Judgement and output:\n"
"  --min-ratio R             measured/expected below R is low (default 0.85)\n"
"  --tolerance T             baseline bandwidth tolerance (default 0.10)\n"
"  -v, --verbose             also every finding of every pair, with its own\n"
"                            fix, and the engine's line for each pair\n"
"  --json                    JSON report (schema 1, see SCHEMA.md)\n"
"  --json=FILE               the JSON report in FILE, written atomically;\n"
"                            stdout keeps the text report\n"
"  --prometheus FILE         node_exporter textfile, written atomically\n"
"  --prometheus-pairs=not-ok|all\n"
"                            which pairs get series of their own: those\n"
"                            redirected, blocked or unknown (default), or all\n"
"  --nfd-features FILE       Node Feature Discovery feature file (node\n"
"                            labels p2pdiag.feature.node.kubernetes.io/*),\n"
"                            written atomically\n"
"  --nfd-expiry SECONDS      NFD drops those labels SECONDS after the run\n"
"                            (default 10800), so a node whose check stopped\n"
"                            loses them\n"
"  --summary                 one line instead of the report: healthy,\n"
"                            degraded or broken, the worst cause and its fix\n"
"  --baseline save FILE      save this run as a known-good baseline\n"
"  --baseline check FILE     compare this run with a saved baseline\n"
"  --compare-fleet DIR|FILE...\n"
"                            compare many saved reports (--json or\n"
"                            --baseline save; a DIR's *.json files):\n"
"                            grouped by model, BIOS and kernel, each group's\n"
"                            majority is its reference; lists the servers\n"
"                            that differ, worst first, and groups that differ\n"
"                            from their model's others (with --json,\n"
"                            --tolerance, --skip-unreadable)\n"
"  --skip-unreadable         with --compare-fleet: inputs that cannot be read\n"
"                            are listed with a note, not exit status 3\n"
"  --graph FILE              the PCI tree as a Graphviz picture: SVG or PNG\n"
"                            when FILE ends in .svg or .png (needs dot),\n"
"                            else DOT text\n"
"  --graph-pair A,B          in the picture, highlight the path of one pair\n"
"                            (labels as in the matrix, e.g. GPU0,NIC1, or\n"
"                            PCI addresses)\n"
"  --no-color                never colour the report\n"
"  --journal                 also write the findings to stderr with\n"
"                            sd-daemon(3) priorities (under systemd)\n"
"  -h, --help                this text\n"
"  --version                 the version\n"
"  --list-findings           every finding code, tab-separated: code,\n"
"                            severity, family, meaning, usual fix\n"
"\n"
"Exit status:\n"
"  0  all good (information only)\n"
"  1  warnings only (slow, degraded, risky, baseline drift)\n"
"  2  P2P broken (blocked, fake, corrupt data, hung copy)\n"
"  3  usage or environment error (bad option, unreadable source)\n"
"  130, 143, 129  ended by SIGINT, SIGTERM or SIGHUP (the GPU worker too)\n"
"With --compare-fleet: 0 no outlier, 1 outliers (a server or a group that\n"
"differs, facts without a majority, duplicated or stale reports), 2 an\n"
"outlier with a pair now blocked, 3 an input that could not be read (the\n"
"others are compared; 2 still wins, and --skip-unreadable leaves it out)\n",
	      out);
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return *s && !*end && !errno && isfinite(*v) ? 0 : -1;
}

static int parse_uint(const char *s, unsigned long long max,
		      unsigned long long *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && !errno && *v <= max ? 0 : -1;
}

/* "64M" -> 67108864; binary suffixes, as dd and nvbandwidth take them. */
static int parse_size(const char *s, size_t *out)
{
	unsigned long long v, mul = 1;
	char num[32];
	size_t n = strlen(s);

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	switch (num[n - 1]) {
	case 'k': case 'K':
		mul = 1ULL << 10;
		break;
	case 'm': case 'M':
		mul = 1ULL << 20;
		break;
	case 'g': case 'G':
		mul = 1ULL << 30;
		break;
	default:
		break;
	}
	if (mul != 1)
		num[n - 1] = '\0';
	if (parse_uint(num, (1ULL << 40) / mul, &v) || !v)
		return -1;
	*out = (size_t)(v * mul);
	return 0;
}

/* Which of @n @words @arg is, or -1: the values of a keyword option. */
static int one_of(const char *arg, const char *const *words, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, words[i]))
			return i;
	return -1;
}

/* "GPU0,NIC1": two names; what they stand for is known once the tree is read. */
static int parse_graph_pair(const char *arg, struct options *o, char *err,
			    size_t errlen)
{
	const char *comma = strchr(arg, ',');
	size_t la, lb;

	if (!comma || strchr(comma + 1, ','))
		return fail(err, errlen,
			    "--graph-pair: '%s' is not two endpoints A,B (e.g. --graph-pair GPU0,NIC1)",
			    arg);
	la = (size_t)(comma - arg);
	lb = strlen(comma + 1);
	if (!la || !lb || la >= OPT_NAME_MAX || lb >= OPT_NAME_MAX)
		return fail(err, errlen,
			    "--graph-pair: '%s' needs two names of 1 to %d characters, e.g. GPU0,NIC1 or 0000:1b:00.0,0000:1c:00.0",
			    arg, OPT_NAME_MAX - 1);
	memcpy(o->graph_pair[0], arg, la);
	o->graph_pair[0][la] = '\0';
	memcpy(o->graph_pair[1], comma + 1, lb + 1);
	o->has_graph_pair = true;
	return 0;
}

static int parse_pairs(const char *arg, struct options *o, char *err,
		       size_t errlen)
{
	char buf[1024], *tok, *save = NULL;
	unsigned int i;

	if (strlen(arg) >= sizeof(buf))
		return fail(err, errlen, "--pairs: list too long");
	strcpy(buf, arg);
	o->nr_pairs = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long long a;

		if (pciaddr_parse(tok, &a))
			return fail(err, errlen,
				    "--pairs: '%s' is not a PCI address (dddd:bb:dd.f or bb:dd.f, the domain at most ffffffff)",
				    tok);
		for (i = 0; i < o->nr_pairs; i++)
			if (o->pairs[i] == a)
				return fail(err, errlen,
					    "--pairs: '%s' is listed twice", tok);
		if (o->nr_pairs == OPT_MAX_PAIRS)
			return fail(err, errlen,
				    "--pairs: at most %d addresses", OPT_MAX_PAIRS);
		o->pairs[o->nr_pairs++] = a;
	}
	if (o->nr_pairs < 2)
		return fail(err, errlen,
			    "--pairs: give at least two PCI addresses, e.g. --pairs 0000:1b:00.0,0000:1c:00.0");
	return 0;
}

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->source = SOURCE_AUTO;
	o->size = OPT_DEFAULT_SIZE;
	o->iterations = OPT_DEFAULT_ITERATIONS;
	o->timeout_s = OPT_DEFAULT_TIMEOUT_S;
	o->min_ratio = OPT_DEFAULT_MIN_RATIO;
	o->tolerance = OPT_DEFAULT_TOLERANCE;
	o->nfd_expiry_s = OPT_DEFAULT_NFD_EXPIRY_S;
}

/* An option's bit in a set of options. */
#define BIT(c) (1ULL << ((c) - OPT_SOURCE))
_Static_assert(GIVEN_JSON_FILE - OPT_SOURCE < 64,
	       "every option and fact has a bit of an unsigned long long");

/* One command line being parsed, and what it has given so far. */
struct parse {
	int argc;
	char **argv;
	struct options *o;
	unsigned long long given;	/* BIT() of every option given */
	unsigned int order[OPT_END - OPT_SOURCE];	/* when each came first, from 1 */
	unsigned int seen;		/* options parsed so far */
	char *err;
	size_t errlen;
};

/* Returned by an option group for an option of another group. */
#define NOT_MINE 1

/* The name of option @c as --help spells it, without its dashes. */
static const char *option_name(int c)
{
	const struct option *l;

	for (l = long_options; l->name; l++)
		if (l->val == c)
			return l->name;
	return "?";
}

/* Of the options in @set that were given, the one given first. */
static int first_given(const struct parse *p, unsigned long long set)
{
	unsigned int best = 0;
	int c, first = OPT_SOURCE;

	for (c = OPT_SOURCE; c < OPT_END; c++)
		if ((p->given & set & BIT(c)) &&
		    (!best || p->order[c - OPT_SOURCE] < best)) {
			best = p->order[c - OPT_SOURCE];
			first = c;
		}
	return first;
}

/* The "Topology source" options of --help. */
static int source_option(int c, struct parse *p)
{
	/* in the order of enum source_kind */
	static const char *const sources[] = { "auto", "module", "pci" };
	struct options *o = p->o;
	int i;

	switch (c) {
	case OPT_SOURCE:
		i = one_of(optarg, sources, 3);
		if (i < 0)
			return fail(p->err, p->errlen,
				    "--source: '%s' is not auto, module or pci",
				    optarg);
		o->source = (enum source_kind)i;
		return 0;
	case OPT_CROSS_CHECK:
		o->cross_check = true;
		return 0;
	case OPT_TOPOLOGY_FILE:
		o->topology_file = optarg;
		return 0;
	case OPT_PCI_DUMP:
		o->pci_dump = optarg;
		return 0;
	case OPT_CPUINFO:
		o->cpuinfo = optarg;
		return 0;
	case OPT_EVIDENCE:
		o->evidence = true;
		return 0;
	case OPT_SYSFS_ROOT:
		o->sysfs_root = optarg;
		return 0;
	case OPT_ROOT:
		if (!*optarg)
			return fail(p->err, p->errlen, "--root needs a directory");
		o->root = optarg;
		return 0;
	}
	return NOT_MINE;
}

/* The "Measurements" options of --help. */
static int measure_option(int c, struct parse *p)
{
	static const char *const if_busy[] = { "refuse", "measure", "skip" };
	struct options *o = p->o;
	unsigned long long u;
	int i;

	switch (c) {
	case OPT_QUICK:
		o->quick = true;
		return 0;
	case OPT_NO_CUDA:
		o->no_cuda = true;
		return 0;
	case OPT_SIZE:
		if (parse_size(optarg, &o->size))
			return fail(p->err, p->errlen,
				    "--size: '%s' is not a positive size in bytes (K, M, G suffixes; at most 1T)",
				    optarg);
		return 0;
	case OPT_ITERATIONS:
		if (parse_uint(optarg, GPU_MAX_SAMPLES, &u) ||
		    u < GPU_MIN_SAMPLES)
			return fail(p->err, p->errlen,
				    "--iterations: '%s' is not a whole number from %u to %u",
				    optarg, GPU_MIN_SAMPLES, GPU_MAX_SAMPLES);
		o->iterations = (unsigned int)u;
		return 0;
	case OPT_PAIRS:
		return parse_pairs(optarg, o, p->err, p->errlen);
	case OPT_EXPAND_PAIRS:
		o->expand_pairs = true;
		return 0;
	case OPT_TIMEOUT:
		if (parse_double(optarg, &o->timeout_s) ||
		    o->timeout_s < 1 || o->timeout_s > 86400)
			return fail(p->err, p->errlen,
				    "--timeout: '%s' is not a number of seconds from 1 to 86400",
				    optarg);
		return 0;
	case OPT_DEADLINE:
		if (parse_double(optarg, &o->deadline_s) ||
		    o->deadline_s < 1 || o->deadline_s > 86400)
			return fail(p->err, p->errlen,
				    "--deadline: '%s' is not a number of seconds from 1 to 86400",
				    optarg);
		return 0;
	case OPT_IF_BUSY:
		i = one_of(optarg, if_busy, 3);
		if (i < 0)
			return fail(p->err, p->errlen,
				    "--if-busy: '%s' is not refuse, measure or skip",
				    optarg);
		o->measure_busy = i == 1;
		o->skip_busy = i == 2;
		return 0;
	case OPT_WAIT_IDLE:
		if (parse_double(optarg, &o->wait_idle_s) ||
		    o->wait_idle_s < 0 || o->wait_idle_s > OPT_MAX_WAIT_IDLE_S)
			return fail(p->err, p->errlen,
				    "--wait-idle: '%s' is not a number of seconds from 0 to 3600",
				    optarg);
		return 0;
	case OPT_CURVE:
		o->curve = true;
		return 0;
	}
	return NOT_MINE;
}

/* --baseline save|check FILE: the one option of two words. */
static int parse_baseline(struct parse *p)
{
	static const char *const modes[] = { "save", "check" };
	struct options *o = p->o;
	int i = one_of(optarg, modes, 2);

	if (i < 0)
		return fail(p->err, p->errlen,
			    "--baseline: '%s' is not save or check (usage: --baseline save|check FILE)",
			    optarg);
	o->baseline = i ? BASELINE_CHECK : BASELINE_SAVE;
	if (optind >= p->argc || !*p->argv[optind] || p->argv[optind][0] == '-')
		return fail(p->err, p->errlen, "--baseline %s: missing FILE",
			    optarg);
	o->baseline_file = p->argv[optind++];
	return 0;
}

/* A file name an output option writes to: never empty. */
static int output_file(const char **to, const char *option, struct parse *p)
{
	if (!*optarg)
		return fail(p->err, p->errlen, "%s: empty file name", option);
	*to = optarg;
	return 0;
}

/* The "Judgement and output" options of --help. */
static int output_option(int c, struct parse *p)
{
	struct options *o = p->o;

	switch (c) {
	case OPT_MIN_RATIO:
		if (parse_double(optarg, &o->min_ratio) ||
		    o->min_ratio <= 0 || o->min_ratio > 1)
			return fail(p->err, p->errlen,
				    "--min-ratio: '%s' is not a number in (0, 1]",
				    optarg);
		return 0;
	case OPT_TOLERANCE:
		if (parse_double(optarg, &o->tolerance) ||
		    o->tolerance < 0 || o->tolerance >= 1)
			return fail(p->err, p->errlen,
				    "--tolerance: '%s' is not a number in [0, 1)",
				    optarg);
		return 0;
	case OPT_VERBOSE:
		o->verbose = true;
		return 0;
	case OPT_JSON:
		if (!optarg)
			o->json = true;
		else if (output_file(&o->json_file, "--json", p))
			return -1;
		return 0;
	case OPT_PROMETHEUS:
		return output_file(&o->prometheus, "--prometheus", p);
	case OPT_PROMETHEUS_PAIRS:
		if (!strcmp(optarg, "all"))
			o->prometheus_all_pairs = true;
		else if (strcmp(optarg, "not-ok"))
			return fail(p->err, p->errlen,
				    "--prometheus-pairs: '%s' is not not-ok or all",
				    optarg);
		return 0;
	case OPT_NFD_FEATURES:
		return output_file(&o->nfd_features, "--nfd-features", p);
	case OPT_NFD_EXPIRY: {
		unsigned long long u;

		if (parse_uint(optarg, OPT_MAX_NFD_EXPIRY_S, &u) || !u)
			return fail(p->err, p->errlen,
				    "--nfd-expiry: '%s' is not a number of seconds from 1 to %u",
				    optarg, OPT_MAX_NFD_EXPIRY_S);
		o->nfd_expiry_s = (unsigned int)u;
		return 0;
	}
	case OPT_SUMMARY:
		o->summary = true;
		return 0;
	case OPT_BASELINE:
		return parse_baseline(p);
	case OPT_COMPARE_FLEET:
		o->compare_fleet = true;
		return 0;
	case OPT_SKIP_UNREADABLE:
		o->skip_unreadable = true;
		return 0;
	case OPT_GRAPH:
		return output_file(&o->graph, "--graph", p);
	case OPT_GRAPH_PAIR:
		return parse_graph_pair(optarg, o, p->err, p->errlen);
	case OPT_NO_COLOR:
		o->no_color = true;
		return 0;
	case OPT_JOURNAL:
		o->journal = true;
		return 0;
	case OPT_HELP:
		o->help = true;
		return 0;
	case OPT_VERSION:
		o->version = true;
		return 0;
	case OPT_LIST_FINDINGS:
		o->list_findings = true;
		return 0;
	}
	return NOT_MINE;
}

/* What the run does with the operands, and so which options go with it. */
enum run_mode {
	RUN_MACHINE,	/* judge a machine, or a saved topology of one */
	RUN_EVIDENCE,	/* --evidence: judge pasted files */
	RUN_FLEET,	/* --compare-fleet: compare saved reports */
};

/* The options --compare-fleet takes along; it refuses every other. */
#define FLEET_TAKES (BIT(OPT_COMPARE_FLEET) | BIT(OPT_JSON) | \
		     BIT(OPT_TOLERANCE) | BIT(OPT_SKIP_UNREADABLE) | BIT(OPT_NO_COLOR) | BIT(OPT_HELP) | \
		     BIT(OPT_VERSION))
#define EVERY_OPTION (BIT(OPT_END) - 1)
/* A row: --evidence judges another machine's files, so not with @c. */
#define NOT_WITH_EVIDENCE(c, name) { RUN_EVIDENCE, BIT(c), 0, 0, \
	"--evidence judges pasted files, not a machine: it cannot be combined with " name, NULL }

/*
 * Which options go with which mode, one row per conflict, checked in this
 * order: a command line of @mode that gives every option of @with and
 * none of @without is refused with @why.  A row with @any also needs one
 * of those, and names the one given first between @why and @after.
 */
static const struct conflict {
	enum run_mode mode;
	unsigned long long with, without, any;
	const char *why, *after;
} conflicts[] = {
	{ RUN_FLEET, BIT(OPT_EVIDENCE), 0, 0,
	  "--compare-fleet and --evidence each take the operands: give one", NULL },
	{ RUN_FLEET, BIT(GIVEN_JSON_FILE), 0, 0,
	  "--compare-fleet prints its comparison: --json=FILE does not apply (use --json)", NULL },
	{ RUN_FLEET, 0, 0, EVERY_OPTION & ~FLEET_TAKES,
	  "--compare-fleet compares saved reports: ",
	  " does not apply (it takes --json, --tolerance and --skip-unreadable)" },
	{ RUN_MACHINE, BIT(OPT_SKIP_UNREADABLE), 0, 0,
	  "--skip-unreadable applies to --compare-fleet's reports only", NULL },
	NOT_WITH_EVIDENCE(OPT_SKIP_UNREADABLE, "--skip-unreadable"),
	NOT_WITH_EVIDENCE(OPT_TOPOLOGY_FILE, "--topology-file"),
	NOT_WITH_EVIDENCE(OPT_PCI_DUMP, "--pci-dump"),
	NOT_WITH_EVIDENCE(OPT_CROSS_CHECK, "--cross-check"),
	NOT_WITH_EVIDENCE(GIVEN_SOURCE_SET, "--source"),
	NOT_WITH_EVIDENCE(OPT_BASELINE, "--baseline"),
	NOT_WITH_EVIDENCE(OPT_SYSFS_ROOT, "--sysfs-root"),
	NOT_WITH_EVIDENCE(OPT_PROMETHEUS, "--prometheus"),
	NOT_WITH_EVIDENCE(OPT_GRAPH, "--graph"),
	NOT_WITH_EVIDENCE(OPT_GRAPH_PAIR, "--graph-pair"),
	NOT_WITH_EVIDENCE(OPT_NFD_FEATURES, "--nfd-features"),
	NOT_WITH_EVIDENCE(OPT_NFD_EXPIRY, "--nfd-expiry"),
	{ RUN_MACHINE, BIT(OPT_NFD_EXPIRY), BIT(OPT_NFD_FEATURES), 0,
	  "--nfd-expiry says how long --nfd-features' labels hold: give --nfd-features too", NULL },
	NOT_WITH_EVIDENCE(OPT_PAIRS, "--pairs"),
	{ RUN_MACHINE, BIT(OPT_TOPOLOGY_FILE) | BIT(OPT_PCI_DUMP), 0, 0,
	  "--topology-file and --pci-dump each name the topology: give one", NULL },
	{ RUN_MACHINE, BIT(OPT_TOPOLOGY_FILE) | BIT(GIVEN_SOURCE_SET), 0, 0,
	  "--source cannot be combined with --topology-file", NULL },
	{ RUN_MACHINE, BIT(OPT_PCI_DUMP) | BIT(GIVEN_SOURCE_MODULE), 0, 0,
	  "--pci-dump is read with libpci: it cannot be --source=module", NULL },
	{ RUN_MACHINE, BIT(OPT_CROSS_CHECK) | BIT(OPT_TOPOLOGY_FILE), 0, 0,
	  "--cross-check compares the module with libpci: a topology file is neither", NULL },
	{ RUN_MACHINE, BIT(OPT_GRAPH_PAIR), BIT(OPT_GRAPH), 0,
	  "--graph-pair highlights a path in the picture: add --graph FILE", NULL },
	{ RUN_MACHINE, BIT(OPT_CROSS_CHECK) | BIT(GIVEN_SOURCE_SET), 0, 0,
	  "--cross-check reads both sources: do not combine it with --source", NULL },
	{ RUN_MACHINE, BIT(OPT_SUMMARY) | BIT(OPT_JSON), 0, 0,
	  "--summary and --json each are what stdout gets: give one", NULL },
};

static int check_conflicts(const struct parse *p, enum run_mode mode)
{
	unsigned long long given = p->given;
	const struct conflict *r;

	if (p->o->source != SOURCE_AUTO)
		given |= BIT(GIVEN_SOURCE_SET);
	if (p->o->source == SOURCE_MODULE)
		given |= BIT(GIVEN_SOURCE_MODULE);
	/* --json=FILE leaves stdout to the text report or --summary */
	if (!p->o->json)
		given &= ~BIT(OPT_JSON);
	if (p->o->json_file)
		given |= BIT(GIVEN_JSON_FILE);
	for (r = conflicts; r < conflicts + sizeof(conflicts) / sizeof(*r); r++) {
		if (r->mode != mode || (given & r->with) != r->with ||
		    (given & r->without) || (r->any && !(given & r->any)))
			continue;
		if (r->any)
			return fail(p->err, p->errlen, "%s'--%s'%s", r->why,
				    option_name(first_given(p, r->any)), r->after);
		return fail(p->err, p->errlen, "%s", r->why);
	}
	return 0;
}

/* The operands: --compare-fleet's reports, --evidence's files, else none. */
static int take_operands(const struct parse *p, enum run_mode mode)
{
	static const char *const missing[] = {
		[RUN_EVIDENCE] = "--evidence needs at least one FILE (- for stdin), e.g. --evidence topo.txt p2p.txt",
		[RUN_FLEET] = "--compare-fleet: name the reports, e.g. --compare-fleet reports/ or a.json b.json",
	};
	struct options *o = p->o;
	char **rest = p->argv + optind;
	unsigned int n = (unsigned int)(p->argc - optind);

	if (mode == RUN_MACHINE)
		return n ? fail(p->err, p->errlen,
				"unexpected argument '%s' (see --help)", rest[0]) : 0;
	/* --help and --version answer without operands */
	if (!n && !o->help && !o->version)
		return fail(p->err, p->errlen, "%s", missing[mode]);
	if (mode == RUN_FLEET) {
		o->fleet_paths = rest;
		o->nr_fleet_paths = n;
	} else {
		o->evidence_files = rest;
		o->nr_evidence = n;
	}
	return 0;
}

/* One option getopt_long returned: its value, or what is wrong with it. */
static int take_option(int c, struct parse *p)
{
	int rc;

	if (c == 'h' || c == 'v')
		c = c == 'h' ? OPT_HELP : OPT_VERBOSE;
	if (c == ':')
		return fail(p->err, p->errlen, "option '%s' needs a value",
			    p->argv[optind - 1]);
	if (c < OPT_SOURCE || c >= OPT_END)
		return fail(p->err, p->errlen, "unknown option '%s' (see --help)",
			    p->argv[optind - 1]);
	if (!(p->given & BIT(c)))
		p->order[c - OPT_SOURCE] = ++p->seen;
	p->given |= BIT(c);
	rc = source_option(c, p);
	if (rc == NOT_MINE)
		rc = measure_option(c, p);
	if (rc == NOT_MINE)
		rc = output_option(c, p);
	return rc;
}

/*
 * Each option's value is checked by the group of --help it belongs to;
 * what options may go together is the conflicts[] table's, once every
 * option is read.
 */
int options_parse(int argc, char **argv, struct options *o,
		  char *err, size_t errlen)
{
	struct parse p = {
		.argc = argc, .argv = argv, .o = o, .err = err, .errlen = errlen,
	};
	enum run_mode mode;
	int c;

	options_defaults(o);
	opterr = 0;		/* we word the errors ourselves */
	optind = 0;		/* full reset: the tests parse many times */
	while ((c = getopt_long(argc, argv, ":hv", long_options, NULL)) != -1)
		if (take_option(c, &p))
			return -1;
	mode = o->compare_fleet ? RUN_FLEET : o->evidence ? RUN_EVIDENCE :
	       RUN_MACHINE;
	/*
	 * A machine's run names a stray word before any conflict; the other
	 * modes' conflicts come before their missing operands.
	 */
	if (mode == RUN_MACHINE)
		return take_operands(&p, mode) ? -1 : check_conflicts(&p, mode);
	return check_conflicts(&p, mode) ? -1 : take_operands(&p, mode);
}
