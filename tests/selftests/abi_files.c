// SPDX-License-Identifier: GPL-2.0
/*
 * abi_files: every file of /sys/kernel/p2pdiag (ABI v1) against an
 * independent decoding of the PCI functions' config space and of what the
 * PCI core shows in sysfs; the topology file's header and lines; reads of
 * any block size and nothing past the end; every file readable by an
 * unprivileged user; and the rescan file's contract (accepts "1", rejects
 * anything else, NUL bytes and noise included, with EINVAL, needs
 * privilege).
 *
 * Exits 4 (skip) when the module is not loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../../include/uapi/p2pdiag/abi.h"
#include "config_decode.h"
#include "sysfs_paths.h"
#include "harness_main.h"

#define NOBODY	65534

static char pci_addrs[ST_MAX_FUNCS][ST_ADDR_LEN];
static char mod_addrs[ST_MAX_FUNCS][ST_ADDR_LEN];

static void root_file(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", st_p2pdiag_root(), name);
}

/* The generation file as a number, or -1. */
static long long read_generation(void)
{
	char path[512], v[64], *end;
	long long g;
	int nl;

	root_file(path, sizeof(path), P2PD_FILE_GENERATION);
	if (st_read_value(path, v, sizeof(v), &nl) || !v[0])
		return -1;
	g = strtoll(v, &end, 10);
	return *end || g < 0 ? -1 : g;
}

/* write(2) of @len bytes to rescan; returns 0 or the errno. */
static int write_rescan(const char *data, size_t len, ssize_t *written)
{
	char path[512];
	ssize_t n;
	int fd, err = 0;

	root_file(path, sizeof(path), P2PD_FILE_RESCAN);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, data, len);
	if (n < 0)
		err = errno;
	if (written)
		*written = n;
	close(fd);
	return err;
}

TEST(abi_version_is_current)
{
	char path[512], v[64];
	int nl = 0;

	root_file(path, sizeof(path), P2PD_FILE_ABI_VERSION);
	ASSERT_EQ(0, st_read_value(path, v, sizeof(v), &nl)) {
		TH_LOG("cannot read %s: %s", path, strerror(errno));
	}
	EXPECT_EQ(P2PD_ABI_VERSION, atoi(v));
	EXPECT_EQ(1, nl);
}

TEST(generation_is_decimal)
{
	char path[512], v[64];
	int nl = 0;

	root_file(path, sizeof(path), P2PD_FILE_GENERATION);
	ASSERT_EQ(0, st_read_value(path, v, sizeof(v), &nl));
	EXPECT_EQ(1, nl);
	EXPECT_NE(-1, read_generation()) {
		TH_LOG("generation '%s' is not a decimal number", v);
	}
	/* no leading zeros, no sign */
	EXPECT_TRUE(v[0] != '0' || v[1] == '\0');
}

TEST(one_directory_per_function)
{
	char dir[512];
	int n_pci, n_mod, i, j;

	n_pci = st_list_addrs(st_pci_root(), pci_addrs, ST_MAX_FUNCS);
	ASSERT_GT(n_pci, 0) {
		TH_LOG("no PCI functions under %s", st_pci_root());
	}
	snprintf(dir, sizeof(dir), "%s/%s", st_p2pdiag_root(), P2PD_DIR_DEVICES);
	n_mod = st_list_addrs(dir, mod_addrs, ST_MAX_FUNCS);
	ASSERT_GE(n_mod, 0) {
		TH_LOG("cannot list %s", dir);
	}
	for (i = 0, j = 0; i < n_pci || j < n_mod;) {
		int c = i == n_pci ? 1 : j == n_mod ? -1 :
			strcmp(pci_addrs[i], mod_addrs[j]);

		if (c < 0)
			TH_LOG("%s: no devices/ directory", pci_addrs[i++]);
		else if (c > 0)
			TH_LOG("devices/%s: no such PCI function", mod_addrs[j++]);
		else
			i++, j++;
	}
	EXPECT_EQ(n_pci, n_mod);
}

/* Every file of every function equals the independent decoding. */
TEST(values_match_config_space)
{
	static struct st_function want;
	char path[600], got[512], why[600];
	int n, i, f, nl, bad = 0, checked = 0;

	n = st_list_addrs(st_pci_root(), pci_addrs, ST_MAX_FUNCS);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++) {
		if (st_decode_function(pci_addrs[i], &want, why, sizeof(why))) {
			TH_LOG("%s", why);
			bad++;
			continue;
		}
		for (f = 0; f < ST_NR_FIELDS; f++) {
			snprintf(path, sizeof(path), "%s/%s/%s/%s",
				 st_p2pdiag_root(), P2PD_DIR_DEVICES,
				 pci_addrs[i], st_field_name(f));
			checked++;
			if (st_read_value(path, got, sizeof(got), &nl)) {
				TH_LOG("%s: cannot read: %s", path, strerror(errno));
				bad++;
				continue;
			}
			if (!nl) {
				TH_LOG("%s: not one line ending in a newline", path);
				bad++;
			}
			if (strcmp(got, want.value[f])) {
				TH_LOG("%s %s: module '%s', config space '%s'",
				       pci_addrs[i], st_field_name(f), got,
				       want.value[f]);
				bad++;
			}
		}
	}
	TH_LOG("%d functions, %d values checked, %d wrong", n, checked, bad);
	EXPECT_EQ(0, bad);
}

/* Split "key=value" with "\x20" in the value; returns 0 when well formed. */
static int split_kv(char *tok, char **key, char *value, size_t size)
{
	char *eq = strchr(tok, '='), *s;
	size_t o = 0;

	if (!eq)
		return -1;
	*eq = '\0';
	*key = tok;
	for (s = eq + 1; *s && o + 1 < size; s++) {
		if (!strncmp(s, "\\x20", 4)) {
			value[o++] = ' ';
			s += 3;
		} else {
			value[o++] = *s;
		}
	}
	value[o] = '\0';
	return 0;
}

/* Header, then one line per function with every field in ABI order. */
TEST(topology_matches_config_space)
{
	static struct st_function want;
	char path[512], why[600], value[512], hdr_want[128], *text, *line;
	char *save = NULL, *tok, *tsave, *key;
	long long gen_before, gen_after, gen_hdr = -1;
	unsigned long nfn = 0;
	int n, lines = 0, bad = 0, f;
	size_t len;

	n = st_list_addrs(st_pci_root(), pci_addrs, ST_MAX_FUNCS);
	ASSERT_GT(n, 0);
	root_file(path, sizeof(path), P2PD_FILE_TOPOLOGY);
	gen_before = read_generation();
	text = st_read_file(path, 4096, &len);
	gen_after = read_generation();
	ASSERT_NE(NULL, text) {
		TH_LOG("cannot read %s: %s", path, strerror(errno));
	}
	ASSERT_EQ(0, st_check_trailer(text, len, why, sizeof(why))) {
		TH_LOG("%s: %s", path, why);
	}

	line = strtok_r(text, "\n", &save);
	ASSERT_NE(NULL, line);
	snprintf(hdr_want, sizeof(hdr_want), "%s%d generation=",
		 P2PD_HEADER_PREFIX, P2PD_ABI_VERSION);
	EXPECT_EQ(0, strncmp(line, hdr_want, strlen(hdr_want))) {
		TH_LOG("header '%s' does not start with '%s'", line, hdr_want);
	}
	EXPECT_EQ(2, sscanf(line + strlen(hdr_want), "%lld functions=%lu",
			    &gen_hdr, &nfn)) {
		TH_LOG("header '%s' lacks generation= functions=", line);
	}
	if (gen_before == gen_after)
		EXPECT_EQ(gen_before, gen_hdr);
	EXPECT_EQ((unsigned long)n, nfn);

	while ((line = strtok_r(NULL, "\n", &save))) {
		char addr[ST_ADDR_LEN] = "";

		tok = strtok_r(line, " ", &tsave);
		if (!tok || split_kv(tok, &key, value, sizeof(value)) ||
		    strcmp(key, "addr") || !st_is_addr(value)) {
			TH_LOG("line %d does not start with addr=<address>", lines + 1);
			bad++;
			lines++;
			continue;
		}
		snprintf(addr, sizeof(addr), "%s", value);
		if (lines < n && strcmp(addr, pci_addrs[lines])) {
			TH_LOG("line %d is %s, expected %s (sorted, one per function)",
			       lines + 1, addr, pci_addrs[lines]);
			bad++;
		}
		lines++;
		if (st_decode_function(addr, &want, why, sizeof(why))) {
			TH_LOG("%s", why);
			bad++;
			continue;
		}
		for (f = 0; f < ST_NR_FIELDS; f++) {
			tok = strtok_r(NULL, " ", &tsave);
			if (!tok || split_kv(tok, &key, value, sizeof(value))) {
				TH_LOG("%s: field %d (%s) missing", addr, f,
				       st_field_name(f));
				bad++;
				break;
			}
			if (strcmp(key, st_field_name(f))) {
				TH_LOG("%s: key '%s' where '%s' belongs", addr, key,
				       st_field_name(f));
				bad++;
			} else if (strcmp(value, want.value[f])) {
				TH_LOG("%s %s: topology '%s', config space '%s'",
				       addr, key, value, want.value[f]);
				bad++;
			}
		}
		if (f == ST_NR_FIELDS && (tok = strtok_r(NULL, " ", &tsave))) {
			TH_LOG("%s: unexpected trailing '%s'", addr, tok);
			bad++;
		}
	}
	EXPECT_EQ(n, lines);
	EXPECT_EQ(0, bad);
	free(text);
}

/* A read at or past the end of a binary attribute gives 0 bytes. */
static void nothing_past_the_end(struct __test_metadata *_metadata,
				 const char *path, size_t len)
{
	const off_t offsets[] = { (off_t)len, (off_t)len + 1,
				  (off_t)len + 4096, (off_t)1 << 40 };
	char buf[64];
	size_t i;
	int fd;

	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		ssize_t n = pread(fd, buf, sizeof(buf), offsets[i]);

		/* a rebuild between the reads may have grown the text */
		if (n > 0 && offsets[i] == (off_t)len)
			continue;
		EXPECT_EQ(0, n) {
			TH_LOG("%s: pread at %lld of %zu bytes: %zd",
			       path, (long long)offsets[i], len, n);
		}
	}
	close(fd);
}

/* Binary attributes honour offset and size: any block size, same bytes. */
static void same_bytes_any_block(struct __test_metadata *_metadata,
				 const char *name)
{
	static const size_t blocks[] = { 1, 3, 7, 4096 };
	char path[512], *ref = NULL;
	size_t ref_len = 0, i;
	int attempt;

	root_file(path, sizeof(path), name);
	/* a snapshot may be rebuilt between two reads (hotplug): retry */
	for (attempt = 0; attempt < 3; attempt++) {
		long long g = read_generation();
		int same = 1;

		free(ref);
		ref = st_read_file(path, 4096, &ref_len);
		ASSERT_NE(NULL, ref) {
			TH_LOG("cannot read %s: %s", path, strerror(errno));
		}
		ASSERT_GT(ref_len, 0);
		EXPECT_EQ('\n', ref[ref_len - 1]);
		for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
			size_t len;
			char *text = st_read_file(path, blocks[i], &len);

			ASSERT_NE(NULL, text);
			if (len != ref_len || memcmp(text, ref, len)) {
				TH_LOG("%s read in %zu-byte blocks: %zu bytes, differs from %zu bytes in 4096-byte blocks",
				       name, blocks[i], len, ref_len);
				same = 0;
			}
			free(text);
		}
		if (same || read_generation() == g) {
			EXPECT_TRUE(same);
			break;
		}
	}
	if (ref)
		nothing_past_the_end(_metadata, path, ref_len);
	free(ref);
}

TEST(topology_any_block_size)
{
	same_bytes_any_block(_metadata, P2PD_FILE_TOPOLOGY);
}

TEST(pairs_any_block_size)
{
	same_bytes_any_block(_metadata, P2PD_FILE_PAIRS);
}

TEST(file_modes)
{
	static const struct { const char *name; mode_t mode; } files[] = {
		{ P2PD_FILE_ABI_VERSION, 0444 }, { P2PD_FILE_GENERATION, 0444 },
		{ P2PD_FILE_RESCAN, 0200 }, { P2PD_FILE_TOPOLOGY, 0444 },
		{ P2PD_FILE_PAIRS, 0444 },
	};
	char path[512];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		root_file(path, sizeof(path), files[i].name);
		ASSERT_EQ(0, stat(path, &st)) {
			TH_LOG("%s: %s", path, strerror(errno));
		}
		EXPECT_EQ(files[i].mode, st.st_mode & 07777) {
			TH_LOG("%s: mode %o", files[i].name, st.st_mode & 07777);
		}
	}
}

/*
 * Every readable file, the root's and each function's, also reads for an
 * unprivileged user (the ABI's choice: see include/uapi/p2pdiag/ABI.txt), and
 * each one-value file stays within a page and ends in its newline, so no
 * show() was cut short.  Runs in a child that drops to nobody.
 */
static int read_all_as_nobody(void)
{
	static const char *const root_files[] = {
		P2PD_FILE_ABI_VERSION, P2PD_FILE_GENERATION,
		P2PD_FILE_TOPOLOGY, P2PD_FILE_PAIRS,
	};
	char path[1024], dir[512];
	int n, i, bad = 0;
	size_t k, len;
	char *text;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return -1;
	for (k = 0; k < sizeof(root_files) / sizeof(root_files[0]); k++) {
		root_file(path, sizeof(path), root_files[k]);
		text = st_read_file(path, 4096, &len);
		if (!text || !len) {
			fprintf(stderr, "# as uid %d: %s: %s\n", NOBODY, path,
				text ? "empty" : strerror(errno));
			bad++;
		}
		free(text);
	}
	snprintf(dir, sizeof(dir), "%s/%s", st_p2pdiag_root(), P2PD_DIR_DEVICES);
	n = st_list_addrs(dir, mod_addrs, ST_MAX_FUNCS);
	if (n <= 0)
		return -1;
	for (i = 0; i < n; i++) {
		for (k = 0; k < ST_NR_FIELDS; k++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir,
				 mod_addrs[i], st_field_name(k));
			text = st_read_file(path, 4096, &len);
			if (!text || !len || len >= 4096 || text[len - 1] != '\n') {
				fprintf(stderr, "# as uid %d: %s: %s (%zu bytes)\n",
					NOBODY, path,
					text ? "not one line within a page" :
					strerror(errno), text ? len : 0);
				bad++;
			}
			free(text);
		}
	}
	return bad;
}

TEST(unprivileged_reads_every_file)
{
	pid_t pid;
	int status;

	char path[512];

	root_file(path, sizeof(path), P2PD_FILE_ABI_VERSION);
	if (!st_on_sysfs(path))
		SKIP(return, "%s is not on sysfs: its modes are not the module's", path);
	if (geteuid() != 0)
		SKIP(return, "needs root to drop to uid %d", NOBODY);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int bad = read_all_as_nobody();

		_exit(bad < 0 ? 100 : bad > 99 ? 99 : bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("as uid %d: %s", NOBODY, WEXITSTATUS(status) == 100 ?
		       "cannot drop privileges or list devices/" :
		       "some files did not read (listed above)");
	}
}

FIXTURE(rescan) {
	long long gen;
	bool setup_skipped;
};

FIXTURE_SETUP(rescan)
{
	char path[512];

	root_file(path, sizeof(path), P2PD_FILE_RESCAN);
	self->setup_skipped = true;
	if (!st_on_sysfs(path))
		SKIP(return, "%s is not on sysfs: writes cannot reach the module", path);
	if (geteuid() != 0)
		SKIP(return, "needs root");
	self->setup_skipped = false;
	self->gen = read_generation();
	ASSERT_NE(-1, self->gen);
}

FIXTURE_TEARDOWN(rescan)
{
}

/*
 * The 6.1 harness still runs the test body after setup SKIPs (6.9's on do
 * not), so each rescan test starts with this.  The fixture's own flag, not
 * the harness's (6.1's _metadata->skip became exit_code in 6.9), so it
 * builds with the framework of every linux-source.
 */
#define RETURN_IF_SETUP_SKIPPED() do { if (self->setup_skipped) return; } while (0)

TEST_F(rescan, one_rebuilds)
{
	static const char *const accepted[] = { "1", "1\n" };
	ssize_t n;
	size_t i;

	RETURN_IF_SETUP_SKIPPED();

	for (i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		long long before = read_generation();

		EXPECT_EQ(0, write_rescan(accepted[i], strlen(accepted[i]), &n));
		EXPECT_EQ((ssize_t)strlen(accepted[i]), n);
		/* the write returns when the rebuild is done */
		EXPECT_EQ(before + 1, read_generation()) {
			TH_LOG("rescan '%s': generation %lld -> %lld",
			       accepted[i][1] ? "1\\n" : "1", before,
			       read_generation());
		}
	}
}

TEST_F(rescan, other_input_is_einval)
{
	static const char *const rejected[] = {
		"0", "\n", "2", "11", "abc", "1x", "-1", " 1", "01",
	};
	size_t i;

	RETURN_IF_SETUP_SKIPPED();

	for (i = 0; i < sizeof(rejected) / sizeof(rejected[0]); i++) {
		int err = write_rescan(rejected[i], strlen(rejected[i]), NULL);

		EXPECT_EQ(EINVAL, err) {
			TH_LOG("rescan write of '%s': %s", rejected[i],
			       err ? strerror(err) : "accepted");
		}
	}
	EXPECT_EQ(self->gen, read_generation());
}

/*
 * Bytes a string literal cannot carry: NUL bytes (alone, after a "1",
 * between "1" and its newline) and a page of noise.  sysfs passes a store
 * NUL-terminated text, so a NUL inside the write must not end the
 * comparison early.
 */
TEST_F(rescan, binary_input_is_einval)
{
	static const struct { const char *data; size_t len; } rejected[] = {
		{ "\0", 1 }, { "\0\0\0\0", 4 }, { "1\0", 2 },
		{ "1\0\n", 3 }, { "1\n\0", 3 }, { "\0" "1", 2 },
	};
	char noise[4096];
	unsigned int x = 0x2545f491;
	size_t i;
	int err;

	RETURN_IF_SETUP_SKIPPED();

	for (i = 0; i < sizeof(rejected) / sizeof(rejected[0]); i++) {
		err = write_rescan(rejected[i].data, rejected[i].len, NULL);
		EXPECT_EQ(EINVAL, err) {
			TH_LOG("rescan write #%zu (%zu bytes with NUL): %s", i,
			       rejected[i].len, err ? strerror(err) : "accepted");
		}
	}
	/* xorshift: the same page of noise every run, starting with "1" */
	for (i = 0; i < sizeof(noise); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		noise[i] = (char)x;
	}
	noise[0] = '1';
	err = write_rescan(noise, sizeof(noise), NULL);
	EXPECT_EQ(EINVAL, err) {
		TH_LOG("rescan write of %zu bytes of noise: %s", sizeof(noise),
		       err ? strerror(err) : "accepted");
	}
	EXPECT_EQ(self->gen, read_generation());
}

/* A zero-length write never reaches the module; it must change nothing. */
TEST_F(rescan, empty_write_changes_nothing)
{
	ssize_t n = -1;

	RETURN_IF_SETUP_SKIPPED();

	EXPECT_EQ(0, write_rescan("", 0, &n));
	EXPECT_EQ(0, n);
	EXPECT_EQ(self->gen, read_generation());
}

TEST_F(rescan, needs_privilege)
{
	pid_t pid;
	int status;

	RETURN_IF_SETUP_SKIPPED();

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int err;

		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		err = write_rescan("1", 1, NULL);
		_exit(err == EACCES || err == EPERM ? 0 : err ? err : 101);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("as uid %d: %s", NOBODY, WEXITSTATUS(status) == 100 ?
		       "cannot drop privileges" : WEXITSTATUS(status) == 101 ?
		       "rescan accepted" : strerror(WEXITSTATUS(status)));
	}
	EXPECT_EQ(self->gen, read_generation());
}

/*
 * Lines after the header of a text whose trailer was cut off already that
 * start with @prefix.
 */
static unsigned long count_body_lines(const char *text, const char *prefix)
{
	unsigned long n = 0;
	const char *nl = strchr(text, '\n');

	while (nl && nl[1]) {
		n += !strncmp(nl + 1, prefix, strlen(prefix));
		nl = strchr(nl + 1, '\n');
	}
	return n;
}

/*
 * Read @name in 61-byte blocks (many read() calls) @rounds times while a
 * child rebuilds as fast as it can.  Every read must either fail its
 * trailer check (spliced, and the reader knows) or be whole: as many lines
 * starting with @prefix as its header's @count_key says.  Returns the
 * number of reads that were whole.
 */
static int whole_or_detected(struct __test_metadata *_metadata,
			     const char *name, const char *count_key,
			     const char *prefix, int rounds, int *spliced)
{
	char path[512], why[256];
	int whole = 0, i;

	root_file(path, sizeof(path), name);
	for (i = 0; i < rounds; i++) {
		unsigned long want;
		size_t len;
		char *text = st_read_file(path, 61, &len), *key, *limited;

		ASSERT_NE(NULL, text);
		if (st_check_trailer(text, len, why, sizeof(why))) {
			(*spliced)++;
			free(text);
			continue;
		}
		key = strstr(text, count_key);
		limited = strstr(text, " status=" P2PD_PAIRS_STATUS_LIMIT);
		/* past pairs_max_bytes the header counts what is not there */
		EXPECT_TRUE(key && key < strchr(text, '\n') &&
			    sscanf(key + strlen(count_key), "%lu", &want) == 1 &&
			    count_body_lines(text, prefix) ==
			    (limited && limited < strchr(text, '\n') ? 0 : want)) {
			TH_LOG("%s passed its trailer check but holds %lu %s lines, not its header's count",
			       name, count_body_lines(text, prefix), prefix);
		}
		whole++;
		free(text);
	}
	return whole;
}

/* "devices/<addr>/pairs" of the first P2P endpoint, or "" without one. */
static void first_endpoint_pairs(char *out, size_t size)
{
	char dir[512], path[600], v[16];
	int n, i, nl;

	out[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/%s", st_p2pdiag_root(), P2PD_DIR_DEVICES);
	n = st_list_addrs(dir, mod_addrs, ST_MAX_FUNCS);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", dir, mod_addrs[i],
			 P2PD_FIELD_P2P_ENDPOINT);
		if (!st_read_value(path, v, sizeof(v), &nl) && !strcmp(v, "1")) {
			snprintf(out, size, "%s/%s/%s", P2PD_DIR_DEVICES,
				 mod_addrs[i], P2PD_FILE_PAIRS);
			return;
		}
	}
}

TEST(spliced_reads_are_detected)
{
	int whole = 0, spliced = 0, status;
	char path[512], endpoint[64];
	pid_t pid;

	root_file(path, sizeof(path), P2PD_FILE_RESCAN);
	if (!st_on_sysfs(path) || geteuid() != 0)
		SKIP(return, "needs root and %s on sysfs to rebuild meanwhile", path);
	first_endpoint_pairs(endpoint, sizeof(endpoint));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		for (;;) {
			int fd = open(path, O_WRONLY);

			if (fd < 0 || write(fd, "1", 1) != 1)
				_exit(1);
			close(fd);
		}
	}
	whole += whole_or_detected(_metadata, P2PD_FILE_TOPOLOGY,
				   " functions=", "addr=", 100, &spliced);
	whole += whole_or_detected(_metadata, P2PD_FILE_PAIRS, " group_pairs=",
				   "group_a=", 100, &spliced);
	/* a function's own pairs, formatted a window at a time */
	if (endpoint[0])
		whole += whole_or_detected(_metadata, endpoint, " pairs=", "a=",
					   100, &spliced);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	TH_LOG("%d reads in 61-byte blocks during rebuilds: %d whole, %d spliced and detected",
	       endpoint[0] ? 300 : 200, whole, spliced);
	/* Not one whole read in 200 would mean the check refuses good text. */
	EXPECT_GT(whole, 0);
}

int main(int argc, char **argv)
{
	return st_harness_main(argc, argv);
}

