// SPDX-License-Identifier: GPL-2.0
/*
 * The topology header's words for the machine: cpu= (the CPU rule's
 * flags) and kernel= (the release the host-bridge list is applied as
 * of), written and read back.
 */
#include "p2pdiag/format.h"
#include "uapi/p2pdiag/abi.h"
#include "format_frame.h"

/* The header's cpu= words; p2pd_cpu_word() picks one, p2pd_cpu_word_flags() reads it. */
enum { CPU_WORD_AMD_ZEN, CPU_WORD_AMD, CPU_WORD_OTHER, NR_CPU_WORDS };

static const struct cpu_word_name {
	const char *word;
	unsigned int flags;
} cpu_words[NR_CPU_WORDS] = {
	[CPU_WORD_AMD_ZEN] = { "amd_zen", P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P },
	[CPU_WORD_AMD] = { "amd", P2PD_CPU_AMD },
	[CPU_WORD_OTHER] = { "other", 0 },
};

const char *p2pd_cpu_word(unsigned int cpu_flags)
{
	if (cpu_flags & P2PD_CPU_ROUTES_P2P)
		return cpu_words[CPU_WORD_AMD_ZEN].word;
	if (cpu_flags & P2PD_CPU_AMD)
		return cpu_words[CPU_WORD_AMD].word;
	return cpu_words[CPU_WORD_OTHER].word;
}

int p2pd_cpu_word_flags(const char *s, unsigned long len, unsigned int *flags)
{
	unsigned int i;

	for (i = 0; i < NR_CPU_WORDS; i++) {
		if (p2pd_same_word(cpu_words[i].word, s, len)) {
			*flags = cpu_words[i].flags;
			return 0;
		}
	}
	return -1;
}

void p2pd_put_release(struct p2pd_buf *b, unsigned int release)
{
	p2pd_put_udec(b, P2PD_RELEASE_MAJOR(release));
	p2pd_put_char(b, '.');
	p2pd_put_udec(b, P2PD_RELEASE_MINOR(release));
	p2pd_put_char(b, '.');
	p2pd_put_udec(b, P2PD_RELEASE_SUB(release));
}

int p2pd_release_word(const char *s, unsigned long len, unsigned int *release)
{
	unsigned long part[3] = { 0, 0, 0 }, i;
	unsigned int n = 0, digits = 0;

	for (i = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			part[n] = part[n] * 10 + (unsigned long)(s[i] - '0');
			if (part[n] > 65535)
				return -1;
			digits++;
		} else if (s[i] == '.' && digits && n < 2) {
			n++;
			digits = 0;
		} else {
			break;
		}
	}
	if (n < 1 || !digits || !part[0] || part[0] > 255 || part[1] > 255)
		return -1;
	*release = P2PD_RELEASE(part[0], part[1],
				part[2] > 255 ? 255 : part[2]);
	return 0;
}
