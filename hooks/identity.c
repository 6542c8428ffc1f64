/* Program identity (policy rule 8): what a program in a folder the sandbox
 * can write really is. A copy of rm named cleanup, or a copy of rm named
 * ls put first on PATH, is rm; a script is its #! line's interpreter. The
 * system's programs are indexed by size once, on the first program found
 * in a writable folder; a candidate is read only when its size is that of
 * a system program, and what it was found to be is kept by inode. */
#include "hooks/identity.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/project.h"
#include "lib/util.h"

#define ID_CACHE_MAX 64
#define ID_BLOCK 4096
#define ID_CHUNK ((size_t)64 * 1024)
/* What the kernel reads of a #! line (BINPRM_BUF_SIZE). */
#define ID_HEAD 256
/* A file bigger than this is compared with nothing: no system tool is. */
#define ID_COMPARE_MAX ((off_t)512 << 20)

struct sys_program {
	off_t size;
	dev_t dev;
	ino_t ino;
	bool link; /* reached through a symlink of the folder */
	char *path;
};

struct id_cached {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	struct program_identity id;
};

struct program_ids {
	char **folders; /* as given; NULL: the defaults */
	char **roots;   /* resolved, on first need */
	bool roots_ready;
	struct sys_program *sys; /* by size, then inode */
	size_t nsys;
	bool sys_ready;
	struct id_cached cache[ID_CACHE_MAX];
	size_t ncache, next;
	bool (*known)(const char *name); /* the system programs worth indexing */
	char *path_value;   /* the last PATH searched */
	bool path_writable; /* a folder of it is writable, or relative */
};

struct program_ids *program_ids_create(bool (*known)(const char *name))
{
	struct program_ids *ids = xcalloc(1, sizeof *ids);
	ids->known = known;
	return ids;
}

static void sys_free(struct program_ids *ids)
{
	for (size_t i = 0; i < ids->nsys; i++)
		free(ids->sys[i].path);
	free(ids->sys);
	ids->sys = NULL;
	ids->nsys = 0;
	ids->sys_ready = false;
}

void program_identity_free(struct program_identity *id)
{
	strv_free(id->copy_of);
	free(id->shebang);
	memset(id, 0, sizeof *id);
}

static void forget_folders(struct program_ids *ids)
{
	strv_free(ids->roots);
	ids->roots = NULL;
	ids->roots_ready = false;
	free(ids->path_value);
	ids->path_value = NULL;
	for (size_t i = 0; i < ids->ncache; i++)
		program_identity_free(&ids->cache[i].id);
	ids->ncache = ids->next = 0;
	sys_free(ids); /* it leaves out the writable folders */
}

void program_ids_destroy(struct program_ids *ids)
{
	if (!ids)
		return;
	forget_folders(ids);
	strv_free(ids->folders);
	free(ids);
}

void program_ids_set_writable(struct program_ids *ids, char *const *folders)
{
	forget_folders(ids);
	strv_free(ids->folders);
	ids->folders = folders ? strv_copy(folders) : NULL;
}

static void add_root(struct strvec *roots, const char *path)
{
	if (!path || path[0] != '/')
		return;
	char *real = realpath(path, NULL);
	if (real && strcmp(real, "/") != 0)
		strvec_push_owned(roots, real);
	else
		free(real);
}

static char *const *writable_roots(struct program_ids *ids)
{
	if (ids->roots_ready)
		return ids->roots;
	struct strvec r;
	strvec_init(&r);
	if (ids->folders) {
		for (char *const *f = ids->folders; *f; f++)
			add_root(&r, *f);
	} else {
		/* What sandbox/writable.c grants, for a shell without a sandbox
		 * (--classify, --no-sandbox): the agent can write there too. */
		char cwd[PATH_MAX];
		char *top = getcwd(cwd, sizeof cwd) ? project_top(cwd) : NULL;
		add_root(&r, top);
		free(top);
		add_root(&r, getenv("TMPDIR"));
		add_root(&r, "/tmp");
		add_root(&r, "/var/tmp");
		add_root(&r, "/dev/shm");
		const char *xdg = getenv("XDG_CACHE_HOME");
		const char *home = getenv("HOME");
		char *caches = xdg && xdg[0] == '/' ? xasprintf("%s/sbsh/sandbox-caches", xdg)
		               : home && *home     ? xasprintf("%s/.cache/sbsh/sandbox-caches", home)
		                                   : NULL;
		add_root(&r, caches);
		free(caches);
	}
	ids->roots = strvec_detach(&r);
	ids->roots_ready = true;
	return ids->roots;
}

static bool inside(const char *real, const char *root)
{
	size_t n = strlen(root);
	return strncmp(real, root, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

static bool inside_roots(struct program_ids *ids, const char *real)
{
	for (char *const *r = writable_roots(ids); r && *r; r++)
		if (inside(real, *r))
			return true;
	return false;
}

/* ---- the system's programs ------------------------------------------- */

static int sys_by_inode(const void *a, const void *b)
{
	const struct sys_program *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (int)x->link - (int)y->link; /* the file's own name first */
}

static int sys_by_size(const void *a, const void *b)
{
	const struct sys_program *x = a, *y = b;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return sys_by_inode(a, b);
}

static void index_folder(struct program_ids *ids, const char *dir, size_t *cap)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || e->d_type == DT_DIR || (ids->known && !ids->known(e->d_name)))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode) || !(st.st_mode & 0111) ||
		    st.st_size <= 0 || st.st_size > ID_COMPARE_MAX)
			continue;
		if (ids->nsys == *cap) {
			*cap = *cap ? *cap * 2 : 1024;
			ids->sys = xreallocarray(ids->sys, *cap, sizeof *ids->sys);
		}
		ids->sys[ids->nsys++] = (struct sys_program){.size = st.st_size, .dev = st.st_dev, .ino = st.st_ino,
		                                             .link = e->d_type == DT_LNK,
		                                             .path = xasprintf("%s/%s", dir, e->d_name)};
	}
	closedir(d);
}

/* The system's bin folders and the human's PATH (as sbsh found it), less
 * what the sandbox can write: the programs a copy could be of. */
static void index_system(struct program_ids *ids)
{
	if (ids->sys_ready)
		return;
	ids->sys_ready = true;
	static const char fixed[] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:/usr/local/games";
	const char *env_path = getenv("PATH");
	char *all = xasprintf("%s:%s", fixed, env_path ? env_path : "");
	struct stat seen[64];
	size_t nseen = 0, cap = 0;
	char *save = NULL;
	for (char *dir = strtok_r(all, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;
		if (dir[0] != '/' || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		bool dup = false;
		for (size_t i = 0; i < nseen && !dup; i++)
			dup = seen[i].st_dev == st.st_dev && seen[i].st_ino == st.st_ino;
		char *real = dup || nseen == 64 ? NULL : realpath(dir, NULL);
		if (real && !inside_roots(ids, real)) {
			seen[nseen++] = st;
			index_folder(ids, real, &cap);
		}
		free(real);
	}
	free(all);
	/* One entry per file: a symlink to a program listed under its own
	 * name is that program; hard links keep all their names. */
	qsort(ids->sys, ids->nsys, sizeof *ids->sys, sys_by_inode);
	size_t kept = 0;
	for (size_t i = 0; i < ids->nsys; i++) {
		struct sys_program *p = &ids->sys[i];
		bool same = kept > 0 && ids->sys[kept - 1].dev == p->dev && ids->sys[kept - 1].ino == p->ino;
		if (same && (p->link || ids->sys[kept - 1].link)) {
			free(p->path);
			continue;
		}
		ids->sys[kept++] = *p;
	}
	ids->nsys = kept;
	qsort(ids->sys, ids->nsys, sizeof *ids->sys, sys_by_size);
}

static size_t sys_first_of_size(const struct program_ids *ids, off_t size)
{
	size_t lo = 0, hi = ids->nsys;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids->sys[mid].size < size)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- comparing ------------------------------------------------------- */

static bool read_at(int fd, char *buf, size_t n, off_t off)
{
	while (n > 0) {
		ssize_t got = pread(fd, buf, n, off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		buf += got;
		n -= (size_t)got;
		off += got;
	}
	return true;
}

/* Whether the first len bytes of the two files are the same, but for at
 * most spare blocks of 4 KiB: a copy with a string or a build id patched
 * still runs as what it was. */
static bool same_bytes(int a, int b, off_t len, size_t spare)
{
	char *ba = xmalloc(ID_CHUNK), *bb = xmalloc(ID_CHUNK);
	size_t differ = 0;
	bool same = true;
	for (off_t off = 0; same && off < len;) {
		size_t want = (uint64_t)(len - off) < ID_CHUNK ? (size_t)(len - off) : ID_CHUNK;
		if (!read_at(a, ba, want, off) || !read_at(b, bb, want, off)) {
			same = false;
			break;
		}
		for (size_t k = 0; k < want && same; k += ID_BLOCK) {
			size_t bl = want - k < ID_BLOCK ? want - k : ID_BLOCK;
			if (memcmp(ba + k, bb + k, bl) != 0 && ++differ > spare)
				same = false;
		}
		off += (off_t)want;
	}
	free(ba);
	free(bb);
	return same;
}

static uint64_t elf_get(const unsigned char *p, size_t n, bool le)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[le ? i : n - 1 - i] << (8 * i);
	return v;
}

/* Where an ELF file's own bytes end (headers, segments, section table):
 * what lies beyond was appended and changes nothing the program does.
 * -1 when it is not ELF or its headers do not hold together. */
static off_t elf_extent(int fd, const unsigned char *head, size_t got, off_t size)
{
	if (got < 64 || memcmp(head, ELFMAG, SELFMAG) != 0)
		return -1;
	bool wide = head[EI_CLASS] == ELFCLASS64;
	bool le = head[EI_DATA] == ELFDATA2LSB;
	if ((!wide && head[EI_CLASS] != ELFCLASS32) || (!le && head[EI_DATA] != ELFDATA2MSB))
		return -1;
	/* Offsets of the header fields in Elf32_Ehdr / Elf64_Ehdr. */
	uint64_t phoff = wide ? elf_get(head + 32, 8, le) : elf_get(head + 28, 4, le);
	uint64_t shoff = wide ? elf_get(head + 40, 8, le) : elf_get(head + 32, 4, le);
	size_t at = wide ? 52 : 40;
	uint64_t ehsize = elf_get(head + at, 2, le), phentsize = elf_get(head + at + 2, 2, le);
	uint64_t phnum = elf_get(head + at + 4, 2, le), shentsize = elf_get(head + at + 6, 2, le);
	uint64_t shnum = elf_get(head + at + 8, 2, le);
	uint64_t need = wide ? 56 : 32;
	if (phnum > 256 || phentsize < need || phoff > (uint64_t)size || phnum * phentsize > (uint64_t)size - phoff)
		return -1;
	uint64_t end = ehsize;
	if (phoff + phnum * phentsize > end)
		end = phoff + phnum * phentsize;
	if (shoff && shoff <= (uint64_t)size && shentsize <= 256 && shoff + shnum * shentsize > end)
		end = shoff + shnum * shentsize;
	unsigned char *ph = xmalloc(phnum * phentsize + 1);
	bool ok = read_at(fd, (char *)ph, phnum * phentsize, (off_t)phoff);
	for (uint64_t i = 0; ok && i < phnum; i++) {
		const unsigned char *p = ph + i * phentsize;
		uint64_t off = wide ? elf_get(p + 8, 8, le) : elf_get(p + 4, 4, le);
		uint64_t filesz = wide ? elf_get(p + 32, 8, le) : elf_get(p + 16, 4, le);
		if (off <= (uint64_t)size && filesz <= (uint64_t)size - off && off + filesz > end)
			end = off + filesz;
	}
	free(ph);
	return ok && end <= (uint64_t)size ? (off_t)end : -1;
}

/* The system programs whose first len bytes the candidate's first len
 * bytes are (spare blocks aside), appended to out once each. */
static void match_size(struct program_ids *ids, int fd, off_t len, size_t spare, struct strvec *out)
{
	size_t i = sys_first_of_size(ids, len);
	bool last_same = false;
	for (; i < ids->nsys && ids->sys[i].size == len; i++) {
		const struct sys_program *p = &ids->sys[i];
		bool linked = i > 0 && ids->sys[i - 1].size == len && ids->sys[i - 1].dev == p->dev &&
		              ids->sys[i - 1].ino == p->ino;
		if (!linked) {
			int sfd = util_open_regular(p->path, 0);
			last_same = sfd >= 0 && same_bytes(fd, sfd, len, spare);
			if (sfd >= 0)
				close(sfd);
		}
		if (!last_same)
			continue;
		bool have = false;
		for (size_t k = 0; k < out->len && !have; k++)
			have = strcmp(out->items[k], p->path) == 0;
		if (!have)
			strvec_push(out, p->path);
	}
}

char *program_shebang(const char *text, size_t len)
{
	const unsigned char *head = (const unsigned char *)text;
	size_t got = len < ID_HEAD ? len : ID_HEAD;
	if (got < 2 || head[0] != '#' || head[1] != '!')
		return NULL;
	size_t start = 2, end = 2;
	while (end < got && head[end] != '\n')
		end++;
	while (start < end && (head[start] == ' ' || head[start] == '\t'))
		start++;
	while (end > start && (head[end - 1] == ' ' || head[end - 1] == '\t' || head[end - 1] == '\r'))
		end--;
	if (end == start || memchr(head + start, '\0', end - start))
		return NULL;
	return xstrndup((const char *)head + start, end - start);
}

static void identify(struct program_ids *ids, int fd, const struct stat *st, struct program_identity *id)
{
	unsigned char head[ID_HEAD];
	size_t got = 0;
	ssize_t r;
	while (got < sizeof head && (r = pread(fd, head + got, sizeof head - got, (off_t)got)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		got += (size_t)r;
	}
	id->shebang = program_shebang((const char *)head, got);
	struct strvec copies;
	strvec_init(&copies);
	index_system(ids);
	for (size_t i = 0; i < ids->nsys; i++)
		if (ids->sys[i].dev == st->st_dev && ids->sys[i].ino == st->st_ino)
			strvec_push(&copies, ids->sys[i].path); /* a hard link */
	off_t extent = elf_extent(fd, head, got, st->st_size);
	/* An ELF program may differ in a block in four (a patched string or
	 * build id) and still be the program; a script must be the same. */
	size_t spare = extent > 0 ? (size_t)(extent / ID_BLOCK / 4) : 0;
	if (!copies.len && st->st_size <= ID_COMPARE_MAX)
		match_size(ids, fd, st->st_size, spare, &copies);
	if (!copies.len && extent > 0 && extent < st->st_size)
		match_size(ids, fd, extent, spare, &copies);
	id->copy_of = copies.len ? strvec_detach(&copies) : NULL;
	strvec_free(&copies);
	id->binary = !id->copy_of && !id->shebang && (extent > 0 || memchr(head, '\0', got) != NULL);
}

static void identity_copy(const struct program_identity *from, struct program_identity *to)
{
	to->writable = from->writable;
	to->copy_of = from->copy_of ? strv_copy(from->copy_of) : NULL;
	to->shebang = from->shebang ? xstrdup(from->shebang) : NULL;
	to->binary = from->binary;
}

void program_identity(struct program_ids *ids, const char *path, struct program_identity *out)
{
	memset(out, 0, sizeof *out);
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	/* A file whose place cannot be told (a descriptor of a deleted copy)
	 * counts as one the agent could have made. */
	char *real = realpath(path, NULL);
	bool writable = !real || inside_roots(ids, real);
	free(real);
	if (!writable)
		return;
	int fd = util_open_regular(path, 0);
	if (fd < 0 || fstat(fd, &st) != 0) {
		/* executable but not readable: nothing can be told of it */
		if (fd >= 0)
			close(fd);
		out->writable = out->binary = true;
		return;
	}
	for (size_t i = 0; i < ids->ncache; i++) {
		const struct id_cached *e = &ids->cache[i];
		if (e->dev == st.st_dev && e->ino == st.st_ino && e->size == st.st_size &&
		    e->mtime.tv_sec == st.st_mtim.tv_sec && e->mtime.tv_nsec == st.st_mtim.tv_nsec &&
		    e->ctime.tv_sec == st.st_ctim.tv_sec && e->ctime.tv_nsec == st.st_ctim.tv_nsec) {
			close(fd);
			identity_copy(&e->id, out);
			return;
		}
	}
	struct id_cached *slot = &ids->cache[ids->next];
	if (ids->ncache == ID_CACHE_MAX)
		program_identity_free(&slot->id);
	else
		ids->ncache++;
	ids->next = (ids->next + 1) % ID_CACHE_MAX;
	memset(slot, 0, sizeof *slot);
	slot->dev = st.st_dev;
	slot->ino = st.st_ino;
	slot->size = st.st_size;
	slot->mtime = st.st_mtim;
	slot->ctime = st.st_ctim;
	slot->id.writable = true;
	identify(ids, fd, &st, &slot->id);
	close(fd);
	identity_copy(&slot->id, out);
}

/* ---- the PATH search ------------------------------------------------- */

static bool folder_writable(struct program_ids *ids, const char *dir)
{
	if (dir[0] != '/')
		return true; /* relative to wherever the command runs */
	char *real = realpath(dir, NULL);
	bool w = real && inside_roots(ids, real);
	free(real);
	return w;
}

char *program_ids_search(struct program_ids *ids, const char *name, const char *path_var)
{
	if (!path_var || !*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return NULL;
	if (!ids->path_value || strcmp(ids->path_value, path_var) != 0) {
		free(ids->path_value);
		ids->path_value = xstrdup(path_var);
		ids->path_writable = false;
		for (const char *p = path_var; !ids->path_writable;) {
			size_t len = strcspn(p, ":");
			char *dir = xstrndup(p, len);
			ids->path_writable = folder_writable(ids, dir);
			free(dir);
			if (!p[len])
				break;
			p += len + 1;
		}
	}
	if (!ids->path_writable)
		return NULL;
	for (const char *p = path_var;;) {
		size_t len = strcspn(p, ":");
		char *dir = len ? xstrndup(p, len) : xstrdup(".");
		char *full = xasprintf("%s/%s", dir, name);
		struct stat st;
		bool found = stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0;
		bool mine = found && folder_writable(ids, dir);
		free(dir);
		if (found) {
			if (mine)
				return full;
			free(full);
			return NULL;
		}
		free(full);
		if (!p[len])
			return NULL;
		p += len + 1;
	}
}
