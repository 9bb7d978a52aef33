# SPDX-License-Identifier: GPL-2.0
# Sourced by the setup tests.
# private_apt <root> <etc dir>: write <root>/apt.conf, an apt configuration
# that reads its sources from <etc dir> and keeps its lists, cache, status
# and log under <root>, so a test asks the real apt without touching this
# machine's apt state.  Use it as APT_CONFIG=<root>/apt.conf.
private_apt() {
	local root=$1 etc=$2
	mkdir -p "$root"/state/lists/partial "$root"/cache/archives/partial \
		"$root"/log "$etc"/apt.conf.d "$etc"/sources.list.d "$etc"/preferences.d
	: > "$root/status"
	cat > "$root/apt.conf" <<-CONF
	Dir::State "$root/state";
	Dir::State::status "$root/status";
	Dir::Cache "$root/cache";
	Dir::Log "$root/log";
	Dir::Etc "$etc";
	Dir::Etc::sourcelist "sources.list";
	Dir::Etc::sourceparts "sources.list.d";
	Dir::Etc::parts "apt.conf.d";
	Dir::Etc::preferences "preferences";
	Dir::Etc::preferencesparts "preferences.d";
	APT::Architecture "amd64";
	APT::Architectures { "amd64"; };
	Acquire::Languages "none";
	Acquire::Check-Valid-Until "false";
	Debug::NoLocking "true";
	CONF
}

# ktap_report <ok|"not ok"> <name> [diagnostics file]: one KTAP line; the
# caller's passed, failed and n count it.
ktap_report() {
	n=$((n + 1))
	if [ "$1" = ok ]; then
		passed=$((passed + 1)); echo "ok $n $2"
	else
		failed=$((failed + 1)); echo "not ok $n $2"
		[ -z "${3:-}" ] || sed 's/^/# /' "$3"
	fi
}
