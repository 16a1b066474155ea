/*
 * fiojson.h - fio JSON output (any fio from 2.x to 3.4x) read into a model.
 *
 * One file becomes one struct nv_run: its jobs (or client_stats entries),
 * each with per-direction statistics converted to common units: latencies
 * in nanoseconds, bandwidth in bytes per second, IO sizes in bytes.
 *
 * Every value carries its source (struct nv_val, common.h): NV_SRC_NONE means
 * the file does not have it (absent percentile, no IOs: printed as missing,
 * never as zero), NV_SRC_FIO a number read from fio's output.  Values computed
 * from nvengine traces are never put here: stats/trace_join.h holds them
 * beside the run, which stays as loaded.
 */
#ifndef NV_ANALYZE_FIOJSON_H
#define NV_ANALYZE_FIOJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/common.h"
#include "analyze/input/jobmeta.h"

enum nv_dir { NV_DIR_READ, NV_DIR_WRITE, NV_DIR_TRIM, NV_DIR_SYNC, NV_DIR_MIXED, NV_DIR_NR };
enum nv_latkind { NV_LAT_SLAT, NV_LAT_CLAT, NV_LAT_TOTAL, NV_LAT_NR };

struct nv_bin {
	double ns;		/* fio's value for the bin: the middle of its range */
	uint64_t count;
};

struct nv_pctpt {
	double pct;		/* 0 < pct <= 100 */
	double ns;
};

struct nv_latstat {		/* all in nanoseconds */
	struct nv_val min, max, mean, stdev;
	struct nv_val pct[NV_PCT_NR];	/* by enum nv_pct (common.h) */
	size_t nbins;		/* json+ "bins", ascending by ns (0: not json+) */
	struct nv_bin *bins;
	size_t npoints;		/* fio's whole percentile list, ascending */
	struct nv_pctpt *points;
};

/* fio's per-second samples of bandwidth or IOPS ("bw_min" ... "bw_samples"). */
struct nv_samples {
	struct nv_val min, max, mean, dev;	/* bandwidth: bytes per second */
	struct nv_val n;			/* samples taken ("*_samples", fio >= 3) */
};

struct nv_dirstat {
	bool present;		/* the direction's object is in the file */
	bool have_ios;		/* total_ios given (fio >= 2.2) */
	uint64_t ios;		/* IOs completed (total_ios) */
	bool have_io_bytes;	/* io_bytes given */
	uint64_t io_bytes;	/* bytes (old fio's KiB converted) */
	struct nv_val runtime_ms;	/* fio's "runtime" of the direction */
	struct nv_samples bw_samples, iops_samples;
	struct nv_val iops;
	struct nv_val bw;	/* bytes per second */
	struct nv_latstat lat[NV_LAT_NR];
};

/*
 * One of fio's latency buckets (the job's "latency_ns", "latency_us" and
 * "latency_ms": the share of the job's IOs, all directions, whose completion
 * latency lies in [lo_ns, hi_ns); hi_ns is INFINITY for ">=2000" ms).
 */
struct nv_latbucket {
	double lo_ns, hi_ns;
	double pct;		/* % of the job's IOs */
};

/* Per-job numbers outside the directions. */
struct nv_jobextra {
	struct nv_val usr_cpu, sys_cpu;	/* % of the job's runtime */
	struct nv_val ctx, majf, minf;	/* context switches, page faults */
	size_t nbuckets;		/* 0: the file has no latency buckets */
	struct nv_latbucket *buckets;	/* ascending */
};

struct nv_job {
	char *name;		/* fio's jobname */
	char *host;		/* client/server: the hostname, else NULL */
	char *key;		/* matching key, unique in the run (see fiojson.c) */
	char *desc;		/* "rw=randread bs=4k ..." from the options, or "" */
	char *trace_dir;	/* the engine's nv_trace=DIR option, or NULL */
	int groupid;
	int error;		/* fio's "error" (an errno), 0 if none */
	bool have_error;	/* the file has "error" */
	char *rw;		/* the rw= option, or NULL */
	uint64_t bs[3];		/* bs= for read, write, trim in bytes (0: not given) */
	struct nv_jobextra x;
	size_t part;		/* joined runs: index in run->parts of its file */
	struct nv_dirstat dir[NV_DIR_NR];
	struct nv_jobmeta meta;	/* every option, steadystate, latency_target (jobmeta.h) */
};

/*
 * One entry of fio's "disk_util": a device's counters over the run; md
 * arrays also carry their members' aggregate ("aggr_*", aggr true).
 * Counts are IOs/merges, ticks and in_queue milliseconds, util in %.
 */
enum { NV_DISK_READ_IOS, NV_DISK_WRITE_IOS, NV_DISK_READ_MERGES, NV_DISK_WRITE_MERGES,
       NV_DISK_READ_TICKS, NV_DISK_WRITE_TICKS, NV_DISK_IN_QUEUE, NV_DISK_UTIL, NV_DISK_NR };

struct nv_disk {
	char *name;
	struct nv_val v[NV_DISK_NR];
	bool aggr;
	struct nv_val aggr_v[NV_DISK_NR];
};

/* fio's key of a disk_util counter ("read_ios" ... "util"), the JSON key
 * nvanalyze prints ("read_ios", "read_ticks_ms", "util_pct"); NULL if out of range. */
const char *nv_disk_field(unsigned i);
const char *nv_disk_key(unsigned i);

struct nv_run {
	char *path;		/* the file, or for a joined run the directory or "a+b" */
	size_t nparts;		/* joined runs (runset.h): the files, else 0 */
	char **parts;
	char *fio_version;	/* "fio-3.33", or "unknown" */
	const char *format;	/* the reader (detect.h): "fio-json", ...; static */
	char *desc;		/* the tool's own account of the run (a CrystalDiskMark
				 * export's footer), or NULL */
	bool client;		/* client/server output (client_stats) */
	size_t njobs;
	struct nv_job *jobs;
	unsigned objects;	/* JSON objects found in the file */
	uint64_t digest;	/* hash of the object used: spots the same run twice */
	size_t ndisks;
	struct nv_disk *disks;	/* fio's "disk_util", in file order */
	size_t nnotes;
	char **notes;		/* warnings about the file, for stderr */
	unsigned line;		/* one output of a file of several: its first line, else 0 */
	bool text_after;	/* an export or a diskspd report that other text
				 * follows (prose, a prompt, another tool's table):
				 * multiout.h tells machines by it */
	size_t at;		/* that line's offset in the decoded text */
};


const char *nv_dir_name(enum nv_dir d);		/* "read" ... ; "?" if out of range */
int nv_dir_parse(const char *s, enum nv_dir *d);	/* 0 or -EINVAL */
const char *nv_latkind_name(enum nv_latkind k);	/* "slat" "clat" "lat" */
int nv_latkind_parse(const char *s, enum nv_latkind *k);

/*
 * Parse fio output held in buf (len bytes, need not be NUL-terminated) and
 * named path in messages.  Returns 0 and fills *run (free with nv_run_free),
 * or -EINVAL with a one-line message "path:line:col: what" in err (and
 * nothing to free).  Warnings about the framing go to run->notes.
 */
int nv_fio_parse(const char *buf, size_t len, const char *path, struct nv_run *run,
		 char *err, size_t errlen);
/*
 * nv_fio_parse of a file whose text around the JSON is fio's normal or
 * terse output, which the caller reads and compares (fiomulti.h): no note
 * calls that text ignored.  Return: as nv_fio_parse.
 */
int nv_fio_parse_beside_text(const char *buf, size_t len, const char *path, struct nv_run *run,
			     char *err, size_t errlen);

void nv_run_free(struct nv_run *run);

/*
 * Give each job of run its matching key (job->key, freed by nv_run_free):
 * the job name, "name@host" for several hosts, " #N" for repeated names.
 * Every reader calls it once its jobs are filled.
 * Return: 0 or -ENOMEM.
 */
int nv_run_assign_keys(struct nv_run *run);

/* True when a and b hold the same set of job keys.  Return: true or false. */
bool nv_run_same_jobs(const struct nv_run *a, const struct nv_run *b);

/*
 * The fio JSON file a job was read from: run->path, or for a joined run
 * (several files, see runset.h) the job's own file.
 * Return: a path owned by run.
 */
const char *nv_job_file(const struct nv_run *run, const struct nv_job *job);

/*
 * The range [lo, hi] (ns) of the fio latency bin whose reported value is
 * ns: fio's plat_idx_to_val() (stat.c) gives the middle of a bin 2^e ns wide
 * for values in [2^(e+6), 2^(e+7)), values below 128 are as measured.  So a binned
 * percentile is within 1/128 (0.78%) of the true value.  -EINVAL if ns is not
 * a value fio can report.
 */
int nv_fio_bin_range(double ns, double *lo, double *hi);

/*
 * A block size option ("4k", "128K", "1m", "4096", "4KiB") in bytes by
 * fio's rules (parse.c __get_mult_bytes) under kb_base kb (1000, else
 * fio's default 1024): "k", "kb", "K" ... are kb; "kib" ... the other base,
 * so under the default 1024 "4KiB" is 4000 bytes and under 1000 it is
 * 4096.  For "R,W,T" lists the field of direction d (a missing field is the
 * previous one, as fio does).
 * Return: the bytes, or 0 if it does not parse.
 */
uint64_t nv_fio_bs_parse(const char *s, enum nv_dir d, unsigned kb);

/*
 * Whether run was written by fio (JSON, normal or terse output) rather than
 * another tool (CrystalDiskMark, diskspd: no clat, no percentile_list).
 * Return: true for fio's.
 */
bool nv_run_is_fio(const struct nv_run *run);

/*
 * Whether run's tool prints only means per test: a CrystalDiskMark or
 * KDiskMark export (MB/s, IOPS, mean latency; no percentiles, min, max or
 * deviation).  Return: true for such a run.
 */
bool nv_run_means_only(const struct nv_run *run);

/*
 * Whether run is a diskspd report without latencies (run without -L: no
 * AvgLat, no %-ile table).  Return: true for such a run.
 */
bool nv_run_no_latency(const struct nv_run *run);

/*
 * fio writes a JSON real with printf's "%f" (json.c): six decimals, so a
 * value read from the JSON is within this of fio's own.
 */
#define NV_FIO_JSON_REAL_PREC 5e-7

/*
 * Whether a text reading t of a value agrees with the JSON reading j of
 * the same run: within both precisions (nv_val.prec: the text's printed
 * rounding; the JSON's, e.g. fio 2.x's "bw" in whole KiB/s) and the
 * JSON's six decimals.  Return: true when they agree (or either is missing).
 */
bool nv_fio_val_agrees(const struct nv_val *t, const struct nv_val *j);

/*
 * Whether fio measured any latency of the direction (some kind has a mean or
 * a max): fio's sync direction of an fdatasync= run has latency samples but
 * total_ios 0.  Return: true when some latency kind was read.
 */
bool nv_dir_has_lat(const struct nv_dirstat *ds);

/*
 * Whether the direction was measured: it has latency samples
 * (nv_dir_has_lat), or it did IO (total_ios, else bytes or IOPS above 0).
 * Return: true for a direction to show and compare.
 */
bool nv_dir_active(const struct nv_dirstat *ds);

#endif
