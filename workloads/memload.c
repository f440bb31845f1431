/* memload: a thrashing load for the music to skip on. An anonymous working set larger than the
 * machine's RAM (default 110 % of it, as interbench's Memload; capped so that it fits RAM +
 * swap) is written at random pages for a fixed time, nine stores in ten to a hot quarter of
 * it and the rest to its cold tail, so that reclaim can age the tail and the run thrashes
 * without being OOM-killed; optionally with a streaming file writer
 * beside it (write=SIZE, fsync'd every few MiB), as in mmtests' stutterp: the two classic ways
 * a desktop stutters. Its own figure: pages touched per second. Kernel paths: anonymous page
 * faults, reclaim and swap-out/in under a memory limit, dirty page writeback, fsync. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "workloads/memload.h"
#include "workloads/memload_pattern.h"
#include "workloads/workload.h"

#define MIB  (UINT64_C(1) << 20)
#define GIB  (UINT64_C(1) << 30)
#define PAGE 4096u

enum {
	OPT_PERCENT,
	OPT_BYTES,
	OPT_SECONDS,
	OPT_WRITE,
	OPT_FSYNC,
	OPT_DIR,
	OPT_HOT,
	OPT_HOT_SHARE,
	OPT_RATE,
	OPT_RANDOM
};

static const struct vms_option_def options[] = {
    [OPT_PERCENT] = {"percent", VMS_OPT_COUNT, "110", "%",
                     "working set as a share of the machine's RAM (interbench Memload: 110)", 1,
                     1000},
    [OPT_BYTES] = {"bytes", VMS_OPT_SIZE, NULL, "bytes",
                   "working set size instead of percent (default: percent of RAM, capped to "
                   "fit RAM + swap)",
                   PAGE, 0},
    [OPT_SECONDS] = {"seconds", VMS_OPT_COUNT, "30", "s", "how long each run writes", 1, 86400},
    [OPT_WRITE] = {"write", VMS_OPT_SIZE, "0", "bytes",
                   "a streaming writer beside it: rewrites a file of this size over and over "
                   "(0 = none)",
                   0, 0},
    [OPT_FSYNC] = {"fsync", VMS_OPT_SIZE, "4M", "bytes", "the writer fsyncs after this much", PAGE,
                   0},
    [OPT_DIR] = {"dir", VMS_OPT_PATH, NULL, "path",
                 "directory for the writer's file (default: --workdir); must not be tmpfs", 0, 0},
    [OPT_HOT] = {"hot", VMS_OPT_COUNT, "25", "%",
                 "the hot set, as a share of the working set (0 = none: uniform stores)", 0, 100},
    [OPT_HOT_SHARE] = {"hot_share", VMS_OPT_COUNT, "90", "%",
                       "share of the stores that go to the hot set", 0, 100},
    [OPT_RATE] = {"rate", VMS_OPT_COUNT, "0", "pages/s",
                  "at most this many stores a second (0 = as fast as it can)", 0, 0},
    [OPT_RANDOM] = {"random", VMS_OPT_BOOL, "1", "bool",
                    "madvise(MADV_RANDOM) on the cold tail (the whole set with hot=0), so that "
                    "reclaim takes its pages without checking their accessed bits; 0 = version "
                    "2, which cgroup v1 OOM-kills beside swap readahead (docs/workloads.md)",
                    0, 0},
};

static const char *const not_primary[] = {"elapsed_s", NULL};

/* Sizes the working set from the machine: percent of RAM, capped so that it fits in RAM +
 * swap (less a margin for the player and the kernel); without a memory cgroup the "RAM" is the
 * whole host's, which memload does not fill: it says so and stays small. */
static int plan(const struct vms_machine_facts *f, struct vms_opt_value *opts, char *note,
                size_t len)
{
	uint64_t want, cap, margin;
	char a[32], b[32], c[32], d[32];
	size_t used = 0;

	note[0] = '\0';
	margin = f->ram / 8 > 32 * MIB ? f->ram / 8 : 32 * MIB;
	if (opts[OPT_BYTES].set) {
		if (opts[OPT_BYTES].u > f->ram + f->swap - (f->ram + f->swap > margin ? margin : 0))
			snprintf(note, len,
			         "working set %s is past what the machine holds (%s RAM %s%s%s, "
			         "less %s for the kernel and the player): memload is then an OOM "
			         "test, and an OOM kill is the kernel's answer, reported as a "
			         "failed run",
			         vms_format_size(opts[OPT_BYTES].u, a, sizeof(a)),
			         vms_format_size(f->ram, b, sizeof(b)),
			         f->swap ? "+ " : "and no swap",
			         f->swap ? vms_format_size(f->swap, c, sizeof(c)) : "",
			         f->swap ? " swap" : "", vms_format_size(margin, d, sizeof(d)));
		return 0;
	}
	want = f->ram / 100 * opts[OPT_PERCENT].u;
	if (!f->cgroup) {
		cap = f->ram / 4 < 2 * GIB ? f->ram / 4 : 2 * GIB;
		snprintf(
		    note, len,
		    "no emulated machine (a memory cgroup needs root): memload cannot push a "
		    "small machine past its RAM, and does not fill the host's %s; it writes %s at "
		    "random instead, which pages nothing out",
		    vms_format_size(f->ram, a, sizeof(a)),
		    vms_format_size(want < cap ? want : cap, b, sizeof(b)));
	} else {
		cap = f->ram + f->swap > margin + 16 * MIB ? f->ram + f->swap - margin : 16 * MIB;
		if (want > cap)
			used += (size_t)snprintf(
			    note, len,
			    "working set %s instead of %llu %% of RAM, to fit RAM + swap",
			    vms_format_size(cap, a, sizeof(a)),
			    (unsigned long long)opts[OPT_PERCENT].u);
		if (!f->swap && used < len)
			snprintf(
			    note + used, len - used,
			    "%sno swap: anonymous memory cannot be paged out, so the working set "
			    "stays under RAM and memload does not thrash (only the writer, if any, "
			    "adds pressure)",
			    used ? "; " : "");
	}
	opts[OPT_BYTES].u = (want < cap ? want : cap) / PAGE * PAGE;
	if (opts[OPT_BYTES].u < PAGE)
		opts[OPT_BYTES].u = PAGE;
	opts[OPT_BYTES].set = 1;
	return 0;
}

static int prepare(struct vms_workload_ctx *ctx, char *why, size_t len)
{
	const char *dir = ctx->opts[OPT_DIR].s ? ctx->opts[OPT_DIR].s : ctx->workdir;

	ctx->workdir = dir;
	if (!ctx->opts[OPT_BYTES].set) {
		snprintf(why, len, "no working set size (bytes=SIZE)");
		return -EINVAL;
	}
	return vms_workload_check_dir(dir, ctx->opts[OPT_WRITE].u + 64 * MIB, why, len);
}

struct writer {
	int fd;
	uint64_t size, fsync_every;
	volatile int stop;
	volatile int err; /* errno of the first failure; the writer stops there */
};

/* Rewrites the file from the start whenever it reaches size, fsync'ing every fsync_every. */
static void *writer_main(void *arg)
{
	struct writer *w = arg;
	uint64_t off = 0, since_sync = 0;
	size_t chunk = (size_t)(w->size < MIB ? w->size : MIB);
	char *buf = malloc(chunk);

	if (!buf) {
		w->err = ENOMEM;
		return NULL;
	}
	memset(buf, 'w', chunk);
	while (!w->stop) {
		size_t n = (size_t)(w->size - off < chunk ? w->size - off : chunk);
		ssize_t got = pwrite(w->fd, buf, n, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			w->err = got < 0 ? errno : EIO;
			break;
		}
		off += (uint64_t)got;
		since_sync += (uint64_t)got;
		if (since_sync >= w->fsync_every) {
			if (fdatasync(w->fd)) {
				w->err = errno;
				break;
			}
			since_sync = 0;
		}
		if (off >= w->size)
			off = 0;
	}
	free(buf);
	return NULL;
}

char *vms_memload_map(uint64_t pages, uint64_t random_from)
{
	char *mem = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
	                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int err;

	if (mem == MAP_FAILED || random_from >= pages ||
	    !madvise(mem + random_from * PAGE, (pages - random_from) * PAGE, MADV_RANDOM))
		return mem;
	err = errno;
	munmap(mem, pages * PAGE);
	errno = err;
	return MAP_FAILED;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run(struct vms_workload_ctx *ctx)
{
	uint64_t bytes = ctx->opts[OPT_BYTES].u, pages = bytes / PAGE, touched = 0;
	double seconds = (double)ctx->opts[OPT_SECONDS].u, t0, t = 0;
	struct writer w = {.fd = -1};
	double rate = (double)ctx->opts[OPT_RATE].u;
	struct vms_memload_pattern pat;
	pthread_t th;
	int writing = 0, ret;
	char *mem;

	if (!pages)
		return vms_workload_fail(ctx, "working set of %llu bytes is less than a page",
		                         (unsigned long long)bytes);
	vms_memload_pattern_init(&pat, pages, (unsigned)ctx->opts[OPT_HOT].u,
	                         (unsigned)ctx->opts[OPT_HOT_SHARE].u,
	                         0x9e3779b97f4a7c15ull ^ (uint64_t)getpid());
	mem = vms_memload_map(pages, ctx->opts[OPT_RANDOM].u ? pat.hot_pages : pages);
	if (mem == MAP_FAILED)
		return vms_workload_fail(ctx, "cannot map a %llu-byte working set: %s",
		                         (unsigned long long)bytes, strerror(errno));
	ctx->shared->bytes_allocated = pages * PAGE;
	if (ctx->opts[OPT_WRITE].u) {
		w.fd = vms_workload_open_file(ctx);
		if (w.fd < 0)
			return 1; /* the reason is set */
		w.size = ctx->opts[OPT_WRITE].u;
		w.fsync_every = ctx->opts[OPT_FSYNC].u;
		ret = pthread_create(&th, NULL, writer_main, &w);
		if (ret)
			return vms_workload_fail(ctx, "cannot start the writer: %s", strerror(ret));
		writing = 1;
	}
	t0 = now_s();
	/* a failed writer ends the run: a full work filesystem is not worth thrashing on */
	while (t < seconds && !w.err) {
		int i;

		for (i = 0; i < 1024; i++) {
			unsigned off;
			uint64_t page = vms_memload_pattern_next(&pat, &off);

			mem[page * PAGE + off] = (char)off;
		}
		touched += 1024;
		t = now_s() - t0;
		if (rate && touched > rate * t) {
			double ahead = (double)touched / rate - t;
			struct timespec ts = {(time_t)ahead,
			                      (long)((ahead - (double)(time_t)ahead) * 1e9)};

			nanosleep(&ts, NULL);
			t = now_s() - t0;
		}
	}
	if (writing) {
		w.stop = 1;
		pthread_join(th, NULL);
		close(w.fd);
		if (w.err)
			return vms_workload_fail_file(ctx, w.err, "the writer failed in '%s'",
			                              ctx->workdir);
	}
	ctx->shared->own_value = t > 0 ? (double)touched / t : 0;
	ctx->shared->own_set = 1;
	return 0;
}

const struct vms_workload vms_workload_memload = {
    .name = "memload",
    .summary = "write an anonymous working set of 110 % of RAM at random pages for 30 s, 90 % "
               "of the stores to a hot quarter of it, "
               "optionally beside a streaming writer (interbench Memload, mmtests stutterp)",
    .stresses = "anonymous faults, reclaim and swap-out/swap-in under a memory limit "
                "(thrashing), dirty writeback and fsync with write=SIZE",
    .options = options,
    .n_options = VMS_ARRAY_SIZE(options),
    .needs = VMS_NEED_DISK,
    .default_runs = 3,
    .faithful_to = "no 2001 test: interbench Memload (110 % of RAM) and mmtests stutterp "
                   "(anonymous hogs plus writers beside a latency probe)",
    .not_primary = not_primary,
    /* 1: uniform stores over the whole working set; 2: the hot set and cold tail, without
     * the advice (random=0) */
    .version = 3,
    .own_metric = "pages_touched_per_s",
    .thrashing = 1,
    .plan = plan,
    .prepare = prepare,
    .run = run,
};
