// SPDX-License-Identifier: GPL-2.0
/*
 * topo_parse(): what it accepts, what it refuses and what it says.  Every
 * input is passed in a buffer of exactly its length (no NUL after it), so
 * the sanitizer build catches any read past the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"
#include "ktap.h"
#include "model_util.h"
#include "topology/topology_parse.h"

static struct ktap k;

#define HDR1 "# p2pdiag abi=1 generation=5 functions=1\n"
#define HDR2 "# p2pdiag abi=1 generation=5 functions=2\n"

/*
 * A root port and a GPU below it, all fields valid; the root port's line
 * is an older module's, without pri= and pasid=.
 */
#define RP "addr=0000:00:01.0 role=root_port parent=none host_bridge=0000:00 " \
	"numa_node=0 vendor=0x8086 device=0x2030 class=0x060400 " \
	"acs_cap=0x005f acs_ctrl=0x001d acs=SrcValid+\\x20TransBlk-\\x20" \
	"ReqRedir+\\x20CmpltRedir+\\x20UpstreamFwd+\\x20EgressCtrl-\\x20" \
	"DirectTrans- ats=none link_speed=16.0 link_width=16 " \
	"link_max_speed=16.0 link_max_width=16 iommu_group=3 " \
	"iommu_domain=translated p2p_endpoint=0"
#define GPU_HEAD "addr=0000:01:00.0 role=endpoint parent=0000:00:01.0 "
#define GPU_TAIL "host_bridge=0000:00 numa_node=-1 vendor=0x10de " \
	"device=0x2330 class=0x030200 acs_cap=none acs_ctrl=none acs=none " \
	"ats=enabled\\x20stu=5 pri=enabled pasid=disabled\\x20width=20 " \
	"link_speed=2.5 link_width=16 " \
	"link_max_speed=32.0 link_max_width=16 iommu_group=none " \
	"iommu_domain=identity p2p_endpoint=1"
#define GPU GPU_HEAD GPU_TAIL

/* Parse @text (copied to an unterminated buffer); 0 on success. */
static int parse(const char *text, struct p2pd_model *m, char *err,
		 size_t errlen)
{
	size_t n = strlen(text);
	char *buf = malloc(n ? n : 1);
	int r;

	if (!buf)
		abort();
	memcpy(buf, text, n);
	r = topo_parse(buf, n, m, err, errlen);
	free(buf);
	return r;
}

static void accepts(const char *name, const char *text)
{
	struct p2pd_model m;
	char err[256] = "";
	int r = parse(text, &m, err, sizeof(err));

	ktap_result(&k, r == 0, err, "accepts %s", name);
	if (!r)
		p2pd_model_free(&m);
}

/* Refused, with @needle in the message (and the model left empty). */
static void refuses(const char *name, const char *text, const char *needle)
{
	struct p2pd_model m = { 0 };
	char err[256] = "", why[512];
	int r = parse(text, &m, err, sizeof(err));

	snprintf(why, sizeof(why), "rc %d, message \"%s\", wanted \"%s\"", r,
		 err, needle);
	ktap_result(&k, r == -1 && strstr(err, needle) && !m.fn && !m.nr_fn,
		    why, "refuses %s", name);
	if (!r)
		p2pd_model_free(&m);
}

static void values(void)
{
	struct p2pd_model m;
	struct topo_header h;
	char err[256] = "";
	const char *t = "# p2pdiag abi=1 generation=42 functions=2 cpu=amd_zen\n"
			GPU "\n" RP "\n";
	const struct p2pd_function *rp, *gpu;
	int ok;

	if (topo_parse_ex(t, strlen(t), &m, &h, err, sizeof(err))) {
		ktap_result(&k, 0, err, "decodes every field");
		return;
	}
	rp = &m.fn[0];
	gpu = &m.fn[1];
	ok = m.nr_fn == 2 && m.generation == 42 &&
	     m.cpu_flags == (P2PD_CPU_AMD | P2PD_CPU_ROUTES_P2P) &&
	     h.cpu_known && h.abi == 1 && h.functions == 2 &&
	     rp->addr == P2PD_ADDR(0, 0, 1, 0) && !rp->has_parent &&
	     rp->role == P2PD_ROLE_ROOT_PORT && rp->acs == P2PD_PRESENT &&
	     rp->acs_cap == 0x5f && rp->acs_ctrl == 0x1d &&
	     rp->iommu_group == 3 && rp->iommu_domain == P2PD_IOMMU_TRANSLATED &&
	     rp->ats == P2PD_ABSENT && p2pd_is_pcie(rp) &&
	     !p2pd_config_unread(rp) &&
	     gpu->addr == P2PD_ADDR(0, 1, 0, 0) && gpu->has_parent &&
	     gpu->parent == rp->addr && gpu->host_bridge == 0 &&
	     gpu->numa_node == -1 && gpu->vendor == 0x10de &&
	     gpu->device == 0x2330 && gpu->class_code == 0x030200 &&
	     gpu->acs == P2PD_ABSENT && gpu->ats == P2PD_PRESENT &&
	     gpu->ats_enabled && gpu->ats_stu == 5 &&
	     gpu->pri == P2PD_PRESENT && gpu->pri_enabled &&
	     gpu->pasid == P2PD_PRESENT && !gpu->pasid_enabled &&
	     gpu->pasid_width == 20 &&
	     rp->pri == P2PD_UNKNOWN && rp->pasid == P2PD_UNKNOWN &&
	     gpu->link.state == P2PD_PRESENT && gpu->link.speed == 25 &&
	     gpu->link.width == 16 && gpu->link.max_speed == 320 &&
	     gpu->link.max_width == 16 && gpu->iommu_group == -1 &&
	     gpu->iommu_domain == P2PD_IOMMU_IDENTITY && gpu->p2p_endpoint;
	ktap_result(&k, ok, "a value was decoded wrongly",
		    "decodes every field (and sorts by address)");
	p2pd_model_free(&m);

	t = HDR1 "addr=0000:00:00.0 role=pci_device parent=none "
	    "host_bridge=0000:00 numa_node=0 vendor=0x8086 device=0x29c0 "
	    "class=0x060000 acs_cap=unknown acs_ctrl=unknown acs=unknown "
	    "ats=unknown link_speed=unknown link_width=unknown "
	    "link_max_speed=unknown link_max_width=unknown iommu_group=none "
	    "iommu_domain=unknown p2p_endpoint=0\n";
	if (topo_parse_ex(t, strlen(t), &m, &h, err, sizeof(err))) {
		ktap_result(&k, 0, err, "maps unknown and none words");
		return;
	}
	ok = m.fn[0].acs == P2PD_UNKNOWN && m.fn[0].ats == P2PD_UNKNOWN &&
	     m.fn[0].link.state == P2PD_UNKNOWN && p2pd_config_unread(&m.fn[0]) &&
	     /* pci_device with link registers: a reserved port type */
	     p2pd_is_pcie(&m.fn[0]) &&
	     m.fn[0].iommu_domain == P2PD_IOMMU_UNKNOWN &&
	     !h.cpu_known && m.cpu_flags == 0;
	ktap_result(&k, ok, "state words decoded wrongly",
		    "maps unknown to P2PD_UNKNOWN, no cpu= to cpu_flags 0");
	p2pd_model_free(&m);
}

/* One line with the fields that matter here; the rest fixed and valid. */
#define SW_FN(addr, role, parent, cls, cap, ctrl, words, ep) \
	"addr=" addr " role=" role " parent=" parent " host_bridge=0000:00 " \
	"numa_node=0 vendor=0x10b5 device=0x9797 class=" cls " acs_cap=" cap \
	" acs_ctrl=" ctrl " acs=" words " ats=none link_speed=16.0 " \
	"link_width=16 link_max_speed=16.0 link_max_width=16 iommu_group=none " \
	"iommu_domain=none p2p_endpoint=" ep "\n"
#define ACS_SV_UF "SrcValid+\\x20TransBlk-\\x20ReqRedir-\\x20CmpltRedir-\\x20" \
	"UpstreamFwd+\\x20EgressCtrl-\\x20DirectTrans-"

/*
 * A downstream port that was not read because it is powered down: its
 * files say "suspended", the parser keeps that apart from "unknown", the
 * engine writes it back, and a pair whose path crosses it is unknown (its
 * ACS may redirect), not ok.
 */
static void suspended_port(void)
{
	static const char t[] =
		"# p2pdiag abi=1 generation=3 functions=6 cpu=other\n"
		SW_FN("0000:00:01.0", "root_port", "none", "0x060400", "none",
		      "none", "none", "0")
		SW_FN("0000:01:00.0", "upstream_port", "0000:00:01.0", "0x060400",
		      "none", "none", "none", "0")
		SW_FN("0000:02:00.0", "downstream_port", "0000:01:00.0", "0x060400",
		      "0x005f", "0x0011", ACS_SV_UF, "0")
		SW_FN("0000:02:01.0", "downstream_port", "0000:01:00.0", "0x060400",
		      "suspended", "suspended", "suspended", "0")
		SW_FN("0000:03:00.0", "endpoint", "0000:02:00.0", "0x030200",
		      "none", "none", "none", "1")
		SW_FN("0000:04:00.0", "endpoint", "0000:02:01.0", "0x030200",
		      "none", "none", "none", "1");
	struct p2pd_model m;
	struct p2pd_pair pair;
	char err[256], *text;
	int ok;

	if (parse(t, &m, err, sizeof(err))) {
		ktap_result(&k, 0, err, "a suspended port parses");
		return;
	}
	ok = m.fn[3].acs == P2PD_SUSPENDED && p2pd_config_unread(&m.fn[3]) &&
	     m.fn[2].acs == P2PD_PRESENT;
	ktap_result(&k, ok, "state words decoded wrongly",
		    "maps suspended to P2PD_SUSPENDED, apart from unknown");
	text = format_topology(&m);
	ktap_result(&k, text && strstr(text, "addr=0000:02:01.0 ") &&
		    strstr(strstr(text, "addr=0000:02:01.0 "),
			   " acs_cap=suspended acs_ctrl=suspended acs=suspended "),
		    text ? text : "out of memory",
		    "the engine writes a suspended port's ACS back as suspended");
	free(text);
	ok = !p2pd_judge(&m, 4, 5, &pair) &&
	     pair.verdict == P2PD_VERDICT_UNKNOWN;
	ktap_result(&k, ok, "the pair was judged as if the port had no ACS",
		    "a pair through a suspended port is unknown, not ok");
	p2pd_model_free(&m);
}

static void too_many(void)
{
	char hdr[128];

	snprintf(hdr, sizeof(hdr), "# p2pdiag abi=1 generation=1 functions=%d\n",
		 TOPO_MAX_FUNCTIONS + 1);
	refuses("functions= above the limit", hdr, "more than");
}

static void long_line(void)
{
	size_t n = TOPO_MAX_LINE + 200;
	char *t = malloc(strlen(HDR1) + n + 2);

	if (!t)
		abort();
	strcpy(t, HDR1);
	memset(t + strlen(HDR1), 'x', n);
	t[strlen(HDR1) + n] = '\n';
	t[strlen(HDR1) + n + 1] = 0;
	refuses("a line over the bound", t, "line 2: longer than");
	free(t);
}

static void embedded_nul(void)
{
	static const char t[] = HDR1 RP "\0junk\n";
	struct p2pd_model m;
	char err[256] = "";
	int r = topo_parse(t, sizeof(t) - 1, &m, err, sizeof(err));

	ktap_result(&k, r == -1 && strstr(err, "NUL"), err,
		    "refuses a NUL byte inside a line");
	if (!r)
		p2pd_model_free(&m);
}

static void free_empty(void)
{
	struct p2pd_model m = { 0 };

	p2pd_model_free(&m);
	p2pd_model_free(NULL);
	ktap_result(&k, !m.fn && !m.nr_fn, NULL, "p2pd_model_free() of empty is safe");
}

/* A function line at @addr with @parent and @hb; the rest fixed and valid. */
#define DOM_FN(addr, role, parent, hb, cls, ep) \
	"addr=" addr " role=" role " parent=" parent " host_bridge=" hb \
	" numa_node=0 vendor=0x8086 device=0x347a class=" cls " acs_cap=none" \
	" acs_ctrl=none acs=none ats=none link_speed=16.0 link_width=4" \
	" link_max_speed=16.0 link_max_width=4 iommu_group=none" \
	" iommu_domain=none p2p_endpoint=" ep "\n"
#define VMD_RP DOM_FN("10000:e0:02.0", "root_port", "none", "10000:e0", \
		      "0x060400", "0")
#define VMD_NVME DOM_FN("10000:e1:00.0", "endpoint", "10000:e0:02.0", \
			"10000:e0", "0x010802", "1")
#define DOM0_NIC DOM_FN("0000:e1:00.0", "endpoint", "none", "0000:e1", \
			"0x020000", "1")

/*
 * Domains above ffff (Intel VMD numbers its own from 10000): read whole,
 * kept apart from domain 0's functions at the same bus/device/function,
 * and written back as lspci and sysfs write them.
 */
static void wide_domains(void)
{
	const char *t = "# p2pdiag abi=2 generation=1 functions=3\n"
			VMD_NVME DOM0_NIC VMD_RP;
	const struct p2pd_function *nic, *rp, *nvme;
	char err[256] = "", addr[P2PD_ADDR_STRLEN], hb[P2PD_HOST_BRIDGE_STRLEN];
	char widest[P2PD_ADDR_STRLEN];
	struct p2pd_model m;
	struct p2pd_buf b;
	int ok;

	if (parse(t, &m, err, sizeof(err))) {
		ktap_result(&k, 0, err, "reads functions in domain 10000");
		return;
	}
	nic = &m.fn[0];
	rp = &m.fn[1];
	nvme = &m.fn[2];
	ok = m.nr_fn == 3 && nic->addr == P2PD_ADDR(0, 0xe1, 0, 0) &&
	     rp->addr == P2PD_ADDR(0x10000, 0xe0, 2, 0) &&
	     nvme->addr == P2PD_ADDR(0x10000, 0xe1, 0, 0) &&
	     nvme->addr != nic->addr && nvme->parent == rp->addr &&
	     P2PD_ADDR_DOMAIN(nvme->addr) == 0x10000 &&
	     P2PD_ADDR_BUS(nvme->addr) == 0xe1 &&
	     nvme->host_bridge == P2PD_HOST_BRIDGE(0x10000, 0xe0) &&
	     nvme->host_bridge != P2PD_HOST_BRIDGE(0, 0xe0) &&
	     P2PD_HOST_BRIDGE_DOMAIN(nvme->host_bridge) == 0x10000 &&
	     nic->host_bridge == P2PD_HOST_BRIDGE(0, 0xe1);
	p2pd_buf_init(&b, addr, sizeof(addr));
	p2pd_put_addr(&b, nvme->addr);
	ok = ok && !p2pd_buf_terminate(&b) && !strcmp(addr, "10000:e1:00.0");
	p2pd_buf_init(&b, hb, sizeof(hb));
	p2pd_put_host_bridge(&b, nvme->host_bridge);
	ok = ok && !p2pd_buf_terminate(&b) && !strcmp(hb, "10000:e0");
	p2pd_buf_init(&b, widest, sizeof(widest));
	p2pd_put_addr(&b, P2PD_ADDR(0xffffffffu, 0xff, 0x1f, 7));
	ok = ok && !p2pd_buf_terminate(&b) && !strcmp(widest, "ffffffff:ff:1f.7");
	ktap_result(&k, ok, "an address or host bridge in domain 10000 read or written wrongly",
		    "domain 10000: addresses, parents and host bridges whole, apart from domain 0's, written as 10000:e1:00.0 and 10000:e0");
	p2pd_model_free(&m);

	accepts("the widest domain, ffffffff",
		"# p2pdiag abi=2 generation=1 functions=1\n"
		DOM_FN("ffffffff:ff:1f.7", "endpoint", "none", "ffffffff:ff",
		       "0x010802", "1"));
	refuses("a domain of nine hex digits",
		"# p2pdiag abi=2 generation=1 functions=1\n"
		DOM_FN("123456789:00:00.0", "endpoint", "none", "0000:00",
		       "0x010802", "1"),
		"addr=123456789:00:00.0 is not a dddd:bb:dd.f address");
	refuses("a domain that is not hex",
		"# p2pdiag abi=2 generation=1 functions=1\n"
		DOM_FN("1000g:e1:00.0", "endpoint", "none", "0000:00",
		       "0x010802", "1"),
		"addr=1000g:e1:00.0 is not a dddd:bb:dd.f address");
	refuses("a five-digit domain with a leading zero (another spelling of 0001)",
		"# p2pdiag abi=2 generation=1 functions=1\n"
		DOM_FN("00001:e1:00.0", "endpoint", "none", "0001:e1",
		       "0x010802", "1"),
		"addr=00001:e1:00.0 is not a dddd:bb:dd.f address");
	refuses("a host bridge in a domain of nine digits",
		"# p2pdiag abi=2 generation=1 functions=1\n"
		DOM_FN("10000:e1:00.0", "endpoint", "none", "100000000:e1",
		       "0x010802", "1"),
		"host_bridge");
}

int main(void)
{
	ktap_start("topology-parse");
	suspended_port();

	accepts("a header and two functions", HDR2 RP "\n" GPU "\n");
	accepts("no functions", "# p2pdiag abi=1 generation=0 functions=0\n");
	/* abi 2 grouped the pairs file; a topology file reads as in 1 */
	accepts("abi 2", "# p2pdiag abi=2 generation=0 functions=0\n");
	accepts("a missing final newline", HDR1 RP);
	accepts("CRLF line ends", "# p2pdiag abi=1 generation=5 functions=1\r\n"
		RP "\r\n");
	accepts("comment and blank lines", HDR1 "# saved on host x\n\n" RP "\n");
	accepts("unknown field keys (newer module)",
		HDR1 RP " future_field=whatever\n");
	accepts("unknown header keys", "# p2pdiag abi=1 generation=5 "
		"functions=1 kernel=6.12 cpu=other\n" RP "\n");
	accepts("header keys in another order",
		"# p2pdiag abi=1 functions=1 cpu=amd generation=5\n" RP "\n");
	accepts("a parent missing from the file (the engine's unknown)",
		HDR1 GPU "\n");
	accepts("a reserved link speed code in a link that was read",
		HDR1 "addr=0000:03:00.0 role=downstream_port "
		"parent=0000:02:00.0 host_bridge=0000:00 numa_node=0 "
		"vendor=0x104c device=0x8233 class=0x060400 acs_cap=none "
		"acs_ctrl=none acs=none ats=none link_speed=2.5 link_width=1 "
		"link_max_speed=unknown link_max_width=1 iommu_group=none "
		"iommu_domain=none p2p_endpoint=0\n");
	accepts("upper-case hex", HDR1 "addr=0000:0A:1F.7 role=endpoint "
		"parent=0000:00:01.0 host_bridge=0000:00 numa_node=0 "
		"vendor=0x10DE device=0x2330 class=0x030200 acs_cap=none "
		"acs_ctrl=none acs=none ats=disabled link_speed=none "
		"link_width=none link_max_speed=none link_max_width=none "
		"iommu_group=0 iommu_domain=none p2p_endpoint=1\n");
	values();
	wide_domains();

	refuses("empty input", "", "empty input");
	refuses("a missing header", RP "\n", "line 1: not a p2pdiag topology");
	refuses("a newer abi", "# p2pdiag abi=3 generation=1 functions=0\n",
		"knows abi=1 to 2 only");
	refuses("abi 0", "# p2pdiag abi=0 generation=1 functions=0\n",
		"knows abi=1 to 2 only");
	refuses("a pairs file", "# p2pdiag abi=1 generation=1 pairs=0\n",
		"pairs file");
	refuses("a header without functions=",
		"# p2pdiag abi=1 generation=1\n", "no functions=");
	refuses("a header without generation=",
		"# p2pdiag abi=1 functions=0\n", "no generation=");
	refuses("a repeated header key",
		"# p2pdiag abi=1 generation=1 generation=2 functions=0\n",
		"repeats generation");
	refuses("a bad cpu word", "# p2pdiag abi=1 generation=1 functions=0 "
		"cpu=intel\n", "expected amd_zen, amd or other");
	refuses("a kernel= that is no release", "# p2pdiag abi=1 generation=1 "
		"functions=0 kernel=six\n", "kernel=six: expected a release");
	refuses("root_bus_first= naming a function not in the file",
		"# p2pdiag abi=1 generation=1 functions=1 "
		"root_bus_first=0000:00:00.0\n" RP "\n", "0000:00:00.0, which has no line");
	refuses("root_bus_first= in a file without function lines",
		"# p2pdiag abi=1 generation=1 functions=0 "
		"root_bus_first=0000:00:01.0\n", "0000:00:01.0, which has no line");
	refuses("root_bus_first= naming a function below a bridge",
		"# p2pdiag abi=1 generation=1 functions=2 "
		"root_bus_first=0000:01:00.0\n" RP "\n" GPU "\n",
		"0000:01:00.0, which is not on a root bus");
	refuses("root_bus_first= naming two functions of one root bus",
		"# p2pdiag abi=1 generation=1 functions=2 "
		"root_bus_first=0000:00:01.0,0000:00:01.0\n" RP "\n" GPU "\n",
		"two functions of one root bus");
	refuses("root_bus_first= that is no address list",
		"# p2pdiag abi=1 generation=1 functions=0 root_bus_first=0000:00\n",
		"expected none or dddd:bb:dd.f addresses");
	{
		static const char t[] = "# p2pdiag abi=1 generation=1 functions=2 "
			"kernel=6.12.95+deb12-amd64 root_bus_first=0000:00:01.0\n"
			RP "\n" GPU_HEAD GPU_TAIL " physfn=0000:00:01.0\n";
		struct p2pd_model m;
		char err[256] = "";
		int r = parse(t, &m, err, sizeof(err));

		ktap_result(&k, !r && m.kernel_release == P2PD_RELEASE(6, 12, 95) &&
			    m.fn[0].root_bus_first && !m.fn[1].root_bus_first &&
			    m.fn[1].has_physfn && m.fn[1].physfn == P2PD_ADDR(0, 0, 1, 0) &&
			    !m.fn[0].has_physfn, err,
			    "reads kernel= (a uname -r string too), root_bus_first= and physfn=, which may be left out");
		if (!r)
			p2pd_model_free(&m);
	}
	refuses("functions= larger than the lines", HDR2 RP "\n",
		"functions=2 but 1 function lines follow");
	refuses("functions= smaller than the lines", HDR1 RP "\n" GPU "\n",
		"functions=1 but 2");
	too_many();
	refuses("a duplicate address", HDR2 RP "\n" RP "\n",
		"line 3: duplicate address 0000:00:01.0 (first on line 2)");
	refuses("a line not starting with addr=", HDR1 "role=endpoint\n",
		"line 2: a function line starts with addr=");
	refuses("a token without =", HDR1 RP " junk\n", "is not key=value");
	refuses("a short address", HDR1 "addr=0000:00:01 role=endpoint\n",
		"is not a dddd:bb:dd.f address");
	refuses("a domain of five digits with a leading zero", HDR1 "addr=01000:00:01.0\n",
		"is not a dddd:bb:dd.f address");
	refuses("device number above 1f", HDR1 "addr=0000:00:20.0\n",
		"is not a dddd:bb:dd.f address");
	refuses("function number above 7", HDR1 "addr=0000:00:01.8\n",
		"is not a dddd:bb:dd.f address");
	refuses("a missing field", HDR1 GPU_HEAD "host_bridge=0000:00\n",
		"numa_node= is missing");
	refuses("a repeated field", HDR1 RP " role=endpoint\n",
		"role= appears twice");
	refuses("two addr= on a line", HDR1 RP " addr=0000:00:02.0\n",
		"two addr=");
	refuses("an unknown role", HDR1 "addr=0000:00:01.0 role=switch\n",
		"role=switch is not a valid value");
	refuses("a vendor without 0x", HDR2 RP "\n" GPU_HEAD
		"host_bridge=0000:00 numa_node=0 vendor=10de\n",
		"vendor=10de is not a valid value");
	refuses("a short class", HDR1 "addr=0000:00:01.0 class=0x0302\n",
		"class=0x0302 is not a valid value");
	refuses("a negative NUMA node below -1",
		HDR1 "addr=0000:00:01.0 numa_node=-2\n", "numa_node=-2");
	refuses("a link speed without decimals",
		HDR1 "addr=0000:00:01.0 link_speed=16\n", "link_speed=16 ");
	refuses("a link width over 32",
		HDR1 "addr=0000:00:01.0 link_width=64\n", "link_width=64 ");
	refuses("link fields half unknown",
		HDR1 "addr=0000:00:01.0 role=root_port parent=none "
		"host_bridge=0000:00 numa_node=0 vendor=0x8086 device=0x2030 "
		"class=0x060400 acs_cap=none acs_ctrl=none acs=none ats=none "
		"link_speed=16.0 link_width=unknown link_max_speed=16.0 "
		"link_max_width=16 iommu_group=3 iommu_domain=translated "
		"p2p_endpoint=0\n", "link fields disagree");
	refuses("ACS words that contradict acs_ctrl",
		HDR1 "addr=0000:00:01.0 role=root_port parent=none "
		"host_bridge=0000:00 numa_node=0 vendor=0x8086 device=0x2030 "
		"class=0x060400 acs_cap=0x005f acs_ctrl=0x0000 "
		"acs=SrcValid+\\x20TransBlk-\\x20ReqRedir+\\x20CmpltRedir+"
		"\\x20UpstreamFwd+\\x20EgressCtrl-\\x20DirectTrans- ats=none "
		"link_speed=16.0 link_width=16 link_max_speed=16.0 "
		"link_max_width=16 iommu_group=3 iommu_domain=translated "
		"p2p_endpoint=0\n", "do not match acs_ctrl=0x0000");
	refuses("ACS words missing a bit",
		HDR1 "addr=0000:00:01.0 acs=SrcValid+\\x20TransBlk-\n",
		"acs=SrcValid+ TransBlk- is not a valid value");
	refuses("acs_cap none with acs_ctrl given",
		HDR1 "addr=0000:00:01.0 role=root_port parent=none "
		"host_bridge=0000:00 numa_node=0 vendor=0x8086 device=0x2030 "
		"class=0x060400 acs_cap=none acs_ctrl=0x001d acs=none "
		"ats=none link_speed=none link_width=none link_max_speed=none "
		"link_max_width=none iommu_group=3 iommu_domain=translated "
		"p2p_endpoint=0\n", "disagree on whether ACS was read");
	refuses("a bad escape", HDR1 "addr=0000:00:01.0 acs=a\\y20b\n",
		"bad escape");
	refuses("an escape cut short", HDR1 "addr=0000:00:01.0 acs=a\\x2\n",
		"bad escape");
	refuses("an ATS STU over 31", HDR1 "addr=0000:00:01.0 "
		"ats=enabled\\x20stu=32\n", "ats=enabled stu=32");
	refuses("p2p_endpoint=2", HDR1 "addr=0000:00:01.0 p2p_endpoint=2\n",
		"p2p_endpoint=2");
	accepts("pri= and pasid= in their other forms",
		HDR2 RP " pri=disabled pasid=enabled\\x20width=0\n"
		GPU_HEAD "host_bridge=0000:00 numa_node=-1 vendor=0x10de "
		"device=0x2330 class=0x030200 acs_cap=none acs_ctrl=none "
		"acs=none ats=suspended pri=suspended pasid=suspended "
		"link_speed=suspended link_width=suspended "
		"link_max_speed=suspended link_max_width=suspended "
		"iommu_group=none iommu_domain=identity p2p_endpoint=1\n");
	refuses("pri= with a width", HDR1 "addr=0000:00:01.0 "
		"pri=enabled\\x20width=5\n", "pri=enabled width=5 is not");
	refuses("pri= in another word", HDR1 "addr=0000:00:01.0 pri=on\n",
		"pri=on is not");
	refuses("pasid= without its width", HDR1 "addr=0000:00:01.0 "
		"pasid=enabled\n", "pasid=enabled is not");
	refuses("a PASID width over 31", HDR1 "addr=0000:00:01.0 "
		"pasid=disabled\\x20width=32\n", "pasid=disabled width=32");
	refuses("a repeated pasid=", HDR1 RP " pasid=none pasid=none\n",
		"pasid= appears twice");
	refuses("ats=disabled with an STU", HDR1 "addr=0000:00:01.0 "
		"ats=disabled\\x20stu=2\n", "ats=disabled stu=2 is not");
	accepts("a VF of a root-bus PF on a virtual bus (no upstream bridge)",
		HDR1 "addr=0000:01:00.1 role=rc_endpoint parent=none "
		"host_bridge=0000:00 numa_node=0 vendor=0x8086 device=0x4941 "
		"class=0x0b4000 acs_cap=none acs_ctrl=none acs=none ats=none "
		"link_speed=none link_width=none link_max_speed=none "
		"link_max_width=none iommu_group=3 iommu_domain=translated "
		"p2p_endpoint=1\n");
	refuses("a root-bus function naming a higher host bridge",
		HDR1 "addr=0000:00:01.0 role=root_port parent=none "
		"host_bridge=0000:40 numa_node=0 vendor=0x8086 device=0x2030 "
		"class=0x060400 acs_cap=none acs_ctrl=none acs=none ats=none "
		"link_speed=none link_width=none link_max_speed=none "
		"link_max_width=none iommu_group=3 iommu_domain=translated "
		"p2p_endpoint=0\n", "host_bridge is not the function's own or a lower bus");
	refuses("a parent on the same bus (a loop would be possible)",
		HDR1 "addr=0000:01:00.0 role=endpoint parent=0000:01:00.1 "
		GPU_TAIL "\n", "parent must be on a lower bus");
	refuses("a child whose host bridge differs from its parent's",
		HDR2 RP "\n" "addr=0000:41:00.0 role=endpoint "
		"parent=0000:00:01.0 host_bridge=0000:40 numa_node=0 "
		"vendor=0x10de device=0x2330 class=0x030200 acs_cap=none "
		"acs_ctrl=none acs=none ats=none link_speed=none "
		"link_width=none link_max_speed=none link_max_width=none "
		"iommu_group=none iommu_domain=none p2p_endpoint=1\n"
		"", "line 3: host_bridge differs from its parent's (line 2)");
	refuses("control bytes, shown as ? in the message",
		HDR1 "addr=0000:00:01.0 role=\x01\x7f\xff\n",
		"role=??? is not a valid value");
	refuses("an escaped control byte, shown as ?",
		HDR1 "addr=0000:00:01.0 role=a\\x1bb\n",
		"role=a?b is not a valid value");
	embedded_nul();
	long_line();
	free_empty();
	return ktap_finish(&k);
}
