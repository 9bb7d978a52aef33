// SPDX-License-Identifier: GPL-2.0
/*
 * One function's field values as the sysfs ABI shows them (abi.h): the
 * field names, the words for absent and unreadable values, and each
 * field's spelling.
 */
#include "p2pdiag/format.h"
#include "uapi/p2pdiag/abi.h"

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
