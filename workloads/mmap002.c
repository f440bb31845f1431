/* mmap002 (memtest 0.0.4, Juan Quintela): a 2R file mapping and an R anonymous mapping; fill
 * the first R of the file, msync, copy it to the anonymous region, copy that back into the
 * second R of the file, msync. Exercises the balance between anonymous and dirty file reclaim. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/util.h"
#include "workloads/workload.h"

enum { OPT_BYTES, OPT_DIR };

static const struct vms_option_def options[] = {
    [OPT_BYTES] = {"bytes", VMS_OPT_SIZE, "512M", "bytes",
                   "R: the file is 2R, the anonymous region R (footprint 3R); memtest used "
                   "the machine's RAM",
                   4096, 0},
    [OPT_DIR] = {"dir", VMS_OPT_PATH, NULL, "path",
                 "directory for the file (default: --workdir); must not be tmpfs", 0, 0},
};

/* memtest's R is the machine's RAM: in an emulated machine, its limit. On the host R stays
 * 512 MiB (a 2 × RAM file of a large host would mostly measure its disk). */
static int plan(const struct vms_machine_facts *f, struct vms_opt_value *opts, char *note,
                size_t len)
{
	(void)len;
	note[0] = '\0';
	if (!opts[OPT_BYTES].set && f->cgroup) {
		/* 2R and 3R must not wrap, whatever limit the machine was given */
		opts[OPT_BYTES].u = f->ram < VMS_SIZE_MAX ? f->ram : VMS_SIZE_MAX;
		opts[OPT_BYTES].set = 1;
	}
	return 0;
}

static int prepare(struct vms_workload_ctx *ctx, char *why, size_t len)
{
	const char *dir = ctx->opts[OPT_DIR].s ? ctx->opts[OPT_DIR].s : ctx->workdir;

	ctx->workdir = dir;
	return vms_workload_check_dir(dir, 2 * ctx->opts[OPT_BYTES].u + (64u << 20), why, len);
}

static int run(struct vms_workload_ctx *ctx)
{
	uint64_t r = ctx->opts[OPT_BYTES].u, i;
	char *file, *anon;
	int fd, ret = 1;

	fd = vms_workload_open_file(ctx);
	if (fd < 0)
		return 1;
	if (ftruncate(fd, (off_t)(2 * r)) < 0) {
		vms_workload_fail_file(ctx, errno, "cannot size the work file in '%s'",
		                       ctx->workdir);
		goto out_close;
	}
	file = mmap(NULL, 2 * r, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (file == MAP_FAILED) {
		vms_workload_fail(ctx, "mmap of the %llu-byte file failed: %s",
		                  (unsigned long long)(2 * r), strerror(errno));
		goto out_close;
	}
	anon = mmap(NULL, r, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED) {
		vms_workload_fail(ctx, "anonymous mmap of %llu bytes failed: %s",
		                  (unsigned long long)r, strerror(errno));
		goto out_unmap_file;
	}
	ctx->shared->bytes_allocated = 3 * r;
	for (i = 0; i < r; i++)
		file[i] = (char)i;
	if (msync(file, r, MS_SYNC) < 0) {
		vms_workload_fail_file(ctx, errno, "msync failed");
		goto out_unmap_anon;
	}
	for (i = 0; i < r; i++)
		anon[i] = file[i];
	for (i = 0; i < r; i++)
		file[r + i] = anon[i];
	if (msync(file + r, r, MS_SYNC) < 0) {
		vms_workload_fail_file(ctx, errno, "msync failed");
		goto out_unmap_anon;
	}
	ret = 0;
out_unmap_anon:
	munmap(anon, r);
out_unmap_file:
	munmap(file, 2 * r);
out_close:
	close(fd);
	return ret;
}

const struct vms_workload vms_workload_mmap002 = {
    .name = "mmap002",
    .summary = "fill a 2R file mapping and an R anonymous region by copying between them "
               "(memtest mmap002)",
    .stresses = "anonymous vs dirty file reclaim balance, writeback, swap-out",
    .options = options,
    .n_options = VMS_ARRAY_SIZE(options),
    .needs = VMS_NEED_DISK,
    .default_runs = 5,
    .faithful_to = "memtest 0.0.4 mmap002 (R = RAM); default R = 512 MiB until the emulated "
                   "machine sets it",
    .plan = plan,
    .prepare = prepare,
    .run = run,
};
