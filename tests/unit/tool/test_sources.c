// SPDX-License-Identifier: GPL-2.0
/*
 * The two topology sources: fake /sys/kernel/p2pdiag trees (good, wrong
 * ABI, missing and truncated files, a generation that moves while it is
 * read), and libpci's dump back-end over a hand-written config dump.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "open_hook.h"
#include "tool_util.h"
#include "topology/pciaddr.h"
#include "topology/source_pci.h"
#include "topology/source_sysfs.h"
#include "topology/topology_parse.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"

void test_sources(struct ktap *k, const char *fixtures);

/*
 * A snapshot that changes while it is read: just before each open of
 * generation, topology or pairs, the hook puts the next step's text in
 * the file, as a module rebuilding between the reads would.  A reader
 * that opens the files in another order than the script's strays, and
 * the test fails.
 */
struct step {
	const char *file;
	const char *text;
};

struct feeder {
	const char *dir;
	const struct step *steps;
	unsigned int nr, served, strayed;
};

static void feed(const char *path, void *arg)
{
	struct feeder *f = arg;
	const char *base = strrchr(path, '/');
	char want[PATH_MAX];

	base = base ? base + 1 : path;
	if (strcmp(base, P2PD_FILE_GENERATION) && strcmp(base, P2PD_FILE_TOPOLOGY) &&
	    strcmp(base, P2PD_FILE_PAIRS))
		return;
	if (f->served >= f->nr) {
		f->strayed++;
		return;
	}
	snprintf(want, sizeof(want), "%s/%s", f->dir, f->steps[f->served].file);
	if (strcmp(path, want)) {
		f->strayed++;
		return;
	}
	write_file(path, f->steps[f->served].text,
		   strlen(f->steps[f->served].text));
	f->served++;
}

static char *file_text(const char *dir, const char *file)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return read_whole(path, NULL);
}

/* Replace "generation=<from> " in @text (same number of digits): header and trailer. */
static void regenerate(char *text, unsigned long from, unsigned long to)
{
	char old[64], new[64], *at;

	snprintf(old, sizeof(old), "generation=%lu ", from);
	snprintf(new, sizeof(new), "generation=%lu ", to);
	if (!text || strlen(old) != strlen(new))
		return;
	for (at = strstr(text, old); at; at = strstr(at + strlen(new), old))
		memcpy(at, new, strlen(new));
}

static void sysfs_moving_generation(struct ktap *k, const struct p2pd_model *m)
{
	char *dir = make_tmpdir(), err[512], *topo, *pairs;
	struct step steps[4 * SYSFS_MAX_ATTEMPTS];
	static const char *const gens[] = { "1\n", "2\n", "3\n", "4\n", "5\n",
					    "6\n", "7\n", "8\n", "9\n", "10\n" };
	struct feeder f = { dir, steps, 0, 0, 0 };
	struct sysfs_snapshot s;
	unsigned int i;
	int rc;

	make_sysfs_tree(dir, m, CURRENT_ABI_TEXT);
	topo = file_text(dir, P2PD_FILE_TOPOLOGY);
	pairs = file_text(dir, P2PD_FILE_PAIRS);
	/* the module rebuilt (generation 7 -> 8) between the first two reads */
	regenerate(topo, 7, 8);
	regenerate(pairs, 7, 8);
	if (!topo || !pairs) {
		ktap_result(k, 0, strerror(errno), "sysfs: generation moves mid-read (setup)");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		steps[f.nr++] = (struct step){ P2PD_FILE_GENERATION, i ? "8\n" : "7\n" };
		steps[f.nr++] = (struct step){ P2PD_FILE_TOPOLOGY, topo };
		steps[f.nr++] = (struct step){ P2PD_FILE_PAIRS, pairs };
		steps[f.nr++] = (struct step){ P2PD_FILE_GENERATION, "8\n" };
	}
	open_hook_set(feed, &f);
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	open_hook_set(NULL, NULL);
	ktap_result(k, !rc && s.attempts == 2 && s.generation == 8 && f.served == 8 &&
		       !f.strayed,
		    err, "sysfs: a generation that changes mid-read is read again (2 attempts, generation 8)");
	if (!rc)
		sysfs_snapshot_free(&s);

	/* it never settles: every read of generation says another number */
	f.nr = f.served = f.strayed = 0;
	for (i = 0; i < SYSFS_MAX_ATTEMPTS; i++) {
		steps[f.nr++] = (struct step){ P2PD_FILE_GENERATION, gens[2 * i] };
		steps[f.nr++] = (struct step){ P2PD_FILE_TOPOLOGY, topo };
		steps[f.nr++] = (struct step){ P2PD_FILE_PAIRS, pairs };
		steps[f.nr++] = (struct step){ P2PD_FILE_GENERATION, gens[2 * i + 1] };
	}
	open_hook_set(feed, &f);
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	open_hook_set(NULL, NULL);
	ktap_result(k, rc == -1 && strstr(err, "changed while it was read") &&
		       f.served == 4 * SYSFS_MAX_ATTEMPTS && !f.strayed, err,
		    "sysfs: a generation that never settles gives up after %d reads with a clear error",
		    SYSFS_MAX_ATTEMPTS);
out:
	free(topo);
	free(pairs);
	remove_tree(dir);
	free(dir);
}

static void sysfs_tests(struct ktap *k)
{
	struct p2pd_model m;
	struct sysfs_snapshot s;
	char *dir, path[PATH_MAX], err[512], *pairs;
	size_t len;
	int rc;

	switch_model(&m, 0, 0x8086);
	dir = make_tmpdir();
	make_sysfs_tree(dir, &m, CURRENT_ABI_TEXT);
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	snprintf(path, sizeof(path), "%s/pairs", dir);
	pairs = read_whole(path, &len);
	ktap_result(k, !rc && s.attempts == 1 && s.generation == 7 &&
		       s.model.nr_fn == m.nr_fn && pairs &&
		       !sysfs_strip_trailer(pairs, &len, 7) && s.pairs_len == len &&
		       !memcmp(s.pairs, pairs, len) &&
		       !p2pd_model_check(&s.model) &&
		       s.model.fn[8].p2p_endpoint,
		    err, "sysfs: a good tree reads in one attempt, model and pairs intact");
	if (!rc)
		sysfs_snapshot_free(&s);
	free(pairs);
	CHECK(k, sysfs_module_present(tool_tree_root(dir)), "sysfs: abi_version present means the module is loaded");

	/* wrong ABI version */
	snprintf(path, sizeof(path), "%s/abi_version", dir);
	write_file(path, "3\n", 2);
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "ABI version '3'") &&
		    strstr(err, "reads version 2"), err,
		    "sysfs: abi_version 3 is refused, naming both versions");
	write_file(path, CURRENT_ABI_TEXT, 2);

	/* truncated topology: cut in the middle of a line */
	snprintf(path, sizeof(path), "%s/topology", dir);
	{
		char *t = read_whole(path, &len);

		write_file(path, t, len / 2);
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
		ktap_result(k, rc == -1 && strstr(err, "topology"), err,
			    "sysfs: a truncated topology file is an error, not a smaller tree");
		write_file(path, t, 10);
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
		ktap_result(k, rc == -1 && strstr(err, "header"), err,
			    "sysfs: a topology file cut inside its header is an error");
		write_file(path, t, len);
		free(t);
	}

	/* the trailer: spliced from the next snapshot, missing, or cut */
	snprintf(path, sizeof(path), "%s/pairs", dir);
	{
		char *t = read_whole(path, &len), *bad = malloc(len + 1);
		size_t cut;

		memcpy(bad, t, len + 1);
		regenerate(strstr(bad, "# p2pdiag end "), 7, 8);
		write_file(path, bad, len);
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
		ktap_result(k, rc == -1 && strstr(err, "does not end with"), err,
			    "sysfs: pairs whose trailer is another generation's (a spliced read) is an error");
		cut = (size_t)(strstr(t, "# p2pdiag end ") - t);
		write_file(path, t, cut);
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
		ktap_result(k, rc == -1 && strstr(err, "does not end with"), err,
			    "sysfs: pairs without a trailer is an error");
		write_file(path, t, len - 3);
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
		ktap_result(k, rc == -1 && strstr(err, "does not end with"), err,
			    "sysfs: pairs cut inside the trailer is an error");
		memcpy(bad, t, len + 1);
		bad[strlen(bad) - 2] = bad[strlen(bad) - 2] == '9' ? '8' : '9';
		write_file(path, bad, len);
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
		ktap_result(k, rc == -1 && strstr(err, "does not end with"), err,
			    "sysfs: a trailer whose byte count is not its offset is an error");
		write_file(path, t, len);
		free(bad);
		free(t);
	}

	/* missing pairs */
	snprintf(path, sizeof(path), "%s/pairs", dir);
	unlink(path);
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "pairs") && strstr(err, "No such file"), err,
		    "sysfs: a missing pairs file is an error naming it");

	/* generation file with junk */
	snprintf(path, sizeof(path), "%s/generation", dir);
	write_file(path, "7x\n", 3);
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "generation"), err,
		    "sysfs: a generation that is not a number is an error");

	/* one bounded read: a value longer than the buffer is refused */
	{
		char big[SYSFS_VALUE_MAX + 10], val[64];

		memset(big, '1', sizeof(big));
		write_file(path, big, sizeof(big));
		rc = sysfs_read_value(NULL, path, val, sizeof(val), NULL);
		ktap_result(k, rc == -1 && errno == EFBIG, NULL,
			    "sysfs: a value longer than its buffer is EFBIG, not cut short");
	}
	remove_tree(dir);
	free(dir);

	dir = make_tmpdir();
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "module loaded"), err,
		    "sysfs: an empty directory says the module is not loaded");
	CHECK(k, !sysfs_module_present(tool_tree_root(dir)), "sysfs: no abi_version, no module");
	remove_tree(dir);
	free(dir);

	{
		unsigned long g;

		CHECK(k, !sysfs_header_generation("# p2pdiag abi=2 generation=42 pairs=3\n", 38, &g) &&
			 g == 42 &&
			 sysfs_header_generation("# p2pdiag abi=1 generation=42 pairs=3\n", 38, &g) &&
			 sysfs_header_generation("# p2pdiag abi=3 generation=42 pairs=3\n", 38, &g) &&
			 sysfs_header_generation("# p2pdiag abi=2 generation= pairs=3\n", 36, &g) &&
			 sysfs_header_generation("# p2pdiag abi=2 generation=99999999999999999999999 x\n", 52, &g),
		      "sysfs: header generation parsed; other ABI, empty and overflowing numbers refused");
		CHECK(k, !sysfs_header_generation("# p2pdiag abi=2 kernel=6.12.9 generation=7 functions=1\n",
						  55, &g) && g == 7 &&
			 sysfs_header_generation("# p2pdiag abi=22 generation=7 pairs=0\n", 38, &g) &&
			 sysfs_header_generation("# p2pdiag abi=2 pairs=0\n# p2pdiag abi=2 generation=7\n",
						 53, &g) &&
			 sysfs_header_generation("# p2pdiag abi=2 generation=7x pairs=0\n", 38, &g),
		      "sysfs: generation= found after a key a newer module adds; abi=22, a second line's and 7x refused");
	}
	sysfs_moving_generation(k, &m);
	free(m.fn);
}

static int idx_of(const struct p2pd_model *m, unsigned int bus, unsigned int dev,
		  unsigned int fn)
{
	return p2pd_model_find(m, P2PD_ADDR(0, bus, dev, fn));
}

static void pci_dump_tests(struct ktap *k, const char *fixtures)
{
	char dump[PATH_MAX], err[512];
	struct p2pd_model m = { 0 };
	struct p2pd_pair p;
	int rp, gpu, nic, hb, rc;

	snprintf(dump, sizeof(dump), "%s/amd-rootports-acs.lspci", fixtures);
	m.cpu_flags = P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P;
	rc = pci_source_read(dump, &m, err, sizeof(err));
	if (!ktap_result(k, !rc && m.nr_fn == 5, err, "pci: the dump reads as 5 functions"))
		return;
	rp = idx_of(&m, 0, 1, 1);
	gpu = idx_of(&m, 1, 0, 0);
	nic = idx_of(&m, 2, 0, 0);
	hb = idx_of(&m, 0, 0, 0);
	CHECK(k, rp >= 0 && m.fn[rp].role == P2PD_ROLE_ROOT_PORT &&
		 m.fn[rp].acs == P2PD_PRESENT && m.fn[rp].acs_cap == 0x005f &&
		 m.fn[rp].acs_ctrl == 0x001d && !m.fn[rp].has_parent,
	      "pci: root port 00:01.1 has ACS cap 0x005f, ctrl 0x001d, no parent");
	CHECK(k, gpu >= 0 && m.fn[gpu].has_parent &&
		 m.fn[gpu].parent == P2PD_ADDR(0, 0, 1, 1) &&
		 m.fn[gpu].host_bridge == P2PD_HOST_BRIDGE(0, 0) &&
		 m.fn[gpu].class_code == 0x030200 && m.fn[gpu].vendor == 0x10de &&
		 m.fn[gpu].role == P2PD_ROLE_ENDPOINT && m.fn[gpu].p2p_endpoint,
	      "pci: the GPU hangs under 00:01.1 (parent from the bridge's secondary bus)");
	CHECK(k, gpu >= 0 && m.fn[gpu].link.state == P2PD_PRESENT &&
		 m.fn[gpu].link.speed == 25 && m.fn[gpu].link.width == 16 &&
		 m.fn[gpu].link.max_speed == 160 && m.fn[gpu].link.max_width == 16,
	      "pci: GPU link 2.5 GT/s x16 of 16.0 GT/s x16");
	CHECK(k, gpu >= 0 && m.fn[gpu].acs == P2PD_ABSENT && m.fn[gpu].ats == P2PD_ABSENT,
	      "pci: readable extended space without ACS/ATS reads as absent");
	CHECK(k, nic >= 0 && m.fn[nic].ats == P2PD_PRESENT && m.fn[nic].ats_enabled &&
		 m.fn[nic].ats_stu == 0 && m.fn[nic].p2p_endpoint,
	      "pci: the NIC's ATS is enabled");
	CHECK(k, nic >= 0 && m.fn[nic].pri == P2PD_ABSENT &&
		 m.fn[nic].pasid == P2PD_ABSENT,
	      "pci: the NIC has no PRI or PASID capability: absent");
	CHECK(k, hb >= 0 && m.fn[hb].role == P2PD_ROLE_PCI_DEVICE && !p2pd_is_pcie(&m.fn[hb]) &&
		 m.fn[hb].link.state == P2PD_ABSENT &&
		 !m.fn[hb].p2p_endpoint && m.fn[hb].numa_node == -1,
	      "pci: the host bridge is a plain PCI function, not an endpoint; NUMA unknown in a dump");
	CHECK(k, p2pd_count_pairs(&m) == 1 && !p2pd_judge(&m, gpu, nic, &p) &&
		 p.cls == P2PD_CLASS_PHB && p.nr_blockers == 2 &&
		 p.verdict == P2PD_VERDICT_REDIRECTED,
	      "pci: on AMD Zen the GPU-NIC pair is PHB, redirected by two root ports");
	m.cpu_flags = 0;
	CHECK(k, !p2pd_judge(&m, gpu, nic, &p) && p.verdict == P2PD_VERDICT_BLOCKED &&
		 p.host_blocks,
	      "pci: on another CPU the AMD root complex is not on the list: blocked");
	p2pd_model_free(&m);
}

/* Variants of the dump written on the fly: cut short, all ones. */
static void pci_dump_bad(struct ktap *k, const char *fixtures)
{
	char src[PATH_MAX], *dir = make_tmpdir(), path[PATH_MAX], err[512];
	struct p2pd_model m = { 0 };
	char *text, *at;
	size_t len;
	int rc, rp;

	snprintf(src, sizeof(src), "%s/amd-rootports-acs.lspci", fixtures);
	text = read_whole(src, &len);

	/* ACS control reads as ffff: a removed or broken port */
	at = text ? strstr(text, "100: 0d 00 01 00 5f 00 1d 00") : NULL;
	if (at) {
		memcpy(at + strlen("100: 0d 00 01 00 5f 00 "), "ff ff", 5);
		snprintf(path, sizeof(path), "%s/ones.lspci", dir);
		write_file(path, text, len);
		rc = pci_source_read(path, &m, err, sizeof(err));
		rp = rc ? -1 : idx_of(&m, 0, 1, 1);
		ktap_result(k, !rc && rp >= 0 && m.fn[rp].acs == P2PD_UNKNOWN, err,
			    "pci: an all-ones ACS control is unknown, not every bit set");
		if (!rc) {
			struct p2pd_pair p;

			CHECK(k, !p2pd_judge(&m, idx_of(&m, 1, 0, 0), idx_of(&m, 2, 0, 0), &p) &&
				 p.verdict == P2PD_VERDICT_UNKNOWN && (p.missing & P2PD_MISSING_ACS),
			      "pci: so the pair's verdict is unknown (ACS missing)");
			p2pd_model_free(&m);
		}
	} else {
		ktap_result(k, 0, "fixture changed", "pci: all-ones ACS control");
	}

	/* the NIC's ATS capability followed by PRI and PASID ones */
	at = text ? strstr(text, "100: 0f 00 01 00 20 00 00 80 00 00 00 00 00 00 00 00") : NULL;
	if (at) {
		static const char chain[] =
			"100: 0f 00 01 11 20 00 00 80 00 00 00 00 00 00 00 00\n"
			"110: 13 00 01 12 01 00 00 00 00 00 00 00 00 00 00 00\n"
			"120: 1b 00 01 00 06 14 01 00 00 00 00 00 00 00 00 00\n";
		size_t head = (size_t)(at - text);
		const char *tail = at + strlen("100: 0f 00 01 00 20 00 00 80 00 00 00 00 00 00 00 00\n");
		FILE *out;

		snprintf(path, sizeof(path), "%s/pasid.lspci", dir);
		out = fopen(path, "w");
		if (out) {
			fwrite(text, 1, head, out);
			fputs(chain, out);
			fputs(tail, out);
			fclose(out);
		}
		rc = pci_source_read(path, &m, err, sizeof(err));
		rp = rc ? -1 : idx_of(&m, 2, 0, 0);
		ktap_result(k, !rc && rp >= 0 && m.fn[rp].ats == P2PD_PRESENT &&
			    m.fn[rp].ats_enabled && m.fn[rp].pri == P2PD_PRESENT &&
			    m.fn[rp].pri_enabled && m.fn[rp].pasid == P2PD_PRESENT &&
			    m.fn[rp].pasid_enabled && m.fn[rp].pasid_width == 20, err,
			    "pci: PRI Control 0x0001 and PASID Capability 0x1406 Control 0x0001 read as PRI enabled, PASID enabled width 20");
		if (!rc)
			p2pd_model_free(&m);
	} else {
		ktap_result(k, 0, "fixture changed", "pci: PRI and PASID capabilities");
	}

	/*
	 * A root port moved to bus 70 still forwarding to bus 01: its GPU's
	 * parent would be on a higher bus, a tree the topology parser
	 * refuses and the engine cannot walk.
	 */
	at = text ? strstr(text, "\n00:01.1 ") : NULL;
	if (at) {
		char *moved = strdup(text);

		memcpy(moved + (at - text) + 1, "70", 2);
		snprintf(path, sizeof(path), "%s/bus-order.lspci", dir);
		write_file(path, moved, len);
		free(moved);
		rc = pci_source_read(path, &m, err, sizeof(err));
		ktap_result(k, rc == -1 && m.fn == NULL &&
			       strstr(err, "0000:01:00.0 sits below bridge 0000:70:01.1"),
			    err, "pci: a dump whose bridge forwards to a lower bus is refused, naming both");
	} else {
		ktap_result(k, 0, "fixture changed", "pci: bridge forwarding to a lower bus");
	}

	/*
	 * A config line whose offset is past 4 KiB (libpci would write before
	 * its buffer), and a dump larger than any lspci output.
	 */
	snprintf(path, sizeof(path), "%s/offset.lspci", dir);
	write_file(path, "01:00.0 x\nfCCCCCC0: 00\n", 23);
	rc = pci_source_read(path, &m, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "line 2: config offset 'fCCCCCC0'"), err,
		    "pci: a config offset outside 4 KiB is refused before libpci reads it");
	rc = pci_source_read("/dev/zero", &m, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "larger than 64 MiB"), err,
		    "pci: an endless dump (/dev/zero) is refused after 64 MiB");

	/* lspci -x: only the first 64 bytes of every function */
	snprintf(path, sizeof(path), "%s/short.lspci", dir);
	{
		static const char short_dump[] =
			"00:00.0 Host bridge: x\n"
			"00: 22 10 80 14 06 00 10 00 00 00 00 06 00 00 00 00\n"
			"10: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n"
			"20: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n"
			"30: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n\n";

		write_file(path, short_dump, sizeof(short_dump) - 1);
	}
	rc = pci_source_read(path, &m, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "lspci -xxxx"), err,
		    "pci: a 64-byte dump is refused, asking for lspci -xxxx");

	snprintf(path, sizeof(path), "%s/empty.lspci", dir);
	write_file(path, "nothing here\n", 13);
	rc = pci_source_read(path, &m, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "no PCI functions"), err,
		    "pci: a file without functions is refused");

	snprintf(path, sizeof(path), "%s/absent.lspci", dir);
	rc = pci_source_read(path, &m, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "cannot read") &&
		       strstr(err, "No such file"), err,
		    "pci: a missing dump is an error naming it");
	/* a line longer than libpci's reader takes: refused before it, by line */
	snprintf(path, sizeof(path), "%s/long-line.lspci", dir);
	{
		char line[1024];

		memset(line, 'a', sizeof(line));
		line[sizeof(line) - 1] = '\n';
		write_file(path, line, sizeof(line));
	}
	rc = pci_source_read(path, &m, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "long-line.lspci line 1: 1023 characters"), err,
		    "pci: a line longer than libpci's reader takes is refused, naming its line");
	/* a config line libpci's reader cannot parse: its fatal error */
	snprintf(path, sizeof(path), "%s/malformed.lspci", dir);
	write_file(path, "00:00.0 Host bridge: x\n00: 86 80 zz\n", 36);
	rc = pci_source_read(path, &m, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "libpci"), err,
		    "pci: libpci's fatal error on a bad dump is returned instead of exit()");
	rc = pci_source_read(src, &m, err, sizeof(err));
	ktap_result(k, !rc && m.nr_fn == 5, err,
		    "pci: libpci still works after a fatal error was caught");
	if (!rc)
		p2pd_model_free(&m);
	free(text);
	remove_tree(dir);
	free(dir);
}

static void cpuinfo_tests(struct ktap *k)
{
	char *dir = make_tmpdir(), path[PATH_MAX];
	unsigned int flags = 99;
	static const struct {
		const char *text;
		unsigned int flags;
		const char *name;
	} cases[] = {
		{ "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\n", P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P, "AMD family 0x19 (Zen 3)" },
		{ "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 23\n\n", P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P, "AMD family 0x17 (Zen)" },
		{ "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 21\n\n", P2PD_CPU_AMD, "AMD family 0x15 (before Zen)" },
		{ "processor\t: 0\nvendor_id\t: HygonGenuine\ncpu family\t: 24\n\n", P2PD_CPU_AMD, "Hygon family 0x18" },
		{ "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n\n", 0, "Intel" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(path, sizeof(path), "%s/cpuinfo%u", dir, i);
		write_file(path, cases[i].text, strlen(cases[i].text));
		CHECK(k, !cpu_flags_from_cpuinfo(path, &flags) && flags == cases[i].flags,
		      "cpuinfo: %s", cases[i].name);
	}
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK(k, cpu_flags_from_cpuinfo(path, &flags) == -1 && flags == 0,
	      "cpuinfo: an unreadable file is an error and no flags");
	remove_tree(dir);
	free(dir);
}

/*
 * libpci's sysfs back-end on the machine the tests run on: every function
 * of /sys/bus/pci/devices, with the vendor and parent sysfs shows.
 */
static void pci_live_tests(struct ktap *k)
{
	static const char devices[] = "/sys/bus/pci/devices";
	struct p2pd_model m = { 0 };
	char err[512], path[PATH_MAX], real[PATH_MAX], val[64], why[256] = "";
	unsigned int seen = 0, i;
	struct dirent *de;
	DIR *dir;
	int rc;

	dir = opendir(devices);
	if (!dir || geteuid() != 0) {
		ktap_skip(k, dir ? "not root" : "no /sys/bus/pci",
			  "pci: this machine's functions through libpci");
		if (dir)
			closedir(dir);
		return;
	}
	rc = pci_source_walk(tool_live_root(), &m, err, sizeof(err));
	while (!rc && (de = readdir(dir))) {
		unsigned long long addr;
		unsigned int vendor;
		char *slash;
		int idx;

		if (de->d_name[0] == '.' || pciaddr_parse(de->d_name, &addr))
			continue;
		seen++;
		idx = p2pd_model_find(&m, addr);
		snprintf(path, sizeof(path), "%s/%s/vendor", devices, de->d_name);
		if (idx < 0 || sysfs_read_value(NULL, path, val, sizeof(val), NULL) ||
		    sscanf(val, "%x", &vendor) != 1 || vendor != m.fn[idx].vendor) {
			snprintf(why, sizeof(why), "%.16s: missing or vendor %.16s", de->d_name, val);
			break;
		}
		/* the parent is the directory above, when that is a function */
		snprintf(path, sizeof(path), "%s/%s", devices, de->d_name);
		if (!realpath(path, real))
			continue;
		slash = strrchr(real, '/');
		*slash = '\0';
		slash = strrchr(real, '/');
		if (!pciaddr_parse(slash + 1, &addr) &&
		    (!m.fn[idx].has_parent || m.fn[idx].parent != addr)) {
			snprintf(why, sizeof(why), "%.16s: parent should be %.16s", de->d_name, slash + 1);
			break;
		}
		if (pciaddr_parse(slash + 1, &addr) && m.fn[idx].has_parent) {
			snprintf(why, sizeof(why), "%.16s: on a root bus but has a parent", de->d_name);
			break;
		}
	}
	closedir(dir);
	for (i = 0; !rc && !why[0] && i < m.nr_fn; i++)
		if (m.fn[i].link.state == P2PD_PRESENT && m.fn[i].link.max_width > 32)
			snprintf(why, sizeof(why), "link width %u", m.fn[i].link.max_width);
	ktap_result(k, !rc && !why[0] && seen == m.nr_fn, rc ? err : why,
		    "pci: this machine's %u functions through libpci: vendors and parents as sysfs has them",
		    seen);
	if (!rc)
		p2pd_model_free(&m);
}

void test_sources(struct ktap *k, const char *fixtures)
{
	pci_live_tests(k);
	sysfs_tests(k);
	pci_dump_tests(k, fixtures);
	pci_dump_bad(k, fixtures);
	cpuinfo_tests(k);
}
