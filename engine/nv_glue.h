/*
 * nv_glue.h - what every file of the engine's fio glue (engine/) shares:
 * the job's options and the per-file state.  Each part keeps its own state
 * behind its own header: engine/passthru.h (NVMe passthrough),
 * engine/trace_hook.h (the per-IO trace); the hooks' per-thread state is
 * private to the hooks (engine/hooks.h, engine/hooks*.c), which alone call
 * the parts (never the reverse, as fio's engines/io_uring.c and
 * engines/nvme.c).
 * Needs fio's headers; not for the pure code in libnvcore.
 */
#ifndef NV_GLUE_H
#define NV_GLUE_H

#include <stdint.h>

#include "fio.h"
#include "trace/nvtrace.h"
#include "sys/sys_target.h"

struct nv_nvme;

/* Per-file engine state: what kind of target the file is. */
struct nv_file {
	enum nv_target_kind kind;
	unsigned int index;		/* position in the job's file list */
	/* NVMe namespace state (char devices, engine/passthru.c) */
	struct nv_nvme *nvme;
};

/* nv_trace_clock: where the trace's timestamps come from (engine/trace_hook.c). */
enum nv_trace_clock { NV_TRACE_CLOCK_AUTO = 0, NV_TRACE_CLOCK_GETTIME = 1 };

/*
 * Engine options.  fio treats an option whose offset is 0 as "no storage",
 * so the struct starts with a pointer fio fills with the thread (as in fio's
 * own engines).
 */
struct nv_options {
	struct thread_data *td;
	unsigned int hipri;
	unsigned int fixedbufs;
	unsigned int registerfiles;
	unsigned int sqpoll_thread;
	unsigned int sqpoll_set;
	unsigned int sqpoll_cpu;
	int nonvectored;
	unsigned int nowait;
	unsigned int force_async;
	char *cmd_type;			/* "nvme": require passthrough targets */
	char *write_mode;		/* write|zeroes|uncor|verify */
	unsigned int readfua;
	unsigned int writefua;
	unsigned int md_per_io_size;	/* separate metadata buffer bytes per IO */
	unsigned int pi_act;		/* PRACT */
	char *pi_chk;			/* "GUARD,REFTAG,APPTAG" */
	unsigned int apptag;
	unsigned int apptag_mask;
	unsigned int pi_gen;		/* pi_act=0: the engine writes the PI */
	unsigned int trim_ranges;	/* DSM ranges per command (passthrough) */
	/* parsed from the strings above by nv_nvme_check_options() */
	uint8_t write_opc;		/* NVMe opcode of a write (write_mode) */
	uint8_t prchk;			/* NV_PRINFO_PRCHK_* bits (pi_chk) */
	/* trace operation (enum nvt_op) of a passthrough write */
	uint8_t write_nvt_op;
	char *nv_trace;			/* trace directory; NULL: no trace */
	unsigned int nv_trace_level;	/* compression level */
	unsigned int nv_trace_codec;	/* enum nvt_writer_codec */
	unsigned int nv_trace_block;	/* records per trace block */
	unsigned int nv_trace_sched;	/* enum nvt_writer_sched of the writer thread */
	unsigned int nv_trace_sync;	/* fdatasync the trace at most every N ms; 0: never */
	unsigned int nv_trace_buffer_ms;	/* the trace ring grows to hold N ms; 0: fixed */
	unsigned int nv_trace_clock;	/* enum nv_trace_clock */
	unsigned int nv_iowq_workers;	/* io-wq worker limit per pool; 0: kernel default */
	/* submit IORING_OP_NOP instead of every IO (benchmarks) */
	unsigned int nv_nop;
	unsigned int nv_trace_ab;	/* trace every other window of N IOs (benchmarks) */
};

/* engine/options.c: the option table fio parses into struct nv_options. */
extern struct fio_option nv_option_table[];

/* The engine's state of file @f (set when the engine opened it).  Return: it, or NULL. */
static inline struct nv_file *nv_file_of(struct fio_file *f)
{
	return FILE_ENG_DATA(f);
}

/*
 * The per-file state of the file @io_u is for.  Each hook on the IO path
 * (prep, queue, the completion) reads it once and hands it to its helpers
 * and the parts; io_u->engine_data cannot carry it between them (fio puts
 * it in a union with io_u->index, which the engine uses).  Return: it.
 */
static inline struct nv_file *nv_io_file(const struct io_u *io_u)
{
	return FILE_ENG_DATA(io_u->file);
}

#endif
