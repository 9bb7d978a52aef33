// SPDX-License-Identifier: GPL-2.0
/*
 * acs_change: change a port's ACS Control through its sysfs config file,
 * write rescan, and check that generation, devices/<port>/acs_ctrl and the
 * pairs' blockers follow; then put the old value back and check again.
 *
 * It only ever touches ports of the lab's ACS overlay
 * (tests/acs_overlay, parameter "ports"), never real hardware, and skips
 * when that module is not loaded.  Exits 4 when p2pdiag is not loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "../../include/uapi/p2pdiag/abi.h"
#include "config_decode.h"
#include "sysfs_paths.h"
#include "harness_main.h"

static const char *overlay_params(void)
{
	const char *v = getenv("ACS_OVERLAY_PARAMS");

	return v && *v ? v : "/sys/module/p2pdiag_acs_overlay/parameters";
}

static long long generation(void)
{
	char path[512], v[64];
	int nl;

	snprintf(path, sizeof(path), "%s/%s", st_p2pdiag_root(), P2PD_FILE_GENERATION);
	return st_read_value(path, v, sizeof(v), &nl) ? -1 : strtoll(v, NULL, 10);
}

static int rescan(void)
{
	char path[512];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", st_p2pdiag_root(), P2PD_FILE_RESCAN);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, "1", 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

/* 16-bit little-endian write at @off of @addr's config file. */
static int config_write16(const char *addr, unsigned int off, unsigned int v)
{
	unsigned char b[2] = { v & 0xff, v >> 8 };
	char path[PATH_MAX];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s/config", st_pci_root(), addr);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = pwrite(fd, b, 2, off) == 2 ? 0 : -1;
	close(fd);
	return ret;
}

static int module_value(const char *addr, const char *field, char *out, size_t size)
{
	char path[600];
	int nl;

	snprintf(path, sizeof(path), "%s/%s/%s/%s", st_p2pdiag_root(),
		 P2PD_DIR_DEVICES, addr, field);
	return st_read_value(path, out, size, &nl);
}

/*
 * Whether some pair of P2P endpoints has @port on its path: the port is
 * above at least one endpoint (its directory is in the endpoint's sysfs
 * path) and there are at least two endpoints.
 */
static int port_on_a_path(const char *port)
{
	static char addrs[ST_MAX_FUNCS][ST_ADDR_LEN];
	static struct st_function fn;
	char path[PATH_MAX], real[PATH_MAX], needle[ST_ADDR_LEN + 2], why[600];
	int n, i, endpoints = 0, below = 0;

	snprintf(needle, sizeof(needle), "/%s/", port);
	n = st_list_addrs(st_pci_root(), addrs, ST_MAX_FUNCS);
	for (i = 0; i < n; i++) {
		if (st_decode_function(addrs[i], &fn, why, sizeof(why)) ||
		    strcmp(fn.value[ST_P2P_ENDPOINT], "1"))
			continue;
		endpoints++;
		snprintf(path, sizeof(path), "%s/%s", st_pci_root(), addrs[i]);
		if (realpath(path, real) && strstr(real, needle))
			below++;
	}
	return endpoints >= 2 && below >= 1;
}

/* Number of pairs lines naming @port as a blocker. */
static int pairs_blocked_by(const char *port)
{
	char path[512], needle[64], *text, *line, *save = NULL;
	int hits = 0;

	snprintf(path, sizeof(path), "%s/%s", st_p2pdiag_root(), P2PD_FILE_PAIRS);
	text = st_read_file(path, 4096, NULL);
	if (!text)
		return -1;
	snprintf(needle, sizeof(needle), "%s:", port);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *b = strstr(line, " blockers=");

		if (b && strstr(b, needle) && strstr(b, needle) < strstr(b, " bottleneck="))
			hits++;
	}
	free(text);
	return hits;
}

/* Set @ctrl on @port, rescan, and check what the module shows. */
static void set_and_check(struct __test_metadata *_metadata, const char *port,
			  unsigned int acs_pos, unsigned int ctrl, int on_path)
{
	static struct st_function fn;
	char want[16], got[64], why[600];
	long long before;
	int blocked;

	ASSERT_EQ(0, config_write16(port, acs_pos + P2PD_ACS_CTRL_OFFSET, ctrl)) {
		TH_LOG("writing %s config: %s", port, strerror(errno));
	}
	ASSERT_EQ(0, st_decode_function(port, &fn, why, sizeof(why)));
	snprintf(want, sizeof(want), "0x%04x", ctrl);
	/* the overlay keeps only the bits its capability has: ask for those */
	ASSERT_STREQ(want, fn.value[ST_ACS_CTRL]);

	before = generation();
	ASSERT_EQ(0, rescan());
	EXPECT_EQ(before + 1, generation());
	ASSERT_EQ(0, module_value(port, P2PD_FIELD_ACS_CTRL, got, sizeof(got)));
	EXPECT_STREQ(want, got);

	blocked = pairs_blocked_by(port);
	ASSERT_GE(blocked, 0);
	if (!on_path)
		return;
	/* EXPECT_*() { handler } is two statements: keep the braces */
	if (ctrl & P2PD_ACS_REDIRECT_MASK) {
		EXPECT_GT(blocked, 0) {
			TH_LOG("%s ctrl %s redirects, yet no pair names it a blocker",
			       port, want);
		}
	} else {
		EXPECT_EQ(0, blocked) {
			TH_LOG("%s ctrl %s does not redirect, yet %d pairs name it",
			       port, want, blocked);
		}
	}
}

TEST(acs_control_change_follows)
{
	static struct st_function fn;
	char path[512], ports[512], port[ST_ADDR_LEN], why[600], cap_s[16];
	unsigned int cap, orig, flipped;
	int nl, on_path;

	snprintf(path, sizeof(path), "%s/ports", overlay_params());
	if (st_read_value(path, ports, sizeof(ports), &nl) || !ports[0] ||
	    !strcmp(ports, "(null)"))
		SKIP(return, "no ACS overlay ports (%s): real ports are never changed", path);
	if (geteuid() != 0)
		SKIP(return, "needs root");
	snprintf(port, sizeof(port), "%.*s", (int)strcspn(ports, ","), ports);
	ASSERT_TRUE(st_is_addr(port)) {
		TH_LOG("overlay ports '%s'", ports);
	}

	ASSERT_EQ(0, st_decode_function(port, &fn, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	ASSERT_NE(0, fn.acs_pos) {
		TH_LOG("%s has no ACS capability in config space", port);
	}
	snprintf(cap_s, sizeof(cap_s), "%s", fn.value[ST_ACS_CAP]);
	cap = strtoul(cap_s, NULL, 16);
	orig = strtoul(fn.value[ST_ACS_CTRL], NULL, 16);
	/* redirecting -> not redirecting, or the other way, then back */
	if (orig & P2PD_ACS_REDIRECT_MASK)
		flipped = orig & ~P2PD_ACS_REDIRECT_MASK;
	else
		flipped = (orig | P2PD_ACS_RR | P2PD_ACS_CR) & cap & 0x7f;
	ASSERT_NE(orig, flipped) {
		TH_LOG("%s: capability %s has no redirect bits to change", port, cap_s);
	}
	on_path = port_on_a_path(port);
	TH_LOG("%s: ACS at 0x%x cap %s ctrl 0x%04x -> 0x%04x%s", port, fn.acs_pos,
	       cap_s, orig, flipped, on_path ? ", on a pair's path" : "");

	set_and_check(_metadata, port, fn.acs_pos, flipped, on_path);
	set_and_check(_metadata, port, fn.acs_pos, orig, on_path);
}

int main(int argc, char **argv)
{
	return st_harness_main(argc, argv);
}
