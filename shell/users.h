/* Users' home folders, safe in a statically linked sbsh. */
#ifndef SBSH_USERS_H
#define SBSH_USERS_H

/* Keeps glibc's name service to /etc/passwd and /etc/group: a static
 * binary that loads another NSS module (systemd, sss, ldap) crashes. */
void users_pin_files(void);

/* The home folder of user name (malloc'd), or NULL when there is none. */
char *users_home(const char *name);

#endif
