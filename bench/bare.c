/* vmsuite-bare: runs one workload spec once in a forked child with no sampling at all and
 * prints "elapsed_s sys_s" — the baseline for scripts/bench-overhead.sh. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "workloads/workload.h"

int main(int argc, char **argv)
{
	struct vms_workload_spec spec;
	struct vms_workload_ctx ctx = {0};
	struct rusage ru;
	char why[512];
	double t0, t1;
	int status;
	pid_t pid;

	if (argc != 3)
		return fprintf(stderr, "usage: vmsuite-bare SPEC WORKDIR\n"), 129;
	if (vms_workload_spec_parse(argv[1], &spec, why, sizeof(why)))
		return fprintf(stderr, "vmsuite-bare: %s\n", why), 129;
	ctx.w = spec.w;
	ctx.opts = spec.opts;
	ctx.workdir = argv[2];
	if (ctx.w->prepare && ctx.w->prepare(&ctx, why, sizeof(why)))
		return fprintf(stderr, "vmsuite-bare: %s\n", why), 128;
	if (vms_workload_probe_dir(ctx.workdir, &ctx.tmpfile, why, sizeof(why)))
		return fprintf(stderr, "vmsuite-bare: %s\n", why), 128;
	/* without O_TMPFILE: a fresh name, created with O_EXCL | O_NOFOLLOW (never a planted one)
	 */
	snprintf(ctx.file, sizeof(ctx.file), "%s/.vmsuite-bare-%ld.tmp", ctx.workdir,
	         (long)getpid());
	ctx.shared = mmap(NULL, sizeof(*ctx.shared), PROT_READ | PROT_WRITE,
	                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	t0 = vms_now_mono();
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
		_exit(ctx.w->run(&ctx));
	}
	wait4(pid, &status, 0, &ru);
	t1 = vms_now_mono();
	if (!ctx.tmpfile)
		unlink(ctx.file);
	printf("%.6f %.6f\n", t1 - t0,
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
	vms_workload_spec_release(&spec);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
