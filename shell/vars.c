/* Variables: a stack of hash-table scopes (global first, then one per
 * function call or temporary-assignment command), dynamic scoping as in
 * bash, and a cached environment for execve. */
#include "shell/shell.h"
#include "shell/lexer.h"
#include "shell/vars.h"
#include "shell/exec.h"
#include "shell/arith.h"
#include "shell/cmdhash.h"
#include "shell/exec.h"
#include "shell/options.h"
#include "builtins/builtins.h"
#include "shell/name_hash.h"

#include <ctype.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Private flags above the public ones: variables whose value is computed. */
enum {
	VAR_DYN_RANDOM = 1 << 16,
	VAR_DYN_SECONDS = 1 << 17,
	VAR_DYN_LINENO = 1 << 18,
	VAR_DYN_PIPESTATUS = 1 << 19,
	VAR_DYN_EPOCH = 1 << 20,      /* EPOCHSECONDS */
	VAR_DYN_EPOCHREAL = 1 << 21,  /* EPOCHREALTIME */
	VAR_DYN_STACK = 1 << 22,      /* FUNCNAME, BASH_SOURCE, BASH_LINENO: from sh->frames */
	VAR_DYN_PID = 1 << 23,        /* BASHPID: this process, subshells included */
	VAR_DYN_COMMAND = 1 << 24,    /* BASH_COMMAND */
	VAR_DYN_OPTIONS = 1 << 25,    /* SHELLOPTS, BASHOPTS: from sh->opt */
	VAR_DYNAMIC = VAR_DYN_RANDOM | VAR_DYN_SECONDS | VAR_DYN_LINENO | VAR_DYN_PIPESTATUS | VAR_DYN_EPOCH |
	              VAR_DYN_EPOCHREAL | VAR_DYN_STACK | VAR_DYN_PID | VAR_DYN_COMMAND | VAR_DYN_OPTIONS,
};

/* Arrays are dense (a slot per index, unlike bash's sparse ones): a larger
 * index is refused, not left to exhaust memory and end the shell. */
enum { ARRAY_MAX_INDEX = 1 << 24 };

struct var_entry {
	struct var v;
	struct var_entry *next;
	size_t hash;
};

struct scope {
	struct var_entry **buckets;
	size_t nbuckets; /* a power of two */
	size_t count;
	bool temp; /* the assignments before one command, not a function's */
};

struct var_table {
	struct scope *scopes; /* [0] is the global scope */
	size_t nscopes;
	size_t cap;
	char **env;      /* cached NAME=value array for execve */
	bool env_dirty;
	bool env_dynamic; /* an exported variable is computed (export SHELLOPTS) */
};

bool vars_valid_name(const char *s)
{
	if (!(*s == '_' || isalpha((unsigned char)*s)))
		return false;
	for (s++; *s; s++) {
		if (!(*s == '_' || isalnum((unsigned char)*s)))
			return false;
	}
	return true;
}

static void scope_init(struct scope *sc, size_t nbuckets)
{
	sc->buckets = xcalloc(nbuckets, sizeof *sc->buckets);
	sc->nbuckets = nbuckets;
	sc->count = 0;
}

static void var_clear_value(struct var *v)
{
	free(v->value);
	v->value = NULL;
	if (v->array) {
		for (size_t i = 0; i < v->array_len; i++)
			free(v->array[i]);
		free(v->array);
	}
	if (v->keys) {
		for (size_t i = 0; i < v->array_len; i++)
			free(v->keys[i]);
		free(v->keys);
	}
	v->array = NULL;
	v->keys = NULL;
	v->array_len = 0;
}

static void entry_free(struct var_entry *e)
{
	var_clear_value(&e->v);
	free(e->v.name);
	free(e);
}

static void scope_free(struct scope *sc)
{
	for (size_t i = 0; i < sc->nbuckets; i++) {
		struct var_entry *e = sc->buckets[i];
		while (e) {
			struct var_entry *next = e->next;
			entry_free(e);
			e = next;
		}
	}
	free(sc->buckets);
	sc->buckets = NULL;
	sc->nbuckets = sc->count = 0;
}

static struct var_entry *scope_find(const struct scope *sc, const char *name, size_t h)
{
	if (sc->count == 0)
		return NULL;
	for (struct var_entry *e = sc->buckets[h & (sc->nbuckets - 1)]; e; e = e->next) {
		if (e->hash == h && strcmp(e->v.name, name) == 0)
			return e;
	}
	return NULL;
}

static void scope_grow(struct scope *sc)
{
	size_t n = sc->nbuckets * 2;
	struct var_entry **b = xcalloc(n, sizeof *b);
	for (size_t i = 0; i < sc->nbuckets; i++) {
		struct var_entry *e = sc->buckets[i];
		while (e) {
			struct var_entry *next = e->next;
			e->next = b[e->hash & (n - 1)];
			b[e->hash & (n - 1)] = e;
			e = next;
		}
	}
	free(sc->buckets);
	sc->buckets = b;
	sc->nbuckets = n;
}

static struct var *scope_add(struct scope *sc, const char *name, size_t h)
{
	if (sc->count + 1 > sc->nbuckets)
		scope_grow(sc);
	struct var_entry *e = xcalloc(1, sizeof *e);
	e->v.name = xstrdup(name);
	e->v.flags = VAR_NOVALUE;
	e->hash = h;
	e->next = sc->buckets[h & (sc->nbuckets - 1)];
	sc->buckets[h & (sc->nbuckets - 1)] = e;
	sc->count++;
	return &e->v;
}

static void scope_remove(struct scope *sc, const char *name, size_t h)
{
	struct var_entry **pp = &sc->buckets[h & (sc->nbuckets - 1)];
	for (; *pp; pp = &(*pp)->next) {
		if ((*pp)->hash == h && strcmp((*pp)->v.name, name) == 0) {
			struct var_entry *e = *pp;
			*pp = e->next;
			entry_free(e);
			sc->count--;
			return;
		}
	}
}

/* The visible entry and the index of its scope. */
static struct var *find_visible(struct var_table *t, const char *name, size_t *scope_index)
{
	size_t h = name_hash(name);
	for (size_t i = t->nscopes; i-- > 0;) {
		struct var_entry *e = scope_find(&t->scopes[i], name, h);
		if (e) {
			if (scope_index)
				*scope_index = i;
			return &e->v;
		}
	}
	return NULL;
}

static uint32_t next_random(struct shell *sh)
{
	sh->random_state = sh->random_state * 1103515245u + 12345u;
	return (sh->random_state >> 16) & 0x7fff;
}

/* FUNCNAME, BASH_SOURCE or BASH_LINENO, innermost call first, as bash:
 * below the frames, a script's own level ("main", the script, line 0);
 * FUNCNAME stays empty outside any function or sourced file. */
static void stack_array(struct shell *sh, struct var *v)
{
	var_clear_value(v);
	v->flags = (v->flags | VAR_ARRAY) & ~(unsigned)VAR_NOVALUE;
	char which = v->name[0] == 'F' ? 'F' : strcmp(v->name, "BASH_SOURCE") == 0 ? 'S' : 'L';
	bool bottom = sh->main_script && (which != 'F' || sh->nframes > 0);
	size_t n = sh->nframes + (bottom ? 1 : 0);
	v->array = xcalloc(n + 1, sizeof *v->array);
	char buf[32];
	for (size_t i = 0; i < sh->nframes; i++) {
		const struct call_frame *f = &sh->frames[sh->nframes - 1 - i];
		if (which == 'F') {
			v->array[i] = xstrdup(f->name);
		} else if (which == 'S') {
			v->array[i] = xstrdup(f->file);
		} else {
			snprintf(buf, sizeof buf, "%u", f->line);
			v->array[i] = xstrdup(buf);
		}
	}
	if (bottom)
		v->array[sh->nframes] = xstrdup(which == 'F' ? "main" : which == 'S' ? sh->main_script : "0");
	v->array_len = n;
}

/* Recomputes the value of RANDOM, SECONDS, LINENO, EPOCHSECONDS or
 * EPOCHREALTIME in place (assignments to the epoch ones are lost, as bash). */
static void refresh_dynamic(struct shell *sh, struct var *v)
{
	char buf[32];
	if (v->flags & VAR_DYN_PIPESTATUS) {
		/* Rebuilt from the statuses only when someone looks. */
		var_clear_value(v);
		v->flags = (v->flags | VAR_ARRAY) & ~(unsigned)VAR_NOVALUE;
		v->array = xcalloc(sh->npipestatus + 1, sizeof *v->array);
		for (size_t i = 0; i < sh->npipestatus; i++) {
			arith_format(sh->pipestatus[i], buf);
			v->array[i] = xstrdup(buf);
		}
		v->array_len = sh->npipestatus;
		return;
	}
	if (v->flags & VAR_DYN_STACK) {
		stack_array(sh, v);
		return;
	}
	if (v->flags & (VAR_DYN_COMMAND | VAR_DYN_OPTIONS)) {
		char *text = (v->flags & VAR_DYN_COMMAND) ? exec_command_text(sh)
		             : v->name[0] == 'S'           ? options_enabled_names(sh)
		                                           : shopt_enabled_names(sh);
		if (v->array) {
			free(v->array[0]);
			v->array[0] = text;
		} else {
			free(v->value);
			v->value = text;
		}
		v->flags &= ~(unsigned)VAR_NOVALUE;
		return;
	}
	if (v->flags & VAR_DYN_RANDOM) {
		snprintf(buf, sizeof buf, "%" PRIu32, next_random(sh));
	} else if (v->flags & VAR_DYN_PID) {
		shell_pid_settled(sh); /* the process the shell stays in */
		snprintf(buf, sizeof buf, "%ld", (long)getpid());
	} else if (v->flags & VAR_DYN_SECONDS) {
		snprintf(buf, sizeof buf, "%lld", (long long)(time(NULL) - sh->start_time));
	} else if (v->flags & (VAR_DYN_EPOCH | VAR_DYN_EPOCHREAL)) {
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		if (v->flags & VAR_DYN_EPOCH)
			snprintf(buf, sizeof buf, "%lld", (long long)now.tv_sec);
		else
			snprintf(buf, sizeof buf, "%lld.%06ld", (long long)now.tv_sec, now.tv_nsec / 1000);
	} else {
		snprintf(buf, sizeof buf, "%u", sh->lineno);
	}
	if (v->array) {
		free(v->array[0]);
		v->array[0] = xstrdup(buf);
	} else {
		free(v->value);
		v->value = xstrdup(buf);
	}
	v->flags &= ~(unsigned)VAR_NOVALUE;
}

/* A reference that names a variable (not one still waiting for its name). */
static bool is_ref(const struct var *v)
{
	return v && (v->flags & VAR_NAMEREF) && v->value && !(v->flags & VAR_NOVALUE);
}

/* The name a reference leads to, as a copy (the caller frees); NULL after
 * reporting a loop. Only called once v (name's variable) is a reference. */
static char *ref_target(struct shell *sh, const char *name, const struct var *v)
{
	for (int hops = 0; hops < 8; hops++) {
		const char *next = v->value;
		v = find_visible(sh->vars, next, NULL);
		if (!is_ref(v))
			return xstrdup(next);
	}
	shell_error(sh, "%s: circular name reference", name);
	return NULL;
}

/* Each public call that acts on a variable starts with this: when name is
 * a reference, the call is made again on its target and *status is what
 * that returned. */
#define FOLLOW_REF(sh, name, v, call_with_target)                                   \
	do {                                                                            \
		if (is_ref(v)) {                                                            \
			char *target_ = ref_target((sh), (name), (v));                          \
			if (!target_)                                                           \
				return -1;                                                          \
			int r_ = call_with_target;                                              \
			free(target_);                                                          \
			return r_;                                                              \
		}                                                                           \
	} while (0)

struct var *vars_lookup_ref(struct shell *sh, const char *name)
{
	return find_visible(sh->vars, name, NULL);
}

const char *vars_ref_element(struct shell *sh, const char *name)
{
	const struct var *v = find_visible(sh->vars, name, NULL);
	return is_ref(v) && strchr(v->value, '[') ? v->value : NULL;
}

struct var *vars_lookup(struct shell *sh, const char *name)
{
	struct var *v = find_visible(sh->vars, name, NULL);
	if (is_ref(v)) {
		char *target = ref_target(sh, name, v);
		v = target ? find_visible(sh->vars, target, NULL) : NULL;
		free(target);
	}
	if (v && (v->flags & VAR_DYNAMIC))
		refresh_dynamic(sh, v);
	return v;
}

const char *vars_get(struct shell *sh, const char *name)
{
	/* $_ is kept by the executor, for every reader: $_, ${!n}, $((_)) */
	if (name[0] == '_' && !name[1])
		return sh->last_arg ? sh->last_arg : "";
	struct var *v = vars_lookup(sh, name);
	if (!v || (v->flags & VAR_NOVALUE))
		return NULL;
	if (v->flags & VAR_ASSOC)
		return vars_assoc_get(v, "0");
	if (v->flags & VAR_ARRAY)
		return v->array_len > 0 ? v->array[0] : NULL;
	return v->value;
}

static void mark_env_dirty(struct shell *sh, const struct var *v)
{
	if (!v || (v->flags & VAR_EXPORT))
		sh->vars->env_dirty = true;
}

/* Side effects of assigning to a few names the shell itself uses. */
static void note_special_assignment(struct shell *sh, const char *name)
{
	if (strcmp(name, "PATH") == 0)
		exec_hash_clear(sh);
	else if (strcmp(name, "OPTIND") == 0)
		sh->getopts_offset = 0;
}

static char *convert_case(const char *value, unsigned flags)
{
	char *s = xstrdup(value);
	for (char *p = s; *p; p++) {
		if (flags & VAR_LOWER)
			*p = (char)tolower((unsigned char)*p);
		else
			*p = (char)toupper((unsigned char)*p);
	}
	return s;
}

/* The value as it will be stored: evaluated for -i, case-converted for
 * -l/-u. NULL after reporting an arithmetic error. */
static char *transform_value(struct shell *sh, const char *value, unsigned flags)
{
	if (flags & VAR_INTEGER) {
		intmax_t n;
		if (arith_eval(sh, value, &n) < 0)
			return NULL;
		return xasprintf("%" PRIdMAX, n);
	}
	if (flags & (VAR_LOWER | VAR_UPPER))
		return convert_case(value, flags);
	return xstrdup(value);
}

static int readonly_error(struct shell *sh, const char *name)
{
	shell_error(sh, "%s: readonly variable", name);
	return -1;
}

static int name_error(struct shell *sh, const char *name)
{
	shell_error(sh, "`%s': not a valid identifier", name);
	return -1;
}

static void array_store(struct var *v, size_t index, char *value)
{
	if (index >= v->array_len) {
		v->array = xreallocarray(v->array, index + 1, sizeof *v->array);
		for (size_t i = v->array_len; i <= index; i++)
			v->array[i] = NULL;
		v->array_len = index + 1;
	}
	free(v->array[index]);
	v->array[index] = value;
}

/* Turns a scalar variable into an array whose element 0 is the old value. */
static void make_array(struct var *v)
{
	if (v->flags & VAR_ARRAY)
		return;
	char *old = v->value;
	v->value = NULL;
	v->flags |= VAR_ARRAY;
	v->array = NULL;
	v->array_len = 0;
	if (old && !(v->flags & VAR_NOVALUE))
		array_store(v, 0, old);
	else
		free(old);
}

static void set_dynamic_base(struct shell *sh, struct var *v, const char *value)
{
	if (v->flags & VAR_DYN_RANDOM)
		sh->random_state = (uint32_t)strtoul(value, NULL, 10);
	else if (v->flags & VAR_DYN_SECONDS)
		sh->start_time = time(NULL) - (time_t)strtoll(value, NULL, 10);
}

/* The visible entry for a name whose hash is known. */
static struct var *find_visible_hashed(struct var_table *t, const char *name, size_t h)
{
	for (size_t i = t->nscopes; i-- > 0;) {
		struct var_entry *e = scope_find(&t->scopes[i], name, h);
		if (e)
			return &e->v;
	}
	return NULL;
}

int vars_set(struct shell *sh, const char *name, const char *value, unsigned flags)
{
	if (!vars_valid_name(name))
		return name_error(sh, name);
	size_t h = name_hash(name);
	struct var *v = find_visible_hashed(sh->vars, name, h);
	FOLLOW_REF(sh, name, v, vars_set(sh, target_, value, flags));
	if (v && (v->flags & VAR_NAMEREF))
		return vars_set_nameref(sh, name, value); /* declare -n r; r=x names x */
	if (v && (v->flags & VAR_READONLY))
		return readonly_error(sh, name);
	if (v && (v->flags & VAR_ASSOC))
		return vars_assoc_set(sh, name, "0", value, false); /* as bash: m=v is m[0]=v */
	unsigned effective = (v ? v->flags : 0) | flags;
	if (v && !(effective & (VAR_INTEGER | VAR_LOWER | VAR_UPPER | VAR_ARRAY | VAR_DYNAMIC)) && v->value &&
	    !(v->flags & VAR_NOVALUE) && !sh->opt.allexport && name[0] != 'P' && name[0] != 'O') {
		/* The common case, a plain variable set again: reuse its
		 * storage when the new value fits (counters mostly do). */
		size_t len = strlen(value);
		if (strlen(v->value) >= len) {
			memmove(v->value, value, len + 1);
		} else {
			char *stored = xmalloc(len + 1);
			memcpy(stored, value, len + 1);
			free(v->value);
			v->value = stored;
		}
		v->flags |= flags;
		mark_env_dirty(sh, v);
		return 0;
	}
	/* arith_eval may assign variables itself: look the variable up again
	 * afterwards, the table may have changed. */
	char *stored = transform_value(sh, value, effective);
	if (!stored)
		return -1;
	v = find_visible(sh->vars, name, NULL);
	if (!v)
		v = scope_add(&sh->vars->scopes[0], name, name_hash(name));
	mark_env_dirty(sh, v);
	v->flags |= flags;
	if (sh->opt.allexport)
		v->flags |= VAR_EXPORT;
	if (v->flags & VAR_DYNAMIC)
		set_dynamic_base(sh, v, stored);
	if (v->flags & VAR_ARRAY) {
		array_store(v, 0, stored);
	} else {
		free(v->value);
		v->value = stored;
	}
	v->flags &= ~(unsigned)VAR_NOVALUE;
	mark_env_dirty(sh, v);
	note_special_assignment(sh, name);
	return 0;
}

int vars_set_array(struct shell *sh, const char *name, char *const *values, size_t n, bool append)
{
	if (!vars_valid_name(name))
		return name_error(sh, name);
	struct var *v = find_visible(sh->vars, name, NULL);
	FOLLOW_REF(sh, name, v, vars_set_array(sh, target_, values, n, append));
	if (v && (v->flags & VAR_READONLY))
		return readonly_error(sh, name);
	if (v && (v->flags & VAR_ASSOC) && n > 0) {
		/* m=(k1 v1 k2 v2): key and value pairs, as bash 5.1 and later */
		if (!append && vars_set_array(sh, name, NULL, 0, false) != 0)
			return -1;
		for (size_t i = 0; i < n; i += 2)
			if (vars_assoc_set(sh, name, values[i], i + 1 < n ? values[i + 1] : "", false) != 0)
				return -1;
		return 0;
	}
	unsigned flags = v ? v->flags : 0;
	char **stored = xcalloc(n + 1, sizeof *stored);
	for (size_t i = 0; i < n; i++) {
		stored[i] = transform_value(sh, values[i], flags);
		if (!stored[i]) {
			strv_free(stored);
			return -1;
		}
	}
	v = find_visible(sh->vars, name, NULL);
	if (!v)
		v = scope_add(&sh->vars->scopes[0], name, name_hash(name));
	mark_env_dirty(sh, v);
	if (!append) {
		var_clear_value(v); /* an associative array stays one, emptied */
		v->flags |= VAR_ARRAY;
	} else {
		make_array(v);
	}
	size_t base = v->array_len;
	for (size_t i = 0; i < n; i++)
		array_store(v, base + i, stored[i]);
	free(stored);
	if (sh->opt.allexport)
		v->flags |= VAR_EXPORT;
	v->flags &= ~(unsigned)(VAR_NOVALUE | VAR_DYNAMIC);
	return 0;
}

int vars_set_element(struct shell *sh, const char *name, long index, const char *value)
{
	if (!vars_valid_name(name))
		return name_error(sh, name);
	struct var *v = find_visible(sh->vars, name, NULL);
	FOLLOW_REF(sh, name, v, vars_set_element(sh, target_, index, value));
	if (v && (v->flags & VAR_READONLY))
		return readonly_error(sh, name);
	if (v && (v->flags & VAR_ASSOC)) {
		char key[32];
		snprintf(key, sizeof key, "%ld", index);
		return vars_assoc_set(sh, name, key, value, false);
	}
	char *stored = transform_value(sh, value, v ? v->flags : 0);
	if (!stored)
		return -1;
	v = find_visible(sh->vars, name, NULL);
	if (index < 0) {
		long len = v && (v->flags & VAR_ARRAY) ? (long)v->array_len : (v && v->value ? 1 : 0);
		if (index + len < 0) {
			shell_error(sh, "%s[%ld]: bad array subscript", name, index);
			free(stored);
			return -1;
		}
		index += len;
	}
	if (index >= ARRAY_MAX_INDEX) {
		shell_error(sh, "%s[%ld]: array index too large (at most %d)", name, index, ARRAY_MAX_INDEX - 1);
		free(stored);
		return -1;
	}
	if (!v)
		v = scope_add(&sh->vars->scopes[0], name, name_hash(name));
	mark_env_dirty(sh, v);
	make_array(v);
	array_store(v, (size_t)index, stored);
	if (sh->opt.allexport)
		v->flags |= VAR_EXPORT;
	v->flags &= ~(unsigned)(VAR_NOVALUE | VAR_DYNAMIC);
	return 0;
}

static ssize_t assoc_find(const struct var *v, const char *key)
{
	for (size_t i = 0; i < v->array_len; i++)
		if (strcmp(v->keys[i], key) == 0)
			return (ssize_t)i;
	return -1;
}

const char *vars_assoc_get(const struct var *v, const char *key)
{
	if (!v || !(v->flags & VAR_ASSOC) || (v->flags & VAR_NOVALUE))
		return NULL;
	ssize_t i = assoc_find(v, key);
	return i < 0 ? NULL : v->array[i];
}

int vars_declare_assoc(struct shell *sh, const char *name)
{
	if (!vars_valid_name(name))
		return name_error(sh, name);
	struct var *v = find_visible(sh->vars, name, NULL);
	FOLLOW_REF(sh, name, v, vars_declare_assoc(sh, target_));
	if (v && (v->flags & VAR_ASSOC))
		return 0;
	if (v && (v->flags & VAR_ARRAY)) {
		shell_error(sh, "%s: cannot convert indexed to associative array", name);
		return -1;
	}
	if (v && (v->flags & VAR_READONLY))
		return readonly_error(sh, name);
	if (!v)
		v = scope_add(&sh->vars->scopes[0], name, name_hash(name));
	mark_env_dirty(sh, v);
	char *old = (v->flags & VAR_NOVALUE) ? NULL : v->value;
	v->value = NULL;
	var_clear_value(v);
	v->flags = (v->flags & ~(unsigned)(VAR_DYNAMIC | VAR_NAMEREF)) | VAR_ARRAY | VAR_ASSOC;
	if (!old)
		v->flags |= VAR_NOVALUE; /* declare -p shows it without =() until set, as bash */
	if (old) {
		v->keys = xmalloc(sizeof *v->keys);
		v->array = xmalloc(sizeof *v->array);
		v->keys[0] = xstrdup("0");
		v->array[0] = old;
		v->array_len = 1;
	}
	return 0;
}

int vars_assoc_set(struct shell *sh, const char *name, const char *key, const char *value, bool append)
{
	struct var *v = find_visible(sh->vars, name, NULL);
	FOLLOW_REF(sh, name, v, vars_assoc_set(sh, target_, key, value, append));
	if (v && (v->flags & VAR_READONLY))
		return readonly_error(sh, name);
	if (!v || !(v->flags & VAR_ASSOC)) {
		shell_error(sh, "%s: not an associative array", name);
		return -1;
	}
	ssize_t at = assoc_find(v, key);
	char *joined = append && at >= 0 ? xasprintf("%s%s", v->array[at], value) : NULL;
	/* -i evaluates (and may assign variables): look the array up again */
	char *stored = transform_value(sh, joined ? joined : value, v->flags);
	free(joined);
	if (!stored)
		return -1;
	v = find_visible(sh->vars, name, NULL);
	if (!v || !(v->flags & VAR_ASSOC)) {
		free(stored);
		shell_error(sh, "%s: not an associative array", name);
		return -1;
	}
	at = assoc_find(v, key);
	if (at >= 0) {
		free(v->array[at]);
		v->array[at] = stored;
	} else {
		v->keys = xreallocarray(v->keys, v->array_len + 1, sizeof *v->keys);
		v->array = xreallocarray(v->array, v->array_len + 1, sizeof *v->array);
		v->keys[v->array_len] = xstrdup(key);
		v->array[v->array_len] = stored;
		v->array_len++;
	}
	v->flags &= ~(unsigned)VAR_NOVALUE;
	return 0;
}

int vars_assoc_unset(struct shell *sh, const char *name, const char *key)
{
	struct var *v = find_visible(sh->vars, name, NULL);
	FOLLOW_REF(sh, name, v, vars_assoc_unset(sh, target_, key));
	if (!v || !(v->flags & VAR_ASSOC))
		return 0;
	if (v->flags & VAR_READONLY)
		return readonly_error(sh, name);
	ssize_t at = assoc_find(v, key);
	if (at < 0)
		return 0;
	free(v->keys[at]);
	free(v->array[at]);
	memmove(&v->keys[at], &v->keys[at + 1], (v->array_len - (size_t)at - 1) * sizeof *v->keys);
	memmove(&v->array[at], &v->array[at + 1], (v->array_len - (size_t)at - 1) * sizeof *v->array);
	v->array_len--;
	return 0;
}

int vars_unset(struct shell *sh, const char *name)
{
	struct var *v = find_visible(sh->vars, name, NULL);
	FOLLOW_REF(sh, name, v, vars_unset(sh, target_));
	return vars_unset_ref(sh, name);
}

int vars_set_nameref(struct shell *sh, const char *name, const char *target)
{
	if (!vars_valid_name(name))
		return name_error(sh, name);
	const char *bracket = target ? strchr(target, '[') : NULL;
	if (bracket) {
		/* an element, a[i] or m[key]: expansions and assignments of
		 * the reference go to it; other uses see no variable */
		char *base = xstrndup(target, (size_t)(bracket - target));
		bool ok = vars_valid_name(base) && target[strlen(target) - 1] == ']';
		free(base);
		if (!ok) {
			shell_error(sh, "`%s': invalid variable name for name reference", target);
			return -1;
		}
	} else if (target && !vars_valid_name(target)) {
		shell_error(sh, "`%s': invalid variable name for name reference", target);
		return -1;
	}
	if (target && strcmp(target, name) == 0) {
		shell_error(sh, "%s: nameref variable self references not allowed", name);
		return -1;
	}
	struct var *v = find_visible(sh->vars, name, NULL);
	if (v && (v->flags & VAR_READONLY))
		return readonly_error(sh, name);
	if (v && (v->flags & VAR_ARRAY)) {
		shell_error(sh, "%s: reference variable cannot be an array", name);
		return -1;
	}
	if (!v)
		v = scope_add(&sh->vars->scopes[0], name, name_hash(name));
	mark_env_dirty(sh, v);
	var_clear_value(v);
	v->flags = (v->flags & ~(unsigned)(VAR_DYNAMIC | VAR_INTEGER | VAR_LOWER | VAR_UPPER)) | VAR_NAMEREF;
	if (target) {
		v->value = xstrdup(target);
		v->flags &= ~(unsigned)VAR_NOVALUE;
	} else {
		v->flags |= VAR_NOVALUE;
	}
	return 0;
}

int vars_unset_ref(struct shell *sh, const char *name)
{
	size_t scope = 0;
	struct var *v = find_visible(sh->vars, name, &scope);
	if (!v)
		return 0;
	if (v->flags & VAR_READONLY)
		return readonly_error(sh, name);
	mark_env_dirty(sh, v);
	if (scope > 0 && scope + 1 == sh->vars->nscopes) {
		/* A local unset by its own function stays declared (and keeps
		 * hiding outer ones) until the function returns; one unset from
		 * a function it called goes away (bash's dynamic unset). */
		var_clear_value(v);
		v->flags = (v->flags & ~(unsigned)(VAR_ARRAY | VAR_ASSOC | VAR_NAMEREF | VAR_DYNAMIC)) | VAR_NOVALUE;
	} else {
		scope_remove(&sh->vars->scopes[scope], name, name_hash(name));
		sh->vars->env_dirty = true;
	}
	note_special_assignment(sh, name);
	return 0;
}

int vars_unset_element(struct shell *sh, const char *name, long index)
{
	struct var *v = find_visible(sh->vars, name, NULL);
	FOLLOW_REF(sh, name, v, vars_unset_element(sh, target_, index));
	if (!v)
		return 0;
	if (v->flags & VAR_READONLY)
		return readonly_error(sh, name);
	if (v->flags & VAR_ASSOC) {
		char key[32];
		snprintf(key, sizeof key, "%ld", index);
		return vars_assoc_unset(sh, name, key);
	}
	if (!(v->flags & VAR_ARRAY)) {
		if (index == 0 || index == -1)
			return vars_unset(sh, name);
		return 0;
	}
	if (index < 0) {
		index += (long)v->array_len;
		if (index < 0) {
			shell_error(sh, "%s[%ld]: bad array subscript", name, index - (long)v->array_len);
			return -1;
		}
	}
	if ((size_t)index < v->array_len) {
		free(v->array[index]);
		v->array[index] = NULL;
		while (v->array_len > 0 && v->array[v->array_len - 1] == NULL)
			v->array_len--;
	}
	return 0;
}

void vars_push_scope(struct shell *sh)
{
	struct var_table *t = sh->vars;
	if (t->nscopes == t->cap) {
		t->cap *= 2;
		t->scopes = xreallocarray(t->scopes, t->cap, sizeof *t->scopes);
	}
	scope_init(&t->scopes[t->nscopes++], 8);
	t->scopes[t->nscopes - 1].temp = false;
}

void vars_push_temp_scope(struct shell *sh)
{
	vars_push_scope(sh);
	sh->vars->scopes[sh->vars->nscopes - 1].temp = true;
}

void vars_pop_scope(struct shell *sh)
{
	struct var_table *t = sh->vars;
	if (t->nscopes <= 1)
		return;
	struct scope *sc = &t->scopes[--t->nscopes];
	if (sc->count > 0) {
		/* The environment changes only if a popped variable was exported
		 * or hid an exported one (not for FUNCNAME or plain locals). */
		for (size_t i = 0; i < sc->nbuckets; i++) {
			for (struct var_entry *e = sc->buckets[i]; e; e = e->next) {
				if (!t->env_dirty) {
					struct var *outer = find_visible_hashed(t, e->v.name, e->hash);
					if ((e->v.flags & VAR_EXPORT) || (outer && (outer->flags & VAR_EXPORT)))
						t->env_dirty = true;
				}
				if (strcmp(e->v.name, "PATH") == 0 || strcmp(e->v.name, "OPTIND") == 0)
					note_special_assignment(sh, e->v.name);
			}
		}
	}
	scope_free(sc);
}

int vars_make_local(struct shell *sh, const char *name)
{
	struct var_table *t = sh->vars;
	if (sh->func_depth == 0)
		return -1;
	if (!vars_valid_name(name))
		return name_error(sh, name);
	/* The function's scope, under the temporaries of the command that
	 * declares (`tmp= local x`, `tmp= eval 'local x'`). */
	size_t at = t->nscopes - 1;
	while (at > 1 && t->scopes[at].temp)
		at--;
	struct scope *sc = &t->scopes[at];
	size_t h = name_hash(name);
	if (scope_find(sc, name, h))
		return 0;
	struct var *outer = find_visible(t, name, NULL);
	unsigned inherited = outer ? outer->flags & (VAR_EXPORT) : 0;
	if (outer && (outer->flags & VAR_READONLY))
		return readonly_error(sh, name);
	struct var *v = scope_add(sc, name, h);
	v->flags |= inherited;
	/* A new local has no value: only hiding an exported variable
	 * changes the environment. */
	if (inherited)
		t->env_dirty = true;
	return 0;
}

int vars_set_temp(struct shell *sh, const char *name, const char *value)
{
	struct var_table *t = sh->vars;
	if (!vars_valid_name(name))
		return name_error(sh, name);
	struct var *outer = find_visible(t, name, NULL);
	if (outer && (outer->flags & VAR_READONLY))
		return readonly_error(sh, name);
	struct scope *sc = &t->scopes[t->nscopes - 1];
	size_t h = name_hash(name);
	struct var_entry *e = scope_find(sc, name, h);
	struct var *v = e ? &e->v : scope_add(sc, name, h);
	var_clear_value(v);
	v->value = xstrdup(value);
	/* Temporary assignments are in the environment of what runs. */
	v->flags = (v->flags & ~(unsigned)(VAR_NOVALUE | VAR_ARRAY | VAR_ASSOC | VAR_NAMEREF | VAR_DYNAMIC)) |
	           VAR_EXPORT;
	t->env_dirty = true;
	note_special_assignment(sh, name);
	return 0;
}

static bool hidden_by_inner(struct var_table *t, size_t scope, const char *name, size_t h)
{
	for (size_t j = scope + 1; j < t->nscopes; j++) {
		if (scope_find(&t->scopes[j], name, h))
			return true;
	}
	return false;
}

/* All visible variables (innermost wins), unsorted. */
static struct var **collect_visible(struct var_table *t, size_t *count)
{
	size_t total = 0;
	for (size_t i = 0; i < t->nscopes; i++)
		total += t->scopes[i].count;
	struct var **list = xcalloc(total + 1, sizeof *list);
	size_t n = 0;
	for (size_t i = 0; i < t->nscopes; i++) {
		struct scope *sc = &t->scopes[i];
		for (size_t b = 0; b < sc->nbuckets; b++) {
			for (struct var_entry *e = sc->buckets[b]; e; e = e->next) {
				if (!hidden_by_inner(t, i, e->v.name, e->hash))
					list[n++] = &e->v;
			}
		}
	}
	*count = n;
	return list;
}

char **vars_environ(struct shell *sh)
{
	struct var_table *t = sh->vars;
	if (t->env && !t->env_dirty && !t->env_dynamic)
		return t->env;
	strv_free(t->env);
	size_t n;
	struct var **list = collect_visible(t, &n);
	struct strvec env;
	strvec_init(&env);
	const char *pinned = sh->pinned_env;
	size_t pinned_len = pinned ? (size_t)(strchr(pinned, '=') - pinned) : 0;
	t->env_dynamic = false;
	for (size_t i = 0; i < n; i++) {
		struct var *v = list[i];
		if (!(v->flags & VAR_EXPORT) || (v->flags & (VAR_NOVALUE | VAR_ARRAY | VAR_NAMEREF)))
			continue;
		if (pinned && strncmp(v->name, pinned, pinned_len) == 0 && v->name[pinned_len] == '\0')
			continue;
		if (v->flags & VAR_DYNAMIC) {
			refresh_dynamic(sh, v);
			t->env_dynamic = true; /* its value may change unseen: rebuilt each time */
		}
		if (!v->value)
			continue;
		strvec_push_owned(&env, xasprintf("%s=%s", v->name, v->value));
	}
	if (pinned)
		strvec_push(&env, pinned);
	free(list);
	t->env = strvec_detach(&env);
	t->env_dirty = false;
	return t->env;
}

static int compare_var_names(const void *a, const void *b)
{
	const struct var *x = *(const struct var *const *)a;
	const struct var *y = *(const struct var *const *)b;
	return strcmp(x->name, y->name);
}

void vars_foreach(struct shell *sh, void (*fn)(struct var *v, void *ctx), void *ctx)
{
	size_t n;
	struct var **list = collect_visible(sh->vars, &n);
	qsort(list, n, sizeof *list, compare_var_names);
	for (size_t i = 0; i < n; i++) {
		if (list[i]->flags & VAR_DYNAMIC)
			refresh_dynamic(sh, list[i]);
		fn(list[i], ctx);
	}
	free(list);
}

static bool needs_quoting(const char *value)
{
	if (*value == '\0')
		return true;
	for (const char *p = value; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (!(isalnum(c) || strchr("_./:,+-@%^=", c) || c >= 0x80))
			return true;
	}
	return false;
}

static bool has_control_chars(const char *value)
{
	for (const char *p = value; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 && c != '\n' && c != '\t')
			return true;
		if (c == 0x7f)
			return true;
	}
	return false;
}

bool vars_utf8_locale(struct shell *sh)
{
	static const char *const names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *v = vars_get(sh, names[i]);
		if (!v || !*v)
			continue;
		for (const char *p = v; *p; p++) {
			if ((p[0] == 'u' || p[0] == 'U') && (p[1] == 't' || p[1] == 'T') &&
			    (p[2] == 'f' || p[2] == 'F'))
				return true;
		}
		return false;
	}
	return true; /* none set: the agent's text is UTF-8 */
}

void vars_attr_letters(const struct var *v, char *buf)
{
	static const struct {
		unsigned flag;
		char letter;
	} order[] = {{VAR_ASSOC, 'A'}, {VAR_INTEGER, 'i'}, {VAR_NAMEREF, 'n'}, {VAR_READONLY, 'r'},
	             {VAR_EXPORT, 'x'}, {VAR_LOWER, 'l'}, {VAR_UPPER, 'u'}};
	size_t n = 0;
	if ((v->flags & VAR_ARRAY) && !(v->flags & VAR_ASSOC))
		buf[n++] = 'a';
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		if (v->flags & order[i].flag)
			buf[n++] = order[i].letter;
	}
	buf[n] = '\0';
}

void vars_quote_ansi_c(struct strbuf *out, const char *value)
{
	lex_quote_dollar(out, value, strlen(value));
}

void vars_quote(struct strbuf *out, const char *value)
{
	if (!needs_quoting(value) && value[0] != '=' && !(value[0] == '~')) {
		strbuf_adds(out, value);
		return;
	}
	if (has_control_chars(value)) {
		/* $'...' keeps control characters visible and reusable. */
		vars_quote_ansi_c(out, value);
		return;
	}
	strbuf_add_single_quoted(out, value, strlen(value));
}

/* True when path is absolute, free of . and .. components, and names the
 * current directory. */
static bool pwd_is_valid(const char *path)
{
	if (!path || path[0] != '/')
		return false;
	for (const char *p = path; *p; p++) {
		if (*p == '/' && p[1] == '.' &&
		    (p[2] == '/' || p[2] == '\0' || (p[2] == '.' && (p[3] == '/' || p[3] == '\0'))))
			return false;
	}
	struct stat a, b;
	if (stat(path, &a) < 0 || stat(".", &b) < 0)
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void add_dynamic(struct shell *sh, const char *name, unsigned flag)
{
	struct scope *global = &sh->vars->scopes[0];
	size_t h = name_hash(name);
	struct var_entry *e = scope_find(global, name, h);
	struct var *v = e ? &e->v : scope_add(global, name, h);
	v->flags |= flag;
	refresh_dynamic(sh, v);
}

void vars_init(struct shell *sh, char **envp)
{
	struct var_table *t = xcalloc(1, sizeof *t);
	t->cap = 8;
	t->scopes = xcalloc(t->cap, sizeof *t->scopes);
	scope_init(&t->scopes[0], 128);
	t->nscopes = 1;
	t->env_dirty = true;
	sh->vars = t;

	for (char **e = envp; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		char *name = xstrndup(*e, (size_t)(eq - *e));
		if (vars_valid_name(name) && strcmp(name, "IFS") != 0) {
			size_t h = name_hash(name);
			struct var_entry *old = scope_find(&t->scopes[0], name, h);
			struct var *v = old ? &old->v : scope_add(&t->scopes[0], name, h);
			free(v->value);
			v->value = xstrdup(eq + 1);
			v->flags = VAR_EXPORT;
		}
		free(name);
	}

	/* Set directly: none of these may fail or trigger side effects. */
	struct {
		const char *name;
		const char *value;
		bool only_if_unset;
	} defaults[] = {
		{"IFS", " \t\n", false},
		{"PS1", geteuid() == 0 ? "# " : "$ ", true},
		{"PS2", "> ", true},
		{"PS4", "+ ", true},
		{"OPTIND", "1", false},
		{"OPTERR", "1", true},
		/* bash's search path when the environment has none */
		{"PATH", "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin", true},
#ifdef __linux__
		{"OSTYPE", "linux-gnu", true},
#else
		{"OSTYPE", "unknown", true},
#endif
	};
	for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
		size_t h = name_hash(defaults[i].name);
		struct var_entry *old = scope_find(&t->scopes[0], defaults[i].name, h);
		if (old && defaults[i].only_if_unset)
			continue;
		struct var *v = old ? &old->v : scope_add(&t->scopes[0], defaults[i].name, h);
		free(v->value);
		v->value = xstrdup(defaults[i].value);
		v->flags &= ~(unsigned)VAR_NOVALUE;
	}

	char buf[32];
	snprintf(buf, sizeof buf, "%ld", (long)sh->parent_pid);
	{
		size_t h = name_hash("PPID");
		struct var_entry *old = scope_find(&t->scopes[0], "PPID", h);
		struct var *v = old ? &old->v : scope_add(&t->scopes[0], "PPID", h);
		free(v->value);
		v->value = xstrdup(buf);
		v->flags = VAR_READONLY;
	}
	snprintf(buf, sizeof buf, "%ld", (long)getuid());
	vars_set(sh, "UID", buf, 0);
	char host[256];
	if (!scope_find(&t->scopes[0], "HOSTNAME", name_hash("HOSTNAME")) && gethostname(host, sizeof host) == 0) {
		host[sizeof host - 1] = '\0';
		vars_set(sh, "HOSTNAME", host, 0);
	}
	snprintf(buf, sizeof buf, "%ld", (long)geteuid());
	vars_set(sh, "EUID", buf, 0);

	const char *pwd = NULL;
	{
		struct var_entry *e = scope_find(&t->scopes[0], "PWD", name_hash("PWD"));
		if (e)
			pwd = e->v.value;
	}
	if (!pwd_is_valid(pwd)) {
		char *cwd = getcwd(NULL, 0);
		if (cwd) {
			vars_set(sh, "PWD", cwd, VAR_EXPORT);
			free(cwd);
		}
	} else {
		vars_set(sh, "PWD", pwd, VAR_EXPORT);
	}

	add_dynamic(sh, "RANDOM", VAR_DYN_RANDOM);
	add_dynamic(sh, "SECONDS", VAR_DYN_SECONDS);
	add_dynamic(sh, "LINENO", VAR_DYN_LINENO);
	add_dynamic(sh, "PIPESTATUS", VAR_DYN_PIPESTATUS);
	add_dynamic(sh, "EPOCHSECONDS", VAR_DYN_EPOCH);
	add_dynamic(sh, "EPOCHREALTIME", VAR_DYN_EPOCHREAL);
	add_dynamic(sh, "BASHPID", VAR_DYN_PID);
	add_dynamic(sh, "BASH_COMMAND", VAR_DYN_COMMAND);
	/* Options from an exported $SHELLOPTS are on from the start, as in
	 * bash; both lists are read-only, computed from the options. */
	{
		struct var_entry *e = scope_find(&t->scopes[0], "SHELLOPTS", name_hash("SHELLOPTS"));
		if (e && e->v.value && (e->v.flags & VAR_EXPORT))
			options_import(sh, e->v.value);
	}
	add_dynamic(sh, "SHELLOPTS", VAR_DYN_OPTIONS | VAR_READONLY);
	add_dynamic(sh, "BASHOPTS", VAR_DYN_OPTIONS | VAR_READONLY);
	add_dynamic(sh, "FUNCNAME", VAR_DYN_STACK);
	add_dynamic(sh, "BASH_SOURCE", VAR_DYN_STACK);
	add_dynamic(sh, "BASH_LINENO", VAR_DYN_STACK);
}

void vars_free(struct shell *sh)
{
	struct var_table *t = sh->vars;
	if (!t)
		return;
	for (size_t i = 0; i < t->nscopes; i++)
		scope_free(&t->scopes[i]);
	free(t->scopes);
	strv_free(t->env);
	free(t);
	sh->vars = NULL;
}

int vars_set_flags(struct shell *sh, const char *name, unsigned set, unsigned clear)
{
	if (!vars_valid_name(name))
		return name_error(sh, name);
	struct var *v = find_visible(sh->vars, name, NULL);
	/* declare -i r gives the attribute to what r names; +n acts on r */
	if (!((set | clear) & VAR_NAMEREF))
		FOLLOW_REF(sh, name, v, vars_set_flags(sh, target_, set, clear));
	if (v && (v->flags & VAR_READONLY) && (clear & VAR_READONLY))
		return readonly_error(sh, name);
	if (!v)
		v = scope_add(&sh->vars->scopes[0], name, name_hash(name));
	mark_env_dirty(sh, v);
	if ((set & VAR_ARRAY) && !(v->flags & VAR_ARRAY)) {
		make_array(v);
		v->flags &= ~(unsigned)VAR_DYNAMIC;
	}
	/* -l and -u exclude each other: the last one given wins. */
	if (set & VAR_LOWER)
		v->flags &= ~(unsigned)VAR_UPPER;
	if (set & VAR_UPPER)
		v->flags &= ~(unsigned)VAR_LOWER;
	v->flags = (v->flags | set) & ~(clear & ~(unsigned)VAR_ARRAY);
	mark_env_dirty(sh, v);
	return 0;
}
