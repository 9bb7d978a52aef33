// SPDX-License-Identifier: GPL-2.0
/*
 * Value syntax of the topology file.  The words (roles, IOMMU domains,
 * ACS bits, "none"/"unknown"/"suspended") come from the engine's tables,
 * the same ones kmod/engine/field.c writes with.
 */
#include <limits.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "p2pdiag/parse.h"
#include "p2pdiag/verdict.h"
#include "topology/parse_values.h"

int parse_hex_field(const char *s, unsigned int digits, unsigned int *out)
{
	if (s[0] != '0' || s[1] != 'x' || strlen(s) != digits + 2)
		return -1;
	return p2pd_parse_hex(s + 2, digits, out);
}

int parse_udec(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (max - (unsigned long)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*out = v;
	return 0;
}

int parse_node(const char *s, int *out)
{
	unsigned long v;

	if (!strcmp(s, "-1")) {
		*out = -1;
		return 0;
	}
	if (parse_udec(s, INT_MAX, &v))
		return -1;
	*out = (int)v;
	return 0;
}

int parse_speed(const char *s, unsigned int *out)
{
	const char *dot = strchr(s, '.');
	char whole[8];
	unsigned long w;
	size_t n;

	if (!dot || dot == s || dot[1] < '0' || dot[1] > '9' || dot[2])
		return -1;
	n = (size_t)(dot - s);
	if (n >= sizeof(whole))
		return -1;
	memcpy(whole, s, n);
	whole[n] = 0;
	if (parse_udec(whole, 100000, &w))
		return -1;
	*out = (unsigned int)(w * 10 + (unsigned long)(dot[1] - '0'));
	return 0;
}

enum p2pd_state parse_state_word(const char *s)
{
	if (!strcmp(s, P2PD_WORD_NONE))
		return P2PD_ABSENT;
	if (!strcmp(s, P2PD_WORD_UNKNOWN))
		return P2PD_UNKNOWN;
	if (!strcmp(s, P2PD_WORD_SUSPENDED))
		return P2PD_SUSPENDED;
	return P2PD_PRESENT;
}

int parse_acs_words(const char *s, unsigned int *out)
{
	unsigned int seen = 0, bits = 0, bit;

	while (*s) {
		const char *end = strchr(s, ' ');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		char sign;

		if (n < 2)
			return -1;
		sign = s[n - 1];
		if (sign != '+' && sign != '-')
			return -1;
		bit = p2pd_acs_word_bit(s, n - 1);
		if (bit) {
			if (seen & bit)
				return -1;
			seen |= bit;
			if (sign == '+')
				bits |= bit;
		}
		s += n;
		if (*s == ' ' && !*++s)
			return -1;	/* trailing space */
	}
	if (seen != P2PD_ACS_WORD_MASK)
		return -1;
	*out = bits;
	return 0;
}

int parse_word_index(const char *s, unsigned int count,
		     const char *(*name_of)(unsigned int i))
{
	unsigned int i;
	const char *name;

	for (i = 0; i < count; i++) {
		name = name_of(i);
		if (name && !strcmp(s, name))
			return (int)i;
	}
	return -1;
}

/* The engine's name functions take their enum; the lookup takes an index. */
static const char *role_word(unsigned int i)
{
	return p2pd_role_name((enum p2pd_role)i);
}

static const char *iommu_domain_word(unsigned int i)
{
	return p2pd_iommu_domain_name((enum p2pd_iommu_domain)i);
}

int parse_role(const char *s, enum p2pd_role *out)
{
	int i = parse_word_index(s, P2PD_ROLE_COUNT, role_word);

	if (i < 0)
		return -1;
	*out = (enum p2pd_role)i;
	return 0;
}

int parse_iommu_domain(const char *s, enum p2pd_iommu_domain *out)
{
	int i = parse_word_index(s, P2PD_IOMMU_COUNT, iommu_domain_word);

	if (i < 0)
		return -1;
	*out = (enum p2pd_iommu_domain)i;
	return 0;
}

/*
 * "enabled" or "disabled" at the start of @s into *enabled; the rest of
 * @s in *rest.
 */
static int enabled_word(const char *s, int *enabled, const char **rest)
{
	static const char on[] = P2PD_WORD_ENABLED, off[] = P2PD_WORD_DISABLED;

	if (!strncmp(s, on, sizeof(on) - 1)) {
		*enabled = 1;
		*rest = s + sizeof(on) - 1;
		return 0;
	}
	if (!strncmp(s, off, sizeof(off) - 1)) {
		*enabled = 0;
		*rest = s + sizeof(off) - 1;
		return 0;
	}
	return -1;
}

/* " <key><number>" exactly at @s, @key including its space and '='. */
static int keyed_number(const char *s, const char *key, unsigned long max,
			unsigned long *out)
{
	size_t n = strlen(key);

	if (strncmp(s, key, n))
		return -1;
	return parse_udec(s + n, max, out);
}

int parse_ats(const char *s, struct p2pd_function *f)
{
	const char *rest;
	unsigned long stu;
	int enabled;

	f->ats = parse_state_word(s);
	f->ats_enabled = 0;
	f->ats_stu = 0;
	if (f->ats != P2PD_PRESENT)
		return 0;
	if (enabled_word(s, &enabled, &rest))
		return -1;
	if (!enabled)
		return *rest ? -1 : 0;
	if (keyed_number(rest, P2PD_ATS_STU, 31, &stu))
		return -1;
	f->ats_enabled = 1;
	f->ats_stu = (unsigned int)stu;
	return 0;
}

int parse_pri(const char *s, struct p2pd_function *f)
{
	const char *rest;
	int enabled;

	f->pri = parse_state_word(s);
	f->pri_enabled = 0;
	if (f->pri != P2PD_PRESENT)
		return 0;
	if (enabled_word(s, &enabled, &rest) || *rest)
		return -1;
	f->pri_enabled = enabled;
	return 0;
}

int parse_pasid(const char *s, struct p2pd_function *f)
{
	unsigned long width;
	const char *rest;
	int enabled;

	f->pasid = parse_state_word(s);
	f->pasid_enabled = 0;
	f->pasid_width = 0;
	if (f->pasid != P2PD_PRESENT)
		return 0;
	/* the Max PASID Width field has five bits */
	if (enabled_word(s, &enabled, &rest) ||
	    keyed_number(rest, P2PD_PASID_WIDTH, 31, &width))
		return -1;
	f->pasid_enabled = enabled;
	f->pasid_width = (unsigned int)width;
	return 0;
}

int parse_unescape(const char *s, size_t n, char *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		int hi, lo, c;

		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		if (i + 3 >= n || s[i + 1] != 'x')
			return -1;
		hi = p2pd_hex_digit(s[i + 2]);
		lo = p2pd_hex_digit(s[i + 3]);
		if (hi < 0 || lo < 0)
			return -1;
		c = hi << 4 | lo;
		if (c == 0 || c == '\n')
			return -1;
		out[o++] = (char)c;
		i += 3;
	}
	out[o] = 0;
	return 0;
}
