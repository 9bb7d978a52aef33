// SPDX-License-Identifier: GPL-2.0
/*
 * The text of p2pdiag's sysfs ABI (abi.h): field values, the topology
 * and pairs files, and the fixes.  Freestanding C shared by the module
 * (which serves these texts) and p2pdiag-check (which prints the same
 * texts in libpci mode, so the two can be compared byte for byte).
 */
#include "p2pdiag/format.h"
#include "p2pdiag/abi.h"
#include "p2pdiag/endpoint_groups.h"

void p2pd_buf_init(struct p2pd_buf *b, char *p, unsigned long size)
{
	b->p = p;
	b->size = p ? size : 0;
	b->len = 0;
	b->skip = 0;
	b->overflow = 0;
	b->resched = P2PD_NULL;
}

void p2pd_buf_init_window(struct p2pd_buf *b, char *p, unsigned long size,
			  unsigned long skip)
{
	p2pd_buf_init(b, p, size);
	b->skip = skip;
}

void p2pd_buf_init_cap(struct p2pd_buf *b, unsigned long cap)
{
	p2pd_buf_init(b, P2PD_NULL, 0);
	b->size = cap;
}

/* Between two lines of a long text: b->resched, where the caller set one. */
static void line_done(const struct p2pd_buf *b)
{
	if (b->resched)
		b->resched();
}

int p2pd_buf_full(const struct p2pd_buf *b)
{
	return b->overflow;
}

int p2pd_buf_terminate(struct p2pd_buf *b)
{
	if (!b->p || !b->size)
		return b->overflow ? -1 : 0;
	if (b->len < b->size) {
		b->p[b->len] = 0;
		return b->overflow ? -1 : 0;
	}
	b->p[b->size - 1] = 0;
	b->overflow = 1;
	return -1;
}

void p2pd_put_char(struct p2pd_buf *b, char c)
{
	if (b->len < b->skip) {
		b->len++;
		return;
	}
	if (b->len - b->skip < b->size) {
		if (b->p)
			b->p[b->len - b->skip] = c;
	} else if (b->p || b->size) {
		b->overflow = 1;
	}
	b->len++;
}

void p2pd_put_str(struct p2pd_buf *b, const char *s)
{
	while (s && *s)
		p2pd_put_char(b, *s++);
}

void p2pd_put_udec(struct p2pd_buf *b, unsigned long v)
{
	char digits[24];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		p2pd_put_char(b, digits[--n]);
}

void p2pd_put_dec(struct p2pd_buf *b, long v)
{
	if (v < 0) {
		p2pd_put_char(b, '-');
		p2pd_put_udec(b, 0ul - (unsigned long)v);
	} else {
		p2pd_put_udec(b, (unsigned long)v);
	}
}

void p2pd_put_hex(struct p2pd_buf *b, unsigned long v, unsigned int digits)
{
	static const char hex[] = "0123456789abcdef";
	char out[16];
	unsigned int n = 0;

	do {
		out[n++] = hex[v & 0xf];
		v >>= 4;
	} while (v && n < sizeof(out));
	while (n < digits && n < sizeof(out))
		out[n++] = '0';
	while (n)
		p2pd_put_char(b, out[--n]);
}

void p2pd_put_addr(struct p2pd_buf *b, unsigned long long addr)
{
	p2pd_put_hex(b, P2PD_ADDR_DOMAIN(addr), 4);
	p2pd_put_char(b, ':');
	p2pd_put_hex(b, P2PD_ADDR_BUS(addr), 2);
	p2pd_put_char(b, ':');
	p2pd_put_hex(b, P2PD_ADDR_DEV(addr), 2);
	p2pd_put_char(b, '.');
	p2pd_put_hex(b, P2PD_ADDR_FN(addr), 1);
}

void p2pd_put_host_bridge(struct p2pd_buf *b, unsigned long long host_bridge)
{
	p2pd_put_hex(b, P2PD_HOST_BRIDGE_DOMAIN(host_bridge), 4);
	p2pd_put_char(b, ':');
	p2pd_put_hex(b, P2PD_HOST_BRIDGE_BUS(host_bridge), 2);
}

void p2pd_put_speed(struct p2pd_buf *b, unsigned int tenths)
{
	p2pd_put_udec(b, tenths / 10);
	p2pd_put_char(b, '.');
	p2pd_put_udec(b, tenths % 10);
}

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

/* The @len bytes at @s are exactly @word (a table's NUL-terminated word). */
static int same_word(const char *word, const char *s, unsigned long len)
{
	unsigned long i;

	for (i = 0; i < len; i++)
		if (word[i] != s[i] || !word[i])
			return 0;
	return !word[len];
}

unsigned int p2pd_acs_word_bit(const char *s, unsigned long len)
{
	unsigned int i;

	for (i = 0; i < NR_ACS_BITS; i++)
		if (same_word(acs_bit_names[i].word, s, len))
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

static const char *const field_names[P2PD_F_COUNT] = {
	[P2PD_F_ROLE] = P2PD_FIELD_ROLE,
	[P2PD_F_PARENT] = P2PD_FIELD_PARENT,
	[P2PD_F_HOST_BRIDGE] = P2PD_FIELD_HOST_BRIDGE,
	[P2PD_F_NUMA_NODE] = P2PD_FIELD_NUMA_NODE,
	[P2PD_F_VENDOR] = P2PD_FIELD_VENDOR,
	[P2PD_F_DEVICE] = P2PD_FIELD_DEVICE,
	[P2PD_F_CLASS] = P2PD_FIELD_CLASS,
	[P2PD_F_ACS_CAP] = P2PD_FIELD_ACS_CAP,
	[P2PD_F_ACS_CTRL] = P2PD_FIELD_ACS_CTRL,
	[P2PD_F_ACS] = P2PD_FIELD_ACS,
	[P2PD_F_ATS] = P2PD_FIELD_ATS,
	[P2PD_F_PRI] = P2PD_FIELD_PRI,
	[P2PD_F_PASID] = P2PD_FIELD_PASID,
	[P2PD_F_LINK_SPEED] = P2PD_FIELD_LINK_SPEED,
	[P2PD_F_LINK_WIDTH] = P2PD_FIELD_LINK_WIDTH,
	[P2PD_F_LINK_MAX_SPEED] = P2PD_FIELD_LINK_MAX_SPEED,
	[P2PD_F_LINK_MAX_WIDTH] = P2PD_FIELD_LINK_MAX_WIDTH,
	[P2PD_F_IOMMU_GROUP] = P2PD_FIELD_IOMMU_GROUP,
	[P2PD_F_IOMMU_DOMAIN] = P2PD_FIELD_IOMMU_DOMAIN,
	[P2PD_F_P2P_ENDPOINT] = P2PD_FIELD_P2P_ENDPOINT,
	[P2PD_F_PHYSFN] = P2PD_FIELD_PHYSFN,
};

const char *p2pd_field_name(enum p2pd_field field)
{
	return (unsigned int)field < P2PD_F_COUNT ?
	       field_names[field] : P2PD_NULL;
}

/*
 * "none", "unknown" or "suspended" for a value that was not read; NULL
 * when it was.
 */
static const char *absent_word(enum p2pd_state state)
{
	if (state == P2PD_ABSENT)
		return P2PD_WORD_NONE;
	if (state == P2PD_UNKNOWN)
		return P2PD_WORD_UNKNOWN;
	if (state == P2PD_SUSPENDED)
		return P2PD_WORD_SUSPENDED;
	return P2PD_NULL;
}

static void put_acs_field(struct p2pd_buf *b, const struct p2pd_function *f,
			  enum p2pd_field field)
{
	const char *word = absent_word(f->acs);

	if (word) {
		p2pd_put_str(b, word);
		return;
	}
	if (field == P2PD_F_ACS) {
		p2pd_put_acs_words(b, f->acs_ctrl);
		return;
	}
	p2pd_put_str(b, "0x");
	p2pd_put_hex(b, field == P2PD_F_ACS_CAP ? f->acs_cap : f->acs_ctrl, 4);
}

static void put_ats_field(struct p2pd_buf *b, const struct p2pd_function *f)
{
	const char *word = absent_word(f->ats);

	if (word) {
		p2pd_put_str(b, word);
	} else if (!f->ats_enabled) {
		p2pd_put_str(b, P2PD_WORD_DISABLED);
	} else {
		p2pd_put_str(b, P2PD_WORD_ENABLED P2PD_ATS_STU);
		p2pd_put_udec(b, f->ats_stu);
	}
}

/* "enabled" or "disabled", then PASID's width, which it has either way. */
static void put_pri_pasid_field(struct p2pd_buf *b,
				const struct p2pd_function *f,
				enum p2pd_field field)
{
	int pasid = field == P2PD_F_PASID;
	const char *word = absent_word(pasid ? f->pasid : f->pri);

	if (word) {
		p2pd_put_str(b, word);
		return;
	}
	if (pasid ? f->pasid_enabled : f->pri_enabled)
		p2pd_put_str(b, P2PD_WORD_ENABLED);
	else
		p2pd_put_str(b, P2PD_WORD_DISABLED);
	if (pasid) {
		p2pd_put_str(b, P2PD_PASID_WIDTH);
		p2pd_put_udec(b, f->pasid_width);
	}
}

/* A reserved speed code (0 in the model) is no speed: "unknown". */
static void put_link_speed(struct p2pd_buf *b, unsigned int tenths)
{
	if (tenths)
		p2pd_put_speed(b, tenths);
	else
		p2pd_put_str(b, P2PD_WORD_UNKNOWN);
}

static void put_link_field(struct p2pd_buf *b, const struct p2pd_function *f,
			   enum p2pd_field field)
{
	const char *word = absent_word(f->link.state);

	if (word) {
		p2pd_put_str(b, word);
		return;
	}
	switch (field) {
	case P2PD_F_LINK_SPEED:
		put_link_speed(b, f->link.speed);
		break;
	case P2PD_F_LINK_WIDTH:
		p2pd_put_udec(b, f->link.width);
		break;
	case P2PD_F_LINK_MAX_SPEED:
		put_link_speed(b, f->link.max_speed);
		break;
	default:
		p2pd_put_udec(b, f->link.max_width);
		break;
	}
}

/* An address field: the address, or "none" where there is none. */
static void put_addr_or_none(struct p2pd_buf *b, int has, unsigned long long addr)
{
	if (has)
		p2pd_put_addr(b, addr);
	else
		p2pd_put_str(b, P2PD_WORD_NONE);
}

void p2pd_format_field(struct p2pd_buf *b, const struct p2pd_function *f,
		       enum p2pd_field field)
{
	switch (field) {
	case P2PD_F_ROLE:
		p2pd_put_str(b, p2pd_role_name(f->role));
		break;
	case P2PD_F_PARENT:
		put_addr_or_none(b, f->has_parent, f->parent);
		break;
	case P2PD_F_HOST_BRIDGE:
		p2pd_put_host_bridge(b, f->host_bridge);
		break;
	case P2PD_F_NUMA_NODE:
		p2pd_put_dec(b, f->numa_node);
		break;
	case P2PD_F_VENDOR:
		p2pd_put_str(b, "0x");
		p2pd_put_hex(b, f->vendor, 4);
		break;
	case P2PD_F_DEVICE:
		p2pd_put_str(b, "0x");
		p2pd_put_hex(b, f->device, 4);
		break;
	case P2PD_F_CLASS:
		p2pd_put_str(b, "0x");
		p2pd_put_hex(b, f->class_code, 6);
		break;
	case P2PD_F_ACS_CAP:
	case P2PD_F_ACS_CTRL:
	case P2PD_F_ACS:
		put_acs_field(b, f, field);
		break;
	case P2PD_F_ATS:
		put_ats_field(b, f);
		break;
	case P2PD_F_PRI:
	case P2PD_F_PASID:
		put_pri_pasid_field(b, f, field);
		break;
	case P2PD_F_LINK_SPEED:
	case P2PD_F_LINK_WIDTH:
	case P2PD_F_LINK_MAX_SPEED:
	case P2PD_F_LINK_MAX_WIDTH:
		put_link_field(b, f, field);
		break;
	case P2PD_F_IOMMU_GROUP:
		if (f->iommu_group < 0)
			p2pd_put_str(b, P2PD_WORD_NONE);
		else
			p2pd_put_dec(b, f->iommu_group);
		break;
	case P2PD_F_IOMMU_DOMAIN:
		p2pd_put_str(b, p2pd_iommu_domain_name(f->iommu_domain));
		break;
	case P2PD_F_P2P_ENDPOINT:
		p2pd_put_char(b, f->p2p_endpoint ? '1' : '0');
		break;
	case P2PD_F_PHYSFN:
		put_addr_or_none(b, f->has_physfn, f->physfn);
		break;
	default:
		break;
	}
}

char *p2pd_field_text(char *s, unsigned long size,
		      const struct p2pd_function *f, enum p2pd_field field)
{
	struct p2pd_buf b;

	p2pd_buf_init(&b, s, size);
	p2pd_format_field(&b, f, field);
	p2pd_buf_terminate(&b);
	return s;
}

/* A field value inside a topology line: spaces become "\x20". */
static void put_escaped_field(struct p2pd_buf *b,
			      const struct p2pd_function *f,
			      enum p2pd_field field)
{
	char tmp[160];
	struct p2pd_buf t;
	unsigned long i;

	p2pd_buf_init(&t, tmp, sizeof(tmp));
	p2pd_format_field(&t, f, field);
	p2pd_buf_terminate(&t);
	for (i = 0; tmp[i]; i++) {
		if (tmp[i] == ' ')
			p2pd_put_str(b, "\\x20");
		else
			p2pd_put_char(b, tmp[i]);
	}
}

/* " <key>=" in a header line, with the ABI's key names (abi.h). */
static void put_header_key(struct p2pd_buf *b, const char *key)
{
	p2pd_put_char(b, ' ');
	p2pd_put_str(b, key);
	p2pd_put_char(b, '=');
}

static void put_header(struct p2pd_buf *b, const struct p2pd_model *m)
{
	p2pd_put_str(b, P2PD_HEADER_PREFIX);
	p2pd_put_udec(b, P2PD_ABI_VERSION);
	put_header_key(b, P2PD_HEADER_GENERATION);
	p2pd_put_udec(b, m->generation);
}

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
		if (same_word(cpu_words[i].word, s, len)) {
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

/*
 * " root_bus_first=<addr>,...": the function heading each root bus's
 * device list, in address order, which the kernel's host-bridge test looks
 * at; nothing when no function is marked (a reader then takes each root
 * bus's lowest address, as a boot-time scan orders them).
 */
static void put_root_bus_heads(struct p2pd_buf *b, const struct p2pd_model *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_fn; i++) {
		if (!m->fn[i].root_bus_first || m->fn[i].has_parent)
			continue;
		if (n++)
			p2pd_put_char(b, ',');
		else
			put_header_key(b, P2PD_HEADER_ROOT_BUS_FIRST);
		p2pd_put_addr(b, m->fn[i].addr);
	}
}

void p2pd_format_topology(struct p2pd_buf *b, const struct p2pd_model *m)
{
	unsigned int i;
	int field;

	put_header(b, m);
	put_header_key(b, P2PD_HEADER_FUNCTIONS);
	p2pd_put_udec(b, m->nr_fn);
	/* re-judging a saved topology needs the host-bridge facts */
	put_header_key(b, P2PD_HEADER_CPU);
	p2pd_put_str(b, p2pd_cpu_word(m->cpu_flags));
	if (m->kernel_release) {
		put_header_key(b, P2PD_HEADER_KERNEL);
		p2pd_put_release(b, m->kernel_release);
	}
	put_root_bus_heads(b, m);
	p2pd_put_char(b, '\n');

	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i];

		p2pd_put_str(b, "addr=");
		p2pd_put_addr(b, f->addr);
		for (field = 0; field < P2PD_F_COUNT; field++) {
			p2pd_put_char(b, ' ');
			p2pd_put_str(b, p2pd_field_name(field));
			p2pd_put_char(b, '=');
			put_escaped_field(b, f, field);
		}
		p2pd_put_char(b, '\n');
		line_done(b);
	}
}

/*
 * Clearing ACS redirect only helps where it leaves a direct path: under a
 * common bridge, or towards a host bridge that routes P2P.
 */
int p2pd_acs_fix_applies(const struct p2pd_pair *p)
{
	return p->nr_blockers &&
	       (p->common_kind == P2PD_COMMON_BRIDGE || !p->host_blocks);
}

/* "<param><item_prefix><addr>;<item_prefix><addr>..." for @nr ports */
static void put_port_list(struct p2pd_buf *b, const struct p2pd_model *m,
			  const int *port, unsigned int nr, const char *param,
			  const char *item_prefix)
{
	unsigned int i;

	if (!nr) {
		p2pd_put_str(b, P2PD_WORD_NONE);
		return;
	}
	p2pd_put_str(b, param);
	for (i = 0; i < nr; i++) {
		if (i)
			p2pd_put_char(b, ';');
		p2pd_put_str(b, item_prefix);
		p2pd_put_addr(b, m->fn[port[i]].addr);
	}
}

/* The pair's ports to clear, or none where clearing would not help. */
static unsigned int pair_fix_ports(const struct p2pd_pair *p)
{
	return p2pd_acs_fix_applies(p) ? p->nr_blockers : 0;
}

/* pci=disable_acs_redir= takes "<addr>" items, pci=config_acs= "<flags>@<addr>" */
#define FIX_PARAM		"pci=disable_acs_redir="
#define CONFIG_ACS_PARAM	"pci=config_acs="
/* flags from DT (left) to SV (right): clear EC, CR, RR; keep others */
#define CONFIG_ACS_ITEM		"x0x00xx@"

void p2pd_format_fix(struct p2pd_buf *b, const struct p2pd_model *m,
		     const struct p2pd_pair *p)
{
	put_port_list(b, m, p->blocker, pair_fix_ports(p), FIX_PARAM, "");
}

void p2pd_format_config_acs(struct p2pd_buf *b, const struct p2pd_model *m,
			    const struct p2pd_pair *p)
{
	put_port_list(b, m, p->blocker, pair_fix_ports(p), CONFIG_ACS_PARAM,
		      CONFIG_ACS_ITEM);
}

int p2pd_port_set_add(struct p2pd_port_set *s, const struct p2pd_pair *p)
{
	unsigned int i, j, k, nr = pair_fix_ports(p);
	int added = 0;

	for (i = 0; i < nr; i++) {
		int port = p->blocker[i];

		for (j = 0; j < s->nr && s->port[j] < port; j++)
			;
		if (j < s->nr && s->port[j] == port)
			continue;
		if (s->nr == P2PD_MAX_FIX_PORTS) {
			s->overflow = 1;
			return -1;
		}
		for (k = s->nr; k > j; k--)
			s->port[k] = s->port[k - 1];
		s->port[j] = port;
		s->nr++;
		added++;
	}
	return added;
}

void p2pd_format_fix_set(struct p2pd_buf *b, const struct p2pd_model *m,
			 const struct p2pd_port_set *s)
{
	put_port_list(b, m, s->port, s->nr, FIX_PARAM, "");
}

void p2pd_format_config_acs_set(struct p2pd_buf *b, const struct p2pd_model *m,
				const struct p2pd_port_set *s)
{
	put_port_list(b, m, s->port, s->nr, CONFIG_ACS_PARAM, CONFIG_ACS_ITEM);
}

void p2pd_format_setpci(struct p2pd_buf *b, const struct p2pd_function *f)
{
	p2pd_put_str(b, "setpci -s ");
	p2pd_put_addr(b, f->addr);
	p2pd_put_str(b, " ECAP_ACS+0x6.w=");
	p2pd_put_hex(b, f->acs_ctrl & ~(unsigned int)P2PD_ACS_REDIRECT_MASK, 4);
}

static void put_host_blocker(struct p2pd_buf *b, const struct p2pd_model *m,
			     int host_fn, unsigned long long host_bridge)
{
	if (host_fn != P2PD_NO_INDEX)
		p2pd_put_addr(b, m->fn[host_fn].addr);
	else
		p2pd_put_host_bridge(b, host_bridge);
	p2pd_put_str(b, ":HB");
}

void p2pd_put_acs_redirect(struct p2pd_buf *b, const struct p2pd_function *f)
{
	p2pd_put_acs_short(b, f->acs_ctrl & P2PD_ACS_REDIRECT_MASK);
}

void p2pd_format_blocker(struct p2pd_buf *b, const struct p2pd_function *f)
{
	p2pd_put_addr(b, f->addr);
	p2pd_put_char(b, ':');
	p2pd_put_acs_redirect(b, f);
}

void p2pd_format_blockers(struct p2pd_buf *b, const struct p2pd_model *m,
			  const struct p2pd_pair *p)
{
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];
	unsigned int i;

	if (!p->nr_blockers && !p->host_blocks) {
		p2pd_put_str(b, P2PD_WORD_NONE);
		return;
	}
	for (i = 0; i < p->nr_blockers; i++) {
		if (i)
			p2pd_put_char(b, ',');
		p2pd_format_blocker(b, &m->fn[p->blocker[i]]);
	}
	if (!p->host_blocks)
		return;
	if (p->nr_blockers)
		p2pd_put_char(b, ',');
	put_host_blocker(b, m, p->host_fn, fa->host_bridge);
	if (fa->host_bridge != fb->host_bridge) {
		p2pd_put_char(b, ',');
		put_host_blocker(b, m, p->host_fn_b, fb->host_bridge);
	}
}

static void put_common(struct p2pd_buf *b, const struct p2pd_model *m,
		       const struct p2pd_pair *p)
{
	if (p->common_kind == P2PD_COMMON_BRIDGE)
		p2pd_put_addr(b, m->fn[p->common].addr);
	else
		p2pd_put_str(b, p2pd_common_name(p->common_kind));
}

static void put_bottleneck(struct p2pd_buf *b, const struct p2pd_pair *p)
{
	if (p->bottleneck_fn == P2PD_NO_INDEX) {
		p2pd_put_str(b, P2PD_WORD_NONE);
		return;
	}
	p2pd_put_speed(b, p->bottleneck.speed);
	p2pd_put_char(b, 'x');
	p2pd_put_udec(b, p->bottleneck.width);
}

void p2pd_format_pair(struct p2pd_buf *b, const struct p2pd_model *m,
		      const struct p2pd_pair *p)
{
	p2pd_put_str(b, "a=");
	p2pd_put_addr(b, m->fn[p->a].addr);
	p2pd_put_str(b, " b=");
	p2pd_put_addr(b, m->fn[p->b].addr);
	p2pd_put_str(b, " class=");
	p2pd_put_str(b, p2pd_class_name(p->cls));
	p2pd_put_str(b, " verdict=");
	p2pd_put_str(b, p2pd_verdict_name(p->verdict));
	p2pd_put_str(b, " map=");
	p2pd_put_str(b, p2pd_map_name(p->map));
	p2pd_put_str(b, " distance=");
	if (p->distance == P2PD_DISTANCE_UNKNOWN)
		p2pd_put_str(b, P2PD_WORD_UNKNOWN);
	else
		p2pd_put_dec(b, p->distance);
	p2pd_put_str(b, " common=");
	put_common(b, m, p);
	p2pd_put_str(b, " blockers=");
	p2pd_format_blockers(b, m, p);
	p2pd_put_str(b, " bottleneck=");
	put_bottleneck(b, p);
	p2pd_put_str(b, " degraded=");
	p2pd_put_char(b, p->degraded ? '1' : '0');
	p2pd_put_str(b, " nccl_p2p=");
	p2pd_put_char(b, p->nccl_p2p ? '1' : '0');
	p2pd_put_str(b, " fix=");
	p2pd_format_fix(b, m, p);
	p2pd_put_char(b, '\n');
}

void p2pd_format_pairs(struct p2pd_buf *b, const struct p2pd_model *m)
{
	struct p2pd_pair pair;
	int a = P2PD_NO_INDEX, bi = P2PD_NO_INDEX;

	put_header(b, m);
	put_header_key(b, P2PD_HEADER_PAIRS);
	p2pd_put_udec(b, p2pd_count_pairs(m));
	p2pd_put_char(b, '\n');
	while (!p2pd_buf_full(b) && p2pd_next_pair(m, &a, &bi)) {
		if (!p2pd_judge(m, a, bi, &pair))
			p2pd_format_pair(b, m, &pair);
		line_done(b);
	}
}

/*
 * The last line of both files (ABI.txt): the generation again and the
 * bytes before this line.  A reader whose read() calls were served from
 * two snapshots finds a generation other than the header's (generations
 * only grow, so equal ends mean one snapshot throughout); one whose text
 * was cut short finds no such line, or another byte count.
 */
static void put_trailer(struct p2pd_buf *b, unsigned long generation)
{
	unsigned long bytes = b->len;

	p2pd_put_str(b, P2PD_TRAILER_PREFIX);
	p2pd_put_udec(b, generation);
	p2pd_put_str(b, P2PD_TRAILER_BYTES);
	p2pd_put_udec(b, bytes);
	p2pd_put_char(b, '\n');
}

void p2pd_format_topology_file(struct p2pd_buf *b, const struct p2pd_model *m)
{
	p2pd_format_topology(b, m);
	put_trailer(b, m->generation);
}

void p2pd_format_pairs_file(struct p2pd_buf *b, const struct p2pd_model *m)
{
	p2pd_format_pairs(b, m);
	put_trailer(b, m->generation);
}

static void put_pairs_view_header(struct p2pd_buf *b, const struct p2pd_model *m,
				  const struct p2pd_groups *g)
{
	put_header(b, m);
	put_header_key(b, P2PD_HEADER_PAIRS);
	p2pd_put_udec(b, p2pd_count_pairs(m));
	p2pd_put_str(b, " view=" P2PD_PAIRS_VIEW_GROUPED " groups=");
	p2pd_put_udec(b, g->nr);
	p2pd_put_str(b, " group_pairs=");
	p2pd_put_udec(b, p2pd_count_group_pairs(g));
}

/* "group=<n> members=<k> addr=<addr>,<addr>..." */
static void put_group_line(struct p2pd_buf *b, const struct p2pd_model *m,
			   const struct p2pd_groups *g, int gi)
{
	int i;

	p2pd_put_str(b, "group=");
	p2pd_put_udec(b, (unsigned long)gi);
	p2pd_put_str(b, " members=");
	p2pd_put_udec(b, (unsigned long)g->size[gi]);
	p2pd_put_str(b, " addr=");
	for (i = g->first[gi]; i != P2PD_NO_INDEX; i = g->next[i]) {
		if (i != g->first[gi])
			p2pd_put_char(b, ',');
		p2pd_put_addr(b, m->fn[i].addr);
	}
	p2pd_put_char(b, '\n');
}

void p2pd_format_group_pair(struct p2pd_buf *b, const struct p2pd_model *m,
			    const struct p2pd_groups *g, int ga, int gb,
			    const struct p2pd_pair *rep)
{
	p2pd_put_str(b, "group_a=");
	p2pd_put_udec(b, (unsigned long)ga);
	p2pd_put_str(b, " group_b=");
	p2pd_put_udec(b, (unsigned long)gb);
	put_header_key(b, P2PD_HEADER_PAIRS);
	p2pd_put_udec(b, p2pd_group_pair_count(g, ga, gb));
	p2pd_put_char(b, ' ');
	p2pd_format_pair(b, m, rep);
}

void p2pd_format_pairs_grouped(struct p2pd_buf *b, const struct p2pd_model *m,
			       const struct p2pd_groups *g)
{
	struct p2pd_pair rep;
	int ga = P2PD_NO_INDEX, gb = P2PD_NO_INDEX;
	unsigned int i;

	put_pairs_view_header(b, m, g);
	p2pd_put_str(b, " status=" P2PD_PAIRS_STATUS_COMPLETE "\n");
	for (i = 0; i < g->nr && !p2pd_buf_full(b); i++) {
		put_group_line(b, m, g, (int)i);
		line_done(b);
	}
	while (!p2pd_buf_full(b) && p2pd_next_group_pair(g, &ga, &gb)) {
		if (!p2pd_judge_group_pair(m, g, ga, gb, &rep))
			p2pd_format_group_pair(b, m, g, ga, gb, &rep);
		line_done(b);
	}
}

void p2pd_format_pairs_grouped_file(struct p2pd_buf *b,
				    const struct p2pd_model *m,
				    const struct p2pd_groups *g)
{
	p2pd_format_pairs_grouped(b, m, g);
	put_trailer(b, m->generation);
}

void p2pd_format_pairs_limit(struct p2pd_buf *b, const struct p2pd_model *m,
			     const struct p2pd_groups *g, unsigned long limit)
{
	put_pairs_view_header(b, m, g);
	p2pd_put_str(b, " status=" P2PD_PAIRS_STATUS_LIMIT " limit=");
	p2pd_put_udec(b, limit);
	p2pd_put_char(b, '\n');
}

void p2pd_format_pairs_limit_file(struct p2pd_buf *b, const struct p2pd_model *m,
				  const struct p2pd_groups *g,
				  unsigned long limit)
{
	p2pd_format_pairs_limit(b, m, g, limit);
	put_trailer(b, m->generation);
}

/*
 * A window's reader wants nothing before b->skip: a line of @n bytes that
 * ends there need not be formatted, only counted.
 */
static int skip_before_window(struct p2pd_buf *b, unsigned long n)
{
	if (!n || b->len + n > b->skip)
		return 0;
	b->len += n;
	return 1;
}

void p2pd_format_endpoint_pairs_file(struct p2pd_buf *b,
				     const struct p2pd_model *m,
				     const struct p2pd_groups *g, int x)
{
	/* the last pair judged stands for its group pair (frames stay small) */
	struct p2pd_pair pair;
	int last_ga = P2PD_NO_INDEX, last_gb = P2PD_NO_INDEX;
	/*
	 * Member pairs with a's group and b's group in common differ only in
	 * addresses of one width (one group, one domain): their lines are of
	 * one length, measured once and skipped before a window.
	 */
	int len_ga = P2PD_NO_INDEX, len_gb = P2PD_NO_INDEX;
	unsigned long line_len = 0, start;
	unsigned int y, nr = 0;

	for (y = 0; y < m->nr_fn; y++)
		nr += (int)y != x && m->fn[y].p2p_endpoint;
	put_header(b, m);
	p2pd_put_str(b, " endpoint=");
	p2pd_put_addr(b, m->fn[x].addr);
	put_header_key(b, P2PD_HEADER_PAIRS);
	p2pd_put_udec(b, m->fn[x].p2p_endpoint ? nr : 0);
	p2pd_put_char(b, '\n');
	for (y = 0; m->fn[x].p2p_endpoint && y < m->nr_fn; y++) {
		int a = (int)y < x ? (int)y : x, bb = (int)y < x ? x : (int)y;
		int ga = g->group_of[a], gb = g->group_of[bb];

		if ((int)y == x || !m->fn[y].p2p_endpoint)
			continue;
		line_done(b);
		if (p2pd_buf_full(b))
			return;	/* a window: the rest is not wanted */
		if (ga == len_ga && gb == len_gb &&
		    skip_before_window(b, line_len))
			continue;
		if (ga > gb) {
			ga = gb;
			gb = g->group_of[a];
		}
		/* consecutive peers mostly share a group: judge it once */
		if (ga != last_ga || gb != last_gb) {
			if (p2pd_judge_group_pair(m, g, ga, gb, &pair))
				continue;
			last_ga = ga;
			last_gb = gb;
		}
		if (p2pd_judge_member(m, g, &pair, a, bb, &pair)) {
			last_ga = P2PD_NO_INDEX;	/* judge anew */
			continue;
		}
		start = b->len;
		p2pd_format_pair(b, m, &pair);
		line_len = b->len - start;
		len_ga = g->group_of[a];
		len_gb = g->group_of[bb];
	}
	put_trailer(b, m->generation);
}
