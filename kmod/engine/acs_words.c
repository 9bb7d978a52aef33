// SPDX-License-Identifier: GPL-2.0
/*
 * The ACS Control bits' words: lspci's ACSCtl spelling (read back from a
 * topology file and written into the acs_ctrl field) and the short forms
 * of the blockers list.  One table for both directions.
 */
#include "p2pdiag/format.h"
#include "uapi/p2pdiag/abi.h"
#include "format_frame.h"

static const struct acs_bit_name {
	unsigned int bit;
	const char *word;	/* lspci's ACSCtl word */
	const char *abbrev;	/* the blockers list's */
} acs_bit_names[] = {
	{ P2PD_ACS_SV, "SrcValid", "SV" },
	{ P2PD_ACS_TB, "TransBlk", "TB" },
	{ P2PD_ACS_RR, "ReqRedir", "RR" },
	{ P2PD_ACS_CR, "CmpltRedir", "CR" },
	{ P2PD_ACS_UF, "UpstreamFwd", "UF" },
	{ P2PD_ACS_EC, "EgressCtrl", "EC" },
	{ P2PD_ACS_DT, "DirectTrans", "DT" },
};

#define NR_ACS_BITS (sizeof(acs_bit_names) / sizeof(acs_bit_names[0]))

unsigned int p2pd_acs_word_bit(const char *s, unsigned long len)
{
	unsigned int i;

	for (i = 0; i < NR_ACS_BITS; i++)
		if (p2pd_same_word(acs_bit_names[i].word, s, len))
			return acs_bit_names[i].bit;
	return 0;
}

void p2pd_put_acs_words(struct p2pd_buf *b, unsigned int ctrl)
{
	unsigned int i;

	for (i = 0; i < NR_ACS_BITS; i++) {
		if (i)
			p2pd_put_char(b, ' ');
		p2pd_put_str(b, acs_bit_names[i].word);
		p2pd_put_char(b, ctrl & acs_bit_names[i].bit ? '+' : '-');
	}
}

void p2pd_put_acs_short(struct p2pd_buf *b, unsigned int bits)
{
	unsigned int i;
	int first = 1;

	for (i = 0; i < NR_ACS_BITS; i++) {
		if (!(bits & acs_bit_names[i].bit))
			continue;
		if (!first)
			p2pd_put_char(b, '+');
		p2pd_put_str(b, acs_bit_names[i].abbrev);
		first = 0;
	}
}
