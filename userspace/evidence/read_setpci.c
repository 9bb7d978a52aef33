// SPDX-License-Identifier: GPL-2.0
/*
 * setpci reads of the ACS Control register ("setpci -s 02:08.0
 * ECAP_ACS+6.w", or its raw offset as a loop over the switch's ports
 * pasted it) and the words it printed, one per port: decoded with the
 * engine's ACS bits, they are ACSCtl lines whose ports the paste does not
 * name, and count as lspci's grepped ACSCtl lines do.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"
#include "uapi/p2pdiag/abi.h"

/*
 * A read of a 16-bit register by setpci, "setpci ... ECAP_ACS+6.w" or a
 * raw offset ("f2a.w"): no '=', which would write it.
 */
static bool setpci_read(const char *s)
{
	const char *p = strstr(s, "setpci");

	return p && !strchr(p, '=') && strstr(p, ".w");
}

/* A word as setpci prints it: four hex digits alone on the line. */
static bool word_line(const char *s, unsigned int *v)
{
	char *end;
	unsigned long x;

	s = ev_skip_blank(s);
	if (strlen(s) != 4 || !isxdigit((unsigned char)s[0]))
		return false;
	x = strtoul(s, &end, 16);
	if (*ev_skip_blank(end))
		return false;
	*v = (unsigned int)x;
	return true;
}

void read_setpci(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	unsigned int i, k;

	for (i = 0; i < f->nr_lines; i++) {
		unsigned int v, end, words = 0, acs = 0;

		if (!setpci_read(f->line[i]))
			continue;
		/* the words that follow; a raw offset counts only as ACS words */
		for (k = i + 1; k < f->nr_lines; k++) {
			if (word_line(f->line[k], &v)) {
				words++;
				acs += !(v & ~P2PD_ACS_WORD_MASK);
			} else if (*ev_skip_blank(f->line[k]) && !strstr(f->line[k], "password")) {
				break;
			}
		}
		if (!words || acs != words)
			continue;
		end = k;
		for (k = i + 1; k < end; k++) {
			if (!word_line(f->line[k], &v))
				continue;
			ev->nr_acs_lines++;
			if ((v & P2PD_ACS_REDIRECT_MASK) && !ev->nr_acs_redirect++) {
				ev->acs_redirect_ref.file = fi;
				ev->acs_redirect_ref.line = k + 1;
			}
		}
		f->formats |= EV_FMT_SETPCI;
		i = end - 1;
	}
}
