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

enum {
	OPT_SOURCE = 256, OPT_CROSS_CHECK, OPT_JSON, OPT_PROMETHEUS,
	OPT_BASELINE, OPT_SIZE, OPT_ITERATIONS, OPT_QUICK, OPT_PAIRS,
	OPT_NO_CUDA, OPT_TIMEOUT, OPT_MIN_RATIO, OPT_TOLERANCE,
	OPT_SYSFS_ROOT, OPT_TOPOLOGY_FILE, OPT_PCI_DUMP, OPT_CPUINFO,
	OPT_NO_COLOR, OPT_JOURNAL, OPT_VERSION, OPT_ROOT, OPT_GRAPH,
	OPT_GRAPH_PAIR, OPT_IF_BUSY, OPT_WAIT_IDLE, OPT_CURVE,
	OPT_EXPAND_PAIRS, OPT_NFD_FEATURES, OPT_SUMMARY, OPT_COMPARE_FLEET,
	OPT_EVIDENCE,
	OPT_LIST_FINDINGS,
};

static const struct option long_options[] = {
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "cross-check", no_argument, NULL, OPT_CROSS_CHECK },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "nfd-features", required_argument, NULL, OPT_NFD_FEATURES },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "pairs", required_argument, NULL, OPT_PAIRS },
	{ "expand-pairs", no_argument, NULL, OPT_EXPAND_PAIRS },
	{ "no-cuda", no_argument, NULL, OPT_NO_CUDA },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
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
	{ "verbose", no_argument, NULL, 'v' },
	{ "graph", required_argument, NULL, OPT_GRAPH },
	{ "graph-pair", required_argument, NULL, OPT_GRAPH_PAIR },
	{ "compare-fleet", no_argument, NULL, OPT_COMPARE_FLEET },
	{ "help", no_argument, NULL, 'h' },
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
"                            JSON), lspci -tv / -vvv / -xxxx, NCCL_DEBUG=INFO\n"
"                            lines, nccl-tests, dmesg; each by its content\n"
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
"  --if-busy=refuse|measure  a GPU that other processes use (or that is\n"
"                            busy with no process visible): refuse\n"
"                            (default) does not measure it and says who\n"
"                            holds it; measure measures anyway and says\n"
"                            the figures are not a verdict on the path\n"
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
"  --prometheus FILE         node_exporter textfile, written atomically\n"
"  --nfd-features FILE       Node Feature Discovery feature file (node\n"
"                            labels p2pdiag.feature.node.kubernetes.io/*),\n"
"                            written atomically\n"
"  --summary                 one line instead of the report: healthy,\n"
"                            degraded or broken, the worst cause and its fix\n"
"  --baseline save FILE      save this run as a known-good baseline\n"
"  --baseline check FILE     compare this run with a saved baseline\n"
"  --compare-fleet DIR|FILE...\n"
"                            compare many saved reports (--json or\n"
"                            --baseline save; a DIR's *.json files):\n"
"                            grouped by model, BIOS and kernel, each group's\n"
"                            majority is its reference; lists the servers\n"
"                            that differ, worst first (with --json, --tolerance)\n"
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
"With --compare-fleet: 0 no outlier, 1 outliers, 2 an outlier with a pair\n"
"now blocked, 3 an input that could not be read (the others are compared)\n",
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

/* The options that --compare-fleet takes along. */
static bool fleet_option(int c)
{
	return c == OPT_COMPARE_FLEET || c == OPT_JSON || c == OPT_TOLERANCE ||
	       c == OPT_NO_COLOR || c == 'h' || c == OPT_VERSION;
}

/* --compare-fleet: the operands are its inputs; other options are refused. */
static int fleet_operands(int argc, char **argv, struct options *o,
			  const char *other, char *err, size_t errlen)
{
	if (other)
		return fail(err, errlen,
			    "--compare-fleet compares saved reports: '%s' does not apply (it takes --json and --tolerance)",
			    other);
	if (optind >= argc && !o->help && !o->version)
		return fail(err, errlen,
			    "--compare-fleet: name the reports, e.g. --compare-fleet reports/ or a.json b.json");
	o->fleet_paths = argv + optind;
	o->nr_fleet_paths = (unsigned int)(argc - optind);
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
}

/* --evidence judges files from another machine: nothing of this one. */
static int evidence_conflicts(const struct options *o, char *err, size_t errlen)
{
	const char *other = o->topology_file ? "--topology-file" :
			    o->pci_dump ? "--pci-dump" :
			    o->cross_check ? "--cross-check" :
			    o->source != SOURCE_AUTO ? "--source" :
			    o->baseline != BASELINE_NONE ? "--baseline" :
			    o->sysfs_root ? "--sysfs-root" :
			    o->prometheus ? "--prometheus" :
			    o->graph ? "--graph" :
			    o->has_graph_pair ? "--graph-pair" :
			    o->nfd_features ? "--nfd-features" :
			    o->nr_pairs ? "--pairs" : NULL;

	if (other)
		return fail(err, errlen,
			    "--evidence judges pasted files, not a machine: it cannot be combined with %s",
			    other);
	if (!o->nr_evidence && !o->help && !o->version)
		return fail(err, errlen,
			    "--evidence needs at least one FILE (- for stdin), e.g. --evidence topo.txt p2p.txt");
	return 0;
}

/* Options that are each fine alone but contradict each other. */
static int check_combinations(const struct options *o, char *err, size_t errlen)
{
	if (o->topology_file && o->pci_dump)
		return fail(err, errlen,
			    "--topology-file and --pci-dump each name the topology: give one");
	if (o->topology_file && o->source != SOURCE_AUTO)
		return fail(err, errlen,
			    "--source cannot be combined with --topology-file");
	if (o->pci_dump && o->source == SOURCE_MODULE)
		return fail(err, errlen,
			    "--pci-dump is read with libpci: it cannot be --source=module");
	if (o->cross_check && o->topology_file)
		return fail(err, errlen,
			    "--cross-check compares the module with libpci: a topology file is neither");
	if (o->has_graph_pair && !o->graph)
		return fail(err, errlen,
			    "--graph-pair highlights a path in the picture: add --graph FILE");
	if (o->cross_check && o->source != SOURCE_AUTO)
		return fail(err, errlen,
			    "--cross-check reads both sources: do not combine it with --source");
	if (o->summary && o->json)
		return fail(err, errlen,
			    "--summary and --json each are what stdout gets: give one");
	return 0;
}

/*
 * One case per option of long_options[], in its order: the one place that
 * says what each option's value may be, so it stays one switch (about 150
 * lines of two- to five-line cases) rather than a function per option;
 * the checks across options are check_combinations()'s.
 */
int options_parse(int argc, char **argv, struct options *o,
		  char *err, size_t errlen)
{
	const char *other = NULL;	/* the first option --compare-fleet does not take */
	unsigned long long u;
	int c;

	options_defaults(o);
	opterr = 0;		/* we word the errors ourselves */
	optind = 0;		/* full reset: the tests parse many times */
	while ((c = getopt_long(argc, argv, ":hv", long_options, NULL)) != -1) {
		if (!fleet_option(c) && !other)
			other = argv[optind - 1];
		switch (c) {
		case OPT_SOURCE:
			if (!strcmp(optarg, "auto"))
				o->source = SOURCE_AUTO;
			else if (!strcmp(optarg, "module"))
				o->source = SOURCE_MODULE;
			else if (!strcmp(optarg, "pci"))
				o->source = SOURCE_PCI;
			else
				return fail(err, errlen,
					    "--source: '%s' is not auto, module or pci",
					    optarg);
			break;
		case OPT_CROSS_CHECK:
			o->cross_check = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_PROMETHEUS:
			if (!*optarg)
				return fail(err, errlen, "--prometheus: empty file name");
			o->prometheus = optarg;
			break;
		case OPT_BASELINE:
			if (!strcmp(optarg, "save"))
				o->baseline = BASELINE_SAVE;
			else if (!strcmp(optarg, "check"))
				o->baseline = BASELINE_CHECK;
			else
				return fail(err, errlen,
					    "--baseline: '%s' is not save or check (usage: --baseline save|check FILE)",
					    optarg);
			if (optind >= argc || !*argv[optind] ||
			    argv[optind][0] == '-')
				return fail(err, errlen,
					    "--baseline %s: missing FILE", optarg);
			o->baseline_file = argv[optind++];
			break;
		case OPT_SIZE:
			if (parse_size(optarg, &o->size))
				return fail(err, errlen,
					    "--size: '%s' is not a positive size in bytes (K, M, G suffixes; at most 1T)",
					    optarg);
			break;
		case OPT_ITERATIONS:
			if (parse_uint(optarg, GPU_MAX_SAMPLES, &u) ||
			    u < GPU_MIN_SAMPLES)
				return fail(err, errlen,
					    "--iterations: '%s' is not a whole number from %u to %u",
					    optarg, GPU_MIN_SAMPLES, GPU_MAX_SAMPLES);
			o->iterations = (unsigned int)u;
			break;
		case OPT_QUICK:
			o->quick = true;
			break;
		case OPT_PAIRS:
			if (parse_pairs(optarg, o, err, errlen))
				return -1;
			break;
		case OPT_EXPAND_PAIRS:
			o->expand_pairs = true;
			break;
		case OPT_NO_CUDA:
			o->no_cuda = true;
			break;
		case OPT_TIMEOUT:
			if (parse_double(optarg, &o->timeout_s) ||
			    o->timeout_s < 1 || o->timeout_s > 86400)
				return fail(err, errlen,
					    "--timeout: '%s' is not a number of seconds from 1 to 86400",
					    optarg);
			break;
		case OPT_IF_BUSY:
			if (!strcmp(optarg, "refuse"))
				o->measure_busy = false;
			else if (!strcmp(optarg, "measure"))
				o->measure_busy = true;
			else
				return fail(err, errlen,
					    "--if-busy: '%s' is not refuse or measure",
					    optarg);
			break;
		case OPT_WAIT_IDLE:
			if (parse_double(optarg, &o->wait_idle_s) ||
			    o->wait_idle_s < 0 ||
			    o->wait_idle_s > OPT_MAX_WAIT_IDLE_S)
				return fail(err, errlen,
					    "--wait-idle: '%s' is not a number of seconds from 0 to 3600",
					    optarg);
			break;
		case OPT_CURVE:
			o->curve = true;
			break;
		case OPT_EVIDENCE:
			o->evidence = true;
			break;
		case OPT_MIN_RATIO:
			if (parse_double(optarg, &o->min_ratio) ||
			    o->min_ratio <= 0 || o->min_ratio > 1)
				return fail(err, errlen,
					    "--min-ratio: '%s' is not a number in (0, 1]",
					    optarg);
			break;
		case OPT_TOLERANCE:
			if (parse_double(optarg, &o->tolerance) ||
			    o->tolerance < 0 || o->tolerance >= 1)
				return fail(err, errlen,
					    "--tolerance: '%s' is not a number in [0, 1)",
					    optarg);
			break;
		case OPT_SYSFS_ROOT:
			o->sysfs_root = optarg;
			break;
		case OPT_TOPOLOGY_FILE:
			o->topology_file = optarg;
			break;
		case OPT_PCI_DUMP:
			o->pci_dump = optarg;
			break;
		case OPT_CPUINFO:
			o->cpuinfo = optarg;
			break;
		case OPT_ROOT:
			if (!*optarg)
				return fail(err, errlen, "--root needs a directory");
			o->root = optarg;
			break;
		case OPT_NO_COLOR:
			o->no_color = true;
			break;
		case OPT_JOURNAL:
			o->journal = true;
			break;
		case OPT_NFD_FEATURES:
			if (!*optarg)
				return fail(err, errlen, "--nfd-features: empty file name");
			o->nfd_features = optarg;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_GRAPH:
			if (!*optarg)
				return fail(err, errlen, "--graph: empty file name");
			o->graph = optarg;
			break;
		case OPT_GRAPH_PAIR:
			if (parse_graph_pair(optarg, o, err, errlen))
				return -1;
			break;
		case 'h':
			o->help = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case OPT_VERSION:
			o->version = true;
			break;
		case OPT_COMPARE_FLEET:
			o->compare_fleet = true;
			break;
		case OPT_LIST_FINDINGS:
			o->list_findings = true;
			break;
		case ':':
			return fail(err, errlen, "option '%s' needs a value",
				    argv[optind - 1]);
		default:
			return fail(err, errlen, "unknown option '%s' (see --help)",
				    argv[optind - 1]);
		}
	}
	if (o->compare_fleet && o->evidence)
		return fail(err, errlen,
			    "--compare-fleet and --evidence each take the operands: give one");
	if (o->compare_fleet)
		return fleet_operands(argc, argv, o, other, err, errlen);
	if (o->evidence) {
		o->evidence_files = argv + optind;
		o->nr_evidence = (unsigned int)(argc - optind);
		return evidence_conflicts(o, err, errlen);
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s' (see --help)",
			    argv[optind]);
	return check_combinations(o, err, errlen);
}
