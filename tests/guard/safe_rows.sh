#!/bin/sh
# Binding never turns a false alarm into a refusal: every SAFE row of the
# classification corpora runs headless (CI=1 sbsh -c) without being
# refused. The programs are stand-ins that exit 0 (one for every name in
# the system's bin folders), so the rows run for real through the shell,
# its static pass and its run-time check, and touch nothing.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/report.sh"
SBSH=${SBSH:-$here/../../sbsh}

work=$(mktemp -d "${TMPDIR:-/tmp}/sbsh-safe-rows-XXXXXX")
trap 'rm -rf "$work"' EXIT
stubs=$work/bin
mkdir -p "$stubs" "$work/project/src" "$work/project/.git"
printf '#!/bin/sh\nexit 0\n' > "$stubs/.stub"
chmod +x "$stubs/.stub"
for dir in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
	[ -d "$dir" ] || continue
	for prog in "$dir"/*; do
		name=${prog##*/}
		# A copy, not a link: the check judges what a link points to.
		[ -e "$stubs/$name" ] || cp "$stubs/.stub" "$stubs/$name"
	done
done

tab=$(printf '\t')
nl='
'
for corpus in "$here/../classify/corpus.tsv" "$here/../classify/extra.tsv"; do
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in SAFE"$tab"*) ;; *) continue ;; esac
		rest=${line#*"$tab"}
		command=${rest%%"$tab"*}
		name=$command
		# U+2424 stands for a newline.
		while case $command in *␤*) true ;; *) false ;; esac; do
			command=${command%%␤*}$nl${command#*␤}
		done
		err=$(cd "$work/project" && PATH=$stubs CI=1 timeout 20 "$SBSH" -c "$command" 2>&1 >/dev/null </dev/null)
		status=$?
		case $err in
		*refused*) bad "SAFE row refused headless: $name" "$err" ;;
		*)
			if [ "$status" -eq 121 ]; then
				bad "SAFE row refused headless (121): $name" "$err"
			else
				ok "SAFE row runs headless: $name"
			fi
			;;
		esac
	done < "$corpus"
done
finish
