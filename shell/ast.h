/* The abstract syntax tree: what the parser produces, the classifier walks
 * and the executor runs. Once built, a tree is never modified: expansion
 * works on copies of the words' values, so what was judged is what runs. */
#ifndef SBSH_AST_H
#define SBSH_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/util.h"

/* 1-based line and column; offset is the byte offset into the parsed text
 * (32 bits, as line and column: every word carries two of these, and a
 * large script's tree is mostly words; a text past 4 GiB, which the shell
 * never holds, would wrap only this display offset). */
struct src_pos {
	unsigned line;
	unsigned col;
	unsigned offset;
};

struct src_range {
	struct src_pos begin;
	struct src_pos end; /* one past the last byte */
};

struct node;
struct word;

/* ---- words ---------------------------------------------------------- */

enum word_part_kind {
	WORD_LITERAL, /* text, quoted or not */
	WORD_DQUOTE,  /* "...": a container of parts, all quoted */
	WORD_PARAM,   /* $x, ${...} */
	WORD_CMDSUB,  /* $(...) or `...` */
	WORD_ARITH,   /* $((...)) */
	WORD_PROCSUB, /* <(...) or >(...) */
};

/* How a literal was written; expansion only needs `quoted`, the printer and
 * the classifier like to know the rest. */
enum quote_style {
	QUOTE_NONE,      /* plain text: subject to splitting, globbing, tilde, braces */
	QUOTE_BACKSLASH, /* \c outside double quotes (text is the one char) */
	QUOTE_SINGLE,    /* '...' */
	QUOTE_DOLLAR,    /* $'...' with escapes already decoded */
	QUOTE_DOUBLE,    /* literal text inside "...", backslash escapes decoded */
};

enum param_op {
	PARAM_PLAIN,          /* $x ${x} */
	PARAM_LENGTH,         /* ${#x} */
	PARAM_DEFAULT,        /* ${x-w} ${x:-w} */
	PARAM_ASSIGN,         /* ${x=w} ${x:=w} */
	PARAM_ERROR,          /* ${x?w} ${x:?w} */
	PARAM_ALTERNATE,      /* ${x+w} ${x:+w} */
	PARAM_REMOVE_SMALL_SUFFIX, /* ${x%w} */
	PARAM_REMOVE_LARGE_SUFFIX, /* ${x%%w} */
	PARAM_REMOVE_SMALL_PREFIX, /* ${x#w} */
	PARAM_REMOVE_LARGE_PREFIX, /* ${x##w} */
	PARAM_REPLACE,        /* ${x/pat/rep}  (arg = pat, arg2 = rep or NULL) */
	PARAM_REPLACE_ALL,    /* ${x//pat/rep} */
	PARAM_REPLACE_PREFIX, /* ${x/#pat/rep} */
	PARAM_REPLACE_SUFFIX, /* ${x/%pat/rep} */
	PARAM_SUBSTRING,      /* ${x:off} ${x:off:len} (arg = off, arg2 = len or NULL) */
	PARAM_UPPER_FIRST,    /* ${x^} (arg = optional pattern) */
	PARAM_UPPER_ALL,      /* ${x^^} */
	PARAM_LOWER_FIRST,    /* ${x,} */
	PARAM_LOWER_ALL,      /* ${x,,} */
	PARAM_PREFIX_NAMES,   /* ${!prefix*} ${!prefix@}: name = prefix, at = true for @ */
	PARAM_KEYS,           /* ${!a[@]} ${!a[*]} */
	PARAM_TRANSFORM,      /* ${x@Q} ${x@E} ${x@U} ${x@u} ${x@L} ${x@P} ${x@a} ${x@A} ${x@K}
	                       * ${x@k} (the letter in transform) */
};

struct word_param {
	char *name;          /* "x", "10", "@", "*", "#", "?", "-", "$", "!", "0" */
	struct word *index;  /* a[index], or NULL; "@"/"*" subscripts are literal words */
	struct word *arg;    /* operand word, or NULL */
	struct word *arg2;   /* replacement / substring length, or NULL */
	enum param_op op;
	char transform;      /* PARAM_TRANSFORM: one of Q E U u L P a A K k */
	bool colon : 1;      /* ${x:-w} rather than ${x-w} */
	bool braced : 1;     /* written ${...} */
	bool indirect : 1;   /* ${!x}: the value of x names the variable */
	bool at : 1;         /* PARAM_PREFIX_NAMES written with @ */
};

/* $( ) and `...` (WORD_CMDSUB), <( ) and >( ) (WORD_PROCSUB). */
struct word_subst {
	struct node *program; /* parsed body; NULL for an empty one */
	char *text;           /* the body's source text, for printing */
	bool backquote;       /* WORD_CMDSUB written `...` */
	bool output;          /* WORD_PROCSUB written >( ) rather than <( ) */
};

/* A part is 24 bytes: a large script's tree is mostly words of one
 * literal part, so the rare kinds (parameters, substitutions) are held by
 * pointer, and a part has no source range of its own (its word has one). */
struct word_part {
	enum word_part_kind kind;
	/* A literal that the lexer made as syntax of a declaration builtin's
	 * NAME=(...) operand (lex_array_word): `NAME=(`, the one-blank
	 * separators between elements and `)`, as opposed to text written. */
	bool array_syntax;
	union {
		struct {
			char *text; /* may be empty ("" or '') */
			unsigned len; /* a text is under 4 GiB (lexer.c refuses more) */
			enum quote_style quote;
		} literal;
		struct word *dquote; /* inner parts of "..." */
		struct word_param *param;
		struct word_subst *cmdsub;
		struct {
			struct word *expr; /* expanded as in double quotes, then evaluated */
		} arith;
		struct word_subst *procsub;
	} u;
};

struct word {
	struct word_part *parts;
	size_t nparts;
	struct src_range range;
};

/* ---- redirections ----------------------------------------------------- */

enum redir_op {
	REDIR_IN,            /* <    */
	REDIR_OUT,           /* >    */
	REDIR_CLOBBER,       /* >|   */
	REDIR_APPEND,        /* >>   */
	REDIR_RDWR,          /* <>   */
	REDIR_DUP_IN,        /* <&   (target "-" closes) */
	REDIR_DUP_OUT,       /* >&   (target "-" closes; `>& file` with no fd = &>) */
	REDIR_HEREDOC,       /* <<   */
	REDIR_HEREDOC_STRIP, /* <<-  */
	REDIR_HERESTRING,    /* <<<  */
	REDIR_OUT_ERR,       /* &>   */
	REDIR_APPEND_ERR,    /* &>>  */
};

struct redir {
	enum redir_op op;
	int fd;              /* explicit io number, or -1 for the operator's default */
	/* {NAME}>file (bash): the shell picks a free descriptor (fd is -1)
	 * and sets NAME to it; {NAME}>&- closes the one NAME holds. In the
	 * tree's arena. */
	const char *fd_var;
	struct word *target; /* file name, fd word, here-string; the delimiter for here-docs */
	/* Here-documents: the body. With a quoted delimiter it is one quoted
	 * literal part; otherwise parts as in double quotes (params, $( ), $(( ))
	 * and backslash before $ ` \ newline only). Leading tabs are already
	 * stripped for <<-. */
	struct word *heredoc;
	bool heredoc_quoted;
};

/* ---- assignments ------------------------------------------------------ */

struct assign {
	char *name;
	struct word *index;   /* a[i]=v, or NULL */
	struct word *value;   /* scalar value (may have zero parts), NULL for arrays */
	struct word **array;  /* a=(w1 w2 ...): words, each expanded with splitting/globbing */
	unsigned narray;
	bool is_array;
	bool append;          /* += */
	struct src_range range;
};

/* ---- [[ ]] conditional expressions ------------------------------------ */

enum cond_kind {
	COND_WORD,   /* [[ word ]]: true when non-empty */
	COND_UNARY,  /* -f word, -z word, -v name, ... */
	COND_BINARY, /* lhs op rhs: = == != < > =~ -eq -ne -lt -le -gt -ge -nt -ot -ef */
	COND_NOT,
	COND_AND,
	COND_OR,
};

struct cond_expr {
	enum cond_kind kind;
	char *op;             /* "-f", "==", "=~", ... (COND_UNARY / COND_BINARY) */
	struct word *lhs;     /* COND_WORD / COND_UNARY operand / COND_BINARY left */
	struct word *rhs;     /* COND_BINARY right: a pattern for = == !=, a regex for =~ */
	struct cond_expr *left, *right; /* NOT uses left; AND / OR use both */
};

/* ---- commands ---------------------------------------------------------- */

enum node_kind {
	NODE_SIMPLE,
	NODE_PIPELINE,
	NODE_AND_OR,
	NODE_LIST,
	NODE_SUBSHELL,
	NODE_BRACE_GROUP,
	NODE_IF,
	NODE_LOOP,    /* while / until */
	NODE_FOR,     /* for name [in words]; do ...; done */
	NODE_ARITH_FOR, /* for ((init; cond; step)) */
	NODE_CASE,
	NODE_FUNCDEF,
	NODE_COND,    /* [[ ]] */
	NODE_ARITH,   /* (( )) */
};

struct list_item {
	struct node *node;
	bool async; /* terminated by & */
};

enum case_terminator {
	CASE_BREAK,       /* ;;  */
	CASE_FALLTHROUGH, /* ;&  */
	CASE_CONTINUE,    /* ;;& */
};

struct case_item {
	struct word **patterns;
	struct node *body; /* NULL when empty */
	unsigned npatterns;
	enum case_terminator terminator;
};

/* Nodes live in the arena of their tree (ast_node_new), each taking the
 * header and its kind's member of the union only: a simple command is 48
 * bytes, a group 32. Copy one with ast_node_copy, never by value. Counts
 * are 32 bits (the parser refuses more). */
struct node {
	enum node_kind kind;
	/* The line the command starts on, $LINENO's (where a command ends,
	 * and where redirections, conditions and case items are, is never
	 * asked, so it is not kept). */
	unsigned line;
	/* Redirections of this command, in source order. Simple commands keep
	 * theirs here too. */
	struct redir *redirs;
	unsigned nredirs;
	/* The root of its tree: ast_node_free() on it frees the tree. */
	bool root;
	union {
		struct {
			struct assign *assigns;
			struct word **words; /* argv before expansion; may be empty */
			unsigned nassigns;
			unsigned nwords;
		} simple;
		struct {
			struct node **cmds;
			bool *stderr_too; /* stderr_too[i]: stage i was followed by |& */
			unsigned ncmds;
			bool bang;        /* ! pipeline */
			bool timed;       /* time pipeline */
		} pipeline;
		struct {
			bool is_or; /* || rather than && */
			struct node *left, *right;
		} and_or;
		struct {
			struct list_item *items;
			unsigned nitems;
		} list;
		struct {
			struct node *body; /* NODE_SUBSHELL, NODE_BRACE_GROUP */
		} group;
		struct {
			struct node *cond;
			struct node *then_part;
			struct node *else_part; /* elif is a nested NODE_IF here; NULL if none */
		} if_;
		struct {
			struct node *cond;
			struct node *body;
			bool until;
		} loop;
		struct {
			char *var;
			struct word **words;
			struct node *body;
			unsigned nwords;
			bool has_in; /* false: iterate over "$@" */
		} for_;
		struct {
			struct word *init, *cond, *step; /* each may be NULL */
			struct node *body;
		} arith_for;
		struct {
			struct word *subject;
			struct case_item *items;
			unsigned nitems;
		} case_;
		struct {
			char *name;
			struct node *body; /* a compound command (with its redirections) */
			bool keyword;      /* written `function name` */
		} funcdef;
		struct {
			struct cond_expr *expr;
		} cond;
		struct {
			struct word *expr; /* (( expr )) */
		} arith;
	} u;
};

/* ---- ast.c ------------------------------------------------------------ */

/* Frees a whole tree, given its root; a no-op on an inner node (its memory
 * goes with the root's arena). */
void ast_node_free(struct node *n);
/* For words and conditions built by hand; those of an arena tree belong
 * to the tree and must not be passed here. */
void ast_word_free(struct word *w);
void ast_cond_free(struct cond_expr *c);
/* A deep copy, for function definitions that outlive the parsed text: a
 * tree of its own (one arena), freed by ast_node_free(). */
struct node *ast_node_copy(const struct node *n);

/* The arena of parsed trees: a bump allocator, freed all at once. Used by
 * the parser; ast_node_free() on the root made in it destroys it. Its
 * state is here so that the common allocation, a bump, is inline; only
 * ast.c touches the chunks. */
struct arena_chunk;
struct ast_arena {
	char *next, *end;           /* free space of the newest chunk */
	struct arena_chunk *chunks; /* newest first */
	size_t chunk_size;
};

/* Under AddressSanitizer every object gets its own malloc, so that the
 * sanitizer still sees overruns and uses after free inside a tree. */
#if defined(__SANITIZE_ADDRESS__)
#define AST_ARENA_PER_OBJECT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AST_ARENA_PER_OBJECT 1
#endif
#endif

union ast_arena_align {
	void *p;
	size_t s;
	long long l;
	double d;
};
#define AST_ARENA_ALIGN _Alignof(union ast_arena_align)

struct ast_arena *ast_arena_create(void);
void ast_arena_destroy(struct ast_arena *a);
/* A zeroed node of the kind (sized for it: NODE_FOR has room to become
 * NODE_ARITH_FOR) in the arena. A root, made last, owns the arena. */
struct node *ast_node_new(struct ast_arena *a, enum node_kind kind, unsigned line, bool root);
void *ast_arena_alloc_slow(struct ast_arena *a, size_t size);
char *ast_arena_strndup_slow(struct ast_arena *a, const char *s, size_t len);

/* size bytes aligned for any AST structure; ast_arena_zalloc zeroes them. */
static inline void *ast_arena_alloc(struct ast_arena *a, size_t size)
{
#ifndef AST_ARENA_PER_OBJECT
	size_t pad = (size_t)(-(uintptr_t)a->next) & (AST_ARENA_ALIGN - 1);
	if (a->next && size && pad + size <= (size_t)(a->end - a->next)) {
		void *r = a->next + pad;
		a->next += pad + size;
		return r;
	}
#endif
	return ast_arena_alloc_slow(a, size);
}

static inline void *ast_arena_zalloc(struct ast_arena *a, size_t size)
{
	void *r = ast_arena_alloc(a, size);
	memset(r, 0, size);
	return r;
}

/* A NUL-terminated copy of s[0..len) (unaligned). */
static inline char *ast_arena_strndup(struct ast_arena *a, const char *s, size_t len)
{
#ifndef AST_ARENA_PER_OBJECT
	if (a->next && len < (size_t)(a->end - a->next)) {
		char *r = a->next;
		a->next += len + 1;
		if (len)
			memcpy(r, s, len);
		r[len] = '\0';
		return r;
	}
#endif
	return ast_arena_strndup_slow(a, s, len);
}

/* The printer: shell text that parses back to an equivalent tree (used by
 * set -x for compound pieces, `type`/`declare -f`, prompts and --classify). */
void ast_print_node(struct strbuf *out, const struct node *n);
/* A command line as one line of text for a record (the event stream, a
 * checkpoint): ast_print_node without the trailing newline and spaces;
 * malloc'd ("" for NULL). Past AST_LINE_TEXT_MAX bytes the rest of the
 * commands is left out, and " ..." says so. */
#define AST_LINE_TEXT_MAX 65536
char *ast_line_text(const struct node *n);
void ast_print_word(struct strbuf *out, const struct word *w);
/* A function's definition as bash shows it (`type`, `declare -f`): the
 * body on lines of its own, indented by four, ending in a newline. */
void ast_print_function(struct strbuf *out, const char *name, const struct node *body);
/* True when the word is made of literal parts only; *out gets its value
 * after quote removal (caller frees). Used by the classifier and for
 * keywords such as `in`. */
bool ast_word_literal_value(const struct word *w, char **out);

#endif
