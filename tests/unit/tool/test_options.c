// SPDX-License-Identifier: GPL-2.0
/* Option parsing: every option's value, every kind of bad input. */
#include <string.h>

#include "tool_util.h"
#include "options.h"
#include "topology/pciaddr.h"

void test_options(struct ktap *k);

static int parse(struct options *o, char *err, size_t errlen, ...)
{
	/* static: options keep pointers into argv, as into main()'s */
	static char *argv[32];
	int argc = 0;
	va_list ap;
	char *s;

	argv[argc++] = (char *)"p2pdiag-check";
	va_start(ap, errlen);
	while ((s = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = s;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return options_parse(argc, argv, o, err, errlen);
}

/* A bad command line must fail, and say which option is wrong. */
static void bad(struct ktap *k, const char *what, const char *needle, ...)
{
	struct options o;
	char err[512];
	char *argv[32];
	int argc = 0, rc;
	va_list ap;
	char *s;

	argv[argc++] = (char *)"p2pdiag-check";
	va_start(ap, needle);
	while ((s = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = s;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	rc = options_parse(argc, argv, &o, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, needle), err,
		    "options: %s is rejected naming '%s'", what, needle);
}

void test_options(struct ktap *k)
{
	struct options o;
	char err[512];
	unsigned long long a;

	CHECK(k, !parse(&o, err, sizeof(err), NULL) &&
		 o.source == SOURCE_AUTO && o.size == OPT_DEFAULT_SIZE &&
		 o.iterations == 5 && o.timeout_s == 60 && o.min_ratio == 0.85 &&
		 !o.json && !o.prometheus && o.baseline == BASELINE_NONE,
	      "options: defaults (auto source, 64M, 5 iterations, 60 s, 0.85)");
	CHECK(k, !parse(&o, err, sizeof(err), "--source=pci", "--json",
			"--prometheus", "/tmp/x.prom", "--size", "16M",
			"--iterations", "7", "--quick", "--pairs",
			"0000:1b:00.0,1c:00.1", "--no-cuda", "--timeout", "5",
			"--min-ratio", "0.5", "--tolerance", "0.2",
			"--sysfs-root", "/tmp/t", NULL) &&
		 o.source == SOURCE_PCI && o.json && !strcmp(o.prometheus, "/tmp/x.prom") &&
		 o.size == 16u << 20 && o.iterations == 7 && o.quick &&
		 o.nr_pairs == 2 && o.pairs[0] == P2PD_ADDR(0, 0x1b, 0, 0) &&
		 o.pairs[1] == P2PD_ADDR(0, 0x1c, 0, 1) && o.no_cuda &&
		 o.timeout_s == 5 && o.min_ratio == 0.5 && o.tolerance == 0.2 &&
		 !strcmp(o.sysfs_root, "/tmp/t"),
	      "options: every value option is parsed");
	CHECK(k, !parse(&o, err, sizeof(err), "--baseline", "save", "/tmp/b.json",
			"--json", NULL) &&
		 o.baseline == BASELINE_SAVE && !strcmp(o.baseline_file, "/tmp/b.json") && o.json,
	      "options: --baseline save FILE takes two words and parsing goes on");
	CHECK(k, !parse(&o, err, sizeof(err), "--baseline", "check", "b.json", NULL) &&
		 o.baseline == BASELINE_CHECK,
	      "options: --baseline check FILE");
	CHECK(k, !parse(&o, err, sizeof(err), "--size", "4k", NULL) && o.size == 4096,
	      "options: --size 4k is 4096 bytes");
	CHECK(k, !parse(&o, err, sizeof(err), "--cross-check", "--sysfs-root", "/x",
			"--pci-dump", "d", NULL) && o.cross_check,
	      "options: --cross-check with a fake tree and a dump");
	CHECK(k, !parse(&o, err, sizeof(err), "--help", NULL) && o.help,
	      "options: --help");

	bad(k, "an unknown option", "unknown option '--frobnicate'", "--frobnicate", NULL);
	bad(k, "a missing value", "needs a value", "--size", NULL);
	bad(k, "--source=gpu", "--source", "--source=gpu", NULL);
	bad(k, "--iterations 2", "--iterations", "--iterations", "2", NULL);
	bad(k, "--iterations -3", "--iterations", "--iterations", "-3", NULL);
	bad(k, "--size 0", "--size", "--size", "0", NULL);
	bad(k, "--size 12Q", "--size", "--size", "12Q", NULL);
	bad(k, "--size 99999999999G", "--size", "--size", "99999999999G", NULL);
	bad(k, "--timeout 0", "--timeout", "--timeout", "0", NULL);
	bad(k, "--timeout nan", "--timeout", "--timeout", "nan", NULL);
	bad(k, "--min-ratio 1.5", "--min-ratio", "--min-ratio", "1.5", NULL);
	bad(k, "--min-ratio 0", "--min-ratio", "--min-ratio", "0", NULL);
	bad(k, "--tolerance 1", "--tolerance", "--tolerance", "1", NULL);
	bad(k, "--pairs with one address", "at least two", "--pairs", "1b:00.0", NULL);
	bad(k, "--pairs with a non-address", "'gpu0'", "--pairs", "1b:00.0,gpu0", NULL);
	bad(k, "--pairs with a duplicate", "twice", "--pairs", "1b:00.0,0000:1b:00.0", NULL);
	bad(k, "--baseline keep", "--baseline", "--baseline", "keep", "f", NULL);
	bad(k, "--baseline save without FILE", "missing FILE", "--baseline", "save", NULL);
	bad(k, "--baseline save followed by an option", "missing FILE", "--baseline", "save", "--json", NULL);
	bad(k, "a stray argument", "unexpected argument 'extra'", "extra", NULL);
	bad(k, "--topology-file with --pci-dump", "give one", "--topology-file", "t",
	    "--pci-dump", "d", NULL);
	bad(k, "--topology-file with --source", "--source", "--topology-file", "t",
	    "--source=pci", NULL);
	bad(k, "--pci-dump with --source=module", "--pci-dump", "--pci-dump", "d",
	    "--source=module", NULL);
	bad(k, "--cross-check with --topology-file", "--cross-check", "--cross-check",
	    "--topology-file", "t", NULL);
	bad(k, "--cross-check with --source", "--cross-check", "--cross-check",
	    "--source=module", NULL);

	CHECK(k, !pciaddr_parse("0000:1b:00.0", &a) && a == P2PD_ADDR(0, 0x1b, 0, 0) &&
		 !pciaddr_parse("ffff:ff:1f.7", &a) && a == P2PD_ADDR(0xffff, 0xff, 0x1f, 7) &&
		 !pciaddr_parse("c1:00.1", &a) && a == P2PD_ADDR(0, 0xc1, 0, 1),
	      "pciaddr: long and short forms");
	CHECK(k, !pciaddr_parse("10000:e1:00.0", &a) && a == P2PD_ADDR(0x10000, 0xe1, 0, 0) &&
		 a != P2PD_ADDR(0, 0xe1, 0, 0) &&
		 !pciaddr_parse("ffffffff:ff:1f.7", &a) &&
		 a == P2PD_ADDR(0xffffffffu, 0xff, 0x1f, 7) &&
		 pciaddr_parse("123456789:00:00.0", &a) && pciaddr_parse("1000g:e1:00.0", &a),
	      "pciaddr: domains above ffff (Intel VMD's, lspci's 10000:e1:00.0) up to ffffffff; nine digits or a non-hex digit refused");
	CHECK(k, pciaddr_parse("0000:1b:00.8", &a) && pciaddr_parse("0000:1b:20.0", &a) &&
		 pciaddr_parse("1b:00", &a) && pciaddr_parse("100000000:1b:00.0", &a) &&
		 pciaddr_parse("0000:1b:00.0x", &a) && pciaddr_parse("", &a) &&
		 pciaddr_parse("g0:00.0", &a) && pciaddr_parse("0000:1b:00.0.1", &a) &&
		 pciaddr_parse(":1b:00.0", &a),
	      "pciaddr: function 8, device 0x20, a domain past ffffffff, missing parts, junk are refused");
	CHECK(k, !parse(&o, err, sizeof(err), "--evidence", "--json", "topo.txt", "-",
			"p2p.txt", NULL) &&
		 o.evidence && o.json && o.nr_evidence == 3 &&
		 !strcmp(o.evidence_files[0], "topo.txt") &&
		 !strcmp(o.evidence_files[1], "-") && !strcmp(o.evidence_files[2], "p2p.txt"),
	      "options: --evidence takes its files (- for stdin) wherever the options are");
	bad(k, "--evidence without a file", "needs at least one FILE", "--evidence", NULL);
	bad(k, "--evidence with --pci-dump", "cannot be combined with --pci-dump",
	    "--evidence", "--pci-dump", "d.lspci", "a.txt", NULL);
	bad(k, "--evidence with --baseline", "cannot be combined with --baseline",
	    "--evidence", "--baseline", "save", "b.json", "a.txt", NULL);
	bad(k, "a file without --evidence", "unexpected argument", "a.txt", NULL);
	bad(k, "--evidence with --compare-fleet", "each take the operands",
	    "--evidence", "--compare-fleet", "a.txt", NULL);
	CHECK(k, !parse(&o, err, sizeof(err), "--evidence", "--source=auto", "a.txt",
			NULL) && o.evidence && o.source == SOURCE_AUTO,
	      "options: --evidence takes --source=auto, the default, which asks for nothing");
	bad(k, "--evidence with --source=pci", "cannot be combined with --source",
	    "--evidence", "--source=pci", "a.txt", NULL);
	bad(k, "--summary with --json", "--summary and --json", "--summary", "--json", NULL);
	bad(k, "--graph-pair without --graph", "add --graph FILE",
	    "--graph-pair", "GPU0,NIC1", NULL);
	bad(k, "a stray argument before a conflict", "unexpected argument 'extra'",
	    "--summary", "--json", "extra", NULL);

	/* --compare-fleet names the option it does not take, not its value. */
	bad(k, "--compare-fleet with --size 4M", "'--size' does not apply",
	    "--compare-fleet", "--size", "4M", "a.json", NULL);
	bad(k, "--compare-fleet with --baseline save FILE", "'--baseline' does not apply",
	    "--compare-fleet", "--baseline", "save", "b.json", "a.json", NULL);
	bad(k, "--compare-fleet with -hv", "'--verbose' does not apply",
	    "--compare-fleet", "-hv", "a.json", NULL);
	bad(k, "--compare-fleet with two it does not take", "'--quick' does not apply",
	    "--quick", "--compare-fleet", "--source=pci", "a.json", NULL);
	CHECK(k, !parse(&o, err, sizeof(err), "--tolerance", "0.2", "--compare-fleet",
			"--json", "--no-color", "a.json", "b.json", NULL) &&
		 o.compare_fleet && o.json && o.no_color && o.tolerance == 0.2 &&
		 o.nr_fleet_paths == 2 && !strcmp(o.fleet_paths[1], "b.json"),
	      "options: --compare-fleet takes --json, --tolerance and --no-color, and its reports");
	bad(k, "--compare-fleet without a report", "name the reports", "--compare-fleet",
	    NULL);
}
