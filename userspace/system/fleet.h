/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context a fleet diff needs: firmware (DMI BIOS vendor, version and
 * date), the NVIDIA driver version, and which slot (/sys/bus/pci/slots)
 * holds which device; with the kernel's release and command line and the
 * ACS of every port (devices[]) it goes into the JSON report, and so into
 * the baseline, where a later check says what changed.
 */
#ifndef P2PDIAG_SYSTEM_FLEET_H
#define P2PDIAG_SYSTEM_FLEET_H

#define FLEET_TEXT	128
#define FLEET_MAX_SLOTS	64

struct fleet_slot {
	char name[32];			/* the slot's directory name: "3", "CPU1 SLOT2" */
	char addr[16];			/* what its address file says: "0000:1b:00" */
};

struct fleet_facts {
	char bios_vendor[FLEET_TEXT], bios_version[FLEET_TEXT], bios_date[FLEET_TEXT];
	char board[FLEET_TEXT];		/* board_vendor board_name */
	char nvidia_driver[64];		/* /sys/module/nvidia/version */
	struct fleet_slot slot[FLEET_MAX_SLOTS];
	unsigned int nr_slots;
};

struct fsroot;
struct fsroot_refusal;

/* The fleet context of the machine whose files @root holds. */
void fleet_facts_read(struct fleet_facts *f, const struct fsroot *root,
		      struct fsroot_refusal *refused);

#endif /* P2PDIAG_SYSTEM_FLEET_H */
