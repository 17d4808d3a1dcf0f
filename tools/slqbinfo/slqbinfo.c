// SPDX-License-Identifier: GPL-2.0
/*
 * slqbinfo: report on the caches of the SLQB slab allocator
 *
 * Reads /sys/kernel/slab/<cache>/ (see Documentation/ABI/testing/
 * sysfs-kernel-slab) and /proc/vmstat. Lists the caches, their aliases and
 * their slabs per node, reports one cache with its per-CPU lists and
 * statistics, sums them up, shows the allocation activity over an
 * interval, shrinks caches and sets their tunables. The option letters
 * mean what they mean to tools/vm/slabinfo; SLQB's own have letters
 * slabinfo does not use.
 *
 * Build: make -C tools/slqbinfo [LDFLAGS=-static]
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <fcntl.h>
#include <dirent.h>
#include <getopt.h>
#include <regex.h>
#include <sys/stat.h>
#include <sys/types.h>

#define MAX_IDS		4096	/* CPU and node numbers in a breakdown */
#define MAX_TABLE_COLS	16	/* wider breakdowns are printed as lists */
#define BUF_SIZE	65536
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The statistics are the stat_* files the caches have (CONFIG_SLQB_STATS),
 * whatever their names: stat_names[] is filled from the files found. The
 * figures derived from some of them (shares, page traffic) look them up
 * by name; a figure whose statistic is absent counts it as 0.
 */
enum {
	K_ALLOC,
	K_ALLOC_FROM_PAGE,
	K_OFFNODE_ALLOC,
	K_FREE,
	K_REMOTE_FREE,
	K_OFFNODE_FREE,
	K_PAGE_ALLOC,
	K_PAGE_FREE,
	NR_KEYS
};

static const char * const key_names[NR_KEYS] = {
	[K_ALLOC]		= "alloc",
	[K_ALLOC_FROM_PAGE]	= "alloc_from_page",
	[K_OFFNODE_ALLOC]	= "offnode_alloc",
	[K_FREE]		= "free",
	[K_REMOTE_FREE]		= "remote_free",
	[K_OFFNODE_FREE]	= "offnode_free",
	[K_PAGE_ALLOC]		= "page_alloc",
	[K_PAGE_FREE]		= "page_free",
};

static char **stat_names;	/* without "stat_", sorted */
static int nr_stats;
static int key_idx[NR_KEYS];	/* index in stat_names[], or -1 */

/* The per-CPU and per-node list files, each "N C0=a ... N0=x". */
static const char * const list_files[] = {
	"slabs", "partial", "cpu_freelist", "cpu_rlist", "remote_free",
};

/* Files the report prints in its own sections, not under "other files". */
static const char * const known_files[] = {
	"object_size", "slab_size", "align", "objs_per_slab", "order",
	"objects", "total_objects", "aliases", "ctor", "hiwater", "freebatch",
	"shrink",
};

static const char * const flag_files[] = {
	"reclaim_account", "hwcache_align", "poison", "red_zone",
	"store_user", "sanity_checks", "destroy_by_rcu",
};

struct cache {
	char *name;
	char **alias_names;
	int nr_alias_names;
	unsigned long object_size, slab_size, align, objs_per_slab, order;
	unsigned long objects, total_objects, slabs, partial;
	unsigned long cpu_freelist, cpu_rlist, remote_free;
	long hiwater, freebatch;		/* -1: no such file */
	int has_stats;
	unsigned long *stat;			/* nr_stats, by stat_names[] */
	unsigned long space, waste;		/* bytes */
};

static struct cache *caches;
static int nr_caches;
static const char *slab_dir = "/sys/kernel/slab";
static const char *proc_dir = "/proc";
static long page_size;
static int is_slqb;
static int have_stats;
static int stats_noted;

static int sort_size;
static int sort_activity;
static int sort_loss;
static int show_empty;
static int max_lines = -1;
static int show_aliases;
static int show_numa;
static int have_regex;
static regex_t pattern;

static char buf[BUF_SIZE];

static void fatal(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "slqbinfo: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAILURE);
}

static void *xmalloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		fatal("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		fatal("out of memory");
	return p;
}

static void print_help(void)
{
	printf("slqbinfo: the caches of the SLQB slab allocator\n\n"
	       "Usage: slqbinfo [-l] [-S|-A|-L] [-z] [-N LINES] [REGEX]   list caches\n"
	       "       slqbinfo -n [-S|-A|-L] [-z] [-N LINES] [REGEX]   slabs per node\n"
	       "       slqbinfo -a [REGEX]                              list aliases\n"
	       "       slqbinfo -r [REGEX]                              report caches\n"
	       "       slqbinfo -T [REGEX]                              totals\n"
	       "       slqbinfo -D [-I SECONDS] [REGEX]                 activity\n"
	       "       slqbinfo -s [REGEX]                              shrink caches\n"
	       "       slqbinfo -c CACHE hiwater=N freebatch=N          set tunables\n"
	       "\n"
	       "The letters mean what they mean to tools/vm/slabinfo (SLUB's).\n"
	       "\n"
	       "Modes (the default lists the caches with slabs, sorted by name):\n"
	       "  -l, --slabs          list the caches (the default)\n"
	       "  -a, --aliases        list the aliases (merged caches) and their cache\n"
	       "  -n, --numa           list each cache's slabs and partial slabs: on\n"
	       "                       the per-CPU lists (CPUs) and on each node's\n"
	       "                       list (N<n>, nodes with slabs only)\n"
	       "  -r, --report         every sysfs value of each matching cache (all\n"
	       "                       caches without REGEX): sizes, usage, tunables,\n"
	       "                       flags, per-CPU and per-node lists, and each\n"
	       "                       statistic with its per-CPU breakdown\n"
	       "  -T, --totals         totals over all (or the matching) caches\n"
	       "  -D, --display-activity\n"
	       "                       allocations and frees per cache from two samples\n"
	       "                       taken -I SECONDS apart: counts, rates, share of\n"
	       "                       remote and off-node operations, page allocator\n"
	       "                       traffic, and the /proc/vmstat slqb_* deltas\n"
	       "  -I, --interval SECS  the activity interval (default 1; implies -D;\n"
	       "                       0: the counts since boot, no rates)\n"
	       "  -s, --shrink         write 1 to 'shrink' of every matching cache (all\n"
	       "                       caches without REGEX): flush the per-CPU queues\n"
	       "                       and free empty slabs; prints slabs before/after\n"
	       "  -c, --tune CACHE     set the tunables of CACHE from the KEY=VALUE\n"
	       "                       arguments: hiwater=N (per-CPU freelist high\n"
	       "                       watermark, N >= 1), freebatch=N (objects moved\n"
	       "                       per flush, 1 <= N <= hiwater)\n"
	       "\n"
	       "Listing options (-l, -n):\n"
	       "  -S, --size           sort by memory used (largest first)\n"
	       "  -A, --activity       sort by allocations + frees since boot, most\n"
	       "                       active first (needs CONFIG_SLQB_STATS; also\n"
	       "                       --sort-activity)\n"
	       "  -L, --loss           sort by loss (Waste, in bytes; largest first)\n"
	       "  -z, --zero           include the caches without slabs\n"
	       "  -N, --lines N        print at most N caches\n"
	       "\n"
	       "Other options:\n"
	       "  -k, --sysfs DIR      the slab sysfs directory (default\n"
	       "                       /sys/kernel/slab; or $SLQBINFO_SYSFS)\n"
	       "  -p, --proc DIR       the proc directory, for vmstat (default /proc;\n"
	       "                       or $SLQBINFO_PROC)\n"
	       "  -h, --help           this text\n"
	       "\n"
	       "slabinfo's -d (debug), -i (inverted), -t (tracking) and -v (validate)\n"
	       "have nothing in SLQB's sysfs to act on and are refused.\n"
	       "REGEX is an extended regular expression matched anywhere in the cache\n"
	       "name or in one of its aliases ('^kmalloc-64$' for one cache).\n"
	       "List columns: Objsize (bytes asked for), Objects (in use), Total\n"
	       "(objects in all slabs), Slabs, Part (partial slabs), O (page order),\n"
	       "Obj/S (objects per slab), Space (memory in slabs), Waste (share of\n"
	       "Space not holding objects in use), Hiwat/Batch (the tunables).\n"
	       "Statistics (stat_* files) exist only with CONFIG_SLQB_STATS=y; their\n"
	       "names are those of the files.\n"
	       "Exit status: 0 on success, 1 on an error, 2 on a usage error.\n");
}

/* Read DIR/NAME/ATTR into buf; -1 if it cannot be read. */
static int read_attr(const char *name, const char *attr)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", slab_dir, name, attr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* The leading number of DIR/NAME/ATTR, or DEF if it cannot be read. */
static unsigned long get_ulong(const char *name, const char *attr,
			       unsigned long def)
{
	if (read_attr(name, attr))
		return def;
	return strtoul(buf, NULL, 10);
}

static long get_long(const char *name, const char *attr)
{
	if (read_attr(name, attr))
		return -1;
	return strtol(buf, NULL, 10);
}

/* Write VALUE to DIR/NAME/ATTR; 0, or -1 with errno set. */
static int write_attr(const char *name, const char *attr, const char *value)
{
	char path[PATH_MAX];
	size_t len = strlen(value);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", slab_dir, name, attr);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	n = write(fd, value, len);
	if (n >= 0 && (size_t)n != len) {
		errno = EIO;
		n = -1;
	}
	if (close(fd) && n >= 0)
		n = -1;
	return n < 0 ? -1 : 0;
}

static int is_file(const char *name, const char *attr)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s", slab_dir, name, attr);
	return access(path, F_OK) == 0;
}

static void note_no_stats(void)
{
	if (stats_noted)
		return;
	stats_noted = 1;
	if (!is_slqb)
		fprintf(stderr,
			"slqbinfo: note: %s is not SLQB's (no hiwater files): no SLQB statistics nor tunables\n",
			slab_dir);
	else
		fprintf(stderr,
			"slqbinfo: note: no stat_* files in %s (kernel built without CONFIG_SLQB_STATS): statistics not shown\n",
			slab_dir);
}

static void read_stats(struct cache *c)
{
	char attr[PATH_MAX];
	int i;

	if (!c->stat)
		c->stat = xmalloc((nr_stats + 1) * sizeof(*c->stat));
	c->has_stats = 0;
	for (i = 0; i < nr_stats; i++) {
		snprintf(attr, sizeof(attr), "stat_%s", stat_names[i]);
		if (read_attr(c->name, attr)) {
			c->stat[i] = 0;
			continue;
		}
		c->stat[i] = strtoul(buf, NULL, 10);
		c->has_stats = 1;
	}
}

/* Statistic K of the values V (by stat_names[]); 0 if it is absent. */
static unsigned long key(const unsigned long *v, int k)
{
	return v && key_idx[k] >= 0 ? v[key_idx[k]] : 0;
}

static int find_stat(const char *name)
{
	int i;

	for (i = 0; i < nr_stats; i++)
		if (!strcmp(stat_names[i], name))
			return i;
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* Add the stat_* files of cache NAME to stat_names[]. */
static void find_stats(const char *name)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%s", slab_dir, name);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "stat_", 5) || !de->d_name[5] ||
		    find_stat(de->d_name + 5) >= 0)
			continue;
		stat_names = realloc(stat_names,
				     (nr_stats + 1) * sizeof(*stat_names));
		if (!stat_names)
			fatal("out of memory");
		stat_names[nr_stats++] = xstrdup(de->d_name + 5);
	}
	closedir(dir);
}

static void read_cache(struct cache *c)
{
	c->object_size = get_ulong(c->name, "object_size", 0);
	c->slab_size = get_ulong(c->name, "slab_size", 0);
	c->align = get_ulong(c->name, "align", 0);
	c->objs_per_slab = get_ulong(c->name, "objs_per_slab", 0);
	c->order = get_ulong(c->name, "order", 0);
	c->objects = get_ulong(c->name, "objects", 0);
	c->slabs = get_ulong(c->name, "slabs", 0);
	c->total_objects = get_ulong(c->name, "total_objects",
				     c->slabs * c->objs_per_slab);
	c->partial = get_ulong(c->name, "partial", 0);
	c->cpu_freelist = get_ulong(c->name, "cpu_freelist", 0);
	c->cpu_rlist = get_ulong(c->name, "cpu_rlist", 0);
	c->remote_free = get_ulong(c->name, "remote_free", 0);
	c->hiwater = get_long(c->name, "hiwater");
	c->freebatch = get_long(c->name, "freebatch");
	read_stats(c);
	/* Slabs may be of two orders: their pages, where the kernel says. */
	c->space = get_ulong(c->name, "pages", c->slabs << c->order) *
		   (unsigned long)page_size;
	c->waste = c->space > c->objects * c->object_size ?
		   c->space - c->objects * c->object_size : 0;
}

static struct cache *find_cache(const char *name)
{
	int i;

	for (i = 0; i < nr_caches; i++)
		if (!strcmp(caches[i].name, name))
			return &caches[i];
	return NULL;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct cache *)a)->name,
		      ((const struct cache *)b)->name);
}

/* Read the directory: the caches, then the aliases (symlinks) onto them. */
static void read_caches(void)
{
	struct dirent *de;
	struct stat st;
	char path[PATH_MAX];
	char target[PATH_MAX];
	DIR *dir;
	int i, pass;

	dir = opendir(slab_dir);
	if (!dir)
		fatal("cannot open %s: %s (no sysfs mounted, or a kernel without CONFIG_SYSFS%s)",
		      slab_dir, strerror(errno),
		      errno == ENOENT ? " or without a slab allocator's sysfs" : "");
	for (pass = 0; pass < 2; pass++) {
		rewinddir(dir);
		while ((de = readdir(dir))) {
			struct cache *c;
			ssize_t n;
			char *base;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", slab_dir, de->d_name);
			if (lstat(path, &st))
				continue;
			if (pass == 0 && S_ISDIR(st.st_mode)) {
				caches = realloc(caches, (nr_caches + 1) * sizeof(*caches));
				if (!caches)
					fatal("out of memory");
				c = &caches[nr_caches++];
				memset(c, 0, sizeof(*c));
				c->name = xstrdup(de->d_name);
				continue;
			}
			if (pass == 0 || !S_ISLNK(st.st_mode))
				continue;
			n = readlink(path, target, sizeof(target) - 1);
			if (n < 0)
				continue;
			target[n] = '\0';
			base = strrchr(target, '/');
			base = base ? base + 1 : target;
			c = find_cache(base);
			if (!c)
				continue;
			c->alias_names = realloc(c->alias_names,
						 (c->nr_alias_names + 1) * sizeof(char *));
			if (!c->alias_names)
				fatal("out of memory");
			c->alias_names[c->nr_alias_names++] = xstrdup(de->d_name);
		}
	}
	closedir(dir);
	if (!nr_caches)
		fatal("no caches in %s", slab_dir);
	qsort(caches, nr_caches, sizeof(*caches), cmp_name);
	for (i = 0; i < nr_caches && !is_slqb; i++)
		is_slqb = is_file(caches[i].name, "hiwater");
}

static int matches(const struct cache *c)
{
	int i;

	if (!have_regex)
		return 1;
	if (!regexec(&pattern, c->name, 0, NULL, 0))
		return 1;
	for (i = 0; i < c->nr_alias_names; i++)
		if (!regexec(&pattern, c->alias_names[i], 0, NULL, 0))
			return 1;
	return 0;
}

/* Read the files of the matching caches (each read costs the kernel a walk). */
static void load_caches(void)
{
	int i;

	for (i = 0; i < nr_caches; i++)
		if (matches(&caches[i]))
			find_stats(caches[i].name);
	if (nr_stats)
		qsort(stat_names, nr_stats, sizeof(*stat_names), cmp_str);
	for (i = 0; i < NR_KEYS; i++)
		key_idx[i] = find_stat(key_names[i]);
	for (i = 0; i < nr_caches; i++) {
		if (!matches(&caches[i]))
			continue;
		read_cache(&caches[i]);
		if (caches[i].has_stats)
			have_stats = 1;
	}
}

static int count_matches(const char *what)
{
	int i, n = 0;

	for (i = 0; i < nr_caches; i++)
		n += matches(&caches[i]);
	if (!n && have_regex)
		fatal("no cache matches '%s' in %s", what, slab_dir);
	return n;
}

/* SIZE in bytes as at most 5 characters: 512, 4.0K, 120K, 1.5M, ... */
static const char *human(unsigned long size, char *out, size_t len)
{
	static const char units[] = "KMGTP";
	double v = size;
	int u = -1;

	if (size < 1024) {
		snprintf(out, len, "%lu", size);
		return out;
	}
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (v < 10)
		snprintf(out, len, "%.1f%c", v, units[u]);
	else
		snprintf(out, len, "%.0f%c", v, units[u]);
	return out;
}

static double percent(unsigned long part, unsigned long whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static void print_tunable(long v)
{
	if (v < 0)
		printf(" %5s", "-");
	else
		printf(" %5ld", v);
}

static int cmp_list(const void *a, const void *b)
{
	const struct cache *x = a, *y = b;
	unsigned long vx, vy;

	if (sort_activity) {
		vx = key(x->stat, K_ALLOC) + key(x->stat, K_FREE);
		vy = key(y->stat, K_ALLOC) + key(y->stat, K_FREE);
	} else if (sort_size) {
		vx = x->space;
		vy = y->space;
	} else if (sort_loss) {
		vx = x->waste;
		vy = y->waste;
	} else {
		return strcmp(x->name, y->name);
	}
	if (vx != vy)
		return vx < vy ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void list_aliases(void)
{
	int i, j;

	printf("%-24s %s\n", "Alias", "Cache");
	for (i = 0; i < nr_caches; i++) {
		if (!matches(&caches[i]))
			continue;
		for (j = 0; j < caches[i].nr_alias_names; j++)
			printf("%-24s %s\n", caches[i].alias_names[j], caches[i].name);
	}
}

/* Sort the caches for a listing (-l, -n). */
static void sort_caches(void)
{
	if (sort_activity && !have_stats) {
		note_no_stats();
		fprintf(stderr, "slqbinfo: no statistics to sort by activity: sorted by name\n");
		sort_activity = 0;
	}
	qsort(caches, nr_caches, sizeof(*caches), cmp_list);
}

static int listed(const struct cache *c)
{
	return matches(c) && (show_empty || c->slabs);
}

static void list_caches(void)
{
	char s1[16];
	int i, lines = 0;

	sort_caches();
	printf("%-24s %7s %9s %9s %7s %6s %2s %5s %6s %6s %5s %5s\n",
	       "Name", "Objsize", "Objects", "Total", "Slabs", "Part", "O",
	       "Obj/S", "Space", "Waste", "Hiwat", "Batch");
	for (i = 0; i < nr_caches; i++) {
		struct cache *c = &caches[i];

		if (!listed(c))
			continue;
		if (max_lines >= 0 && lines >= max_lines)
			break;
		lines++;
		printf("%-24s %7lu %9lu %9lu %7lu %6lu %2lu %5lu %6s %5.1f%%",
		       c->name, c->object_size, c->objects, c->total_objects,
		       c->slabs, c->partial, c->order, c->objs_per_slab,
		       human(c->space, s1, sizeof(s1)),
		       percent(c->waste, c->space));
		print_tunable(c->hiwater);
		print_tunable(c->freebatch);
		putchar('\n');
	}
}

/* A breakdown "TOTAL C0=a C1=b N0=x": its total and entries. */
struct breakdown {
	int valid;
	unsigned long total;
	unsigned long *cpu, *node;	/* MAX_IDS each, 0 when omitted */
	char *raw;
};

static void parse_breakdown(struct breakdown *b, const char *s)
{
	const char *p = s;
	char *end;

	b->valid = 1;
	b->raw = xstrdup(s);
	b->cpu = xmalloc(MAX_IDS * sizeof(*b->cpu));
	b->node = xmalloc(MAX_IDS * sizeof(*b->node));
	b->total = strtoul(p, &end, 10);
	p = end;
	while (*p) {
		unsigned long id, v;
		char kind;

		while (*p == ' ' || *p == '\n')
			p++;
		kind = *p;
		if (kind != 'C' && kind != 'N') {
			while (*p && *p != ' ')
				p++;
			continue;
		}
		id = strtoul(p + 1, &end, 10);
		if (*end != '=' || id >= MAX_IDS) {
			p = end;
			continue;
		}
		v = strtoul(end + 1, &end, 10);
		p = end;
		if (kind == 'C')
			b->cpu[id] = v;
		else
			b->node[id] = v;
	}
}

static void free_breakdown(struct breakdown *b)
{
	free(b->raw);
	free(b->cpu);
	free(b->node);
	b->valid = 0;
}

/*
 * -n: the slabs and partial slabs of each listed cache, on the per-CPU
 * lists (the sum of the C<n> entries) and on each node's list (N<n>).
 */
static void list_numa(void)
{
	static const char * const kinds[] = { "slabs", "partial" };
	struct breakdown *b = xmalloc(2 * nr_caches * sizeof(*b));
	static char node_used[MAX_IDS];
	int i, k, id, nodes = 0, lines = 0;

	sort_caches();
	memset(node_used, 0, sizeof(node_used));
	for (i = 0; i < nr_caches; i++) {
		if (!listed(&caches[i]))
			continue;
		if (max_lines >= 0 && lines >= max_lines)
			break;
		lines++;
		for (k = 0; k < 2; k++) {
			if (read_attr(caches[i].name, kinds[k]))
				continue;
			parse_breakdown(&b[2 * i + k], buf);
			for (id = 0; id < MAX_IDS; id++) {
				if (b[2 * i + k].node[id] && !node_used[id]) {
					node_used[id] = 1;
					nodes++;
				}
			}
		}
	}
	printf("%-24s %-7s %9s %9s", "Name", "Kind", "Total", "CPUs");
	if (nodes <= MAX_TABLE_COLS) {
		for (id = 0; id < MAX_IDS; id++)
			if (node_used[id])
				printf(" %8s%d", "N", id);
	} else {
		printf("  per node (N<n>=)");
	}
	putchar('\n');
	for (i = 0; i < 2 * nr_caches; i++) {
		unsigned long cpus = 0;

		if (!b[i].valid)
			continue;
		for (id = 0; id < MAX_IDS; id++)
			cpus += b[i].cpu[id];
		printf("%-24s %-7s %9lu %9lu", caches[i / 2].name, kinds[i % 2],
		       b[i].total, cpus);
		for (id = 0; id < MAX_IDS; id++) {
			if (nodes > MAX_TABLE_COLS) {
				if (b[i].node[id])
					printf(" N%d=%lu", id, b[i].node[id]);
			} else if (node_used[id]) {
				printf(" %9lu", b[i].node[id]);
			}
		}
		putchar('\n');
		free_breakdown(&b[i]);
	}
	free(b);
}

/* Print rows NAMES of cache C as a table: Total, then C<n>, then N<n>. */
static void print_table(const char *title, const char *name,
			const char * const *files, const char * const *labels,
			int nr)
{
	struct breakdown *b = xmalloc(nr * sizeof(*b));
	static char cols_cpu[MAX_IDS], cols_node[MAX_IDS];
	int i, id, ncols = 0, any = 0;

	memset(cols_cpu, 0, sizeof(cols_cpu));
	memset(cols_node, 0, sizeof(cols_node));
	for (i = 0; i < nr; i++) {
		if (read_attr(name, files[i]))
			continue;
		parse_breakdown(&b[i], buf);
		any = 1;
		for (id = 0; id < MAX_IDS; id++) {
			if (b[i].cpu[id] && !cols_cpu[id]) {
				cols_cpu[id] = 1;
				ncols++;
			}
			if (b[i].node[id] && !cols_node[id]) {
				cols_node[id] = 1;
				ncols++;
			}
		}
	}
	if (!any)
		goto out;
	printf("\n  %-28s %10s", title, "Total");
	if (ncols <= MAX_TABLE_COLS) {
		for (id = 0; id < MAX_IDS; id++)
			if (cols_cpu[id])
				printf(" %8s%d", "C", id);
		for (id = 0; id < MAX_IDS; id++)
			if (cols_node[id])
				printf(" %8s%d", "N", id);
	} else {
		printf("  per CPU (C<n>=) and per node (N<n>=)");
	}
	putchar('\n');
	for (i = 0; i < nr; i++) {
		if (!b[i].valid)
			continue;
		printf("  %-28s %10lu", labels[i], b[i].total);
		if (ncols > MAX_TABLE_COLS) {
			const char *rest = strchr(b[i].raw, ' ');

			printf(" %s\n", rest ? rest + 1 : "");
			continue;
		}
		for (id = 0; id < MAX_IDS; id++)
			if (cols_cpu[id])
				printf(" %9lu", b[i].cpu[id]);
		for (id = 0; id < MAX_IDS; id++)
			if (cols_node[id])
				printf(" %9lu", b[i].node[id]);
		putchar('\n');
	}
out:
	for (i = 0; i < nr; i++)
		if (b[i].valid)
			free_breakdown(&b[i]);
	free(b);
}

static int is_known(const char *attr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known_files); i++)
		if (!strcmp(attr, known_files[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(list_files); i++)
		if (!strcmp(attr, list_files[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(flag_files); i++)
		if (!strcmp(attr, flag_files[i]))
			return 1;
	return !strncmp(attr, "stat_", 5);
}

/* Every readable file of the cache not shown in another section. */
static void report_other_files(const struct cache *c)
{
	char path[PATH_MAX];
	struct dirent *de;
	char **names = NULL;
	int i, n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%s", slab_dir, c->name);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || is_known(de->d_name))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names)
			fatal("out of memory");
		names[n++] = xstrdup(de->d_name);
	}
	closedir(dir);
	if (!n)
		return;
	qsort(names, n, sizeof(*names), cmp_str);
	printf("\n  Other files\n");
	for (i = 0; i < n; i++) {
		if (!read_attr(c->name, names[i]))
			printf("  %-28s %s\n", names[i], buf);
		free(names[i]);
	}
	free(names);
}

static void report_cache(const struct cache *c)
{
	char s1[16], s2[16];
	char **files;
	int i, n;

	printf("%s: %s cache, %s/%s\n", c->name, is_slqb ? "SLQB" : "slab",
	       slab_dir, c->name);
	if (c->nr_alias_names) {
		printf("  aliases (%d):", c->nr_alias_names);
		for (i = 0; i < c->nr_alias_names; i++)
			printf(" %s", c->alias_names[i]);
		putchar('\n');
	} else if (get_ulong(c->name, "aliases", 0)) {
		printf("  aliases: %lu\n", get_ulong(c->name, "aliases", 0));
	}
	printf("  %-28s %lu\n", "object_size", c->object_size);
	printf("  %-28s %lu\n", "slab_size", c->slab_size);
	printf("  %-28s %lu\n", "align", c->align);
	printf("  %-28s %lu\n", "objs_per_slab", c->objs_per_slab);
	printf("  %-28s %lu (%lu bytes per slab)\n", "order", c->order,
	       (unsigned long)page_size << c->order);
	printf("  %-28s %lu (%.1f%% of total_objects)\n", "objects",
	       c->objects, percent(c->objects, c->total_objects));
	printf("  %-28s %lu\n", "total_objects", c->total_objects);
	printf("  %-28s %s in slabs, %s not holding objects in use (%.1f%%)\n",
	       "space", human(c->space, s1, sizeof(s1)),
	       human(c->waste, s2, sizeof(s2)), percent(c->waste, c->space));
	if (c->hiwater >= 0)
		printf("  %-28s %ld\n", "hiwater", c->hiwater);
	if (c->freebatch >= 0)
		printf("  %-28s %ld\n", "freebatch", c->freebatch);
	printf("  %-28s", "flags");
	for (i = 0, n = 0; i < (int)ARRAY_SIZE(flag_files); i++) {
		if (get_ulong(c->name, flag_files[i], 0)) {
			printf(" %s", flag_files[i]);
			n++;
		}
	}
	printf("%s\n", n ? "" : " (none)");
	if (!read_attr(c->name, "ctor"))
		printf("  %-28s %s\n", "ctor", buf[0] ? buf : "(none)");

	print_table("Lists", c->name, list_files, list_files,
		    ARRAY_SIZE(list_files));

	if (!c->has_stats) {
		note_no_stats();
	} else {
		files = xmalloc(nr_stats * sizeof(*files));
		for (i = 0; i < nr_stats; i++) {
			snprintf(buf, sizeof(buf), "stat_%s", stat_names[i]);
			files[i] = xstrdup(buf);
		}
		print_table("Statistics", c->name,
			    (const char * const *)files,
			    (const char * const *)files, nr_stats);
		for (i = 0; i < nr_stats; i++)
			free(files[i]);
		free(files);
		printf("\n  %-28s %.1f%% of allocations\n", "from a slab page",
		       percent(key(c->stat, K_ALLOC_FROM_PAGE),
			       key(c->stat, K_ALLOC)));
		printf("  %-28s %.1f%% of allocations\n", "off-node",
		       percent(key(c->stat, K_OFFNODE_ALLOC),
			       key(c->stat, K_ALLOC)));
		printf("  %-28s %.1f%% of frees\n", "remote",
		       percent(key(c->stat, K_REMOTE_FREE), key(c->stat, K_FREE)));
		printf("  %-28s %.1f%% of frees\n", "off-node",
		       percent(key(c->stat, K_OFFNODE_FREE), key(c->stat, K_FREE)));
		printf("  %-28s %lu allocated, %lu freed\n", "slab pages",
		       key(c->stat, K_PAGE_ALLOC), key(c->stat, K_PAGE_FREE));
	}
	report_other_files(c);
}

static void report(void)
{
	int i, first = 1;

	for (i = 0; i < nr_caches; i++) {
		if (!matches(&caches[i]))
			continue;
		if (!first)
			putchar('\n');
		first = 0;
		report_cache(&caches[i]);
	}
}

static void totals(void)
{
	struct cache *big = NULL, *most = NULL, *worst = NULL;
	unsigned long objects = 0, total_objects = 0, slabs = 0, partial = 0;
	unsigned long space = 0, waste = 0, used = 0, queued = 0;
	unsigned long fl = 0, rl = 0, rf = 0;
	unsigned long *st = xmalloc((nr_stats + 1) * sizeof(*st));
	int i, j, n = 0, active = 0, aliases = 0, stats = 0;
	char s1[16], s2[16], s3[16];

	for (i = 0; i < nr_caches; i++) {
		struct cache *c = &caches[i];

		if (!matches(c))
			continue;
		n++;
		aliases += c->nr_alias_names;
		active += c->slabs != 0;
		objects += c->objects;
		total_objects += c->total_objects;
		slabs += c->slabs;
		partial += c->partial;
		space += c->space;
		waste += c->waste;
		used += c->objects * c->object_size;
		fl += c->cpu_freelist;
		rl += c->cpu_rlist;
		rf += c->remote_free;
		if (c->has_stats) {
			stats++;
			for (j = 0; j < nr_stats; j++)
				st[j] += c->stat[j];
		}
		if (!big || c->space > big->space)
			big = c;
		if (!most || c->objects > most->objects)
			most = c;
		if (!worst || c->waste > worst->waste)
			worst = c;
	}
	queued = fl + rl + rf;
	printf("Slab caches: %d (%d with slabs), %d aliases, %s%s\n", n, active,
	       aliases, is_slqb ? "SLQB" : "not SLQB", have_regex ? " (matching)" : "");
	printf("Memory in slabs: %s, in objects in use %s, waste %s (%.1f%%)\n",
	       human(space, s1, sizeof(s1)), human(used, s2, sizeof(s2)),
	       human(waste, s3, sizeof(s3)), percent(waste, space));
	printf("Objects: %lu in use of %lu (%.1f%%), %lu in per-CPU queues ",
	       objects, total_objects, percent(objects, total_objects), queued);
	printf("(freelist %lu, rlist %lu, remote_free %lu)\n", fl, rl, rf);
	printf("Slabs: %lu, %lu partial (%.1f%%)\n", slabs, partial,
	       percent(partial, slabs));
	if (big)
		printf("Largest cache: %s (%s), most objects: %s (%lu), most waste: %s (%s)\n",
		       big->name, human(big->space, s1, sizeof(s1)), most->name,
		       most->objects, worst->name,
		       human(worst->waste, s2, sizeof(s2)));
	if (!stats) {
		note_no_stats();
		free(st);
		return;
	}
	printf("Statistics since boot (%d caches):\n", stats);
	for (j = 0; j < nr_stats; j++)
		printf("  %-28s %lu\n", stat_names[j], st[j]);
	printf("  remote frees %.1f%% of frees, off-node allocations %.1f%% of allocations\n",
	       percent(key(st, K_REMOTE_FREE), key(st, K_FREE)),
	       percent(key(st, K_OFFNODE_ALLOC), key(st, K_ALLOC)));
	free(st);
}

/* The slqb_* lines of /proc/vmstat, names without "slqb_", in its order. */
struct vmstat {
	int n;
	char **name;
	unsigned long *val;
};

static void read_vmstat(struct vmstat *vm)
{
	char path[PATH_MAX], name[64];
	unsigned long v;
	FILE *f;

	memset(vm, 0, sizeof(*vm));
	snprintf(path, sizeof(path), "%s/vmstat", proc_dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%63s %lu", name, &v) == 2) {
		if (strncmp(name, "slqb_", 5))
			continue;
		vm->name = realloc(vm->name, (vm->n + 1) * sizeof(*vm->name));
		vm->val = realloc(vm->val, (vm->n + 1) * sizeof(*vm->val));
		if (!vm->name || !vm->val)
			fatal("out of memory");
		vm->name[vm->n] = xstrdup(name + 5);
		vm->val[vm->n++] = v;
	}
	fclose(f);
}

/* The /proc/vmstat count slqb_NAME; 0 if there is none. */
static unsigned long vm_get(const struct vmstat *vm, const char *name)
{
	int i;

	for (i = 0; i < vm->n; i++)
		if (!strcmp(vm->name[i], name))
			return vm->val[i];
	return 0;
}

static void free_vmstat(struct vmstat *vm)
{
	int i;

	for (i = 0; i < vm->n; i++)
		free(vm->name[i]);
	free(vm->name);
	free(vm->val);
	memset(vm, 0, sizeof(*vm));
}

struct sample {
	unsigned long *stat;	/* nr_stats */
	unsigned long objects, slabs;
};

static struct sample *new_samples(void)
{
	struct sample *s = xmalloc(nr_caches * sizeof(*s));
	unsigned long *st = xmalloc((nr_caches * nr_stats + 1) * sizeof(*st));
	int i;

	for (i = 0; i < nr_caches; i++)
		s[i].stat = st + i * nr_stats;
	return s;
}

static void free_samples(struct sample *s)
{
	free(s[0].stat);
	free(s);
}

static void take_sample(struct sample *s)
{
	int i;

	for (i = 0; i < nr_caches; i++) {
		struct cache *c = &caches[i];

		if (!matches(c))
			continue;
		read_stats(c);
		s[i].objects = get_ulong(c->name, "objects", 0);
		s[i].slabs = get_ulong(c->name, "slabs", 0);
		memcpy(s[i].stat, c->stat, nr_stats * sizeof(*s[i].stat));
	}
}

struct delta {
	struct cache *c;
	unsigned long *d;	/* nr_stats */
	long dobjects, dslabs;
};

static int cmp_delta(const void *a, const void *b)
{
	const struct delta *x = a, *y = b;
	unsigned long vx = key(x->d, K_ALLOC) + key(x->d, K_FREE);
	unsigned long vy = key(y->d, K_ALLOC) + key(y->d, K_FREE);

	if (vx != vy)
		return vx < vy ? 1 : -1;
	if (labs(x->dobjects) != labs(y->dobjects))
		return labs(x->dobjects) < labs(y->dobjects) ? 1 : -1;
	return strcmp(x->c->name, y->c->name);
}

static void print_rate(unsigned long v, int secs)
{
	if (secs)
		printf(" %9.0f", (double)v / secs);
	else
		printf(" %9s", "-");
}

/* The statistics columns of -D: counts, rates, shares, page traffic. */
static void print_activity(const char *name, const unsigned long *v, int secs)
{
	printf("%-24s %10lu %10lu", name, key(v, K_ALLOC), key(v, K_FREE));
	print_rate(key(v, K_ALLOC), secs);
	print_rate(key(v, K_FREE), secs);
	printf(" %6.1f%% %6.1f%% %7lu %7lu",
	       percent(key(v, K_REMOTE_FREE), key(v, K_FREE)),
	       percent(key(v, K_OFFNODE_ALLOC), key(v, K_ALLOC)),
	       key(v, K_PAGE_ALLOC), key(v, K_PAGE_FREE));
}

static void print_vmstat(const struct vmstat *v0, const struct vmstat *v1,
			 int secs)
{
	unsigned long d[NR_KEYS];
	int j;

	if (!v1->n) {
		printf("%s/vmstat: no slqb_* counters\n", proc_dir);
		return;
	}
	printf("\n%-36s %10s %9s\n", "/proc/vmstat (all caches)", "Count",
	       "Per s");
	for (j = 0; j < v1->n; j++) {
		unsigned long v = v1->val[j] - vm_get(v0, v1->name[j]);

		printf("  slqb_%-29s %10lu", v1->name[j], v);
		print_rate(v, secs);
		putchar('\n');
	}
	for (j = 0; j < NR_KEYS; j++)
		d[j] = vm_get(v1, key_names[j]) - vm_get(v0, key_names[j]);
	printf("  remote frees %.1f%% of frees, %lu slab pages allocated, %lu freed\n",
	       percent(d[K_REMOTE_FREE], d[K_FREE]), d[K_PAGE_ALLOC],
	       d[K_PAGE_FREE]);
}

static void activity(int secs)
{
	struct sample *s0 = new_samples();
	struct sample *s1 = new_samples();
	struct delta *d = xmalloc(nr_caches * sizeof(*d));
	unsigned long *dd = xmalloc((nr_caches * nr_stats + 1) * sizeof(*dd));
	unsigned long *sum = xmalloc((nr_stats + 1) * sizeof(*sum));
	struct vmstat v0, v1;
	int i, j, n = 0, shown = 0;

	/* -I 0: the counts since boot, against an all-zero first sample */
	memset(&v0, 0, sizeof(v0));
	if (secs) {
		read_vmstat(&v0);
		take_sample(s0);
		sleep(secs);
	}
	read_vmstat(&v1);
	take_sample(s1);
	if (!secs) {
		for (i = 0; i < nr_caches; i++) {
			s0[i].objects = s1[i].objects;
			s0[i].slabs = s1[i].slabs;
		}
	}

	for (i = 0; i < nr_caches; i++) {
		if (!matches(&caches[i]))
			continue;
		d[n].c = &caches[i];
		d[n].d = dd + n * nr_stats;
		for (j = 0; j < nr_stats; j++) {
			d[n].d[j] = s1[i].stat[j] - s0[i].stat[j];
			sum[j] += d[n].d[j];
		}
		d[n].dobjects = (long)(s1[i].objects - s0[i].objects);
		d[n].dslabs = (long)(s1[i].slabs - s0[i].slabs);
		n++;
	}
	qsort(d, n, sizeof(*d), cmp_delta);

	if (secs)
		printf("Activity over %d s%s\n", secs, have_regex ? " (matching caches)" : "");
	else
		printf("Activity since boot%s\n", have_regex ? " (matching caches)" : "");
	if (have_stats) {
		printf("%-24s %10s %10s %9s %9s %7s %7s %7s %7s %7s\n", "Name",
		       "Allocs", "Frees", "Alloc/s", "Free/s", "Remote%",
		       "Offnod%", "PgAlloc", "PgFree", "dObjs");
		for (i = 0; i < n; i++) {
			const unsigned long *v = d[i].d;

			if (!key(v, K_ALLOC) && !key(v, K_FREE) && !d[i].dobjects)
				continue;
			if (max_lines >= 0 && shown >= max_lines)
				break;
			shown++;
			print_activity(d[i].c->name, v, secs);
			if (secs)
				printf(" %7ld\n", d[i].dobjects);
			else
				printf(" %7s\n", "-");
		}
		print_activity("(all)", sum, secs);
		putchar('\n');
	} else {
		note_no_stats();
		if (secs) {
			printf("%-24s %10s %10s\n", "Name", "dObjects", "dSlabs");
			for (i = 0; i < n; i++) {
				if (!d[i].dobjects && !d[i].dslabs)
					continue;
				if (max_lines >= 0 && shown >= max_lines)
					break;
				shown++;
				printf("%-24s %10ld %10ld\n", d[i].c->name,
				       d[i].dobjects, d[i].dslabs);
			}
			if (!shown)
				printf("(no cache changed its objects or slabs)\n");
		}
	}

	print_vmstat(&v0, &v1, secs);
	free_vmstat(&v0);
	free_vmstat(&v1);
	free_samples(s0);
	free_samples(s1);
	free(dd);
	free(sum);
	free(d);
}

static int shrink_caches(void)
{
	int i, errors = 0;

	for (i = 0; i < nr_caches; i++) {
		struct cache *c = &caches[i];
		unsigned long before = c->slabs;

		if (!matches(c))
			continue;
		if (write_attr(c->name, "shrink", "1")) {
			fprintf(stderr, "slqbinfo: %s: shrink failed: %s\n",
				c->name, strerror(errno));
			errors++;
			continue;
		}
		read_cache(c);
		printf("%-24s slabs %lu -> %lu, objects %lu\n", c->name,
		       before, c->slabs, c->objects);
	}
	return errors ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* A tunable value: decimal digits only, 1 .. INT_MAX; else -1. */
static long parse_tunable(const char *s)
{
	unsigned long v;
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || v < 1 || v > INT_MAX)
		return -1;
	return (long)v;
}

static int set_one(struct cache *c, const char *attr, long old, long v)
{
	char val[32];

	if (v < 0 || v == old)
		return 0;
	snprintf(val, sizeof(val), "%ld\n", v);
	if (write_attr(c->name, attr, val)) {
		fprintf(stderr, "slqbinfo: %s: writing %s=%ld: %s\n", c->name,
			attr, v, strerror(errno));
		return -1;
	}
	return 0;
}

static int tune(const char *name, int argc, char **argv)
{
	long hiwater = -1, freebatch = -1, hw, fb;
	struct cache *c = find_cache(name);
	int i, err;

	if (!c) {
		for (i = 0; i < nr_caches && !c; i++) {
			int j;

			for (j = 0; j < caches[i].nr_alias_names; j++)
				if (!strcmp(caches[i].alias_names[j], name))
					c = &caches[i];
		}
	}
	if (!c)
		fatal("no cache '%s' in %s", name, slab_dir);
	read_cache(c);
	if (!argc)
		fatal("-c %s: nothing to set (give hiwater=N and/or freebatch=N)", name);
	if (c->hiwater < 0 || c->freebatch < 0)
		fatal("%s: no hiwater/freebatch files in %s/%s (not SLQB)", name,
		      slab_dir, c->name);
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		long v;

		if (!eq)
			fatal("'%s': expected hiwater=N or freebatch=N", argv[i]);
		v = parse_tunable(eq + 1);
		if (v < 0)
			fatal("'%s': the value must be an integer from 1 to %d",
			      argv[i], INT_MAX);
		if (!strncmp(argv[i], "hiwater=", 8))
			hiwater = v;
		else if (!strncmp(argv[i], "freebatch=", 10))
			freebatch = v;
		else
			fatal("'%s': unknown tunable (hiwater, freebatch)", argv[i]);
	}
	hw = hiwater >= 0 ? hiwater : c->hiwater;
	fb = freebatch >= 0 ? freebatch : c->freebatch;
	if (fb > hw)
		fatal("%s: freebatch %ld above hiwater %ld: freebatch must be <= hiwater",
		      c->name, fb, hw);
	/* Each write must be valid on its own: lower freebatch first. */
	if (hw < c->freebatch) {
		err = set_one(c, "freebatch", c->freebatch, freebatch);
		err = err ?: set_one(c, "hiwater", c->hiwater, hiwater);
	} else {
		err = set_one(c, "hiwater", c->hiwater, hiwater);
		err = err ?: set_one(c, "freebatch", c->freebatch, freebatch);
	}
	hw = c->hiwater;
	fb = c->freebatch;
	read_cache(c);
	printf("%s: hiwater %ld -> %ld, freebatch %ld -> %ld\n", c->name, hw,
	       c->hiwater, fb, c->freebatch);
	return err ? EXIT_FAILURE : EXIT_SUCCESS;
}

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "slqbinfo: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (slqbinfo -h for help)\n");
	exit(2);
}

/*
 * slabinfo's letters for what SLQB's sysfs has nothing to act on: refused,
 * rather than taken for something else.
 */
static const struct {
	int letter;
	const char *what;	/* what it does in slabinfo, why not here */
	const char *hint;	/* where the former slqbinfo -LETTER went */
} not_slqb[] = {
	{ 'd', "switches debug options at run time; SLQB's are set at boot (slqb_debug=)",
	  ". The sysfs directory is -k DIR" },
	{ 'i', "inverts the list", ". The activity interval is -I SECS" },
	{ 't', "shows the alloc/free traces; SLQB exports none",
	  ". Tunables are set with -c CACHE" },
	{ 'v', "validates the slabs; SLQB has no validate file", "" },
};

static void refuse(int letter)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(not_slqb); i++) {
		if (not_slqb[i].letter != letter)
			continue;
		fprintf(stderr, "slqbinfo: -%c: slabinfo's -%c %s%s (slqbinfo -h for help)\n",
			letter, letter, not_slqb[i].what, not_slqb[i].hint);
		exit(2);
	}
	usage_error("%s", "unknown option or missing argument");
}

static const struct option opts[] = {
	{ "aliases",		no_argument,		NULL, 'a' },
	{ "activity",		no_argument,		NULL, 'A' },
	{ "sort-activity",	no_argument,		NULL, 'A' },
	{ "tune",		required_argument,	NULL, 'c' },
	{ "display-activity",	no_argument,		NULL, 'D' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "interval",		required_argument,	NULL, 'I' },
	{ "sysfs",		required_argument,	NULL, 'k' },
	{ "slabs",		no_argument,		NULL, 'l' },
	{ "loss",		no_argument,		NULL, 'L' },
	{ "numa",		no_argument,		NULL, 'n' },
	{ "lines",		required_argument,	NULL, 'N' },
	{ "proc",		required_argument,	NULL, 'p' },
	{ "report",		no_argument,		NULL, 'r' },
	{ "shrink",		no_argument,		NULL, 's' },
	{ "size",		no_argument,		NULL, 'S' },
	{ "totals",		no_argument,		NULL, 'T' },
	{ "zero",		no_argument,		NULL, 'z' },
	{ NULL,			0,			NULL, 0 }
};

int main(int argc, char *argv[])
{
	const char *regex = NULL, *tune_name = NULL, *env;
	int show_report = 0, show_totals = 0, show_activity = 0, do_shrink = 0;
	int interval = 1, modes, c, err;
	char *end;

	env = getenv("SLQBINFO_SYSFS");
	if (env && *env)
		slab_dir = env;
	env = getenv("SLQBINFO_PROC");
	if (env && *env)
		proc_dir = env;
	page_size = sysconf(_SC_PAGESIZE);

	while ((c = getopt_long(argc, argv, "aAc:DhI:k:lLnN:p:rsSTzditv", opts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			show_aliases = 1;
			break;
		case 'A':
			sort_activity = 1;
			break;
		case 'c':
			tune_name = optarg;
			break;
		case 'D':
			show_activity = 1;
			break;
		case 'h':
			print_help();
			return EXIT_SUCCESS;
		case 'I':
			interval = strtol(optarg, &end, 10);
			if (*end || !*optarg || interval < 0 || interval > 86400)
				usage_error("-I '%s': expected seconds, 0 to 86400", optarg);
			show_activity = 1;
			break;
		case 'k':
			slab_dir = optarg;
			break;
		case 'l':
			break;
		case 'L':
			sort_loss = 1;
			break;
		case 'n':
			show_numa = 1;
			break;
		case 'N':
			max_lines = strtol(optarg, &end, 10);
			if (*end || !*optarg || max_lines < 0)
				usage_error("-N '%s': expected a number of lines", optarg);
			break;
		case 'p':
			proc_dir = optarg;
			break;
		case 'r':
			show_report = 1;
			break;
		case 's':
			do_shrink = 1;
			break;
		case 'S':
			sort_size = 1;
			break;
		case 'T':
			show_totals = 1;
			break;
		case 'z':
			show_empty = 1;
			break;
		default:
			refuse(c);
		}
	}
	modes = show_report + show_totals + show_activity + do_shrink + !!tune_name;
	if (modes > 1)
		usage_error("%s", "-r, -T, -D, -s and -c cannot be combined");
	if (sort_size + sort_activity + sort_loss > 1)
		usage_error("%s", "-S, -A and -L cannot be combined");
	if (!tune_name && optind < argc) {
		if (optind + 1 < argc)
			usage_error("unexpected argument '%s'", argv[optind + 1]);
		regex = argv[optind++];
	}
	if (regex) {
		err = regcomp(&pattern, regex, REG_EXTENDED | REG_NOSUB);
		if (err) {
			regerror(err, &pattern, buf, sizeof(buf));
			usage_error("bad regular expression: %s", buf);
		}
		have_regex = 1;
	}

	read_caches();
	if (tune_name)
		return tune(tune_name, argc - optind, argv + optind);
	count_matches(regex);
	load_caches();
	if (do_shrink)
		return shrink_caches();
	if (show_report)
		report();
	else if (show_totals)
		totals();
	else if (show_activity)
		activity(interval);
	else if (show_aliases)
		list_aliases();
	else if (show_numa)
		list_numa();
	else
		list_caches();
	if (fflush(stdout) || ferror(stdout))
		fatal("writing the output: %s", strerror(errno));
	return EXIT_SUCCESS;
}
