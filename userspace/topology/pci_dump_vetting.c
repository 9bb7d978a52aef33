// SPDX-License-Identifier: GPL-2.0
/*
 * Vetting an `lspci -xxxx` dump for what libpci 3.9's dump reader trusts
 * without checking: a config line's offset is used as an index into a
 * 4 KiB buffer, so one outside config space writes out of bounds, and a
 * function's address must parse, its domain of at most five hex digits
 * (DOMAIN_DIGITS_MAX).  The file is
 * read once, bounded, into a memory file, so the bytes checked are the
 * bytes libpci parses.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "topology/pci_dump_vetting.h"
#include "platform/bounded_file.h"
#include "topology/pciaddr.h"

/* The largest dump read: `lspci -xxxx` writes about 4.6 KiB a function. */
#define DUMP_MAX		(64UL << 20)
#define CFG_SPACE_SIZE		4096

/*
 * The longest domain a dump is taken with.  libpci 3.9's dump reader
 * (Debian 12) skips a function whose domain has six or more digits without
 * a word, libpci 3.13's (Debian 13) reads it: refused on every release, so
 * one dump gives one answer wherever the tool runs.  The domains Linux
 * gives (ACPI segments up to ffff, VMD's from 10000) fit in five.
 */
#define DOMAIN_DIGITS_MAX	5

/* The digits of @word's domain ("dddd:bb:dd.f"), 0 when it has none. */
static size_t domain_digits(const char *word)
{
	const char *colon = strchr(word, ':');

	return colon && strchr(colon + 1, ':') ? (size_t)(colon - word) : 0;
}

/*
 * Whether @line (of @n bytes) is a config line whose offset lies outside
 * config space: "OFFSET: " with more than 3 hex digits or past 4 KiB.
 * libpci 3.9's dump reader takes any hex number there as an index into
 * its buffer, and one past 2^31 writes before it.
 */
static int offset_outside(const char *line, size_t n)
{
	size_t i;

	for (i = 0; i < n && isxdigit((unsigned char)line[i]); i++)
		;
	if (!i || i + 1 >= n || line[i] != ':' || line[i + 1] != ' ')
		return 0;	/* a device line (bb:dd.f), a comment, text */
	return i > 3 || strtoul(line, NULL, 16) >= CFG_SPACE_SIZE;
}

/*
 * Whether @line (of @n bytes) opens a function, "bb:dd.f ..." or
 * "dddd:bb:dd.f ...": a hex digit first, and a first word with a ':' and
 * a '.' that is not a config line's "OFFSET:".  The word is in @word, of
 * @wlen bytes.
 */
static int device_line(const char *line, size_t n, char *word, size_t wlen)
{
	size_t w = 0;

	if (!n || !isxdigit((unsigned char)line[0]))
		return 0;
	while (w < n && line[w] != ' ' && line[w] != '\t')
		w++;
	if (line[w - 1] == ':' || !memchr(line, ':', w) || !memchr(line, '.', w))
		return 0;
	snprintf(word, wlen, "%.*s", (int)w, line);
	return 1;
}

int dump_checked_copy(const char *dump_file, unsigned int *nr_fns,
		      char *err, size_t errlen)
{
	size_t len, at, lineno = 1, done = 0;
	char *text, word[32];
	unsigned long long addr;
	int fd;

	if (bounded_file_read(dump_file, DUMP_MAX, &text, &len)) {
		snprintf(err, errlen, "cannot read %s: %s", dump_file,
			 errno == EFBIG ? "larger than 64 MiB, which no `lspci -xxxx` output is" :
			 strerror(errno));
		return -1;
	}
	for (at = 0; at < len; lineno++) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;

		if (offset_outside(text + at, n)) {
			snprintf(err, errlen,
				 "%s line %zu: config offset '%.*s' is outside the 4 KiB of config space: not `lspci -xxxx` output",
				 dump_file, lineno, (int)strcspn(text + at, ":"), text + at);
			free(text);
			return -1;
		}
		if (device_line(text + at, n, word, sizeof(word))) {
			if (pciaddr_parse(word, &addr)) {
				snprintf(err, errlen,
					 "%s line %zu: '%s' is not a PCI address (bb:dd.f or dddd:bb:dd.f, the domain at most ffffffff)",
					 dump_file, lineno, word);
				free(text);
				return -1;
			}
			if (domain_digits(word) > DOMAIN_DIGITS_MAX) {
				snprintf(err, errlen,
					 "%s line %zu: '%s' has a domain of more than %d hex digits, which libpci's dump reader drops or reads depending on its version: the dump is not judged",
					 dump_file, lineno, word, DOMAIN_DIGITS_MAX);
				free(text);
				return -1;
			}
			(*nr_fns)++;
		}
		at += n + 1;
	}
	fd = memfd_create("p2pdiag-dump", MFD_CLOEXEC);
	while (fd >= 0 && done < len) {
		ssize_t w = write(fd, text + done, len - done);

		if (w <= 0) {
			close(fd);
			fd = -1;
		} else {
			done += (size_t)w;
		}
	}
	if (fd < 0)
		snprintf(err, errlen, "cannot hold %s in memory: %s", dump_file,
			 strerror(errno));
	free(text);
	return fd;
}
