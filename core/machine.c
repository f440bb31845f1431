/* Machine profiles (hron2001 = the 512 MiB box of the 2001 tests, emulated by a memory cgroup;
 * host = the real machine), overrides, the facts workloads plan from, the CPUs it pins and the
 * protocol.machine record. Reads /proc/meminfo, statfs(2) of the work directory and
 * sched_getaffinity(2). */
#include "core/machine.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fsinfo.h"
#include "core/procfs.h"
#include "core/swapfile.h"
#include "core/sysinfo.h" /* vms_swaps_parse() */
#include "core/util.h"
#include "core/zram.h"

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

const struct vms_machine_profile vms_machine_profiles[] = {
    {"hron2001",
     "the 2001 test box: one CPU, 512 MiB RAM + up to 1 GiB swap (memory cgroup; a temporary "
     "swap file makes up the swap the host lacks)",
     1, 1, 512 * MIB, 1 * GIB},
    {"host", "the real machine, no memory limit; workloads sized from its RAM and free disk", 0, 0,
     0, 0},
    {NULL, NULL, 0, 0, 0, 0},
};

const struct vms_swap_kind_row vms_swap_kinds[VMS_SWAP_KIND_NR] = {
    [VMS_SWAP_KIND_FILE] = {"file", "a swap file on disk, as in 2001 (see --swap-file)"},
    [VMS_SWAP_KIND_ZRAM] = {"zram", "a compressed RAM disk vmsuite adds and removes, its pool "
                                    "capped at a quarter of the emulated RAM"},
    [VMS_SWAP_KIND_ZSWAP] = {"zswap", "the swap file with zswap in front, its compressed pool "
                                      "capped near a quarter of the emulated RAM"},
};

int vms_swap_kind_parse(const char *name, enum vms_swap_kind *kind)
{
	unsigned k;

	for (k = 0; k < VMS_SWAP_KIND_NR; k++)
		if (vms_swap_kinds[k].name && !strcmp(vms_swap_kinds[k].name, name)) {
			*kind = (enum vms_swap_kind)k;
			return 0;
		}
	return -EINVAL;
}

const struct vms_machine_profile *vms_machine_profile_find(const char *name)
{
	const struct vms_machine_profile *p;

	for (p = vms_machine_profiles; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

json_t *vms_machine_profiles_json(void)
{
	const struct vms_machine_profile *p;
	json_t *a = json_array();

	for (p = vms_machine_profiles; p->name; p++)
		json_array_append_new(
		    a,
		    json_pack("{s:s, s:s, s:b, s:o, s:o, s:o}", "name", p->name, "summary",
		              p->summary, "cgroup", p->cgroup, "cpus",
		              p->cpus ? json_integer(p->cpus) : json_null(), "mem_limit_bytes",
		              p->cgroup ? json_integer((json_int_t)p->mem_limit) : json_null(),
		              "swap_limit_bytes",
		              p->cgroup ? json_integer((json_int_t)p->swap_limit) : json_null()));
	return a;
}

int vms_machine_cpus(long n, cpu_set_t *set)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -errno;
	return vms_cpu_set_last(&allowed, n, set);
}

void vms_machine_add_note(struct vms_machine *m, const char *fmt, ...)
{
	size_t used = strlen(m->note);
	char clause[sizeof(m->note)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(clause, sizeof(clause), fmt, ap);
	va_end(ap);
	if (!clause[0] || strstr(m->note, clause))
		return;
	snprintf(m->note + used, sizeof(m->note) - used, "%s%s", used ? "; " : "", clause);
}

/* The host's swap areas in <root>/proc/swaps: how many there are besides other vmsuite runs'
 * temporary swap files, and how large those files are (they go when their run ends, so they
 * are not swap this run can count on: a run beside another makes its own). */
static void swap_areas(const char *root, size_t *areas, uint64_t *temporary)
{
	char path[512], *text;
	size_t i;
	json_t *a, *e;

	*areas = 0;
	*temporary = 0;
	snprintf(path, sizeof(path), "%s/proc/swaps", root);
	text = vms_read_text(path);
	if (!text)
		return;
	a = vms_swaps_parse(text);
	json_array_foreach (a, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));

		if (name && vms_swapfile_name_ok(name))
			*temporary +=
			    (uint64_t)json_integer_value(json_object_get(e, "size_bytes"));
		else
			(*areas)++;
	}
	json_decref(a);
	free(text);
}

/* Whether a temporary swap file of missing bytes can make up the swap the host lacks: sets
 * m->swapfile_* when it can; otherwise says why in why (for the note). -ENOTSUP (reported)
 * when it was required (--swap-file yes, or --swap-dir given) and cannot be made. */
static int plan_swapfile(struct vms_machine *m, const struct vms_machine_request *req,
                         const char *workdir, uint64_t missing, char *why, size_t why_len)
{
	int required = req->swap_file == VMS_SWAPFILE_YES || req->swap_dir;
	const char *dir = req->swap_dir ? req->swap_dir : workdir;
	char reason[1024];

	why[0] = '\0';
	if (req->swap_file == VMS_SWAPFILE_NO) {
		snprintf(why, why_len, "--swap-file no");
		return 0;
	}
	if (geteuid() != 0) {
		if (required)
			return vms_error_ret(-ENOTSUP,
			                     "a swap file for the emulated machine needs root "
			                     "(swapon); --swap-file no runs without it");
		snprintf(why, why_len, "a swap file needs root");
		return 0;
	}
	if (vms_swapfile_check_dir(dir, missing, m->swapfile_fs, sizeof(m->swapfile_fs), reason,
	                           sizeof(reason))) {
		if (required)
			return vms_error_ret(
			    -ENOTSUP, "no swap file for the emulated machine: %s%s", reason,
			    req->swap_dir ? "" : "; --swap-dir DIR picks another place");
		snprintf(why, why_len, "no swap file: %s; --swap-dir DIR picks another place",
		         reason);
		m->swapfile_fs[0] = '\0';
		return 0;
	}
	m->swapfile_bytes = missing;
	snprintf(m->swapfile_dir, sizeof(m->swapfile_dir), "%s", dir);
	return 0;
}

/* m->facts from the resolved machine and the work directory. */
static void fill_facts(struct vms_machine *m, const char *root, const char *workdir)
{
	struct vms_machine_facts *f = &m->facts;
	struct vms_fs_info fi;

	f->ram = m->use_cgroup ? m->mem_limit : m->host_mem_total;
	f->swap = m->effective_swap;
	f->cgroup = m->use_cgroup;
	f->root = geteuid() == 0;
	snprintf(f->workdir, sizeof(f->workdir), "%s", workdir);
	if (vms_fs_info_at(*root ? root : NULL, workdir, &fi)) {
		f->disk_free = VMS_MACHINE_UNKNOWN;
		f->disk_backed = 1; /* unknown: the workload's own check of it will say */
		return;
	}
	f->disk_free = fi.free_bytes;
	f->disk_backed = !fi.memory_backed;
	snprintf(f->fs_type, sizeof(f->fs_type), "%s", fi.fstype ? fi.fstype : fi.magic_name);
	vms_fs_info_release(&fi);
}

int vms_machine_resolve(struct vms_machine *m, const struct vms_machine_request *req)
{
	const char *root = req->root ? req->root : "";
	const char *workdir = req->workdir ? req->workdir : ".";
	const struct vms_machine_profile *p;
	struct vms_meminfo mi;
	char path[512], a[32], b[32], c[32];
	long cpus;
	int ret;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	ret = vms_meminfo_read(&mi, path);
	if (ret)
		return vms_error_ret(ret, "cannot read '%s': %s", path, strerror(-ret));
	m->host_mem_total = mi.mem_total;
	m->host_swap_total = mi.swap_total;
	vms_cgroup_detect(&m->cg, root);

	if (req->profile) {
		p = vms_machine_profile_find(req->profile);
		if (!p)
			return vms_error_ret(-EINVAL,
			                     "unknown machine profile '%s' (known: hron2001, host)",
			                     req->profile);
		m->explicit_profile = 1;
		if (p->cgroup && !m->cg.writable)
			return vms_error_ret(-ENOTSUP, "--machine %s needs a memory cgroup: %s",
			                     p->name, m->cg.why);
		if (!p->cgroup && (req->set_mem_limit || req->set_swap_limit))
			return vms_error_ret(
			    -EINVAL,
			    "the '%s' profile has no memory cgroup: --mem-limit and "
			    "--swap-limit need --machine hron2001",
			    p->name);
	} else if (m->cg.writable) {
		p = vms_machine_profile_find("hron2001");
	} else {
		if (req->set_mem_limit || req->set_swap_limit)
			return vms_error_ret(-ENOTSUP,
			                     "--mem-limit/--swap-limit need a memory cgroup: %s",
			                     m->cg.why);
		p = vms_machine_profile_find("host");
		vms_machine_add_note(
		    m,
		    "running on the host machine (%s RAM, no limit): the 2001 box is not "
		    "emulated, so workloads are sized from the real RAM and the audio probe "
		    "shares all of it (%s)",
		    vms_format_size(m->host_mem_total, a, sizeof(a)), m->cg.why);
	}
	m->profile = p;
	m->use_cgroup = p->cgroup;
	if (!p->cgroup && (req->swap_dir || req->swap_file == VMS_SWAPFILE_YES))
		return vms_error_ret(-EINVAL,
		                     "the '%s' profile has no emulated machine to give swap to: "
		                     "--swap-file yes and --swap-dir need --machine hron2001%s",
		                     p->name, m->cg.writable ? "" : " (and root)");
	if (!p->cgroup && req->swap_kind != VMS_SWAP_KIND_FILE)
		return vms_error_ret(-EINVAL,
		                     "the '%s' profile has no emulated machine to give swap to: "
		                     "--swap-kind %s needs --machine hron2001%s",
		                     p->name, vms_swap_kinds[req->swap_kind].name,
		                     m->cg.writable ? "" : " (and root)");
	m->swap_kind = req->swap_kind;

	if (p->cgroup) {
		long page = sysconf(_SC_PAGESIZE);
		uint64_t host_swap = m->host_swap_total, own_swap, slack, temporary;
		char why[1536];
		int header_only = 0;
		size_t areas;

		m->mem_limit = req->set_mem_limit ? req->mem_limit : p->mem_limit;
		m->swap_limit = req->set_swap_limit ? req->swap_limit : p->swap_limit;
		if (m->mem_limit < 16 * MIB)
			return vms_error_ret(-EINVAL,
			                     "memory limit %s is too small (at least 16 MiB)",
			                     vms_format_size(m->mem_limit, a, sizeof(a)));
		m->ram = m->mem_limit;
		if (m->swap_kind == VMS_SWAP_KIND_ZRAM) {
			uint64_t pg = (uint64_t)(page > 0 ? page : 4096);

			if (!m->swap_limit)
				return vms_error_ret(-EINVAL,
				                     "--swap-kind zram with a swap limit of "
				                     "0: no swap to give it");
			ret = vms_zram_check(why, sizeof(why));
			if (ret)
				return vms_error_ret(
				    ret, "no zram swap for the emulated machine: %s", why);
			/* its pool lives in RAM the cgroup does not charge: a share of the RAM */
			m->zram_pool = m->ram / VMS_ZRAM_POOL_DIVISOR / pg * pg;
			m->mem_limit = m->ram - m->zram_pool;
			m->zram_disksize = (m->swap_limit + pg - 1) / pg * pg + pg;
		}
		if (m->swap_kind == VMS_SWAP_KIND_ZSWAP) {
			uint64_t pct;

			if (!m->swap_limit)
				return vms_error_ret(-EINVAL,
				                     "--swap-kind zswap with a swap limit of "
				                     "0: no swap to put zswap in front of");
			snprintf(path, sizeof(path), "%s%s", root, VMS_ZSWAP_ENABLED);
			if (geteuid() != 0)
				return vms_error_ret(-ENOTSUP,
				                     "no zswap for the emulated machine: zswap "
				                     "needs root (its parameters, swapon)");
			if (access(path, W_OK))
				return vms_error_ret(-ENOTSUP,
				                     "no zswap for the emulated machine: this "
				                     "kernel has no '%s' (CONFIG_ZSWAP)",
				                     path);
			/* max_pool_percent is a share of the host's RAM, in whole percent */
			pct = m->host_mem_total
			          ? m->ram / VMS_ZRAM_POOL_DIVISOR * 100 / m->host_mem_total
			          : 1;
			m->zswap_pool_percent = (unsigned)(pct < 1 ? 1 : pct > 100 ? 100 : pct);
			m->zswap_pool = m->host_mem_total / 100 * m->zswap_pool_percent;
		}
		/* a swap area's first page is its header: a 1 GiB swap file gives SwapTotal 1 GiB
		 * less 4 KiB, and one page per area short is not "less swap" */
		swap_areas(root, &areas, &temporary);
		slack = (uint64_t)(page > 0 ? page : 4096) * (areas ? areas : 1);
		host_swap = temporary < host_swap ? host_swap - temporary : 0;
		own_swap = host_swap;

		if (m->swap_kind == VMS_SWAP_KIND_ZRAM) {
			/* all of the machine's swap is the zram device, first in priority */
			host_swap += m->zram_disksize - (uint64_t)(page > 0 ? page : 4096);
			vms_machine_add_note(
			    m,
			    "zram swap: a zram device of %s, added and removed by vmsuite, its "
			    "compressed pool capped at %s of the emulated %s RAM; the memory "
			    "cgroup "
			    "gets the other %s",
			    vms_format_size(m->swap_limit, a, sizeof(a)),
			    vms_format_size(m->zram_pool, b, sizeof(b)),
			    vms_format_size(m->ram, c, sizeof(c)),
			    vms_format_size(m->mem_limit, path, sizeof(path)));
		} else if (m->swap_limit > host_swap + slack) {
			/* the swap the host lacks (beyond its header pages) comes from a swap
			 * file */
			ret = plan_swapfile(m, req, workdir, m->swap_limit - host_swap, why,
			                    sizeof(why));
			if (ret)
				return ret;
			host_swap += m->swapfile_bytes;
		} else if (m->swap_limit > host_swap) {
			header_only = 1; /* short by the swap header pages only: not worth a note */
		}
		m->effective_swap = m->swap_limit < host_swap ? m->swap_limit : host_swap;
		if (m->swapfile_bytes)
			vms_machine_add_note(
			    m,
			    "the host has %s swap: a temporary swap file of %s in '%s' (%s), "
			    "removed at the end, gives the emulated machine its swap",
			    own_swap ? vms_format_size(own_swap, c, sizeof(c)) : "no",
			    vms_format_size(m->swapfile_bytes, a, sizeof(a)), m->swapfile_dir,
			    m->swapfile_fs);
		if (m->swap_kind == VMS_SWAP_KIND_ZSWAP) {
			if (!m->effective_swap)
				return vms_error_ret(-EINVAL,
				                     "--swap-kind zswap without swap (the host "
				                     "has none and --swap-file no): nothing to "
				                     "put zswap in front of");
			if (m->cg.version == VMS_CGROUP_V2)
				vms_machine_add_note(
				    m,
				    "zswap in front of the swap: its compressed pool (at most %u%% "
				    "of the host's RAM, %s) is charged to the memory cgroup",
				    m->zswap_pool_percent,
				    vms_format_size(m->zswap_pool, a, sizeof(a)));
			else
				vms_machine_add_note(
				    m,
				    "zswap in front of the swap: on cgroup v1 its compressed pool "
				    "(at most %u%% of the host's RAM, %s) is not charged to the "
				    "memory cgroup, so the emulated machine has up to that much "
				    "more than its %s RAM",
				    m->zswap_pool_percent,
				    vms_format_size(m->zswap_pool, a, sizeof(a)),
				    vms_format_size(m->mem_limit, b, sizeof(b)));
		}
		if (!m->cg.swap_accounting && m->swap_limit < host_swap) {
			m->effective_swap = host_swap;
			vms_machine_add_note(
			    m,
			    "the kernel does not account swap per cgroup (swapaccount=1 is "
			    "off), so the swap limit is not enforced: the emulated machine can "
			    "use all %s of host swap",
			    vms_format_size(host_swap, a, sizeof(a)));
		} else if (m->effective_swap < m->swap_limit && !header_only) {
			char have[48];

			if (own_swap)
				snprintf(have, sizeof(have), "only %s of",
				         vms_format_size(own_swap, c, sizeof(c)));
			else
				snprintf(have, sizeof(have), "no");
			vms_machine_add_note(
			    m,
			    "the host has %s swap, so the emulated machine has %s RAM and %s "
			    "swap instead of the %s requested (swap cannot be emulated: %s)",
			    have, vms_format_size(m->mem_limit, b, sizeof(b)),
			    m->effective_swap
			        ? vms_format_size(m->effective_swap, path, sizeof(path))
			        : "no",
			    vms_format_size(m->swap_limit, a, sizeof(a)), why);
		}
	} else {
		m->mem_limit = m->swap_limit = VMS_CGROUP_UNLIMITED;
		m->effective_swap = m->host_swap_total;
	}
	fill_facts(m, root, workdir);

	cpus = req->cpus ? req->cpus : p->cpus;
	if (cpus > 0) {
		cpu_set_t allowed, others;

		ret = sched_getaffinity(0, sizeof(allowed), &allowed) ? -errno : 0;
		if (!ret)
			ret = vms_cpu_set_last(&allowed, cpus, &m->cpuset);
		if (!ret)
			ret = vms_cpu_list_format(&m->cpuset, m->cpu_list, sizeof(m->cpu_list));
		if (ret)
			return vms_error_ret(ret, "cannot pin to %ld CPUs: %s", cpus,
			                     ret == -ERANGE ? "this process may not use that many"
			                                    : strerror(-ret));
		m->cpus = cpus;
		m->cpus_from = req->cpus ? "--cpus" : "profile";
		CPU_XOR(&others, &allowed, &m->cpuset);
		if (vms_cpu_list_format(&others, m->others_list, sizeof(m->others_list)))
			m->others_list[0] = '\0';
	}
	return 0;
}

static json_t *bytes_or_null(uint64_t v)
{
	return v == VMS_CGROUP_UNLIMITED ? json_null() : json_integer((json_int_t)v);
}

json_t *vms_machine_json(const struct vms_machine *m, const struct vms_cgroup *cg)
{
	int live = cg && cg->created;
	json_t *o = json_object(), *plan;

	json_object_set_new(o, "profile", json_string(m->profile ? m->profile->name : "host"));
	json_object_set_new(o, "mem_limit_bytes",
	                    bytes_or_null(live ? cg->mem_limit : m->mem_limit));
	json_object_set_new(o, "swap_limit_bytes",
	                    bytes_or_null(live ? cg->swap_limit : m->swap_limit));
	json_object_set_new(
	    o, "effective_swap_bytes",
	    json_integer((json_int_t)(live ? vms_cgroup_effective_swap(cg) : m->effective_swap)));
	json_object_set_new(o, "cpus", m->cpus ? json_integer(m->cpus) : json_null());
	json_object_set_new(o, "cpu_list", m->cpus ? json_string(m->cpu_list) : json_null());
	json_object_set_new(o, "cpus_from", m->cpus_from ? json_string(m->cpus_from) : json_null());
	json_object_set_new(o, "sampler_cpu_list",
	                    m->cpus && m->others_list[0] ? json_string(m->others_list)
	                                                 : json_null());
	json_object_set_new(o, "cgroup_version", json_integer(live ? (int)cg->version : 0));
	json_object_set_new(o, "cgroup_path", live ? json_string(cg->dir) : json_null());
	json_object_set_new(o, "note", json_string(m->note));
	json_object_set_new(o, "host_mem_total_bytes", json_integer((json_int_t)m->host_mem_total));
	json_object_set_new(o, "host_swap_total_bytes",
	                    json_integer((json_int_t)m->host_swap_total));
	json_object_set_new(o, "swap_kind", json_string(vms_swap_kinds[m->swap_kind].name));
	json_object_set_new(o, "ram_bytes",
	                    m->use_cgroup ? json_integer((json_int_t)m->ram) : json_null());
	plan = m->plan_json[0] ? json_loads(m->plan_json, 0, NULL) : NULL;
	json_object_set_new(o, "plan", plan ? plan : json_null());
	json_object_set_new(o, "cgroup", live ? vms_cgroup_facts_json(cg) : json_null());
	return o;
}
