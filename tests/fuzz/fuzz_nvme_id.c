/*
 * fuzz_nvme_id - the engine's decoders of what an NVMe device returns:
 * Identify Namespace, Identify Controller and the SMART / Health log, on
 * arbitrary buffers of any length (a device, or a bug in a driver or an
 * emulator, can return anything).
 *
 * Input: a selector byte (0 namespace, 1 controller, 2 SMART), then the page.
 *
 * Invariants: a refusal says why; an accepted namespace has a power-of-two
 * block size of 512 bytes to 2 GiB, a format index below the format count,
 * a capacity of exactly nsze blocks, and PI only with 8 or more metadata
 * bytes (and then a PI layout); the geometry built from it addresses whole
 * blocks; controller strings are printable ASCII; SMART key/value strings
 * are numbers (decimal, or 0x hex for bit fields) and fit their buffers.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "nvme/nvme_cmd.h"
#include "nvme/nvme_id.h"
#include "nvme/nvme_pi.h"
#include "tests/fuzz/fuzz.h"

static void fuzz_ns(const uint8_t *d, size_t n)
{
	struct nv_ns_info ns;
	struct nv_pi_fmt pf;
	struct nv_geom g;
	char msg[256] = "";

	if (nv_parse_id_ns(d, n, &ns, msg, sizeof(msg))) {
		if (!msg[0])
			fuzz_fail("namespace refused without a message");
		return;
	}
	if (ns.lba_size < 512 || ns.lba_size > (1u << 31) || (ns.lba_size & (ns.lba_size - 1)))
		fuzz_fail("block size %u", ns.lba_size);
	if (ns.fmt_index >= ns.nlbaf || ns.pi_type > 3 || (ns.pi_type && ns.md_size < 8))
		fuzz_fail("format %u of %u, PI type %u with %u metadata bytes",
			  ns.fmt_index, ns.nlbaf, ns.pi_type, ns.md_size);
	if (ns.capacity / ns.lba_size != ns.nsze || ns.capacity % ns.lba_size)
		fuzz_fail("capacity %llu is not %llu blocks", (unsigned long long)ns.capacity,
			  (unsigned long long)ns.nsze);
	if (ns.pi_type && nv_pi_fmt_init(&pf, &ns, msg, sizeof(msg)))
		fuzz_fail("PI namespace without a PI layout: %s", msg);
	for (uint8_t prinfo = 0; prinfo < 16; prinfo += 8) {	/* PRACT off and on */
		nv_geom_init(&g, 1, &ns, prinfo, 0, NULL);
		if (g.lba_size != ns.lba_size || g.md_size > ns.md_size)
			fuzz_fail("geometry %u+%u from namespace %u+%u", g.lba_size, g.md_size,
				  ns.lba_size, ns.md_size);
	}
}

static void check_ascii(const char *s, size_t cap, const char *what)
{
	size_t len = strnlen(s, cap);

	if (len == cap)
		fuzz_fail("%s not terminated", what);
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f)
			fuzz_fail("%s has byte 0x%02x", what, (unsigned char)s[i]);
}

static void fuzz_ctrl(const uint8_t *d, size_t n)
{
	struct nv_ctrl_info c;
	char msg[256] = "";

	if (nv_parse_id_ctrl(d, n, &c, msg, sizeof(msg))) {
		if (!msg[0])
			fuzz_fail("controller refused without a message");
		return;
	}
	check_ascii(c.sn, sizeof(c.sn), "serial");
	check_ascii(c.mn, sizeof(c.mn), "model");
	check_ascii(c.fr, sizeof(c.fr), "firmware");
	nv_mdts_bytes(c.mdts, 4096);
}

static void fuzz_smart(const uint8_t *d, size_t n)
{
	struct nv_kv kv[NV_SMART_KV_MAX];
	struct nv_smart s;
	char msg[256] = "";
	int nkv;

	if (nv_parse_smart(d, n, &s, msg, sizeof(msg))) {
		if (!msg[0])
			fuzz_fail("SMART log refused without a message");
		return;
	}
	nkv = nv_smart_kv(&s, kv, NV_SMART_KV_MAX);
	if (nkv < 0 || nkv > NV_SMART_KV_MAX)
		fuzz_fail("%d SMART key/value pairs", nkv);
	for (int i = 0; i < nkv; i++) {
		size_t len = strnlen(kv[i].val, sizeof(kv[i].val));

		if (!kv[i].key || !len || len == sizeof(kv[i].val) ||
		    strspn(kv[i].val, "-0123456789abcdefx") != len)
			fuzz_fail("SMART %s = '%.*s'", kv[i].key ? kv[i].key : "(null)",
				  (int)sizeof(kv[i].val), kv[i].val);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	if (size < 1)
		return 0;
	/* an exact-size heap copy, so ASan sees any read past the page */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	switch (data[0] % 3) {
	case 0: fuzz_ns(copy, size - 1); break;
	case 1: fuzz_ctrl(copy, size - 1); break;
	case 2: fuzz_smart(copy, size - 1); break;
	}
	free(copy);
	return 0;
}
