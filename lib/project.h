/* Which folder is the project of a session started in a given folder:
 * the sandbox's writable grant, the warden's and the keeper's root. */
#ifndef SBSH_LIB_PROJECT_H
#define SBSH_LIB_PROJECT_H

/* The top of the git work tree holding cwd (a folder with a .git folder or
 * file), or cwd itself outside git. A repository at / or at $HOME
 * (dotfiles) is not the project: cwd is, then. NULL when cwd is / or $HOME,
 * or not absolute. The result is malloc'd. */
char *project_top(const char *cwd);

#endif
