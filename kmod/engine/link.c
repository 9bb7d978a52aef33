// SPDX-License-Identifier: GPL-2.0
/*
 * What a PCIe link can carry.  A link has two ends, and each reports it
 * in its own Link Capabilities and Status:
 *
 *        root or downstream port   <- sees the link below it
 *                  |
 *        endpoint or upstream port <- sees the link above it
 *
 * A link is taken once, from the lower end, and its maximum is the lower
 * of the two ends' capabilities.  The verdict engine (the slowest link on
 * a path, whether it is degraded) and the tool (expected bandwidth, link
 * findings) both ask here.  Freestanding, like the rest of the engine.
 */
#include "p2pdiag/decode.h"
#include "p2pdiag/model.h"

/* The lower of two capabilities; 0 means that end could not say. */
static unsigned int lower_cap(unsigned int mine, unsigned int theirs)
{
	return theirs && (!mine || theirs < mine) ? theirs : mine;
}

int p2pd_link_above(const struct p2pd_model *m, int idx,
		    struct p2pd_link *link)
{
	const struct p2pd_function *f = &m->fn[idx];
	int up;

	if (f->role == P2PD_ROLE_ROOT_PORT ||
	    f->role == P2PD_ROLE_DOWNSTREAM_PORT ||
	    f->link.state != P2PD_PRESENT)
		return 0;
	*link = f->link;
	up = f->has_parent ? p2pd_model_find(m, f->parent) : P2PD_NO_INDEX;
	if (up != P2PD_NO_INDEX && m->fn[up].link.state == P2PD_PRESENT) {
		link->max_speed = lower_cap(link->max_speed,
					    m->fn[up].link.max_speed);
		link->max_width = lower_cap(link->max_width,
					    m->fn[up].link.max_width);
	}
	return 1;
}

void p2pd_link_encoding(unsigned int speed_tenths, unsigned int *num,
			unsigned int *den)
{
	if (speed_tenths <= 50) {		/* 2.5 and 5 GT/s: 8b/10b */
		*num = 8;
		*den = 10;
	} else if (speed_tenths <= 320) {	/* 8 to 32 GT/s: 128b/130b */
		*num = 128;
		*den = 130;
	} else {				/* 64 GT/s and up: FLIT mode */
		*num = 242;
		*den = 256;
	}
}

unsigned long p2pd_link_rate(unsigned int speed_tenths, unsigned int width)
{
	unsigned long raw = (unsigned long)speed_tenths * width * 100 / 8;
	unsigned int num, den;

	p2pd_link_encoding(speed_tenths, &num, &den);
	return raw * num / den;
}
