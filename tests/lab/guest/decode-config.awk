# SPDX-License-Identifier: GPL-2.0
#
# Independent decoding of one PCI function's config space, in the guest.
# Input: `od -A n -t x1 -v /sys/bus/pci/devices/<addr>/config` (one hex
# byte per field).  Output: "key=value" lines named like the p2pdiag ABI
# files (role, vendor, device, class, acs_cap, acs_ctrl, ats, pri, pasid,
# link_*), so
# the lab can hold the module's values against these without sharing a
# line of code with it.  Only PCI spec offsets are used here.  -v vf=1 for
# an SR-IOV virtual function: no vendor or device line then.

function b(off) { return (off < n) ? cfg[off] : 0 }
function w(off) { return b(off) + 256 * b(off + 1) }
function dw(off) { return w(off) + 65536 * w(off + 2) }
# busybox awk has no "^": powers of two come from a table.
BEGIN { pow2[0] = 1; for (i = 1; i <= 32; i++) pow2[i] = pow2[i - 1] * 2 }
function bits(v, lo, len) { return int(v / pow2[lo]) % pow2[len] }
function speed(code) {
	return code == 1 ? "2.5" : code == 2 ? "5.0" : code == 3 ? "8.0" : \
	       code == 4 ? "16.0" : code == 5 ? "32.0" : code == 6 ? "64.0" : "unknown"
}

# Offset of a standard capability, 0 when absent (the list is bounded).
function find_cap(id,	p, guard) {
	if (!bits(w(0x06), 4, 1))
		return 0
	for (p = b(0x34); p >= 0x40 && guard < 48; guard++) {
		p -= p % 4
		if (b(p) == id)
			return p
		p = b(p + 1)
	}
	return 0
}

# Offset of an extended capability, 0 when absent or not readable.
function find_ext_cap(id,	p, hdr, guard) {
	for (p = 0x100; p >= 0x100 && p + 4 <= n && guard < 512; guard++) {
		hdr = dw(p)
		if (hdr == 0 || hdr == 4294967295)
			return 0
		if (hdr % 65536 == id)
			return p
		p = bits(hdr, 20, 12)
		p -= p % 4
	}
	return 0
}

function hex4(v) { return sprintf("0x%04x", v) }

# Hex without relying on the awk's string-to-number rules.
function hexval(s) {
	return (index("0123456789abcdef", substr(s, 1, 1)) - 1) * 16 + \
	       index("0123456789abcdef", substr(s, 2, 1)) - 1
}

{
	for (i = 1; i <= NF; i++)
		cfg[n++] = hexval($i)
}

END {
	# A virtual function reads 0xffff as Vendor and Device ID by spec
	# (SR-IOV 1.1, 3.4.1.1): the caller says it is one (-v vf=1) and
	# takes both IDs from the PF's side.
	if (n < 64 || (w(0) == 65535 && !vf)) {
		print "cfg_error=1"
		exit
	}
	if (!vf) {
		printf "vendor=0x%04x\n", w(0)
		printf "device=0x%04x\n", w(2)
	}
	printf "class=0x%06x\n", b(0x09) + 256 * w(0x0a)

	pcie = find_cap(0x10)
	split("endpoint legacy_endpoint - - root_port upstream_port downstream_port " \
	      "pcie_to_pci_bridge pci_to_pcie_bridge rc_endpoint rc_event_collector", \
	      names, " ")
	if (pcie) {
		role = names[bits(w(pcie + 2), 4, 4) + 1]
		if (role == "" || role == "-")
			role = "unknown"
	} else {
		layout = b(0x0e) % 128
		role = layout == 0 ? "pci_device" : layout == 2 ? "cardbus_bridge" : "pci_bridge"
	}
	print "role=" role

	# Root-complex integrated functions have no link registers.
	if (pcie && role != "rc_endpoint" && role != "rc_event_collector") {
		cap = dw(pcie + 0x0c)
		sta = w(pcie + 0x12)
		print "link_speed=" speed(bits(sta, 0, 4))
		print "link_width=" bits(sta, 4, 6)
		print "link_max_speed=" speed(bits(cap, 0, 4))
		print "link_max_width=" bits(cap, 4, 6)
	} else {
		print "link_speed=none"
		print "link_width=none"
		print "link_max_speed=none"
		print "link_max_width=none"
	}

	acs = (n > 0x100) ? find_ext_cap(0x000d) : 0
	print "acs_cap=" (acs ? hex4(w(acs + 4)) : "none")
	print "acs_ctrl=" (acs ? hex4(w(acs + 6)) : "none")
	print "acs_offset=" acs

	ats = (n > 0x100) ? find_ext_cap(0x000f) : 0
	if (!ats)
		print "ats=none"
	else if (bits(w(ats + 6), 15, 1))
		print "ats=enabled stu=" bits(w(ats + 6), 0, 5)
	else
		print "ats=disabled"

	# Page Request Control at +4: bit 0 Enable
	pri = (n > 0x100) ? find_ext_cap(0x0013) : 0
	if (!pri)
		print "pri=none"
	else
		print "pri=" (bits(w(pri + 4), 0, 1) ? "enabled" : "disabled")

	# PASID Capability at +4 (Max PASID Width, bits 12:8), Control at +6
	pasid = (n > 0x100) ? find_ext_cap(0x001b) : 0
	if (!pasid)
		print "pasid=none"
	else
		print "pasid=" (bits(w(pasid + 6), 0, 1) ? "enabled" : "disabled") \
		      " width=" bits(w(pasid + 4), 8, 5)
}
