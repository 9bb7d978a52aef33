// SPDX-License-Identifier: GPL-2.0
/*
 * lspci's outputs: -vvv and -vvvnn (one block per function: its header
 * line, a bridge's bus range, ACSCap/ACSCtl, LnkCap/LnkSta, the IOMMU
 * group, or "<access denied>" where it ran without root), -tv (the tree:
 * noted, it names no ACS or link state), and -xxxx, the hex dump that the
 * tool's libpci path reads (--pci-dump): a dump found in a paste is
 * copied, without what pasting added, into a memory file and read there,
 * so that the engine judges it as it judges --pci-dump.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "evidence/evidence.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "topology/source_pci.h"

/*
 * "0000:03:00.0 PCI bridge: ..." or "03:00.0 ...": the address (a VMD
 * domain has five digits or more), the rest.
 */
static bool function_header(const char *s, struct ev_pci_dev *d, const char **rest)
{
	unsigned int dom = 0, bus, dev, fn;
	size_t lead = strspn(s, "0123456789abcdef");
	int n = 0;

	if (lead >= 4 && lead <= 8 && s[lead] == ':') {
		if (sscanf(s, "%8x:%2x:%2x.%1u %n", &dom, &bus, &dev, &fn, &n) != 4)
			return false;
	} else if (lead == 2 && s[2] == ':') {
		if (sscanf(s, "%2x:%2x.%1u %n", &bus, &dev, &fn, &n) != 3)
			return false;
	} else {
		return false;
	}
	if (!n || dev > 31 || fn > 7 || s[n - 1] != ' ' || !strchr(s + n, ':'))
		return false;
	memset(d, 0, sizeof(*d));
	d->domain = dom;
	d->bus = bus;
	d->dev = dev;
	d->fn = fn;
	d->iommu_group = -1;
	d->numa_node = -1;
	*rest = s + n;
	return true;
}

static unsigned int speed10(const char *s)
{
	const char *p = strstr(s, "Speed ");
	double v;

	if (!p || sscanf(p, "Speed %lfGT/s", &v) != 1 || v <= 0 || v > 1000)
		return 0;
	return (unsigned int)(v * 10 + 0.5);
}

static unsigned int width(const char *s)
{
	const char *p = strstr(s, "Width x");
	unsigned int w;

	if (!p || sscanf(p, "Width x%u", &w) != 1 || w > 32)
		return 0;
	return w;
}

/* The bits of lspci's ACSCap/ACSCtl words that end in '+'. */
static unsigned int acs_bits(const char *s)
{
	unsigned int bits = 0;

	s = strchr(s, ':');
	while (s && *s) {
		size_t n;

		s += strspn(s, ": \t");
		n = strcspn(s, " \t");
		if (n > 1 && s[n - 1] == '+')
			bits |= p2pd_acs_word_bit(s, n - 1);
		s += n;
	}
	return bits;
}

/*
 * "Capabilities: [68] Express (v2) Downstream Port (Slot+), MSI 00": the
 * Device/Port Type lspci names (PCIe r6.0, 7.5.3.2), longest names first.
 */
static bool express_type(const char *s, unsigned int *type)
{
	static const struct { const char *name; unsigned int type; } types[] = {
		{ "Root Complex Integrated Endpoint", 9 },
		{ "Root Complex Event Collector", 10 },
		{ "Legacy Endpoint", 1 }, { "Endpoint", 0 },
		{ "Root Port", 4 }, { "Upstream Port", 5 }, { "Downstream Port", 6 },
		{ "PCI-Express to PCI/PCI-X Bridge", 7 },
		{ "PCI/PCI-X to PCI-Express Bridge", 8 },
	};
	const char *e = strstr(s, "] Express ");
	unsigned int i;

	if (!ev_starts(s, "Capabilities:") || !e)
		return false;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strstr(e, types[i].name)) {
			*type = types[i].type;
			return true;
		}
	return false;
}

static void detail_line(struct ev_pci_dev *d, const char *s, unsigned int fi,
			unsigned int line)
{
	unsigned int off;
	unsigned int pri, sec, sub;
	const char *p;

	if ((p = strstr(s, "Bus: primary=")) &&
	    sscanf(p, "Bus: primary=%x, secondary=%x, subordinate=%x", &pri, &sec, &sub) == 3) {
		d->secondary = sec;
		d->subordinate = sub;
		d->has_bus_range = true;
	} else if (ev_starts(s, "ACSCap:")) {
		d->acs_cap_seen = true;
		d->acs_cap_bits = acs_bits(s);
	} else if (ev_starts(s, "ACSCtl:")) {
		d->acs_ctl_seen = true;
		d->acs_ctl_bits = acs_bits(s);
		d->req_redir = strstr(s, "ReqRedir+") != NULL;
		d->cmplt_redir = strstr(s, "CmpltRedir+") != NULL;
		d->src_valid = strstr(s, "SrcValid+") != NULL;
		d->acs_ref.file = fi;
		d->acs_ref.line = line;
	} else if (ev_starts(s, "LnkCap:")) {
		d->cap_speed10 = speed10(s);
		d->cap_width = width(s);
	} else if (ev_starts(s, "LnkSta:")) {
		const char *w = strstr(s, "Width x");

		d->sta_speed10 = speed10(s);
		d->sta_width = width(s);
		/* newer lspci compares with LnkCap itself: "(downgraded)" */
		d->speed_downgraded = w && strstr(s, "(downgraded)") &&
				      strstr(s, "(downgraded)") < w;
		d->width_downgraded = w && strstr(w, "(downgraded)");
		d->lnk_ref.file = fi;
		d->lnk_ref.line = line;
	} else if (express_type(s, &d->pcie_type)) {
		d->pcie = true;
		d->downstream_port = d->pcie_type == 6;
	} else if (ev_starts(s, "Kernel driver in use:") || ev_starts(s, "Kernel modules:")) {
		d->whole = true;	/* lspci's last lines of a function */
	} else if (ev_starts(s, "Status: Cap-")) {
		d->no_caps = true;	/* no capability list: a conventional function */
	} else if (ev_starts(s, "ATSCtl:")) {
		d->ats_seen = true;
		d->ats_enabled = strstr(s, "Enable+") != NULL;
	} else if (strstr(s, "<access denied>")) {
		d->access_denied = true;
	} else if (ev_starts(s, "IOMMU group:")) {
		d->iommu_group = atoi(s + 12);
	}
	if (ev_starts(s, "Capabilities: [") && sscanf(s, "Capabilities: [%x", &off) == 1 &&
	    off >= 0x100)
		d->ext_caps_seen = true;
	if (ev_starts(s, "NUMA node:")) {
		char *end;
		long node = strtol(s + 10, &end, 10);

		if (end != s + 10 && node >= 0 && node < 4096) {
			d->numa_node = (int)node;
			d->numa_ref.file = fi;
			d->numa_ref.line = line;
		}
	}
}

/*
 * The class, IDs and prog-if of a header's rest: "3D controller [0302]:
 * NVIDIA Corporation GA100 [A100 SXM4 40GB] [10de:20b0] (rev a1)" with
 * -nn; without it the class from its name alone.
 */
static void header_ids(struct ev_pci_dev *d, const char *rest)
{
	static const struct { const char *name; unsigned int cls; } classes[] = {
		{ "Host bridge", 0x0600 }, { "PCI bridge", 0x0604 },
		{ "CardBus bridge", 0x0607 }, { "VGA compatible controller", 0x0300 },
		{ "3D controller", 0x0302 }, { "Display controller", 0x0380 },
		{ "Ethernet controller", 0x0200 }, { "Infiniband controller", 0x0207 },
		{ "Network controller", 0x0280 }, { "Non-Volatile memory controller", 0x0108 },
	};
	const char *p, *colon = strchr(rest, ':');
	unsigned int cls, v, dv, progif, i;

	if (colon && colon - rest > 7 && sscanf(colon - 6, "[%4x]", &cls) == 1 &&
	    colon[-1] == ']') {
		d->class_code = cls << 8;
		d->class_known = true;
	}
	for (i = 0; !d->class_known && i < sizeof(classes) / sizeof(classes[0]); i++)
		if (ev_starts(rest, classes[i].name)) {
			d->class_code = classes[i].cls << 8;
			d->class_known = true;
		}
	for (p = strchr(rest, '['); p; p = strchr(p + 1, '['))
		if (strlen(p) >= 11 && p[5] == ':' && p[10] == ']' &&
		    sscanf(p, "[%4x:%4x]", &v, &dv) == 2) {
			d->vendor = v;
			d->device = dv;
		}
	if ((p = strstr(rest, "(prog-if ")) && sscanf(p, "(prog-if %2x", &progif) == 1)
		d->class_code |= progif;
}

/* The function at @d's address read before, or NULL. */
static const struct ev_pci_dev *seen_before(const struct evidence *ev,
					    const struct ev_pci_dev *d)
{
	unsigned int i;

	for (i = 0; !d->anonymous && i < ev->nr_pci; i++) {
		const struct ev_pci_dev *o = &ev->pci[i];

		if (!o->anonymous && o->domain == d->domain && o->bus == d->bus &&
		    o->dev == d->dev && o->fn == d->fn)
			return o;
	}
	return NULL;
}

/* The next line of @d's block from *@at that is not blank, or NULL. */
static const char *block_line(const struct evidence *ev,
			      const struct ev_pci_dev *d, unsigned int *at)
{
	const struct ev_file *f = &ev->file[d->ref.file];

	while (*at < d->end_line && *at < f->nr_lines) {
		const char *s = ev_skip_blank(f->line[(*at)++]);

		if (*s)
			return s;
	}
	return NULL;
}

/* Whether two functions' blocks say the same, blank lines and indent aside. */
static bool same_block(const struct evidence *ev, const struct ev_pci_dev *x,
		       const struct ev_pci_dev *y)
{
	unsigned int ax = x->ref.line - 1, ay = y->ref.line - 1;

	for (;;) {
		const char *lx = block_line(ev, x, &ax), *ly = block_line(ev, y, &ay);

		if (!lx || !ly)
			return lx == ly;
		if (strcmp(lx, ly))
			return false;
	}
}

/*
 * Function @d, unless it was read before: the same lspci output pasted
 * twice gives each function twice, and counting it twice would change
 * what is judged (a port named once per copy).  A second block that says
 * something else is another machine's, or another moment's: refused.
 */
static int add_dev(struct evidence *ev, const struct ev_pci_dev *d,
		   char *err, size_t errlen)
{
	const struct ev_pci_dev *o = seen_before(ev, d);
	struct ev_pci_dev *n;

	if (o && same_block(ev, o, d))
		return 0;
	if (o) {
		snprintf(err, errlen,
			 "--evidence: %s line %u: function %04x:%02x:%02x.%u again, and not as at %s line %u: two machines' or two moments' lspci in one paste? Give them one at a time",
			 ev_file_name(ev, d->ref.file), d->ref.line, d->domain, d->bus,
			 d->dev, d->fn, ev_file_name(ev, o->ref.file), o->ref.line);
		return -1;
	}
	if (ev->nr_pci >= EV_DEV_MAX)
		return -1;
	n = realloc(ev->pci, (ev->nr_pci + 1) * sizeof(*n));
	if (!n)
		return -1;
	ev->pci = n;
	ev->pci[ev->nr_pci++] = *d;
	return 0;
}

/* A hex line of -x dumps: "00: 86 80 ..." ("100: ..." from -xxxx). */
static bool hex_line(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	if ((n != 2 && n != 3) || s[n] != ':' || s[n + 1] != ' ')
		return false;
	return isxdigit((unsigned char)s[n + 2]) && isxdigit((unsigned char)s[n + 3]);
}

static int read_verbose(struct evidence *ev, unsigned int fi, char *err,
			size_t errlen)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_pci_dev cur;
	bool open = false, verbose = false;
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *raw = f->line[i], *s = ev_skip_blank(raw), *rest;
		struct ev_pci_dev d;

		if (function_header(s, &d, &rest)) {
			cur.whole = true;	/* the next function's header ends it */
			cur.end_line = i;
			if (open && verbose && add_dev(ev, &cur, err, errlen))
				return -1;
			cur = d;
			cur.ref.file = fi;
			cur.ref.line = i + 1;
			snprintf(cur.name, sizeof(cur.name), "%s", rest);
			header_ids(&cur, rest);
			cur.bridge = strstr(rest, "PCI bridge") || strstr(rest, "CardBus bridge");
			cur.gpu = strstr(rest, "VGA compatible controller") ||
				  strstr(rest, "3D controller") ||
				  strstr(rest, "[0300]") || strstr(rest, "[0302]");
			cur.nvidia = strstr(rest, "NVIDIA") || strstr(rest, "[10de:");
			open = true;
			verbose = false;
			continue;
		}
		if (!open && ev_starts(s, "ACSCtl:")) {
			ev->nr_acs_lines++;
			if (acs_bits(s) & P2PD_ACS_REDIRECT_MASK) {
				if (!ev->nr_acs_redirect++) {
					ev->acs_redirect_ref.file = fi;
					ev->acs_redirect_ref.line = i + 1;
				}
			}
			f->formats |= EV_FMT_LSPCI_VERBOSE;
			continue;
		}
		if (!open && (ev_starts(s, "LnkCap:") || ev_starts(s, "LnkSta:"))) {
			/* link lines grepped out of -vvv: a device of unknown address */
			memset(&cur, 0, sizeof(cur));
			cur.anonymous = true;
			cur.iommu_group = -1;
			cur.numa_node = -1;
			cur.ref.file = fi;
			cur.ref.line = i + 1;
			open = true;
		}
		if (!open || !*s)
			continue;
		if (hex_line(s))
			continue;
		if (ev_starts(s, "Control:") || ev_starts(s, "Status:") ||
		    ev_starts(s, "Capabilities:") || ev_starts(s, "LnkSta:") ||
		    ev_starts(s, "Bus: primary=") || ev_starts(s, "Kernel driver in use:") ||
		    ev_starts(s, "Subsystem:") || ev_starts(s, "ACSCtl:"))
			verbose = true;
		detail_line(&cur, s, fi, i + 1);
	}
	cur.end_line = f->nr_lines;
	if (open && verbose && add_dev(ev, &cur, err, errlen))
		return -1;
	for (i = 0; i < ev->nr_pci; i++)
		if (ev->pci[i].ref.file == fi)
			f->formats |= EV_FMT_LSPCI_VERBOSE;
	return 0;
}

static void read_tree(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	unsigned int i;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = ev_skip_blank(f->line[i]);

		if ((ev_starts(s, "-[") || ev_starts(s, "-+-[") || ev_starts(s, "\\-[") ||
		     ev_starts(s, "+-[")) && strstr(s, "]-")) {
			f->formats |= EV_FMT_LSPCI_TREE;
			if (!ev->lspci_tree) {
				ev->lspci_tree = true;
				ev->lspci_tree_ref.file = fi;
				ev->lspci_tree_ref.line = i + 1;
			}
			return;
		}
	}
}

int read_lspci(struct evidence *ev, unsigned int fi, char *err, size_t errlen)
{
	if (read_verbose(ev, fi, err, errlen))
		return -1;
	read_tree(ev, fi);
	return 0;
}

/*
 * An `lspci -xxxx` dump in file @fi, read by libpci into ev->dump (the
 * tool's --pci-dump path).  A dump libpci refuses is that file's reason
 * for not being read (shown only where no other reader found a format in
 * it), never the run's end.
 */
void read_lspci_dump(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	unsigned int i, hex = 0, first = 0;
	char path[64], perr[512];
	FILE *out;
	int fd, rc;

	/* the functions' headers and their hex lines, nothing else */
	for (i = 0; i < f->nr_lines; i++)
		if (hex_line(ev_skip_blank(f->line[i])) && ++hex == 1)
			first = i;
	if (hex < 4 || ev->have_dump)
		return;
	fd = memfd_create("p2pdiag-evidence-dump", 0);
	if (fd < 0)
		return;
	out = fdopen(dup(fd), "w");
	if (!out) {
		close(fd);
		return;
	}
	for (i = 0; i < f->nr_lines; i++) {
		const char *s = ev_skip_blank(f->line[i]);
		struct ev_pci_dev d;
		const char *rest;

		if (hex_line(s) || function_header(s, &d, &rest))
			fprintf(out, "%s\n", s);
		else if (!*s)
			fputc('\n', out);
	}
	rc = fclose(out);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!rc)
		rc = pci_source_read(path, &ev->dump, perr, sizeof(perr));
	close(fd);
	if (rc) {
		snprintf(f->why, sizeof(f->why), "an lspci -xxxx dump that cannot be read: %.150s",
			 strstr(perr, path) ? "its hex lines are malformed" : perr);
		return;
	}
	ev->have_dump = true;
	ev->dump_ref.file = fi;
	ev->dump_ref.line = first + 1;
	f->formats |= EV_FMT_LSPCI_HEX;
}
