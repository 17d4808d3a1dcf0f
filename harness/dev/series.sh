#!/bin/bash
# Export the series as git format-patch mails: series.sh [--check]
#
# A git repository made from Debian's pristine tarball (first commit = the
# tarball) gets one commit per entry of patches/series: the patch's diff
# plus the new files its "New-files:" line names, with the patch's own
# subject and message. git format-patch --cover-letter then writes the
# mails to build/series/mails, the cover letter from patches/cover-letter.txt
# with its {{...}} numbers filled in from results/ (dev/cover_numbers.py).
# With --check, the mails are also applied
# with git am onto the pristine commit, the result is compared with the
# composed tree, and checkpatch --strict runs on every mail.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

check=
[ "${1:-}" = "--check" ] && check=1

"$HARNESS/build/compose.sh" >/dev/null
out=$BUILD/series
git_dir=$out/linux
mails=$out/mails
version=$(kernel_version "$PRISTINE")
g() { git -C "$git_dir" -c user.name="SLQB developers" -c user.email="slqb@example.org" "$@"; }

if ! g rev-parse -q --verify refs/tags/pristine >/dev/null 2>&1; then
	note "making a git repository of the pristine $version tree (once)"
	rm -rf "$git_dir"
	mkdir -p "$git_dir"
	cp -a "$PRISTINE/." "$git_dir/"
	rm -f "$git_dir/.unpacked"
	g init -q
	g add -A -f .
	g commit -q -m "Linux $version (Debian linux-source-6.1)"
	g tag pristine
fi

g checkout -q -f -B slqb pristine
g clean -q -fdx
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	patch_file=$REPO/patches/$p
	(cd "$git_dir" && patch -p1 -s --no-backup-if-mismatch -i "$patch_file") ||
		die "patch does not apply: patches/$p"
	for f in $(sed -n 's/^New-files: //p;/^---$/q' "$patch_file"); do
		mkdir -p "$git_dir/$(dirname "$f")"
		cp "$REPO/$f" "$git_dir/$f"
	done
	msg=$(mktemp)
	sed -n '/^---$/q;p' "$patch_file" | sed -e 's/^Subject: \[PATCH\] //' -e '/^New-files: /d' > "$msg"
	g add -A -f .
	g commit -q -F "$msg"
	rm -f "$msg"
done < "$REPO/patches/series"

rm -rf "$mails"
g format-patch -q --cover-letter -o "$mails" pristine..slqb
cover=$(ls "$mails"/0000-*)
# The cover letter's numbers come from the latest records (results/).
blurb=$out/cover-letter.txt
python3 "$HARNESS/dev/cover_numbers.py" "$REPO/results" < "$REPO/patches/cover-letter.txt" > "$blurb" ||
	die "patches/cover-letter.txt asks for a number no record in results/ holds (above)"
python3 - "$cover" "$blurb" <<'EOF'
import sys
cover, blurb = sys.argv[1], open(sys.argv[2]).read().rstrip('\n')
subject, _, body = blurb.partition('\n')
text = open(cover).read()
text = text.replace('*** SUBJECT HERE ***', subject.strip())
text = text.replace('*** BLURB HERE ***', body.strip('\n'))
open(cover, 'w').write(text)
EOF
note "wrote $(ls "$mails" | wc -l) mails to $mails (Linux $version + $(g rev-list --count pristine..slqb) patches)"

[ -n "$check" ] || exit 0

patches=()
for m in "$mails"/*.patch; do
	case "$m" in */0000-*) ;; *) patches+=("$m") ;; esac
done

# git am onto the pristine commit must reproduce the composed tree.
g checkout -q -f -B am-check pristine
g am -q "${patches[@]}" || die "the mails do not apply with git am"
if ! diff -r -q -x .git "$git_dir" "$SRC" | grep -v -e '\.series-stamp' -e '\.unpacked' > "$out/am-diff.txt"; then
	note "git am reproduces the composed tree exactly"
else
	cat "$out/am-diff.txt" >&2
	die "git am result differs from the composed tree (see $out/am-diff.txt)"
fi

# Kernel style: checkpatch --strict on every mail.
bad=0
for m in "${patches[@]}"; do
	res=$(perl "$git_dir/scripts/checkpatch.pl" --strict --no-tree --terse --show-types "$m" 2>&1 |
	      grep -E '^(.*: )?(ERROR|WARNING|CHECK)' || true)
	if [ -n "$res" ]; then
		echo "checkpatch: $(basename "$m"):" >&2
		echo "$res" | sed 's/^/  /' >&2
		echo "$res" | grep -qE 'ERROR|WARNING' && bad=1
	fi
done
[ "$bad" = 0 ] || die "checkpatch --strict reports errors or warnings"
note "checkpatch --strict: no errors or warnings"

# kernel-doc: quiet on the series' new C files and headers.
kdoc=$(new_kernel_files | grep -E '\.[ch]$' | grep -v '^tools/' |
	while read -r f; do perl "$git_dir/scripts/kernel-doc" -none "$git_dir/$f" 2>&1; done)
[ -z "$kdoc" ] || { echo "$kdoc" >&2; die "kernel-doc -none reports problems in the new files"; }
note "kernel-doc -none: quiet on $(new_kernel_files | grep -E '\.[ch]$' | grep -vc '^tools/') new files"
