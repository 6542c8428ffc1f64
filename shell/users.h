/* Users' home folders, safe in a statically linked sbsh. */
#ifndef SBSH_USERS_H
#define SBSH_USERS_H

/* Says sbsh is linked statically (main.c knows): from then on glibc's
 * name service is kept to /etc/passwd and /etc/group, since a static
 * binary that loads another NSS module (systemd, sss, ldap) crashes. */
void users_static_libc(void);
/* Call before any getpw*() or what may call one (readline's tilde):
 * pins NSS to the files the first time, in a static sbsh. It reads
 * nsswitch.conf, so it is not done at startup. */
void users_prepare(void);

/* The home folder of user name (malloc'd), or NULL when there is none. */
char *users_home(const char *name);

#endif
