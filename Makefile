# SPDX-License-Identifier: GPL-2.0
# Thin wrapper: the module is built by Kbuild, the tool by userspace/Makefile,
# the tests by tests/.  Everything else lives in those places.

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
PREFIX ?= /usr/local
DESTDIR ?=

all: module-if-headers userspace

# The running kernel may have no headers (a container, a kernel without
# module support): then only the tool is built, and we say so.
module-if-headers:
	@if [ -d "$(KDIR)" ]; then $(MAKE) modules; \
	else echo "p2pdiag: no kernel headers at $(KDIR); building the tool only (libpci mode)"; fi

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# What DKMS runs between builds: the module only, no tool or tests needed.
modules-clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

userspace:
	$(MAKE) -C userspace

# The tool, its man pages, completion and systemd units (userspace/install.mk);
# the module goes in through DKMS (dkms-install) or a package (deb).
install: userspace
	$(MAKE) -C userspace install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

uninstall:
	$(MAKE) -C userspace uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

clean:
	-[ -d "$(KDIR)" ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C tests clean

# The test lab's packages first (.ci/deps: QEMU, Slurm, Prometheus, ...;
# root, through sudo for a user), which .ci/quickstart leaves out.
test:
	.ci/as-root bash .ci/deps
	$(MAKE) -C tests run

test-unit:
	$(MAKE) -C tests unit

test-vm:
	$(MAKE) -C tests vm TOPO=$(TOPO) KERNEL=$(KERNEL)

# The debug-kernel lane (tests/debug/README.md); slow, so not in `test`.
test-debug:
	$(MAKE) -C tests debug

# The stress topologies at full counts (tests/lab/README.md); make test
# runs them at reduced counts.
test-stress:
	$(MAKE) -C tests stress

# Module checks; the logic lives in kmod/scripts/.
# check: W=1 + sparse against CHECK_RELEASES (default: every installed tree).
check:
	kmod/scripts/check $(CHECK_RELEASES)

style:
	kmod/scripts/style

compat-check:
	kmod/scripts/compat-check

dkms-install:
	kmod/scripts/dkms-install $(KERNELRELEASE)

dkms-remove:
	kmod/scripts/dkms-remove

# p2pdiag-dkms and p2pdiag-check .debs in build/deb/ (userspace/packaging/).
deb:
	userspace/packaging/build-deb $(CURDIR)/build/deb

.PHONY: all module-if-headers modules userspace install uninstall clean test test-unit test-vm
.PHONY: modules-clean check style compat-check dkms-install dkms-remove deb
.PHONY: test-debug test-stress
