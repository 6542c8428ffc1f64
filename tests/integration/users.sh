#!/bin/sh
# ~user expansion in both link modes. A static sbsh (configure.ac) keeps
# glibc's name service to /etc/passwd, since loading another NSS module
# into a static binary crashes, and asks getent(1) for other users.
set -u
here=$(dirname "$0")
. "${top_srcdir:-$here/../..}/tests/integration/lib.sh"

cd "$scratch" || exit 1
root_home=$(awk -F: '$1 == "root" { print $6 }' /etc/passwd)
check "~root from /etc/passwd" "$root_home/x" "$("$SBSH" -c 'echo ~root/x')"
# The user is in no database: nsswitch.conf may list systemd after files,
# the module whose loading crashed the static build.
out=$("$SBSH" -c 'echo ~sbsh_no_such_user_q7; echo done' 2>&1)
check "unknown user stays literal, no crash" "~sbsh_no_such_user_q7
done" "$out"

# A user only getent knows (a directory service, here a getent on PATH).
mkdir bin
cat > bin/getent <<'SH'
#!/bin/sh
[ "$1 $2" = "passwd sbsh_net_user" ] && echo "sbsh_net_user:x:4242:4242::/srv/net home:/bin/sh" && exit 0
exit 2
SH
chmod +x bin/getent
if readelf -l "$SBSH" 2>/dev/null | grep -q 'INTERP'; then
	expected='~sbsh_net_user/a' # dynamic: glibc asks every NSS module itself
else
	expected='/srv/net home/a'
fi
check "a user from getent" "$expected" "$(PATH="$scratch/bin:$PATH" "$SBSH" -c 'echo ~sbsh_net_user/a')"
check "getent's other users are not taken" "~sbsh_net_user2" \
	"$(PATH="$scratch/bin:$PATH" "$SBSH" -c 'echo ~sbsh_net_user2')"

finish
