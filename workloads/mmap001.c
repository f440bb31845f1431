/* mmap001 (LTP, 2001): writes every byte of a MAP_SHARED file mapping in order, then msync.
 * Exercises shared file-mapping write faults, dirty page-cache accounting, writeback and the
 * reclaim of dirty mapped pages. `mmap001 -m 500000` = 2 048 000 000 bytes in 2001. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/util.h"
#include "workloads/workload.h"

enum { OPT_BYTES, OPT_PAGES, OPT_DIR };

static const struct vms_option_def options[] = {
    [OPT_BYTES] = {"bytes", VMS_OPT_SIZE, "2048000000", "bytes",
                   "size of the file mapping (2001: 500000 pages = 2048000000)", 4096, 0},
    [OPT_PAGES] = {"pages", VMS_OPT_COUNT, NULL, "pages",
                   "size in 4096-byte pages, as `mmap001 -m PAGES`; overrides bytes", 1,
                   VMS_SIZE_MAX / 4096},
    [OPT_DIR] = {"dir", VMS_OPT_PATH, NULL, "path",
                 "directory for the file (default: --workdir); must not be tmpfs", 0, 0},
};

static uint64_t size_of(const struct vms_workload_ctx *ctx)
{
	if (ctx->opts[OPT_PAGES].set)
		return ctx->opts[OPT_PAGES].u * 4096;
	return ctx->opts[OPT_BYTES].u;
}

/* Unsized (no bytes, no pages from the user or the profile): 4 × RAM, so that the file cannot
 * stay in the page cache, capped by the free disk of the work directory less a margin of 10 %
 * (at least 1 GiB); whole pages. */
static int plan(const struct vms_machine_facts *f, struct vms_opt_value *opts, char *note,
                size_t len)
{
	const uint64_t gib = UINT64_C(1) << 30;
	uint64_t want = f->ram < VMS_SIZE_MAX / 4 ? 4 * f->ram : VMS_SIZE_MAX, avail, margin;
	char a[32];

	note[0] = '\0';
	if (opts[OPT_BYTES].set || opts[OPT_PAGES].set)
		return 0;
	if (f->disk_free != VMS_MACHINE_UNKNOWN) {
		margin = f->disk_free / 10 > gib ? f->disk_free / 10 : gib;
		avail = f->disk_free > margin ? f->disk_free - margin : 0;
		if (want > avail) {
			want = avail & ~UINT64_C(4095);
			if (!want) {
				snprintf(
				    note, len,
				    "the work directory '%s' has %s free and mmap001 leaves 10 %% "
				    "of it, at least 1 GiB, free: give -w mmap001:bytes=SIZE or "
				    "another --workdir",
				    f->workdir, vms_format_size(f->disk_free, a, sizeof(a)));
				return -ENOSPC;
			}
			snprintf(note, len, "mmap001 capped to %s by the free disk of '%s'",
			         vms_format_size(want, a, sizeof(a)), f->workdir);
		}
	}
	opts[OPT_BYTES].u = want & ~UINT64_C(4095);
	opts[OPT_BYTES].set = 1;
	return 0;
}

static int prepare(struct vms_workload_ctx *ctx, char *why, size_t len)
{
	const char *dir = ctx->opts[OPT_DIR].s ? ctx->opts[OPT_DIR].s : ctx->workdir;

	if (ctx->opts[OPT_PAGES].set) {
		ctx->opts[OPT_BYTES].u = ctx->opts[OPT_PAGES].u * 4096;
		ctx->opts[OPT_BYTES].set = 1;
	}
	ctx->workdir = dir;
	/* the file is written in full: its size plus a margin for metadata */
	return vms_workload_check_dir(dir, size_of(ctx) + (64u << 20), why, len);
}

static int run(struct vms_workload_ctx *ctx)
{
	uint64_t size = size_of(ctx), i;
	char *array;
	int fd;

	fd = vms_workload_open_file(ctx);
	if (fd < 0)
		return 1;
	/* a sparse file of size + 1 bytes, as the 2001 code made it */
	if (lseek(fd, (off_t)size, SEEK_SET) < 0 || write(fd, "", 1) != 1) {
		vms_workload_fail_file(ctx, errno, "cannot size the work file in '%s'",
		                       ctx->workdir);
		goto fail_close;
	}
	array = mmap(NULL, size, PROT_WRITE, MAP_SHARED, fd, 0);
	if (array == MAP_FAILED) {
		vms_workload_fail(ctx, "mmap of %llu bytes failed: %s", (unsigned long long)size,
		                  strerror(errno));
		goto fail_close;
	}
	ctx->shared->bytes_allocated = size;
	for (i = 0; i < size; i++)
		array[i] = (char)i;
	if (msync(array, size, MS_SYNC) < 0) {
		vms_workload_fail_file(ctx, errno, "msync failed");
		munmap(array, size);
		goto fail_close;
	}
	munmap(array, size);
	close(fd);
	return 0;

fail_close:
	close(fd);
	return 1;
}

const struct vms_workload vms_workload_mmap001 = {
    .name = "mmap001",
    .summary = "write every byte of a shared file mapping, then msync (LTP mmap001 -m)",
    .stresses = "shared file write faults, dirty page-cache accounting, writeback, reclaim "
                "of dirty mapped pages",
    .options = options,
    .n_options = VMS_ARRAY_SIZE(options),
    .needs = VMS_NEED_DISK,
    .default_runs = 5,
    .faithful_to = "mmap001 -m 500000 (LTP 2001), run 5 times",
    .plan = plan,
    .prepare = prepare,
    .run = run,
};
