# SPDX-License-Identifier: GPL-2.0
#
# known-kernel-reports.awk: a kernel log (dmesg, or a console log with
# CRs) as the lab's report checks should read it: the kernel's own known
# false reports are left out, each replaced by one line
#   lab: known kernel report left out: <what> (<where it is discussed>)
# and every other line passes through unchanged.  Used by tests/lab/boot
# (console), the guest's /init and stress.sh (dmesg), and the debug lane
# (tests/debug/run, guest-hook) before they grep for WARN/BUG/lockdep/...
# lines, so that one definition says what is known.  busybox awk runs it.
#
# Known, and only in exactly this shape:
#
#  - pciehp's reset_lock against pci_rescan_remove_lock.  pciehp_ist()
#    holds ctrl->reset_lock (read) and pciehp_configure_device() (or
#    pciehp_unconfigure_device()) takes pci_rescan_remove_lock, then drops
#    and retakes reset_lock around driver binding (since "PCI: pciehp: Fix
#    AB-BA deadlock between reset_lock and device_lock", f5eff5591b8f,
#    v6.4, in the stable kernels).  Lockdep sees both orders, in the one
#    IRQ thread of one port, which never runs twice at once; the pciehp
#    maintainer calls it a false positive, and no fix is upstream
#    (lore.kernel.org/all/20231015093722.GA11283@wunner.de/, again
#    ZzJm6QrQyT48jGuN@wunner.de for 6.12-rc6 and aFQ4ncPNdmUgyw63@wunner.de
#    in June 2025).  Every lockdep kernel prints it at the first native
#    hot add or remove.  Recognised only when the task is an irq/N-pciehp
#    thread, the two locks are those two, the chain has just the two
#    links, every reliable frame is pciehp's, the IRQ thread's or
#    lockdep's own, no frame names a module, and no foreign line sits
#    inside the report.
#  - lockdep's boot banner "rcu: <TAB>RCU lockdep checking is enabled."
#    (the lab's patterns have a bare "lockdep"), which is no report at all.

function text(line) {		# the line without CR and timestamp
	sub(/\r$/, "", line)
	sub(/^\[ *[0-9]+\.[0-9]+\] ?/, "", line)
	return line
}

function frame_ok(line, fn) {	# a stack frame of pciehp's report
	if (line ~ /p2pd|\[[A-Za-z0-9_]+\]$/)
		return 0	# any frame of a module, reliable or not
	if (line ~ /^ *\? /)
		return 1	# unreliable frames: whatever was on the stack
	fn = line
	sub(/^ +/, "", fn)
	sub(/\+0x[0-9a-f]+\/0x[0-9a-f]+$/, "", fn)
	return fn ~ /^(pciehp_[a-z_]+|irq_thread|irq_thread_fn|kthread|ret_from_fork|ret_from_fork_asm|__mutex_lock|mutex_lock_nested|pci_lock_rescan_remove|down_read_nested|lock_acquire|__lock_acquire|check_noncircular|print_circular_bug|dump_stack_lvl)$/
}

# The known pciehp report starting at its WARNING line i: the index of its
# last line ("</TASK>"), or 0 when lines i.. are anything else.
function pciehp_report(i,	j, t, acquire, held, links, threads, ended) {
	for (j = i + 1; j <= n && j < i + 200; j++) {
		t = txt[j]
		if (t ~ /^irq\/[0-9]+-pciehp\/[0-9]+ is trying to acquire lock:$/) {
			threads++
			if (txt[j + 1] !~ /^[0-9a-f]+ \(&ctrl->reset_lock\)\{[^}]*\}-\{[0-9:]+\}, at: pciehp_(un)?configure_device\+0x[0-9a-f]+\/0x[0-9a-f]+$/)
				return 0
			acquire = 1
			j++
		} else if (t == "but task is already holding lock:") {
			if (txt[j + 1] !~ /^[0-9a-f]+ \(pci_rescan_remove_lock\)\{[^}]*\}-\{[0-9:]+\}, at: (pciehp_(un)?configure_device|pci_lock_rescan_remove)\+0x[0-9a-f]+\/0x[0-9a-f]+$/)
				return 0
			held = 1
			j++
		} else if (t ~ /^-> #1 \(pci_rescan_remove_lock\)\{[^}]*\}-\{[0-9:]+\}:$/ ||
			   t ~ /^-> #0 \(&ctrl->reset_lock\)\{[^}]*\}-\{[0-9:]+\}:$/) {
			links++
		} else if (t ~ /^1 lock held by irq\/[0-9]+-pciehp\/[0-9]+:$/) {
			threads++
			if (txt[j + 1] !~ /^ #0: [0-9a-f]+ \(pci_rescan_remove_lock\)\{[^}]*\}-\{[0-9:]+\}, at: (pciehp_(un)?configure_device|pci_lock_rescan_remove)\+0x[0-9a-f]+\/0x[0-9a-f]+$/)
				return 0
			j++
		} else if (t ~ /^ *(\? )?[A-Za-z0-9_.]+\+0x[0-9a-f]+\/0x[0-9a-f]+( \[[A-Za-z0-9_]+\])?$/) {
			if (!frame_ok(t))
				return 0
		} else if (t == " </TASK>") {
			ended = j
			break
		} else if (t != "" &&
			   t !~ /^-+$/ &&
			   t !~ /^[0-9]+\.[0-9]+\.[0-9]+[^ ]* #[0-9]+ (Not tainted|Tainted: [A-Z ]*) *$/ &&
			   t != "which lock already depends on the new lock." &&
			   t != "the existing dependency chain (in reverse order) is:" &&
			   t != "other info that might help us debug this:" &&
			   t != " Possible unsafe locking scenario:" &&
			   t !~ /^ +CPU0 +CPU1$/ &&
			   t !~ /^ +---- +----$/ &&
			   t !~ /^ +r?lock\((pci_rescan_remove_lock|&ctrl->reset_lock)\);$/ &&
			   t != " *** DEADLOCK ***" &&
			   t != "stack backtrace:" &&
			   t !~ /^CPU: [0-9]+ UID: [0-9]+ PID: [0-9]+ Comm: irq\/[0-9]+-pciehp (Not tainted|Tainted: [A-Z ]*) / &&
			   t !~ /^Tainted: (\[[A-Z]\]=[A-Z_]+ ?)+$/ &&
			   t !~ /^Hardware name: / &&
			   t != "Call Trace:" &&
			   t != " <TASK>") {
			return 0	# a line this report does not have
		}
	}
	return (ended && acquire && held && links == 2 && threads == 2) ? ended : 0
}

{
	n++
	raw[n] = $0
	txt[n] = text($0)
}

END {
	for (i = 1; i <= n; i++) {
		if (txt[i] == "WARNING: possible circular locking dependency detected" &&
		    (end = pciehp_report(i)) > 0) {
			# the rule above the header, and the empty line above that
			if (i > 1 && txt[i - 1] ~ /^=+$/)
				drop[i - 1] = 1
			if (i > 2 && drop[i - 1] && txt[i - 2] == "")
				drop[i - 2] = 1
			for (j = i; j <= end; j++)
				drop[j] = 1
			note[i] = "lab: known kernel report left out: pciehp reset_lock against pci_rescan_remove_lock, a false positive of the kernel's lock validator, which is off for the rest of the boot (lore.kernel.org/all/20231015093722.GA11283@wunner.de/)"
			i = end
		} else if (txt[i] ~ /^(rcu:[ \t]+)?RCU lockdep checking is enabled\.$/) {
			drop[i] = 1
		}
	}
	for (i = 1; i <= n; i++) {
		if (i in note)
			print note[i]
		if (!(i in drop))
			print raw[i]
	}
}
