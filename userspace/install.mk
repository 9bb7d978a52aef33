# SPDX-License-Identifier: GPL-2.0
# What `make install` puts where, included by userspace/Makefile (which
# defines PROG, VERSION and BUILD).  PREFIX and DESTDIR as usual:
#
#   make install PREFIX=/usr DESTDIR=/tmp/root
#   make uninstall PREFIX=/usr DESTDIR=/tmp/root    removes exactly those files
#
# The man pages, the unit, its helper, the Slurm health check and the NHC
# check get the version and the install
# paths substituted in $(BUILD)/installed/; p2pdiag(4)'s FILES section is
# generated from include/uapi/p2pdiag/ABI.txt.

BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/p2pdiag
DATADIR ?= $(PREFIX)/share/p2pdiag
DOCDIR ?= $(PREFIX)/share/doc/p2pdiag
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# systemd reads /usr/lib/systemd/system and /usr/local/lib/systemd/system.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system

ABI_TXT := ../include/uapi/p2pdiag/ABI.txt
INSTALLED := $(BUILD)/installed
SUBST = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@BINDIR@|$(BINDIR)|g' \
	-e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@DATADIR@|$(DATADIR)|g'

# Every file and the directory it goes to: install and uninstall read
# this one list.
INSTALL_FILES := \
	$(PROG):$(BINDIR):0755 \
	$(INSTALLED)/p2pdiag-check-service:$(LIBEXECDIR):0755 \
	$(INSTALLED)/p2pdiag-healthcheck:$(LIBEXECDIR):0755 \
	$(INSTALLED)/p2pdiag-check.8:$(MANDIR)/man8:0644 \
	$(INSTALLED)/p2pdiag.4:$(MANDIR)/man4:0644 \
	completion/p2pdiag-check:$(BASHCOMPDIR):0644 \
	$(INSTALLED)/p2pdiag-check.service:$(SYSTEMDUNITDIR):0644 \
	systemd/p2pdiag-check.timer:$(SYSTEMDUNITDIR):0644 \
	schema.json:$(DATADIR):0644 \
	kubernetes/p2pdiag-namespace.yaml:$(DATADIR)/kubernetes:0644 \
	kubernetes/p2pdiag-check-pci.yaml:$(DATADIR)/kubernetes:0644 \
	kubernetes/p2pdiag-check-module.yaml:$(DATADIR)/kubernetes:0644 \
	prometheus/p2pdiag.rules.yml:$(DATADIR)/prometheus:0644 \
	prometheus/p2pdiag-dashboard.json:$(DATADIR)/prometheus:0644 \
	$(INSTALLED)/p2pdiag.nhc:$(DATADIR)/nhc:0644 \
	README.md:$(DOCDIR):0644 \
	SCHEMA.md:$(DOCDIR):0644

# The files that get substituted or generated.  `make` builds them too, so
# that `sudo make install` only copies (no root-owned files in $(BUILD)).
all: installed-files
installed-files: $(INSTALLED)/p2pdiag-check.8 $(INSTALLED)/p2pdiag.4 \
	$(INSTALLED)/p2pdiag-check.service $(INSTALLED)/p2pdiag-check-service \
	$(INSTALLED)/p2pdiag-healthcheck $(INSTALLED)/p2pdiag.nhc

$(INSTALLED):
	mkdir -p $@

# What the substitution puts in: rewritten only when it changes, so the
# files below are rebuilt for another PREFIX and not otherwise.
$(INSTALLED)/substituted: FORCE | $(INSTALLED)
	@echo '$(VERSION) $(BINDIR) $(LIBEXECDIR) $(DATADIR)' > $@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@
FORCE:

$(INSTALLED)/p2pdiag.4: man/p2pdiag.4.in $(ABI_TXT) man/abi2man $(INSTALLED)/substituted | $(INSTALLED)
	man/abi2man man/p2pdiag.4.in $(ABI_TXT) | $(SUBST) > $@.tmp && mv -f $@.tmp $@

$(INSTALLED)/p2pdiag-check.8: man/p2pdiag-check.8 $(INSTALLED)/substituted | $(INSTALLED)
	$(SUBST) $< > $@

$(INSTALLED)/p2pdiag-check.service: systemd/p2pdiag-check.service $(INSTALLED)/substituted | $(INSTALLED)
	$(SUBST) $< > $@

$(INSTALLED)/p2pdiag-check-service: systemd/p2pdiag-check-service $(INSTALLED)/substituted | $(INSTALLED)
	$(SUBST) $< > $@ && chmod 0755 $@

$(INSTALLED)/p2pdiag-healthcheck: slurm/p2pdiag-healthcheck $(INSTALLED)/substituted | $(INSTALLED)
	$(SUBST) $< > $@ && chmod 0755 $@

$(INSTALLED)/p2pdiag.nhc: slurm/p2pdiag.nhc $(INSTALLED)/substituted | $(INSTALLED)
	$(SUBST) $< > $@

install: $(PROG) installed-files
	@set -e; for f in $(INSTALL_FILES); do \
		src=$${f%%:*}; rest=$${f#*:}; dir=$${rest%%:*}; mode=$${rest#*:}; \
		install -d "$(DESTDIR)$$dir"; \
		echo "install $$src -> $(DESTDIR)$$dir/$${src##*/}"; \
		install -m $$mode "$$src" "$(DESTDIR)$$dir/$${src##*/}"; \
	done

# Removes the files, then the directories that only p2pdiag used.
uninstall:
	@for f in $(INSTALL_FILES); do \
		src=$${f%%:*}; rest=$${f#*:}; dir=$${rest%%:*}; \
		rm -f "$(DESTDIR)$$dir/$${src##*/}"; \
	done
	@rmdir "$(DESTDIR)$(LIBEXECDIR)" "$(DESTDIR)$(DATADIR)/kubernetes" \
		"$(DESTDIR)$(DATADIR)/prometheus" "$(DESTDIR)$(DATADIR)/nhc" \
		"$(DESTDIR)$(DATADIR)" \
		"$(DESTDIR)$(DOCDIR)" 2>/dev/null || true

.PHONY: install uninstall installed-files FORCE
