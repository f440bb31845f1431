/* mtest01 (LTP, 2001): mallocs 1 MiB chunks, writing every byte, until p% of RAM+swap is in
 * use; never frees. Exercises anonymous faults, reclaim and swap-out, and the exit teardown
 * of (swapped) anonymous memory. `mtest01 -p80 -w` in 2001. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "core/cgroup.h"
#include "core/util.h"
#include "workloads/mtest01.h"
#include "workloads/workload.h"

enum { OPT_PERCENT, OPT_BYTES, OPT_CHUNK, OPT_WRITE };

static const struct vms_option_def options[] = {
    [OPT_PERCENT] = {"percent", VMS_OPT_PERCENT, "80", "%",
                     "allocate until this share of RAM+swap is in use (mtest01 -p)", 1, 100},
    [OPT_BYTES] = {"bytes", VMS_OPT_SIZE, NULL, "bytes",
                   "allocate exactly this much instead (mtest01 -b); overrides percent", 1, 0},
    [OPT_CHUNK] = {"chunk", VMS_OPT_SIZE, "1M", "bytes", "malloc chunk size", 4096, 0},
    [OPT_WRITE] = {"write", VMS_OPT_BOOL, "1", "0/1",
                   "store into every byte of each chunk (mtest01 -w)", 0, 1},
};

int vms_mtest01_target(const struct vms_mtest01_mem *m, unsigned percent, uint64_t *target)
{
	/* 64-bit arithmetic: the 2001 code overflowed on machines with 4 GiB or more */
	uint64_t total = m->ram + m->swap;
	uint64_t d = total / 100 * percent + total % 100 * percent / 100;
	uint64_t c = total - (m->free_ram + m->free_swap);

	if (c > d)
		return -ENOMEM;
	*target = d - c;
	return 0;
}

/* RAM and swap as the workload sees them: inside a limited memory cgroup, the cgroup's. */
static void machine_mem(struct vms_mtest01_mem *m)
{
	struct vms_cgroup_meminfo cm;
	struct sysinfo si;

	/* sysinfo() ignores cgroups: inside the emulated machine, "RAM" is its limit */
	if (!vms_cgroup_self_meminfo(&cm, NULL)) {
		m->ram = cm.ram;
		m->free_ram = cm.free_ram;
		m->swap = cm.swap;
		m->free_swap = cm.free_swap;
		return;
	}
	sysinfo(&si);
	m->ram = (uint64_t)si.totalram * si.mem_unit;
	m->free_ram = (uint64_t)si.freeram * si.mem_unit;
	m->swap = (uint64_t)si.totalswap * si.mem_unit;
	m->free_swap = (uint64_t)si.freeswap * si.mem_unit;
}

static int run(struct vms_workload_ctx *ctx)
{
	uint64_t chunk = ctx->opts[OPT_CHUNK].u, target, count;
	int dowrite = (int)ctx->opts[OPT_WRITE].u;

	if (ctx->opts[OPT_BYTES].set) {
		target = ctx->opts[OPT_BYTES].u;
	} else {
		struct vms_mtest01_mem m;

		machine_mem(&m);
		if (vms_mtest01_target(&m, (unsigned)ctx->opts[OPT_PERCENT].u, &target))
			return vms_workload_fail(ctx, "More memory than the maximum amount you "
			                              "specified is already being used");
	}
	/* as in 2001, the count starts at one chunk */
	for (count = chunk; count < target; count += chunk) {
		char *mem = malloc(chunk);
		uint64_t j;

		if (!mem)
			return vms_workload_fail(ctx,
			                         "malloc of a %llu-byte chunk failed after "
			                         "%llu bytes",
			                         (unsigned long long)chunk,
			                         (unsigned long long)(count - chunk));
		if (dowrite)
			for (j = 0; j < chunk; j++)
				mem[j] = 'a';
		/* NOLINTNEXTLINE(clang-analyzer-unix.Malloc): held until the child exits */
		ctx->shared->bytes_allocated = count;
	}
	ctx->shared->bytes_allocated = count;
	return 0;
}

const struct vms_workload vms_workload_mtest01 = {
    .name = "mtest01",
    .summary = "malloc 1 MiB chunks and write them until p% of RAM+swap is used "
               "(LTP mtest01 -p -w)",
    .stresses = "anonymous page faults, reclaim, swap-out, exit teardown of swapped memory",
    .options = options,
    .n_options = VMS_ARRAY_SIZE(options),
    .needs = 0,
    .default_runs = 10,
    .faithful_to = "mtest01 -p80 -w (LTP 2001), run 10 times",
    .prepare = NULL,
    .run = run,
};
