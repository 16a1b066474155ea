/* test_nvme_status.c - NVMe passthrough status decoding and formatting. */
#include <errno.h>

#include "tests/unit/check.h"
#include "nvme/nvme_status.h"

TEST(fields)
{
	int st = 0x4000 | 0x2000 | 0x1800 | 0x280;

	CHECK_EQ_U64(nv_status_sc(st), 0x80);
	CHECK_EQ_U64(nv_status_sct(st), 0x2);
	CHECK_EQ_U64(nv_status_crd(st), 0x3);
	CHECK(nv_status_dnr(st));
	CHECK(nv_status_more(st));
	CHECK(!nv_status_dnr(0x280));
	CHECK(!nv_status_more(0x280));
	CHECK(!nv_status_dnr(-EINVAL));
	/* the kernel's NVME_SC_DNR / NVME_STATUS_DNR and NVME_SCT_MASK values */
	CHECK_EQ_U64(NV_STATUS_DNR, 0x4000);
	CHECK_EQ_U64(NV_STATUS_MORE, 0x2000);
	CHECK_EQ_U64(NV_STATUS_SCT_MASK, 0x0700);
}

TEST(names_generic)
{
	CHECK_STR(nv_status_name(0x000), "Successful Completion");
	CHECK_STR(nv_status_name(0x001), "Invalid Command Opcode");
	CHECK_STR(nv_status_name(0x002), "Invalid Field in Command");
	CHECK_STR(nv_status_name(0x00b), "Invalid Namespace or Format");
	CHECK_STR(nv_status_name(0x024), "Admin Command Media Not Ready");
	CHECK_STR(nv_status_name(0x080), "LBA Out of Range");
	CHECK_STR(nv_status_name(0x081), "Capacity Exceeded");
	CHECK_STR(nv_status_name(0x082), "Namespace Not Ready");
	CHECK_STR(nv_status_name(0x083), "Reservation Conflict");
	CHECK_STR(nv_status_name(0x084), "Format In Progress");
	/* every generic code 0x00..0x24 except reserved 0x17 has a name */
	for (int sc = 0; sc <= 0x24; sc++)
		CHECK((nv_status_name(sc) != NULL) == (sc != 0x17));
}

TEST(names_other_types)
{
	CHECK_STR(nv_status_name(0x109), "Invalid Log Page");
	CHECK_STR(nv_status_name(0x180), "Conflicting Attributes");
	CHECK_STR(nv_status_name(0x181), "Invalid Protection Information");
	CHECK_STR(nv_status_name(0x182), "Attempted Write to Read Only Range");
	CHECK_STR(nv_status_name(0x1b9), "Zone Is Full");
	CHECK_STR(nv_status_name(0x280), "Write Fault");
	CHECK_STR(nv_status_name(0x281), "Unrecovered Read Error");
	CHECK_STR(nv_status_name(0x282), "End-to-end Guard Check Error");
	CHECK_STR(nv_status_name(0x283), "End-to-end Application Tag Check Error");
	CHECK_STR(nv_status_name(0x284), "End-to-end Reference Tag Check Error");
	CHECK_STR(nv_status_name(0x285), "Compare Failure");
	CHECK_STR(nv_status_name(0x286), "Access Denied");
	CHECK_STR(nv_status_name(0x287), "Deallocated or Unwritten Logical Block");
	CHECK_STR(nv_status_name(0x302), "Asymmetric Access Inaccessible");
	CHECK_STR(nv_status_name(0x370), "Host Pathing Error");
	CHECK_STR(nv_status_name(0x371), "Command Aborted By Host");
	/* DNR/More/CRD do not change the lookup */
	CHECK_STR(nv_status_name(0x4000 | 0x2000 | 0x0800 | 0x281), "Unrecovered Read Error");
}

TEST(names_unknown)
{
	CHECK(nv_status_name(0x017) == NULL);	/* reserved hole */
	CHECK(nv_status_name(0x0ff) == NULL);	/* past the generic table */
	CHECK(nv_status_name(0x200) == NULL);	/* hole at start of media table */
	CHECK(nv_status_name(0x289) == NULL);	/* past the media table */
	CHECK(nv_status_name(0x4ff) == NULL);	/* reserved SCT */
	CHECK(nv_status_name(0x7ff) == NULL);	/* vendor specific */
	CHECK(nv_status_name(-EIO) == NULL);
}

TEST(format)
{
	char buf[128];

	CHECK_STR(nv_status_str(0, buf, sizeof(buf)), "Success");
	CHECK_STR(nv_status_str(0x080, buf, sizeof(buf)), "LBA Out of Range (sct 0x0, sc 0x80)");
	CHECK_STR(nv_status_str(0x4080, buf, sizeof(buf)), "LBA Out of Range (sct 0x0, sc 0x80), "
		  "DNR");
	CHECK_STR(nv_status_str(0x6282, buf, sizeof(buf)),
		  "End-to-end Guard Check Error (sct 0x2, sc 0x82), DNR, More");
	CHECK_STR(nv_status_str(0x2001, buf, sizeof(buf)), "Invalid Command Opcode (sct 0x0, sc "
		  "0x01), More");
	CHECK_STR(nv_status_str(0x7ff, buf, sizeof(buf)), "Unknown status (sct 0x7, sc 0xff)");
	CHECK_STR(nv_status_str(0x4017, buf, sizeof(buf)),
		  "Unknown status (sct 0x0, sc 0x17), DNR");
	CHECK_STR(nv_status_str(-EINVAL, buf, sizeof(buf)), "-errno 22 (Invalid argument)");
	CHECK_STR(nv_status_str(-EINTR, buf, sizeof(buf)), "-errno 4 (Interrupted system call)");
}

TEST(format_truncates)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	CHECK_STR(nv_status_str(0x080, buf, sizeof(buf)), "LBA Out");
	CHECK(nv_status_str(0x080, NULL, 0) == NULL);
	buf[0] = 'q';
	nv_status_str(0x080, buf, 0);	/* len 0: buffer untouched */
	CHECK(buf[0] == 'q');
}

TEST(errno_map)
{
	CHECK_EQ_I64(nv_status_errno(0), 0);
	CHECK_EQ_I64(nv_status_errno(-EAGAIN), EAGAIN);
	CHECK_EQ_I64(nv_status_errno(0x4000), 0);
	CHECK_EQ_I64(nv_status_errno(0x080), EREMOTEIO);
	CHECK_EQ_I64(nv_status_errno(0x081), ENOSPC);
	CHECK_EQ_I64(nv_status_errno(0x4001), EOPNOTSUPP);
	CHECK_EQ_I64(nv_status_errno(0x282), EILSEQ);
	CHECK_EQ_I64(nv_status_errno(0x281), ENODATA);
	CHECK_EQ_I64(nv_status_errno(0x006), EIO);
	CHECK_EQ_I64(nv_status_errno(0x7ff), EIO);
	CHECK_EQ_I64(nv_status_errno(0x370), ENOLINK);
}

int main(void)
{
	RUN(fields);
	RUN(names_generic);
	RUN(names_other_types);
	RUN(names_unknown);
	RUN(format);
	RUN(format_truncates);
	RUN(errno_map);
	return check_summary();
}
