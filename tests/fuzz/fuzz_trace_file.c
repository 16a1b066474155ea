/*
 * fuzz_trace_file - whole trace files through the streaming reader.
 *
 * Input: one flag byte, then the file.  The file is put in a memfd and read
 * with nvt_reader_open("/proc/self/fd/N") and nvt_reader_next_block() to the
 * end, as `nvanalyze dump` does.  Flag bit 0 first recomputes every CRC the
 * walk can find (file header, block headers and payloads, footer), so that
 * mutations reach the payload and footer decoders instead of stopping at a
 * CRC mismatch; bit 1 also seeks by time through the footer index.
 *
 * Invariants besides "no crash": the records returned add up to what
 * nvt_reader_info() reports; a footer that was accepted agrees with the
 * blocks; a clean end accounts for every byte of the file; every error has
 * a message naming the file; a small file never runs the reader out of
 * memory (test_fuzz_trace_file caps the address space at 1 GiB).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"
#include "trace/nvtrace.h"
#include "trace/nvtrace_fmt.h"

#define FLAG_FIX_CRC	1
#define FLAG_SEEK	2

/* Recompute the CRCs of f[0..n) in place, walking header, blocks, footer. */
static void fix_crcs(uint8_t *f, size_t n)
{
	size_t pos, end;

	if (n < 16)
		return;
	end = 16 + (size_t)nvt_get32(f + 12);
	if (end > n - 4)
		return;
	nvt_put32(f + end, nvt_crc32(f, end));
	pos = end + 4;
	while (n - pos >= 8) {
		if (!memcmp(f + pos, NVT_BLOCK_MAGIC, 4)) {
			size_t clen;

			if (n - pos < NVT_BLOCK_HDR_LEN)
				return;
			clen = nvt_get32(f + pos + 16);
			if (clen <= n - pos - NVT_BLOCK_HDR_LEN)
				nvt_put32(f + pos + 20,
					  nvt_crc32(f + pos + NVT_BLOCK_HDR_LEN, clen));
			nvt_put32(f + pos + 44, nvt_crc32(f + pos, 44));
			if (clen > n - pos - NVT_BLOCK_HDR_LEN)
				return;
			pos += NVT_BLOCK_HDR_LEN + clen;
		} else if (!memcmp(f + pos, NVT_FOOTER_MAGIC, 4)) {
			size_t body = nvt_get32(f + pos + 4);

			if (n - pos < 12 || body > n - pos - 12)
				return;
			nvt_put32(f + pos + 8 + body, nvt_crc32(f + pos, 8 + body));
			return;
		} else {
			return;
		}
	}
}

/*
 * Read r to its end; returns next_block's last result.  Checks that the
 * records returned are what nvt_reader_info() adds up (which, after a seek,
 * keeps counting from before it).
 */
static int read_all(struct nvt_reader *r, uint64_t *mid_time)
{
	const struct nvt_record *recs;
	struct nvt_read_info info;
	uint64_t records;
	uint32_t blocks;
	size_t n;
	int rc;

	nvt_reader_info(r, &info);
	blocks = info.blocks;
	records = info.records;
	while ((rc = nvt_reader_next_block(r, &recs, &n)) == 1) {
		if (n < 1 || n > NVT_MAX_BLOCK_RECORDS || !recs)
			fuzz_fail("block with %zu records", n);
		blocks++;
		records += n;
		*mid_time = recs[n / 2].complete_ns;
	}
	nvt_reader_info(r, &info);
	if (info.blocks != blocks || info.records != records)
		fuzz_fail("info says %" PRIu32 " blocks %" PRIu64 " records, read %" PRIu32
			  " and %" PRIu64,
			  info.blocks, info.records, blocks, records);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct nvt_footer *foot;
	struct nvt_read_info info;
	struct nvt_reader *r = NULL;
	uint64_t mid = 0, sum = 0;
	uint8_t *copy = NULL;
	char path[64];
	unsigned flags;
	int fd, rc;

	if (size < 1)
		return 0;
	flags = data[0];
	data++;
	size--;
	fd = memfd_create("fuzz-trace", MFD_CLOEXEC);
	if (fd < 0)
		fuzz_fail("memfd_create failed");
	if (size) {
		copy = malloc(size);
		if (!copy)
			goto out;
		memcpy(copy, data, size);
		if (flags & FLAG_FIX_CRC)
			fix_crcs(copy, size);
		if (write(fd, copy, size) != (ssize_t)size)
			fuzz_fail("memfd write failed");
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	rc = nvt_reader_open(&r, path);
	if (rc) {
		if (r && !strstr(nvt_reader_strerror(r), path))
			fuzz_fail("open error without the file name: '%s'",
				  nvt_reader_strerror(r));
		goto out;
	}
	rc = read_all(r, &mid);
	nvt_reader_info(r, &info);
	if (rc == -ENOMEM)
		fuzz_fail("out of memory reading a %zu-byte file: %s", size,
			  nvt_reader_strerror(r));
	if (rc < 0) {
		if (!strstr(nvt_reader_strerror(r), path))
			fuzz_fail("read error without the file name: '%s'",
				  nvt_reader_strerror(r));
	} else if (rc == 0) {
		if (info.used_bytes + info.unused_bytes != size)
			fuzz_fail("used %" PRIu64 " + unused %" PRIu64 " != file size %zu",
				  info.used_bytes, info.unused_bytes, size);
		foot = nvt_reader_footer(r);
		if (info.footer != (foot != NULL))
			fuzz_fail("info.footer %d but footer %p", info.footer, (const void *)foot);
		if (foot) {
			for (unsigned i = 0; i < NVT_OP__MAX; i++)
				sum += foot->op[i].records;
			if (foot->records != info.records || foot->blocks != info.blocks ||
			    sum != foot->records)
				fuzz_fail("accepted footer disagrees with the blocks");
		}
	}
	if ((flags & FLAG_SEEK) && nvt_reader_seek_time(r, mid) == 0)
		(void)read_all(r, &mid);
out:
	nvt_reader_close(r);
	free(copy);
	close(fd);
	return 0;
}
