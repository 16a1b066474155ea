/*
 * options.c - the engine's option table: names, types, defaults and help of
 * every option fio accepts for nvengine (stored in struct nv_options).
 * The names and meaning follow fio's own io_uring engine where it has the
 * option, so a job file ports by changing its ioengine line.
 */
#include <stddef.h>

#include "fio.h"
#include "optgroup.h"

#include "engine/nv_glue.h"

/* sqthread_poll_cpu: remember the CPU and that it was set.  Return: 0. */
static int nv_sqpoll_cb(void *data, unsigned long long *val)
{
	struct nv_options *o = data;

	o->sqpoll_cpu = *val;
	o->sqpoll_set = 1;
	return 0;
}

struct fio_option nv_option_table[] = {
	{
		.name	= "hipri",
		.lname	= "High Priority",
		.type	= FIO_OPT_STR_SET,
		.off1	= offsetof(struct nv_options, hipri),
		.help	= "Use polled IO completions (IORING_SETUP_IOPOLL; needs poll "
			"queues on NVMe)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "fixedbufs",
		.lname	= "Fixed (pre-mapped) IO buffers",
		.type	= FIO_OPT_STR_SET,
		.off1	= offsetof(struct nv_options, fixedbufs),
		.help	= "Register the IO buffers with the ring once "
			  "(READ_FIXED/WRITE_FIXED)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "registerfiles",
		.lname	= "Register file set",
		.type	= FIO_OPT_STR_SET,
		.off1	= offsetof(struct nv_options, registerfiles),
		.help	= "Open and register the job's files with the ring once "
			  "(IOSQE_FIXED_FILE)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "sqthread_poll",
		.lname	= "Kernel SQ thread polling",
		.type	= FIO_OPT_STR_SET,
		.off1	= offsetof(struct nv_options, sqpoll_thread),
		.help	= "A kernel thread polls the submission queue (IORING_SETUP_SQPOLL); "
			"implies registerfiles",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "sqthread_poll_cpu",
		.lname	= "SQ Thread Poll CPU",
		.type	= FIO_OPT_INT,
		.cb	= nv_sqpoll_cb,
		.help	= "CPU the SQ polling thread is bound to (with sqthread_poll)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nonvectored",
		.lname	= "Non-vectored",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, nonvectored),
		.def	= "-1",
		.minval	= -1,
		.maxval	= 1,
		.help	= "1: READ/WRITE, 0: READV/WRITEV, -1: READ/WRITE when the "
			  "kernel has them",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nowait",
		.lname	= "RWF_NOWAIT",
		.type	= FIO_OPT_BOOL,
		.off1	= offsetof(struct nv_options, nowait),
		.help	= "Use RWF_NOWAIT for reads/writes (fail with EAGAIN instead "
			  "of blocking)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "force_async",
		.lname	= "Force async",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, force_async),
		.minval	= 0,
		.help	= "Set IOSQE_ASYNC on every Nth request (0: never)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "cmd_type",
		.lname	= "Uring cmd type",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct nv_options, cmd_type),
		.help	= "nvme: require NVMe generic char devices (/dev/ngXnY) and "
			  "passthrough; without it char devices are detected",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "write_mode",
		.lname	= "Write mode",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct nv_options, write_mode),
		.def	= "write",
		.help	= "Passthrough writes as write, zeroes (Write Zeroes), uncor (Write "
			  "Uncorrectable) or verify (Verify)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "readfua",
		.lname	= "Read Force Unit Access",
		.type	= FIO_OPT_BOOL,
		.off1	= offsetof(struct nv_options, readfua),
		.def	= "0",
		.help	= "Set FUA on passthrough reads",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "writefua",
		.lname	= "Write Force Unit Access",
		.type	= FIO_OPT_BOOL,
		.off1	= offsetof(struct nv_options, writefua),
		.def	= "0",
		.help	= "Set FUA on passthrough writes",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "md_per_io_size",
		.lname	= "Separate metadata buffer size per I/O",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, md_per_io_size),
		.def	= "0",
		.help	= "Bytes of the separate metadata buffer of each IO (namespaces with "
			  "metadata, not extended LBA); 0: computed from bs",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "pi_act",
		.lname	= "Protection Information Action",
		.type	= FIO_OPT_BOOL,
		.off1	= offsetof(struct nv_options, pi_act),
		.def	= "1",
		.help	= "PRACT: the controller inserts (writes) and strips (reads) "
			"protection information",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "pi_chk",
		.lname	= "Protection Information Check",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct nv_options, pi_chk),
		.help	= "PRCHK: fields the controller checks, any of GUARD,REFTAG,APPTAG",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "apptag",
		.lname	= "Application Tag used in Protection Information",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, apptag),
		.def	= "0x1234",
		.help	= "Application tag (LBAT) written and checked with protection "
			  "information",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "apptag_mask",
		.lname	= "Application Tag Mask",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, apptag_mask),
		.def	= "0xffff",
		.help	= "Bits of the application tag that are checked (LBATM)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "pi_gen",
		.lname	= "Host-generated protection information",
		.type	= FIO_OPT_BOOL,
		.off1	= offsetof(struct nv_options, pi_gen),
		.def	= "1",
		.help	= "With pi_act=0 the engine writes the PI of every write and "
			  "checks that of every read; 0 leaves the metadata as it is (to "
			  "test a device's own checks)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "trim_ranges",
		.lname	= "DSM ranges per command",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, trim_ranges),
		.def	= "1",
		.minval	= 1,
		.maxval	= 256,
		.help	= "NVMe passthrough: trims queued together (iodepth_batch) go to the "
			  "device as one Dataset Management command of up to N ranges",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace",
		.lname	= "nvengine trace directory",
		.type	= FIO_OPT_STR_STORE,
		.off1	= offsetof(struct nv_options, nv_trace),
		.help	= "Record every IO (ns timestamps) in DIR/JOBNAME.THREAD.nvt "
			"(read with nvanalyze)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace_level",
		.lname	= "nvengine trace compression level",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, nv_trace_level),
		.def	= "1",
		.minval	= 1,
		.maxval	= 9,
		.help	= "Compression level of the trace blocks (1 fastest .. 9 smallest)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace_codec",
		.lname	= "nvengine trace compressor",
		.type	= FIO_OPT_STR,
		.off1	= offsetof(struct nv_options, nv_trace_codec),
		.def	= "zstd",
		.help	= "Compressor of the trace blocks",
		.posval = {
			  { .ival = "zstd",
			    .oval = NVT_WRITER_ZSTD,
			    .help = "zstd (a third of zlib's CPU time per record, about the same "
				    "size)",
			  },
			  { .ival = "zlib",
			    .oval = NVT_WRITER_ZLIB,
			    .help = "zlib, as before format 1.2 (older nvanalyze reads it)",
			  },
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace_block",
		.lname	= "nvengine trace block records",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, nv_trace_block),
		.def	= "65536",
		.minval	= 16,
		.maxval	= 1048576,
		.help	= "Records per trace block (a block is also sealed after 1 s of "
			"completions)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace_sync",
		.lname	= "nvengine trace fdatasync period",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, nv_trace_sync),
		.def	= "1000",
		.minval	= 0,
		.maxval	= NVT_MAX_SYNC_MS,
		.help	= "fdatasync the trace within N ms of a block, at most every N ms "
			  "(bounds what a power cut loses; 0: never)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace_buffer_ms",
		.lname	= "nvengine trace buffer by time",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, nv_trace_buffer_ms),
		.def	= "2000",
		.minval	= 0,
		.maxval	= NVT_MAX_BUFFER_MS,
		.help	= "The trace ring grows (up to 128 MiB per traced thread) so that a "
			  "trace writer or disk pause of N ms never holds the IO loop "
			  "(0: 4 chunks, fixed)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace_sched",
		.lname	= "nvengine trace writer scheduling",
		.type	= FIO_OPT_STR,
		.off1	= offsetof(struct nv_options, nv_trace_sched),
		.def	= "normal",
		.help	= "Scheduling class of the trace writer thread",
		.posval = {
			  { .ival = "auto",
			    .oval = NVT_SCHED_AUTO,
			    .help = "SCHED_IDLE until half the trace ring waits, then normal "
				    "until drained",
			  },
			  { .ival = "idle",
			    .oval = NVT_SCHED_IDLE,
			    .help = "SCHED_IDLE: compress on CPU time the IO path leaves idle",
			  },
			  { .ival = "normal",
			    .oval = NVT_SCHED_NORMAL,
			    .help = "the job's own policy and nice value",
			  },
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace_clock",
		.lname	= "nvengine trace clock",
		.type	= FIO_OPT_STR,
		.off1	= offsetof(struct nv_options, nv_trace_clock),
		.def	= "auto",
		.help	= "Where the trace's CLOCK_MONOTONIC timestamps come from",
		.posval = {
			  { .ival = "auto",
			    .oval = NV_TRACE_CLOCK_AUTO,
			    .help = "the TSC calibrated against CLOCK_MONOTONIC where it is "
				    "invariant",
			  },
			  { .ival = "clock_gettime",
			    .oval = NV_TRACE_CLOCK_GETTIME,
			    .help = "clock_gettime(CLOCK_MONOTONIC) for every timestamp",
			  },
		},
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_iowq_workers",
		.lname	= "nvengine io-wq worker limit",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, nv_iowq_workers),
		.def	= "0",
		.minval	= 0,
		.maxval	= 65536,
		.help	= "Most io_uring worker threads (iou-wrk) per pool and NUMA node "
			"(0: the kernel's default)",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_nop",
		.lname	= "nvengine no-op IO",
		.type	= FIO_OPT_BOOL,
		.off1	= offsetof(struct nv_options, nv_nop),
		.def	= "0",
		.help	= "Submit every IO as IORING_OP_NOP: nothing is read or written; "
			  "measures the engine's and the trace's own CPU cost",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= "nv_trace_ab",
		.lname	= "nvengine tracing on/off windows",
		.type	= FIO_OPT_INT,
		.off1	= offsetof(struct nv_options, nv_trace_ab),
		.def	= "0",
		.minval	= 0,
		.maxval	= 16777216,
		.help	= "Benchmarks: trace only every other window of N completions "
			  "and sum the job thread's CPU time per kind of window "
			  "(trace footer ab.*); the trace then lacks the other windows' IOs",
		.category = FIO_OPT_C_ENGINE,
		.group	= FIO_OPT_G_IOURING,
	},
	{
		.name	= NULL,
	},
};
